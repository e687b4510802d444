"""Skill ratings from match results, with openskill's Plackett–Luce team model.

A pure function of the matches: the club's finished matches are replayed from fresh ratings
in the order they were played (first hand's time, then id), so the same matches always give
the same ratings, and a hand edited or deleted, or a match removed, is taken into account by
calling it again. Nothing is stored.

Each finished match ranks its competitors by their final totals (equal totals share a
place): the teams in the fixed-team formats; in the share formats every player is their own
"team", ranked by their total of shares.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from openskill.models import PlackettLuce

from scorekeeper.models import Club, Match, Season
from scorekeeper.services.seasons import first_hand_times, matches_in, played_order
from scorekeeper.services.standings import finished


@dataclasses.dataclass(frozen=True)
class RatingPoint:
    match_id: int
    ordinal: float  # the player's conservative rating after this match


@dataclasses.dataclass(frozen=True)
class Rating:
    player_id: int
    name: str
    mu: float
    sigma: float
    matches: int
    history: tuple[RatingPoint, ...]  # one point per rated match, in the order played

    @property
    def ordinal(self) -> float:
        """The conservative single number: mu − 3 sigma (openskill's ordinal())."""
        return self.mu - 3 * self.sigma

    def json(self) -> dict[str, Any]:
        return {
            "id": self.player_id,
            "name": self.name,
            "rating": round(self.ordinal, 3),
            "rating_sigma": round(self.sigma, 3),
            "mu": round(self.mu, 3),
            "matches": self.matches,
            "history": [{"match": p.match_id, "rating": round(p.ordinal, 3)} for p in self.history],
        }


def club_ratings(club: Club, season: Season | None = None) -> dict[int, Rating]:
    """Ratings from the club's finished matches (of `season`, or all time for None)."""
    return ratings(matches_in(club, season))


def ratings(matches: Iterable[Match]) -> dict[int, Rating]:
    """Every player's rating after the finished ones of `matches`, by player id."""
    model = PlackettLuce()
    everything = list(matches)
    times = first_hand_times(everything)
    ordered = sorted(everything, key=lambda m: played_order(m, times))
    current: dict[int, Any] = {}
    names: dict[int, str] = {}
    counts: dict[int, int] = {}
    history: dict[int, list[RatingPoint]] = {}
    for done in finished(ordered):
        competitors = [c for c, members in done.members.items() if members]
        if len(competitors) < 2:
            continue
        for seat in done.match.seats:
            names[seat.player_id] = seat.player.name
        teams = [
            [current[pid] if pid in current else model.rating() for pid in done.members[c]]
            for c in competitors
        ]
        # Lower rank is better; equal totals share a rank.
        totals = [done.state.total(c) for c in competitors]
        ranks = [float(sum(1 for other in totals if other > total) + 1) for total in totals]
        rated = model.rate(teams, ranks=ranks)
        for competitor, team in zip(competitors, rated, strict=True):
            for pid, rating in zip(done.members[competitor], team, strict=True):
                current[pid] = rating
                counts[pid] = counts.get(pid, 0) + 1
                history.setdefault(pid, []).append(
                    RatingPoint(done.match.id, float(rating.ordinal()))
                )
    return {
        pid: Rating(
            player_id=pid,
            name=names[pid],
            mu=float(rating.mu),
            sigma=float(rating.sigma),
            matches=counts[pid],
            history=tuple(history[pid]),
        )
        for pid, rating in sorted(current.items())
    }
