"""One match of an imported club file checked whole: its rules and house rules (the same
option checks as the new-match form), its table, its hands and every version of them.
Player and season ids are the file's; see exchange.import_check."""

from __future__ import annotations

import json
from typing import Any

from scorekeeper.errors import Invalid
from scorekeeper.exchange.import_hands import check_entry
from scorekeeper.match import (
    MAX_HANDS,
    MAX_NAME,
    MAX_REASON,
    MAX_TEAMS,
    EntryRefused,
    HandEntry,
    Seating,
    check_result,
    read_hand,
)
from scorekeeper.numbers import short
from scorekeeper.rules.formats import Credit, TableFormat, find_format
from scorekeeper.rules.presets import find_variant
from scorekeeper.values import (
    MOST_NUMBER,
    need_between,
    need_flag,
    need_list,
    need_number,
    need_object,
    need_text,
    need_time,
    optional_text,
)
from scorekeeper.web.gettext import gettext as _

#: Far more corrections than any hand gets, and far from the 32-bit counter's end.
MOST_VERSION = 1_000_000
ACTIONS = ("created", "edited", "deleted")
MAX_KEY = 100  # an idempotency key, as models.Hand stores it
MAX_USERNAME = 80

#: A match's live hands' entries as read, by their index in the file's list of hands.
Entries = dict[int, HandEntry]


def check_match(
    raw: dict[str, Any], where: str, players: dict[int, str], seasons: set[int]
) -> Entries:
    """Check the match whole; returns its live hands' entries, read (by the match's one
    entry reader, as the API reads a hand) with the file's player ids."""
    table = _rules(raw, where)
    seating = _table(raw, where, players, table)
    season = raw.get("season")
    if season is not None and not (_index(season, MOST_NUMBER + 1) and season in seasons):
        raise Invalid(
            _("%(where)s names a season the file does not have.", where=f"{where}.season")
        )
    need_time(raw.get("created_at"), f"{where}.created_at")
    _username(raw.get("created_by"), f"{where}.created_by")
    entries: Entries = {}
    numbers = _hands(raw.get("hands"), where, seating, entries)
    _versions(raw.get("versions", []), where, numbers, seating)
    return entries


def _rules(raw: dict[str, Any], where: str) -> TableFormat:
    variant_id = need_text(raw.get("variant"), f"{where}.variant", 40)
    options = need_object(raw.get("options"), f"{where}.options")
    house_rules = need_object(raw.get("house_rules", {}), f"{where}.house_rules")
    try:
        preset = find_variant(variant_id)
        variant = preset.with_options(**options)
        table = find_format(need_text(raw.get("format"), f"{where}.format", 20))
    except ValueError as error:
        raise Invalid(_("%(where)s: %(problem)s", where=where, problem=str(error))) from None
    try:
        chosen = preset.with_options(**house_rules).options()
    except ValueError as error:
        raise Invalid(
            _("%(where)s: %(problem)s", where=f"{where}.house_rules", problem=str(error))
        ) from None
    # The house rules are the options the players changed: each must say what the match's
    # options say, or the rules page would show rules the scores do not follow.
    kept = variant.options()
    for name in house_rules:
        if chosen[name] != kept[name]:
            raise Invalid(
                _(
                    "%(where)s is %(value)s, but the match's options say %(option)s.",
                    where=f"{where}.house_rules.{name}",
                    value=short(json.dumps(chosen[name], ensure_ascii=False)),
                    option=short(json.dumps(kept[name], ensure_ascii=False)),
                )
            )
    return table


def _table(raw: dict[str, Any], where: str, players: dict[int, str], table: TableFormat) -> Seating:
    """Who sits where at the match's table (with the file's player ids)."""
    names: list[str] = []
    teams = need_list(raw.get("teams", []), f"{where}.teams")
    if len(teams) > MAX_TEAMS:
        raise Invalid(
            _("%(where)s may list at most %(most)d teams.", where=f"{where}.teams", most=MAX_TEAMS)
        )
    for index, item in enumerate(teams):
        at = f"{where}.teams[{index}]"
        name = need_text(need_object(item, at).get("name"), f"{at}.name", MAX_NAME)
        if name in names:
            raise Invalid(_("%(where)s repeats a team's name.", where=f"{at}.name"))
        names.append(name)
    fixed = table.credit is Credit.TEAM
    seated: list[int] = []
    sizes = [0] * len(names)
    members: list[list[int]] = [[] for _name in names]
    seats = need_list(raw.get("seats"), f"{where}.seats")
    dealer = need_number(raw.get("first_dealer", 0), f"{where}.first_dealer")
    wrong = _(
        "%(where)s does not seat its players as its format %(format)s needs.",
        where=where,
        format=table.id,
    )
    if len(seats) > MAX_TEAMS:
        raise Invalid(wrong)
    for position, item in enumerate(seats):
        at = f"{where}.seats[{position}]"
        seat = need_object(item, at)
        key = need_number(seat.get("player"), f"{at}.player")
        if key not in players or key in seated:
            raise Invalid(
                _(
                    "%(where)s names a player the file does not have, or one already seated.",
                    where=at,
                )
            )
        team = seat.get("team")
        if fixed != (team is not None) or (team is not None and not _index(team, len(names))):
            raise Invalid(_("%(where)s names a team the match does not have.", where=f"{at}.team"))
        seated.append(key)
        if team is not None:
            sizes[team] += 1
            members[team].append(key)
    fits = tuple(sizes) in table.shapes if fixed else not names
    if not fits or len(seats) not in table.player_counts or not dealer < max(len(seated), 1):
        raise Invalid(wrong)
    teams_seated = [(name, tuple(members[i])) for i, name in enumerate(names)]
    return Seating.of(table, teams_seated, [(key, players[key]) for key in seated])


def live_count(hands: list[Any]) -> int:
    """How many of a file's hands are live: deleted ones are kept as they are, never scored."""
    return sum(1 for item in hands if not (isinstance(item, dict) and item.get("deleted") is True))


def _hands(raw: Any, where: str, seating: Seating, entries: Entries) -> set[int]:
    """Check the hands, keeping their entries as read; returns their numbers."""
    seats, teams = _seats_and_teams(seating)
    numbers: set[int] = set()
    keys: set[str] = set()
    hands = need_list(raw, f"{where}.hands")
    live = live_count(hands)
    if live > MAX_HANDS:  # before any is read: each is checked, and scored at the import
        raise Invalid(
            _(
                "%(where)s has %(count)d hands; a match holds at most %(most)d.",
                where=where,
                count=live,
                most=MAX_HANDS,
            )
        )
    for index, item in enumerate(hands):
        at = f"{where}.hands[{index}]"
        hand = need_object(item, at)
        number = need_between(hand.get("number"), f"{at}.number", 1, MOST_NUMBER)
        key = optional_text(hand.get("idempotency_key"), f"{at}.idempotency_key", MAX_KEY)
        deleted = need_flag(hand.get("deleted", False), f"{at}.deleted")
        if number in numbers or (key is not None and key in keys):
            raise Invalid(_("%(where)s repeats a hand number or key of its match.", where=at))
        numbers.add(number)
        keys.update([key] if key else [])
        need_between(hand.get("version", 1), f"{at}.version", 1, MOST_VERSION)
        if deleted:  # history, kept as it stands: its shape checked, its cards not read
            check_entry(hand.get("entry"), f"{at}.entry", seats, teams)
        else:  # read as the API reads a hand: it is scored at the import
            entries[index] = read_entry(hand.get("entry"), f"{at}.entry", seating)
        if deleted:  # a live hand's result is the engine's, made again at the import
            check_result(hand.get("result"), f"{at}.result", seats, teams)
        optional_text(hand.get("accepted_reason"), f"{at}.accepted_reason", MAX_REASON, True)
        need_time(hand.get("updated_at"), f"{at}.updated_at")
        _username(hand.get("updated_by"), f"{at}.updated_by")
    # Hands are numbered 1, 2, 3 … as they are saved, and a deleted one keeps its number:
    # a gap or a huge number is no match's, and the next hand's number must still fit.
    if numbers != set(range(1, len(hands) + 1)):
        missing = min(set(range(1, len(hands) + 1)) - numbers)
        raise Invalid(
            _(
                "%(where)s must number its %(count)d hands 1 to %(count)d, each once; "
                "there is no hand %(number)d.",
                where=f"{where}.hands",
                count=len(hands),
                number=missing,
            )
        )
    return numbers


def _versions(raw: Any, where: str, numbers: set[int], seating: Seating) -> None:
    seats, teams = _seats_and_teams(seating)
    seen: set[tuple[int, int]] = set()
    for index, item in enumerate(need_list(raw, f"{where}.versions")):
        at = f"{where}.versions[{index}]"
        version = need_object(item, at)
        number = need_between(version.get("number"), f"{at}.number", 1, MOST_NUMBER)
        if number not in numbers:
            raise Invalid(
                _("%(where)s names a hand the match does not have.", where=f"{at}.number")
            )
        step = need_between(version.get("version"), f"{at}.version", 1, MOST_VERSION)
        if (number, step) in seen:
            raise Invalid(_("%(where)s repeats a version of its hand.", where=at))
        seen.add((number, step))
        if version.get("action") not in ACTIONS:
            raise Invalid(_("%(where)s must be created, edited or deleted.", where=f"{at}.action"))
        check_entry(version.get("entry"), f"{at}.entry", seats, teams)  # history, as it stands
        check_result(version.get("result"), f"{at}.result", seats, teams)
        optional_text(version.get("accepted_reason"), f"{at}.accepted_reason", MAX_REASON, True)
        need_time(version.get("created_at"), f"{at}.created_at")
        _username(version.get("user"), f"{at}.user")


def read_entry(value: Any, where: str, seating: Seating) -> HandEntry:
    """A hand's entry in the file, read as the API reads a hand: every problem named, each
    at its place in the file."""
    try:
        return read_hand(value, seating)
    except EntryRefused as refused:
        raise Invalid(
            "\n".join(
                _("%(where)s: %(problem)s", where=where, problem=problem)
                for problem in refused.problems
            )
        ) from None


def _seats_and_teams(seating: Seating) -> tuple[set[int], set[str] | None]:
    """The match's seated players and, where teams are fixed, its team names."""
    teams = {name for name, _players in seating.teams} if seating.fixed else None
    return {pid for pid, _name in seating.seated}, teams


def _index(value: Any, count: int) -> bool:
    """Whether `value` is a whole number from 0 to `count` − 1 (not 1.0, and not true)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count


def _username(value: Any, where: str) -> None:
    """Who did something: a username, or null for someone the file does not name."""
    if value is not None and (not isinstance(value, str) or len(value) > MAX_USERNAME):
        raise Invalid(
            _(
                "%(where)s must be a username of at most %(most)d characters, or null.",
                where=where,
                most=MAX_USERNAME,
            )
        )
