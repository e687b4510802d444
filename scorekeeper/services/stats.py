"""The derived tables: when each match was played (MatchStat), per-match player summaries
(PlayerMatchStat) and pairs of players on one side (PairMatchStat), each player's all-time
sums (PlayerTotal) and stored ratings (RatingStep, PlayerRating), so that a leaderboard, the
partnerships or a player's page is a grouped query or a read instead of a replay of every
hand.

They hold nothing of their own: `rebuild` makes them again from the stored hands, and the
hand service calls `refresh_match` in the transaction that saves, edits or deletes a hand
(`forget_match` when a whole match is deleted).
A match's season is not stored here; the leaderboard reads the match's own choice and the
first-hand time (`played_at`) against the seasons' days, so seasons may change freely.

Whoever changes stored hands or their times some other way (a test setting the time a hand
was played, a repair by hand) calls `refresh_match` or `rebuild` afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Session, selectinload

from scorekeeper.extensions import db
from scorekeeper.models import (
    POINT_SCALE,
    Club,
    Hand,
    HandVersion,
    Match,
    MatchStat,
    PairMatchStat,
    PlayerMatchStat,
    PlayerRating,
    PlayerTotal,
    RatingStep,
    Seat,
)
from scorekeeper.rules.match import MatchSetup
from scorekeeper.services import progress, rating_history
from scorekeeper.services.match_summary import (
    HandData,
    PairLine,
    PlayerLine,
    count_hand,
    summarize,
)
from scorekeeper.services.matches import setup_of

_BATCH = 400  # matches loaded at a time by a rebuild


def refresh_match(
    match: Match, session: Session | None = None, hands: Sequence[HandData] | None = None
) -> None:
    """Bring `match`'s summary rows in step with its stored hands, and replay the club's
    ratings from this match on where its result or its place in time moved. Runs in the
    caller's transaction: the caller commits (or rolls back, and nothing changed). `hands`
    is the live hands' data as stored now, when the caller holds it (see `summarize`)."""
    session = _active(session)
    session.flush()
    _lock_club(session, match.club_id)
    if hands is None:
        # As stored: a list loaded earlier in this transaction lacks the hands added since.
        session.expire(match, ["hands"])
    progress.store(match, progress.counted(match, setup_of(match)))
    before = _rating_inputs(session, match.id)
    for table in _PER_MATCH:
        session.execute(sa.delete(table).where(table.match_id == match.id))
    played_at = _first_hand_times(session, Hand.match_id == match.id).get(match.id)
    if played_at is not None:
        for table, values in stat_rows(match, played_at, hands).items():
            if values:
                session.execute(sa.insert(table), values)
    _store_totals(session, match.club_id, [seat.player_id for seat in match.seats])
    after = _rating_inputs(session, match.id)
    if before != after:
        starts = [inputs[0][:2] for inputs in (before, after) if inputs]
        rating_history.replay(session, match.club_id, min(starts))


def count_new_hand(
    match: Match,
    setup: MatchSetup,
    after: progress.Progress,
    number: int,
    entry: dict[str, Any],
    result: dict[str, Any],
    session: Session | None = None,
) -> None:
    """Bring `match`'s summary rows in step after hand `number` (its entry and result as
    stored) was saved as its newest live hand, the match not finished before it and `after`
    its progress now: the hand is added to this match's rows (a handful, read by their
    keys), so a save costs the same at hand 200 as at hand 2. Where more than sums move,
    the whole match is summed again (`refresh_match`): at its first live hand (the rows are
    made) and at the hand that finishes it (the players' totals and the ratings move)."""
    session = _active(session)
    if after.played <= 1 or after.state(setup).finished:
        refresh_match(match, session)
        return
    session.flush()
    rows = list(
        session.scalars(sa.select(PlayerMatchStat).where(PlayerMatchStat.match_id == match.id))
    )
    if len(rows) != len(setup.seats) or any(row.finished for row in rows):
        refresh_match(match, session)  # not what the hands before made: sum it all again
        return
    kept = {
        (row.player_id, row.partner_id): row
        for row in session.scalars(
            sa.select(PairMatchStat).where(PairMatchStat.match_id == match.id)
        )
    }
    lines = {row.player_id: _line_of(row) for row in rows}
    pairs = {
        key: PairLine(key[0], key[1], row.teammates, row.won, row.hands, row.side_points)
        for key, row in kept.items()
    }
    count_hand(setup, lines, pairs, number, entry, result)
    for row in rows:
        line = lines[row.player_id]
        row.competitor_total = scaled(after.totals.get(row.competitor, Fraction(0)))
        row.hands = line.hands
        row.points = scaled(line.points)
        row.side_points = line.side_points
        row.biribas_clean = line.biribas_clean
        row.biribas_dirty = line.biribas_dirty
        row.full_runs = line.full_runs
        row.went_out = line.went_out
        row.best_hand = line.best_hand
    for key, pair in pairs.items():
        pair_row = kept.get(key)
        if pair_row is None:  # two players on one side for the first time in this match
            session.add(
                PairMatchStat(
                    match_id=match.id,
                    player_id=pair.player_id,
                    partner_id=pair.partner_id,
                    club_id=match.club_id,
                    played_at=rows[0].played_at,
                    finished=False,
                    teammates=pair.teammates,
                    won=pair.won,
                    hands=pair.hands,
                    side_points=pair.side_points,
                )
            )
        elif (pair_row.hands, pair_row.side_points) != (pair.hands, pair.side_points):
            pair_row.hands = pair.hands
            pair_row.side_points = pair.side_points
    session.flush()


def _line_of(row: PlayerMatchStat) -> PlayerLine:
    """A stored summary row as `count_hand` adds to it."""
    return PlayerLine(
        player_id=row.player_id,
        name="",
        competitor=row.competitor,
        competitor_order=row.competitor_order,
        seat=row.seat,
        competitor_total=unscaled(row.competitor_total),
        won=row.won,
        hands=row.hands,
        points=unscaled(row.points),
        side_points=row.side_points,
        biribas_clean=row.biribas_clean,
        biribas_dirty=row.biribas_dirty,
        full_runs=row.full_runs,
        went_out=row.went_out,
        best_hand=row.best_hand,
    )


def forget_match(match: Match, session: Session | None = None) -> None:
    """Delete `match` and everything stored of it (teams, seats, hands and their versions,
    derived rows), then bring its players' totals and the club's ratings in step: ratings
    are replayed from where the match stood, as if it had never been played. Runs in the
    caller's transaction."""
    session = _active(session)
    session.flush()
    club_id = match.club_id
    _lock_club(session, club_id)
    before = _rating_inputs(session, match.id)
    players = [seat.player_id for seat in match.seats]
    # Hand versions and derived rows go with the match by their ON DELETE CASCADE keys
    # (SQLite enforces them too: extensions.py); the flush has them gone before the sums.
    session.delete(match)
    session.flush()
    _store_totals(session, club_id, players)
    if before:
        rating_history.replay(session, club_id, before[0][:2])


def rebuild(session: Session | None = None, club_id: int | None = None) -> int:
    """Make every derived row again from the stored hands, for one club or all of them;
    returns how many matches were summed. Runs in the caller's transaction."""
    session = _active(session)
    session.flush()
    clubs = [club_id] if club_id is not None else list(session.scalars(sa.select(Club.id)))
    summed = 0
    for cid in clubs:
        _lock_club(session, cid)
        for table in (PlayerRating, RatingStep, PlayerTotal, *_PER_MATCH):
            session.execute(sa.delete(table).where(table.club_id == cid))
        # Matches without a live hand are counted again by their next write.
        session.execute(sa.update(Match).where(Match.club_id == cid).values(progress=None))
        times = _first_hand_times(session, Match.club_id == cid)
        for batch in _match_batches(session, cid, sorted(times)):
            rows: dict[Any, list[dict[str, Any]]] = {table: [] for table in _PER_MATCH}
            for match in batch:
                progress.store(match, progress.counted(match, setup_of(match)))
                for table, values in stat_rows(match, times[match.id]).items():
                    rows[table].extend(values)
                summed += 1
            for table, values in rows.items():
                if values:
                    session.execute(sa.insert(table), values)
            session.flush()  # the progress, before the batch leaves the session
        _store_totals(session, cid)
        rating_history.replay(session, cid)
    return summed


def _store_totals(session: Session, club_id: int, players: list[int] | None = None) -> None:
    """PlayerTotal of `players` (None: everyone in the club), summed anew from their
    match summaries: a few dozen rows each, found by the player index."""
    stat, total = PlayerMatchStat, PlayerTotal
    if players is None:
        session.execute(sa.delete(total).where(total.club_id == club_id))
    else:
        session.execute(sa.delete(total).where(total.player_id.in_(players)))
    sums = (
        sa.select(
            stat.player_id,
            stat.club_id,
            sa.func.count(),
            sa.func.sum(sa.case((stat.won.is_(True), 1), else_=0)),
            *(sa.func.sum(getattr(stat, name)) for name in SUMMED),
        )
        .where(stat.club_id == club_id, stat.finished.is_(True))
        .group_by(stat.player_id, stat.club_id)
    )
    if players is not None:
        sums = sums.where(stat.player_id.in_(players))
    session.execute(sa.insert(total).from_select(["player_id", "club_id", *TOTALS], sums))


#: What a player's totals sum from the per-match rows, besides the matches and the wins.
SUMMED = (
    "hands",
    "points",
    "side_points",
    "biribas_clean",
    "biribas_dirty",
    "full_runs",
    "went_out",
)
#: A player's totals as PlayerTotal holds them (services.leaderboard reads them back).
TOTALS = ("matches", "wins", *SUMMED)


#: The derived tables with rows per match, made by `stat_rows`.
_PER_MATCH = (MatchStat, PlayerMatchStat, PairMatchStat)


def stat_rows(
    match: Match, played_at: datetime, hands: Sequence[HandData] | None = None
) -> dict[Any, list[dict[str, Any]]]:
    """The rows of `match` in each table of _PER_MATCH; its first live hand was saved at
    `played_at` (UTC)."""
    summary = summarize(match, hands)
    played = {
        "match_id": match.id,
        "club_id": match.club_id,
        "played_at": played_at,
        "played_on": played_at.date(),
    }
    players = [
        {
            "match_id": match.id,
            "player_id": line.player_id,
            "club_id": match.club_id,
            "played_at": played_at,
            "finished": summary.finished,
            "won": line.won,
            "competitor": line.competitor,
            "competitor_order": line.competitor_order,
            "seat": line.seat,
            "competitor_total": scaled(line.competitor_total),
            "hands": line.hands,
            "points": scaled(line.points),
            "side_points": line.side_points,
            "biribas_clean": line.biribas_clean,
            "biribas_dirty": line.biribas_dirty,
            "full_runs": line.full_runs,
            "went_out": line.went_out,
            "best_hand": line.best_hand,
        }
        for line in summary.lines
    ]
    pairs = [
        {
            "match_id": match.id,
            "player_id": pair.player_id,
            "partner_id": pair.partner_id,
            "club_id": match.club_id,
            "played_at": played_at,
            "finished": summary.finished,
            "teammates": pair.teammates,
            "won": pair.won,
            "hands": pair.hands,
            "side_points": pair.side_points,
        }
        for pair in summary.pairs
    ]
    return {MatchStat: [played], PlayerMatchStat: players, PairMatchStat: pairs}


def scaled(points: Fraction) -> int:
    """Points as a whole number of 1/POINT_SCALE; every share the formats make fits."""
    value = points * POINT_SCALE
    if value.denominator != 1:
        raise ValueError(f"{points} points cannot be stored exactly in 1/{POINT_SCALE}ths.")
    return int(value)


def unscaled(stored: int) -> Fraction:
    return Fraction(int(stored), POINT_SCALE)


def _active(session: Session | None) -> Session:
    # db.session is a scoped proxy of the app context's Session: either serves.
    return session if session is not None else cast(Session, db.session)


def _lock_club(session: Session, club_id: int) -> None:
    """One writer at a time per club on PostgreSQL: two matches finishing at once must not
    replay the same ratings side by side. (SQLite lets one writer in anyway; SQLAlchemy
    leaves FOR UPDATE out there.)"""
    session.execute(sa.select(Club.id).where(Club.id == club_id).with_for_update())


def _rating_inputs(session: Session, match_id: int) -> list[tuple[Any, ...]]:
    """What the ratings read of a match: nothing unless it is finished."""
    stat = PlayerMatchStat
    rows = session.execute(
        sa.select(
            stat.played_at,
            stat.match_id,
            stat.competitor_order,
            stat.seat,
            stat.competitor,
            stat.competitor_total,
            stat.player_id,
        )
        .where(stat.match_id == match_id, stat.finished.is_(True))
        .order_by(stat.competitor_order, stat.seat)
    )
    return [(as_utc(row[0]), *row[1:]) for row in rows]


def _first_hand_times(session: Session, where: sa.ColumnElement[bool]) -> dict[int, datetime]:
    """When each match's first live hand was first saved (its "created" version), as an
    aware UTC time, by match id; the same rule as services.seasons.first_hand_times."""
    rows = session.execute(
        sa.select(Hand.match_id, sa.func.min(HandVersion.created_at))
        .join(
            HandVersion,
            sa.and_(HandVersion.match_id == Hand.match_id, HandVersion.number == Hand.number),
        )
        .join(Match, Match.id == Hand.match_id)
        .where(where, Hand.deleted.is_(False), HandVersion.action == "created")
        .group_by(Hand.match_id)
    )
    return {match_id: as_utc(when) for match_id, when in rows}


def as_utc(when: datetime) -> datetime:
    """SQLite gives back naive times (stored as UTC), PostgreSQL aware ones."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _match_batches(session: Session, club_id: int, ids: Sequence[int]) -> Iterator[list[Match]]:
    """The matches `ids` with everything a summary reads, a batch at a time; each batch
    leaves the session afterwards (unless the caller held it), so memory stays flat."""
    for start in range(0, len(ids), _BATCH):
        chunk = list(ids[start : start + _BATCH])
        held = {obj.id for obj in list(session.identity_map.values()) if isinstance(obj, Match)}
        batch = list(
            session.scalars(
                sa.select(Match)
                .where(Match.id.in_(chunk))
                .options(
                    selectinload(Match.hands),
                    selectinload(Match.seats).selectinload(Seat.player),
                    selectinload(Match.teams),
                )
                .execution_options(populate_existing=True)
            )
        )
        yield batch
        for match in batch:
            if match.id not in held:
                session.expunge(match)
