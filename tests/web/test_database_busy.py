"""A database busy with another write answers 503 with Retry-After, never 500 (issue 11,
item 4): on SQLite a second connection holds the write lock past the app's busy timeout;
on PostgreSQL it holds the match's row past the app's lock_timeout. Nothing is mocked."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import REFERENCE_HAND
from support.world import new_club, pagat_match, signed_in

from scorekeeper import create_app, extensions
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import Hand, Player

#: How long the app waits for a lock here, in milliseconds: short, so the tests are quick.
WAIT_MS = 100


@dataclass(frozen=True)
class World:
    app: Flask
    url: str
    user_id: int
    club_id: int
    other_club_id: int
    match_id: int
    token: str


@pytest.fixture
def world(database_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[World]:
    config: dict[str, object] = {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "WTF_CSRF_ENABLED": False,
    }
    if database_url.startswith("sqlite"):
        monkeypatch.setattr(extensions, "SQLITE_BUSY_TIMEOUT_MS", WAIT_MS)
    else:
        monkeypatch.setattr(extensions, "POSTGRESQL_LOCK_TIMEOUT_MS", WAIT_MS)
    app = create_app(config)
    with app.app_context():
        db.create_all()
        user = accounts.create_user("eleni", "password1")
        club, ids = new_club(user)
        other, _ids = new_club(user, "Saturday")
        match = pagat_match(club, user, list(ids.values()))
        token = accounts.create_token(user, "phone")
        built = World(app, database_url, user.id, club.id, other.id, match.id, token)
    yield built
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@contextmanager
def held(world: World) -> Iterator[None]:
    """Another connection holds what a hand write of the match needs, until the block ends:
    SQLite's write lock, or PostgreSQL's lock on the match's row."""
    if world.url.startswith("sqlite"):
        connection = sqlite3.connect(world.url.removeprefix("sqlite:///"), isolation_level=None)
        connection.execute("BEGIN IMMEDIATE")
        try:
            yield
        finally:
            connection.rollback()
            connection.close()
        return
    with psycopg.connect(world.url.replace("postgresql+psycopg://", "postgresql://")) as pg:
        pg.execute("SELECT id FROM match WHERE id = %s FOR UPDATE", [world.match_id])
        try:
            yield
        finally:
            pg.rollback()


def hands_stored(world: World) -> int:
    with world.app.app_context():
        return db.session.query(Hand).count()


def api(world: World) -> FlaskClient:
    client = world.app.test_client()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {world.token}"
    return client


BUSY = (
    "The server is busy with other changes just now, so nothing was changed. Try again in a moment."
)


def test_an_api_write_meeting_a_held_lock_is_503_json_with_retry_after(world: World) -> None:
    client = api(world)
    path = f"/api/v1/matches/{world.match_id}/hands"
    with held(world):
        answer = client.post(path, json=REFERENCE_HAND)
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == "2"
    assert answer.json == {"error": BUSY}
    assert hands_stored(world) == 0
    # The lock gone, the same request is saved.
    assert client.post(path, json=REFERENCE_HAND).status_code == 201
    assert hands_stored(world) == 1


def test_a_hand_form_meeting_a_held_lock_is_a_503_page_or_json_for_the_outbox(
    world: World,
) -> None:
    client = signed_in(world.app.test_client(), world.user_id)
    form = {
        "kozi": "H",
        "s0-meld": "5S-JS",
        "s0-out": "on",
        "s0-biribaki": "on",
        "s1-meld": "QD QC QH",
        "save": "1",
        "accepted_reason": "as played",
    }
    path = f"/matches/{world.match_id}/hands/new"
    with held(world):
        page = client.post(path, data=form)
        queued = client.post(path, data=form, headers={"Accept": "application/json"})
    assert page.status_code == 503 and page.headers["Retry-After"] == "2"
    assert "<html" in page.text and "busy with other changes" in page.text
    assert queued.status_code == 503 and queued.headers["Retry-After"] == "2"
    assert queued.json == {"saved": False, "errors": [BUSY], "problems": []}
    assert hands_stored(world) == 0


def test_another_clubs_write_while_sqlite_is_held_is_503_not_500(world: World) -> None:
    if not world.url.startswith("sqlite"):
        pytest.skip("PostgreSQL locks rows: another club's write does not wait at all")
    client = api(world)
    with held(world):
        answer = client.post(f"/api/v1/clubs/{world.other_club_id}/players", json={"name": "Eve"})
    assert answer.status_code == 503 and answer.headers["Retry-After"] == "2"
    with world.app.app_context():
        assert (
            db.session.query(Player).filter_by(club_id=world.other_club_id, name="Eve").count() == 0
        )


def test_another_clubs_write_on_postgresql_goes_on_past_a_held_match(world: World) -> None:
    if world.url.startswith("sqlite"):
        pytest.skip("SQLite has one write lock for the whole database")
    client = api(world)
    with held(world):
        answer = client.post(f"/api/v1/clubs/{world.other_club_id}/players", json={"name": "Eve"})
    assert answer.status_code == 201


def test_every_connection_waits_a_bounded_time_for_a_lock(app: Flask) -> None:
    """Without a bound a request waiting on a locked match row (PostgreSQL) or on the write
    lock (SQLite) would hold its worker until gunicorn killed it: a 500, not a 503."""
    with app.app_context():
        if db.engine.dialect.name == "postgresql":
            waited = db.session.execute(db.text("SHOW lock_timeout")).scalar_one()
            assert waited == f"{extensions.POSTGRESQL_LOCK_TIMEOUT_MS // 1000}s"
        else:
            waited = db.session.execute(db.text("PRAGMA busy_timeout")).scalar_one()
            assert waited == extensions.SQLITE_BUSY_TIMEOUT_MS
