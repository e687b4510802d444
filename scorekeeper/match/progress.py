"""Where a match's live hands brought it, kept on the match (`Match.progress`): the number
the next hand takes, how many live hands there are, and each competitor's running total.

A save scores the next hand against these totals and stores them moved on by that hand
(rules.match.carry), so it reads one row instead of every hand of the match; a correction
finds the totals before the corrected hand from these and the hands after it
(rules.match.carry_back). Like the stats tables it holds nothing of its own: `counted`
makes it again from the stored hands, which `stats.refresh_match` and `stats.rebuild` do.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import object_session
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.extensions import db
from scorekeeper.match.scored import ScoredHand
from scorekeeper.match.setup import setup_of
from scorekeeper.models import Hand, Match, rows_changed, table_of
from scorekeeper.rules.match import MatchSetup, MatchState, carry, start_totals, state_after


@dataclasses.dataclass(frozen=True, slots=True)
class Progress:
    next_number: int  # deleted hands keep their numbers, so this is past the highest of all
    played: int  # live hands
    totals: dict[str, Fraction]  # after the live hands, by competitor, in the setup's order

    def state(self, setup: MatchSetup) -> MatchState:
        """The match state these make (without its per-hand history)."""
        return state_after(setup, self.totals, self.played)

    def as_json(self) -> dict[str, Any]:
        return {
            "next": self.next_number,
            "played": self.played,
            "totals": {name: str(total) for name, total in self.totals.items()},
        }


def progress_of(match: Match, setup: MatchSetup | None = None) -> Progress:
    """The match's stored progress, or (none stored yet) counted from its hands."""
    setup = setup or setup_of(match)
    return stored(match, setup) or counted(match, setup)


def stored(match: Match, setup: MatchSetup) -> Progress | None:
    """The stored progress, if there is one that fits the match's competitors."""
    return from_json(match.progress, setup)


def from_json(data: dict[str, Any] | None, setup: MatchSetup) -> Progress | None:
    """The progress a match's stored column holds, if it fits the setup's competitors."""
    if not data:
        return None
    try:
        totals = {name: Fraction(data["totals"][name]) for name in setup.competitors}
        return Progress(int(data["next"]), int(data["played"]), totals)
    except (KeyError, TypeError, ValueError):
        return None  # not what `store` writes: count it again


def counted(match: Match, setup: MatchSetup, hands: Iterable[Hand] | None = None) -> Progress:
    """The progress counted from the match's stored hands (all of them, deleted ones too)."""
    every = sorted(match.hands if hands is None else hands, key=lambda h: h.number)
    totals = start_totals(setup)
    live = 0
    for hand in every:
        if not hand.deleted:
            totals = carry(setup, totals, ScoredHand.from_json(hand.result).played(), hand.number)
            live += 1
    return Progress(1 + max((h.number for h in every), default=0), live, totals)


def of_state(state: MatchState, hands: Iterable[Hand]) -> Progress:
    """The progress a replay's `state` says; the next number is past every one of `hands`
    (the match's hands, deleted ones too)."""
    return Progress(
        1 + max((h.number for h in hands), default=0),
        state.hands_played,
        {s.name: s.total for s in state.standings},
    )


def store(match: Match, progress: Progress) -> None:
    """Write `progress` to the match's row now, and to `match` as what its row holds: a
    save writes it each time, and the session's unit of work cost more than the write."""
    data = progress.as_json()
    session = object_session(match) or db.session  # a migration's own session, say
    session.execute(_STORE, {"match_id": match.id, "progress": data})
    set_committed_value(match, "progress", data)


def move_on(match: Match, seen: dict[str, Any], progress: Progress) -> bool:
    """Write `progress` over the match's stored progress if that is still `seen`; whether it
    was. The one statement also holds the match's row for the transaction (as
    locks.hold_match does), so a save that nobody raced locks, checks and moves its match
    at once. Stored progress is compared as the text it was written as (JSON kept verbatim:
    `json` on PostgreSQL, text on SQLite); any other spelling only sends the caller the
    long way round."""
    data = progress.as_json()
    moved = db.session.execute(
        _MOVE_ON, {"match_id": match.id, "seen": json.dumps(seen), "progress": data}
    )
    if rows_changed(moved) != 1:
        return False
    set_committed_value(match, "progress", data)
    return True


_TABLE = table_of(Match)
_STORE = (
    sa.update(_TABLE)
    .where(_TABLE.c.id == sa.bindparam("match_id"))
    .values(progress=sa.bindparam("progress", type_=sa.JSON))
)
_MOVE_ON = _STORE.where(sa.cast(_TABLE.c.progress, sa.Text) == sa.bindparam("seen"))
