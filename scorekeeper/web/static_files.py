"""Static files under content-hashed names, cached for a year.

`url_for("static", filename="style.css")` gives `/static/style.<hash>.css`, the hash being
the first 12 hex digits of the file's SHA-256. A hashed name never changes its content, so it
is served with `Cache-Control: public, max-age=31536000, immutable`: a phone on a slow line
loads the pages' style and scripts from its cache after the first visit, without even asking
whether they changed. A changed file has a new name, so the page that names it gets the new
one. The plain name (`/static/style.css`) still works, revalidated on every use.

The hashes are worked out once, when the app is made (a few dozen small files); only a debug
server checks each file's modification time, so an edited file gets its new name at once.
The page scripts are classic scripts that load nothing themselves, and style.css names no
other file, so the names in the templates are all there is to hash.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, send_from_directory
from werkzeug.security import safe_join

#: A year: what the HTTP caching spec suggests as "forever" for a name that never changes.
IMMUTABLE_AGE = 31_536_000
DIGITS = 12
#: "js/draft.0123456789ab.js" → ("js/draft", "0123456789ab", ".js"); the hash is always the
#: part before the last extension of the file's own name, never a folder's.
HASHED = re.compile(
    rf"^(?P<stem>(?:.*/)?[^/]+)\.(?P<digest>[0-9a-f]{{{DIGITS}}})(?P<ext>\.[^./]+)?$"
)


def hashed_name(name: str, digest: str) -> str:
    """`style.css` with its digest: `style.<digest>.css` (`LICENSE` → `LICENSE.<digest>`)."""
    folder, _slash, base = name.rpartition("/")
    stem, dot, ext = base.rpartition(".")
    if not dot or not stem:  # no extension, or a dotfile such as .well-known
        stem, ext = base, ""
    new = f"{stem}.{digest}.{ext}" if ext else f"{stem}.{digest}"
    return f"{folder}/{new}" if folder else new


def split_hashed(filename: str) -> tuple[str, str] | None:
    """The plain name and the digest of a hashed name; None for a name without one."""
    found = HASHED.match(filename)
    if found is None:
        return None
    return found["stem"] + (found["ext"] or ""), found["digest"]


def file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:DIGITS]


@dataclass
class StaticHashes:
    """The digest of every file under the static folder, by its name there ("js/draft.js")."""

    folder: Path
    watch: bool = False
    digests: dict[str, str] = field(default_factory=dict)
    mtimes: dict[str, int] = field(default_factory=dict)

    def scan(self) -> None:
        self.digests.clear()
        self.mtimes.clear()
        for path in sorted(self.folder.rglob("*")):
            if path.is_file():
                name = path.relative_to(self.folder).as_posix()
                self.digests[name] = file_digest(path)
                self.mtimes[name] = path.stat().st_mtime_ns

    def digest(self, name: str) -> str | None:
        if self.watch:
            self._refresh(name)
        return self.digests.get(name)

    def _refresh(self, name: str) -> None:
        """Debug only: a file edited (or added) since the scan gets its digest anew."""
        if safe_join(str(self.folder), name) is None:  # "../x" is no static file
            return
        path = self.folder / name
        try:
            mtime = path.stat().st_mtime_ns
        except OSError:
            return
        if self.mtimes.get(name) != mtime and path.is_file():
            self.digests[name] = file_digest(path)
            self.mtimes[name] = mtime


def hashes() -> StaticHashes:
    found: StaticHashes = current_app.extensions["static_hashes"]
    return found


def add_digest(endpoint: str, values: dict[str, Any]) -> None:
    """url_for("static", filename=...) names the file by its content."""
    if endpoint != "static" or "filename" not in values:
        return
    name = str(values["filename"])
    digest = hashes().digest(name)
    if digest is not None:
        values["filename"] = hashed_name(name, digest)


def serve(filename: str) -> Response:
    """A hashed name whose digest is the file's: a year, immutable. A hashed name with an old
    digest (a page from before a deploy) gets today's file, revalidated like a plain name, so
    no cache keeps it under that name. Anything else: Flask's own static view."""
    folder = current_app.static_folder or "static"
    table = hashes()
    split = split_hashed(filename)
    if split is not None and table.digest(filename) is None:
        name, digest = split
        current = table.digest(name)
        if current is not None:
            if digest != current:
                return send_from_directory(folder, name)
            response = send_from_directory(folder, name, max_age=IMMUTABLE_AGE)
            response.cache_control.immutable = True
            return response
    return current_app.send_static_file(filename)


def init_app(app: Flask) -> None:
    table = StaticHashes(Path(app.static_folder or "static"), watch=app.debug)
    table.scan()
    app.extensions["static_hashes"] = table
    app.url_defaults(add_digest)
    app.view_functions["static"] = serve


def rescan(app: Flask) -> None:
    """Work the digests out anew (a test that points the app at another static folder)."""
    table: StaticHashes = app.extensions["static_hashes"]
    table.folder = Path(app.static_folder or "static")
    table.scan()
