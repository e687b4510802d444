"""Hand saves under real concurrency: many threads send at the same instant to a live
server, each on its own connection and its own database session (SQLite and PostgreSQL).

The promises (match/writes.py, match/locks.py): a retried save with the same
Idempotency-Key stores one hand and every attempt gets it; new hands sent at once are all
stored with distinct numbers; of edits racing from the same version exactly one wins and the
others get 409; and whatever the interleaving, every stored total is what the rules engine
makes of the stored entries.
"""

from __future__ import annotations

import http.client
import http.cookiejar
import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from support.hand_entries import REFERENCE_HAND
from support.world import new_club

from scorekeeper import referee
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import Hand, HandVersion, PlayerRating, PlayerTotal, RatingStep
from scorekeeper.records import stats

THREADS = 8
PASSWORD = "password1"
T = TypeVar("T")

KOZI = ["S", "H", "D", "C"]


@dataclass(frozen=True)
class Server:
    url: str
    token: str
    club: int
    players: list[int]

    def call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any, dict[str, str]]:
        """One request on a connection of its own: (status, JSON body or None, headers)."""
        parts = urlsplit(self.url)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=60)
        sent = {"Authorization": f"Bearer {self.token}", **(headers or {})}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        try:
            connection.request(method, f"/api/v1/{path}", body=data, headers=sent)
            response = connection.getresponse()
            raw = response.read()
            answer = json.loads(raw) if raw else None
            return response.status, answer, dict(response.getheaders())
        finally:
            connection.close()

    def start_match(self, variant: str = "pagat", **extra: Any) -> int:
        status, body, _ = self.call(
            "POST",
            "matches",
            {
                "club": self.club,
                "variant": variant,
                "format": "4p",
                "teams": [
                    {"name": "A", "players": self.players[:2]},
                    {"name": "B", "players": self.players[2:]},
                ],
                **extra,
            },
        )
        assert status == 201, body
        match_id: int = body["id"]
        return match_id


@pytest.fixture
def server(app: Flask, live_server: str) -> Server:
    with app.app_context():
        user = accounts.create_user("eleni", PASSWORD)
        club, players = new_club(user)
        return Server(live_server, accounts.create_token(user), club.id, list(players.values()))


def at_once(count: int, task: Callable[[int], T]) -> list[T]:
    """Run task(0) … task(count - 1) in threads released together by a barrier."""
    barrier = threading.Barrier(count)

    def run(i: int) -> T:
        barrier.wait()
        return task(i)

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(run, range(count)))


def stored(app: Flask, match_id: int) -> list[tuple[int, int, str | None]]:
    """(number, version, idempotency key) of every hand of the match, from the database."""
    with app.app_context():
        rows = db.session.execute(
            sa.select(Hand.number, Hand.version, Hand.idempotency_key)
            .where(Hand.match_id == match_id)
            .order_by(Hand.number)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def versions(app: Flask, match_id: int) -> list[tuple[int, int, str]]:
    with app.app_context():
        rows = db.session.execute(
            sa.select(HandVersion.number, HandVersion.version, HandVersion.action)
            .where(HandVersion.match_id == match_id)
            .order_by(HandVersion.number, HandVersion.version)
        )
        return [tuple(row) for row in rows]  # type: ignore[misc]


def recomputed_totals(match: dict[str, Any]) -> dict[str, int]:
    """The match's totals as the rules engine makes them from the stored entries alone, each
    hand scored against the totals before it (what decides opening needs)."""
    totals = {team["name"]: 0 for team in match["teams"]}
    for hand in sorted(match["hands"], key=lambda h: h["number"]):
        body = {
            "variant": match["variant"],
            "options": match["options"],
            "format": match["format"],
            "kozi": hand["entry"]["kozi"],
            "teams": [
                {k: v for k, v in side.items() if k != "players"}
                | {"score_before": totals[side["name"]]}
                for side in hand["entry"]["teams"]
            ],
        }
        scored = referee.score_hand_request(body)
        for side, team in zip(hand["entry"]["teams"], scored["teams"], strict=True):
            totals[side["name"]] += team["score"]
    return totals


def assert_consistent(server: Server, match_id: int) -> dict[str, Any]:
    status, match, _ = server.call("GET", f"matches/{match_id}")
    assert status == 200, match
    shown = {team["name"]: team["score"] for team in match["teams"]}
    assert shown == recomputed_totals(match)
    return match


# --- new hands ----------------------------------------------------------------------------------


def test_the_same_key_sent_at_once_stores_one_hand_and_everyone_gets_it(
    app: Flask, server: Server
) -> None:
    match_id = server.start_match()
    answers = at_once(
        THREADS,
        lambda _i: server.call(
            "POST", f"matches/{match_id}/hands", REFERENCE_HAND, {"Idempotency-Key": "double-tap"}
        ),
    )
    assert sorted(status for status, _, _ in answers) == [200] * (THREADS - 1) + [201]
    assert {body["number"] for _, body, _ in answers} == {1}
    assert {headers["ETag"] for _, _, headers in answers} == {'"1"'}
    assert stored(app, match_id) == [(1, 1, "double-tap")]
    assert versions(app, match_id) == [(1, 1, "created")]
    assert [t["score"] for t in assert_consistent(server, match_id)["teams"]] == [665, -95]


def test_new_hands_sent_at_once_are_all_stored_with_distinct_numbers(
    app: Flask, server: Server
) -> None:
    match_id = server.start_match(target=100_000)
    answers = at_once(
        THREADS,
        lambda i: server.call(
            "POST",
            f"matches/{match_id}/hands",
            REFERENCE_HAND | {"kozi": KOZI[i % 4]},
            {"Idempotency-Key": f"phone-{i}"},
        ),
    )
    assert [status for status, _, _ in answers] == [201] * THREADS
    numbers = sorted(body["number"] for _, body, _ in answers)
    assert numbers == list(range(1, THREADS + 1))
    assert {key: number for number, _, key in stored(app, match_id)} == {
        f"phone-{i}": body["number"] for i, (_, body, _) in enumerate(answers)
    }
    assert len(versions(app, match_id)) == THREADS
    assert_consistent(server, match_id)


# --- edits --------------------------------------------------------------------------------------


def test_edits_racing_from_one_version_leave_exactly_one_winner(app: Flask, server: Server) -> None:
    match_id = server.start_match()
    status, _, _ = server.call("POST", f"matches/{match_id}/hands", REFERENCE_HAND)
    assert status == 201
    answers = at_once(
        THREADS,
        lambda i: server.call(
            "PUT",
            f"matches/{match_id}/hands/1",
            REFERENCE_HAND | {"kozi": KOZI[i % 4]},
            {"If-Match": '"1"'},
        ),
    )
    statuses = Counter(status for status, _, _ in answers)
    assert statuses == {200: 1, 409: THREADS - 1}
    winner = next(i for i, (status, _, _) in enumerate(answers) if status == 200)
    assert answers[winner][1]["version"] == 2
    for status, body, _ in answers:
        if status == 409:
            assert "Hand 1 was changed by someone else" in body["error"]
    assert stored(app, match_id) == [(1, 2, None)]
    assert versions(app, match_id) == [(1, 1, "created"), (1, 2, "edited")]
    match = assert_consistent(server, match_id)
    assert match["hands"][0]["kozi"] == KOZI[winner % 4]


def test_edits_deletes_and_new_hands_interleaved_keep_every_total_true(
    app: Flask, server: Server
) -> None:
    """A correction rescores every later hand; a hand saved meanwhile must be scored against
    the corrected totals. Under wikipedia rules the opening need follows the total (75 below
    1500, 90 from 1500), so a hand scored against stale totals shows in the recomputation."""
    match_id = server.start_match("wikipedia", target=1_000_000)
    small = {
        "kozi": "S",
        "teams": [
            {"name": "A", "melds": ["4D 5D 6D"], "hands": ["", "9C"], "opening": "4D 5D 6D"},
            {"name": "B", "melds": ["7C 8C 9C"], "hands": ["KD", ""], "opening": "7C 8C 9C"},
        ],
        "accepted_reason": "Both sides opened short; the table agreed.",
    }
    # Under wikipedia B's 60 points in melds could not have opened: accepted as played.
    reference = {**REFERENCE_HAND, "accepted_reason": "B opened short; the table agreed."}
    for _ in range(3):
        status, body, _ = server.call("POST", f"matches/{match_id}/hands", reference)
        assert status == 201, body

    def task(i: int) -> tuple[int, Any, dict[str, str]]:
        if i == 0:
            return server.call("PUT", f"matches/{match_id}/hands/1", small, {"If-Match": "1"})
        if i == 1:
            return server.call("DELETE", f"matches/{match_id}/hands/2", None, {"If-Match": "1"})
        return server.call(
            "POST", f"matches/{match_id}/hands", small, {"Idempotency-Key": f"new-{i}"}
        )

    answers = at_once(THREADS, task)
    assert [status for status, _, _ in answers] == [200, 204] + [201] * (THREADS - 2)
    numbers = [number for number, _, _ in stored(app, match_id)]
    assert numbers == list(range(1, THREADS + 2))
    match = assert_consistent(server, match_id)
    assert [h["number"] for h in match["hands"]] == [1, *range(3, THREADS + 2)]


# --- the hand form ------------------------------------------------------------------------------


class Browser:
    """A logged-in person's cookies, posting plain forms as a browser does."""

    def __init__(self, url: str, username: str) -> None:
        self.url = url
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect()
        )
        status, _ = self.post("/login", {"username": username, "password": PASSWORD})
        assert status == 302

    def get(self, path: str) -> str:
        with self.opener.open(self.url + path, timeout=60) as response:
            text: str = response.read().decode()
            return text

    def post(self, path: str, data: Any, headers: dict[str, str] | None = None) -> tuple[int, str]:
        body = urllib.parse.urlencode(data, doseq=True).encode()
        request = urllib.request.Request(self.url + path, data=body, headers=headers or {})
        try:
            with self.opener.open(request, timeout=60) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def test_the_hand_form_sent_twice_at_once_stores_one_hand(app: Flask, server: Server) -> None:
    match_id = server.start_match()
    phone = Browser(server.url, "eleni")
    page = phone.get(f"/matches/{match_id}/hands/new")
    hidden = dict(_hidden_inputs(page))
    assert len(hidden["key"]) >= 32  # a fresh idempotency key with every blank form
    data = [*hidden.items(), *_reference_form(server), ("save", "1")]
    answers = at_once(2, lambda _i: phone.post(f"/matches/{match_id}/hands/new", data))
    assert [status for status, _ in answers] == [302, 302]
    assert stored(app, match_id) == [(1, 1, hidden["key"])]


def test_two_tabs_sending_one_queued_hand_at_once_store_it_once(app: Flask, server: Server) -> None:
    """The phone's outbox (static/js/outbox.js) posts the form with Accept: application/json,
    and two open tabs may send the same queued hand at the same instant."""
    match_id = server.start_match()
    phone = Browser(server.url, "eleni")
    hidden = dict(_hidden_inputs(phone.get(f"/matches/{match_id}/hands/new")))
    data = [*hidden.items(), *_reference_form(server), ("save", "1")]
    json_please = {"Accept": "application/json"}
    answers = at_once(2, lambda _i: phone.post(f"/matches/{match_id}/hands/new", data, json_please))
    assert sorted(status for status, _ in answers) == [200, 201]
    for _status, body in answers:
        assert json.loads(body) == {
            "saved": True,
            "number": 1,
            "scoreboard": f"/matches/{match_id}",
        }
    assert stored(app, match_id) == [(1, 1, hidden["key"])]


def test_two_phones_saving_one_edit_form_at_once_keep_one_change(
    app: Flask, server: Server
) -> None:
    match_id = server.start_match()
    assert server.call("POST", f"matches/{match_id}/hands", REFERENCE_HAND)[0] == 201
    phones = [Browser(server.url, "eleni") for _ in range(THREADS)]
    hidden = dict(_hidden_inputs(phones[0].get(f"/matches/{match_id}/hands/1/edit")))
    assert hidden["version"] == "1"

    def save(i: int) -> tuple[int, str]:
        data = [
            ("version", "1"),
            *_reference_form(server, kozi=KOZI[i % 4]),
            ("save", "1"),
        ]
        return phones[i].post(f"/matches/{match_id}/hands/1/edit", data)

    answers = at_once(THREADS, save)
    assert Counter(status for status, _ in answers) == {302: 1, 409: THREADS - 1}
    assert stored(app, match_id) == [(1, 2, None)]
    assert_consistent(server, match_id)


def _hidden_inputs(html: str) -> list[tuple[str, str]]:
    from html.parser import HTMLParser

    found: list[tuple[str, str]] = []

    class Reader(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            values = dict(attrs)
            if tag == "input" and values.get("type") == "hidden" and values.get("name"):
                found.append((values["name"] or "", values.get("value") or ""))

    Reader().feed(html)
    return [(name, value) for name, value in found if name in {"key", "version"}]


def _reference_form(server: Server, kozi: str = "H") -> list[tuple[str, str]]:
    """The reference hand as the form sends it (A = Ann & Bob, B = Cy & Di)."""
    cy, di = server.players[2:]
    return [
        ("kozi", kozi),
        ("s0-meld", "5S-JS"),
        ("s0-meld", "QD QC QH"),
        ("s0-meld", "8H 9H 10H JH QH KH JK"),
        ("s0-out", "on"),
        ("s0-biribaki", "on"),
        ("s1-meld", "3C 4C 5C"),
        ("s1-meld", "KS KD JK"),
        (f"p{cy}-hand", "AS 9D"),
        (f"p{di}-hand", "JK 4H"),
    ]


# --- matches finishing at once --------------------------------------------------------------------


def test_matches_finishing_at_once_leave_the_sums_and_ratings_a_rebuild_makes(
    app: Flask, server: Server
) -> None:
    """Issue 20: the tables of a round finish within moments of each other, and each finishing
    save replays the club's ratings from its match on. Sent at once, with the same four
    players in every match (each replay reads and writes every other's players), the stored
    totals, rating steps and ratings are exactly what a rebuild from the hands makes."""
    started = [server.start_match(target=1000) for _ in range(THREADS)]
    for match_id in started:  # 665 for A: on its way, not there
        status, body, _ = server.call("POST", f"matches/{match_id}/hands", REFERENCE_HAND)
        assert status == 201, body
    answers = at_once(
        THREADS,
        lambda i: server.call("POST", f"matches/{started[i]}/hands", REFERENCE_HAND),
    )
    assert [status for status, _body, _headers in answers] == [201] * THREADS, answers
    for match_id in started:
        assert assert_consistent(server, match_id)["finished"] is True

    def derived() -> dict[str, list[tuple[Any, ...]]]:
        rows = {}
        for table in (PlayerTotal, RatingStep, PlayerRating):
            columns = [c for c in table.__table__.columns if c.name != "id"]
            found = db.session.execute(sa.select(*columns).where(table.club_id == server.club))
            rows[table.__name__] = sorted(tuple(row) for row in found)
        return rows

    with app.app_context():
        kept = derived()
        assert len(kept["RatingStep"]) == 4 * THREADS  # each player rated once a match
        stats.rebuild(club_id=server.club)
        db.session.commit()
        assert derived() == kept
