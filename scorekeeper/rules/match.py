"""Match progress: from a variant, a table format and the hands so far, the running totals,
each side's opening requirement for the next hand, who deals next, and whether someone won.

In the formats with fixed teams the totals belong to the teams; where sides form anew each
hand (`3p-partnership`, `5p`, `solo-vs-rest`) every player gets an equal share of their
side's score, kept exact as a fraction.

A match is played to its variant's target, or, when the variant fixes its `deals` (a
tournament's round), for exactly that many hands: then the higher total wins and equal
totals are a draw.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

from .formats import Credit, TableFormat
from .i18n import tr
from .opening import Requirement, requirement
from .variants import Direction, TargetRule, Variant

T = TypeVar("T")


class MatchError(ValueError):
    """A hand that does not fit the match (unknown team or player); the message names it."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a played hand: a team's name, or the players who formed it this hand."""

    players: tuple[str, ...]
    score: int
    team: str | None = None  # the match team, in formats with fixed teams


@dataclass(frozen=True, slots=True)
class PlayedHand:
    sides: tuple[Side, ...]


@dataclass(frozen=True, slots=True)
class Standing:
    """A team (fixed-team formats) or a player (share formats) and their running total."""

    name: str
    total: Fraction
    opening: Requirement
    reached_target: bool


@dataclass(frozen=True, slots=True)
class MatchState:
    standings: tuple[Standing, ...]
    history: tuple[dict[str, Fraction], ...]  # the totals after each hand
    hands_played: int
    next_dealer: str | None
    finished: bool  # with fixed deals, a draw is finished with no winner
    winner: str | None
    tied_leaders: tuple[str, ...]  # level at the top above the target: another hand is played

    def total(self, name: str) -> Fraction:
        return next(s.total for s in self.standings if s.name == name)


@dataclass(frozen=True, slots=True)
class MatchSetup:
    variant: Variant
    table_format: TableFormat
    seats: tuple[str, ...]  # players in clockwise seat order
    teams: Mapping[str, tuple[str, ...]] | None = None  # fixed teams: name → players
    first_dealer: int = 0  # index into seats

    @property
    def competitors(self) -> tuple[str, ...]:
        if self.table_format.credit is Credit.TEAM:
            if not self.teams:
                raise MatchError(
                    tr("The {format} format needs its teams named.", format=self.table_format.id)
                )
            return tuple(self.teams)
        return self.seats


def match_state(setup: MatchSetup, hands: Sequence[PlayedHand]) -> MatchState:
    """Replay the hands and report where the match stands."""
    totals = start_totals(setup)
    history = []
    for number, hand in enumerate(hands, start=1):
        totals = carry(setup, totals, hand, number)
        history.append(totals)
    return state_after(setup, totals, len(hands), tuple(history))


def state_after(
    setup: MatchSetup,
    totals: Mapping[str, Fraction],
    hands_played: int,
    history: tuple[dict[str, Fraction], ...] = (),
) -> MatchState:
    """Where the match stands once `hands_played` hands brought it to `totals` (as `carry`
    counts them): what `match_state` reports, without replaying the hands. A caller that
    keeps the running totals (a save after the previous hand) leaves `history` empty."""
    variant = setup.variant
    standings = tuple(
        Standing(name, total, opening_for(variant, total), reached(variant, total))
        for name, total in totals.items()
    )
    if variant.deals is not None:
        winner, tied, finished = _after_deals(standings, hands_played, variant.deals)
    else:
        winner, tied = _outcome(standings)
        finished = winner is not None
    return MatchState(
        standings=standings,
        history=history,
        hands_played=hands_played,
        next_dealer=dealer_for(setup, hands_played),
        finished=finished,
        winner=winner,
        tied_leaders=tied,
    )


def start_totals(setup: MatchSetup) -> dict[str, Fraction]:
    """Every competitor's total before the first hand."""
    return {name: Fraction(0) for name in setup.competitors}


def carry(
    setup: MatchSetup, totals: Mapping[str, Fraction], hand: PlayedHand, number: int = 0
) -> dict[str, Fraction]:
    """The totals after one more hand (a new mapping; `totals` is left as it was). Scoring a
    match's hands in order with this carries each hand's totals to the next, so every hand
    is counted once instead of replaying all the hands before it for each one.

    >>> from .formats import find_format
    >>> from .presets import find_variant
    >>> teams = {"A": ("1",), "B": ("2",)}
    >>> setup = MatchSetup(find_variant("pagat"), find_format("2p"), ("1", "2"), teams)
    >>> after = carry(setup, start_totals(setup), PlayedHand((Side(("1",), 50, "A"),)))
    >>> carry(setup, after, PlayedHand((Side(("2",), -30, "B"),)))
    {'A': Fraction(50, 1), 'B': Fraction(-30, 1)}
    """
    after = dict(totals)
    for name, points in credits(setup, hand, number).items():
        after[name] += points
    return after


def running_totals(
    setup: MatchSetup, hands: Sequence[PlayedHand | None]
) -> list[dict[str, Fraction]]:
    """The totals after each of `hands` in order, from the start (None: a hand that counts
    nothing, a deleted one): what carrying them one by one gives, for a list of every
    hand of a long match. Whole scores are summed as integers and each side's share as a
    fraction, so a page of hundreds of hands is not hundreds of fraction sums.

    >>> from .formats import find_format
    >>> from .presets import find_variant
    >>> teams = {"A": ("1",), "B": ("2",)}
    >>> setup = MatchSetup(find_variant("pagat"), find_format("2p"), ("1", "2"), teams)
    >>> won = PlayedHand((Side(("1",), 50, "A"), Side(("2",), -30, "B")))
    >>> [totals["A"] for totals in running_totals(setup, [won, None, won])]
    [Fraction(50, 1), Fraction(50, 1), Fraction(100, 1)]
    """
    team_credit = setup.table_format.credit is Credit.TEAM
    sums: dict[str, Fraction | int] = {name: 0 for name in setup.competitors}
    after = []
    for number, hand in enumerate(hands, start=1):
        if hand is not None:
            for side in hand.sides:
                if team_credit:
                    sums[_team_of(side, sums, number)] += side.score
                    continue
                for player, share in credits(setup, PlayedHand((side,)), number).items():
                    sums[player] += share
        after.append({name: Fraction(total) for name, total in sums.items()})
    return after


def carry_back(
    setup: MatchSetup, totals: Mapping[str, Fraction], hand: PlayedHand, number: int = 0
) -> dict[str, Fraction]:
    """The totals before a hand from those after it: `carry` undone, exactly (fractions), so
    the totals before a late hand come from the match's totals and the hands after it.

    >>> from .formats import find_format
    >>> from .presets import find_variant
    >>> teams = {"A": ("1",), "B": ("2",)}
    >>> setup = MatchSetup(find_variant("pagat"), find_format("2p"), ("1", "2"), teams)
    >>> hand = PlayedHand((Side(("1",), 50, "A"), Side(("2",), -30, "B")))
    >>> carry_back(setup, carry(setup, start_totals(setup), hand), hand)
    {'A': Fraction(0, 1), 'B': Fraction(0, 1)}
    """
    before = dict(totals)
    for name, points in credits(setup, hand, number).items():
        before[name] -= points
    return before


def credits(setup: MatchSetup, hand: PlayedHand, number: int = 0) -> dict[str, Fraction]:
    """What each competitor gains from one hand: the team's score, or a player's share."""
    gains: dict[str, Fraction] = {}
    known = set(setup.competitors)
    for side in hand.sides:
        if setup.table_format.credit is Credit.TEAM:
            team = _team_of(side, known, number)
            gains[team] = gains.get(team, Fraction(0)) + side.score
            continue
        if not side.players:
            raise MatchError(tr("Hand {number}: a side has no players.", number=number))
        share = Fraction(side.score, len(side.players))
        for player in side.players:
            if player not in known:
                raise MatchError(
                    tr(
                        "Hand {number}: '{player}' is not a player of this match.",
                        number=number,
                        player=player,
                    )
                )
            gains[player] = gains.get(player, Fraction(0)) + share
    return gains


def _team_of(side: Side, known: Collection[str], number: int) -> str:
    """The fixed team a side scored for, one of `known`; a MatchError naming it otherwise."""
    if side.team is None or side.team not in known:
        raise MatchError(
            tr(
                "Hand {number}: '{team}' is not a team of this match.",
                number=number,
                team=side.team,
            )
        )
    return side.team


def opening_for(variant: Variant, score: Fraction | int) -> Requirement:
    return requirement(variant.opening_table, score, variant.opening_comparison)


def side_score_before(state: MatchState, players: Sequence[str]) -> Fraction:
    """The score that sets a newly formed side's opening requirement in the share formats:
    the highest of its members' totals, since the requirement exists to slow the leaders."""
    return max(state.total(p) for p in players)


def side_total_before(totals: Mapping[str, Fraction], players: Sequence[str]) -> Fraction:
    """`side_score_before` from running totals (`carry`) instead of a whole match state."""
    return max(totals[p] for p in players)


def reached(variant: Variant, total: Fraction) -> bool:
    if variant.target_rule is TargetRule.AT_LEAST:
        return total >= variant.target
    return total > variant.target


def dealer_for(setup: MatchSetup, hands_played: int) -> str | None:
    """Who deals the next hand: the deal passes round the table in the variant's direction."""
    order = deal_order(setup.seats, setup.first_dealer, setup.variant.deal_direction, hands_played)
    return order[0] if order else None


def deal_order(
    seats: Sequence[T], first_dealer: int, direction: Direction, hands_played: int = 0
) -> tuple[T, ...]:
    """Every seat once, in the order the deal reaches them, beginning with the dealer of the
    next hand (the first dealer when no hand is played yet). `seats` go clockwise, so a
    clockwise deal passes to the dealer's left and an anticlockwise one to the right.

    >>> deal_order("NESW", 0, Direction.ANTICLOCKWISE)
    ('N', 'W', 'S', 'E')
    >>> deal_order("NESW", 0, Direction.CLOCKWISE, hands_played=5)
    ('E', 'S', 'W', 'N')
    """
    count = len(seats)
    step = -1 if direction is Direction.ANTICLOCKWISE else 1
    start = first_dealer + step * hands_played
    return tuple(seats[(start + step * i) % count] for i in range(count))


def seat_order(teams: Sequence[Sequence[T]]) -> tuple[T, ...]:
    """The seats round the table (clockwise) of fixed teams: partners sit opposite, so the
    table takes one player from each team in turn (A1, B1, A2, B2 …).

    >>> seat_order([("A1", "A2"), ("B1", "B2")])
    ('A1', 'B1', 'A2', 'B2')
    """
    rounds = max((len(team) for team in teams), default=0)
    return tuple(team[r] for r in range(rounds) for team in teams if r < len(team))


def _outcome(standings: Sequence[Standing]) -> tuple[str | None, tuple[str, ...]]:
    if not any(s.reached_target for s in standings):
        return None, ()
    top = max(s.total for s in standings)
    leaders = tuple(s.name for s in standings if s.total == top)
    if len(leaders) > 1:
        return None, leaders
    return leaders[0], ()


def _after_deals(
    standings: Sequence[Standing], hands_played: int, deals: int
) -> tuple[str | None, tuple[str, ...], bool]:
    """A match of fixed deals: over once `deals` hands are played, won by the one highest
    total; equal highest totals make a draw (no winner), never another hand."""
    if hands_played < deals:
        return None, (), False
    top = max(s.total for s in standings)
    leaders = [s.name for s in standings if s.total == top]
    return (leaders[0] if len(leaders) == 1 else None), (), True
