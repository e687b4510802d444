"""The shapes of leaderboards, partnerships and head-to-head records (PlayerRow, PairRecord,
HeadToHead), how a leaderboard sorts and ranks, and a finished match's outcome read from its
stored hand results. The sums themselves come from the derived tables (records.leaderboard,
pair_records); the plain replays the tests check those with are in tests/support/replay.py.

No score is ever recomputed here: a hand's stored side scores, meld verdicts and entry flags
are summed as they are. Only finished matches count (a match in progress has no result yet,
and its hands join the leaderboard when it ends). In the fixed-team formats a player is
credited with the team's hand score; in the share formats (`3p-partnership`, `5p`,
`solo-vs-rest`) with their own exact share of their side's score (rules.match.credits).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import Any

from scorekeeper.errors import Invalid
from scorekeeper.match import format_of, setup_of
from scorekeeper.models import Match
from scorekeeper.records.match_summary import live_data
from scorekeeper.rules.formats import Credit
from scorekeeper.rules.match import MatchState, match_state
from scorekeeper.rules.points import points_json
from scorekeeper.web.gettext import gettext as _


@dataclasses.dataclass
class PlayerRow:
    """One player's line of the leaderboard."""

    player_id: int
    name: str
    matches: int = 0  # finished matches played
    wins: int = 0
    hands: int = 0  # hands played in those matches
    points: Fraction = Fraction(0)  # what the player was credited: team score or own share
    side_points: int = 0  # the scores of the sides the player was on, summed
    biribas_clean: int = 0
    biribas_dirty: int = 0
    full_runs: int = 0  # full 13-card runs
    went_out: int = 0
    ranked: bool = False  # played at least the club's minimum of matches
    rank: int | None = None  # 1 is best under the chosen sort; None when not ranked
    # The stored rating after the player's last match in the view (leaderboard.stored_rows
    # fills them):
    # openskill's conservative mu − 3 sigma, its sigma, and how much it moved over the last
    # TREND_MATCHES matches up to there.
    rating: float | None = None
    rating_sigma: float | None = None
    rating_trend: float | None = None

    @property
    def biribas(self) -> int:
        return self.biribas_clean + self.biribas_dirty

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.wins, self.matches) if self.matches else None

    @property
    def points_per_hand(self) -> Fraction | None:
        return self.points / self.hands if self.hands else None

    @property
    def average_hand_score(self) -> Fraction | None:
        """The average score of the side the player was on (their team, or their side of
        the hand in the share formats, before sharing)."""
        return Fraction(self.side_points, self.hands) if self.hands else None

    def json(self) -> dict[str, Any]:
        def exact(value: Fraction | None) -> int | str | None:
            return None if value is None else points_json(value)

        return {
            "id": self.player_id,
            "name": self.name,
            "rank": self.rank,
            "ranked": self.ranked,
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": None if self.win_rate is None else round(float(self.win_rate), 4),
            "hands": self.hands,
            "points": points_json(self.points),
            "points_per_hand": exact(self.points_per_hand),
            "average_hand_score": exact(self.average_hand_score),
            "biribas": self.biribas,
            "biribas_clean": self.biribas_clean,
            "biribas_dirty": self.biribas_dirty,
            "full_runs": self.full_runs,
            "went_out": self.went_out,
            "rating": _rounded(self.rating),
            "rating_sigma": _rounded(self.rating_sigma),
            "rating_trend": _rounded(self.rating_trend),
        }


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 3)


#: The columns a leaderboard sorts by, and the value each sorts on (None sorts last).
SORTS: dict[str, Callable[[PlayerRow], Any]] = {
    "name": lambda r: r.name.casefold(),
    "matches": lambda r: r.matches,
    "wins": lambda r: r.wins,
    "win_rate": lambda r: r.win_rate,
    "hands": lambda r: r.hands,
    "points": lambda r: r.points,
    "points_per_hand": lambda r: r.points_per_hand,
    "average_hand_score": lambda r: r.average_hand_score,
    "biribas": lambda r: r.biribas,
    "biribas_clean": lambda r: r.biribas_clean,
    "biribas_dirty": lambda r: r.biribas_dirty,
    "full_runs": lambda r: r.full_runs,
    "went_out": lambda r: r.went_out,
    "rating": lambda r: r.rating,
}
DEFAULT_SORT = "win_rate"


@dataclasses.dataclass(frozen=True)
class Outcome:
    """A finished match read once: who played on which competitor, and who won."""

    match: Match
    state: MatchState
    members: dict[str, tuple[int, ...]]  # competitor (team name or player id) → player ids
    winner: str | None

    def competitor_of(self, player_id: int) -> str | None:
        return next((c for c, ps in self.members.items() if player_id in ps), None)


def outcome(match: Match, state: MatchState | None = None) -> Outcome:
    """The match's outcome: as `state` says (its read model's), else its stored hands'
    results counted in order (what the ratings replay)."""
    if state is None:
        results = [result.played() for _n, _e, result in live_data(match)]
        state = match_state(setup_of(match), results)
    return Outcome(match, state, members_of(match), state.winner)


def members_of(match: Match) -> dict[str, tuple[int, ...]]:
    """Each competitor (a team's name, or a player's id) and its players' ids."""
    if format_of(match).credit is Credit.TEAM:
        return {
            team.name: tuple(s.player_id for s in match.seats if s.team_id == team.id)
            for team in match.teams
        }
    return {str(s.player_id): (s.player_id,) for s in match.seats}


def finished(matches: Iterable[Match]) -> list[Outcome]:
    return [o for o in map(outcome, matches) if o.state.finished]


def rank_rows(
    rows: Sequence[PlayerRow],
    min_matches: int,
    sort: str = DEFAULT_SORT,
    descending: bool = True,
) -> list[PlayerRow]:
    """Sort by the column `sort`: ranked players first, then those with fewer than
    `min_matches` matches; a column without a value (no hands) last in either direction,
    ties by name. Ranks follow the order, and equal values share a rank (1, 2, 2, 4)."""
    if sort not in SORTS:
        raise Invalid(
            _(
                "%(sort)s is not a column of the leaderboard; sort by one of %(known)s.",
                sort=sort,
                known=", ".join(SORTS),
            )
        )
    value = SORTS[sort]
    for row in rows:
        row.ranked = row.matches >= min_matches

    def ordered(group: list[PlayerRow]) -> list[PlayerRow]:
        by_name = sorted(group, key=lambda r: (r.name.casefold(), r.player_id))
        known = [r for r in by_name if value(r) is not None]
        unknown = [r for r in by_name if value(r) is None]
        return sorted(known, key=value, reverse=descending) + unknown

    ranked = ordered([r for r in rows if r.ranked])
    for position, row in enumerate(ranked):
        same = position > 0 and value(ranked[position - 1]) == value(row)
        row.rank = ranked[position - 1].rank if same else position + 1
    rest = ordered([r for r in rows if not r.ranked])
    for row in rest:
        row.rank = None
    return ranked + rest


@dataclasses.dataclass
class PairRecord:
    """Two players on the same side: in the fixed-team formats, the matches they played as
    a team and won; in every format, the hands they played on one side and those sides'
    scores."""

    players: tuple[int, int]  # the lower id first
    names: tuple[str, str]
    matches: int = 0
    wins: int = 0
    hands: int = 0
    side_points: int = 0

    @property
    def win_rate(self) -> Fraction | None:
        return Fraction(self.wins, self.matches) if self.matches else None

    def json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "names": list(self.names),
            "matches": self.matches,
            "wins": self.wins,
            "win_rate": None if self.win_rate is None else round(float(self.win_rate), 4),
            "hands": self.hands,
            "side_points": self.side_points,
        }


@dataclasses.dataclass
class HeadToHead:
    """Two players' (or two teams') record against each other: the finished matches where
    they were on different sides, the wins of each, and who finished ahead of whom."""

    a: tuple[int, ...]
    b: tuple[int, ...]
    matches: int = 0
    wins_a: int = 0
    wins_b: int = 0
    ahead_a: int = 0  # matches where a's final total was above b's
    ahead_b: int = 0

    def json(self) -> dict[str, Any]:
        return dataclasses.asdict(self) | {"a": list(self.a), "b": list(self.b)}
