"""JSON API v1 for clubs, matches and hands, through the Flask test client with real requests.

Every caller authenticates with a bearer token made by accounts.service.create_token (one test
logs in with a session instead). Scores are written out from rules/presets.md: the reference
hand under pagat with kózi ♥ is 665 for A and −95 for B.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_login import login_required
from sqlalchemy import event as sa_event
from support.hand_entries import ILLEGAL_MELD_HAND, REFERENCE_HAND
from support.world import signed_in
from werkzeug.test import TestResponse

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Hand, HandVersion, Match, Role

PASSWORD = "correct horse"
NOTHING = object()

# The lines of the reference hand (pagat, kózi ♥, 4 players in two teams).
REFERENCE_LINES_A = [
    {"label": "Cards melded", "points": 165},
    {"label": "Clean biriba 5♠–J♠", "points": 200},
    {"label": "Dirty kózi biriba 8♥–A♥", "points": 200},
    {"label": "Went out", "points": 100},
]
REFERENCE_LINES_B = [
    {"label": "Cards melded", "points": 55},
    {"label": "Cards left in hands", "points": -50},
    {"label": "No biribaki taken", "points": -100},
]
# What is said of ILLEGAL_MELD_HAND's one fault: a meld neither a run nor a set.
ILLEGAL_MELD_PROBLEM = (
    "The meld 3♥ 5♠ 9♦ of A is not legal. "
    "3♥ 5♠ 9♦ is neither a run (one suit, in sequence) nor a set (one rank)."
)


class Api:
    """One caller of the API: a bearer token (or a session cookie), and its own test client."""

    def __init__(self, client: FlaskClient, token: str | None = None) -> None:
        self.client = client
        self.token = token

    def call(
        self,
        method: str,
        path: str,
        body: Any = NOTHING,
        headers: dict[str, str] | None = None,
        raw: str | bytes | None = None,
        content_type: str = "application/json",
    ) -> TestResponse:
        sent = dict(headers or {})
        if self.token is not None:
            sent["Authorization"] = f"Bearer {self.token}"
        extra: dict[str, Any] = {}
        if raw is not None:
            extra = {"data": raw, "content_type": content_type}
        elif body is not NOTHING:
            extra = {"json": body}
        response = self.client.open(f"/api/v1/{path}", method=method, headers=sent, **extra)
        assert response.status_code < 500, response.get_data(as_text=True)
        if response.status_code != 204:
            assert response.is_json, response.get_data(as_text=True)
        return response

    def get(self, path: str, **kw: Any) -> TestResponse:
        return self.call("GET", path, **kw)

    def post(self, path: str, body: Any = NOTHING, **kw: Any) -> TestResponse:
        return self.call("POST", path, body, **kw)

    def put(self, path: str, body: Any = NOTHING, **kw: Any) -> TestResponse:
        return self.call("PUT", path, body, **kw)

    def delete(self, path: str, **kw: Any) -> TestResponse:
        return self.call("DELETE", path, **kw)


@dataclass
class World:
    """A club (Kafeneio) with an owner, a scorer and a viewer, six players; and a stranger who
    owns another club with one player."""

    app: Flask
    owner: Api
    scorer: Api
    viewer: Api
    stranger: Api
    anonymous: Api
    club: int
    other_club: int
    players: dict[str, int]  # Ann, Bo, Cy, Di, Eve, Fay
    outsider: int  # Xeno, who plays at the other club
    user_ids: dict[str, int]

    def ids(self, *names: str) -> list[int]:
        return [self.players[n] for n in names]


@pytest.fixture
def world(app: Flask, kept_world: Callable[[Callable[[Flask], Laid]], Laid]) -> World:
    """The world, built once and kept while the tests only read it (tests/conftest.py)."""
    laid = kept_world(lay_world)
    return World(
        app=app,
        owner=Api(app.test_client(), laid.tokens["olga"]),
        scorer=Api(app.test_client(), laid.tokens["sam"]),
        viewer=Api(app.test_client(), laid.tokens["vic"]),
        stranger=Api(app.test_client(), laid.tokens["stan"]),
        anonymous=Api(app.test_client()),
        club=laid.club,
        other_club=laid.other_club,
        players=laid.players,
        outsider=laid.outsider,
        user_ids=laid.user_ids,
    )


@dataclass(frozen=True)
class Laid:
    """What `lay_world` made: ids and each user's bearer token."""

    tokens: dict[str, str]
    club: int
    other_club: int
    players: dict[str, int]
    outsider: int
    user_ids: dict[str, int]


def lay_world(app: Flask) -> Laid:
    with app.app_context():
        users = {n: accounts.create_user(n, PASSWORD) for n in ("olga", "sam", "vic", "stan")}
        club = clubs.create_club(users["olga"], "Kafeneio")
        clubs.join_by_invite(users["sam"], club.invite_code)
        clubs.set_role(club, users["sam"].id, Role.SCORER)
        clubs.join_by_invite(users["vic"], club.invite_code)  # joins as a viewer
        other = clubs.create_club(users["stan"], "Elsewhere")
        names = ("Ann", "Bo", "Cy", "Di", "Eve", "Fay")
        players = {n: clubs.add_player(club, n).id for n in names}
        outsider = clubs.add_player(other, "Xeno").id
        tokens = {n: accounts.create_token(u, "test") for n, u in users.items()}
        return Laid(
            tokens, club.id, other.id, players, outsider, {n: u.id for n, u in users.items()}
        )


def four_player_match(world: World, **changes: Any) -> dict[str, Any]:
    body = {
        "club": world.club,
        "variant": "pagat",
        "format": "4p",
        "teams": [
            {"name": "A", "players": world.ids("Ann", "Bo")},
            {"name": "B", "players": world.ids("Cy", "Di")},
        ],
    } | changes
    return body


def start(world: World, api: Api | None = None, **changes: Any) -> int:
    response = (api or world.owner).post("matches", four_player_match(world, **changes))
    assert response.status_code == 201, response.get_json()
    match_id: int = response.get_json()["id"]
    return match_id


def add_hand(
    world: World, match_id: int, hand: dict[str, Any] | None = None, **kw: Any
) -> TestResponse:
    return world.owner.post(f"matches/{match_id}/hands", hand or REFERENCE_HAND, **kw)


def scores(match: dict[str, Any]) -> dict[str, Any]:
    return {t["name"]: t["score"] for t in match["teams"]}


def openings(match: dict[str, Any]) -> dict[str, Any]:
    return {t["name"]: t["opening_required"] for t in match["teams"]}


def stored_hands(app: Flask, match_id: int) -> list[tuple[int, int, bool]]:
    """(number, version, deleted) of every stored hand, straight from the database."""
    with app.app_context():
        rows = db.session.scalars(db.select(Hand).where(Hand.match_id == match_id))
        return sorted((h.number, h.version, h.deleted) for h in rows)


# --- who may call -------------------------------------------------------------------------------

ENDPOINTS = [
    ("GET", "clubs"),
    ("POST", "clubs"),
    ("GET", "clubs/{club}"),
    ("POST", "clubs/{club}/players"),
    ("GET", "clubs/{club}/players/{player}"),
    ("POST", "matches"),
    ("GET", "matches/{match}"),
    ("POST", "matches/{match}/hands"),
    ("GET", "matches/{match}/hands/1"),
    ("PUT", "matches/{match}/hands/1"),
    ("DELETE", "matches/{match}/hands/1"),
]


@pytest.mark.parametrize(("method", "path"), ENDPOINTS)
def test_anonymous_callers_get_401_json_not_a_redirect(
    world: World, method: str, path: str
) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    url = path.format(club=world.club, player=world.players["Ann"], match=match_id)
    for caller in (world.anonymous, Api(world.anonymous.client, "sk_not-a-real-token")):
        response = caller.call(method, url, {"name": "x"}, headers={"If-Match": "1"})
        assert response.status_code == 401
        assert response.get_json() == {"error": "Log in or send Authorization: Bearer <token>"}
        assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert stored_hands(world.app, match_id) == [(1, 1, False)]  # nothing changed


def test_a_revoked_token_no_longer_works(world: World, app: Flask) -> None:
    assert world.owner.get("clubs").status_code == 200
    with app.app_context():
        user = accounts.find_user("olga")
        assert user is not None
        token_id = accounts.list_tokens(user)[0].id
        accounts.revoke_token(user, token_id)
    assert world.owner.get("clubs").status_code == 401


@pytest.mark.fresh_app  # adds a route
def test_pages_behind_a_login_still_redirect_to_the_login_page(app: Flask) -> None:
    app.add_url_rule("/needs-login", "needs_login", login_required(lambda: "secret"))
    response = app.test_client().get("/needs-login")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]
    assert "next=" in response.headers["Location"]


def test_a_logged_in_session_works_too(world: World) -> None:
    client = signed_in(world.app.test_client(), world.user_ids["olga"])
    me = Api(client)
    listed = me.get("clubs")
    assert listed.status_code == 200
    assert listed.get_json() == {"clubs": [{"id": world.club, "name": "Kafeneio", "role": "owner"}]}
    match_id = start(world, me)
    created = me.post(f"matches/{match_id}/hands", REFERENCE_HAND)
    assert created.status_code == 201
    assert scores(me.get(f"matches/{match_id}").get_json()) == {"A": 665, "B": -95}


def test_a_session_cannot_be_used_by_a_cross_site_form(world: World) -> None:
    """The blueprint is CSRF-exempt, so a body must be JSON: no HTML form can send that."""
    client = world.app.test_client()
    signed_in(client, world.user_ids["olga"])
    response = Api(client).post("clubs", raw="name=Hijacked", content_type="text/plain")
    assert response.status_code == 415
    assert "application/json" in response.get_json()["error"]
    form = client.post("/api/v1/clubs", data={"name": "Hijacked"})
    assert form.status_code == 415
    assert [c["name"] for c in Api(client).get("clubs").get_json()["clubs"]] == ["Kafeneio"]


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("POST", "clubs/{club}/players", {"name": "Gus"}),
        ("POST", "matches", "MATCH"),
        ("POST", "matches/{match}/hands", REFERENCE_HAND),
        ("PUT", "matches/{match}/hands/1", REFERENCE_HAND),
        ("DELETE", "matches/{match}/hands/1", NOTHING),
    ],
)
def test_a_viewer_reads_but_gets_403_on_every_write(
    world: World, method: str, path: str, body: Any
) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    if body == "MATCH":
        body = four_player_match(world)
    url = path.format(club=world.club, match=match_id)
    response = world.viewer.call(method, url, body, headers={"If-Match": "1"})
    assert response.status_code == 403
    assert response.get_json()["error"] == "This needs the scorer role; you are a viewer here."
    # reading is fine, and nothing was written
    assert world.viewer.get(f"matches/{match_id}").status_code == 200
    assert world.viewer.get(f"clubs/{world.club}").status_code == 200
    assert stored_hands(world.app, match_id) == [(1, 1, False)]
    assert len(world.viewer.get(f"clubs/{world.club}").get_json()["players"]) == 6
    assert len(world.owner.get(f"clubs/{world.club}").get_json()["matches"]) == 1


@pytest.mark.parametrize(("method", "path"), [e for e in ENDPOINTS if "{" in e[1]])
def test_a_stranger_gets_404_on_every_read_and_write(world: World, method: str, path: str) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    url = path.format(club=world.club, player=world.players["Ann"], match=match_id)
    body: Any = REFERENCE_HAND if "hands" in path else {"name": "Gus"}
    response = world.stranger.call(method, url, body, headers={"If-Match": "1"})
    assert response.status_code == 404
    assert "or you are not" in response.get_json()["error"]
    assert stored_hands(world.app, match_id) == [(1, 1, False)]


def test_a_stranger_cannot_start_a_match_in_a_club_not_theirs(world: World) -> None:
    response = world.stranger.post("matches", four_player_match(world))
    assert response.status_code == 404
    assert response.get_json() == {
        "error": "There is no such club, or you are not one of its members."
    }


def test_a_scorer_adds_players_starts_matches_and_records_hands(world: World) -> None:
    assert world.scorer.post(f"clubs/{world.club}/players", {"name": "Gus"}).status_code == 201
    match_id = start(world, world.scorer)
    response = world.scorer.post(f"matches/{match_id}/hands", REFERENCE_HAND)
    assert response.status_code == 201
    assert (
        world.scorer.put(
            f"matches/{match_id}/hands/1", REFERENCE_HAND, headers={"If-Match": "1"}
        ).status_code
        == 200
    )
    assert (
        world.scorer.delete(f"matches/{match_id}/hands/1", headers={"If-Match": "2"}).status_code
        == 204
    )


# --- clubs and players --------------------------------------------------------------------------


def test_create_a_club_then_list_and_read_it(world: World) -> None:
    response = world.stranger.post("clubs", {"name": "  Café Omonia "})
    assert response.status_code == 201
    club = response.get_json()
    assert club == {
        "id": club["id"],
        "name": "Café Omonia",
        "role": "owner",
        "players": [],
        "players_total": 0,
        "players_next": None,
        "matches": [],
        "matches_total": 0,
    }
    assert response.headers["Location"] == f"/api/v1/clubs/{club['id']}"
    assert world.stranger.get(f"clubs/{club['id']}").get_json() == club
    listed = world.stranger.get("clubs").get_json()
    assert listed == {
        "clubs": [
            {"id": club["id"], "name": "Café Omonia", "role": "owner"},
            {"id": world.other_club, "name": "Elsewhere", "role": "owner"},
        ]
    }
    # the viewer sees only their own club, with their role
    assert world.viewer.get("clubs").get_json() == {
        "clubs": [{"id": world.club, "name": "Kafeneio", "role": "viewer"}]
    }


def test_add_a_player_and_read_the_club(world: World) -> None:
    response = world.owner.post(f"clubs/{world.club}/players", {"name": " Gus  Papas "})
    assert response.status_code == 201
    player = response.get_json()
    assert player == {"id": player["id"], "name": "Gus Papas", "club": world.club}
    assert response.headers["Location"] == f"/api/v1/clubs/{world.club}/players/{player['id']}"
    assert world.viewer.get(f"clubs/{world.club}/players/{player['id']}").get_json() == player
    match_id = start(world)
    club = world.viewer.get(f"clubs/{world.club}").get_json()
    assert club["role"] == "viewer"
    assert [p["name"] for p in club["players"]] == [
        "Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus Papas"
    ]  # fmt: skip
    assert [(m["id"], m["variant"], m["format"], m["players"]) for m in club["matches"]] == [
        (match_id, "pagat", "4p", ["Ann", "Cy", "Bo", "Di"])  # partners sit opposite
    ]


def test_a_player_of_another_club_is_not_found_through_this_one(world: World) -> None:
    response = world.owner.get(f"clubs/{world.club}/players/{world.outsider}")
    assert response.status_code == 404
    assert world.owner.get(f"clubs/{world.club}/players/99999").status_code == 404


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("clubs", {}, 400, '"name" must be text, not null'),
        ("clubs", {"name": 7}, 400, '"name" must be text, not 7'),
        ("clubs", {"name": "   "}, 400, "A club's name needs 1 to 120 characters."),
        ("clubs", {"name": "x" * 121}, 400, "1 to 120 characters"),
        ("clubs", {"name": "C", "city": "Chania"}, 400, '"city" is not a field here'),
        ("clubs", ["Kafeneio"], 400, "must be a JSON object"),
        ("clubs/{club}/players", {"name": " ann "}, 400, "already plays in this club."),
        ("clubs/{club}/players", {"name": ""}, 400, "A player's name needs 1 to 80 characters."),
        ("clubs/{club}/players", {"name": ["Gus"]}, 400, '"name" must be text'),
        ("clubs/{club}/players", {"nom": "Gus"}, 400, '"nom" is not a field here'),
        ("clubs/99999/players", {"name": "Gus"}, 404, "There is no such club"),
        ("clubs/99999999999999999999/players", {"name": "Gus"}, 404, "There is no such club"),
    ],
)
def test_bad_club_and_player_input(
    world: World, path: str, body: Any, status: int, words: str
) -> None:
    response = world.owner.post(path.format(club=world.club), body)
    assert response.status_code == status
    assert words in response.get_json()["error"]


# --- starting a match ---------------------------------------------------------------------------


def test_start_a_match(world: World) -> None:
    response = world.owner.post(
        "matches", four_player_match(world, first_dealer=world.players["Cy"])
    )
    assert response.status_code == 201
    match = response.get_json()
    assert response.headers["Location"] == f"/api/v1/matches/{match['id']}"
    assert match["club"] == world.club
    assert match["variant"] == "pagat"
    assert match["format"] == "4p"
    assert match["target"] == 5000
    assert match["teams"] == [
        {"name": "A", "score": 0, "opening_required": 0, "opening": "no minimum"},
        {"name": "B", "score": 0, "opening_required": 0, "opening": "no minimum"},
    ]
    assert match["hands"] == []
    assert match["finished"] is False
    assert match["winner"] is None
    assert match["next_dealer"] == "Cy"
    assert world.viewer.get(f"matches/{match['id']}").get_json() == match


def test_start_a_match_with_house_rules_and_a_target(world: World) -> None:
    body = four_player_match(
        world, variant="wikipedia", options={"going_out_bonus": 150}, target=1000
    )
    match = world.owner.post("matches", body).get_json()
    assert match["target"] == 1000
    assert match["options"]["target"] == 1000
    assert match["options"]["going_out_bonus"] == 150
    assert match["options"]["opening_table"] == "W1"
    assert openings(match) == {"A": 75, "B": 75}


@pytest.mark.parametrize(
    ("changes", "status", "words"),
    [
        ({"teams": [{"name": "A", "players": [424242, 1]}, {"name": "B", "players": [2, 3]}]},
         400, "Player 424242 does not play in this club."),
        ({"teams": [{"name": "A", "players": ["Ann", 1]}, {"name": "B", "players": [2, 3]}]},
         400, "A player is named by its id, a whole number, not 'Ann'."),
        ({"teams": [{"name": "A", "players": [True, 1]}, {"name": "B", "players": [2, 3]}]},
         400, "A player is named by its id"),
        ({"teams": [{"name": "A", "players": [2**70, 1]}, {"name": "B", "players": [2, 3]}]},
         400, "does not play in this club"),
        ({"club": 99999}, 404, "There is no such club"),
        ({"club": 2**70}, 404, "There is no such club"),
        ({"club": "Kafeneio"}, 400, "'club' must be the id of one of your clubs"),
        ({"club": None}, 400, "'club' must be the id"),
        ({"format": "4p", "teams": "A vs B"}, 400, "'teams' must list the teams"),
        ({"teams": []}, 400, "'teams' must list the teams"),
        ({"teams": [["Ann", "Bo"], ["Cy", "Di"]]}, 400, "Team 1 must be an object"),
        ({"teams": [{"name": "A", "players": 1}, {"name": "B", "players": [2]}]},
         400, "Team 1: 'players' must list player ids, not 1."),
        ({"teams": [{"name": 5, "players": [1, 2]}, {"name": "B", "players": [3, 4]}]},
         400, "Team 1: 'name' must be text, not 5."),
        ({"teams": [{"name": "A", "players": [1, 2], "colour": "red"},
                    {"name": "B", "players": [3, 4]}]},
         400, 'Team 1: "colour" is not a field of a team.'),
        ({"format": "6p"}, 400,
         "The 6p format seats teams of 2 + 2 + 2 players, but the teams given have 2 + 2."),
        ({"variant": "rummy"}, 400, "rummy"),
        ({"variant": 3}, 400, "'variant' must be text"),
        ({"format": "8p"}, 400, "'8p' is not a table format"),
        ({"options": {"jokers_wild": True}}, 400, "'jokers_wild' is not an option"),
        ({"options": [1]}, 400, "'options' must be an object"),
        ({"target": 0}, 400, "Option 'target' must be above 0, not 0"),
        ({"target": "high"}, 400, "Option 'target' must be a whole number"),
        ({"first_dealer": 424242}, 400,
         "The first dealer (player 424242) has no seat at this table."),
        ({"first_dealer": True}, 400, "has no seat at this table"),
        ({"referee": "me"}, 400, '"referee" is not a field here'),
    ],
)  # fmt: skip
def test_bad_match_input(world: World, changes: dict[str, Any], status: int, words: str) -> None:
    ids = world.ids("Ann", "Bo", "Cy", "Di")
    body = four_player_match(world, **changes)
    # written with the ids 1..4 for short; map them to the real players
    for team in body["teams"] if isinstance(body["teams"], list) else []:
        if isinstance(team, dict) and isinstance(team.get("players"), list):
            team["players"] = [
                ids[p - 1] if type(p) is int and 1 <= p <= 4 else p for p in team["players"]
            ]
    response = world.owner.post("matches", body)
    assert response.status_code == status, response.get_json()
    assert words in response.get_json()["error"]
    with world.app.app_context():
        assert db.session.scalar(db.select(db.func.count(Match.id))) == 0


def test_a_player_of_another_club_cannot_be_seated(world: World) -> None:
    body = four_player_match(world)
    body["teams"][1]["players"] = [world.players["Cy"], world.outsider]
    response = world.owner.post("matches", body)
    assert response.status_code == 400
    assert response.get_json() == {"error": f"Player {world.outsider} does not play in this club."}


def test_a_player_cannot_take_two_seats(world: World) -> None:
    body = four_player_match(world)
    body["teams"][1]["players"] = world.ids("Cy", "Ann")
    response = world.owner.post("matches", body)
    assert response.status_code == 400
    assert response.get_json() == {"error": "Ann is seated twice; every player takes one seat."}


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("[]", "must be a JSON object, not []"),
        ("null", "must be a JSON object, not null"),
        ('"match"', 'must be a JSON object, not "match"'),
        ("{", "not valid JSON"),
        ("", "not valid JSON"),
    ],
)
def test_a_match_body_that_is_no_object(world: World, raw: str, words: str) -> None:
    response = world.owner.post("matches", raw=raw)
    assert response.status_code == 400
    assert words in response.get_json()["error"]


# --- recording hands ----------------------------------------------------------------------------


def test_post_the_reference_hand(world: World) -> None:
    match_id = start(world)
    response = add_hand(world, match_id)
    assert response.status_code == 201
    assert response.headers["Location"] == f"/api/v1/matches/{match_id}/hands/1"
    assert response.headers["ETag"] == '"1"'
    hand = response.get_json()
    assert hand["number"] == 1
    assert hand["version"] == 1
    assert hand["legal"] is True
    assert hand["problems"] == []
    assert hand["accepted_reason"] is None
    assert [(t["name"], t["score"]) for t in hand["teams"]] == [("A", 665), ("B", -95)]
    assert [t["players"] for t in hand["teams"]] == [world.ids("Ann", "Bo"), world.ids("Cy", "Di")]
    assert hand["teams"][0]["lines"] == REFERENCE_LINES_A
    assert hand["teams"][1]["lines"] == REFERENCE_LINES_B
    assert hand["entry"]["teams"][0]["melds"] == REFERENCE_HAND["teams"][0]["melds"]

    match = world.viewer.get(f"matches/{match_id}").get_json()
    assert scores(match) == {"A": 665, "B": -95}
    assert match["hands"] == [world.viewer.get(f"matches/{match_id}/hands/1").get_json()]
    assert match["finished"] is False
    assert match["winner"] is None


def test_a_fixed_team_hand_may_leave_out_the_team_names(world: World) -> None:
    match_id = start(world)
    hand = copy.deepcopy(REFERENCE_HAND)
    for team in hand["teams"]:
        del team["name"]
    response = add_hand(world, match_id, hand)
    assert response.status_code == 201
    assert [(t["name"], t["score"]) for t in response.get_json()["teams"]] == [
        ("A", 665),
        ("B", -95),
    ]


def test_a_hand_for_another_match_number_is_404(world: World) -> None:
    match_id = start(world)
    assert world.owner.get(f"matches/{match_id}/hands/1").status_code == 404
    assert world.owner.get("matches/99999").status_code == 404
    assert world.owner.get("matches/99999999999999999999").status_code == 404
    assert world.owner.post("matches/99999/hands", REFERENCE_HAND).status_code == 404


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda h: h["teams"][0]["melds"].__setitem__(1, "QD QC QZ"),
         "Team A, meld 2: 'QZ' is not a card"),
        (lambda h: h["teams"][1]["hands"].__setitem__(0, "AS 1D"), "'1D' is not a card"),
        (lambda h: h.__setitem__("kozi", "purple"), "'kozi' cannot be \"purple\""),
        (lambda h: h["teams"][0].__setitem__("went_out", "yes"),
         "'went_out' must be true or false, not \"yes\""),
        (lambda h: h["teams"][0].__setitem__("score_before", 100),
         "'score_before' comes from the match itself"),
        (lambda h: h["teams"][0].__setitem__("name", "C"),
         '"C" is not a team of this match (A, B).'),
        (lambda h: h["teams"][0].__setitem__("name", ["A"]), '["A"] is not a team of this match'),
        (lambda h: h["teams"][1].__setitem__("name", "A"), "A team is entered twice"),
        (lambda h: h["teams"].pop(), "This match has 2 teams; enter each of them once."),
        (lambda h: h["teams"][0].__setitem__("trumps", 3), '"trumps" is not a field of a team'),
        (lambda h: h.__setitem__("variant", "pagat"), '"variant" is not a field here'),
        (lambda h: h.__setitem__("format", "4p"), '"format" is not a field here'),
        (lambda h: h.__setitem__("teams", {}), "'teams' must list every side of the hand."),
        (lambda h: h.__setitem__("accepted_reason", 42), "'accepted_reason' must be text, not 42."),
    ],
)  # fmt: skip
def test_bad_hand_input_is_400_naming_the_value(world: World, change: Any, words: str) -> None:
    match_id = start(world)
    hand = copy.deepcopy(REFERENCE_HAND)
    change(hand)
    response = add_hand(world, match_id, hand)
    assert response.status_code == 400, response.get_json()
    assert words in response.get_json()["error"]
    assert stored_hands(world.app, match_id) == []


def test_a_hand_with_problems_is_422_until_a_reason_is_given(world: World) -> None:
    match_id = start(world)
    refused = add_hand(world, match_id, ILLEGAL_MELD_HAND)
    assert refused.status_code == 422
    body = refused.get_json()
    assert body["error"] == (
        "This hand has problems; fix them, or accept them with a written reason."
    )
    assert body["problems"] == [ILLEGAL_MELD_PROBLEM]
    assert body["preview"]["legal"] is False
    assert [(t["name"], t["score"]) for t in body["preview"]["teams"]] == [("A", 375), ("B", -120)]
    assert stored_hands(world.app, match_id) == []
    blank = add_hand(world, match_id, {**ILLEGAL_MELD_HAND, "accepted_reason": "   "})
    assert blank.status_code == 422

    reason = "Table rule: Bo's run stood; we agreed before the deal."
    accepted = add_hand(world, match_id, {**ILLEGAL_MELD_HAND, "accepted_reason": reason})
    assert accepted.status_code == 201
    hand = accepted.get_json()
    assert hand["accepted_reason"] == reason
    assert hand["legal"] is False
    assert hand["problems"] == [ILLEGAL_MELD_PROBLEM]
    match = world.owner.get(f"matches/{match_id}").get_json()
    assert match["hands"][0]["accepted_reason"] == reason
    assert scores(match) == {"A": 375, "B": -120}
    with world.app.app_context():
        kept = db.session.scalar(db.select(HandVersion).where(HandVersion.match_id == match_id))
        assert kept is not None and kept.accepted_reason == reason


def test_times_carry_their_utc_offset_on_every_database(world: World) -> None:
    match_id = start(world)
    saved = add_hand(world, match_id).get_json()
    read = world.owner.get(f"matches/{match_id}/hands/1").get_json()
    club = world.owner.get(f"clubs/{world.club}").get_json()
    # SQLite gives stored times back without their zone; the API says UTC all the same.
    assert saved["updated_at"] == read["updated_at"]
    assert read["updated_at"].endswith("+00:00")
    assert all(m["created_at"].endswith("+00:00") for m in club["matches"])


def test_a_save_asks_the_database_as_much_at_hand_30_as_at_hand_3(world: World) -> None:
    """Saving scores against the match's stored progress and moves its stat rows in place:
    no statement reads a stored hand, so their number does not grow with the match."""
    match_id = start(world, target=1_000_000)  # 30 reference hands do not end it
    for _ in range(2):
        add_hand(world, match_id)
    with world.app.app_context():
        engine = db.engine
    counted: list[str] = []

    def count(*args: Any) -> None:
        counted.append(args[2])

    sa_event.listen(engine, "before_cursor_execute", count)
    try:
        add_hand(world, match_id)  # hand 3
        at_three = list(counted)
        for _ in range(26):
            add_hand(world, match_id)
        counted.clear()
        response = add_hand(world, match_id)  # hand 30
    finally:
        sa_event.remove(engine, "before_cursor_execute", count)
    assert response.get_json()["number"] == 30
    assert len(counted) == len(at_three)
    assert not [s for s in counted if s.lstrip().upper().startswith("SELECT") and "FROM hand " in s]
    # Nobody raced it: the match is held by the statement that moves its progress on, with
    # no lock of its own (SQLite's rewrite of first_dealer, PostgreSQL's FOR NO KEY UPDATE).
    assert not [s for s in counted if "first_dealer=" in s or "FOR NO KEY UPDATE" in s]


def test_a_save_scores_right_whatever_spelling_the_stored_progress_has(world: World) -> None:
    """The quick save compares the stored progress as text; progress written some other way
    (another JSON spelling) takes the long way round, to the same hand and totals."""
    match_id = start(world)
    add_hand(world, match_id)
    with world.app.app_context():
        stored = db.session.get(Match, match_id)
        assert stored is not None and stored.progress is not None
        respelled = json.dumps(stored.progress, separators=(",", ":"))
        # SQLite keeps JSON as text (and would read CAST(… AS JSON) as a number).
        value = ":text" if db.engine.dialect.name == "sqlite" else "CAST(:text AS JSON)"
        db.session.execute(
            db.text(f"UPDATE match SET progress = {value} WHERE id = :id"),
            {"text": respelled, "id": match_id},
        )
        assert db.session.scalar(db.text("SELECT CAST(progress AS TEXT) FROM match")) == respelled
        db.session.commit()
    second = add_hand(world, match_id)
    assert second.status_code == 201
    assert second.get_json()["number"] == 2
    third = add_hand(world, match_id)  # from the progress the second one stored
    assert third.status_code == 201
    assert third.get_json()["number"] == 3
    assert scores(world.owner.get(f"matches/{match_id}").get_json()) == {"A": 1995, "B": -285}


def test_the_same_idempotency_key_stores_one_hand(world: World) -> None:
    match_id = start(world)
    first = add_hand(world, match_id, headers={"Idempotency-Key": "phone-7f3a"})
    again = add_hand(world, match_id, headers={"Idempotency-Key": "phone-7f3a"})
    assert first.status_code == 201
    assert again.status_code == 200
    assert again.get_json() == first.get_json()
    assert again.headers["Location"] == first.headers["Location"]
    assert stored_hands(world.app, match_id) == [(1, 1, False)]
    assert scores(world.owner.get(f"matches/{match_id}").get_json()) == {"A": 665, "B": -95}


def test_different_idempotency_keys_store_two_hands(world: World) -> None:
    match_id = start(world)
    assert add_hand(world, match_id, headers={"Idempotency-Key": "a"}).status_code == 201
    second = add_hand(world, match_id, headers={"Idempotency-Key": "b"})
    assert second.status_code == 201
    assert second.get_json()["number"] == 2
    assert stored_hands(world.app, match_id) == [(1, 1, False), (2, 1, False)]
    assert scores(world.owner.get(f"matches/{match_id}").get_json()) == {"A": 1330, "B": -190}


def test_an_idempotency_key_belongs_to_its_match(world: World) -> None:
    one, two = start(world), start(world)
    assert add_hand(world, one, headers={"Idempotency-Key": "k"}).status_code == 201
    assert add_hand(world, two, headers={"Idempotency-Key": "k"}).status_code == 201
    assert stored_hands(world.app, two) == [(1, 1, False)]


@pytest.mark.parametrize("key", ["", "x" * 101, "naïve-ключ"])
def test_a_bad_idempotency_key_is_400(world: World, key: str) -> None:
    match_id = start(world)
    response = world.owner.post(
        f"matches/{match_id}/hands",
        raw=json.dumps(REFERENCE_HAND),
        headers={"Idempotency-Key": key.encode().decode("latin-1")},
    )
    assert response.status_code == 400
    assert (
        "Idempotency-Key must be 1 to 100 printable ASCII characters"
        in response.get_json()["error"]
    )
    assert stored_hands(world.app, match_id) == []


# --- editing and deleting hands ----------------------------------------------------------------


SMALLER_HAND: dict[str, Any] = {
    "kozi": "H",
    "teams": [
        {"name": "A", "melds": ["QD QC QH"], "hands": ["4S", ""], "took_biribaki": True},
        {"name": "B", "melds": ["3C 4C 5C"], "hands": ["AS 9D", ""], "took_biribaki": True},
    ],
}  # A: 30 melded − 5 left = 25; B: 15 melded − 25 left = −10


@pytest.mark.parametrize("if_match", ['"1"', "1", 'W/"1"'])
def test_put_with_the_current_version_replaces_the_hand(world: World, if_match: str) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    response = world.owner.put(
        f"matches/{match_id}/hands/1", SMALLER_HAND, headers={"If-Match": if_match}
    )
    assert response.status_code == 200
    assert response.headers["ETag"] == '"2"'
    hand = response.get_json()
    assert (hand["number"], hand["version"]) == (1, 2)
    assert [(t["name"], t["score"]) for t in hand["teams"]] == [("A", 25), ("B", -10)]
    assert scores(world.owner.get(f"matches/{match_id}").get_json()) == {"A": 25, "B": -10}
    with world.app.app_context():
        versions = db.session.scalars(
            db.select(HandVersion.action).where(HandVersion.match_id == match_id)
            .order_by(HandVersion.version)
        )  # fmt: skip
        assert list(versions) == ["created", "edited"]


def test_put_with_a_stale_version_is_409_and_changes_nothing(world: World) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    edit = world.owner.put(f"matches/{match_id}/hands/1", SMALLER_HAND, headers={"If-Match": "1"})
    assert edit.status_code == 200
    stale = world.scorer.put(
        f"matches/{match_id}/hands/1", REFERENCE_HAND, headers={"If-Match": '"1"'}
    )
    assert stale.status_code == 409
    assert "changed by someone else" in stale.get_json()["error"]
    # a stale edit is a conflict even when its body is bad
    bad = world.scorer.put(
        f"matches/{match_id}/hands/1", ILLEGAL_MELD_HAND, headers={"If-Match": "1"}
    )
    assert bad.status_code == 409
    now = world.owner.get(f"matches/{match_id}/hands/1")
    assert now.get_json() == edit.get_json()
    assert now.headers["ETag"] == '"2"'
    assert scores(world.owner.get(f"matches/{match_id}").get_json()) == {"A": 25, "B": -10}


def test_a_put_of_a_hand_with_problems_needs_a_reason_too(world: World) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    refused = world.owner.put(
        f"matches/{match_id}/hands/1", ILLEGAL_MELD_HAND, headers={"If-Match": "1"}
    )
    assert refused.status_code == 422
    assert refused.get_json()["problems"] == [ILLEGAL_MELD_PROBLEM]
    assert stored_hands(world.app, match_id) == [(1, 1, False)]
    accepted = world.owner.put(
        f"matches/{match_id}/hands/1",
        {**ILLEGAL_MELD_HAND, "accepted_reason": "As played"},
        headers={"If-Match": "1"},
    )
    assert accepted.status_code == 200
    assert accepted.get_json()["accepted_reason"] == "As played"


def test_delete_with_the_current_version_removes_the_hand(world: World) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    add_hand(world, match_id, SMALLER_HAND)
    stale = world.owner.delete(f"matches/{match_id}/hands/1", headers={"If-Match": "2"})
    assert stale.status_code == 409
    assert stored_hands(world.app, match_id) == [(1, 1, False), (2, 1, False)]
    gone = world.owner.delete(f"matches/{match_id}/hands/1", headers={"If-Match": "1"})
    assert gone.status_code == 204
    assert gone.data == b""
    assert world.owner.get(f"matches/{match_id}/hands/1").status_code == 404
    again = world.owner.delete(f"matches/{match_id}/hands/1", headers={"If-Match": "2"})
    assert again.status_code == 404
    match = world.owner.get(f"matches/{match_id}").get_json()
    assert [h["number"] for h in match["hands"]] == [2]
    assert scores(match) == {"A": 25, "B": -10}
    # numbers never shift: the next hand is 3
    assert add_hand(world, match_id).get_json()["number"] == 3
    assert stored_hands(world.app, match_id) == [(1, 2, True), (2, 1, False), (3, 1, False)]


@pytest.mark.parametrize("method", ["PUT", "DELETE"])
def test_an_edit_without_if_match_is_428(world: World, method: str) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    response = world.owner.call(method, f"matches/{match_id}/hands/1", SMALLER_HAND)
    assert response.status_code == 428
    assert "If-Match" in response.get_json()["error"]
    assert stored_hands(world.app, match_id) == [(1, 1, False)]


@pytest.mark.parametrize("if_match", ["abc", '"v1"', "*", "1, 2", "-1", "²", "9" * 40])
def test_an_unreadable_if_match_is_400(world: World, if_match: str) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    response = world.owner.put(
        f"matches/{match_id}/hands/1",
        raw=json.dumps(SMALLER_HAND),
        headers={"If-Match": if_match.encode().decode("latin-1")},
    )
    assert response.status_code == 400
    assert "If-Match must be the hand's version" in response.get_json()["error"]
    assert stored_hands(world.app, match_id) == [(1, 1, False)]


# --- the match moves on: totals, openings, the end ----------------------------------------------

# Wikipedia rules: opening table W1 (75 below 1500, 90 from 1500, more than 120 from 3000).
WIKI_BIG: dict[str, Any] = {
    "kozi": "H",
    "teams": [
        {
            "name": "A",
            "melds": ["8S 9S 10S JS QS KS AS", "3H-9H", "3D-9D"],
            "opening": "8S 9S 10S JS QS KS AS",
            "hands": ["", ""],
            "went_out": True,
            "took_biribaki": True,
        },
        {"name": "B", "melds": [], "hands": ["4C 5C", "6C"]},
    ],
}  # A 1665 (165 melded, 400 + 600 + 400 biribas, 100 out); B −115 (−15 left, −100 no biribaki)
WIKI_SMALL: dict[str, Any] = {
    "kozi": "H",
    "teams": [
        {
            "name": "A",
            "melds": ["8S 9S 10S JS QS KS AS"],
            "opening": "8S 9S 10S JS QS KS AS",
            "hands": ["", "5H"],
            "took_biribaki": True,
        },
        {"name": "B", "melds": [], "hands": ["4C 5C", "6C"]},
    ],
}  # A 470 (75 melded, 400 biriba, −5 left); B −115
WIKI_OPENS_WITH_75: dict[str, Any] = {
    "kozi": "H",
    "teams": [
        {
            "name": "A",
            "melds": ["8D 9D 10D JD QD KD AD"],
            "opening": "8D 9D 10D JD QD KD AD",
            "hands": ["7C", "8C"],
            "took_biribaki": True,
        },
        {"name": "B", "melds": [], "hands": ["9C", ""], "took_biribaki": True},
    ],
}  # A 460 (75 melded, 400 biriba, −15 left); B −10
OPENING_90_PROBLEM = (
    "The first meld of A (8♦ 9♦ 10♦ J♦ Q♦ K♦ A♦) is worth 75 points, "
    "but with 1665 before the hand it needed at least 90."
)


def test_totals_and_openings_are_recomputed_after_an_edit_and_a_delete(world: World) -> None:
    match_id = start(world, variant="wikipedia")
    path = f"matches/{match_id}"
    assert add_hand(world, match_id, WIKI_BIG).status_code == 201
    match = world.owner.get(path).get_json()
    assert scores(match) == {"A": 1665, "B": -115}
    assert openings(match) == {"A": 90, "B": 75}

    # Hand 2: A opens with 75 though 90 was needed; the table accepts it.
    refused = add_hand(world, match_id, WIKI_OPENS_WITH_75)
    assert refused.status_code == 422
    assert refused.get_json()["problems"] == [OPENING_90_PROBLEM]
    reason = "Nobody noticed until the hand was over."
    second = add_hand(world, match_id, {**WIKI_OPENS_WITH_75, "accepted_reason": reason})
    assert second.status_code == 201
    assert [t["opening_required"] for t in second.get_json()["teams"]] == [90, 75]
    match = world.owner.get(path).get_json()
    assert scores(match) == {"A": 2125, "B": -125}
    assert openings(match) == {"A": 90, "B": 75}

    # Correct hand 1: A had far less, so hand 2 needed only 75 and its problem goes away.
    edit = world.owner.put(f"{path}/hands/1", WIKI_SMALL, headers={"If-Match": "1"})
    assert edit.status_code == 200
    match = world.owner.get(path).get_json()
    assert scores(match) == {"A": 930, "B": -125}
    assert openings(match) == {"A": 75, "B": 75}
    hand_2 = match["hands"][1]
    assert [t["opening_required"] for t in hand_2["teams"]] == [75, 75]
    assert hand_2["problems"] == []
    assert hand_2["legal"] is True
    assert hand_2["accepted_reason"] == reason
    assert [t["score"] for t in hand_2["teams"]] == [460, -10]

    # Put hand 1 back as it was: hand 2 needs 90 again.
    world.owner.put(f"{path}/hands/1", WIKI_BIG, headers={"If-Match": "2"})
    match = world.owner.get(path).get_json()
    assert match["hands"][1]["problems"] == [OPENING_90_PROBLEM]
    assert scores(match) == {"A": 2125, "B": -125}

    # Delete hand 1: only hand 2 counts, scored from nothing.
    assert world.owner.delete(f"{path}/hands/1", headers={"If-Match": "3"}).status_code == 204
    match = world.owner.get(path).get_json()
    assert scores(match) == {"A": 460, "B": -10}
    assert openings(match) == {"A": 75, "B": 75}
    assert [t["opening_required"] for t in match["hands"][0]["teams"]] == [75, 75]
    assert match["hands"][0]["problems"] == []


def test_the_opening_needs_more_than_120_from_3000(world: World) -> None:
    match_id = start(world, variant="wikipedia")
    add_hand(world, match_id, WIKI_BIG)
    again = add_hand(world, match_id, {**WIKI_BIG, "accepted_reason": "Opened with 75 by mistake"})
    assert again.status_code == 201
    match = world.owner.get(f"matches/{match_id}").get_json()
    assert scores(match) == {"A": 3330, "B": -230}
    assert (match["finished"], match["winner"]) == (True, "A")  # above the target of 3000
    assert openings(match) == {"A": 125, "B": 75}  # more than 120, in steps of 5
    assert [t["opening"] for t in match["teams"]] == ["more than 120", "at least 75"]


def test_a_short_match_is_played_to_its_winner(world: World) -> None:
    match_id = start(world, target=1000)
    first = world.owner.get(f"matches/{match_id}").get_json()
    assert first["target"] == 1000
    add_hand(world, match_id)
    assert world.owner.get(f"matches/{match_id}").get_json()["finished"] is False
    add_hand(world, match_id)
    match = world.owner.get(f"matches/{match_id}").get_json()
    assert scores(match) == {"A": 1330, "B": -190}
    assert match["finished"] is True
    assert match["winner"] == "A"
    assert match["next_dealer"] is not None

    late = add_hand(world, match_id, SMALLER_HAND)
    assert late.status_code == 409
    assert late.get_json() == {
        "error": "The match is over: A won. Correct an earlier hand instead."
    }
    assert len(world.owner.get(f"matches/{match_id}").get_json()["hands"]) == 2

    # correcting the last hand reopens it
    world.owner.put(f"matches/{match_id}/hands/2", SMALLER_HAND, headers={"If-Match": "1"})
    match = world.owner.get(f"matches/{match_id}").get_json()
    assert scores(match) == {"A": 690, "B": -105}
    assert (match["finished"], match["winner"]) == (False, None)
    assert add_hand(world, match_id, SMALLER_HAND).status_code == 201


# --- a share format: three players, one alone against a pair ------------------------------------

SOLO_AND_PAIR: dict[str, Any] = {
    "kozi": "♥",
    "teams": [
        {
            "name": "Solo",
            "players": [],
            "melds": ["8H 9H 10H JH QH KH AH"],
            "hands": [""],
            "went_out": True,
            "took_biribaki": True,
        },
        {
            "name": "Pair",
            "players": [],
            "melds": ["4D 5D 6D"],
            "hands": ["QS", "JK 2C"],
            "took_biribaki": True,
        },
    ],
}  # Solo 575 (75 melded, 400 clean kózi biriba, 100 out); Pair −25 (15 melded, −40 left)


def solo_and_pair(solo: int, pair: list[int]) -> dict[str, Any]:
    hand = copy.deepcopy(SOLO_AND_PAIR)
    hand["teams"][0]["players"] = [solo]
    hand["teams"][1]["players"] = pair
    return hand


def test_a_3p_partnership_match_shares_half_points(world: World) -> None:
    ann, bo, cy = world.ids("Ann", "Bo", "Cy")
    response = world.owner.post(
        "matches",
        {
            "club": world.club,
            "variant": "pagat-kouridakis",
            "format": "3p-partnership",
            "teams": [{"name": "Table", "players": [ann, bo, cy]}],
            "first_dealer": bo,
        },
    )
    assert response.status_code == 201
    match = response.get_json()
    assert [t["name"] for t in match["teams"]] == ["Ann", "Bo", "Cy"]
    assert match["next_dealer"] == "Bo"
    path = f"matches/{match['id']}"

    first = world.owner.post(f"{path}/hands", solo_and_pair(ann, [bo, cy]))
    assert first.status_code == 201
    hand = first.get_json()
    assert [(t["name"], t["players"], t["score"]) for t in hand["teams"]] == [
        ("Solo", [ann], 575),
        ("Pair", [bo, cy], -25),
    ]
    assert scores(world.owner.get(path).get_json()) == {"Ann": 575, "Bo": "−12½", "Cy": "−12½"}

    second = world.owner.post(f"{path}/hands", solo_and_pair(bo, [ann, cy]))
    assert second.status_code == 201
    match = world.owner.get(path).get_json()
    assert scores(match) == {"Ann": "562½", "Bo": "562½", "Cy": -25}
    assert match["finished"] is False

    # sides named by nobody get their players' names
    unnamed = solo_and_pair(cy, [ann, bo])
    for side in unnamed["teams"]:
        del side["name"]
    third = world.owner.post(f"{path}/hands", unnamed).get_json()
    assert [t["name"] for t in third["teams"]] == ["Cy", "Ann & Bo"]
    assert scores(world.owner.get(path).get_json()) == {"Ann": 550, "Bo": 550, "Cy": 550}


@pytest.mark.parametrize(
    ("sides", "words"),
    [
        ([["Ann"], ["Bo", "Cy", "Ann"]], "Ann is on two sides; each player plays on one."),
        ([["Ann"], ["Bo"]], "Cy must be on a side too; everyone at the table plays."),
        ([["Ann", "Bo", "Cy"], []], "Side 2 must list its players by id."),
        ([["Ann"], ["Bo", "Di"]], "has no seat at this table"),
        ([["Ann"], ["Bo", True]], "Player true has no seat at this table."),
        ([["Ann"], ["Bo", [3]]], "has no seat at this table"),
        ([["Ann"], ["Bo", "Cy"], []], "Side 3 must list its players by id."),
    ],
)
def test_bad_sides_in_a_share_format(world: World, sides: list[list[Any]], words: str) -> None:
    ann, bo, cy = world.ids("Ann", "Bo", "Cy")
    match_id = start(
        world,
        variant="pagat-kouridakis",
        format="3p-partnership",
        teams=[{"players": [ann, bo, cy]}],
    )
    hand = copy.deepcopy(SOLO_AND_PAIR)
    hand["teams"].extend(copy.deepcopy(SOLO_AND_PAIR["teams"][1:]) * (len(sides) - 2))
    for side, names in zip(hand["teams"], sides, strict=True):
        side.pop("name")
        side["players"] = [world.players[n] if isinstance(n, str) else n for n in names]
    response = add_hand(world, match_id, hand)
    assert response.status_code == 400, response.get_json()
    assert words in response.get_json()["error"]


def test_a_share_format_checks_the_shape_of_the_sides(world: World) -> None:
    ids = world.ids("Ann", "Bo", "Cy", "Di", "Eve")
    match_id = start(world, variant="pagat", format="5p", teams=[{"players": ids}])
    hand = {
        "kozi": "S",
        "teams": [
            {"players": ids[:1], "melds": [], "hands": [""]},
            {"players": ids[1:], "melds": [], "hands": ["", "", "", ""]},
        ],
    }
    response = add_hand(world, match_id, hand)
    assert response.status_code == 400
    assert "The 5p format plays one player alone against the others" in response.get_json()["error"]


def test_a_share_format_needs_its_player_count(world: World) -> None:
    response = world.owner.post(
        "matches",
        four_player_match(
            world, format="3p-partnership", teams=[{"players": world.ids("Ann", "Bo")}]
        ),
    )
    assert response.status_code == 400
    assert response.get_json() == {"error": "The 3p-partnership format is for 3 players, not 2."}


# --- odd bodies never break the server ----------------------------------------------------------

WEIRD_BODIES = [
    "",
    " ",
    "null",
    "true",
    "0",
    "-1e999",
    "NaN",
    '"text"',
    "[]",
    "[{}]",
    "{",
    "{}",
    '{"": null}',
    b"\xff\xfe{}",
    "[" * 5000 + "]" * 5000,
    '{"a":' * 5000 + "1" + "}" * 5000,
    '{"name": "\\u0000"}',
    '{"name": "\\ud800"}',
    '{"name": {"nested": [1, 2, {"x": null}]}}',
    '{"name": 1e400}',
    '{"name": ' + "9" * 5000 + "}",
    '{"kozi": "H", "teams": null}',
    '{"kozi": "H", "teams": 7}',
    '{"kozi": "H", "teams": [null]}',
    '{"kozi": "H", "teams": [[]]}',
    '{"kozi": "H", "teams": [{}, {}, {}]}',
    '{"kozi": "H", "teams": [{"name": {}}, {"name": []}]}',
    '{"kozi": "H", "teams": [{"name": "A", "melds": "5S-JS"}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "melds": [5]}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "melds": [""]}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "hands": "AS"}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "hands": [[1]]}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "hand_points": -1}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "hand_points": 1.5}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "cut": "lucky"}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A", "failed_openings": true}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"players": [[1]]}, {"players": [2]}, {"players": [3]}]}',
    '{"kozi": ["H"], "teams": [{"name": "A"}, {"name": "B"}]}',
    '{"kozi": {"suit": "H"}, "teams": [{"name": "A"}, {"name": "B"}]}',
    '{"kozi": "H", "teams": [{"name": "A"}, {"name": "B"}], "accepted_reason": ["x"]}',
    '{"kozi": "H", "teams": [{"name": "A\\u0000"}, {"name": "B"}]}',
    '{"club": 1, "variant": "pagat", "format": "4p", "teams": [{"players": [[1]]}]}',
    '{"club": 1, "variant": "pagat", "format": "4p", "teams": [{"players": [{}]}]}',
    '{"club": 1, "variant": "pagat", "format": "4p", "teams": [{"players": [1.5, 2]}]}',
    '{"club": 1, "variant": null, "format": null, "teams": null}',
    '{"club": 1, "variant": "pagat", "format": "4p", "options": null, "teams": [{"name": null}]}',
    '{"club": 1, "variant": "pagat", "format": "4p", "target": 1e400, "teams": []}',
    '{"club": 1.0, "variant": "pagat", "format": "4p", "teams": []}',
    '{"club": 1, "variant": "pagat", "format": "4p", "first_dealer": [1], "teams": []}',
    '{"club": 1, "variant": "pagat", "format": "4p", "options": {"target": [1]}, "teams": []}',
]


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "clubs"),
        ("POST", "clubs/{club}/players"),
        ("POST", "matches"),
        ("POST", "matches/{match}/hands"),
        ("PUT", "matches/{match}/hands/1"),
        ("POST", "matches/{share}/hands"),
    ],
)
def test_odd_json_is_a_4xx_never_a_500(world: World, method: str, path: str) -> None:
    match_id = start(world)
    add_hand(world, match_id)
    share_id = start(
        world,
        variant="pagat-kouridakis",
        format="3p-partnership",
        teams=[{"players": world.ids("Ann", "Bo", "Cy")}],
    )
    url = path.format(club=world.club, match=match_id, share=share_id)
    for raw in WEIRD_BODIES:
        data = raw if isinstance(raw, bytes) else raw.encode("utf-8", "surrogatepass")
        response = world.owner.call(method, url, raw=data, headers={"If-Match": "1"})
        assert 400 <= response.status_code < 500, (raw[:80], response.get_json())
        assert isinstance(response.get_json()["error"], str), raw[:80]
    assert stored_hands(world.app, match_id) == [(1, 1, False)]
    assert stored_hands(world.app, share_id) == []
    assert [c["name"] for c in world.owner.get("clubs").get_json()["clubs"]] == ["Kafeneio"]
    assert len(world.owner.get(f"clubs/{world.club}").get_json()["players"]) == 6


def test_a_body_must_be_sent_as_json(world: World) -> None:
    match_id = start(world)
    response = world.owner.post(
        f"matches/{match_id}/hands",
        raw=json.dumps(REFERENCE_HAND),
        content_type="text/plain",
    )
    assert response.status_code == 415
    assert response.get_json() == {
        "error": "Send the body as JSON, with Content-Type: application/json."
    }


# --- issue 10: the kózi every hand, and the opening marked by meld -------------------------


def test_a_kozi_variant_hand_without_its_kozi_is_400_and_nothing_is_stored(
    world: World,
) -> None:
    match_id = start(world)
    for kozi in (None, ""):
        response = add_hand(world, match_id, {**REFERENCE_HAND, "kozi": kozi})
        assert response.status_code == 400
        assert response.get_json()["error"] == (
            "Choose this hand's kózi: Greek Biriba (pagat.com) has one every hand."
        )
    assert stored_hands(world.app, match_id) == []
    # a correction must name the kózi too
    assert add_hand(world, match_id).status_code == 201
    put = world.owner.call(
        "PUT",
        f"matches/{match_id}/hands/1",
        {**REFERENCE_HAND, "kozi": None},
        headers={"If-Match": "1"},
    )
    assert put.status_code == 400


def test_a_house_rule_may_allow_a_hand_without_kozi(world: World) -> None:
    match_id = start(world, options={"kozi_optional": True})
    response = add_hand(world, match_id, {**REFERENCE_HAND, "kozi": None})
    assert response.status_code == 201, response.get_json()


def _wikipedia_hand(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    return {"kozi": "C", "teams": [{"name": "A", **a}, {"name": "B", **b}]}


def test_a_lone_15_point_meld_against_75_is_refused_by_the_match_api(world: World) -> None:
    match_id = start(world, variant="wikipedia")
    hand = _wikipedia_hand(
        {"melds": ["AS AH AD", "KC KD KS"], "took_biribaki": True, "opening_melds": [0, 1]},
        {"melds": ["3H 4H 5H"], "took_biribaki": True},
    )
    refused = add_hand(world, match_id, hand)
    assert refused.status_code == 422
    assert refused.get_json()["problems"] == [
        "B needs at least 75 to open, but all its melds together hold 15 points."
    ]
    assert stored_hands(world.app, match_id) == []


def test_the_match_api_stores_opening_melds_and_the_not_checked_note(world: World) -> None:
    match_id = start(world, variant="wikipedia")
    hand = _wikipedia_hand(
        {"melds": ["AS AH AD", "KC KD KS"], "took_biribaki": True, "opening_melds": [0, 1]},
        {"melds": ["QS QH QD", "JC JD JS", "10H 10S 10C"], "took_biribaki": True},
    )
    response = add_hand(world, match_id, hand)
    assert response.status_code == 201, response.get_json()
    stored = world.owner.get(f"matches/{match_id}/hands/1").get_json()
    assert stored["entry"]["teams"][0]["opening_melds"] == [0, 1]
    a, b = stored["teams"]
    assert a["opening_points"] == 75
    assert not any(line["label"].startswith("Opening") for line in a["lines"])
    assert {"label": "Opening not checked (needed at least 75)", "points": 0} in b["lines"]
    assert b["score"] == 90  # the note is 0 points: 30 + 30 + 30


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"opening_melds": [2]}, "Team A: 'opening_melds' names meld 2"),
        ({"opening_melds": [0], "opening": "AS AH AD"}, "not both"),
    ],
)
def test_bad_opening_melds_are_400_in_the_match_api(
    world: World, change: dict[str, Any], words: str
) -> None:
    match_id = start(world, variant="wikipedia")
    hand = _wikipedia_hand({"melds": ["AS AH AD", "KC KD KS"], **change}, {})
    response = add_hand(world, match_id, hand)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
