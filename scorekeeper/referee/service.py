"""The referee use cases behind JSON API v1 and the command line: read a request's JSON into
cards and options, ask the rules engine, and give its answer back as JSON-ready data.

Every way a request can be wrong raises `InputError` (or another ValueError from the engine)
whose message names the offending value; the API turns those into 400 answers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from scorekeeper.match import (
    MAX_OPENING,
    read_cards,
    read_points,
    read_suit,
    read_teams,
    team_hands,
    verdict_json,
)
from scorekeeper.quote import short, show
from scorekeeper.rules.cards import Suit
from scorekeeper.rules.formats import (
    FORMATS,
    MOST_CARDS,
    TableFormat,
    find_format,
)
from scorekeeper.rules.opening import Requirement, requirement
from scorekeeper.rules.presets import PRESETS, find_variant
from scorekeeper.rules.scoring import (
    HandScore,
    kozi_missing,
    meld_answer,
    score_hand,
)
from scorekeeper.rules.variants import Variant, options_from_json
from scorekeeper.web.gettext import gettext as _


class InputError(ValueError):
    """A request the referee cannot read; the message names what is wrong."""


def list_variants() -> dict[str, Any]:
    return {
        "variants": [
            {
                "id": v.id,
                "name": v.name,
                "options": v.options(),
                "assumed": sorted(v.assumed),
                "sources": list(v.sources),
            }
            for v in PRESETS.values()
        ],
        "formats": [
            {"id": f.id, "name": f.name, "decks": f.decks, "jokers": f.jokers}
            for f in FORMATS.values()
        ],
    }


def check_meld(data: Any) -> dict[str, Any]:
    """``POST /api/v1/melds/check``: the verdict on one meld."""
    body = _object(data, _("The request body"))
    variant = read_variant(body)
    kozi = read_suit(body.get("kozi"))
    table_format = None if body.get("format") is None else read_format(body.get("format"))
    most = MOST_CARDS if table_format is None else table_format.cards
    cards = read_cards(body.get("cards"), "'cards'", required=True, allow_empty=False, most=most)
    return meld_answer(cards, variant, kozi, table_format)


def score_hand_request(data: Any) -> dict[str, Any]:
    """``POST /api/v1/hands/score``: every team's itemised score and every problem."""
    body = _object(data, _("The request body"))
    variant = read_variant(body)
    kozi = read_suit(body.get("kozi"))
    table_format = read_format(body.get("format") or "4p")
    sides, befores = read_teams(body.get("teams"), table_format.cards)
    teams = team_hands(sides, befores, table_format)
    require_kozi(variant, kozi)
    return hand_json(score_hand(variant, teams, kozi, table_format))


# --- reading ---------------------------------------------------------------------------------


def read_variant(body: Mapping[str, Any]) -> Variant:
    variant_id = body.get("variant")
    if not isinstance(variant_id, str) or not variant_id.strip():
        raise InputError(_("'variant' must name a variant, such as \"pagat\""))
    variant = find_variant(variant_id)
    options = options_from_json(body.get("options"))
    return variant.with_options(**options)


def read_opening(value: Any, variant: Variant) -> Requirement | None:
    """The opening a meld is checked against: ``{"points": N}``, a minimum of N card points,
    or ``{"score": N}``, the row of the variant's opening table for a team at score N; null
    for none. A score under a variant without a table asks for nothing to check."""
    if value is None:
        return None
    body = _object(value, "'opening'")
    if set(body) not in ({"points"}, {"score"}):
        raise InputError(
            _(
                "'opening' must be {\"points\": N} (a minimum of card points) or "
                '{"score": N} (the team\'s score before the hand), not %(value)s',
                value=short(value),
            )
        )
    ((kind, given),) = body.items()  # one of the two, as checked above
    if kind == "points":
        points = given
        whole = isinstance(points, int) and not isinstance(points, bool)
        if not whole or not 0 <= points <= MAX_OPENING:
            raise InputError(
                _(
                    "'opening.points' must be a whole number from 0 to %(most)d, not %(value)s",
                    most=MAX_OPENING,
                    value=short(points),
                )
            )
        return Requirement(points)
    score = read_points(given, "'opening.score'")
    if variant.opening_table is None:
        return None
    return requirement(variant.opening_table, score, variant.opening_comparison)


def read_format(value: Any) -> TableFormat:
    if not isinstance(value, str):
        raise InputError(_("'format' must name a table format, not %(value)s", value=show(value)))
    return find_format(value)


def require_kozi(variant: Variant, kozi: Suit | None) -> None:
    """Refuse a hand without a kózi where the variant deals one every hand."""
    missing = kozi_missing(variant, kozi)
    if missing:
        raise InputError(missing)


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(_("%(what)s must be a JSON object", what=what))
    return value


# --- answering -------------------------------------------------------------------------------


def hand_json(hand: HandScore) -> dict[str, Any]:
    """A scored hand as `POST /api/v1/hands/score` answers (no match: no players)."""
    return {
        "legal": hand.legal,
        "problems": list(hand.problems),
        "teams": [
            {
                "name": team.name,
                "score": team.score,
                "lines": [{"label": line.label, "points": line.points} for line in team.lines],
                "problems": list(team.problems),
                "opening_required": team.opening_required,
                "opening": team.opening_text,
                "opening_points": team.opening_points,
                "melds": [verdict_json(v) for v in team.melds],
            }
            for team in hand.teams
        ],
    }
