"""What a player's page shows, read from the derived tables (records.stats) and a few of
the player's own matches: their line in each season, their best hands. The same as
tests/support/replay.season_lines and records.best_hands sum from every stored hand.

The lines sum only the matches that count (records.counted), as the leaderboard does: a
table of a tournament that does not count in the season is listed with the player's matches
and may hold one of their best hands, but adds nothing to a season's or all time's line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, Player, PlayerMatchStat, Seat, as_utc
from scorekeeper.records import lines as records
from scorekeeper.records.counted import counts
from scorekeeper.records.lines import BestHand, SeasonLine
from scorekeeper.records.match_list import Listed, season_ids
from scorekeeper.records.seasons import seasons_of
from scorekeeper.records.standings import PlayerRow
from scorekeeper.records.stats import SUMMED, unscaled


def season_lines(club: Club, player: Player) -> list[SeasonLine]:
    """The player's line in each season they finished a match in, latest season first, then
    the all-time line."""
    stat = PlayerMatchStat
    rows = db.session.execute(
        sa.select(
            stat.match_id,
            stat.played_at,
            Match.created_at,
            Match.season_id,
            stat.won,
            *(getattr(stat, name) for name in SUMMED),
        )
        .join(Match, Match.id == stat.match_id)
        .where(
            stat.player_id == player.id,
            stat.club_id == club.id,
            stat.finished.is_(True),
            counts(stat.match_id),
        )
    ).all()
    where = season_ids(club, [Listed(r[0], as_utc(r[1]), r[2], r[3]) for r in rows])
    lines = []
    for season in reversed(seasons_of(club)):
        row = _row(player, [r for r in rows if where[r[0]] == season.id])
        if row is not None:
            lines.append(SeasonLine(season, row))
    everything = _row(player, rows)
    if everything is not None:
        lines.append(SeasonLine(None, everything))
    return lines


def _row(player: Player, rows: Sequence[Any]) -> PlayerRow | None:
    if not rows:
        return None
    sums: dict[str, Any] = dict.fromkeys(SUMMED, 0)
    for found in rows:
        for name, value in zip(SUMMED, found[5:], strict=True):
            sums[name] += int(value)
    wins = sum(bool(found[4]) for found in rows)
    points = unscaled(sums.pop("points"))
    return PlayerRow(player.id, player.name, matches=len(rows), wins=wins, points=points, **sums)


def best_hands(club: Club, player: Player, limit: int = 5) -> list[BestHand]:
    """The `limit` live hands where the player's side scored most (earlier ones first on
    equal scores). Only the hands of a few matches are read: those whose best hand for the
    player (PlayerMatchStat.best_hand) is above the `limit`-th best of the matches, and the
    earliest `limit` of those whose best equals it."""
    stat = PlayerMatchStat
    rows = db.session.execute(
        sa.select(stat.match_id, stat.best_hand, stat.played_at).where(
            stat.player_id == player.id, stat.club_id == club.id, stat.best_hand.is_not(None)
        )
    ).all()
    bests = [(mid, best, when) for mid, best, when in rows if best is not None]
    if not bests:
        return []
    # Each of these matches holds a hand scoring at least `least`: the best `limit` hands
    # score that much or more.
    least = sorted((int(b) for _, b, _ in bests), reverse=True)[:limit][-1]
    above = [mid for mid, best, _ in bests if best > least]
    level = sorted(((as_utc(when).date(), mid) for mid, best, when in bests if best == least))[
        :limit
    ]
    chosen = [*above, *(mid for _, mid in level)]
    matches = db.session.scalars(
        sa.select(Match)
        .where(Match.id.in_(chosen))
        .options(selectinload(Match.hands), selectinload(Match.seats).selectinload(Seat.player))
    )
    return records.best_hands(player, list(matches), limit)
