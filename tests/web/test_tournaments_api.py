"""JSON API v1 for tournaments (issue 20, tournaments.md), through the Flask test client with
bearer tokens, on both databases.

A whole night is played through the API: every hand goes in through
`POST /api/v1/matches/<match>/hands`, and the ranking the API gives is compared with one
worked out here from the hands' own scores, with the VP table of tournaments.md §3 written
out below (not read from scorekeeper.tournaments.scales).
"""
# Greek letters that look like Latin ones are the point of one test here.
# ruff: noqa: RUF001

from __future__ import annotations

import copy
import json
import re
import shlex
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event as sa_event
from werkzeug.test import TestResponse

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import (
    Match,
    Role,
    Tournament,
    TournamentEntry,
    TournamentPenalty,
    TournamentRound,
)
from scorekeeper.tournaments import directing, kept_results, service

PASSWORD = "correct horse"
NOTHING = object()

#: tournaments.md §3, burraco-3-deals: (highest difference of the row, winner VP, loser VP);
#: differences are read in steps of 5, rounded down (52 is in the 0–50 row).
BURRACO_3_DEALS = [
    (50, 10, 10),
    (150, 11, 9),
    (250, 12, 8),
    (350, 13, 7),
    (500, 14, 6),
    (650, 15, 5),
    (800, 16, 4),
    (1000, 17, 3),
    (1250, 18, 2),
    (1500, 19, 1),
    (None, 20, 0),
]


def vp_of(mine: int, theirs: int) -> int:
    """My VP at a table by the burraco-3-deals table above."""
    difference = abs(mine - theirs)
    difference -= difference % 5
    for up_to, winner, loser in BURRACO_3_DEALS:
        if up_to is None or difference <= up_to:
            return winner if mine > theirs else loser if mine < theirs else 10
    raise AssertionError("the last row takes every difference")


class Api:
    """One caller of the API with a bearer token (None: anonymous)."""

    def __init__(self, client: FlaskClient, token: str | None) -> None:
        self.client, self.token = client, token

    def call(self, method: str, path: str, body: Any = NOTHING) -> TestResponse:
        headers = {} if self.token is None else {"Authorization": f"Bearer {self.token}"}
        extra = {} if body is NOTHING else {"json": body}
        response = self.client.open(f"/api/v1/{path}", method=method, headers=headers, **extra)
        assert response.status_code < 500, response.get_data(as_text=True)
        assert response.is_json, response.get_data(as_text=True)
        return response

    def get(self, path: str) -> TestResponse:
        return self.call("GET", path)

    def post(self, path: str, body: Any = NOTHING) -> TestResponse:
        return self.call("POST", path, body)


@dataclass(frozen=True)
class Laid:
    tokens: dict[str, str]
    club: int
    players: list[int]  # P01 … P12, in order
    outsider: int


@dataclass
class World:
    app: Flask
    owner: Api
    scorer: Api
    viewer: Api
    stranger: Api
    anonymous: Api
    club: int
    players: list[int]
    outsider: int


def lay_world(app: Flask) -> Laid:
    with app.app_context():
        users = {n: accounts.create_user(n, PASSWORD) for n in ("olga", "sam", "vic", "stan")}
        club = clubs.create_club(users["olga"], "Kafeneio")
        clubs.join_by_invite(users["sam"], club.invite_code)
        clubs.set_role(club, users["sam"].id, Role.SCORER)
        clubs.join_by_invite(users["vic"], club.invite_code)  # a viewer
        other = clubs.create_club(users["stan"], "Elsewhere")
        players = [clubs.add_player(club, f"P{n:02d}").id for n in range(1, 13)]
        outsider = clubs.add_player(other, "Xeno").id
        tokens = {n: accounts.create_token(u, "test") for n, u in users.items()}
        return Laid(tokens, club.id, players, outsider)


@pytest.fixture
def world(app: Flask, kept_world: Callable[[Callable[[Flask], Laid]], Laid]) -> World:
    laid = kept_world(lay_world)
    return World(
        app=app,
        owner=Api(app.test_client(), laid.tokens["olga"]),
        scorer=Api(app.test_client(), laid.tokens["sam"]),
        viewer=Api(app.test_client(), laid.tokens["vic"]),
        stranger=Api(app.test_client(), laid.tokens["stan"]),
        anonymous=Api(app.test_client(), None),
        club=laid.club,
        players=laid.players,
        outsider=laid.outsider,
    )


def pairs_body(world: World, count: int = 6, **changes: Any) -> dict[str, Any]:
    p = world.players
    entries = [{"name": f"Pair {n + 1}", "players": [p[2 * n], p[2 * n + 1]]} for n in range(count)]
    return {
        "club": world.club,
        "name": "Friday night",
        "variant": "pagat",
        "format": "4p",
        "movement": "mitchell",
        "rounds": 3,
        "deals_per_round": 2,
        "vp_scale": "burraco-3-deals",
        "bye_vp": 12,
        "entries": entries,
    } | changes


def singles_body(world: World, count: int = 5, **changes: Any) -> dict[str, Any]:
    entries = [{"name": f"Solo {n + 1}", "players": [world.players[n]]} for n in range(count)]
    return (
        pairs_body(world)
        | {
            "format": "2p",
            "movement": "round-robin",
            "rounds": count,
            "deals_per_round": 1,
            "entries": entries,
        }
        | changes
    )


def stored_count(app: Flask) -> tuple[int, int, int]:
    with app.app_context():
        counted = (
            db.session.query(Tournament).count(),
            db.session.query(TournamentEntry).count(),
            db.session.query(Match).count(),
        )
        db.session.remove()
        return counted


def create(world: World, body: dict[str, Any], api: Api | None = None) -> dict[str, Any]:
    response = (api or world.owner).post("tournaments", body)
    assert response.status_code == 201, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


# --- setting up ---------------------------------------------------------------------------------


def test_a_scorer_sets_up_a_tournament_and_everyone_in_the_club_reads_it(world: World) -> None:
    body = pairs_body(world, round_minutes=40, options={"going_out_bonus": 200})
    response = world.scorer.post("tournaments", body)
    assert response.status_code == 201, response.get_json()
    made = response.get_json()
    assert response.headers["Location"].endswith(f"/api/v1/tournaments/{made['id']}")
    assert [(e["name"], e["players"]) for e in made["entries"]] == [
        (e["name"], e["players"]) for e in body["entries"]
    ]
    assert len({e["id"] for e in made["entries"]}) == 6

    read = world.viewer.get(f"tournaments/{made['id']}")
    assert read.status_code == 200
    got = read.get_json()
    assert got["name"] == "Friday night"
    assert (got["format"], got["movement"], got["rounds"]) == ("4p", "mitchell", 3)
    assert (got["deals_per_round"], got["bye_vp"], got["round_minutes"]) == (2, 12, 40)
    assert got["options"] == {"going_out_bonus": 200, "deals": 2}
    assert got["vp_scale"] == "burraco-3-deals"
    assert got["vp_rows"][0] == {"up_to": 50, "winner": 10, "loser": 10}
    assert got["vp_rows"][-1] == {"up_to": None, "winner": 20, "loser": 0}
    assert got["counts_in_season"] is True
    assert got["rounds_drawn"] == [] and got["penalties"] == []
    assert [e["seed"] for e in got["entries"]] == [1, 2, 3, 4, 5, 6]
    standings = world.viewer.get(f"tournaments/{made['id']}/standings").get_json()
    assert standings["rounds_played"] == 0
    assert {s["vp"] for s in standings["standings"]} == {0}


def test_a_custom_scale_and_the_issues_spelling_of_pure_danish_are_taken(world: World) -> None:
    scale = [
        {"up_to": 100, "winner": 1, "loser": 1},
        {"up_to": None, "winner": 2, "loser": 0},
    ]
    made = create(world, pairs_body(world, vp_scale=scale, movement="danish-pure"))
    got = world.owner.get(f"tournaments/{made['id']}").get_json()
    assert (got["vp_scale"], got["vp_rows"], got["movement"]) == ("custom", scale, "pure-danish")


def _bad_inputs() -> list[Any]:
    """(name, how the body is changed, words the refusal must hold)."""

    def entries(world: World, body: dict[str, Any]) -> list[dict[str, Any]]:
        listed: list[dict[str, Any]] = copy.deepcopy(body["entries"])
        return listed

    cases: list[tuple[str, Callable[[World, dict[str, Any]], dict[str, Any]], str]] = [
        (
            "an entry twice",
            lambda w, b: b | {"entries": [*entries(w, b), entries(w, b)[0]]},
            "P01 is already in entry 1",
        ),
        (
            "a player in two entries",
            lambda w, b: (
                b
                | {
                    "entries": [
                        *entries(w, b)[:5],
                        {"name": "Pair 6", "players": [w.players[0], w.players[11]]},
                    ]
                }
            ),
            "Entry 6: P01 is already in entry 1",
        ),
        (
            "one player twice in an entry",
            lambda w, b: (
                b
                | {
                    "entries": [
                        *entries(w, b)[:5],
                        {"name": "Pair 6", "players": [w.players[10], w.players[10]]},
                    ]
                }
            ),
            "Entry 6 names one player twice.",
        ),
        (
            "two entries of one name",
            lambda w, b: (
                b | {"entries": [*entries(w, b)[:5], {**entries(w, b)[5], "name": "pair 1"}]}
            ),
            "Entries 1 and 6 are both called",
        ),
        (
            "a player of another club",
            lambda w, b: (
                b
                | {
                    "entries": [
                        *entries(w, b)[:5],
                        {"name": "Pair 6", "players": [w.players[10], w.outsider]},
                    ]
                }
            ),
            "does not play in this club",
        ),
        (
            "one player in a pair",
            lambda w, b: (
                b
                | {"entries": [*entries(w, b)[:5], {"name": "Pair 6", "players": [w.players[10]]}]}
            ),
            "Entry 6 has 1 players; a 4p tournament's entries have 2 players.",
        ),
        (
            "two players in a single",
            lambda w, b: b | {"format": "2p"},
            "a 2p tournament's entries have 1 player.",
        ),
        ("too few entries", lambda w, b: b | {"entries": entries(w, b)[:1]}, "at least 2 entries"),
        (
            "more Mitchell rounds than tables",
            lambda w, b: b | {"rounds": 4},
            "A Mitchell for 6 entries has only 3 rounds without a rematch",
        ),
        (
            "a round robin too long",
            lambda w, b: b | {"movement": "round-robin", "rounds": 6},
            "is over after 5 rounds",
        ),
        (
            "a scale whose thresholds do not rise",
            lambda w, b: (
                b
                | {
                    "vp_scale": [
                        {"up_to": 150, "winner": 11, "loser": 9},
                        {"up_to": 100, "winner": 12, "loser": 8},
                        {"up_to": None, "winner": 20, "loser": 0},
                    ]
                }
            ),
            "must be above row 1",
        ),
        (
            "a scale whose VP do not add up",
            lambda w, b: (
                b
                | {
                    "vp_scale": [
                        {"up_to": 50, "winner": 10, "loser": 10},
                        {"up_to": None, "winner": 20, "loser": 5},
                    ]
                }
            ),
            "Row 2",
        ),
        ("an unknown scale", lambda w, b: b | {"vp_scale": "chess"}, "There is no VP scale chess"),
        ("an unknown movement", lambda w, b: b | {"movement": "swiss"}, "'movement' must be"),
        ("an unknown variant", lambda w, b: b | {"variant": "nope"}, "nope"),
        ("an unknown option", lambda w, b: b | {"options": {"colour": 1}}, "'colour'"),
        (
            "deals as an option",
            lambda w, b: b | {"options": {"deals": 3}},
            "as 'deals_per_round'",
        ),
        ("nine deals", lambda w, b: b | {"deals_per_round": 9}, "'deals_per_round'"),
        ("a bye of 101 VP", lambda w, b: b | {"bye_vp": 101}, "'bye_vp'"),
        ("a round of 601 minutes", lambda w, b: b | {"round_minutes": 601}, "'round_minutes'"),
        ("31 rounds", lambda w, b: b | {"movement": "danish", "rounds": 31}, "'rounds'"),
        ("a 3p format", lambda w, b: b | {"format": "3p"}, "'format' must be"),
        ("a long name", lambda w, b: b | {"name": "x" * 81}, "at most 80 characters"),
        ("no name", lambda w, b: b | {"name": "  "}, "'name' must be"),
        (
            "a long entry name",
            lambda w, b: b | {"entries": [{**entries(w, b)[0], "name": "y" * 81}]},
            "Entry 1: a name has at most 80 characters",
        ),
        (
            "201 entries",
            lambda w, b: b | {"entries": [{"name": str(n), "players": [1, 2]} for n in range(201)]},
            "at most 200 entries",
        ),
        ("a season flag as text", lambda w, b: b | {"counts_in_season": "yes"}, "true or false"),
    ]
    return [pytest.param(change, words, id=name) for name, change, words in cases]


@pytest.mark.parametrize(("change", "words"), _bad_inputs())
def test_bad_input_is_named_and_nothing_is_stored(
    world: World, change: Callable[[World, dict[str, Any]], dict[str, Any]], words: str
) -> None:
    before = stored_count(world.app)
    response = world.owner.post("tournaments", change(world, pairs_body(world)))
    assert response.status_code == 400, response.get_json()
    answer = response.get_json()
    assert any(words in problem for problem in answer["problems"]), answer
    assert answer["error"] == " ".join(answer["problems"])
    assert stored_count(world.app) == before


def test_every_problem_is_named_at_once(world: World) -> None:
    body = pairs_body(world, rounds=0, bye_vp=-1, vp_scale="chess", format="3p")
    answer = world.owner.post("tournaments", body).get_json()
    assert len(answer["problems"]) == 4, answer


def test_missing_and_unknown_fields_are_refused(world: World) -> None:
    body = pairs_body(world)
    del body["entries"]
    assert world.owner.post("tournaments", body).status_code == 400
    assert world.owner.post("tournaments", pairs_body(world, colour="red")).status_code == 400
    assert stored_count(world.app) == (0, 0, 0)


def test_only_the_clubs_owner_and_scorers_direct(world: World) -> None:
    assert world.viewer.post("tournaments", pairs_body(world)).status_code == 403
    assert world.stranger.post("tournaments", pairs_body(world)).status_code == 404
    assert world.anonymous.post("tournaments", pairs_body(world)).status_code == 401
    made = create(world, pairs_body(world))
    tid = made["id"]
    for api, status in ((world.viewer, 403), (world.stranger, 404), (world.anonymous, 401)):
        assert api.post(f"tournaments/{tid}/rounds").status_code == status
        assert api.post(f"tournaments/{tid}/rounds/1/close").status_code == status
    assert world.stranger.get(f"tournaments/{tid}").status_code == 404
    assert world.stranger.get(f"tournaments/{tid}/standings").status_code == 404
    assert world.owner.get("tournaments/999999").status_code == 404
    assert stored_count(world.app) == (1, 6, 0)


# --- a night -------------------------------------------------------------------------------------


def hand_for(names: tuple[str, str], choice: int, swap: bool, format_id: str) -> dict[str, Any]:
    """One of the demo's real pagat hands, its sides named after the table's entries."""
    kozi, first, second = PAGAT_HANDS[choice % len(PAGAT_HANDS)]
    if swap:
        first, second = second, first
    if format_id == "2p":
        first = {**first, "hands": first["hands"][:1]}
        second = {**second, "hands": second["hands"][:1]}
    return {
        "kozi": kozi,
        "teams": [{"name": names[0], **first}, {"name": names[1], **second}],
    }


@dataclass
class Played:
    """What the test itself saw of one table: its entries and the hands' scores."""

    round: int
    table: int
    ns: int
    ew: int
    ns_mp: int = 0
    ew_mp: int = 0


def play_round(
    world: World, tid: int, names: dict[int, str], deals: int, format_id: str, seed: int
) -> tuple[dict[str, Any], list[Played]]:
    started = world.scorer.post(f"tournaments/{tid}/rounds")
    assert started.status_code == 201, started.get_json()
    drawn = started.get_json()
    played = []
    for t in drawn["tables"]:
        match = world.viewer.get(f"matches/{t['match']}").get_json()
        # NS is the match's first team, EW its second.
        assert [team["name"] for team in match["teams"]] == [names[t["ns"]], names[t["ew"]]]
        table = Played(drawn["number"], t["table"], t["ns"], t["ew"])
        for deal in range(deals):
            choice = seed + 3 * t["table"] + deal
            hand = hand_for(
                (names[t["ns"]], names[t["ew"]]), choice, (choice + deal) % 2 == 1, format_id
            )
            response = world.scorer.post(f"matches/{t['match']}/hands", hand)
            assert response.status_code == 201, response.get_json()
            scores = {team["name"]: team["score"] for team in response.get_json()["teams"]}
            table.ns_mp += scores[names[t["ns"]]]
            table.ew_mp += scores[names[t["ew"]]]
        played.append(table)
    return drawn, played


def ranking_of(
    entries: list[int], tables: list[Played], byes: dict[int, int]
) -> list[tuple[int, int, int, int, int]]:
    """tournaments.md §5, worked out here: (rank, entry, VP, MP for, MP against), best first."""
    vp: Counter[int] = Counter(byes)
    mp_for: Counter[int] = Counter()
    mp_against: Counter[int] = Counter()
    met: dict[frozenset[int], list[tuple[int, int]]] = defaultdict(list)
    for t in tables:
        ns_vp, ew_vp = vp_of(t.ns_mp, t.ew_mp), vp_of(t.ew_mp, t.ns_mp)
        assert ns_vp + ew_vp == 20
        vp[t.ns] += ns_vp
        vp[t.ew] += ew_vp
        mp_for[t.ns] += t.ns_mp
        mp_for[t.ew] += t.ew_mp
        mp_against[t.ns] += t.ew_mp
        mp_against[t.ew] += t.ns_mp
        met[frozenset((t.ns, t.ew))].append((t.ns, ns_vp))
        met[frozenset((t.ns, t.ew))].append((t.ew, ew_vp))

    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for e in entries:
        groups[(vp[e], mp_for[e] - mp_against[e])].append(e)
    between: dict[int, int] = {}
    for group in groups.values():
        pairs = [frozenset(p) for p in combinations(group, 2)]
        counts = {len(met[p]) // 2 for p in pairs}
        if len(group) > 1 and len(counts) == 1 and 0 not in counts:
            for p in pairs:
                for entry, won in met[p]:
                    between[entry] = between.get(entry, 0) + won

    def key(e: int) -> tuple[int, int, int, int]:
        return (vp[e], mp_for[e] - mp_against[e], between.get(e, 0), mp_for[e])

    ordered = sorted(entries, key=lambda e: tuple(-k for k in key(e)))
    ranked = []
    for place, e in enumerate(ordered, start=1):
        rank = ranked[-1][0] if ranked and key(ranked[-1][1]) == key(e) else place
        ranked.append((rank, e, vp[e], mp_for[e], mp_against[e]))
    return ranked


@pytest.mark.parametrize("movement", ["mitchell", "danish"])
def test_a_night_of_six_pairs_ends_with_the_ranking_worked_out_from_the_hands(
    world: World, movement: str
) -> None:
    made = create(world, pairs_body(world, movement=movement))
    tid = made["id"]
    names = {e["id"]: e["name"] for e in made["entries"]}
    entries = [e["id"] for e in made["entries"]]
    tables: list[Played] = []
    for number in (1, 2, 3):
        drawn, played = play_round(world, tid, names, 2, "4p", seed=number)
        assert drawn["number"] == number and drawn["bye"] is None
        assert len(drawn["tables"]) == 3
        tables += played
        state = world.viewer.get(f"tournaments/{tid}").get_json()
        shown = state["rounds_drawn"][-1]
        assert shown["status"] == "open"
        for t, seen in zip(shown["tables"], played, strict=True):
            assert (t["ns"], t["ew"], t["status"]) == (seen.ns, seen.ew, "finished")
            assert (t["hands"], t["deals"]) == (2, 2)
            assert (t["ns_mp"], t["ew_mp"]) == (seen.ns_mp, seen.ew_mp)
            assert (t["ns_vp"], t["ew_vp"]) == (
                vp_of(seen.ns_mp, seen.ew_mp),
                vp_of(seen.ew_mp, seen.ns_mp),
            )
        closed = world.owner.post(f"tournaments/{tid}/rounds/{number}/close")
        assert closed.status_code == 200, closed.get_json()
        assert closed.get_json()["status"] == "closed"

    # Nobody met the same entry twice (a Mitchell of 3 rounds for 3 tables; modified Danish
    # avoids a rematch wherever it can, and here it can).
    meetings = Counter(frozenset((t.ns, t.ew)) for t in tables)
    assert max(meetings.values()) == 1
    assert all(sum(e in (t.ns, t.ew) for t in tables) == 3 for e in entries)

    got = world.viewer.get(f"tournaments/{tid}/standings").get_json()
    assert got["rounds_played"] == 3
    assert [
        (s["rank"], s["entry"], s["vp"], s["mp_for"], s["mp_against"]) for s in got["standings"]
    ] == ranking_of(entries, tables, {})
    assert {(s["played"], s["byes"]) for s in got["standings"]} == {(3, 0)}
    assert [s["name"] for s in got["standings"]] == [names[s["entry"]] for s in got["standings"]]
    assert sum(s["vp"] for s in got["standings"]) == 9 * 20
    # A fourth round is more than the tournament has.
    fourth = world.owner.post(f"tournaments/{tid}/rounds")
    assert fourth.status_code == 409
    assert "All 3 rounds" in fourth.get_json()["problems"][0]


def test_a_tables_match_ends_after_its_deals(world: World) -> None:
    made = create(world, pairs_body(world))
    names = {e["id"]: e["name"] for e in made["entries"]}
    drawn, _played = play_round(world, made["id"], names, 2, "4p", seed=0)
    match_id = drawn["tables"][0]["match"]
    match = world.viewer.get(f"matches/{match_id}").get_json()
    assert match["finished"] is True
    assert match["deals"] == 2
    t = drawn["tables"][0]
    third = world.scorer.post(
        f"matches/{match_id}/hands", hand_for((names[t["ns"]], names[t["ew"]]), 0, False, "4p")
    )
    assert third.status_code == 409
    assert "Correct an earlier hand instead." in third.get_json()["error"]


def test_a_round_robin_of_five_singles_gives_a_bye_each_round(world: World) -> None:
    made = create(world, singles_body(world))
    tid = made["id"]
    names = {e["id"]: e["name"] for e in made["entries"]}
    entries = [e["id"] for e in made["entries"]]
    assert [e["players"] for e in made["entries"]] == [[p] for p in world.players[:5]]
    tables: list[Played] = []
    byes: Counter[int] = Counter()
    for number in range(1, 6):
        drawn, played = play_round(world, tid, names, 1, "2p", seed=number)
        assert len(drawn["tables"]) == 2
        assert drawn["bye"] in entries
        seated = {e for t in drawn["tables"] for e in (t["ns"], t["ew"])}
        assert seated | {drawn["bye"]} == set(entries) and drawn["bye"] not in seated
        byes[drawn["bye"]] += 12
        tables += played
        shown = world.viewer.get(f"tournaments/{tid}").get_json()["rounds_drawn"][-1]
        assert shown["bye"] == {"entry": drawn["bye"], "vp": 12}
        assert world.owner.post(f"tournaments/{tid}/rounds/{number}/close").status_code == 200
    assert sorted(byes.values()) == [12] * 5  # one bye each
    assert max(Counter(frozenset((t.ns, t.ew)) for t in tables).values()) == 1
    assert len(tables) == 10  # everyone met everyone once
    got = world.viewer.get(f"tournaments/{tid}/standings").get_json()
    assert [
        (s["rank"], s["entry"], s["vp"], s["mp_for"], s["mp_against"]) for s in got["standings"]
    ] == ranking_of(entries, tables, dict(byes))
    assert {(s["played"], s["byes"]) for s in got["standings"]} == {(4, 1)}


def test_a_round_cannot_start_while_one_is_open_nor_close_with_tables_playing(
    world: World,
) -> None:
    made = create(world, pairs_body(world))
    tid = made["id"]
    names = {e["id"]: e["name"] for e in made["entries"]}
    first = world.owner.post(f"tournaments/{tid}/rounds")
    assert first.status_code == 201
    drawn = first.get_json()
    matches_before = stored_count(world.app)[2]

    again = world.owner.post(f"tournaments/{tid}/rounds")
    assert again.status_code == 409
    assert again.get_json()["problems"] == [
        "Round 1 is still open; close it before the next one starts."
    ]
    assert stored_count(world.app)[2] == matches_before  # no table's match was started

    # Table 1 plays its two deals, table 2 one of them, table 3 none.
    t1, t2, _t3 = drawn["tables"]
    for table, deals in ((t1, 2), (t2, 1)):
        for deal in range(deals):
            hand = hand_for((names[table["ns"]], names[table["ew"]]), deal, False, "4p")
            assert world.scorer.post(f"matches/{table['match']}/hands", hand).status_code == 201
    state = world.viewer.get(f"tournaments/{tid}").get_json()["rounds_drawn"][0]["tables"]
    assert [(t["status"], t["hands"]) for t in state] == [
        ("finished", 2),
        ("playing", 1),
        ("waiting", 0),
    ]
    assert state[1]["ns_vp"] is None and state[2]["ns_mp"] == 0

    refused = world.owner.post(f"tournaments/{tid}/rounds/1/close")
    assert refused.status_code == 409
    assert refused.get_json()["problems"] == [
        "Table 2 is not finished: 1 of its 2 deals are in.",
        "Table 3 is not finished: 0 of its 2 deals are in.",
    ]
    assert world.viewer.get(f"tournaments/{tid}").get_json()["rounds_drawn"][0]["status"] == "open"
    assert world.owner.post(f"tournaments/{tid}/rounds/2/close").status_code == 404
    # The unfinished tables' results are not in the ranking yet; the finished one's is.
    standings = world.viewer.get(f"tournaments/{tid}/standings").get_json()["standings"]
    assert sum(s["played"] for s in standings) == 2


def test_a_closed_round_cannot_be_closed_again(world: World) -> None:
    made = create(world, pairs_body(world))
    names = {e["id"]: e["name"] for e in made["entries"]}
    play_round(world, made["id"], names, 2, "4p", seed=2)
    assert world.owner.post(f"tournaments/{made['id']}/rounds/1/close").status_code == 200
    again = world.owner.post(f"tournaments/{made['id']}/rounds/1/close")
    assert again.status_code == 409
    assert again.get_json()["problems"] == ["Round 1 is already closed."]
    with world.app.app_context():
        closed = db.session.query(TournamentRound).one()
        assert closed.status == "closed" and closed.closed_at is not None
        db.session.remove()


# --- the documented example ---------------------------------------------------------------------

OPERATING = Path(__file__).resolve().parents[2] / "OPERATING.md"


def documented_calls() -> list[tuple[str, str, Any, int | None]]:
    """The `api` calls of OPERATING.md's Tournament API example, in order: method, path,
    body (NOTHING for none) and the status its comment promises (None: any success)."""
    section = OPERATING.read_text(encoding="utf-8").split("\n### Tournament API\n", 1)[1]
    block = re.search(r"```sh\n(.*?)\n```", section, re.S)
    assert block, "the Tournament API section has its example"
    chunks = re.split(r"\n(?=api )", block.group(1))
    calls = []
    for chunk in chunks:
        words = shlex.split(chunk, comments=True)
        assert words[0] == "api" and len(words) in (3, 5), chunk
        body = json.loads(words[4]) if len(words) == 5 else NOTHING
        promised = re.search(r"# → (\d{3})", chunk)
        calls.append((words[1], words[2], body, int(promised.group(1)) if promised else None))
    return calls


def test_the_documented_example_runs_as_written(app: Flask) -> None:
    with app.app_context():
        user = accounts.create_user("alice", PASSWORD)
        club = clubs.create_club(user, "Kafeneio")
        names = ("Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
        ids = [clubs.add_player(club, name).id for name in names]
        token = accounts.create_token(user, "laptop")
        assert (club.id, ids) == (1, list(range(1, 9)))  # as the example names them
    api = Api(app.test_client(), token)
    calls = documented_calls()
    assert len(calls) >= 8
    answers = []
    for method, path, body, promised in calls:
        response = api.call(method, path, body)
        if promised is None:
            assert response.status_code in (200, 201), (path, response.get_json())
        else:
            assert response.status_code == promised, (path, response.get_json())
        answers.append(response.get_json())
    # What the comments show of the answers.
    assert answers[1]["tables"] == [
        {"table": 1, "ns": 1, "ew": 2, "match": 1},
        {"table": 2, "ns": 3, "ew": 4, "match": 2},
    ]
    assert answers[3]["problems"] == ["Table 2 is not finished: 0 of its 1 deal is in."]
    table = answers[6]["rounds_drawn"][0]["tables"][0]
    assert (table["ns_mp"], table["ew_mp"], table["ns_vp"], table["ew_vp"]) == (665, -95, 16, 4)
    first = answers[7]["standings"][0]
    assert (first["name"], first["vp"], first["mp_for"], first["mp_against"]) == (
        "Ann & Bo",
        16,
        665,
        -95,
    )
    assert answers[8]["tables"][0] == {"table": 1, "ns": 1, "ew": 4, "match": 3}


def test_reading_a_tournament_costs_the_same_queries_whatever_its_tables(world: World) -> None:
    """The state and the ranking read every table's match in a few queries, not one a
    table: three rounds cost what one did."""
    made = create(world, pairs_body(world))
    tid = made["id"]
    names = {e["id"]: e["name"] for e in made["entries"]}
    with world.app.app_context():
        engine = db.engine
    counted: list[str] = []

    def count(*args: Any) -> None:
        counted.append(str(args[2]))

    def statements(path: str) -> int:
        counted.clear()
        sa_event.listen(engine, "before_cursor_execute", count)
        try:
            assert world.viewer.get(path).status_code == 200
        finally:
            sa_event.remove(engine, "before_cursor_execute", count)
        return len(counted)

    play_round(world, tid, names, 2, "4p", seed=1)
    assert world.owner.post(f"tournaments/{tid}/rounds/1/close").status_code == 200
    after_one = (statements(f"tournaments/{tid}"), statements(f"tournaments/{tid}/standings"))
    for number in (2, 3):
        play_round(world, tid, names, 2, "4p", seed=number)
        assert world.owner.post(f"tournaments/{tid}/rounds/{number}/close").status_code == 200
    after_three = (statements(f"tournaments/{tid}"), statements(f"tournaments/{tid}/standings"))
    assert after_three == after_one, counted


def test_the_state_and_the_ranking_answer_304_until_something_they_show_changed(
    world: World,
) -> None:
    """Both reads carry an ETag; asked again with it they answer an empty 304, until a hand,
    a penalty (changed in place too, its count the same) or a round changes what they show.
    A stranger holding the tag still gets the 404."""
    made = create(world, pairs_body(world))
    tid = made["id"]
    names = {e["id"]: e["name"] for e in made["entries"]}
    paths = (f"tournaments/{tid}", f"tournaments/{tid}/standings")

    def read(api: Api, path: str, etag: str) -> TestResponse:
        headers = {"Authorization": f"Bearer {api.token}", "If-None-Match": etag}
        return api.client.get(f"/api/v1/{path}", headers=headers)

    def tags() -> list[str]:
        found = []
        for path in paths:
            first = world.viewer.get(path)
            assert first.status_code == 200 and first.get_etag()[0], path
            again = read(world.viewer, path, f'"{first.get_etag()[0]}"')
            assert again.status_code == 304 and again.get_data() == b"", path
            assert read(world.stranger, path, f'"{first.get_etag()[0]}"').status_code == 404
            found.append(first.get_etag()[0])
        return found

    drawn = world.scorer.post(f"tournaments/{tid}/rounds").get_json()
    seen = [tags()]
    t = drawn["tables"][0]
    hand = hand_for((names[t["ns"]], names[t["ew"]]), 0, False, "4p")
    assert world.scorer.post(f"matches/{t['match']}/hands", hand).status_code == 201
    seen.append(tags())
    assert world.viewer.get(paths[0]).get_json()["rounds_drawn"][0]["tables"][0]["hands"] == 1
    with world.app.app_context():
        found = db.session.get(Tournament, tid)
        assert found is not None
        directing.add_penalty(found, t["ns"], 1, 0, 2, "Slow play")
        db.session.remove()
    seen.append(tags())
    with world.app.app_context():
        db.session.execute(sa.update(TournamentPenalty).values(vp=3))
        db.session.commit()
        db.session.remove()
    seen.append(tags())
    standing = next(
        s for s in world.viewer.get(paths[1]).get_json()["standings"] if s["entry"] == t["ns"]
    )
    assert standing["penalty_vp"] == 3
    for tag in range(len(paths)):
        assert len({each[tag] for each in seen}) == len(seen), seen


def test_every_tables_result_read_at_once_is_its_matchs_own(world: World) -> None:
    """service.table_results reads every table's match from its stored progress at once:
    each table's MP, hands and end are what the match's own view says, a match whose
    progress is not stored yet (counted from its hands) too."""
    made = create(world, pairs_body(world))
    tid = made["id"]
    names = {e["id"]: e["name"] for e in made["entries"]}
    play_round(world, tid, names, 2, "4p", seed=3)
    assert world.owner.post(f"tournaments/{tid}/rounds/1/close").status_code == 200
    drawn = world.scorer.post(f"tournaments/{tid}/rounds").get_json()
    t = drawn["tables"][0]
    hand = hand_for((names[t["ns"]], names[t["ew"]]), 1, True, "4p")
    assert world.scorer.post(f"matches/{t['match']}/hands", hand).status_code == 201
    with world.app.app_context():
        db.session.execute(
            sa.update(Match).where(Match.id == drawn["tables"][1]["match"]).values(progress=None)
        )
        db.session.commit()
        db.session.remove()

    def check(kinds: set[str]) -> None:
        """Each table's result against its match's own view (the states a worker keeps
        read a second time, and after a hand)."""
        with world.app.app_context():
            found = db.session.get(Tournament, tid)
            assert found is not None
            results = service.table_results(found)
            tables = [table for played in found.round_rows for table in played.tables]
            assert len(results) == len(tables) == 6
            seen = set()
            for table in tables:
                view = matches.view_of(table.match)
                first, second = (team.name for team in table.match.teams)
                result = results[table.id]
                assert (result.ns_mp, result.ew_mp) == (view.totals[first], view.totals[second])
                assert (result.hands, result.finished) == (view.hands_played, view.finished)
                assert result == service.table_result(table)
                seen.add(result.status)
            assert seen == kinds
            db.session.remove()

    check({"finished", "playing", "waiting"})
    check({"finished", "playing", "waiting"})
    hand = hand_for((names[t["ns"]], names[t["ew"]]), 2, False, "4p")
    assert world.scorer.post(f"matches/{t['match']}/hands", hand).status_code == 201
    check({"finished", "waiting"})


def test_a_refusal_speaks_the_callers_language(world: World) -> None:
    response = world.owner.client.post(
        "/api/v1/tournaments",
        json=pairs_body(world, bye_vp=101, rounds=4),
        headers={"Authorization": f"Bearer {world.owner.token}", "Accept-Language": "el"},
    )
    assert response.status_code == 400
    assert response.get_json()["problems"] == [
        "Το 'bye_vp' πρέπει να είναι ακέραιος από 0 έως 100, όχι 101.",
        "Μια κίνηση Μίτσελ για 6 συμμετοχές έχει μόνο 3 γύρους χωρίς να ξανασυναντηθούν δύο "
        "συμμετοχές· ζητήθηκαν 4.",
    ]


def test_a_correction_in_a_closed_round_moves_the_ranking_a_worker_keeps(world: World) -> None:
    """A worker keeps the closed rounds' results (tournaments.kept_results): a hand of a
    closed round corrected afterwards still moves the ranking at once, to what a worker
    keeping nothing works out."""
    made = create(world, pairs_body(world))
    tid = made["id"]
    names = {e["id"]: e["name"] for e in made["entries"]}
    drawn, _ = play_round(world, tid, names, 2, "4p", seed=3)
    assert world.owner.post(f"tournaments/{tid}/rounds/1/close").status_code == 200
    play_round(world, tid, names, 1, "4p", seed=5)  # round 2 open: round 1 is kept

    def ranking() -> list[tuple[int, int, int]]:
        body = world.viewer.get(f"tournaments/{tid}/standings").get_json()
        return [(s["entry"], s["vp"], s["mp_for"]) for s in body["standings"]]

    before = ranking()
    assert ranking() == before  # the second read from what the worker kept
    t = drawn["tables"][0]
    choice = 3 + 3 * t["table"]  # play_round's first deal at this table, its sides swapped
    hand = hand_for((names[t["ns"]], names[t["ew"]]), choice, choice % 2 == 0, "4p")
    corrected = world.scorer.client.put(
        f"/api/v1/matches/{t['match']}/hands/1",
        json=hand,
        headers={"Authorization": f"Bearer {world.scorer.token}", "If-Match": '"1"'},
    )
    assert corrected.status_code == 200, corrected.get_json()
    after = ranking()
    assert after != before
    kept_results._kept.clear()
    assert ranking() == after
