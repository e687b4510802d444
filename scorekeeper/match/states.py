"""Where many matches stand, read together: a tournament's ranking reads every table's
match of every round, and loading each match with its teams and seats as objects (and
drawing its full view, players' names and all) cost milliseconds a table. Here each match's
stored progress (match.progress) and what its rules need are read as columns, three queries
for all of them, and the rules engine (`state_after`) says where each stands, as the
match's own view would.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.match import progress
from scorekeeper.match.setup import setup_from, variant_for
from scorekeeper.models import Match, MatchTeam, Seat
from scorekeeper.rules.match import MatchState


def states_of(match_ids: Collection[int]) -> dict[int, MatchState]:
    """Each match's state by id (its competitors' standings in the setup's order: a fixed
    team format's teams in their order); ids of no match are left out."""
    if not match_ids:
        return {}
    ids = sorted(set(match_ids))
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
    states = {}
    for row in db.session.execute(
        sa.select(
            Match.id,
            Match.variant_id,
            Match.options,
            Match.house_rules,
            Match.format,
            Match.first_dealer,
            Match.progress,
        ).where(Match.id.in_(ids))
    ):
        setup = setup_from(
            variant_for(row.variant_id, row.options, row.house_rules),
            row.format,
            seats[row.id],
            teams[row.id],
            row.first_dealer,
        )
        now = progress.from_json(row.progress, setup)
        if now is None:  # not counted yet (an old match): counted from its hands, as a save would
            match = db.session.get(Match, row.id)
            assert match is not None
            now = progress.counted(match, setup)
        states[row.id] = now.state(setup)
    return states
