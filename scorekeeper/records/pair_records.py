"""Partnerships and head-to-head records read from the derived tables (PairMatchStat and
PlayerMatchStat, kept by records.stats) in a grouped query: the same records the plain
replays of tests/support/replay.py sum from every stored hand.

Only finished matches count, and only those that count in the leaderboard
(records.counted): a table of a tournament that does not count in the season adds nothing to
a pair's record, as it adds nothing to a player's. A season holds the matches the owner
placed in it and the unplaced ones whose first live hand falls in its days
(leaderboard.season_part).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import Invalid
from scorekeeper.extensions import db
from scorekeeper.models import Club, PairMatchStat, Player, PlayerMatchStat, Season
from scorekeeper.records.counted import counts
from scorekeeper.records.leaderboard import season_part
from scorekeeper.records.standings import HeadToHead, PairRecord
from scorekeeper.web.gettext import gettext as _


def _names(club: Club) -> dict[int, str]:
    return dict(
        db.session.execute(sa.select(Player.id, Player.name).where(Player.club_id == club.id)).all()
    )


_Sums = tuple[int, int, int, int, int, int]  # player, partner, matches, wins, hands, points


def _sum_pairs(rows: Iterable[Sequence[Any]]) -> list[_Sums]:
    """Sums per pair of (player, partner, teammates, won, hands, side_points) rows."""
    sums: dict[tuple[int, int], list[int]] = {}
    for a, b, teammates, won, hands, side_points in rows:
        line = sums.setdefault((a, b), [0, 0, 0, 0])
        line[0] += int(teammates)
        line[1] += int(won)
        line[2] += int(hands)
        line[3] += int(side_points)
    return [(a, b, m, w, h, p) for (a, b), (m, w, h, p) in sums.items()]


@dataclasses.dataclass(frozen=True)
class Pairs:
    """Pairs summed, in the order the pages show: most matches together first, then most
    hands, then by names. Only the pairs a page shows become PairRecords (`records`): a
    big club has thousands."""

    sums: list[_Sums]
    names: dict[int, str]

    def __len__(self) -> int:
        return len(self.sums)

    def records(self, start: int = 0, stop: int | None = None) -> list[PairRecord]:
        names = self.names
        return [
            PairRecord((a, b), (names[a], names[b]), matches, wins, hands, points)
            for a, b, matches, wins, hands, points in self.sums[start:stop]
        ]


def _ordered(sums: list[_Sums], names: dict[int, str]) -> Pairs:
    folded = {pid: name.casefold() for pid, name in names.items()}
    sums.sort(key=lambda s: (-s[2], -s[4], folded[s[0]], s[0], s[1]))
    return Pairs(sums, names)


def partnerships(club: Club, season: Season | None) -> Pairs:
    """Every pair who played on one side in the club's finished matches of `season` (None:
    all time)."""
    pair = PairMatchStat
    columns = [pair.player_id, pair.partner_id, pair.teammates, pair.won, pair.hands]
    columns.append(pair.side_points)
    where = [pair.finished.is_(True), counts(pair.match_id)]
    if season is None:
        part = sa.select(*columns).where(pair.club_id == club.id, *where).subquery()
    else:
        part = season_part(pair, columns, season, *where)
    one = sa.case((part.c.teammates.is_(True), 1), else_=0)
    won = sa.case((part.c.won.is_(True), 1), else_=0)
    query = sa.select(
        part.c.player_id,
        part.c.partner_id,
        sa.func.sum(one),
        sa.func.sum(won),
        sa.func.sum(part.c.hands),
        sa.func.sum(part.c.side_points),
    ).group_by(part.c.player_id, part.c.partner_id)
    # Read by the connection: thousands of rows, and nothing of the ORM's is needed.
    rows = db.session.connection().execute(query).fetchall()
    sums = [(int(a), int(b), int(m), int(w), int(h), int(p)) for a, b, m, w, h, p in rows]
    return _ordered(sums, _names(club))


def partners(club: Club, player: Player) -> list[PairRecord]:
    """The pairs `player` was one of, in the club's finished matches of all time."""
    pair = PairMatchStat
    rows = db.session.execute(
        sa.select(
            pair.player_id,
            pair.partner_id,
            pair.teammates,
            pair.won,
            pair.hands,
            pair.side_points,
        ).where(
            pair.club_id == club.id,
            pair.finished.is_(True),
            counts(pair.match_id),
            sa.or_(pair.player_id == player.id, pair.partner_id == player.id),
        )
    )
    return _ordered(_sum_pairs(rows), _names(club)).records()


def head_to_head(
    club: Club, season: Season | None, a: Sequence[int], b: Sequence[int]
) -> HeadToHead:
    """The record of `a` against `b` (each one player or the players of one team) in the
    club's finished matches of `season` (None: all time): a match counts when every player
    of `a` was on one competitor and every player of `b` on another."""
    if not a or not b or set(a) & set(b):
        raise Invalid(_("Name two different players or teams to compare."))
    stat = PlayerMatchStat
    columns = [stat.match_id, stat.player_id, stat.competitor, stat.competitor_total, stat.won]
    where = [stat.finished.is_(True), stat.player_id.in_([*a, *b]), counts(stat.match_id)]
    if season is None:
        part = sa.select(*columns).where(stat.club_id == club.id, *where).subquery()
    else:
        part = season_part(stat, columns, season, *where)
    # By match: each player's competitor, and each competitor's total and whether it won.
    seated: dict[int, dict[int, str]] = {}
    results: dict[int, dict[str, tuple[int, bool]]] = {}
    for match_id, pid, competitor, total, won in db.session.execute(sa.select(part)):
        seated.setdefault(match_id, {})[pid] = competitor
        results.setdefault(match_id, {})[competitor] = (int(total), bool(won))
    record = HeadToHead(tuple(a), tuple(b))
    for match_id, where_seated in seated.items():
        side_a, side_b = _holding(where_seated, a), _holding(where_seated, b)
        if side_a is None or side_b is None or side_a == side_b:
            continue
        (total_a, won_a), (total_b, won_b) = results[match_id][side_a], results[match_id][side_b]
        record.matches += 1
        record.wins_a += won_a
        record.wins_b += won_b
        record.ahead_a += total_a > total_b
        record.ahead_b += total_b > total_a
    return record


def _holding(seated: dict[int, str], players: Sequence[int]) -> str | None:
    """The competitor every one of `players` played on, if they were all on one."""
    found = {seated.get(p) for p in players}
    return found.pop() if len(found) == 1 and None not in found else None
