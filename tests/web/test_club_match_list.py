"""The club page's list of matches: each match's totals and whether it is running or won,
and by whom, read from the match's stored progress (never a replay), in a few queries
however many matches the page lists."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import REFERENCE_HAND, typed
from support.world import signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, Match, User


@dataclass(frozen=True)
class Laid:
    club: int
    owner: int
    won: int
    running: int
    fresh: int


def lay(app: Flask) -> Laid:
    with app.app_context():
        owner = accounts.create_user("eleni", "password1")
        club = clubs.create_club(owner, "Friday")
        p = [clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di")]

        def start(target: int, first: str = "A") -> Any:
            teams = [TeamSpec(first, (p[0], p[2])), TeamSpec("Bob & Di", (p[1], p[3]))]
            return matches.create_match(club, owner, "pagat", "4p", teams, target=target)

        won = start(600)  # the reference hand, 665 to −95, ends it
        matches.record_hand(won, owner, typed(won, _named(REFERENCE_HAND, "A")))
        running = start(3000)
        matches.record_hand(running, owner, typed(running, _named(REFERENCE_HAND, "A")))
        fresh = start(3000)
        return Laid(club.id, owner.id, won.id, running.id, fresh.id)


def _named(hand: dict[str, Any], first: str) -> dict[str, Any]:
    a, b = hand["teams"]
    return {**hand, "teams": [{**a, "name": first}, {**b, "name": "Bob & Di"}]}


@pytest.fixture
def laid(app: Flask, kept_world: Callable[[Callable[[Flask], Laid]], Laid]) -> Iterator[Laid]:
    found = kept_world(lay)
    with app.app_context():
        yield found


def _client(app: Flask, laid: Laid) -> FlaskClient:
    return signed_in(app.test_client(), laid.owner)


def _card(page: str, match_id: int) -> str:
    found = re.search(rf'<a class="tap-card" href="/matches/{match_id}">(.*?)</a>', page, re.S)
    assert found, f"no card for match {match_id}"
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).strip()


def test_each_match_says_its_score_and_whether_it_is_won_and_by_whom(
    app: Flask, laid: Laid
) -> None:
    page = html.unescape(_client(app, laid).get(f"/clubs/{laid.club}").get_data(as_text=True))
    won = _card(page, laid.won)
    assert "Won by A" in won and "Ann, Bob, Cy, Di" in won
    assert "A 665 · Bob & Di −95" in won
    running = _card(page, laid.running)
    assert "Running · 1 hand played" in running and "A 665 · Bob & Di −95" in running
    assert "Won" not in running
    fresh = _card(page, laid.fresh)
    assert "Not started yet" in fresh and "665" not in fresh


def test_the_list_speaks_greek(app: Flask, laid: Laid) -> None:
    client = _client(app, laid)
    page = client.get(f"/clubs/{laid.club}", headers={"Accept-Language": "el"})
    text = html.unescape(page.get_data(as_text=True))
    assert "Won by" not in text and "Running ·" not in text and "Not started yet" not in text
    assert "Σε εξέλιξη · 1 γύρος" in text and "Δεν έχει ξεκινήσει ακόμη" in text


def test_thirty_matches_cost_a_few_queries_and_no_replay(
    app: Flask, laid: Laid, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = db.session.get(Club, laid.club)
    owner = db.session.get(User, laid.owner)
    assert club is not None and owner is not None
    won = db.session.get(Match, laid.won)
    assert won is not None
    players = [s.player_id for s in won.seats]
    teams = [TeamSpec("A", (players[0], players[2])), TeamSpec("B", (players[1], players[3]))]
    for _ in range(30):
        matches.create_match(club, owner, "pagat", "4p", teams, target=3000)
    db.session.commit()

    def no_replay(*_args: Any, **_kwargs: Any) -> Any:
        raise AssertionError("the club page read a match's hands")

    monkeypatch.setattr("scorekeeper.match.progress.counted", no_replay)
    statements: list[str] = []

    def note(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", note)
    try:
        response = _client(app, laid).get(f"/clubs/{laid.club}")
    finally:
        sa.event.remove(engine, "before_cursor_execute", note)
    assert response.status_code == 200
    assert response.get_data(as_text=True).count("Not started yet") == 30
    matchy = [s for s in statements if "match" in s.lower()]
    assert len(matchy) <= 12, "\n\n".join(matchy)
