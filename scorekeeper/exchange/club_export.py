"""A whole club as one JSON document: its players, members, seasons, and every match with
its options, house rules, table, first dealer, hands and every version of every hand.

Ids in the file are the exporting instance's; they only tie the file's parts together, and
exchange.club_import gives everything new ids. A live hand's score is not written: the
importer asks the rules engine again (the same entries give the same scores), while each
version (and a deleted hand) keeps the result it had, as the history it is.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.models import Club, HandVersion, Match, Membership, Seat, User, as_utc
from scorekeeper.numbers import row_id
from scorekeeper.web.gettext import gettext as _

FORMAT = "scorekeeper-club"
VERSION = 1
_BATCH = 200


def find_club(word: str) -> Club:
    """A club named by its id or its exact name (for the command line)."""
    word = word.strip()
    if row_id(word) is not None:
        club = db.session.get(Club, row_id(word))
        if club is not None and not club.importing:  # half written: not a club yet
            return club
    named = list(
        db.session.scalars(
            sa.select(Club).where(Club.name == word, Club.importing.is_(False)).order_by(Club.id)
        )
    )
    if len(named) == 1:
        return named[0]
    if named:
        ids = ", ".join(str(c.id) for c in named)
        raise Invalid(
            _(
                "Several clubs are called %(name)s (ids %(ids)s); name one by its id.",
                name=word,
                ids=ids,
            )
        )
    raise NotFound(_("There is no club %(club)s.", club=word))


def export_club(club: Club) -> dict[str, Any]:
    """The club as a JSON-ready document (see the module's docstring)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(datetime.now(UTC)),
        "club": {
            "name": club.name,
            "created_at": _time(club.created_at),
            "min_matches_ranked": club.min_matches_ranked,
        },
        "members": [
            {"username": username, "role": role.value}
            for username, role in db.session.execute(
                sa.select(User.username, Membership.role)
                .join(Membership, Membership.user_id == User.id)
                .where(Membership.club_id == club.id)
                .order_by(User.username)
            )
        ],
        "players": [{"id": p.id, "name": p.name} for p in club.players],
        "seasons": [
            {
                "id": s.id,
                "name": s.name,
                "starts_on": s.starts_on.isoformat(),
                "ends_on": s.ends_on.isoformat(),
            }
            for s in club.seasons
        ],
        "matches": list(_matches(club)),
    }


def _matches(club: Club) -> Iterator[dict[str, Any]]:
    users = {uid: name for uid, name in db.session.execute(sa.select(User.id, User.username))}
    ids = list(
        db.session.scalars(sa.select(Match.id).where(Match.club_id == club.id).order_by(Match.id))
    )
    for start in range(0, len(ids), _BATCH):
        chunk = ids[start : start + _BATCH]
        batch = list(
            db.session.scalars(
                sa.select(Match)
                .where(Match.id.in_(chunk))
                .order_by(Match.id)
                .options(
                    selectinload(Match.hands),
                    selectinload(Match.seats).selectinload(Seat.player),
                    selectinload(Match.teams),
                )
            )
        )
        versions: dict[int, list[HandVersion]] = {}
        for version in db.session.scalars(
            sa.select(HandVersion)
            .where(HandVersion.match_id.in_(chunk))
            .order_by(HandVersion.match_id, HandVersion.number, HandVersion.version)
        ):
            versions.setdefault(version.match_id, []).append(version)
        for match in batch:
            yield _match_json(match, versions.get(match.id, []), users)


def _match_json(match: Match, versions: list[HandVersion], users: dict[int, str]) -> dict[str, Any]:
    teams = {team.id: index for index, team in enumerate(match.teams)}
    return {
        "id": match.id,
        "variant": match.variant_id,
        "options": match.options,
        "house_rules": match.house_rules,
        "format": match.format,
        "first_dealer": match.first_dealer,
        "season": match.season_id,
        "created_at": _time(match.created_at),
        "created_by": users.get(match.created_by_id or 0),
        "teams": [{"name": team.name} for team in match.teams],
        "seats": [
            {"player": seat.player_id, "team": teams.get(seat.team_id or 0)} for seat in match.seats
        ],
        "hands": [
            {
                "number": hand.number,
                "version": hand.version,
                "entry": hand.entry,
                # A deleted hand is not scored again; it keeps what it last said.
                **({"result": hand.result} if hand.deleted else {}),
                "accepted_reason": hand.accepted_reason,
                "deleted": hand.deleted,
                "idempotency_key": hand.idempotency_key,
                "updated_at": _time(hand.updated_at),
                "updated_by": users.get(hand.updated_by_id or 0),
            }
            for hand in match.hands
        ],
        "versions": [
            {
                "number": v.number,
                "version": v.version,
                "action": v.action,
                "entry": v.entry,
                "result": v.result,
                "accepted_reason": v.accepted_reason,
                "created_at": _time(v.created_at),
                "user": users.get(v.user_id or 0),
            }
            for v in versions
        ],
    }


def _time(when: datetime) -> str:
    """An ISO time in UTC (SQLite gives back naive times, stored as UTC)."""
    return as_utc(when).isoformat()
