"""The reference replays the tests compare the record pages with: leaderboard rows,
partnerships, head-to-head records, season lines, season ids, the order of matches and the
teams of a club, summed in plain Python from every stored hand of the matches given.

The app reads the same from its derived tables (records.leaderboard, pair_records,
player_records, match_list); tests/web/test_stats.py checks that the two agree after any
history of hands. These replays are deliberately the slow, obvious reading, which is why they
live here and not in the app. Nothing here scores a hand: results, totals and winners are
the stored hand results and the rules engine's match state, read as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import NamedTuple

from flask_babel import gettext as _

from scorekeeper.errors import Invalid
from scorekeeper.match import HandEntry, ScoredHand, format_of, score_entry, setup_of
from scorekeeper.models import Club, Hand, Match, Player
from scorekeeper.records.lines import SeasonLine, played_on
from scorekeeper.records.match_summary import summarize
from scorekeeper.records.seasons import first_hand_times, seasons_of
from scorekeeper.records.standings import HeadToHead, Outcome, PairRecord, PlayerRow, finished
from scorekeeper.rules.formats import Credit
from scorekeeper.rules.match import MatchState, match_state


def live_hands(match: Match) -> list[Hand]:
    """The match's live hands, in order."""
    return sorted((h for h in match.hands if not h.deleted), key=lambda h: h.number)


def state_of(match: Match, upto: int | None = None) -> MatchState:
    """Where the match stands after its live hands (or those numbered below `upto`): every
    stored result counted again in order, the plain replay the app's stored progress and
    read model are checked against."""
    hands = [h for h in live_hands(match) if upto is None or h.number < upto]
    return match_state(setup_of(match), [ScoredHand.from_json(h.result).played() for h in hands])


def scored_afresh(match: Match, hand: Hand) -> ScoredHand:
    """The hand's entry scored again against the totals a full replay gives before it."""
    totals = {s.name: s.total for s in state_of(match, upto=hand.number).standings}
    return score_entry(setup_of(match), HandEntry.from_json(hand.entry), totals)


def player_rows(matches: Iterable[Match]) -> list[PlayerRow]:
    """Every player's totals over the finished ones of `matches`, unsorted and unranked
    (records.leaderboard.stored_rows reads the same sums from the database)."""
    rows: dict[int, PlayerRow] = {}
    for match in matches:
        summary = summarize(match)
        if not summary.finished:
            continue
        for line in summary.lines:
            row = rows.setdefault(line.player_id, PlayerRow(line.player_id, line.name))
            row.matches += 1
            row.wins += line.won
            row.hands += line.hands
            row.points += line.points
            row.side_points += line.side_points
            row.biribas_clean += line.biribas_clean
            row.biribas_dirty += line.biribas_dirty
            row.full_runs += line.full_runs
            row.went_out += line.went_out
    return list(rows.values())


def partnerships(matches: Iterable[Match]) -> list[PairRecord]:
    """Every pair who played on one side in the finished ones of `matches`; most matches
    together first, then most hands, then by names (as pair_records.partnerships)."""
    pairs: dict[tuple[int, int], PairRecord] = {}

    def record(a: int, b: int, names: dict[int, str]) -> PairRecord:
        key = (a, b) if a < b else (b, a)
        return pairs.setdefault(key, PairRecord(key, (names[key[0]], names[key[1]])))

    for done in finished(matches):
        match = done.match
        names = {s.player_id: s.player.name for s in match.seats}
        if format_of(match).credit is Credit.TEAM:
            for team, members in done.members.items():
                for a, b in combinations(members, 2):
                    pair = record(a, b, names)
                    pair.matches += 1
                    pair.wins += team == done.winner
        for hand in live_hands(match):
            for side in hand.result["teams"]:
                for a, b in combinations(side["players"], 2):
                    pair = record(a, b, names)
                    pair.hands += 1
                    pair.side_points += side["score"]
    return sorted(
        pairs.values(), key=lambda p: (-p.matches, -p.hands, p.names[0].casefold(), p.players)
    )


def head_to_head(matches: Iterable[Match], a: Sequence[int], b: Sequence[int]) -> HeadToHead:
    """The record of `a` against `b`, each one player or the players of one team: a match
    counts when every player of `a` was on one competitor (team, or themselves in the share
    formats) and every player of `b` on another."""
    if not a or not b or set(a) & set(b):
        raise Invalid(_("Name two different players or teams to compare."))
    result = HeadToHead(tuple(a), tuple(b))
    for done in finished(matches):
        side_a = _holding(done, a)
        side_b = _holding(done, b)
        if side_a is None or side_b is None or side_a == side_b:
            continue
        result.matches += 1
        result.wins_a += done.winner == side_a
        result.wins_b += done.winner == side_b
        total_a, total_b = done.state.total(side_a), done.state.total(side_b)
        result.ahead_a += total_a > total_b
        result.ahead_b += total_b > total_a
    return result


def _holding(done: Outcome, players: Sequence[int]) -> str | None:
    """The competitor every one of `players` belongs to, if there is one."""
    return next((c for c, ps in done.members.items() if set(players) <= set(ps)), None)


def season_ids(club: Club, matches: Sequence[Match]) -> dict[int, int | None]:
    """The season each match falls in, by match id (None: in no season), by the rule of
    records.seasons.season_of (match_list.season_ids reads it from the derived tables)."""
    seasons = seasons_of(club)
    times = first_hand_times(matches)
    found: dict[int, int | None] = {}
    for match in matches:
        if match.season_id is not None:
            found[match.id] = match.season_id
            continue
        when = times.get(match.id)
        day = None if when is None else when.date()
        found[match.id] = next(
            (s.id for s in seasons if day is not None and s.starts_on <= day <= s.ends_on), None
        )
    return found


def newest_first(matches: Sequence[Match]) -> list[Match]:
    """`matches` by the day they were played, newest first, then by id (as match_list)."""
    days = played_on(matches)
    return sorted(matches, key=lambda m: (days[m.id], m.id), reverse=True)


def seated(player: Player, matches: Iterable[Match]) -> list[Match]:
    """The matches `player` has a seat in."""
    return [m for m in matches if any(s.player_id == player.id for s in m.seats)]


def season_lines(club: Club, player: Player, matches: Sequence[Match]) -> list[SeasonLine]:
    """The player's line in each season they finished a match in, latest season first, then
    the all-time line (as player_records.season_lines). `matches` are the player's matches."""
    where = season_ids(club, matches)
    lines = []
    for season in reversed(seasons_of(club)):
        row = _row_of(player, [m for m in matches if where[m.id] == season.id])
        if row is not None:
            lines.append(SeasonLine(season, row))
    everything = _row_of(player, matches)
    if everything is not None:
        lines.append(SeasonLine(None, everything))
    return lines


def _row_of(player: Player, matches: Sequence[Match]) -> PlayerRow | None:
    return next((r for r in player_rows(matches) if r.player_id == player.id), None)


class Team(NamedTuple):
    """Players who played together as one competitor, with their names."""

    players: tuple[int, ...]
    name: str


def teams_of(matches: Iterable[Match]) -> list[Team]:
    """Every team of two or more that finished a match, by name."""
    teams: dict[tuple[int, ...], str] = {}
    for done in finished(matches):
        names = {s.player_id: s.player.name for s in done.match.seats}
        for members in done.members.values():
            if len(members) > 1:
                key = tuple(sorted(members))
                teams[key] = " & ".join(sorted((names[p] for p in key), key=str.casefold))
    return sorted((Team(k, n) for k, n in teams.items()), key=lambda t: t.name.casefold())
