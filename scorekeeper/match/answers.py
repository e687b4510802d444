"""A match and its hands as the JSON API gives them (`GET /api/v1/matches/<id>`, a hand's
answer): the standings from the match's read model, each hand's result from its codec."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.match.scored import ScoredHand
from scorekeeper.match.view import view_of
from scorekeeper.models import Hand, Match, as_utc
from scorekeeper.rules.points import points_json


def match_json(match: Match) -> dict[str, Any]:
    view = view_of(match)
    variant = view.variant
    live = db.session.scalars(
        sa.select(Hand)
        .where(Hand.match_id == match.id, Hand.deleted.is_(False))
        .order_by(Hand.number)
    )
    return {
        "id": match.id,
        "club": match.club_id,
        "variant": match.variant_id,
        "options": match.options,
        "format": match.format,
        "target": variant.target,
        "target_rule": variant.target_rule.value,
        # A fixed number of hands (a tournament's table), or None: played to the target.
        "deals": variant.deals,
        "teams": [
            {
                "name": s.name,
                "score": points_json(s.total),
                "opening_required": s.opening.least_meeting(5),
                "opening": s.opening.text,
            }
            for s in view.standings
        ],
        "hands": [hand_json(h) for h in live],
        "next_dealer": view.next_dealer,
        "finished": view.finished,
        "winner": view.winner,
        "tied_leaders": list(view.tied),
    }


def hand_json(hand: Hand) -> dict[str, Any]:
    result = ScoredHand.from_json(hand.result)
    return {
        "number": hand.number,
        "version": hand.version,
        # A retried save can meet its hand after someone deleted it; say so plainly.
        "deleted": hand.deleted,
        "kozi": hand.entry.get("kozi"),
        "teams": result.teams_json(),
        "legal": result.legal,
        "problems": list(result.problems),
        "accepted_reason": hand.accepted_reason,
        "entry": hand.entry,
        "updated_at": as_utc(hand.updated_at).isoformat(),
    }
