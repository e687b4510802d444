"""The shape of a hand in an imported file: its entry (what the players entered) and, for a
deleted hand or a version of the history, its result (what the engine made of it then).

Those results are history and are stored as they come, so they must have the shape the
scoreboard, the history page, the JSON API and export.json read: a side's name, score and
lines, the problems, and only seated players; every entry the shape the hand service
stores. Player ids are the file's (services.club_import maps them to the new ones).
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from scorekeeper import referee
from scorekeeper.referee import (
    MAX_CARD_TEXT,
    MAX_FAILED_OPENINGS,
    MAX_HAND_POINTS,
    MAX_MELDS,
    MAX_NAME,
    MAX_TEAMS,
)
from scorekeeper.services.errors import Invalid
from scorekeeper.services.import_fields import (
    need_between,
    need_flag,
    need_list,
    need_object,
    need_text,
)

#: A score or a line of one hand: far above what any house rule gives, far below BIGINT.
MOST_POINTS = 10**9
#: A score line's label or a problem, as the engine words them (a sentence or two).
MOST_WORDS = 1000

_ENTRY_FIELDS = frozenset({"kozi", "teams"})
_SIDE_FIELDS = frozenset(
    {
        "name",
        "players",
        "melds",
        "hands",
        "hand_points",
        "went_out",
        "took_biribaki",
        "opening",
        "opening_melds",
        "cut",
        "failed_openings",
        "biribaki_unplayed",
    }
)
_CUTS = (None, "exact", "off_by_one")


def check_entry(value: Any, where: str, seats: set[int], teams: set[str] | None) -> None:
    """A hand's entry as the hand service stores it: the kózi, and each side with its name,
    players and what it laid. `seats` are the match's players (their ids in the file);
    `teams` its team names where teams are fixed (None in the share formats)."""
    entry = need_object(value, where)
    for key in entry:
        if key not in _ENTRY_FIELDS:
            raise Invalid(_("%(where)s is not a field of a hand.", where=f"{where}.{key}"))
    try:
        referee.read_suit(entry.get("kozi"))
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
            if key not in _SIDE_FIELDS:
                raise Invalid(_("%(where)s is not a field of a side.", where=f"{at}.{key}"))
        _side_name(side, at, teams)
        _check_side(side, at)
    _players(sides, where, seats, required=True)


def check_result(value: Any, where: str, seats: set[int], teams: set[str] | None) -> None:
    """A stored result: whether the hand was legal, its problems, and each side's name,
    score and score lines (the rest of what the engine said is kept as it is)."""
    result = need_object(value, where)
    need_flag(result.get("legal"), f"{where}.legal")
    _texts(result.get("problems"), f"{where}.problems")
    sides = need_list(result.get("teams"), f"{where}.teams")
    if len(sides) > MAX_TEAMS:
        raise Invalid(
            _(
                "%(where)s may list at most %(most)d sides.",
                where=f"{where}.teams",
                most=MAX_TEAMS,
            )
        )
    for index, item in enumerate(sides):
        at = f"{where}.teams[{index}]"
        side = need_object(item, at)
        _side_name(side, at, None)
        if side.get("team") is not None:
            _side_name({"name": side["team"]}, f"{at}.team", teams)
        need_between(side.get("score"), f"{at}.score", -MOST_POINTS, MOST_POINTS)
        for number, line in enumerate(need_list(side.get("lines"), f"{at}.lines")):
            row = need_object(line, f"{at}.lines[{number}]")
            need_text(row.get("label"), f"{at}.lines[{number}].label", MOST_WORDS, lines=True)
            need_between(
                row.get("points"), f"{at}.lines[{number}].points", -MOST_POINTS, MOST_POINTS
            )
        if "problems" in side:
            _texts(side["problems"], f"{at}.problems")
        for key in ("opening_required", "opening_points"):
            if side.get(key) is not None:
                need_between(side[key], f"{at}.{key}", -MOST_POINTS, MOST_POINTS)
        if side.get("opening") is not None:
            need_text(side["opening"], f"{at}.opening", MOST_WORDS, lines=True)
        melds = need_list(side.get("melds", []), f"{at}.melds")
        if len(melds) > MAX_MELDS:
            raise Invalid(_too_many_melds(f"{at}.melds"))
        for number, meld in enumerate(melds):
            need_object(meld, f"{at}.melds[{number}]")
    _players(sides, where, seats, required=False)


def _side_name(side: dict[str, Any], where: str, teams: set[str] | None) -> None:
    name = need_text(side.get("name"), f"{where}.name", MAX_NAME)
    if teams is not None and name not in teams:
        raise Invalid(_("%(where)s names no team of its match.", where=f"{where}.name"))


def _check_side(side: dict[str, Any], at: str) -> None:
    melds = need_list(side.get("melds", []), f"{at}.melds")
    if len(melds) > MAX_MELDS:
        raise Invalid(_too_many_melds(f"{at}.melds"))
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


def _texts(value: Any, where: str) -> None:
    for index, text in enumerate(need_list(value, where)):
        need_text(text, f"{where}[{index}]", MOST_WORDS, lines=True)


def _too_many_melds(where: str) -> str:
    return _("%(where)s must be a list of at most %(most)d melds.", where=where, most=MAX_MELDS)


def _players(sides: list[Any], where: str, seats: set[int], required: bool) -> None:
    """Every side's players are seated in the match, and no one plays on two sides."""
    seen: set[int] = set()
    for side in sides:
        if "players" not in side and not required:
            continue
        ids = side.get("players")
        if (
            not isinstance(ids, list)
            or not ids
            or any(isinstance(p, bool) or not isinstance(p, int) or p not in seats for p in ids)
        ):
            raise Invalid(_("%(where)s names a player with no seat in its match.", where=where))
        if seen & set(ids) or len(set(ids)) != len(ids):
            raise Invalid(_("%(where)s names a player twice; each plays on one side.", where=where))
        seen.update(ids)
