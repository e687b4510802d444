"""Requests that answered 500 until tests/web/test_fuzz_web.py found them: each is now a 4xx
with a sentence saying why, on SQLite and on PostgreSQL."""

from __future__ import annotations

import html

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import REFERENCE_HAND
from support.world import FOUR, new_club, pagat_match, signed_in

from scorekeeper.models import User
from scorekeeper.services import hands, seasons

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


def test_a_season_to_the_end_of_the_calendar_has_its_pages(
    eleni: FlaskClient, owner: User
) -> None:
    """A season ending 9999-12-31 (a date input takes it) broke every page that counts its
    days: the day after its last overflowed."""
    club, players = new_club(owner)
    match = pagat_match(club, owner, [players[n] for n in FOUR])
    hands.record_hand(match, owner, REFERENCE_HAND)
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
