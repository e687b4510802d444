"""Where a match stands, read once per request from its stored progress (`Match.progress`):
the standings, the leader, the next hand's number and dealer, every side's opening need,
the progress to the target. No view replays a match: the next hand's figures come from the
progress alone, and a list of the hands (the scoreboard's, its picture's) adds their tallies
up once (`hand_lines`), never scoring a hand again.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, NamedTuple

import sqlalchemy as sa

from scorekeeper.errors import ServiceError
from scorekeeper.extensions import db
from scorekeeper.match import progress
from scorekeeper.match.entry import HandEntry
from scorekeeper.match.scored import ScoredHand, Tally, tally_of
from scorekeeper.match.scoring import score_entry
from scorekeeper.match.setup import names_of, setup_of
from scorekeeper.models import Hand, HandVersion, Match
from scorekeeper.rules.formats import Credit
from scorekeeper.rules.i18n import translating
from scorekeeper.rules.match import (
    MatchSetup,
    MatchState,
    carry_back,
    deal_order,
    running_totals,
    start_totals,
)
from scorekeeper.rules.opening import Requirement
from scorekeeper.rules.variants import Variant


@dataclass(frozen=True, slots=True)
class Standing:
    """A competitor (a fixed team, or a player in the share formats) and where it stands."""

    key: str  # the team's name, or the player's id
    name: str  # as the pages show it
    players: str  # a team's players under its name ("Ann & Cy"), unless the name says it
    total: Fraction
    opening: Requirement  # what its next opening needs
    leading: bool  # level with the top, once a hand is played

    def toward(self, target: int) -> float:
        """The total toward the target, for a progress bar (0 … target)."""
        return float(max(Fraction(0), min(self.total, Fraction(target))))


@dataclass(frozen=True, slots=True)
class MatchView:
    """Where the match stands after its live hands."""

    id: int
    setup: MatchSetup
    state: MatchState  # the engine's word on it (without a per-hand history)
    standings: tuple[Standing, ...]
    next_number: int  # deleted hands keep their numbers, so past the highest of all
    next_dealer: str | None  # by name
    deal_order: tuple[str, ...]  # every player by name, from the next hand's dealer
    winner: str | None  # by name
    tied: tuple[str, ...]  # level at the top past the target: another hand is played

    @property
    def variant(self) -> Variant:
        return self.setup.variant

    @property
    def target(self) -> int:
        return self.setup.variant.target

    @property
    def hands_played(self) -> int:
        return self.state.hands_played

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def totals(self) -> dict[str, Fraction]:
        """Each competitor's total (by its key), as scoring the next hand reads them."""
        return {s.key: s.total for s in self.standings}

    @property
    def leader(self) -> Standing | None:
        return next((s for s in self.standings if s.leading), None)

    def standing(self, key: str) -> Standing:
        return next(s for s in self.standings if s.key == key)


def view_of(match: Match, before: int | None = None) -> MatchView:
    """The match as it stands now, from its stored progress; with `before`, as it stood
    before hand `before` (the totals taken back from the progress over the hands after it,
    as their tallies say: a correction's form)."""
    setup = setup_of(match)
    now = progress.progress_of(match, setup)
    totals, played = now.totals, now.played
    if before is not None:
        totals, taken_back = _back_before(match, setup, now.totals, before)
        played -= taken_back
    return _view(match, setup, totals, played, now.next_number)


def _view(
    match: Match, setup: MatchSetup, totals: dict[str, Fraction], played: int, next_number: int
) -> MatchView:
    team_players = _team_players(match) if setup.table_format.credit is Credit.TEAM else {}
    return view_from(
        setup, totals, played, next_number, names_of(match), team_players, match_id=match.id
    )


def view_from(
    setup: MatchSetup,
    totals: dict[str, Fraction],
    played: int,
    next_number: int,
    names: dict[str, str],
    team_players: dict[str, str],
    match_id: int = 0,
) -> MatchView:
    """The read model of a match known by its setup and its totals alone (a stored match's
    comes from `view_of`; the demo's sample, which is stored nowhere, from its own hands):
    `names` show its seats, `team_players` each fixed team's players under its name."""
    state = progress.Progress(next_number, played, totals).state(setup)
    top = max((s.total for s in state.standings), default=Fraction(0))
    order = deal_order(setup.seats, setup.first_dealer, setup.variant.deal_direction, played)
    return MatchView(
        id=match_id,
        setup=setup,
        state=state,
        standings=tuple(
            Standing(
                key=s.name,
                name=names.get(s.name, s.name),
                players=team_players.get(s.name, ""),
                total=s.total,
                opening=s.opening,
                leading=bool(played) and s.total == top,
            )
            for s in state.standings
        ),
        next_number=next_number,
        next_dealer=None if state.next_dealer is None else names.get(state.next_dealer),
        deal_order=tuple(names.get(seat, seat) for seat in order),
        winner=None if state.winner is None else names.get(state.winner, state.winner),
        tied=tuple(names.get(n, n) for n in state.tied_leaders),
    )


def _team_players(match: Match) -> dict[str, str]:
    """Each fixed team's players under its name, unless the name already is just them."""
    shown = {}
    for team in match.teams:
        players = " & ".join(s.player.name for s in match.seats if s.team_id == team.id)
        shown[team.name] = "" if players == team.name else players
    return shown


# --- the hands ----------------------------------------------------------------------------


class HandLine(NamedTuple):
    """One hand as a list of hands shows it, without its lines: what its tally says (a
    named tuple: a long match's scoreboard makes hundreds)."""

    number: int
    version: int
    deleted: bool
    tally: Tally
    accepted_reason: str | None
    before: dict[str, Fraction]  # the totals before it (a deleted hand: where it stood)
    after: dict[str, Fraction]  # and after it (unchanged by a deleted hand)


def hand_lines(match: Match) -> list[HandLine]:
    """Every hand of the match, oldest first, with the totals before and after it: the
    tallies added up once, in order (a few bytes a hand; no hand is scored)."""
    setup = setup_of(match)
    rows = _tally_rows(match.id)
    running = running_totals(setup, [None if r[2] else r[4].played() for r in rows])
    before = start_totals(setup)
    lines = []
    for (number, version, deleted, reason, tally), after in zip(rows, running, strict=True):
        lines.append(HandLine(number, version, deleted, tally, reason, before, after))
        before = after
    return lines


def live_tallies(match: Match) -> list[tuple[int, Tally]]:
    """The number and tally of each live hand, in order: a few numbers a hand, for a reader
    that needs no more of them (each player's best hand), instead of every entry and result."""
    return [(row[0], row[4]) for row in _tally_rows(match.id) if not row[2]]


def last_tally(match: Match, before: int | None = None) -> tuple[int, Tally] | None:
    """The number and tally of the last live hand (before hand `before`): one row."""
    query = sa.select(Hand.number, Hand.tally).where(
        Hand.match_id == match.id, Hand.deleted.is_(False)
    )
    if before is not None:
        query = query.where(Hand.number < before)
    row = db.session.execute(query.order_by(Hand.number.desc()).limit(1)).first()
    if row is None:
        return None
    if row.tally is None:  # written before tallies were
        return row.number, _tally_rows(match.id, since=row.number, until=row.number)[0][4]
    return row.number, Tally.from_json(row.tally)


def last_entry(match: Match) -> HandEntry | None:
    """The last live hand's entry (one row): the sides a new hand starts from."""
    stored = db.session.scalar(
        sa.select(Hand.entry)
        .where(Hand.match_id == match.id, Hand.deleted.is_(False))
        .order_by(Hand.number.desc())
        .limit(1)
    )
    return None if stored is None else HandEntry.from_json(stored)


def results_of(match: Match, lines: Sequence[HandLine]) -> dict[int, ScoredHand]:
    """The stored results of the hands `lines`, each in the reader's language (see `shown`),
    by number: their results read in one query (their entries only where a result must be
    scored again to be worded)."""
    numbers = [line.number for line in lines]
    if not numbers:
        return {}
    query = sa.select(Hand.number, Hand.result).where(
        Hand.match_id == match.id, Hand.number.in_(numbers)
    )
    stored: dict[int, dict[str, Any]] = {n: r for n, r in db.session.execute(query)}

    def entry_of(number: int) -> Callable[[], Any]:
        return lambda: db.session.scalar(
            sa.select(Hand.entry).where(Hand.match_id == match.id, Hand.number == number)
        )

    return {
        line.number: _in_reader_language(
            match, ScoredHand.from_json(stored[line.number]), line.before, entry_of(line.number)
        )
        for line in lines
    }


def shown(
    match: Match,
    stored: dict[str, Any],
    entry: dict[str, Any],
    before: dict[str, Fraction] | None,
) -> ScoredHand:
    """A stored result in the reader's language: as stored for English, else worded from
    its message data; a result stored before it had them is scored again from `entry`
    against the totals `before` it (same numbers, words of this request's language)."""
    return _in_reader_language(match, ScoredHand.from_json(stored), before, lambda: entry)


def _in_reader_language(
    match: Match,
    scored: ScoredHand,
    before: dict[str, Fraction] | None,
    entry: Callable[[], Any],
) -> ScoredHand:
    """`scored`, a stored result, in the reader's language (see `shown`): its entry is read
    only where it must be scored again."""
    worded = scored.for_reader()
    if not translating() or worded is not scored or before is None:
        return worded
    try:
        again = score_entry(setup_of(match), HandEntry.from_json(entry() or {}), before)
    except (ServiceError, KeyError, ValueError):
        return scored
    return again.worded() or scored


def shown_hand(match: Match, hand: Hand) -> ScoredHand:
    """A stored hand's result in the reader's language (see `shown`)."""
    before = totals_before(match, hand.number) if translating() else None
    return shown(match, hand.result, hand.entry, before)


def shown_version(
    match: Match, version: HandVersion, before: dict[str, Fraction] | None
) -> ScoredHand:
    """A saved version in the reader's language, as `shown` does for the live hand; the
    stored (English) result if the old entry no longer scores."""
    if version.action == "deleted":
        return ScoredHand.from_json(version.result)
    return shown(match, version.result, version.entry, before)


def totals_before(match: Match, number: int) -> dict[str, Fraction]:
    """The match's totals before hand `number`, from its progress and the tallies of the
    hands after it."""
    setup = setup_of(match)
    return _back_before(match, setup, progress.progress_of(match, setup).totals, number)[0]


def _back_before(
    match: Match, setup: MatchSetup, totals: dict[str, Fraction], number: int
) -> tuple[dict[str, Fraction], int]:
    """`totals` (the match's now) taken back over the live hands from hand `number` on, as
    their tallies say; and how many hands that took back."""
    rows = _tally_rows(match.id, since=number)
    live = [tally for _n, _v, deleted, _r, tally in rows if not deleted]
    for tally in reversed(live):
        totals = carry_back(setup, totals, tally.played())
    return totals, len(live)


#: A hand as a list of hands reads it: number, version, deleted, accepted reason, tally.
TallyRow = tuple[int, int, bool, str | None, Tally]


def _tally_rows(
    match_id: int, since: int | None = None, until: int | None = None
) -> list[TallyRow]:
    """Each hand's number, version, deletion, reason and tally, in order (from `since` to
    `until`, where given)."""
    # The tally as the text the database keeps, read here: the JSON and Boolean types'
    # own conversions cost more than the few bytes of each tally (hundreds a page).
    query = (
        sa.select(
            Hand.number,
            Hand.version,
            sa.type_coerce(Hand.deleted, sa.Integer),
            Hand.accepted_reason,
            sa.type_coerce(Hand.tally, sa.Text),
        )
        .where(Hand.match_id == match_id)
        .order_by(Hand.number)
    )
    if since is not None:
        query = query.where(Hand.number >= since)
    if until is not None:
        query = query.where(Hand.number <= until)
    rows: list[TallyRow] = []
    missing: list[int] = []
    for number, version, deleted, reason, stored in db.session.execute(query):
        if stored is None:  # a row written before tallies were: read from entry and result
            missing.append(len(rows))
            stored = {}
        elif isinstance(stored, str):  # SQLite's text (psycopg reads a JSON value itself)
            stored = json.loads(stored)
        rows.append((number, version, bool(deleted), reason, Tally.from_json(stored)))
    if missing:
        numbers = [rows[i][0] for i in missing]
        made = {
            number: tally_of(entry, result)
            for number, entry, result in db.session.execute(
                sa.select(Hand.number, Hand.entry, Hand.result).where(
                    Hand.match_id == match_id, Hand.number.in_(numbers)
                )
            )
        }
        for i in missing:
            number, version, deleted, reason, _tally = rows[i]
            rows[i] = (number, version, deleted, reason, Tally.from_json(made[number]))
    return rows
