"""Static files under content-hashed names (scorekeeper/web/static_files.py): the pages name
them by their content, a hashed name is cached for a year, a changed file gets a new name."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.static_names import plain
from support.world import new_club, pagat_match, signed_in

from scorekeeper import create_app
from scorekeeper.accounts import service as accounts
from scorekeeper.web import static_files
from scorekeeper.web.static_files import hashed_name, split_hashed

IMMUTABLE = "public, max-age=31536000, immutable"
STATIC_REF = re.compile(r'(?:src|href)="(/static/[^"]+)"')
HASHED = re.compile(r"/static/.+\.[0-9a-f]{12}\.\w+")


def static_refs(page: str) -> list[str]:
    return STATIC_REF.findall(page)


def isolated_app(static: Path, **config: object) -> Flask:
    """An app serving `static` as its static folder, hashed as at start-up."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", **config})
    app.static_folder = str(static)
    static_files.rescan(app)
    return app


def url_of(app: Flask, name: str) -> str:
    with app.test_request_context():
        from flask import url_for

        return url_for("static", filename=name)


@pytest.mark.parametrize(
    ("name", "hashed"),
    [
        ("style.css", "style.0123456789ab.css"),
        ("js/hand-entry.js", "js/hand-entry.0123456789ab.js"),
        ("icons/icon.v2.png", "icons/icon.v2.0123456789ab.png"),
        ("LICENSE", "LICENSE.0123456789ab"),
        ("fonts.d/.hidden", "fonts.d/.hidden.0123456789ab"),
    ],
)
def test_a_name_and_its_hashed_name_go_both_ways(name: str, hashed: str) -> None:
    assert hashed_name(name, "0123456789ab") == hashed
    assert split_hashed(hashed) == (name, "0123456789ab")


def test_a_plain_name_has_no_hash() -> None:
    assert split_hashed("style.css") is None
    assert split_hashed("js/draft.js") is None
    assert split_hashed("js.0123456789ab/draft.js") is None, "a folder's dots are no hash"


def test_every_page_names_its_static_files_by_content(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        user = accounts.create_user("ann", "password1")
        club, players = new_club(user)
        match_id = pagat_match(club, user, list(players.values())).id
        user_id = user.id
    pages = ["/", "/login", "/offline", "/referee/meld"]
    refs = {ref for path in pages for ref in static_refs(client.get(path).text)}
    signed_in(client, user_id)
    for path in ("/", f"/matches/{match_id}", f"/matches/{match_id}/hands/new"):
        refs |= set(static_refs(client.get(path).text))
    names = {plain(ref) for ref in refs}
    assert {"/static/style.css", "/static/js/hand-entry.js", "/static/js/pwa.js"} <= names
    for ref in refs:
        assert HASHED.fullmatch(ref), f"{ref} is not hashed"
        answer = client.get(ref)
        assert answer.status_code == 200, ref
        assert answer.headers["Cache-Control"] == IMMUTABLE, ref
        assert answer.data == client.get(plain(ref)).data, "the hashed name is the same file"


def test_the_manifest_and_the_worker_shell_name_hashed_files(client: FlaskClient) -> None:
    icons = client.get("/manifest.webmanifest").json["icons"]  # type: ignore[index]
    assert all(HASHED.fullmatch(icon["src"]) for icon in icons)
    worker = client.get("/sw.js").text
    shell = re.findall(r'"(/static/[^"]+)"', worker.split("\n")[1])
    assert shell and all(HASHED.fullmatch(url) for url in shell)


def test_a_hashed_file_is_cached_for_a_year_and_a_plain_one_is_revalidated(
    client: FlaskClient, app: Flask
) -> None:
    hashed = url_of(app, "js/draft.js")
    answer = client.get(hashed)
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == IMMUTABLE
    plain_answer = client.get("/static/js/draft.js")
    assert plain_answer.status_code == 200
    assert "immutable" not in plain_answer.headers["Cache-Control"]
    assert "no-cache" in plain_answer.headers["Cache-Control"]
    assert plain_answer.data == answer.data
    # The CSP and the other security headers come with static files too.
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")


def test_an_old_hash_gets_todays_file_but_is_not_kept(client: FlaskClient) -> None:
    """A page from before a deploy asks for a name whose hash is gone: it still works, and no
    cache may keep today's file under the old name for a year."""
    answer = client.get("/static/js/draft.000000000000.js")
    assert answer.status_code == 200
    assert answer.data == client.get("/static/js/draft.js").data
    assert "immutable" not in answer.headers["Cache-Control"]
    assert "no-cache" in answer.headers["Cache-Control"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/nothing.0123456789ab.js",
        "/static/../pyproject.0123456789ab.toml",
        "/static/%2e%2e/pyproject.0123456789ab.toml",
    ],
)
def test_a_hashed_name_of_no_static_file_is_404(client: FlaskClient, path: str) -> None:
    assert client.get(path).status_code == 404


def test_a_changed_file_gets_a_new_name_at_the_next_start(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "style.css").write_text("body { color: red; }")
    app = isolated_app(static)
    before = url_of(app, "style.css")
    (static / "style.css").write_text("body { color: blue; }")
    assert url_of(app, "style.css") == before, "hashed once at start-up, not per request"
    restarted = isolated_app(static)
    after = url_of(restarted, "style.css")
    assert after != before and plain(after) == plain(before) == "/static/style.css"
    with restarted.test_client() as client:
        answer = client.get(after)
        assert answer.text == "body { color: blue; }"
        assert answer.headers["Cache-Control"] == IMMUTABLE
        stale = client.get(before)
        assert "immutable" not in stale.headers["Cache-Control"]


def test_a_debug_server_renames_a_file_as_soon_as_it_is_edited(tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "style.css").write_text("body { color: red; }")
    app = isolated_app(static, DEBUG=True)
    app.extensions["static_hashes"].watch = True  # as init_app sets it under DEBUG
    before = url_of(app, "style.css")
    (static / "style.css").write_text("body { color: blue; }")
    after = url_of(app, "style.css")
    assert after != before
    with app.test_client() as client:
        assert client.get(after).headers["Cache-Control"] == IMMUTABLE


def test_debug_mode_watches_files_and_production_does_not() -> None:
    production = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    debug = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://", "DEBUG": True})
    assert production.extensions["static_hashes"].watch is False
    assert debug.extensions["static_hashes"].watch is True
