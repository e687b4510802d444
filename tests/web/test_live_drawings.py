"""Live drawings kept for every worker (play.drawings): a revision's changed parts are
drawn once and read by the other workers, and a kept drawing is never served for another
revision, language, match or build, nor to a link that was withdrawn. The poll's JSON costs
less to draw than to store: each worker draws it once a revision and stores nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Flask, g
from flask.testing import FlaskClient
from flask_babel import refresh
from support.databases import writes
from support.hand_entries import REFERENCE_HAND, typed
from support.world import new_club, pagat_match, signed_in

from scorekeeper import match as matches
from scorekeeper.extensions import db
from scorekeeper.models import Club, LiveDrawing, Match, User
from scorekeeper.play import drawings, live, live_pages, sharing


@pytest.fixture
def table(app: Flask, owner: User, client: FlaskClient) -> tuple[Club, Match, FlaskClient]:
    club, ids = new_club(owner)
    match = pagat_match(club, owner, [ids[n] for n in ("Ann", "Bob", "Cy", "Di")])
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    return club, match, signed_in(client, owner.id)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[tuple[str, int]]]:
    """Every drawing actually made, ("html" or "json", match id); every test starts as a
    fresh worker would (nothing in this process's memory)."""
    made: list[tuple[str, int]] = []
    real_board, real_live_match = live_pages.board, live.live_match

    def board(match: Match) -> object:
        made.append(("html", match.id))
        return real_board(match)

    def live_match(match: Match) -> object:
        made.append(("json", match.id))
        return real_live_match(match)

    monkeypatch.setattr(live_pages, "board", board)
    monkeypatch.setattr(live, "live_match", live_match)
    live_pages._drawings.clear()
    yield made
    live_pages._drawings.clear()


def another_worker() -> None:
    """What a request on another worker finds: only the database's drawings."""
    live_pages._drawings.clear()


def next_request() -> None:
    """The test's app context outlives each request, and with it `g`: forget the last
    request's language and reader."""
    refresh()
    g.pop("_login_user", None)


def stored(match_id: int) -> list[tuple[str, str]]:
    rows = db.session.execute(
        sa.select(LiveDrawing.revision, LiveDrawing.what).where(LiveDrawing.match_id == match_id)
    ).all()
    return sorted((r.revision, r.what) for r in rows)


def test_another_worker_reads_the_stored_drawing(
    table: tuple[Club, Match, FlaskClient], drawn: list[tuple[str, int]]
) -> None:
    _club, match, client = table
    for url in (f"/matches/{match.id}/live.html", f"/matches/{match.id}/live.json"):
        first = client.get(url)
        assert first.status_code == 200
        another_worker()
        again = client.get(url)
        assert again.get_data() == first.get_data()
        assert again.headers["Content-Type"] == first.headers["Content-Type"]
        assert client.get(url).get_data() == first.get_data()  # this worker's memory
    # The scoreboard's parts once; the JSON once a worker, never stored.
    assert drawn == [("html", match.id), ("json", match.id), ("json", match.id)]
    revision = live.match_revision(match.id)
    assert stored(match.id) == [(revision, "html:owner:en")]
    assert client.get(f"/matches/{match.id}/live.json").get_json()["hands_played"] == 1


def test_a_new_revision_is_drawn_again_and_the_old_one_dropped(
    table: tuple[Club, Match, FlaskClient], owner: User, drawn: list[tuple[str, int]]
) -> None:
    _club, match, client = table
    url = f"/matches/{match.id}/live.html"
    assert 'id="hand-2"' not in client.get(url).get_data(as_text=True)
    for change in ("save", "correct", "delete"):
        before = live.match_revision(match.id)
        if change == "save":
            matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
        elif change == "correct":
            matches.edit_hand(
                match, 2, owner, typed(match, {**REFERENCE_HAND, "kozi": "S"}), 1, None
            )
        else:
            matches.delete_hand(match, 2, owner, 2)
        another_worker()
        text = client.get(url).get_data(as_text=True)
        revision = live.match_revision(match.id)
        assert revision != before and f"&quot;{revision}&quot;" in text
        assert ("hand-deleted" in text) is (change == "delete")
        assert 'id="hand-2"' in text
        # Only the current revision's drawings stay.
        assert {r for r, _ in stored(match.id)} == {revision}
    assert len(drawn) == 4


def test_each_language_has_its_own_drawing(
    table: tuple[Club, Match, FlaskClient], drawn: list[tuple[str, int]]
) -> None:
    _club, match, client = table
    url = f"/matches/{match.id}/live.html"

    def page(language: str) -> str:
        # The test's app context outlives each request: forget the last request's language.
        refresh()
        return client.get(url, headers={"Accept-Language": language}).get_data(as_text=True)

    english = page("en")
    another_worker()
    greek = page("el")
    assert "Hand 1" in english and "Hand 1" not in greek and "Γύρος 1" in greek
    another_worker()
    assert page("en") == english
    assert len(drawn) == 2


def test_another_match_never_gets_this_drawing(
    app: Flask, table: tuple[Club, Match, FlaskClient], owner: User, drawn: list[tuple[str, int]]
) -> None:
    club, match, client = table
    other = pagat_match(club, owner, [p.player_id for p in match.seats])
    matches.record_hand(other, owner, typed(other, {**REFERENCE_HAND, "kozi": "S"}))
    first = client.get(f"/matches/{match.id}/live.json").get_json()
    another_worker()
    second = client.get(f"/matches/{other.id}/live.json").get_json()
    assert (first["id"], second["id"]) == (match.id, other.id)
    assert drawn == [("json", match.id), ("json", other.id)]


def test_a_drawing_of_another_build_is_not_served(
    table: tuple[Club, Match, FlaskClient],
    drawn: list[tuple[str, int]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _club, match, client = table
    url = f"/matches/{match.id}/live.html"
    client.get(url)
    another_worker()
    monkeypatch.setattr(drawings, "build_id", lambda: "newdeploy0000000")
    client.get(url)
    assert drawn == [("html", match.id), ("html", match.id)]
    builds = db.session.scalars(
        sa.select(LiveDrawing.build).where(LiveDrawing.match_id == match.id)
    )
    assert list(builds) == [drawings.stored_build()]  # the old build's row went


def test_a_drawing_newer_than_its_revision_is_served_but_not_kept(
    app: Flask, table: tuple[Club, Match, FlaskClient], drawn: list[tuple[str, int]]
) -> None:
    _club, match, _client = table
    with app.test_request_context():
        asked = live.match_revision(match.id).replace("-1-1-", "-0-0-")  # before the save
        text = live_pages.drawing(match.id, asked, "json", lambda m: f"{len(m.hands)}")
    assert text == "1"
    assert stored(match.id) == []
    assert live_pages._drawings == {}


def test_a_withdrawn_link_gets_no_stored_drawing(
    app: Flask, table: tuple[Club, Match, FlaskClient], owner: User, drawn: list[tuple[str, int]]
) -> None:
    club, match, _client = table
    token = sharing.create_link(club, match, owner)
    anyone = app.test_client()
    base = f"/watch/{match.id}/{token}"
    for url in (f"{base}/live.json", f"{base}/live.html"):
        assert anyone.get(url).status_code == 200
        assert anyone.get(url).status_code == 200
    assert drawn == [("json", match.id), ("html", match.id)]
    link = sharing.live_links(club, match)[0]
    sharing.revoke(club, match, link.id)
    for url in (f"{base}/live.json", f"{base}/live.html"):
        assert anyone.get(url).status_code == 404  # this worker's memory holds the drawing
        another_worker()
        assert anyone.get(url).status_code == 404  # and the database does
    assert len(stored(match.id)) == 1  # still stored: only the link check stood in the way
    # Every holder of any link reads the same drawing: it must not hold this link's secret.
    bodies = db.session.scalars(sa.select(LiveDrawing.body).where(LiveDrawing.match_id == match.id))
    assert all(token not in body for body in bodies)


#: Every drawing a match can have: the poll's JSON, and the live parts for each kind of
#: reader in each language.
MOST_ROWS = 4 * 2  # live_pages.KINDS, in English and Greek (the JSON is never stored)


def test_a_request_prefix_makes_no_drawing_of_its_own(
    app: Flask, table: tuple[Club, Match, FlaskClient], owner: User, drawn: list[tuple[str, int]]
) -> None:
    """A SCRIPT_NAME (which some proxies pass on from a header) is the request's, not the
    match's: many of them leave at most one row per kind of reader and language, and each
    answer's links start with its own prefix (issue 18)."""
    club, match, client = table
    token = sharing.create_link(club, match, owner)
    anyone = app.test_client()
    prefixes = ["", "/a", "/scores", *(f"/p{n}" for n in range(12)), '/x"y<z']
    for n, prefix in enumerate(prefixes):
        for language in ("en", "el"):
            headers = {"Accept-Language": language}
            env = {"SCRIPT_NAME": prefix}
            shared = anyone.get(
                f"/watch/{match.id}/{token}/live.html", headers=headers, environ_overrides=env
            )
            assert shared.status_code == 200
            next_request()
            own = client.get(
                f"/matches/{match.id}/live.html", headers=headers, environ_overrides=env
            )
            assert own.status_code == 200
            text = own.get_data(as_text=True)
            escaped = prefix.replace('"', "&#34;").replace("<", "&lt;")
            assert f'href="{escaped}/matches/{match.id}/hands/new"' in text
            assert f'href="{escaped}/matches/{match.id}/hands/1/history"' in text
            next_request()
        if n % 2:  # half from this worker's memory, half from the database
            another_worker()
    assert len(stored(match.id)) <= MOST_ROWS
    assert len(stored(match.id)) == 4  # shared and owner, in English and Greek
    assert drawn.count(("html", match.id)) == 4
    bodies = list(
        db.session.scalars(sa.select(LiveDrawing.body).where(LiveDrawing.match_id == match.id))
    )
    # Stored under no prefix (play.drawings: a placeholder), nor with the link's secret.
    assert all(token not in body and "/scores/" not in body for body in bodies)


def test_viewers_after_a_save_write_once_in_all(
    app: Flask, table: tuple[Club, Match, FlaskClient], owner: User, drawn: list[tuple[str, int]]
) -> None:
    """Every write of a drawing waits for, and holds up, every hand saved meanwhile (on
    SQLite, in any club): after a save, the viewers on every worker write the new parts once
    in all, and their JSON polls never (issue 18, saves under viewers)."""
    club, match, _client = table
    token = sharing.create_link(club, match, owner)
    anyone = app.test_client()
    base = f"/watch/{match.id}/{token}"
    assert anyone.get(f"{base}/live.html").status_code == 200  # watched before the save
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    before = writes()
    for _worker in range(4):
        another_worker()
        for _viewer in range(3):
            assert anyone.get(f"{base}/live.json").get_json()["hands_played"] == 2
            assert 'id="hand-2"' in anyone.get(f"{base}/live.html").get_data(as_text=True)
    after = writes() - before
    assert after == 3  # the new drawing, the old one dropped, the day-old ones dropped
    assert stored(match.id) == [(live.match_revision(match.id), "html:shared:en")]


def test_a_drawing_stored_meanwhile_is_not_written_again(
    table: tuple[Club, Match, FlaskClient],
) -> None:
    """Right after a save each viewer's worker draws at once; the first to finish stores
    the drawing, and the others, finding it, write nothing."""
    _club, match, _client = table
    revision = live.match_revision(match.id)
    drawings.keep(match.id, revision, "html:shared:en", "<p>drawn</p>")
    before = writes()
    drawings.keep(match.id, revision, "html:shared:en", "<p>drawn</p>")
    assert writes() == before
    assert stored(match.id) == [(revision, "html:shared:en")]


def test_on_sqlite_a_drawing_does_not_wait_for_the_disk(
    app: Flask, table: tuple[Club, Match, FlaskClient], database: str
) -> None:
    """A drawing's commit holds SQLite's one write lock for its statements alone, not for
    an fsync as well (synchronous=NORMAL); the connection then goes back to its own level
    before anything else is written on it."""
    if database != "sqlite":
        pytest.skip("PostgreSQL's writes of other rows never wait for this one")
    _club, match, _client = table
    levels: list[int] = []

    def level() -> int:
        raw = db.session.connection().connection.dbapi_connection
        return int(raw.execute("PRAGMA synchronous").fetchone()[0])

    own = level()
    db.session.commit()

    def note(_conn: object, cursor: object, statement: str, *_args: object) -> None:
        if statement.lstrip().upper().startswith("INSERT INTO LIVE_DRAWING"):
            levels.append(int(cursor.connection.execute("PRAGMA synchronous").fetchone()[0]))

    sa.event.listen(db.engine, "before_cursor_execute", note)
    try:
        drawings.keep(match.id, live.match_revision(match.id), "html:owner:en", "<p>x</p>")
    finally:
        sa.event.remove(db.engine, "before_cursor_execute", note)
    assert own == 2 and levels == [1]  # FULL as configured; NORMAL for the drawing alone
    for _ in range(3):  # every pooled connection is back at FULL
        assert level() == own
        db.session.commit()
