"""A club made anew from an exchange.club_export document: all of it in one transaction, or
nothing at all (a bad file is refused with a message naming the first thing wrong in it).
The whole file is checked first (exchange.import_check), so nothing the pages cannot show
is ever stored; only the engine's verdict on the live hands waits for the match to be built.

Every part gets a new id, and the players' ids inside hands are rewritten to match. Each live
hand is scored again by the rules engine from its entry, in order, exactly as the hand
service stores it; versions keep their own results and times, so the history, the order the
matches were played in, the standings and the ratings come back the same.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _

from scorekeeper import records as stats
from scorekeeper.errors import Invalid
from scorekeeper.exchange.club_export import FORMAT, VERSION
from scorekeeper.exchange.import_check import check_club_file
from scorekeeper.exchange.import_match import Entries
from scorekeeper.extensions import db
from scorekeeper.match import MAX_REASON, Rescoring, remap_players, tally_of
from scorekeeper.models import (
    Club,
    Hand,
    HandVersion,
    Match,
    MatchTeam,
    Membership,
    Player,
    Role,
    Season,
    Seat,
    User,
)
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


@dataclasses.dataclass(frozen=True)
class Imported:
    club: Club
    matches: int
    hands: int
    missing_members: list[str]  # usernames in the file with no account here


def import_club(data: Any, owner: User | None = None, restore_members: bool = False) -> Imported:
    """Make a new club from `data`; `owner` becomes its owner, and with `restore_members`
    the file's members who have an account here (same username) get their roles back.
    Hands keep their authors only where the author is a member of the new club."""
    try:
        with db.session.no_autoflush:
            imported = _build(data, owner, restore_members)
        db.session.flush()
        stats.rebuild(club_id=imported.club.id)
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return imported


def _build(data: Any, owner: User | None, restore_members: bool) -> Imported:
    # The whole file, before anything of it is stored; every hand's entry comes back read.
    entries = check_club_file(data)
    doc = need_object(data, "the file")
    if doc.get("format") != FORMAT or doc.get("version") != VERSION:
        raise Invalid(
            _(
                "This file is not a Scorekeeper club export (version %(version)d).",
                version=VERSION,
            )
        )
    about = need_object(doc.get("club"), "club")
    club = Club(
        name=need_text(about.get("name"), "club.name", 120),
        invite_code=secrets.token_urlsafe(16),
        created_at=need_time(about.get("created_at"), "club.created_at"),
        min_matches_ranked=need_number(about.get("min_matches_ranked"), "club.min_matches_ranked"),
    )
    db.session.add(club)
    users = _users()
    missing = _members(club, doc.get("members", []), users, owner, restore_members)
    # Hands' authors (who created a match, entered or corrected a hand) keep their account
    # only if they are members of this new club: a username alone proves nothing, and an
    # account of the same name elsewhere must not be credited with the file's hands. Anyone
    # else is stored with no account, which the history shows as a former member.
    members = {m.user_id for m in club.memberships}
    users = {name: user for name, user in users.items() if user.id in members}
    players = _players(club, doc.get("players"))
    seasons = _seasons(club, doc.get("seasons", []))
    db.session.flush()
    count = 0
    matches = need_list(doc.get("matches"), "matches")
    for index, raw in enumerate(matches):
        count += _add_match(
            club,
            need_object(raw, f"matches[{index}]"),
            f"matches[{index}]",
            players,
            seasons,
            users,
            entries[index],
        )
    return Imported(club, len(matches), count, missing)


def _users() -> dict[str, User]:
    return {u.username: u for u in db.session.scalars(sa.select(User))}


def _members(
    club: Club, raw: Any, users: dict[str, User], owner: User | None, restore: bool
) -> list[str]:
    missing = []
    roles: dict[int, Role] = {}
    for index, item in enumerate(need_list(raw, "members")):
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
            roles[user.id] = role
    if owner is not None:
        roles[owner.id] = Role.OWNER
    if Role.OWNER not in roles.values():
        # A club nobody owns could never be seen or managed.
        raise Invalid(_("None of the club's owners has an account here; name a user to own it."))
    for user_id, role in roles.items():
        club.memberships.append(Membership(user_id=user_id, role=role))
    return missing


def _players(club: Club, raw: Any) -> dict[int, Player]:
    players: dict[int, Player] = {}
    names: set[str] = set()
    for index, item in enumerate(need_list(raw, "players")):
        where = f"players[{index}]"
        entry = need_object(item, where)
        key = need_number(entry.get("id"), f"{where}.id")
        name = need_text(entry.get("name"), f"{where}.name", 80)
        if key in players or name.casefold() in names:
            raise Invalid(_("%(where)s names a player twice.", where=where))
        names.add(name.casefold())
        players[key] = Player(name=name)
        club.players.append(players[key])
    return players


def _seasons(club: Club, raw: Any) -> dict[int, Season]:
    seasons: dict[int, Season] = {}
    for index, item in enumerate(need_list(raw, "seasons")):
        where = f"seasons[{index}]"
        entry = need_object(item, where)
        season = Season(
            name=need_text(entry.get("name"), f"{where}.name", 80),
            starts_on=need_day(entry.get("starts_on"), f"{where}.starts_on"),
            ends_on=need_day(entry.get("ends_on"), f"{where}.ends_on"),
        )
        clash = season.starts_on > season.ends_on or any(
            other.name == season.name
            or (other.starts_on <= season.ends_on and season.starts_on <= other.ends_on)
            for other in seasons.values()
        )
        key = need_number(entry.get("id"), f"{where}.id")
        if clash or key in seasons:
            raise Invalid(
                _(
                    "%(where)s overlaps another season, repeats one, or ends before it starts.",
                    where=where,
                )
            )
        seasons[key] = season
        club.seasons.append(season)
    return seasons


def _add_match(
    club: Club,
    raw: dict[str, Any],
    where: str,
    players: dict[int, Player],
    seasons: dict[int, Season],
    users: dict[str, User],
    entries: Entries,
) -> int:
    """Add one match with its hands and versions (their entries as the file check read
    them); returns how many hands it has."""
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
        club=club,
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
        created_by_id=_user_id(raw.get("created_by"), users),
        season=None if season_key is None else seasons[season_key],
    )
    _table(match, raw, where, players, table.credit is Credit.TEAM, table)
    seated = _seated(match, players)
    # The players were flushed with the club: the file's player ids → the new ones.
    ids = {key: player.id for key, player in seated.items()}
    count = _hands(match, raw.get("hands"), where, ids, users, entries)
    db.session.add(match)
    db.session.flush()
    _rescore(match, where)
    for index, item in enumerate(need_list(raw.get("versions", []), f"{where}.versions")):
        at = f"{where}.versions[{index}]"
        version = need_object(item, at)
        db.session.add(
            HandVersion(
                match_id=match.id,
                number=need_number(version.get("number"), f"{at}.number", least=1),
                version=need_number(version.get("version"), f"{at}.version", least=1),
                action=need_text(version.get("action"), f"{at}.action", 10),
                entry=remap_players(need_object(version.get("entry"), f"{at}.entry"), ids),
                result=remap_players(need_object(version.get("result"), f"{at}.result"), ids),
                accepted_reason=optional_text(
                    version.get("accepted_reason"), f"{at}.accepted_reason", MAX_REASON, True
                ),
                created_at=need_time(version.get("created_at"), f"{at}.created_at"),
                user_id=_user_id(version.get("user"), users),
            )
        )
    _created_versions(match)
    return count


def _created_versions(match: Match) -> None:
    """A hand-made file may leave out the versions; a live hand still needs the version that
    created it, whose time places the match in its season and in the ratings' order."""
    db.session.flush()
    created = set(
        db.session.scalars(
            sa.select(HandVersion.number).where(
                HandVersion.match_id == match.id, HandVersion.action == "created"
            )
        )
    )
    for hand in match.hands:
        if hand.number not in created:
            db.session.add(
                HandVersion(
                    match_id=match.id,
                    number=hand.number,
                    version=hand.version,
                    action="created",
                    entry=hand.entry,
                    result=hand.result,
                    accepted_reason=hand.accepted_reason,
                    created_at=hand.updated_at,
                    user_id=hand.updated_by_id,
                )
            )


def _table(
    match: Match,
    raw: dict[str, Any],
    where: str,
    players: dict[int, Player],
    fixed: bool,
    table: Any,
) -> None:
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
    keys: list[int] = []
    for position, item in enumerate(need_list(raw.get("seats"), f"{where}.seats")):
        at = f"{where}.seats[{position}]"
        seat = need_object(item, at)
        key = need_number(seat.get("player"), f"{at}.player")
        team = seat.get("team")
        if key not in players or key in keys:
            raise Invalid(
                _(
                    "%(where)s names a player the file does not have, or one already seated.",
                    where=at,
                )
            )
        if fixed != (team is not None) or (team is not None and team not in range(len(teams))):
            raise Invalid(_("%(where)s names a team the match does not have.", where=f"{at}.team"))
        keys.append(key)
        match.seats.append(
            Seat(position=position, player=players[key], team=None if team is None else teams[team])
        )
    sizes = tuple(sum(1 for s in match.seats if s.team is t) for t in teams)
    fits = sizes in table.shapes if fixed else (not teams and len(keys) in table.player_counts)
    if not fits or not 0 <= match.first_dealer < max(len(keys), 1):
        raise Invalid(
            _(
                "%(where)s does not seat its players as its format %(format)s needs.",
                where=where,
                format=table.id,
            )
        )


def _seated(match: Match, players: dict[int, Player]) -> dict[int, Player]:
    """The match's players by their id in the file."""
    by_object = {id(p): key for key, p in players.items()}
    return {by_object[id(seat.player)]: seat.player for seat in match.seats}


def _hands(
    match: Match,
    raw: Any,
    where: str,
    ids: dict[int, int],
    users: dict[str, User],
    entries: Entries,
) -> int:
    numbers: set[int] = set()
    keys: set[str] = set()
    listed = need_list(raw, f"{where}.hands")  # at most MAX_HANDS live: check_club_file
    for index, item in enumerate(listed):
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
        # A live hand's result is the engine's (_rescore); a deleted one keeps its own.
        result = (
            remap_players(need_object(hand.get("result"), f"{at}.result"), ids)
            if deleted
            else {"teams": []}
        )
        match.hands.append(
            Hand(
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
                updated_by_id=_user_id(hand.get("updated_by"), users),
            )
        )
    return len(numbers)


def _rescore(match: Match, where: str) -> None:
    """Score the live hands again, in order, as the match stores them, each once: the
    totals carry from hand to hand. (Their entries were read as the API reads a hand.)"""
    running = Rescoring(match)
    for hand in sorted(match.hands, key=lambda h: h.number):
        if hand.deleted:
            continue
        try:
            running.rescore(hand)
        except Invalid as error:
            raise Invalid(
                _(
                    "%(where)s, hand %(number)d: %(problem)s",
                    where=where,
                    number=hand.number,
                    problem=error.message,
                )
            ) from None


def _user_id(username: Any, users: dict[str, User]) -> int | None:
    user = users.get(username) if isinstance(username, str) else None
    return None if user is None else user.id
