"""Clubs, their members' roles, invitations and players."""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import joinedload, selectinload

from scorekeeper.errors import Forbidden, Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.locks import lock_row
from scorekeeper.models import Club, Match, Membership, Player, Role, Seat, User
from scorekeeper.numbers import is_row_id, row_id
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import lazy_gettext as _l

#: Players a picker lists at a time; the rest are found by a part of their name.
PICK_SIZE = 50
#: A search for a player's name: no name is longer.
MAX_FIND = 80

#: Each role's name as people read it (the stored value stays English).
ROLE_NAMES = {
    Role.VIEWER: _l("viewer"),
    Role.SCORER: _l("scorer"),
    Role.OWNER: _l("owner"),
}


def create_club(owner: User, name: str) -> Club:
    name = name.strip()
    if not name or len(name) > 120:
        raise Invalid(_("A club's name needs 1 to 120 characters."))
    club = Club(name=name, invite_code=secrets.token_urlsafe(16))
    club.memberships.append(Membership(user=owner, role=Role.OWNER))
    db.session.add(club)
    db.session.commit()
    return club


def role_in(user: User | None, club: Club) -> Role | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return db.session.scalar(
        sa.select(Membership.role).where(
            Membership.club_id == club.id, Membership.user_id == user.id
        )
    )


def member_match(user: User | None, match_id: object) -> Match | None:
    """The match `match_id` names if `user` is a member of its club; else None, the same for
    another club's match as for an id that names nothing."""
    found = match_and_role(user, match_id)
    return None if found is None else found[0]


def match_and_role(user: User | None, match_id: object) -> tuple[Match, Role] | None:
    """The match and `user`'s role in its club, in one query with the match's sides and
    seats (what nearly every match page and every hand save reads next)."""
    if not is_row_id(match_id) or user is None or not getattr(user, "is_authenticated", False):
        return None
    found = db.session.execute(_MATCH_AND_ROLE, {"match_id": match_id, "user_id": user.id})
    row = found.unique().first()
    return None if row is None else (row[0], row[1])


# Built once (every match page and every hand save runs it), with the ids bound per call.
_MATCH_AND_ROLE = (
    sa.select(Match, Membership.role)
    .join(Membership, Membership.club_id == Match.club_id)
    .where(Match.id == sa.bindparam("match_id"), Membership.user_id == sa.bindparam("user_id"))
    .options(joinedload(Match.teams), joinedload(Match.seats))
)


def no_such_match() -> NotFound:
    """The one answer for a match someone may not see: it does not exist, to them."""
    return NotFound(_("There is no such match, or you are not a member of its club."))


def match_for(
    user: User | None, match_id: object, needed: Role = Role.VIEWER, missing: str | None = None
) -> Match:
    """The match if `user` is a member of its club (to anyone else it does not exist: 404,
    with `missing` as its message if given) with the role `needed` (403 otherwise)."""
    found = match_and_role(user, match_id)
    if found is None:
        raise NotFound(missing) if missing else no_such_match()
    match, role = found
    _require(role, needed)
    return match


def club_for(user: User | None, club_id: int, needed: Role = Role.VIEWER) -> Club:
    """The club if `user` may act in it with `needed`; to strangers it does not exist (404),
    so club ids reveal nothing; a member without the role gets 403."""
    club = db.session.get(Club, club_id) if is_row_id(club_id) else None
    if club is not None and club.importing:  # nobody's until its import is written whole
        club = None
    role = None if club is None else role_in(user, club)
    if club is None or role is None:
        raise NotFound(_("There is no such club, or you are not one of its members."))
    _require(role, needed)
    return club


def _require(role: Role, needed: Role) -> None:
    """403 for a member whose role is short of `needed`."""
    if not role.allows(needed):
        raise Forbidden(
            _(
                "This needs the %(needed)s role; you are a %(role)s here.",
                needed=ROLE_NAMES[needed],
                role=ROLE_NAMES[role],
            )
        )


def clubs_of(user: User) -> list[tuple[Club, Role]]:
    rows = db.session.execute(
        sa.select(Club, Membership.role)
        .join(Membership)
        .where(Membership.user_id == user.id, Club.importing.is_(False))
        .order_by(Club.name)
    )
    return [(club, role) for club, role in rows]


def join_by_invite(user: User, code: str) -> Club:
    """Joining through the owner's link makes a viewer; the owner may raise the role."""
    club = club_by_invite(code)
    if role_in(user, club) is None:
        db.session.add(Membership(club=club, user=user, role=Role.VIEWER))
        try:
            db.session.commit()
        except sa.exc.IntegrityError:
            # A double tap on "Join" raced itself: the other request made the membership.
            db.session.rollback()
    return club


def club_by_invite(code: str) -> Club:
    """The club an invitation link leads to, without joining it."""
    club = db.session.scalar(
        sa.select(Club).where(Club.invite_code == code, Club.importing.is_(False))
    )
    if club is None:
        raise NotFound(_("This invitation link is not valid (any more); ask for a new one."))
    return club


def renew_invite(club: Club) -> str:
    club.invite_code = secrets.token_urlsafe(16)
    db.session.commit()
    return club.invite_code


def lock_club(club: Club) -> None:
    """Hold `club`'s memberships for this transaction: another request changing roles or
    members of this club waits until it ends, so an owner count taken afterwards stays true.

    Two owners demoting each other at once each counted two owners before the other wrote,
    and the club was left with none; counting under this lock, the second one sees one owner.
    """
    lock_row(Club, club.id, Club.name)


def _owner_count(club_id: int) -> int:
    return (
        db.session.scalar(
            sa.select(sa.func.count())
            .select_from(Membership)
            .where(Membership.club_id == club_id, Membership.role == Role.OWNER)
        )
        or 0
    )


def only_owner(club: Club, user_id: int) -> bool:
    """Whether `user_id` is the club's one owner (who can neither leave nor be removed)."""
    role = db.session.scalar(
        sa.select(Membership.role).where(
            Membership.club_id == club.id, Membership.user_id == user_id
        )
    )
    return role is Role.OWNER and _owner_count(club.id) == 1


def _membership(club_id: int, user_id: int) -> Membership:
    membership = None
    if is_row_id(user_id):
        membership = db.session.scalar(
            sa.select(Membership).where(
                Membership.club_id == club_id, Membership.user_id == user_id
            )
        )
    if membership is None:
        raise NotFound(_("That person is not a member of this club."))
    return membership


def _still_owner(club: Club, by: User | None) -> None:
    """Under the club's lock, whether `by` (the owner asking) still owns it: two owners
    removing or demoting each other at once were each owners when their requests began,
    and the second must not act with a role the first has just taken away."""
    if by is None:
        return  # the command line and tests, not a member
    role = role_in(by, club)
    if role is None:
        db.session.rollback()
        raise NotFound(_("There is no such club, or you are not one of its members."))
    if role is not Role.OWNER:
        db.session.rollback()
        _require(role, Role.OWNER)


def set_role(club: Club, user_id: int, role: Role, by: User | None = None) -> None:
    club_id = club.id
    lock_club(club)
    _still_owner(club, by)
    membership = _membership(club_id, user_id)
    if membership.role is Role.OWNER and role is not Role.OWNER and _owner_count(club_id) == 1:
        db.session.rollback()
        raise Invalid(_("A club needs an owner: make someone else owner first."))
    membership.role = role
    db.session.commit()


def member_of(club: Club, user_id: int) -> Membership:
    """The membership of `user_id` in `club` (404 if there is none)."""
    return _membership(club.id, user_id)


def remove_member(club: Club, user_id: int, by: User | None = None) -> str:
    """Take `user_id`'s access to `club` away; returns their username.

    Only the membership goes: the hands they entered or corrected keep them as author, so the
    history still names them. The last owner stays, or nobody could manage the club.
    """
    club_id = club.id
    lock_club(club)
    _still_owner(club, by)
    membership = _membership(club_id, user_id)
    username = membership.user.username
    if membership.role is Role.OWNER and _owner_count(club_id) == 1:
        db.session.rollback()
        raise Invalid(
            _(
                "%(name)s is the club's only owner, and a club needs one: "
                "make someone else owner first.",
                name=username,
            )
        )
    db.session.delete(membership)
    db.session.commit()
    return username


def leave(club: Club, user: User) -> None:
    """`user` stops being a member of `club`; the last owner cannot leave."""
    club_id = club.id
    lock_club(club)
    membership = _membership(club_id, user.id)
    if membership.role is Role.OWNER and _owner_count(club_id) == 1:
        db.session.rollback()
        raise Invalid(
            _(
                "You are the club's only owner, and a club needs one: "
                "make someone else owner before you leave."
            )
        )
    db.session.delete(membership)
    db.session.commit()


def members_of(club: Club) -> list[Membership]:
    """Members, owners first, then scorers, then viewers; by username within a role."""
    rows = db.session.scalars(sa.select(Membership).join(User).where(Membership.club_id == club.id))
    return sorted(rows, key=lambda m: (-m.role.rank, m.user.username.casefold()))


def recent_matches(club: Club, limit: int = 30) -> tuple[list[Match], int]:
    """The club's `limit` newest matches with their seated players and teams (what a match's
    read model names them by), and how many there are."""
    matches = db.session.scalars(
        sa.select(Match)
        .where(Match.club_id == club.id)
        .order_by(Match.id.desc())
        .limit(limit)
        .options(selectinload(Match.seats).selectinload(Seat.player), selectinload(Match.teams))
    )
    total = db.session.scalar(
        sa.select(sa.func.count()).select_from(Match).where(Match.club_id == club.id)
    )
    return list(matches), total or 0


def add_player(club: Club, name: str) -> Player:
    """Add a player to `club`, which holds at most MAX_CLUB_PLAYERS (issue 18: a club of
    175,000 players made every page that names them take seconds)."""
    name = " ".join(name.split())
    if not name or len(name) > 80:
        raise Invalid(_("A player's name needs 1 to 80 characters."))
    lock_club(club)  # two players added at once both count the other
    names = list(db.session.scalars(sa.select(Player.name).where(Player.club_id == club.id)))
    most = current_app.config["MAX_CLUB_PLAYERS"]
    if len(names) >= most:
        db.session.rollback()
        raise Invalid(
            _(
                "%(club)s has %(count)d players, as many as a club may have.",
                club=club.name,
                count=len(names),
            )
        )
    same = next((n for n in names if n.casefold() == name.casefold()), None)
    if same is not None:
        db.session.rollback()
        raise Invalid(_("%(player)s already plays in this club.", player=same))
    player = Player(club_id=club.id, name=name)
    db.session.add(player)
    db.session.commit()
    return player


@dataclass(frozen=True, slots=True)
class PlayerChoices:
    """Some of a club's players to choose from: those whose name holds `find` (all when it
    is empty), at most a page of them by name, and those already chosen; `total` is how
    many hold it."""

    players: list[Player]
    total: int
    listed: int  # of those that hold `find` (the chosen ones may add to them)
    find: str

    @property
    def more(self) -> int:
        """How many that hold `find` are not listed."""
        return max(0, self.total - self.listed)


def _named(club_id: int, find: str) -> sa.ColumnElement[bool]:
    where = Player.club_id == club_id
    text = find.strip()[:MAX_FIND]
    if text:
        pattern = "%" + text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        # ASCII letters match in either case on SQLite, every letter on PostgreSQL.
        return sa.and_(where, Player.name.ilike(pattern, escape="\\"))
    return where


def players_found(club: Club, find: str) -> int:
    """How many of the club's players have a name that holds `find` (all: "")."""
    where = _named(club.id, find)
    return db.session.scalar(sa.select(sa.func.count()).select_from(Player).where(where)) or 0


def players_page(club: Club, find: str, first: int, size: int) -> list[Player]:
    """`size` of the club's players whose name holds `find`, by name, from the `first`
    (from 0)."""
    return list(
        db.session.scalars(
            sa.select(Player)
            .where(_named(club.id, find))
            .order_by(Player.name, Player.id)
            .offset(first)
            .limit(size)
        )
    )


def player_choices(
    club: Club, find: str, chosen: Iterable[object] = (), size: int = PICK_SIZE
) -> PlayerChoices:
    """The players a picker offers (never every player of a big club): those named by
    `find`, at most `size`, and the `chosen` ones (ids, as text or numbers) of this club."""
    players, total = players_page(club, find, 0, size), players_found(club, find)
    listed = len(players)
    wanted = {i for i in (row_id(str(c)) for c in chosen) if i is not None}
    wanted -= {p.id for p in players}
    if wanted:
        players += db.session.scalars(
            sa.select(Player).where(Player.club_id == club.id, Player.id.in_(wanted))
        )
        players.sort(key=lambda p: (p.name, p.id))
    return PlayerChoices(players, total, listed, find.strip()[:MAX_FIND])


def players_named(club: Club, ids: Iterable[int]) -> dict[int, Player]:
    """The club's players among `ids`, by id (the others are not the club's)."""
    wanted = {i for i in ids if is_row_id(i)}
    if not wanted:
        return {}
    rows = db.session.scalars(
        sa.select(Player).where(Player.club_id == club.id, Player.id.in_(wanted))
    )
    return {p.id: p for p in rows}


def player_counts(club_ids: Iterable[int]) -> dict[int, int]:
    """How many players each club has."""
    ids = list(club_ids)
    if not ids:
        return {}
    rows = db.session.execute(
        sa.select(Player.club_id, sa.func.count())
        .where(Player.club_id.in_(ids))
        .group_by(Player.club_id)
    )
    return {club_id: count for club_id, count in rows}
