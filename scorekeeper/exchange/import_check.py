"""An imported club file checked whole before anything of it is stored (issue 11): every
string, every number, every part's shape. What passes is what the pages can show; what
fails is one `Invalid` naming the first thing wrong, by its JSON path in the file.

Only the engine's verdict on the live hands is left for the import itself (it needs the
match as stored: exchange.club_import scores them again, in the same transaction).
"""

from __future__ import annotations

from typing import Any

from scorekeeper.errors import Invalid
from scorekeeper.exchange.club_export import FORMAT, VERSION
from scorekeeper.exchange.import_match import Entries, check_match
from scorekeeper.models import Role
from scorekeeper.records import MAX_MINIMUM
from scorekeeper.values import (
    check_values,
    need_between,
    need_day,
    need_list,
    need_number,
    need_object,
    need_text,
    need_time,
)
from scorekeeper.web.gettext import gettext as _

#: As the database stores them (models.User, Player, Club, Season).
MAX_USERNAME = 80
MAX_PLAYER = 80
MAX_CLUB = 120
MAX_SEASON = 80


def check_club_file(data: Any) -> dict[int, Entries]:
    """Raise Invalid naming the first thing wrong in a club export document `data`; else
    every match's entries, read (by the index of the match in the file)."""
    doc = need_object(data, "the file")
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise Invalid(
            _(
                "This file is not a Scorekeeper club export (version %(version)d).",
                version=VERSION,
            )
        )
    check_values(doc)
    about = need_object(doc.get("club"), "club")
    need_text(about.get("name"), "club.name", MAX_CLUB)
    need_time(about.get("created_at"), "club.created_at")
    need_between(about.get("min_matches_ranked"), "club.min_matches_ranked", 0, MAX_MINIMUM)
    _members(doc.get("members", []))
    players = _players(doc.get("players"))
    seasons = _seasons(doc.get("seasons", []))
    return {
        index: check_match(
            need_object(raw, f"matches[{index}]"), f"matches[{index}]", players, seasons
        )
        for index, raw in enumerate(need_list(doc.get("matches"), "matches"))
    }


def _members(raw: Any) -> None:
    for index, item in enumerate(need_list(raw, "members")):
        where = f"members[{index}]"
        member = need_object(item, where)
        need_text(member.get("username"), f"{where}.username", MAX_USERNAME)
        if member.get("role") not in {role.value for role in Role}:
            raise Invalid(_("%(where)s must be viewer, scorer or owner.", where=f"{where}.role"))


def _players(raw: Any) -> dict[int, str]:
    """The players' names by their ids in the file."""
    keys: dict[int, str] = {}
    names: set[str] = set()
    for index, item in enumerate(need_list(raw, "players")):
        where = f"players[{index}]"
        entry = need_object(item, where)
        key = need_number(entry.get("id"), f"{where}.id")
        name = need_text(entry.get("name"), f"{where}.name", MAX_PLAYER)
        if key in keys or name.casefold() in names:
            raise Invalid(_("%(where)s names a player twice.", where=where))
        keys[key] = name
        names.add(name.casefold())
    return keys


def _seasons(raw: Any) -> set[int]:
    """The seasons' ids; exchange.club_import checks how their days fall."""
    keys: set[int] = set()
    for index, item in enumerate(need_list(raw, "seasons")):
        where = f"seasons[{index}]"
        entry = need_object(item, where)
        need_text(entry.get("name"), f"{where}.name", MAX_SEASON)
        need_day(entry.get("starts_on"), f"{where}.starts_on")
        need_day(entry.get("ends_on"), f"{where}.ends_on")
        keys.add(need_number(entry.get("id"), f"{where}.id"))
    return keys
