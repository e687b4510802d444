"""Where many matches stand, read together: a tournament's ranking reads every table's
match of every round, and loading each match with its teams and seats as objects (and
drawing its full view, players' names and all) cost milliseconds a table. Here each match's
stored progress (match.progress) and its rules are read as columns in one query, and the
rules engine (`state_after`) says where each stands, as the match's own view would.

Each worker keeps the states it worked out, by everything they follow from: the match (its
id and when it was made, so an id used again is another match), its rules, its first dealer
and its stored progress. A match's seats and teams are fixed when it is made, so they are
read (two more queries) only for the matches not kept: after a hand, the one that moved.
A big screen or a ranking polled through a tournament works out one table again, not all.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Collection, Sequence
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.match import progress
from scorekeeper.match.setup import setup_from, variant_for
from scorekeeper.models import Match, MatchTeam, Seat
from scorekeeper.rules.match import MatchState

#: How many states a worker keeps: a long tournament's tables, a few times over.
KEPT = 4096
_kept: OrderedDict[str, MatchState] = OrderedDict()
_kept_lock = threading.Lock()


def states_of(match_ids: Collection[int]) -> dict[int, MatchState]:
    """Each match's state by id (its competitors' standings in the setup's order: a fixed
    team format's teams in their order); ids of no match are left out."""
    if not match_ids:
        return {}
    rows = db.session.execute(
        sa.select(
            Match.id,
            Match.created_at,
            Match.variant_id,
            # As the stored text: the key is that text, and only a match not kept needs
            # its options (a kilobyte of JSON a match) read into objects.
            sa.cast(Match.options, sa.Text).label("options"),
            sa.cast(Match.house_rules, sa.Text).label("house_rules"),
            Match.format,
            Match.first_dealer,
            sa.cast(Match.progress, sa.Text).label("progress"),
        ).where(Match.id.in_(sorted(set(match_ids))))
    ).all()
    keys = {row.id: _key(row) for row in rows}
    states: dict[int, MatchState] = {}
    with _kept_lock:
        for match_id, key in keys.items():
            if key in _kept:
                states[match_id] = _kept[key]
                _kept.move_to_end(key)
    missing = [row for row in rows if row.id not in states]
    if not missing:
        return states
    seats, teams = _seats_and_teams([row.id for row in missing])
    for row in missing:
        setup = setup_from(
            variant_for(row.variant_id, _loaded(row.options), _loaded(row.house_rules)),
            row.format,
            seats[row.id],
            teams[row.id],
            row.first_dealer,
        )
        now = progress.from_json(_loaded(row.progress), setup)
        if now is None:  # not counted yet (an old match): counted from its hands, as a save would
            match = db.session.get(Match, row.id)
            assert match is not None
            now = progress.counted(match, setup)
        else:
            with _kept_lock:  # only a stored progress: a count is not kept with its key
                _kept[keys[row.id]] = now.state(setup)
                while len(_kept) > KEPT:
                    _kept.popitem(last=False)
        states[row.id] = now.state(setup)
    return states


def _key(row: Any) -> str:
    return "\x1f".join(
        str(value)
        for value in (
            row.id,
            row.created_at,
            row.variant_id,
            row.options,
            row.house_rules,
            row.format,
            row.first_dealer,
            row.progress,
        )
    )


def _loaded(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _seats_and_teams(
    ids: Sequence[int],
) -> tuple[dict[int, list[tuple[int, int | None]]], dict[int, list[tuple[int, str]]]]:
    """Each match's seats (player, team) in seat order and teams (id, name) in order."""
    seats: dict[int, list[tuple[int, int | None]]] = defaultdict(list)
    for match_id, player_id, team_id in db.session.execute(
        sa.select(Seat.match_id, Seat.player_id, Seat.team_id)
        .where(Seat.match_id.in_(ids))
        .order_by(Seat.match_id, Seat.position)
    ):
        seats[match_id].append((player_id, team_id))
    teams: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for match_id, team_id, name in db.session.execute(
        sa.select(MatchTeam.match_id, MatchTeam.id, MatchTeam.name)
        .where(MatchTeam.match_id.in_(ids))
        .order_by(MatchTeam.match_id, MatchTeam.position)
    ):
        teams[match_id].append((team_id, name))
    return seats, teams
