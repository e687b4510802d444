"""Fuzzing every JSON API endpoint with Hypothesis: any body, any Idempotency-Key or If-Match
header, sent with a bearer token of the club's owner. No answer is ever a 500, and a refused
request (4xx) changes nothing stored: every table is compared before and after.

The endpoints are read from the app's url_map, so an endpoint added later is fuzzed too. Path
values name rows that exist (the club, its player, its match and hand 1), so the bodies
reach the code that reads them instead of stopping at a 404.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, abort, request
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from support.databases import writes
from support.hand_entries import typed
from support.tournament_setup import setup_of, singles

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import csrf, db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Player
from scorekeeper.rules.presets import PRESETS
from scorekeeper.tournaments import service as tournaments

#: Generated requests per endpoint: 50 new ones an endpoint each run (Hypothesis keeps no
#: database here, so every run draws afresh), on SQLite. The deterministic sweep
#: (test_fuzz_web.py) sends every route its odd values besides, and on PostgreSQL too what
#: that database takes differently (numbers past 64 bits, long text): the rest of a random
#: body is read, judged and refused by the app's own code before any database sees it.
#: SCOREKEEPER_API_FUZZ_EXAMPLES asks for more.
EXAMPLES = int(os.environ.get("SCOREKEEPER_API_FUZZ_EXAMPLES", "50"))
SKIPPED_METHODS = {"HEAD", "OPTIONS"}

# --- what the fuzzer sends ----------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(),  # NaN and ±Infinity too: Python's json reads them
    st.text(max_size=30),
    st.sampled_from(["", "H", "♥", "pagat", "4p", "5S-JS", "JK", "1/0", "½", "\x00", "A" * 200]),
)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=12), inner, max_size=5)
    ),
    max_leaves=20,
)


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each as often as its weight says."""
    table = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(table) - 1).flatmap(lambda i: table[i])


def mostly(good: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A right-looking value nine times in ten, any JSON at all otherwise: a body of several
    fields still often gets past its first check, and every field is sometimes wrong."""
    return weighted((9, good), (1, json_values))


text = st.text(
    alphabet=st.characters(exclude_characters="\x00", exclude_categories=("Cs",)), max_size=40
)
numbers = st.one_of(
    st.integers(min_value=-10, max_value=6000),
    st.integers(),
    st.floats(),
    st.sampled_from(["12½", "−⅓", "1/0", "-40", "²", "1e999", "2505/2"]),
    # Each side of the bounds of issue 11: failed openings, hand points, house rules, BIGINT.
    st.sampled_from([100, 101, 200_000, 200_001, 100_001, 1_000_001, 2**63, -(2**63)]),
)
cards = st.one_of(
    st.sampled_from(
        ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK", "3H 4H 2H", "JK 4H", "AS 9D", "KS KD JK"]
    ),
    st.text(alphabet="AJQKTX0123456789SHDC★♠♥♦♣-, ", max_size=24),
    text,
    # About as many cards as the decks hold (108, 162), of repeated aces: the slowest to judge.
    st.integers(100, 170).map(lambda n: " ".join(["QH", "KH"] + ["AH"] * n)),
)
OPTION_NAMES = sorted(PRESETS["pagat"].options())
options = st.dictionaries(
    st.sampled_from(OPTION_NAMES) | st.text(max_size=10),
    mostly(st.one_of(numbers, st.booleans(), st.none(), text, st.lists(text, max_size=3))),
    max_size=4,
)
variant_ids = mostly(st.sampled_from([*PRESETS, "nope"]))
format_ids = mostly(st.sampled_from(["4p", "2p", "3p", "3p-partnership", "5p", "6p", "9p"]))
kozis = mostly(st.sampled_from(["H", "S", "D", "C", "♠", "", None, "X"]))


def side(
    name: st.SearchStrategy[Any], player_ids: list[int], referee: bool
) -> st.SearchStrategy[dict[str, Any]]:
    """One side of a hand: for the referee with its score before, for a match its players."""
    fields: dict[str, st.SearchStrategy[Any]] = {
        "melds": mostly(st.lists(cards, max_size=4)),
        "hands": mostly(st.lists(cards, max_size=3)),
        "went_out": mostly(st.booleans()),
        "took_biribaki": mostly(st.booleans()),
        "hand_points": mostly(numbers),
        "failed_openings": mostly(numbers),
        "cut": mostly(st.sampled_from(["exact", "off_by_one", "none"])),
        "opening": mostly(cards),
        "biribaki_unplayed": mostly(cards),
    }
    if referee:
        fields["score_before"] = mostly(numbers)
    else:
        fields["players"] = mostly(st.lists(st.sampled_from(player_ids), max_size=4))
    return st.fixed_dictionaries({"name": name}, optional=fields)


def sides(player_ids: list[int], referee: bool) -> st.SearchStrategy[list[dict[str, Any]]]:
    """Mostly the two teams A and B of the fuzzed match; sometimes any number of any sides."""
    a, b = (side(st.just(n), player_ids, referee) for n in ("A", "B"))
    anyone = side(mostly(st.sampled_from(["A", "B", "C"])), player_ids, referee)
    return weighted((8, st.tuples(a, b).map(list)), (1, st.lists(anyone, max_size=4)))


def bodies(rule: str, values: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Bodies shaped like what the endpoint at `rule` takes, each field right or wrong."""
    player_ids = values.get("players") or [1, 2, 3, 4]
    seated = st.permutations(player_ids).map(
        lambda p: [{"name": "A", "players": p[:2]}, {"name": "B", "players": p[2:4]}]
    )
    any_teams = st.lists(
        st.fixed_dictionaries(
            {"name": mostly(text), "players": mostly(st.lists(st.sampled_from(player_ids)))}
        ),
        max_size=4,
    )
    hand = {"kozi": kozis, "teams": mostly(sides(player_ids, referee=False))}
    reasons = weighted((9, text), (1, st.integers(990, 1010).map(lambda n: "x" * n)))
    kinds = {
        "hand": st.fixed_dictionaries(hand, optional={"accepted_reason": mostly(reasons)}),
        "score": st.fixed_dictionaries(
            {
                "variant": variant_ids,
                "kozi": kozis,
                "teams": mostly(sides(player_ids, referee=True)),
            },
            optional={"options": mostly(options), "format": format_ids},
        ),
        "meld": st.fixed_dictionaries(
            {"variant": variant_ids, "cards": mostly(cards)},
            optional={"kozi": kozis, "options": mostly(options), "format": format_ids},
        ),
        "match": st.fixed_dictionaries(
            {
                "club": mostly(st.just(values.get("club_id", 1))),
                "variant": variant_ids,
                "format": format_ids,
                "teams": weighted((6, seated), (1, any_teams), (1, json_values)),
            },
            optional={
                "options": mostly(options),
                "target": mostly(numbers),
                "first_dealer": mostly(st.sampled_from(player_ids)),
            },
        ),
        "name": st.fixed_dictionaries({"name": mostly(text)}),
        "tournament": st.fixed_dictionaries(
            {
                "club": mostly(st.just(values.get("club_id", 1))),
                "name": mostly(text),
                "variant": variant_ids,
                "format": mostly(st.sampled_from(["4p", "2p", "3p"])),
                "movement": mostly(
                    st.sampled_from(["mitchell", "danish", "danish-pure", "round-robin", "x"])
                ),
                "rounds": mostly(st.integers(-1, 32)),
                "vp_scale": mostly(
                    st.sampled_from(["burraco-3-deals", "win-draw-loss", "nope"])
                    | st.lists(
                        st.fixed_dictionaries(
                            {
                                "up_to": mostly(st.none() | numbers),
                                "winner": mostly(numbers),
                                "loser": mostly(numbers),
                            }
                        ),
                        max_size=4,
                    )
                ),
                "entries": weighted(
                    (
                        6,
                        st.permutations(player_ids).map(
                            lambda p: [{"name": str(n), "players": [n]} for n in p]
                        ),
                    ),
                    (1, any_teams),
                    (1, json_values),
                ),
            },
            optional={
                "options": mostly(options),
                "deals_per_round": mostly(st.none() | st.integers(-1, 10)),
                "bye_vp": mostly(numbers),
                "round_minutes": mostly(st.none() | numbers),
                "counts_in_season": mostly(st.booleans()),
            },
        ),
    }
    if rule.endswith("/hands/score"):
        return kinds["score"]
    if rule.endswith("/melds/check"):
        return kinds["meld"]
    if "/matches/<int:match_id>/hands" in rule:
        return kinds["hand"]
    if rule.endswith("/matches"):
        return kinds["match"]
    if rule.endswith(("/clubs", "/players")):
        return kinds["name"]
    if rule.endswith("/tournaments"):
        return kinds["tournament"]
    return st.one_of(*kinds.values())  # an endpoint added later: every shape


header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=110)
headers = st.fixed_dictionaries(
    {},
    optional={
        "Idempotency-Key": weighted((9, st.uuids().map(str)), (1, header_text)),
        "If-Match": st.one_of(st.sampled_from(['"1"', "2", 'W/"1"', "", "*"]), header_text),
    },
)


@dataclass(frozen=True)
class Sent:
    body: bytes
    content_type: str
    headers: dict[str, str]


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")  # lone surrogates go out as they are


def requests(rule: str, values: dict[str, Any]) -> st.SearchStrategy[Sent]:
    shaped = bodies(rule, values).map(json.dumps)
    return st.builds(
        Sent,
        body=weighted(
            (16, shaped.map(_utf8)),
            (2, json_values.map(json.dumps).map(_utf8)),
            (1, text.map(_utf8)),
            (1, st.binary(max_size=40)),
        ),
        content_type=st.sampled_from(["application/json"] * 19 + ["text/plain"]),
        headers=headers,
    )


# --- the harness ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Endpoint:
    method: str
    rule: str
    url: str

    def __str__(self) -> str:
        return f"{self.method} {self.rule}"


def api_endpoints(app: Flask, values: dict[str, Any]) -> list[Endpoint]:
    """Every (method, rule) under /api/v1, its path filled in from `values` by argument name."""
    found = []
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/v1"):
            continue
        with app.test_request_context():
            url = rule.build({name: values.get(name, 1) for name in rule.arguments})[1]
        for method in sorted((rule.methods or set()) - SKIPPED_METHODS):
            found.append(Endpoint(method, rule.rule, url))
    return sorted(found, key=str)


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, in primary key order."""
    with app.app_context(), db.engine.connect() as connection:
        return {
            table.name: [
                tuple(row)
                for row in connection.execute(sa.select(table).order_by(*table.primary_key))
            ]
            for table in db.metadata.sorted_tables
        }


def fuzz(
    app: Flask,
    client: FlaskClient,
    endpoint: Endpoint,
    token: str,
    values: dict[str, Any],
    examples: int,
    shrink: bool = True,
) -> None:
    """Send `examples` generated requests to `endpoint`; fail on a 500 or a refused change
    (with the smallest request that shows it, unless `shrink` is off)."""

    # What the tables hold now, while known: a refusal must leave them so, and the next
    # example starts from them without reading every table again. They stay known over a
    # request that sent no statement but reads (`writes` did not move: nothing can have
    # changed); a request that sent any other statement is compared with a fresh snapshot.
    known: list[dict[str, list[tuple[Any, ...]]]] = []

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        phases=list(Phase) if shrink else [Phase.generate],
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(sent=requests(endpoint.rule, values))
    def attempt(sent: Sent) -> None:
        before = known.pop() if known else snapshot(app)
        written = writes()
        response = client.open(
            endpoint.url,
            method=endpoint.method,
            data=sent.body,
            content_type=sent.content_type,
            headers={"Authorization": f"Bearer {token}", **sent.headers},
        )
        text = response.get_data(as_text=True)[:500]
        wrote = writes() != written
        assert response.status_code < 500, f"{endpoint} answered {response.status_code}: {text}"
        if response.status_code >= 400:
            assert response.is_json, f"{endpoint} answered {response.status_code} without JSON"
            after = snapshot(app) if wrote else before
            assert after == before, f"{endpoint} refused ({response.status_code}) yet changed data"
            known.append(after)
        elif not wrote:
            known.append(before)

    attempt()


@dataclass
class World:
    app: Flask
    token: str
    values: dict[str, Any]


def build_world(app: Flask) -> World:
    """A club with its owner (whose token the fuzzer sends), five players and a match with
    one hand; a second match under wikipedia rules (an opening table) with a hand; a round
    robin of four singles, no round started yet."""
    with app.app_context():
        owner = accounts.create_user("olga", "password1")
        token = accounts.create_token(owner, "fuzz")
        club = clubs.create_club(owner, "Kafeneio")
        ids = [clubs.add_player(club, n).id for n in ("Ann", "Bo", "Cy", "Di", "Eve")]
        teams = [TeamSpec("A", (ids[0], ids[1])), TeamSpec("B", (ids[2], ids[3]))]
        match = matches.create_match(club, owner, "pagat", "4p", teams)
        matches.record_hand(
            match,
            owner,
            typed(
                match,
                {
                    "kozi": "H",
                    "teams": [
                        {"name": "A", "melds": ["5S-JS"], "hands": ["", "9D"]},
                        {"name": "B", "melds": ["QD QC QH"], "hands": ["AS", ""]},
                    ],
                },
            ),
            accepted_reason="fuzz",
        )
        entries = singles(ids[:4])
        tournament = tournaments.create_tournament(
            club,
            owner,
            setup_of(entries, name="Club night", vp_scale="burraco-3-deals"),
        )
        values = {
            "club_id": club.id,
            "tournament_id": tournament.id,
            "player_id": db.session.scalars(
                sa.select(Player.id).where(Player.club_id == club.id)
            ).first(),
            "match_id": match.id,
            "number": 1,
            "players": ids,
        }
    return World(app, token, values)


@pytest.fixture
def world(app: Flask, kept_world: Callable[[Callable[[Flask], World]], World]) -> World:
    # As in production: a crash is answered 500, and forms need their CSRF token (the API
    # must not: a script with a bearer token has none).
    app.config.update(PROPAGATE_EXCEPTIONS=False, WTF_CSRF_ENABLED=True)
    return kept_world(build_world)


def endpoint_ids() -> list[str]:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return [str(e) for e in api_endpoints(app, {})]


ENDPOINTS = endpoint_ids()


def test_the_fuzzer_covers_the_api() -> None:
    assert "POST /api/v1/matches/<int:match_id>/hands" in ENDPOINTS
    assert "PUT /api/v1/matches/<int:match_id>/hands/<int:number>" in ENDPOINTS
    assert "POST /api/v1/hands/score" in ENDPOINTS
    assert len(ENDPOINTS) >= 14


@pytest.mark.one_database  # see EXAMPLES: PostgreSQL's oddities are swept in test_fuzz_web.py
@pytest.mark.parametrize("name", ENDPOINTS)
def test_no_json_makes_an_endpoint_fail_or_change_data_when_refused(
    world: World, name: str
) -> None:
    (endpoint,) = [e for e in api_endpoints(world.app, world.values) if str(e) == name]
    fuzz(world.app, world.app.test_client(), endpoint, world.token, world.values, EXAMPLES)


# --- the harness finds what it looks for ----------------------------------------------------------


@pytest.fixture
def planted(database_url: str) -> Iterator[World]:
    """An app with two planted faults under /api/v1: a crash on a JSON object with a "teams"
    key, and a refusal that changes data first."""
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "PROPAGATE_EXCEPTIONS": False}
    )

    @app.post("/api/v1/planted/crash")
    @csrf.exempt
    def crash() -> str:
        body = request.get_json(silent=True)
        if isinstance(body, dict) and "teams" in body:
            raise RuntimeError("planted")
        return "{}"

    @app.post("/api/v1/planted/leak")
    @csrf.exempt
    def leak() -> str:
        clubs.add_player(
            db.session.get(clubs.Club, 1),
            f"P{db.session.scalar(sa.select(sa.func.count(Player.id)))}",
        )
        abort(400, description="refused, but a player was added first")

    with app.app_context():
        db.create_all()
    yield build_world(app)
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.mark.parametrize(
    ("path", "finding"),
    [("/api/v1/planted/crash", "answered 500"), ("/api/v1/planted/leak", "yet changed data")],
    ids=["a-500", "a-refusal-that-writes"],
)
def test_the_harness_catches_a_planted_fault(planted: World, path: str, finding: str) -> None:
    (endpoint,) = [e for e in api_endpoints(planted.app, planted.values) if e.rule == path]
    with pytest.raises(AssertionError, match=finding):
        client = planted.app.test_client()
        fuzz(planted.app, client, endpoint, planted.token, planted.values, 200, shrink=False)
