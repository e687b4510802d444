"""Skill ratings from match results, with openskill's Plackett–Luce team model.

`ratings` is a pure function of the matches: the finished matches are replayed from fresh
ratings in the order they were played (first hand's time, then id), so the same matches
always give the same ratings. A club's all-time ratings are the same replay, stored by
records.rating_history and kept in step with every hand saved, edited or deleted
(`club_ratings` reads them); a season's own ratings are replayed on request.

Each finished match ranks its competitors by their final totals (equal totals share a
place): the teams in the fixed-team formats; in the share formats every player is their own
"team", ranked by their total of shares.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce

from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, Player, RatingStep, Season
from scorekeeper.records.counted import counted_matches
from scorekeeper.records.seasons import first_hand_times, matches_in, played_order
from scorekeeper.records.standings import finished


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
    """Ratings from the club's finished matches (of `season` alone, or all time for None:
    the stored ones, which equal `ratings(counted_matches(matches_in(club, None)))`); a
    tournament's tables that do not count in the season are left out (records.counted)."""
    if season is None:
        return stored_ratings(club)
    return ratings(counted_matches(matches_in(club, season)))


def stored_ratings(club: Club, player_ids: Collection[int] | None = None) -> dict[int, Rating]:
    """The club's stored all-time ratings with their history (of `player_ids` only, when
    given), by player id."""
    step = RatingStep
    query = (
        sa.select(step.player_id, Player.name, step.match_id, step.mu, step.sigma)
        .join(Player, Player.id == step.player_id)
        .where(step.club_id == club.id)
        .order_by(step.player_id, step.seq)
    )
    if player_ids is not None:
        query = query.where(step.player_id.in_(list(player_ids)))
    found: dict[int, Rating] = {}
    for pid, rows in groupby(db.session.execute(query), key=lambda row: row[0]):
        steps = list(rows)
        *_, (_, name, _, mu, sigma) = steps
        found[pid] = Rating(
            player_id=pid,
            name=name,
            mu=float(mu),
            sigma=float(sigma),
            matches=len(steps),
            history=tuple(RatingPoint(m, float(u - 3 * s)) for _, _, m, u, s in steps),
        )
    return found


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
