"""Stored ratings: every player's rating before and after each finished match (RatingStep)
and after their last one (PlayerRating), replayed with openskill's Plackett–Luce model.

The finished matches are rated in the order played (first hand's time, then id) from the
match summaries (models.PlayerMatchStat), never from anything entered since: a change to one
match replays the club's chain from that match onward, starting from the ratings stored just
before it. Stored floats are the model's own doubles, so a replay from the middle gives
exactly what a replay from the start gives, and the same matches always the same ratings.

Each finished match ranks its competitors by their final totals (equal totals share a
place): the teams in the fixed-team formats; in the share formats every player is their own
"team", ranked by their total of shares.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from itertools import groupby
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.orm import Session, aliased

from scorekeeper.models import PlayerMatchStat, PlayerRating, RatingStep
from scorekeeper.records.counted import counts

#: Where a replay starts: a finished match's first-hand time and id (None: the beginning).
Since = tuple[datetime, int] | None

#: The trend of a rating: how far it moved over the player's last this many matches.
TREND_MATCHES = 5

_MODEL = PlackettLuce()
_INSERT_CHUNK = 2000


def replay(session: Session, club_id: int, since: Since = None) -> int:
    """Rate the club's finished matches from `since` onward again; returns how many.

    From `since`, only the players of the matches replayed (and of the steps taken away)
    are read and written: a match finishing replays the few matches after it, and reading
    and writing every player's rating of the club, all its steps scanned, cost most of
    the save that finished it (tests/bench/tournament_night.py: thirty tables finishing
    at once, one after the other under the club's lock)."""
    step = RatingStep
    players: set[int] | None = None
    if since is None:
        session.execute(sa.delete(step).where(step.club_id == club_id))
    else:
        gone = session.scalars(
            sa.delete(step)
            .where(step.club_id == club_id, _from(step, since))
            .returning(step.player_id)
        )
        players = set(gone)
    matches = [
        (match_id, list(lines))
        for match_id, lines in groupby(_finished_lines(session, club_id, since), lambda r: r[0])
    ]
    if players is not None:
        players.update(line[4] for _match_id, lines in matches for line in lines)
    current = _latest(session, club_id, players)
    rows: list[dict[str, Any]] = []
    for match_id, lines in matches:
        rows.extend(_rate(club_id, match_id, lines, current))
        if len(rows) >= _INSERT_CHUNK:
            session.execute(sa.insert(step), rows)
            rows = []
    if rows:
        session.execute(sa.insert(step), rows)
    _store_latest(session, club_id, players)
    return len(matches)


def _from(table: Any, since: tuple[datetime, int]) -> sa.ColumnElement[bool]:
    played_at, match_id = since
    return sa.or_(
        table.played_at > played_at,
        sa.and_(table.played_at == played_at, table.match_id >= match_id),
    )


def _latest(
    session: Session, club_id: int, players: set[int] | None = None
) -> dict[int, tuple[int, float, float]]:
    """Each player's last stored step (of `players`, None: everyone's): seq, mu, sigma."""
    step = RatingStep
    if players is not None and not players:
        return {}
    maxima = sa.select(step.player_id, sa.func.max(step.seq).label("seq")).where(
        step.club_id == club_id
    )
    if players is not None:
        maxima = maxima.where(step.player_id.in_(sorted(players)))
    last = maxima.group_by(step.player_id).subquery()
    rows = session.execute(
        sa.select(step.player_id, step.seq, step.mu, step.sigma).join(
            last, sa.and_(last.c.player_id == step.player_id, last.c.seq == step.seq)
        )
    )
    return {pid: (seq, mu, sigma) for pid, seq, mu, sigma in rows}


def _finished_lines(session: Session, club_id: int, since: Since) -> Iterator[Sequence[Any]]:
    stat = PlayerMatchStat
    query = (
        sa.select(
            stat.match_id,
            stat.played_at,
            stat.competitor,
            stat.competitor_total,
            stat.player_id,
        )
        # A tournament's tables that do not count in the season are never rated.
        .where(stat.club_id == club_id, stat.finished.is_(True), counts(stat.match_id))
        .order_by(stat.played_at, stat.match_id, stat.competitor_order, stat.seat)
    )
    if since is not None:
        query = query.where(_from(stat, since))
    yield from session.execute(query)


def _rate(
    club_id: int,
    match_id: int,
    lines: list[Sequence[Any]],
    current: dict[int, tuple[int, float, float]],
) -> list[dict[str, Any]]:
    played_at = lines[0][1]
    competitors: list[str] = []
    members: dict[str, list[int]] = {}
    totals: dict[str, int] = {}
    for _match, _when, competitor, total, player_id in lines:
        if competitor not in members:
            competitors.append(competitor)
            members[competitor] = []
            totals[competitor] = total
        members[competitor].append(player_id)
    if len(competitors) < 2:
        return []
    teams = [[_rating(current.get(pid)) for pid in members[c]] for c in competitors]
    # Lower rank is better; equal totals share a rank.
    scores = [totals[c] for c in competitors]
    ranks = [float(sum(1 for other in scores if other > mine) + 1) for mine in scores]
    rated = _MODEL.rate(teams, ranks=ranks)
    rows = []
    for competitor, team in zip(competitors, rated, strict=True):
        for pid, after in zip(members[competitor], team, strict=True):
            seq, mu_before, sigma_before = current.get(pid) or (0, *_fresh())
            current[pid] = (seq + 1, float(after.mu), float(after.sigma))
            rows.append(
                {
                    "match_id": match_id,
                    "player_id": pid,
                    "club_id": club_id,
                    "played_at": played_at,
                    "seq": seq + 1,
                    "mu_before": mu_before,
                    "sigma_before": sigma_before,
                    "mu": float(after.mu),
                    "sigma": float(after.sigma),
                }
            )
    return rows


def _fresh() -> tuple[float, float]:
    fresh = _MODEL.rating()
    return float(fresh.mu), float(fresh.sigma)


def _rating(stored: tuple[int, float, float] | None) -> Any:
    if stored is None:
        return _MODEL.rating()
    return _MODEL.rating(mu=stored[1], sigma=stored[2])


def _store_latest(session: Session, club_id: int, players: set[int] | None = None) -> None:
    """PlayerRating: each player's last step (of `players`, None: everyone in the club),
    and the move of their conservative rating over their last TREND_MATCHES steps, written
    anew."""
    last, first = aliased(RatingStep), aliased(RatingStep)
    if players is not None and not players:
        return
    gone = sa.delete(PlayerRating).where(PlayerRating.club_id == club_id)
    maxima = sa.select(RatingStep.player_id, sa.func.max(RatingStep.seq).label("seq")).where(
        RatingStep.club_id == club_id
    )
    if players is not None:
        chosen = sorted(players)
        gone = gone.where(PlayerRating.player_id.in_(chosen))
        maxima = maxima.where(RatingStep.player_id.in_(chosen))
    session.execute(gone)
    seqs = maxima.group_by(RatingStep.player_id).subquery()
    start = sa.case((seqs.c.seq > TREND_MATCHES, seqs.c.seq - (TREND_MATCHES - 1)), else_=1)
    latest = (
        sa.select(
            last.player_id,
            last.club_id,
            last.mu,
            last.sigma,
            last.seq,
            (last.mu - 3 * last.sigma) - (first.mu_before - 3 * first.sigma_before),
        )
        .join(seqs, sa.and_(seqs.c.player_id == last.player_id, seqs.c.seq == last.seq))
        .join(first, sa.and_(first.player_id == last.player_id, first.seq == start))
    )
    session.execute(
        sa.insert(PlayerRating).from_select(
            ["player_id", "club_id", "mu", "sigma", "matches", "trend"], latest
        )
    )
