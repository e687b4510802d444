"""Requests that answered 500 until tests/web/test_fuzz_web.py found them: each is now a 4xx
with a sentence saying why, on SQLite and on PostgreSQL."""

from __future__ import annotations

import html
import io
import json
from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import REFERENCE_HAND, typed
from support.world import FOUR, new_club, pagat_match, signed_in

from scorekeeper import match as matches
from scorekeeper.clubs.service import clubs_of
from scorekeeper.models import User
from scorekeeper.records import seasons

#: Past BIGINT (SQLite's integers and PostgreSQL's bigint), as a URL may say.
PAST_BIGINT = 2**63


@pytest.fixture
def eleni(app: Flask, owner: User) -> FlaskClient:
    return signed_in(app.test_client(), owner.id)


def _page(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def test_the_history_of_a_hand_number_past_bigint_is_404(eleni: FlaskClient, owner: User) -> None:
    club, players = new_club(owner)
    match = pagat_match(club, owner, [players[n] for n in FOUR])
    response = eleni.get(f"/matches/{match.id}/hands/{PAST_BIGINT}/history")
    assert response.status_code == 404
    assert f"Hand {PAST_BIGINT} is not part of this match." in _page(response)


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_the_meld_checker_drops_house_rules_nested_thousands_deep(
    client: FlaskClient, method: str
) -> None:
    """The hidden `options` field (a match's house rules, as JSON) hit Python's recursion
    limit in json.loads: the checker now judges by the plain preset, as for any unreadable
    rules."""
    fields = {"variant": "pagat", "cards": "3H 4H 5H", "options": "[" * 5000 + "]" * 5000}
    if method == "GET":
        response = client.get("/referee/meld", query_string=fields)
    else:
        response = client.post("/referee/meld", data=fields)
    assert response.status_code == 200
    assert "Legal" in _page(response)


@pytest.mark.parametrize(
    ("path", "words"),
    [
        ("/register", "Too many accounts were asked for from this address."),
        ("/login", "Too many failed attempts to log in"),
    ],
)
def test_the_limit_page_shows_a_form_it_cannot_read(
    client: FlaskClient, path: str, words: str
) -> None:
    """The limit's page showed the form as sent again; a JSON body it cannot read as the form
    raised inside that error handler, a 500. Now the form comes back empty."""
    bad = b'{"username": "zoe", "password": {"x": ""}, "repeat": "x"}'
    for _attempt in range(30):
        response = client.post(path, data={"username": "zoe", "password": "a wrong one"})
        if response.status_code == 429:
            break
    response = client.post(path, data=bad, content_type="application/json")
    assert response.status_code in (400, 429)
    if path == "/register":  # counted per address: the limit's own page
        assert response.status_code == 429
        assert words in _page(response)
    else:  # the login's per-account key reads the form first, and says what is wrong
        assert "The field “password” must be text" in _page(response)


def test_a_season_to_the_end_of_the_calendar_has_its_pages(eleni: FlaskClient, owner: User) -> None:
    """A season ending 9999-12-31 (a date input takes it) broke every page that counts its
    days: the day after its last overflowed."""
    club, players = new_club(owner)
    match = pagat_match(club, owner, [players[n] for n in FOUR])
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    response = eleni.post(
        f"/clubs/{club.id}/seasons",
        data={"name": "Forever", "starts_on": "9999-12-31", "ends_on": "9999-12-31"},
    )
    assert response.status_code == 302
    (season,) = seasons.seasons_of(club)
    placed = eleni.post(f"/matches/{match.id}/season", data={"season": str(season.id)})
    assert placed.status_code == 302
    ann, bob = players["Ann"], players["Bob"]
    for path in (
        f"/clubs/{club.id}/leaderboard?season={season.id}",
        f"/api/v1/clubs/{club.id}/leaderboard?season={season.id}",
        f"/clubs/{club.id}/seasons/{season.id}",
        f"/clubs/{club.id}/export.csv?season={season.id}",
        f"/clubs/{club.id}/partnerships?season={season.id}",
        f"/clubs/{club.id}/head-to-head?a={ann}&b={bob}&season={season.id}",
    ):
        assert eleni.get(path, buffered=True).status_code == 200, path


def _exported(eleni: FlaskClient, owner: User) -> dict[str, Any]:
    club, players = new_club(owner)
    match = pagat_match(club, owner, [players[n] for n in FOUR])
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    doc: dict[str, Any] = json.loads(eleni.get(f"/clubs/{club.id}/export.json").get_data())
    return doc


def _import(eleni: FlaskClient, doc: dict[str, Any]) -> Any:
    body = json.dumps(doc).encode("ascii")  # a lone surrogate goes as its \\ud800 escape
    return eleni.post("/clubs/import", data={"file": (io.BytesIO(body), "club.json")})


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (
            lambda doc: doc["club"].update(name="Kafe\ud800neio"),
            "club.name holds an unpaired surrogate",
        ),
        (
            lambda doc: doc["matches"][0].update(created_at="0001-01-01T00:00:00+14:00"),
            "matches[0].created_at must be a time such as 2026-03-01T20:00:00+00:00.",
        ),
    ],
    ids=["unpaired-surrogate", "time-before-the-calendar-in-utc"],
)
def test_an_import_file_with_what_no_database_stores_is_400(
    eleni: FlaskClient, owner: User, change: Callable[[dict[str, Any]], None], words: str
) -> None:
    doc = _exported(eleni, owner)
    assert _import(eleni, doc).status_code == 302, "the file as exported imports"
    before = len(clubs_of(owner))
    change(doc)
    response = _import(eleni, doc)
    assert response.status_code == 400
    assert words in _page(response)
    assert len(clubs_of(owner)) == before
