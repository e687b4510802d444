"""The shape of a history entry in an imported file: a deleted hand's, or a version's. They
are history and are stored as they come (an entry today's engine would refuse, cards it
cannot read or no kózi, is kept as it was), so only their shape is checked: the one the
history page, the JSON API and export.json read, with only seated players. A live hand's
entry is read by the match's one entry reader instead, as the API reads a hand; a stored
result is checked by the match's codec (`match.check_result`). Player ids are the file's
(exchange.club_import maps them to the new ones).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.errors import Invalid
from scorekeeper.match import (
    HAND_FIELDS,
    MAX_CARD_TEXT,
    MAX_FAILED_OPENINGS,
    MAX_HAND_POINTS,
    MAX_MELDS,
    MAX_TEAMS,
    SIDE_FIELDS,
    check_seated,
    check_side_name,
    read_suit,
    too_many_melds,
)
from scorekeeper.rules.scoring import Cut
from scorekeeper.values import (
    need_between,
    need_flag,
    need_list,
    need_object,
)
from scorekeeper.web.gettext import gettext as _

#: What a stored cut may say.
_CUTS = (None, *(cut.value for cut in Cut))


def check_entry(value: Any, where: str, seats: set[int], teams: set[str] | None) -> None:
    """A hand's entry as the hand service stores it: the kózi, and each side with its name,
    players and what it laid. `seats` are the match's players (their ids in the file);
    `teams` its team names where teams are fixed (None in the share formats)."""
    entry = need_object(value, where)
    for key in entry:
        if key not in HAND_FIELDS:
            raise Invalid(_("%(where)s is not a field of a hand.", where=f"{where}.{key}"))
    try:
        read_suit(entry.get("kozi"))
    except ValueError:
        raise Invalid(
            _("%(where)s must be S, H, D or C (or ♠ ♥ ♦ ♣), or null.", where=f"{where}.kozi")
        ) from None
    sides = need_list(entry.get("teams"), f"{where}.teams")
    if not 1 <= len(sides) <= MAX_TEAMS:
        raise Invalid(
            _(
                "%(where)s must list the sides of the hand, 1 to %(most)d of them.",
                where=f"{where}.teams",
                most=MAX_TEAMS,
            )
        )
    for index, item in enumerate(sides):
        at = f"{where}.teams[{index}]"
        side = need_object(item, at)
        for key in side:
            if key not in SIDE_FIELDS:
                raise Invalid(_("%(where)s is not a field of a side.", where=f"{at}.{key}"))
        check_side_name(side, at, teams)
        _check_side(side, at)
    check_seated(sides, where, seats, required=True)


def _check_side(side: dict[str, Any], at: str) -> None:
    melds = need_list(side.get("melds", []), f"{at}.melds")
    if len(melds) > MAX_MELDS:
        raise Invalid(too_many_melds(f"{at}.melds"))
    for number, meld in enumerate(melds):
        _cards(meld, f"{at}.melds[{number}]")
    held = side.get("hands")
    if held is not None and (not isinstance(held, list) or len(held) > MAX_TEAMS):
        raise Invalid(
            _(
                "%(where)s must be a list of at most %(most)d hands, each cards as text.",
                where=f"{at}.hands",
                most=MAX_TEAMS,
            )
        )
    for number, cards in enumerate(held or []):
        _cards(cards, f"{at}.hands[{number}]")
    for key in ("opening", "biribaki_unplayed"):
        if side.get(key) is not None:
            _cards(side[key], f"{at}.{key}")
    if side.get("hand_points") is not None:
        need_between(side["hand_points"], f"{at}.hand_points", 0, MAX_HAND_POINTS)
    if side.get("failed_openings") is not None:
        need_between(side["failed_openings"], f"{at}.failed_openings", 0, MAX_FAILED_OPENINGS)
    for key in ("went_out", "took_biribaki"):
        if key in side:
            need_flag(side[key], f"{at}.{key}")
    if side.get("cut") not in _CUTS:
        raise Invalid(_('%(where)s must be "exact", "off_by_one" or null.', where=f"{at}.cut"))
    marked = side.get("opening_melds")
    if marked is not None and (
        not isinstance(marked, list)
        or any(isinstance(i, bool) or not isinstance(i, int) for i in marked)
        or any(not 0 <= i < len(melds) for i in marked)
        or len(set(marked)) != len(marked)
    ):
        raise Invalid(
            _(
                "%(where)s must list some of the side's melds by their index (from 0), each once.",
                where=f"{at}.opening_melds",
            )
        )


def _cards(value: Any, where: str) -> None:
    """Cards as the players wrote them (the engine reads them when it scores)."""
    if not isinstance(value, str) or len(value) > MAX_CARD_TEXT:
        raise Invalid(
            _(
                "%(where)s must be cards as text, at most %(most)d characters.",
                where=where,
                most=MAX_CARD_TEXT,
            )
        )
