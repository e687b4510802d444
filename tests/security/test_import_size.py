"""The club import's size limit holds for a body sent without a Content-Length too (issue 11,
item 3: a 73 MB file was accepted): a chunked upload over real HTTP is refused with 413 and
the limit in words once it passes 2 MB, before the form is read."""

from __future__ import annotations

import http.client
import urllib.parse

from security_world import drop, secure_app
from support.browser import serve

MB = 1024 * 1024


def test_a_chunked_upload_past_the_import_limit_is_413(database_url: str) -> None:
    app = secure_app(database_url)
    try:
        with serve(app) as base:
            where = urllib.parse.urlsplit(base)
            connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=30)
            connection.putrequest("POST", "/clubs/import")
            connection.putheader("Content-Type", "multipart/form-data; boundary=b")
            connection.putheader("Transfer-Encoding", "chunked")
            connection.endheaders()
            head = b'--b\r\nContent-Disposition: form-data; name="file"; filename="c.json"\r\n\r\n['
            try:
                for chunk in [head] + [b" " * MB] * 73:
                    connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                connection.send(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server stopped reading: what is asserted is its answer
            answer = connection.getresponse()
            page = answer.read().decode()
            connection.close()
        assert answer.status == 413
        assert "at most 2 MB" in page
    finally:
        drop(app)
