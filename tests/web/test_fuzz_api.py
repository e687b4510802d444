"""Fuzzing every JSON API endpoint with Hypothesis: any body, any Idempotency-Key or If-Match
header, sent with a bearer token of the club's owner. No answer is ever a 500, and a refused
request (4xx) changes nothing stored: every table is compared before and after.

The endpoints are read from the app's url_map, so an endpoint added later is fuzzed too. Path
values name rows that exist (the club, its player, its match and hand 1), so the bodies
reach the code that reads them instead of stopping at a 404.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, abort, request
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Player
from scorekeeper.services import accounts, clubs, hands, matches
from scorekeeper.services.matches import TeamSpec

EXAMPLES = 120
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
field_values = st.one_of(json_values, st.integers(min_value=-3, max_value=30))
cards = st.one_of(
    st.sampled_from(["5S-JS", "QD QC QH", "3H 4H 2H", "JK 4H", "AS 9D", "", "KS KD JK"]),
    json_values,
)
side = st.fixed_dictionaries(
    {},
    optional={
        "name": st.one_of(st.sampled_from(["A", "B", "C"]), json_values),
        "melds": st.one_of(st.lists(cards, max_size=4), json_values),
        "hands": st.one_of(st.lists(cards, max_size=3), json_values),
        "went_out": st.one_of(st.booleans(), json_values),
        "took_biribaki": st.one_of(st.booleans(), json_values),
        "players": st.one_of(st.lists(field_values, max_size=4), json_values),
        "hand_points": field_values,
        "failed_openings": field_values,
        "cut": st.one_of(st.sampled_from(["exact", "off_by_one"]), json_values),
        "opening": cards,
        "biribaki_unplayed": cards,
        "score_before": st.one_of(st.sampled_from(["1/0", "12½", "-40", "²"]), json_values),
        "extra": json_values,
    },
)
#: Bodies shaped like what the endpoints take, each field right or wrong.
structured = st.fixed_dictionaries(
    {},
    optional={
        "kozi": st.one_of(st.sampled_from(["H", "S", "♠", "", "X"]), json_values),
        "teams": st.one_of(st.lists(side, max_size=4), json_values),
        "accepted_reason": st.one_of(st.text(max_size=20), json_values),
        "variant": st.one_of(st.sampled_from(["pagat", "wikipedia", "nope"]), json_values),
        "format": st.one_of(st.sampled_from(["4p", "2p", "5p", "9p"]), json_values),
        "options": st.one_of(
            st.dictionaries(st.sampled_from(["target", "opening_table", "ace"]), field_values),
            json_values,
        ),
        "target": field_values,
        "first_dealer": field_values,
        "club": field_values,
        "name": st.one_of(st.text(max_size=130), json_values),
        "cards": cards,
        "melds": st.lists(cards, max_size=3),
    },
)
header_text = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=255), max_size=110)
headers = st.fixed_dictionaries(
    {},
    optional={
        "Idempotency-Key": st.one_of(st.sampled_from(["k1", "k2"]), header_text),
        "If-Match": st.one_of(st.sampled_from(['"1"', "2", 'W/"1"', "", "*"]), header_text),
    },
)


@dataclass(frozen=True)
class Sent:
    body: bytes
    content_type: str
    headers: dict[str, str]


requests = st.builds(
    Sent,
    body=st.one_of(
        structured.map(json.dumps),
        json_values.map(json.dumps),
        st.text(max_size=40),
    ).map(lambda text: text.encode("utf-8", "surrogatepass"))
    | st.binary(max_size=40),
    content_type=st.sampled_from(
        ["application/json"] * 8 + ["text/plain", "application/json; charset=latin-1"]
    ),
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


def fuzz(app: Flask, client: FlaskClient, endpoint: Endpoint, token: str, examples: int) -> None:
    """Send `examples` generated requests to `endpoint`; fail on a 500 or a refused change."""

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(sent=requests)
    def attempt(sent: Sent) -> None:
        before = snapshot(app)
        response = client.open(
            endpoint.url,
            method=endpoint.method,
            data=sent.body,
            content_type=sent.content_type,
            headers={"Authorization": f"Bearer {token}", **sent.headers},
        )
        text = response.get_data(as_text=True)[:500]
        assert response.status_code < 500, f"{endpoint} answered {response.status_code}: {text}"
        if response.status_code >= 400:
            assert response.is_json, f"{endpoint} answered {response.status_code} without JSON"
            assert snapshot(app) == before, (
                f"{endpoint} refused ({response.status_code}) yet changed data"
            )

    attempt()


@dataclass
class World:
    app: Flask
    token: str
    values: dict[str, Any]


def build_world(app: Flask) -> World:
    """A club with its owner (whose token the fuzzer sends), five players and a match with
    one hand; a second match under wikipedia rules (an opening table) with a hand."""
    with app.app_context():
        owner = accounts.create_user("olga", "password1")
        token = accounts.create_token(owner, "fuzz")
        club = clubs.create_club(owner, "Kafeneio")
        ids = [clubs.add_player(club, n).id for n in ("Ann", "Bo", "Cy", "Di", "Eve")]
        teams = [TeamSpec("A", (ids[0], ids[1])), TeamSpec("B", (ids[2], ids[3]))]
        match = matches.create_match(club, owner, "pagat", "4p", teams)
        hands.record_hand(
            match,
            owner,
            {
                "kozi": "H",
                "teams": [
                    {"name": "A", "melds": ["5S-JS"], "hands": ["", "9D"]},
                    {"name": "B", "melds": ["QD QC QH"], "hands": ["AS", ""]},
                ],
            },
            accepted_reason="fuzz",
        )
        values = {
            "club_id": club.id,
            "player_id": db.session.scalars(
                sa.select(Player.id).where(Player.club_id == club.id)
            ).first(),
            "match_id": match.id,
            "number": 1,
        }
    return World(app, token, values)


@pytest.fixture
def world(app: Flask) -> World:
    app.config["PROPAGATE_EXCEPTIONS"] = False  # a crash is answered 500, as in production
    return build_world(app)


def endpoint_ids() -> list[str]:
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    return [str(e) for e in api_endpoints(app, {})]


ENDPOINTS = endpoint_ids()


def test_the_fuzzer_covers_the_api() -> None:
    assert "POST /api/v1/matches/<int:match_id>/hands" in ENDPOINTS
    assert "PUT /api/v1/matches/<int:match_id>/hands/<int:number>" in ENDPOINTS
    assert "POST /api/v1/hands/score" in ENDPOINTS
    assert len(ENDPOINTS) >= 14


@pytest.mark.parametrize("name", ENDPOINTS)
def test_no_json_makes_an_endpoint_fail_or_change_data_when_refused(
    world: World, name: str
) -> None:
    (endpoint,) = [e for e in api_endpoints(world.app, world.values) if str(e) == name]
    fuzz(world.app, world.app.test_client(), endpoint, world.token, EXAMPLES)


# --- the harness finds what it looks for ----------------------------------------------------------


@pytest.fixture
def planted(database_url: str) -> Iterator[World]:
    """An app with two planted faults under /api/v1: a crash on a JSON object with a "teams"
    key, and a refusal that changes data first."""
    app = create_app(
        {"TESTING": True, "SQLALCHEMY_DATABASE_URI": database_url, "PROPAGATE_EXCEPTIONS": False}
    )

    @app.post("/api/v1/planted/crash")
    def crash() -> str:
        body = request.get_json(silent=True)
        if isinstance(body, dict) and "teams" in body:
            raise RuntimeError("planted")
        return "{}"

    @app.post("/api/v1/planted/leak")
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
        fuzz(planted.app, planted.app.test_client(), endpoint, planted.token, 200)
