"""Issue 18 item 1: a club's pages stay small however many players it has. The club page
pages and searches its players; the new-match form, the head-to-head and player pages offer
a page of them and find the others by a part of a name; the API gives a page at a time."""

from __future__ import annotations

import html
import re

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.world import signed_in

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Player

PLAYERS = 130


@pytest.fixture
def crowded(app: Flask, kept_world: object) -> dict[str, int]:
    def build(app: Flask) -> dict[str, int]:
        with app.app_context():
            owner = accounts.create_user("eleni", "password1")
            club = clubs.create_club(owner, "Crowded")
            db.session.execute(
                sa.insert(Player),
                [{"club_id": club.id, "name": f"Player {n:03d}"} for n in range(1, PLAYERS + 1)],
            )
            db.session.commit()
            return {"owner": owner.id, "club": club.id, "token_owner": owner.id}

    world: dict[str, int] = kept_world(build)  # type: ignore[operator]
    return world


def _client(app: Flask, world: dict[str, int]) -> FlaskClient:
    return signed_in(app.test_client(), world["owner"])


def _player_links(page: str) -> list[str]:
    return re.findall(r'href="/clubs/\d+/players/\d+">(Player \d+)<', page)


def test_the_club_page_lists_a_page_of_players_and_finds_the_others(
    app: Flask, crowded: dict[str, int]
) -> None:
    client, club = _client(app, crowded), crowded["club"]
    first = client.get(f"/clubs/{club}").get_data(as_text=True)
    assert _player_links(first) == [f"Player {n:03d}" for n in range(1, 61)]
    assert "Page 1 of 3" in first
    assert 'name="find"' in first
    last = client.get(f"/clubs/{club}?page=3").get_data(as_text=True)
    assert _player_links(last) == [f"Player {n:03d}" for n in range(121, 131)]
    found = client.get(f"/clubs/{club}?find=12").get_data(as_text=True)
    assert _player_links(found) == [
        "Player 012",
        "Player 112",
        *(f"Player {n}" for n in range(120, 130)),
    ]
    assert client.get(f"/clubs/{club}?page=4").status_code == 400


def _options(page: str, select_id: str) -> list[str]:
    select = re.search(rf'<select id="{select_id}"[^>]*>(.*?)</select>', page, re.S)
    assert select is not None, select_id
    return re.findall(r'<option value="(\d+)"', select.group(1))


def test_the_new_match_form_offers_a_page_of_players_and_finds_others(
    app: Flask, crowded: dict[str, int]
) -> None:
    client, club = _client(app, crowded), crowded["club"]
    page = client.get(f"/clubs/{club}/matches/new").get_data(as_text=True)
    assert len(_options(page, "team-0-seat-0")) == clubs.PICK_SIZE
    assert len(_options(page, "first_dealer")) == clubs.PICK_SIZE
    assert "The lists show 50 of the club's 130 players" in html.unescape(page)
    # A player found by a part of the name, with the seats chosen so far kept.
    chosen = _options(page, "team-0-seat-0")[0]
    found = client.get(
        f"/clubs/{club}/matches/new",
        query_string={"shown_preset": "pagat", "find": "Player 125", "team-0-seat-0": chosen},
    ).get_data(as_text=True)
    options = _options(found, "team-0-seat-1")
    assert len(options) == 2  # Player 125, and the one chosen already
    assert chosen in options


def test_head_to_head_and_the_player_page_offer_a_page_of_players(
    app: Flask, crowded: dict[str, int]
) -> None:
    client, club = _client(app, crowded), crowded["club"]
    page = client.get(f"/clubs/{club}/head-to-head").get_data(as_text=True)
    assert len(_options(page, "h2h-a")) == clubs.PICK_SIZE
    found = client.get(f"/clubs/{club}/head-to-head?find=13&look=1").get_data(as_text=True)
    assert _options(found, "h2h-b") == ["13", "113", "130"]  # Players 013, 113 and 130
    with app.app_context():
        first = db.session.scalar(sa.select(Player.id).where(Player.name == "Player 001"))
    player = client.get(f"/clubs/{club}/players/{first}").get_data(as_text=True)
    assert len(_options(player, "compare-b")) == clubs.PICK_SIZE - 1


def test_the_api_gives_a_clubs_players_a_page_at_a_time(
    app: Flask, crowded: dict[str, int]
) -> None:
    client, club = _client(app, crowded), crowded["club"]
    headers = {"X-CSRFToken": "unused"}  # reads need no token
    answer = client.get(f"/api/v1/clubs/{club}", headers=headers).get_json()
    assert len(answer["players"]) == 100
    assert answer["players_total"] == PLAYERS
    assert answer["players_next"] == f"/api/v1/clubs/{club}/players?page=2"
    assert answer["matches_total"] == 0
    rest = client.get(answer["players_next"]).get_json()
    assert [p["name"] for p in rest["players"]] == [f"Player {n}" for n in range(101, 131)]
    assert (rest["page"], rest["pages"], rest["total"], rest["next"]) == (2, 2, PLAYERS, None)
    found = client.get(f"/api/v1/clubs/{club}/players?find=Player 00").get_json()
    assert found["total"] == 9
    assert client.get(f"/api/v1/clubs/{club}/players?page=3").status_code == 400
