"""The parts of a checked club file as the import writes them: the club's own fields, its
members' roles, players and seasons, and each match's table, hands and versions, read from
the file with no write (exchange.club_import writes them in steps).

Player, season and user ids are rewritten to the new ones as the parts are made.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import date, datetime
from typing import Any

import sqlalchemy as sa

from scorekeeper.errors import Invalid
from scorekeeper.exchange.import_match import Entries
from scorekeeper.extensions import db
from scorekeeper.match import MAX_REASON, remap_players, tally_of
from scorekeeper.models import Hand, Match, MatchTeam, Role, Seat, User
from scorekeeper.rules.formats import Credit, find_format
from scorekeeper.rules.presets import find_variant
from scorekeeper.values import (
    need_day,
    need_list,
    need_number,
    need_object,
    need_text,
    need_time,
    optional_text,
)
from scorekeeper.web.gettext import gettext as _

#: Usernames looked up per query.
_NAMES_A_QUERY = 500


@dataclasses.dataclass(frozen=True)
class ClubParts:
    name: str
    created_at: datetime
    min_matches_ranked: int
    roles: dict[int, Role]  # by user id: who gets which role in the new club
    missing: list[str]  # members' usernames with no account here
    authors: dict[str, int]  # usernames of the new club's members → their user ids
    players: list[tuple[int, str]]  # (id in the file, name), in the file's order
    seasons: list[tuple[int, str, date, date]]  # (id in the file, name, first, last day)


def club_parts(doc: dict[str, Any], owner: User | None, restore: bool) -> ClubParts:
    """The club's parts before its matches (the file checked whole already)."""
    about = need_object(doc.get("club"), "club")
    members = need_list(doc.get("members", []), "members")
    users = _users(_usernames(doc))
    roles, missing = _roles(members, users, owner, restore)
    # Hands' authors (who created a match, entered or corrected a hand) keep their account
    # only if they are members of this new club: a username alone proves nothing, and an
    # account of the same name elsewhere must not be credited with the file's hands. Anyone
    # else is stored with no account, which the history shows as a former member.
    authors = {name: uid for name, uid in users.items() if uid in roles}
    return ClubParts(
        name=need_text(about.get("name"), "club.name", 120),
        created_at=need_time(about.get("created_at"), "club.created_at"),
        min_matches_ranked=need_number(about.get("min_matches_ranked"), "club.min_matches_ranked"),
        roles=roles,
        missing=missing,
        authors=authors,
        players=_players(doc.get("players")),
        seasons=_seasons(doc.get("seasons", [])),
    )


def _usernames(doc: dict[str, Any]) -> set[str]:
    """Every username the file names: members, and authors of matches, hands, versions."""
    names = {m.get("username") for m in doc.get("members", []) if isinstance(m, dict)}
    for match in doc.get("matches", []):
        names.add(match.get("created_by"))
        names.update(hand.get("updated_by") for hand in match.get("hands", []))
        names.update(version.get("user") for version in match.get("versions", []))
    return {name for name in names if isinstance(name, str)}


def _users(names: Iterable[str]) -> dict[str, int]:
    """The accounts of `names` that exist here, by username (only those: the server may
    have many more accounts than any file names)."""
    found: dict[str, int] = {}
    wanted = sorted(names)
    for start in range(0, len(wanted), _NAMES_A_QUERY):
        chunk = wanted[start : start + _NAMES_A_QUERY]
        rows = db.session.execute(sa.select(User.username, User.id).where(User.username.in_(chunk)))
        found.update((name, uid) for name, uid in rows)
    return found


def _roles(
    members: list[Any], users: dict[str, int], owner: User | None, restore: bool
) -> tuple[dict[int, Role], list[str]]:
    missing = []
    roles: dict[int, Role] = {}
    for index, item in enumerate(members):
        where = f"members[{index}]"
        member = need_object(item, where)
        username = need_text(member.get("username"), f"{where}.username", 80)
        try:
            role = Role(str(member.get("role")))
        except ValueError:
            raise Invalid(
                _("%(where)s must be viewer, scorer or owner.", where=f"{where}.role")
            ) from None
        user = users.get(username)
        if user is None:
            missing.append(username)
        elif restore:
            roles[user] = role
    if owner is not None:
        roles[owner.id] = Role.OWNER
    if Role.OWNER not in roles.values():
        # A club nobody owns could never be seen or managed.
        raise Invalid(_("None of the club's owners has an account here; name a user to own it."))
    return roles, missing


def _players(raw: Any) -> list[tuple[int, str]]:
    players: list[tuple[int, str]] = []
    keys: set[int] = set()
    names: set[str] = set()
    for index, item in enumerate(need_list(raw, "players")):
        where = f"players[{index}]"
        entry = need_object(item, where)
        key = need_number(entry.get("id"), f"{where}.id")
        name = need_text(entry.get("name"), f"{where}.name", 80)
        if key in keys or name.casefold() in names:
            raise Invalid(_("%(where)s names a player twice.", where=where))
        keys.add(key)
        names.add(name.casefold())
        players.append((key, name))
    return players


def _seasons(raw: Any) -> list[tuple[int, str, date, date]]:
    seasons: dict[int, tuple[int, str, date, date]] = {}
    for index, item in enumerate(need_list(raw, "seasons")):
        where = f"seasons[{index}]"
        entry = need_object(item, where)
        name = need_text(entry.get("name"), f"{where}.name", 80)
        starts = need_day(entry.get("starts_on"), f"{where}.starts_on")
        ends = need_day(entry.get("ends_on"), f"{where}.ends_on")
        clash = starts > ends or any(
            other == name or (first <= ends and starts <= last)
            for _key, other, first, last in seasons.values()
        )
        key = need_number(entry.get("id"), f"{where}.id")
        if clash or key in seasons:
            raise Invalid(
                _(
                    "%(where)s overlaps another season, repeats one, or ends before it starts.",
                    where=where,
                )
            )
        seasons[key] = (key, name, starts, ends)
    return list(seasons.values())


def new_match(
    raw: dict[str, Any],
    where: str,
    club_id: int,
    players: dict[int, int],
    seasons: dict[int, int],
    authors: dict[str, int],
) -> tuple[Match, dict[int, int]]:
    """The match of `raw` with its teams and seats, not yet added to any session, and the
    new ids of its seated players by their ids in the file. `players` and `seasons` map the
    file's ids to the new ones."""
    variant_id = need_text(raw.get("variant"), f"{where}.variant", 40)
    options = need_object(raw.get("options"), f"{where}.options")
    try:
        variant = find_variant(variant_id).with_options(**options)
        table = find_format(need_text(raw.get("format"), f"{where}.format", 20))
    except ValueError as error:
        raise Invalid(_("%(where)s: %(problem)s", where=where, problem=str(error))) from None
    season_key = raw.get("season")
    if season_key is not None and season_key not in seasons:
        raise Invalid(
            _("%(where)s names a season the file does not have.", where=f"{where}.season")
        )
    match = Match(
        club_id=club_id,
        variant_id=variant_id,
        # Every option frozen with the match, as a new match has them (a hand-made file may
        # give only those it changes); the house rules in the same JSON values.
        options=variant.options(),
        house_rules={
            name: variant.options()[name]
            for name in need_object(raw.get("house_rules", {}), f"{where}.house_rules")
        },
        format=table.id,
        first_dealer=need_number(raw.get("first_dealer", 0), f"{where}.first_dealer"),
        created_at=need_time(raw.get("created_at"), f"{where}.created_at"),
        created_by_id=user_id(raw.get("created_by"), authors),
        season_id=None if season_key is None else seasons[season_key],
    )
    seated = _table(match, raw, where, players, table)
    return match, seated


def _table(
    match: Match, raw: dict[str, Any], where: str, players: dict[int, int], table: Any
) -> dict[int, int]:
    fixed = table.credit is Credit.TEAM
    teams = [
        MatchTeam(
            position=i,
            name=need_text(
                need_object(t, f"{where}.teams[{i}]").get("name"), f"{where}.teams[{i}].name", 80
            ),
        )
        for i, t in enumerate(need_list(raw.get("teams", []), f"{where}.teams"))
    ]
    match.teams.extend(teams)
    seated: dict[int, int] = {}
    for position, item in enumerate(need_list(raw.get("seats"), f"{where}.seats")):
        at = f"{where}.seats[{position}]"
        seat = need_object(item, at)
        key = need_number(seat.get("player"), f"{at}.player")
        team = seat.get("team")
        if key not in players or key in seated:
            raise Invalid(
                _(
                    "%(where)s names a player the file does not have, or one already seated.",
                    where=at,
                )
            )
        if fixed != (team is not None) or (team is not None and team not in range(len(teams))):
            raise Invalid(_("%(where)s names a team the match does not have.", where=f"{at}.team"))
        seated[key] = players[key]
        match.seats.append(
            Seat(
                position=position,
                player_id=players[key],
                team=None if team is None else teams[team],
            )
        )
    sizes = tuple(sum(1 for s in match.seats if s.team is t) for t in teams)
    fits = sizes in table.shapes if fixed else (not teams and len(seated) in table.player_counts)
    if not fits or not 0 <= match.first_dealer < max(len(seated), 1):
        raise Invalid(
            _(
                "%(where)s does not seat its players as its format %(format)s needs.",
                where=where,
                format=table.id,
            )
        )
    return seated


def new_hands(
    match_id: int,
    raw: Any,
    where: str,
    ids: dict[int, int],
    authors: dict[str, int],
    entries: Entries,
) -> list[Hand]:
    """The match's hands as they will be stored, outside any session: a live hand's
    entry as the file check read it (its result still to be scored), a deleted one's as
    the file has it."""
    hands: list[Hand] = []
    numbers: set[int] = set()
    keys: set[str] = set()
    for index, item in enumerate(need_list(raw, f"{where}.hands")):
        at = f"{where}.hands[{index}]"
        hand = need_object(item, at)
        number = need_number(hand.get("number"), f"{at}.number", least=1)
        key = optional_text(hand.get("idempotency_key"), f"{at}.idempotency_key", 100)
        deleted = hand.get("deleted", False)
        if not isinstance(deleted, bool):
            raise Invalid(_("%(where)s must be true or false.", where=f"{at}.deleted"))
        if number in numbers or (key is not None and key in keys):
            raise Invalid(_("%(where)s repeats a hand number or key of its match.", where=at))
        numbers.add(number)
        keys.update([key] if key else [])
        entry = (
            remap_players(need_object(hand.get("entry"), f"{at}.entry"), ids)
            if deleted  # history: kept as it stands
            else entries[index].renumbered(ids).to_json()
        )
        # A live hand's result is the engine's (scored by the import); a deleted one keeps
        # its own.
        result = (
            remap_players(need_object(hand.get("result"), f"{at}.result"), ids)
            if deleted
            else {"teams": []}
        )
        hands.append(
            Hand(
                match_id=match_id,
                number=number,
                version=need_number(hand.get("version", 1), f"{at}.version", least=1),
                entry=entry,
                result=result,
                tally=tally_of(entry, result) if deleted else None,
                accepted_reason=optional_text(
                    hand.get("accepted_reason"), f"{at}.accepted_reason", MAX_REASON, True
                ),
                deleted=deleted,
                idempotency_key=key,
                updated_at=need_time(hand.get("updated_at"), f"{at}.updated_at"),
                updated_by_id=user_id(hand.get("updated_by"), authors),
            )
        )
    return hands


def new_versions(
    match_id: int,
    raw: Any,
    where: str,
    ids: dict[int, int],
    authors: dict[str, int],
    hands: list[Hand],
) -> list[dict[str, Any]]:
    """The match's hand versions as rows: the file's, and for a hand the file gives no
    "created" version (a hand-made file may leave them out) the one that created it, whose
    time places the match in its season and in the ratings' order."""
    rows = []
    for index, item in enumerate(need_list(raw, f"{where}.versions")):
        at = f"{where}.versions[{index}]"
        version = need_object(item, at)
        rows.append(
            {
                "match_id": match_id,
                "number": need_number(version.get("number"), f"{at}.number", least=1),
                "version": need_number(version.get("version"), f"{at}.version", least=1),
                "action": need_text(version.get("action"), f"{at}.action", 10),
                "entry": remap_players(need_object(version.get("entry"), f"{at}.entry"), ids),
                "result": remap_players(need_object(version.get("result"), f"{at}.result"), ids),
                "accepted_reason": optional_text(
                    version.get("accepted_reason"), f"{at}.accepted_reason", MAX_REASON, True
                ),
                "created_at": need_time(version.get("created_at"), f"{at}.created_at"),
                "user_id": user_id(version.get("user"), authors),
            }
        )
    created = {row["number"] for row in rows if row["action"] == "created"}
    rows.extend(
        {
            "match_id": match_id,
            "number": hand.number,
            "version": hand.version,
            "action": "created",
            "entry": hand.entry,
            "result": hand.result,
            "accepted_reason": hand.accepted_reason,
            "created_at": hand.updated_at,
            "user_id": hand.updated_by_id,
        }
        for hand in hands
        if hand.number not in created
    )
    return rows


def first_played(hands: list[Hand], versions: list[dict[str, Any]]) -> datetime | None:
    """When the match's first live hand was first saved (its "created" version), as
    records.stats reads it from the stored versions; None without a live hand."""
    live = {hand.number for hand in hands if not hand.deleted}
    times = [
        row["created_at"]
        for row in versions
        if row["action"] == "created" and row["number"] in live
    ]
    return min(times, default=None)


def hand_row(hand: Hand) -> dict[str, Any]:
    """A hand made by `new_hands` (and scored) as the row to insert."""
    return {
        "match_id": hand.match_id,
        "number": hand.number,
        "version": hand.version,
        "entry": hand.entry,
        "result": hand.result,
        "tally": hand.tally,
        "accepted_reason": hand.accepted_reason,
        "deleted": hand.deleted,
        "idempotency_key": hand.idempotency_key,
        "updated_at": hand.updated_at,
        "updated_by_id": hand.updated_by_id,
    }


def user_id(username: Any, authors: dict[str, int]) -> int | None:
    return authors.get(username) if isinstance(username, str) else None
