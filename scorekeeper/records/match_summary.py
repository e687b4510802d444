"""One match summed up per player and per pair of players on one side, from its stored
hands: what the leaderboard, the partnerships and the player pages add up.

No score is recomputed: a hand's stored side scores, meld verdicts and entry flags are read
as they are, and shares of a side's score come from the rules engine (rules.match.credits).
In the fixed-team formats a player is credited with the team's hand score; in the share
formats (`3p-partnership`, `5p`, `solo-vs-rest`) with their own exact share.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import combinations

import sqlalchemy as sa
from sqlalchemy.orm import object_session

from scorekeeper.extensions import db
from scorekeeper.match import HandData, HandEntry, ScoredHand, setup_of
from scorekeeper.models import Hand, Match
from scorekeeper.rules.formats import Credit
from scorekeeper.rules.match import MatchSetup, MatchState, credits, match_state


@dataclasses.dataclass(slots=True)
class PlayerLine:
    """One seated player's part in one match."""

    player_id: int
    name: str
    competitor: str  # the team's name, or the player's id in the share formats
    competitor_order: int  # the team's position, or the seat in the share formats
    seat: int
    competitor_total: Fraction  # the competitor's total after the match's live hands
    won: bool
    hands: int = 0
    points: Fraction = Fraction(0)  # the team's hand scores, or the player's own shares
    side_points: int = 0  # the scores of the sides the player was on
    biribas_clean: int = 0
    biribas_dirty: int = 0
    full_runs: int = 0  # full 13-card runs
    went_out: int = 0
    best_hand: int | None = None  # the highest score of a side the player was on


@dataclasses.dataclass(slots=True)
class PairLine:
    """Two players who were on one side: one fixed team, or partners in some hands."""

    player_id: int  # the lower id
    partner_id: int
    teammates: bool = False  # one team of a fixed-team format
    won: bool = False  # … and that team won
    hands: int = 0  # live hands on one side
    side_points: int = 0  # those sides' scores


@dataclasses.dataclass(frozen=True, slots=True)
class MatchSummary:
    state: MatchState
    lines: tuple[PlayerLine, ...]  # in seat order
    pairs: tuple[PairLine, ...]  # by their ids

    @property
    def finished(self) -> bool:
        return self.state.finished


def summarize(
    match: Match, hands: Sequence[HandData] | None = None, named: bool = True
) -> MatchSummary:
    """Every seated player's line of `match` (loaded with its seats, teams and hands). A
    caller that holds the live hands' data already (a save) passes `hands`, in number
    order, so the match's hands need not be loaded from the database again. The stored
    rows hold no names: `named=False` leaves them empty instead of loading every player."""
    if hands is None:
        hands = live_data(match)
    setup = setup_of(match)
    state = match_state(setup, [result.played() for _n, _e, result in hands])
    team_credit = setup.table_format.credit is Credit.TEAM
    positions = {team.id: team.position for team in match.teams}
    names = {team.id: team.name for team in match.teams}
    lines: dict[int, PlayerLine] = {}
    pairs: dict[tuple[int, int], PairLine] = {}
    for seat in match.seats:
        if team_credit:
            competitor = names.get(seat.team_id or 0, "")
            order = positions.get(seat.team_id or 0, seat.position)
        else:
            competitor, order = str(seat.player_id), seat.position
        lines[seat.player_id] = PlayerLine(
            player_id=seat.player_id,
            name=seat.player.name if named else "",
            competitor=competitor,
            competitor_order=order,
            seat=seat.position,
            competitor_total=_total(state, competitor),
            won=state.winner is not None and state.winner == competitor,
        )
    if team_credit:
        for team in match.teams:
            members = sorted(s.player_id for s in match.seats if s.team_id == team.id)
            for a, b in combinations(members, 2):
                pairs[a, b] = PairLine(a, b, teammates=True, won=lines[a].won)
    for number, hand_entry, result in hands:
        count_hand(setup, lines, pairs, number, hand_entry, result)
    return MatchSummary(state, tuple(lines.values()), tuple(pairs[k] for k in sorted(pairs)))


def live_data(match: Match) -> list[HandData]:
    """The match's live hands as a summary reads them, in order (its hands as loaded with
    the match when they are, else read)."""
    if "hands" in match.__dict__:
        hands = [h for h in match.hands if not h.deleted]
    else:
        session = object_session(match) or db.session  # a migration's own session, say
        hands = list(
            session.scalars(
                sa.select(Hand)
                .where(Hand.match_id == match.id, Hand.deleted.is_(False))
                .order_by(Hand.number)
            )
        )
    return [
        (h.number, HandEntry.from_json(h.entry), ScoredHand.from_json(h.result))
        for h in sorted(hands, key=lambda h: h.number)
    ]


def count_hand(
    setup: MatchSetup,
    lines: Mapping[int, PlayerLine],
    pairs: dict[tuple[int, int], PairLine],
    number: int,
    hand_entry: HandEntry,
    result: ScoredHand,
    sign: int = 1,
) -> None:
    """Add one live hand to the players' lines and the pairs' (a pair first on one side now
    is added): how `summarize` sums every hand, and how a save sums just the new one. With
    `sign` -1 the hand is taken out of the sums (a correction's old result); a best hand
    is a maximum and stays, for the caller to judge."""
    team_credit = setup.table_format.credit is Credit.TEAM
    gains = credits(setup, result.played(), number)
    entries = hand_entry.teams
    for index, side in enumerate(result.teams):
        went_out = index < len(entries) and entries[index].went_out
        clean = sum(1 for m in side.melds if m.biriba and m.clean)
        dirty = sum(1 for m in side.melds if m.biriba and not m.clean)
        full = sum(1 for m in side.melds if m.full_run)
        for pid in side.players:
            line = lines[pid]
            line.hands += sign
            line.points += sign * gains[side.team if team_credit and side.team else str(pid)]
            line.side_points += sign * side.score
            line.biribas_clean += sign * clean
            line.biribas_dirty += sign * dirty
            line.full_runs += sign * full
            line.went_out += sign * went_out
            if sign > 0 and (line.best_hand is None or side.score > line.best_hand):
                line.best_hand = side.score
        for a, b in combinations(sorted(side.players), 2):
            pair = pairs.setdefault((a, b), PairLine(a, b))
            pair.hands += sign
            pair.side_points += sign * side.score


def _total(state: MatchState, competitor: str) -> Fraction:
    return next((s.total for s in state.standings if s.name == competitor), Fraction(0))
