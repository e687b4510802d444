"""The record pages' shapes (MatchLine, SeasonLine, BestHand) and their readings of the few
matches the pages load with their hands: a match's line in a list, a player's best hands,
the day each match was played, a player's rating trend, and the player or team a
head-to-head link names.

The pages read the rest from the derived tables (records.match_list, player_records,
pair_records); the plain replays the tests check those with are in tests/support/replay.py.
Nothing here scores a hand: results, totals and winners are the stored hand results and the
rules engine's match state, read as they are.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import date
from fractions import Fraction

from scorekeeper.clubs import players_named
from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.match import HandEntry, ScoredHand, names_of, view_of
from scorekeeper.models import Club, Match, Player, Season
from scorekeeper.numbers import is_row_id, row_id
from scorekeeper.records.ratings import Rating
from scorekeeper.records.seasons import first_hand_times
from scorekeeper.records.standings import PlayerRow, outcome
from scorekeeper.web.gettext import gettext as _

#: The rating trend compares the rating now with the one this many rated matches ago.
TREND_SPAN = 5


def player_in(club: Club, player_id: object) -> Player:
    """The club's player; another club's player, like a missing one, is not found."""
    player = db.session.get(Player, player_id) if is_row_id(player_id) else None
    if player is None or player.club_id != club.id:
        raise NotFound(_("This club has no such player."))
    return player


def played_on(matches: Sequence[Match]) -> dict[int, date]:
    """The day each match was played: its first hand's, else the day it was started."""
    times = first_hand_times(matches)
    return {m.id: (times.get(m.id) or m.created_at).date() for m in matches}


@dataclasses.dataclass(frozen=True)
class SeasonLine:
    """The player's totals in one season (None: every match, the all-time line)."""

    season: Season | None
    row: PlayerRow


@dataclasses.dataclass(frozen=True)
class MatchLine:
    """One match as a list shows it: who played with and against whom, and how it ended."""

    match_id: int
    day: date
    sides: tuple[str, ...]  # each competitor's players, "Ann & Cy"
    totals: tuple[Fraction, ...]  # each competitor's total, in the same order
    winner: str | None  # the winning competitor's players
    finished: bool
    placed: bool  # the owner chose its season
    own: int | None = None  # the index in `sides` of the player the list is about
    won: bool = False  # that player was on the winning side


def match_lines(matches: Sequence[Match], player: Player | None = None) -> list[MatchLine]:
    """Lines for `matches`, newest first; from `player`'s point of view when given."""
    days = played_on(matches)
    lines = []
    for match in matches:
        done = outcome(match, view_of(match).state)  # the stored progress: no replay
        names = names_of(match)
        competitors = list(done.members)
        sides = tuple(" & ".join(names[str(p)] for p in done.members[c]) for c in competitors)
        own = None if player is None else done.competitor_of(player.id)
        winner = done.winner if done.state.finished else None
        lines.append(
            MatchLine(
                match_id=match.id,
                day=days[match.id],
                sides=sides,
                totals=tuple(done.state.total(c) for c in competitors),
                winner=None if winner is None else sides[competitors.index(winner)],
                finished=done.state.finished,
                placed=match.season_id is not None,
                own=None if own is None else competitors.index(own),
                won=own is not None and own == winner,
            )
        )
    return sorted(lines, key=lambda line: (line.day, line.match_id), reverse=True)


@dataclasses.dataclass(frozen=True)
class BestHand:
    """One of the player's highest-scoring hands: their side's score and its melds."""

    match_id: int
    number: int
    day: date
    score: int
    side: str  # the players of the side, "Ann & Cy"
    melds: tuple[str, ...]  # as entered: card notation, one string per meld
    kozi: str | None


def best_hands(player: Player, matches: Sequence[Match], limit: int = 5) -> list[BestHand]:
    """The `limit` live hands where the player's side scored most (earlier ones first on
    equal scores), from the stored results."""
    days = played_on(matches)
    found = []
    for match in matches:
        names = {s.player_id: s.player.name for s in match.seats}
        for hand in match.hands:
            if hand.deleted:
                continue
            stored = HandEntry.from_json(hand.entry)
            for index, side in enumerate(ScoredHand.from_json(hand.result).teams):
                if player.id not in side.players:
                    continue
                melds = stored.teams[index].melds if index < len(stored.teams) else ()
                found.append(
                    BestHand(
                        match_id=match.id,
                        number=hand.number,
                        day=days[match.id],
                        score=side.score,
                        side=" & ".join(names[p] for p in side.players),
                        melds=melds,
                        kozi=None if stored.kozi is None else stored.kozi.value,
                    )
                )
    found.sort(key=lambda h: (-h.score, h.day, h.match_id, h.number))
    return found[:limit]


def trend(rating: Rating, span: int = TREND_SPAN) -> float:
    """How far the rating moved over the last `span` rated matches (from the start, 0, when
    there were fewer)."""
    history = [0.0, *(p.ordinal for p in rating.history)]
    return history[-1] - history[max(0, len(history) - 1 - span)]


def subject(club: Club, text: str | None) -> tuple[int, ...]:
    """One player ("12") or a team ("12-15") of the club, as written in a head-to-head link."""
    parts = (text or "").strip().split("-")
    ids = [i for i in map(row_id, parts) if i is not None]
    players = set(players_named(club, ids)) if len(ids) <= 3 else set()
    if not text or len(ids) != len(parts) or len(ids) > 3 or not set(ids) <= players:
        raise Invalid(
            _("“%(value)s” names no player or team of this club.", value=(text or "").strip())
        )
    if len(set(ids)) != len(ids):
        raise Invalid(_("A team names each of its players once."))
    return tuple(sorted(ids))
