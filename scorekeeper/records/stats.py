"""The derived tables: when each match was played (MatchStat), per-match player summaries
(PlayerMatchStat) and pairs of players on one side (PairMatchStat), each player's all-time
sums (PlayerTotal) and stored ratings (RatingStep, PlayerRating), so that a leaderboard, the
partnerships or a player's page is a grouped query or a read instead of a replay of every
hand.

They hold nothing of their own: `rebuild` makes them again from the stored hands (and each
match's progress, match.progress), and the match's writes keep them in step in the
transaction that saves, edits or deletes a hand: `count_changes` moves this match's rows
by the hands that changed, or sums the match again with `refresh_match` where more than
sums move (`forget_match` when a whole match is deleted).
A match's season is not stored here; the leaderboard reads the match's own choice and the
first-hand time (`played_at`) against the seasons' days, so seasons may change freely.

Whoever changes stored hands or their times some other way (a test setting the time a hand
was played, a repair by hand) calls `refresh_match` or `rebuild` afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import date, datetime
from fractions import Fraction
from typing import Any, cast

import sqlalchemy as sa
from sqlalchemy.orm import Session, selectinload

from scorekeeper.extensions import db
from scorekeeper.match import (
    Changes,
    HandEntry,
    Progress,
    ScoredHand,
    listeners,
    live_tallies,
    match_forgetters,
    progress_of_state,
    store_progress,
)
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
    as_utc,
    rows_changed,
    table_of,
)
from scorekeeper.records import rating_history
from scorekeeper.records.counted import counts
from scorekeeper.records.match_summary import (
    HandData,
    MatchSummary,
    PairLine,
    PlayerLine,
    count_hand,
    summarize,
)
from scorekeeper.rules.match import MatchSetup

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
    if hands is None:
        # As stored: a list loaded earlier in this transaction lacks the hands added since.
        session.expire(match, ["hands"])
    summary = summarize(match, hands)
    store_progress(match, progress_of_state(summary.state, match.hands))
    # This match's own rows are its writer's alone (the caller holds the match: match.locks),
    # so they are written before the club's lock: thirty tables finishing at once wait for
    # each other only for the sums they share.
    before = _rating_inputs(session, match.id)
    for table in _PER_MATCH:
        session.execute(sa.delete(table).where(table.match_id == match.id))
    played_at = _first_hand_times(session, Hand.match_id == match.id).get(match.id)
    if played_at is not None:
        _insert_match_rows(session, stat_rows(match, played_at, summary=summary))
    _lock_club(session, match.club_id)
    _store_totals(session, match.club_id, [seat.player_id for seat in match.seats])
    after = _rating_inputs(session, match.id)
    if before != after:
        starts = [inputs[0][:2] for inputs in (before, after) if inputs]
        rating_history.replay(session, match.club_id, min(starts))


def count_changes(
    match: Match,
    setup: MatchSetup,
    after: Progress,
    removed: Sequence[HandData] = (),
    added: Sequence[HandData] = (),
    start_moved: bool = False,
    session: Session | None = None,
    saved_at: datetime | None = None,
) -> None:
    """Bring `match`'s summary rows in step after a save, a correction or a deletion: the
    hands' data in `removed` (as they were stored) are taken out of this match's rows and
    those in `added` (as stored now) put in, `after` being the match's progress now. Only
    this match's rows are read and written (a handful, by their keys), so a save costs the
    same at hand 200 as at hand 2, and a correction as much as the hands it rescored.

    A match's first live hand, just saved at `saved_at`, makes its rows. Where more than
    sums move, the whole match is summed again (`refresh_match`): when its rows are not
    there otherwise, or it has no live hand left, when its first live hand changed
    (`start_moved`: its place in time), when it is or was finished (the players' totals and
    the ratings read it), and when a player's best hand may have been taken out."""
    session = _active(session)
    session.flush()
    if added and not removed and not start_moved and not after.state(setup).finished:
        if after.played > len(added):  # the match had a live hand, so its rows are there
            _count_added(match, setup, after, added, session)
            return
        if saved_at is not None and len(added) == after.played == 1:
            # The match's first live hand, just saved at `saved_at`: a match without a live
            # hand has no rows, so this one makes them.
            _first_rows(match, added[0], session, saved_at)
            return
    stat, pair = PlayerMatchStat, PairMatchStat
    rows = list(
        session.execute(sa.select(*stat.__table__.columns).where(stat.match_id == match.id))
    )
    lines = {row.player_id: _line_of(row) for row in rows}
    if (
        start_moved
        or after.played == 0
        or len(lines) != len(setup.seats)
        or any(row.finished for row in rows)
        or after.state(setup).finished
    ):
        refresh_match(match, session)
        return
    stored_pairs = session.execute(
        sa.select(*pair.__table__.columns).where(pair.match_id == match.id)
    )
    pairs = {
        (row.player_id, row.partner_id): PairLine(
            row.player_id, row.partner_id, row.teammates, row.won, row.hands, row.side_points
        )
        for row in stored_pairs
    }
    known = {key: (p.hands, p.side_points) for key, p in pairs.items()}  # as stored
    was = {(pid, line.best_hand) for pid, line in lines.items()}
    best_gone = False
    for number, entry, result in removed:
        count_hand(setup, lines, pairs, number, entry, result, sign=-1)
        # That player's best may have been this hand: only all their hands tell.
        best_gone = best_gone or any(
            (pid, side.score) in was for side in result.teams for pid in side.players
        )
    for number, entry, result in added:
        count_hand(setup, lines, pairs, number, entry, result)
    if best_gone:
        _best_hands_again(match, lines)
    session.execute(
        sa.update(stat),
        [
            {
                "match_id": match.id,
                "player_id": pid,
                "competitor_total": scaled(after.totals.get(line.competitor, Fraction(0))),
                **_counted(line),
            }
            for pid, line in lines.items()
        ],
    )
    changed = [
        p
        for key, p in pairs.items()
        if known.get(key, (p.hands, p.side_points)) != (p.hands, p.side_points)
    ]
    gone = [p for p in changed if p.hands == 0 and not p.teammates]
    kept = [p for p in changed if p not in gone]
    if kept:
        session.execute(
            sa.update(pair),
            [
                {
                    "match_id": match.id,
                    "player_id": p.player_id,
                    "partner_id": p.partner_id,
                    "hands": p.hands,
                    "side_points": p.side_points,
                }
                for p in kept
            ],
        )
    for p in gone:  # no longer on one side in any live hand of the match
        session.execute(
            sa.delete(pair).where(
                pair.match_id == match.id,
                pair.player_id == p.player_id,
                pair.partner_id == p.partner_id,
            )
        )
    _add_pairs(match, [p for key, p in pairs.items() if key not in known], session)


def _best_hands_again(match: Match, lines: dict[int, PlayerLine]) -> None:
    """Each player's best hand, from the match's live hands as stored now: read from their
    tallies (each side's players and score), not their entries and results, since a
    correction of hand 1 of 500 took the best hand out (summing the whole match again cost
    300 ms of JSON, issue 18)."""
    best: dict[int, int] = {}
    for _number, tally in live_tallies(match):
        for side in tally.sides:
            for pid in side.players:
                if pid not in best or side.score > best[pid]:
                    best[pid] = side.score
    for pid, line in lines.items():
        line.best_hand = best.get(pid)


def _add_to_players() -> sa.Update:
    """Each player's row moved by what new hands add (bound per player: `_count_added`)."""
    stat = table_of(PlayerMatchStat)
    best = sa.bindparam("b_best", type_=sa.BigInteger)
    return (
        sa.update(stat)
        .where(
            stat.c.match_id == sa.bindparam("b_match"),
            stat.c.player_id == sa.bindparam("b_player"),
            stat.c.finished.is_(False),
        )
        .values(
            competitor_total=sa.bindparam("b_total"),
            best_hand=sa.case(
                (best.is_(None), stat.c.best_hand),
                (stat.c.best_hand.is_(None), best),
                (stat.c.best_hand < best, best),
                else_=stat.c.best_hand,
            ),
            **{name: stat.c[name] + sa.bindparam(f"b_{name}") for name in SUMMED},
        )
    )


def _add_to_pairs() -> sa.Update:
    """Each pair's row moved by what new hands add (bound per pair: `_count_added`)."""
    pair = table_of(PairMatchStat)
    return (
        sa.update(pair)
        .where(
            pair.c.match_id == sa.bindparam("b_match"),
            pair.c.player_id == sa.bindparam("b_player"),
            pair.c.partner_id == sa.bindparam("b_partner"),
        )
        .values(
            hands=pair.c.hands + sa.bindparam("b_hands"),
            side_points=pair.c.side_points + sa.bindparam("b_side_points"),
        )
    )


def _count_added(
    match: Match,
    setup: MatchSetup,
    after: Progress,
    added: Sequence[HandData],
    session: Session,
) -> None:
    """`count_changes` for hands only added to a running match (a save, the most common
    write): each row moves by what the new hands add, in the database, so the rows are
    written without being read. A row that is not where it should be (missing, or of a
    finished match) makes the whole match summed again."""
    team_of = {pid: name for name, pids in (setup.teams or {}).items() for pid in pids}
    lines = {
        int(seat): PlayerLine(int(seat), "", team_of.get(seat, seat), 0, 0, Fraction(0), False)
        for seat in setup.seats
    }
    pairs: dict[tuple[int, int], PairLine] = {}
    for number, entry, result in added:
        count_hand(setup, lines, pairs, number, entry, result)
    moved = session.execute(
        _ADD_TO_PLAYERS,
        [
            {
                "b_match": match.id,
                "b_player": pid,
                "b_total": scaled(after.totals.get(line.competitor, Fraction(0))),
                "b_best": line.best_hand,
                **{f"b_{name}": counted[name] for name in SUMMED},
            }
            for pid, line, counted in ((p, ln, _counted(ln)) for p, ln in lines.items())
        ],
    )
    if rows_changed(moved) != len(lines):
        refresh_match(match, session)  # it sums from the hands: what moved above is redone
        return
    if not pairs:
        return
    moved = session.execute(
        _ADD_TO_PAIRS,
        [
            {
                "b_match": match.id,
                "b_player": p.player_id,
                "b_partner": p.partner_id,
                "b_hands": p.hands,
                "b_side_points": p.side_points,
            }
            for p in pairs.values()
        ],
    )
    if rows_changed(moved) == len(pairs):
        return
    # Two players on one side for the first time in this match (share formats only).
    pair = PairMatchStat
    stored = sa.select(pair.player_id, pair.partner_id).where(pair.match_id == match.id)
    known = {(a, b) for a, b in session.execute(stored)}
    _add_pairs(match, [p for key, p in pairs.items() if key not in known], session)


def _add_pairs(match: Match, new: list[PairLine], session: Session) -> None:
    """Rows for pairs of players on one side for the first time in this running match."""
    if not new:
        return
    played_at = session.scalar(sa.select(MatchStat.played_at).where(MatchStat.match_id == match.id))
    session.execute(
        _insert(PairMatchStat),
        [
            {
                "match_id": match.id,
                "player_id": p.player_id,
                "partner_id": p.partner_id,
                "club_id": match.club_id,
                "played_at": played_at,
                "finished": False,
                "teammates": p.teammates,
                "won": p.won,
                "hands": p.hands,
                "side_points": p.side_points,
            }
            for p in new
        ],
    )


def _insert(model: Any) -> sa.Insert:
    """Rows of `model` inserted as a plain table: the ORM's bulk insert took longer than the
    statement itself (these rows never become objects)."""
    return sa.insert(table_of(model))


def _first_rows(match: Match, hand: HandData, session: Session, saved_at: datetime) -> None:
    """The rows of a match whose first live hand was just saved at `saved_at`: the match
    had none (a match without a live hand has no rows), is not finished, and so moves no
    player's totals and no rating."""
    played_at = as_utc(saved_at)
    summary = summarize(match, [hand], named=False)
    _insert_match_rows(session, stat_rows(match, played_at, summary=summary))


def _insert_match_rows(session: Session, rows: dict[Any, list[dict[str, Any]]]) -> None:
    """One match's rows of each table in _PER_MATCH (a handful each, as `stat_rows` makes
    them: every column). On PostgreSQL, where each statement is a round trip to the server
    and a match's first hand writes all three tables, they go in one statement."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            _ALL_ROWS,
            {table.__tablename__: json.dumps(rows[table], default=_iso) for table in _PER_MATCH},
        )
        return
    for table, values in rows.items():
        if values:
            session.execute(_insert(table), values)


def _all_rows() -> sa.TextClause:
    """Every table of _PER_MATCH filled from a JSON list of its rows, in one statement: the
    first tables' INSERTs as WITH clauses of the last. `json_populate_recordset` reads a
    list of objects as rows of the table's own type (each table is one), so `SELECT *`
    gives the table's columns in its order."""
    *first, last = (table.__tablename__ for table in _PER_MATCH)

    def filled(name: str) -> str:
        rows = f"json_populate_recordset(NULL::{name}, CAST(:{name} AS json))"
        return f"INSERT INTO {name} SELECT * FROM {rows}"

    clauses = ", ".join(f"{name}_rows AS ({filled(name)})" for name in first)
    return sa.text(f"WITH {clauses} {filled(last)}").bindparams(
        *(sa.bindparam(table.__tablename__, type_=sa.String) for table in _PER_MATCH)
    )


def _iso(value: object) -> str:
    """Times and days in the JSON of `_insert_match_rows`, as PostgreSQL reads them."""
    if isinstance(value, date):  # datetimes too
        return value.isoformat()
    raise TypeError(f"{value!r} cannot be written as JSON")


def _line_of(row: Any) -> PlayerLine:
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
                summary = summarize(match)
                store_progress(match, progress_of_state(summary.state, match.hands))
                for table, values in stat_rows(match, times[match.id], summary=summary).items():
                    rows[table].extend(values)
                summed += 1
            for table, values in rows.items():
                if values:
                    session.execute(_insert(table), values)
            session.flush()  # the progress, before the batch leaves the session
        _store_totals(session, cid)
        rating_history.replay(session, cid)
    return summed


def imported_rows(
    match: Match, hands: Sequence[Hand], played_at: datetime | None
) -> tuple[Progress | None, dict[Any, list[dict[str, Any]]]]:
    """What `rebuild` would store of a match that an import is writing in steps: where its
    `hands` (all of them, as they will be stored, their results scored) bring it, and its
    rows in each per-match table; None and no rows for a match without a live hand. Made
    without a query (`match` loaded with its seats and teams), so no write waits for it;
    `played_at` is when its first live hand was first saved."""
    live = [
        (h.number, HandEntry.from_json(h.entry), ScoredHand.from_json(h.result))
        for h in sorted(hands, key=lambda h: h.number)
        if not h.deleted
    ]
    if not live or played_at is None:
        return None, {}
    summary = summarize(match, live, named=False)
    return progress_of_state(summary.state, hands), stat_rows(
        match, as_utc(played_at), summary=summary
    )


def store_imported_rows(
    match_id: int, progress: Progress | None, rows: dict[Any, list[dict[str, Any]]]
) -> None:
    """Write what `imported_rows` made, in the caller's (short) transaction."""
    session = _active(None)
    if progress is not None:
        session.execute(
            sa.update(Match).where(Match.id == match_id).values(progress=progress.as_json())
        )
    if rows:
        _insert_match_rows(session, rows)


def sum_totals(club_id: int) -> None:
    """The club's players' totals, made again from its per-match rows: a last step of an
    import, which wrote those rows match by match."""
    session = _active(None)
    _lock_club(session, club_id)
    _store_totals(session, club_id)


def sum_ratings(club_id: int) -> None:
    """The club's ratings, made again from its per-match rows (as `sum_totals`)."""
    session = _active(None)
    _lock_club(session, club_id)
    rating_history.replay(session, club_id)


def _store_totals(session: Session, club_id: int, players: list[int] | None = None) -> None:
    """PlayerTotal of `players` (None: everyone in the club), summed anew from their
    match summaries that count (records.counted): a few dozen rows each, found by the
    player index."""
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
        .where(stat.club_id == club_id, stat.finished.is_(True), counts(stat.match_id))
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
#: A player's totals as PlayerTotal holds them (records.leaderboard reads them back).
TOTALS = ("matches", "wins", *SUMMED)


#: The derived tables with rows per match, made by `stat_rows`.
_PER_MATCH = (MatchStat, PlayerMatchStat, PairMatchStat)


def stat_rows(
    match: Match,
    played_at: datetime,
    hands: Sequence[HandData] | None = None,
    summary: MatchSummary | None = None,
) -> dict[Any, list[dict[str, Any]]]:
    """The rows of `match` in each table of _PER_MATCH; its first live hand was saved at
    `played_at` (UTC). `summary` is the match's, when the caller made it already."""
    summary = summary or summarize(match, hands)
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
            **_counted(line),
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


def _counted(line: PlayerLine) -> dict[str, Any]:
    """What a player's hands in one match add up to, as PlayerMatchStat stores it."""
    return {
        "hands": line.hands,
        "points": scaled(line.points),
        "side_points": line.side_points,
        "biribas_clean": line.biribas_clean,
        "biribas_dirty": line.biribas_dirty,
        "full_runs": line.full_runs,
        "went_out": line.went_out,
        "best_hand": line.best_hand,
    }


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


#: The space of PostgreSQL advisory locks held while a club's sums are written (the first of
#: pg_advisory_xact_lock's two keys, the club's id the second): any fixed number, "SK".
_CLUB_SUMS = 0x534B


def _lock_club(session: Session, club_id: int) -> None:
    """One writer of a club's sums at a time on PostgreSQL, until the transaction ends: two
    matches finishing at once must not replay the same ratings side by side. (SQLite lets one
    writer in anyway.) An advisory lock, not the club's row FOR UPDATE: that also held back
    every insert of a row naming the club (its foreign key takes a share of the row), such as
    another table's first hand's summary rows, until the finishing save committed."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(sa.select(sa.func.pg_advisory_xact_lock(_CLUB_SUMS, club_id)))


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
    aware UTC time, by match id; the same rule as records.seasons.first_hand_times."""
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


# Built once: a save runs them with its own values, and building them cost more than running.
_ADD_TO_PLAYERS = _add_to_players()
_ADD_TO_PAIRS = _add_to_pairs()
_ALL_ROWS = _all_rows()


def _count(changes: Changes) -> None:
    """A write of the match's hands, counted in this same transaction (match.writes)."""
    count_changes(
        changes.match,
        changes.setup,
        changes.after,
        changes.removed,
        changes.added,
        start_moved=changes.start_moved,
        saved_at=changes.saved_at,
    )


def follow_matches() -> None:
    """Keep the sums in step with every write of a match's hands from now on, in the same
    transaction (the match tells what its writes changed without knowing of the sums).
    Called by create_app; calling it again changes nothing."""
    if _count not in listeners:
        listeners.append(_count)
    if forget_match not in match_forgetters:
        match_forgetters.append(forget_match)
