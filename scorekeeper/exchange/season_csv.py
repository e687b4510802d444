"""A season's matches and hands as CSV, for a spreadsheet: one row per side of every live
hand, with its match's details repeated on each row. Scores are the stored ones."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.extensions import db
from scorekeeper.match import HandEntry, ScoredHand, names_of, variant_of, view_of
from scorekeeper.models import Club, Match, PlayerMatchStat, Season, Seat, as_utc
from scorekeeper.records import in_season, season_on, seasons_of

HEADER = (
    "season",
    "match",
    "first_hand_utc",
    "variant",
    "format",
    "target",
    "finished",
    "winner",
    "hand",
    "kozi",
    "side",
    "players",
    "score",
    "went_out",
    "biribas_clean",
    "biribas_dirty",
    "full_runs",
    "legal",
    "accepted_reason",
)
_BATCH = 200
#: A spreadsheet runs a cell starting with these as a formula; names are never formulas.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def season_csv(club: Club, season: Season | None) -> Iterator[str]:
    """The CSV text, a few rows at a time: the header, then the matches of `season` (None:
    all time) in the order played, each hand's sides in the order entered."""
    seasons = seasons_of(club)
    yield _line(HEADER)
    for played_at, batch in _matches(club, season):
        for match in batch:
            yield from _match_lines(match, played_at[match.id], seasons)


def _matches(
    club: Club, season: Season | None
) -> Iterator[tuple[dict[int, datetime], list[Match]]]:
    stat = PlayerMatchStat
    query = (
        sa.select(stat.match_id, sa.func.min(stat.played_at))
        .where(stat.club_id == club.id)
        .group_by(stat.match_id)
        .order_by(sa.func.min(stat.played_at), stat.match_id)
    )
    if season is not None:
        query = query.join(Match, Match.id == stat.match_id).where(
            in_season(season, stat.played_at, Match.season_id)
        )
    order = list(db.session.execute(query))
    for start in range(0, len(order), _BATCH):
        chunk = order[start : start + _BATCH]
        times = {match_id: as_utc(when) for match_id, when in chunk}
        loaded = {
            m.id: m
            for m in db.session.scalars(
                sa.select(Match)
                .where(Match.id.in_(list(times)))
                .options(
                    selectinload(Match.hands),
                    selectinload(Match.seats).selectinload(Seat.player),
                    selectinload(Match.teams),
                )
            )
        }
        batch = [loaded[match_id] for match_id, _ in chunk]
        yield times, batch
        for match in batch:  # a big club's export must not pile up in the session
            db.session.expunge(match)


def _match_lines(match: Match, played_at: datetime, seasons: list[Season]) -> Iterator[str]:
    state = view_of(match).state
    names = names_of(match)
    season = _season_of(match, played_at, seasons)
    winner = "" if state.winner is None else names.get(state.winner, state.winner)
    common = (
        _text(season.name if season else ""),
        match.id,
        played_at.strftime("%Y-%m-%d %H:%M:%S"),
        match.variant_id,
        match.format,
        variant_of(match).target,
        _yes(state.finished),
        _text(winner),
    )
    for hand in sorted(match.hands, key=lambda h: h.number):
        if hand.deleted:
            continue
        stored = HandEntry.from_json(hand.entry)
        result = ScoredHand.from_json(hand.result)
        kozi = "" if stored.kozi is None else stored.kozi.value
        for index, side in enumerate(result.teams):
            went_out = index < len(stored.teams) and stored.teams[index].went_out
            melds = side.melds
            yield _line(
                (
                    *common,
                    hand.number,
                    kozi,
                    _text(side.name),
                    _text(", ".join(names.get(str(p), str(p)) for p in side.players)),
                    side.score,  # a side's score is whole; shares are not listed
                    _yes(went_out),
                    sum(1 for m in melds if m.biriba and m.clean),
                    sum(1 for m in melds if m.biriba and not m.clean),
                    sum(1 for m in melds if m.full_run),
                    _yes(result.legal),
                    _text(hand.accepted_reason or ""),
                )
            )


def _season_of(match: Match, played_at: datetime, seasons: list[Season]) -> Season | None:
    if match.season_id is not None:
        return next((s for s in seasons if s.id == match.season_id), None)
    return season_on(seasons, played_at.date())


def _line(values: Iterable[Any]) -> str:
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerow(values)
    return out.getvalue()


def _text(value: str) -> str:
    """Text a person typed, kept from being read as a formula by a spreadsheet."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"
