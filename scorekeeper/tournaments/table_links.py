"""The tables' scorer links (no account), the countersignature of a table's result, and the
round's clock (issue 20).

Each table of a round gets, when the round starts, one link per side (NS and EW). As for the
read-only share links (play.sharing) only the SHA-256 digest of a link's secret is stored;
the secret itself is an HMAC of a random salt under the app's secret key, so the director
can print a table's card again at any time while a copy of the database alone opens
nothing (a new secret key ends every table link, as it ends every session).

A link opens its table's match for hand entry while the link is not withdrawn and its
round is open; anything else is NotFound (404) at once, for every request: to its holder a
dead link and a link that never was look the same. A confirmed table refuses every change
through its links (409); the director corrects it on the match's own pages.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import hashlib
import hmac
import re
import secrets
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import joinedload

from scorekeeper.errors import Conflict, Forbidden, Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.locks import lock_row
from scorekeeper.models import (
    Tournament,
    TournamentEntry,
    TournamentPenalty,
    TournamentRound,
    TournamentTable,
    TournamentTableLink,
    as_utc,
    utcnow,
)
from scorekeeper.web.gettext import gettext as _

NS, EW, DIRECTOR = "ns", "ew", "director"
SIDES = (NS, EW)
#: What a table link's secret looks like; anything else is refused before the database.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{32}")
#: Kept apart from every other use of the secret key (sessions, CSRF tokens).
_PURPOSE = b"scorekeeper tournament table link\x00"


def side_name(side: str) -> str:
    """NS or EW, as the players call their side."""
    return {NS: _("North–South"), EW: _("East–West"), DIRECTOR: _("the director")}[side]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_of(link: TournamentTableLink) -> str:
    """The link's secret: derived from its salt under the app's secret key, never stored."""
    key = str(current_app.config["SECRET_KEY"]).encode()
    mac = hmac.new(key, _PURPOSE + link.salt.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode()[:32]


def _new_link(side: str) -> TournamentTableLink:
    link = TournamentTableLink(side=side, salt=secrets.token_hex(16), digest="")
    link.digest = _digest(token_of(link))
    return link


def add_links(table: TournamentTable) -> None:
    """Give a new table its two links (stored with the caller's commit)."""
    for side in SIDES:
        table.links.append(_new_link(side))


def working_links(table: TournamentTable) -> dict[str, TournamentTableLink]:
    """Each side's working link, by side; a table of a round started before table links
    existed has none, and gets them here."""
    found = {link.side: link for link in table.links if link.withdrawn_at is None}
    missing = [side for side in SIDES if side not in found]
    if missing:
        for side in missing:
            link = _new_link(side)
            table.links.append(link)
            found[side] = link
        db.session.commit()
    return found


def withdraw_link(table: TournamentTable, side: str) -> TournamentTableLink:
    """End `side`'s link at once and give that side a new one (the table card shows it)."""
    if side not in SIDES:
        raise NotFound(_("A table has two sides, ns and ew."))
    for link in table.links:
        if link.side == side and link.withdrawn_at is None:
            link.withdrawn_at = utcnow()
    fresh = _new_link(side)
    table.links.append(fresh)
    # The table's row changes with its links: the live revision follows the tables' rows,
    # and reading every link of the night there cost more than the rest of it.
    db.session.execute(
        sa.update(TournamentTable)
        .where(TournamentTable.id == table.id)
        .values(version=TournamentTable.version + 1)
    )
    db.session.commit()
    return fresh


# --- what a link opens --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TableAccess:
    """What a working link opens: its table (with its round and tournament) and its side."""

    link: TournamentTableLink
    table: TournamentTable
    side: str

    @property
    def round(self) -> TournamentRound:
        return self.table.round

    @property
    def tournament(self) -> Tournament:
        return self.table.round.tournament

    @property
    def other_side(self) -> str:
        return EW if self.side == NS else NS

    def entry(self, side: str) -> TournamentEntry:
        wanted = self.table.ns_entry_id if side == NS else self.table.ew_entry_id
        return next(e for e in self.tournament.entries if e.id == wanted)


def dead_link() -> NotFound:
    return NotFound(
        _(
            "This table link opens nothing: the director withdrew it, its round is closed, "
            "or it was never made."
        )
    )


def resolve(token: str) -> TableAccess:
    """The table and side a working link opens; else NotFound (404)."""
    if not TOKEN_SHAPE.fullmatch(token):
        raise dead_link()
    digest = _digest(token)
    link = db.session.scalar(
        sa.select(TournamentTableLink)
        .where(TournamentTableLink.digest == digest, TournamentTableLink.withdrawn_at.is_(None))
        .options(
            joinedload(TournamentTableLink.table)
            .joinedload(TournamentTable.round)
            .joinedload(TournamentRound.tournament)
        )
    )
    if link is None or not hmac.compare_digest(link.digest, digest):
        raise dead_link()
    table = link.table
    tournament = table.round.tournament
    if table.round.status != "open" or table.match_id is None or tournament.club.importing:
        raise dead_link()
    return TableAccess(link=link, table=table, side=link.side)


def check_writable(access: TableAccess) -> None:
    """A confirmed table takes no change through its links (409)."""
    if access.table.confirmed:
        raise Conflict(
            _(
                "Table %(table)d's result is confirmed, so it can no longer be changed here; "
                "ask the director.",
                table=access.table.number,
            )
        )


def wrote(table_id: int, side: str) -> None:
    """Remember that `side` wrote the table's last hand: the other side countersigns."""
    table = db.session.get(TournamentTable, table_id)
    if table is not None and table.last_side != side:
        table.last_side = side
        db.session.commit()


# --- the countersignature -----------------------------------------------------------------------


def may_confirm(table: TournamentTable, side: str, finished: bool) -> bool:
    """Whether `side`'s phone shows the one-tap confirmation: the table's deals are in, it is
    not confirmed yet, and that side did not enter the last hand."""
    return finished and not table.confirmed and table.last_side != side


def confirm_table(table: TournamentTable, by: str) -> TournamentTable:
    """Countersign the table's result: by the side that did not enter the last hand ("ns" or
    "ew", through its own link), or by the director. Confirming again changes nothing."""
    from scorekeeper.tournaments import service  # service imports this module

    if by not in (*SIDES, DIRECTOR):
        raise Invalid(_("A table is confirmed by ns, ew or the director."))
    lock_row(TournamentTable, table.id, TournamentTable.number)
    if table.confirmed:
        return table
    if table.round.status != "open" and by != DIRECTOR:
        raise dead_link()
    if not service.table_result(table).finished:
        raise Conflict(
            _(
                "Table %(table)d cannot be confirmed yet: its deals are not all in.",
                table=table.number,
            )
        )
    if by != DIRECTOR and table.last_side == by:
        raise Forbidden(
            _(
                "The other side confirms: %(side)s entered the last hand on this phone.",
                side=side_name(by),
            )
        )
    table.confirmed = True
    table.confirmed_by = by
    table.confirmed_at = utcnow()
    table.corrected_at = None
    db.session.commit()
    return table


# --- the round's clock --------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Clock:
    """The round's countdown as the pages pass it to static/js/round-clock.js."""

    ends_at: datetime | None  # None: the round has no set length
    now: datetime

    @property
    def ends_ms(self) -> int | None:
        return None if self.ends_at is None else int(self.ends_at.timestamp() * 1000)

    @property
    def now_ms(self) -> int:
        return int(self.now.timestamp() * 1000)

    @property
    def left(self) -> str:
        """The time left as the page shows it before the script runs (m:ss, or −m:ss)."""
        if self.ends_at is None:
            return ""
        seconds = int((self.ends_at - self.now).total_seconds())
        sign = "−" if seconds < 0 else ""
        seconds = abs(seconds)
        return f"{sign}{seconds // 60}:{seconds % 60:02d}"


def clock_of(tournament: Tournament, played: TournamentRound | None) -> Clock:
    now = utcnow()
    if played is None or played.status != "open" or not tournament.round_minutes:
        return Clock(None, now)
    ends = as_utc(played.started_at) + timedelta(minutes=tournament.round_minutes)
    return Clock(ends, now)


# --- what the live pages poll -------------------------------------------------------------------


def revision(tournament_id: int) -> str:
    """The ETag of a tournament's live pages: its rounds, each table's hands, confirmation
    and links, its penalties and its entries. Every viewer asks for it every two seconds,
    so it is one row of aggregates (_revision_query)."""
    row = db.session.execute(_revision_query(), {"tournament": tournament_id}).one()
    text = "-".join(str(value) for value in row)
    return f"t{tournament_id}-{hashlib.sha256(text.encode()).hexdigest()[:20]}"


@functools.cache
def _revision_query() -> sa.Select[Any]:
    """The live revision's aggregates, each moved by every change of what it counts: a
    table's version rises with each change of its row, each write of its match's hands
    (tournaments.directing) and each of its links withdrawn (its new links come with it),
    ids only grow, and a round or an entry only ever closes or withdraws (nothing here
    deletes one, nor a penalty; a penalty's amounts are summed as well, in case one is
    changed in place). Built once: building and keying a statement of thirteen subqueries
    cost more than running it."""
    tournament_id = sa.bindparam("tournament", type_=sa.Integer)
    rounds = sa.select(TournamentRound.id).where(TournamentRound.tournament_id == tournament_id)
    tables = TournamentTable.round_id.in_(rounds)
    penalties = TournamentPenalty.tournament_id == tournament_id
    entries = TournamentEntry.tournament_id == tournament_id

    def of(where: sa.ColumnElement[bool], *aggregates: Any) -> list[Any]:
        return [sa.select(a).where(where).scalar_subquery() for a in aggregates]

    return sa.select(
        *of(
            TournamentRound.tournament_id == tournament_id,
            sa.func.count(TournamentRound.id),
            sa.func.count(TournamentRound.closed_at),
        ),
        *of(
            tables,
            sa.func.count(TournamentTable.id),
            sa.func.coalesce(sa.func.sum(TournamentTable.version), 0),
            sa.func.count(TournamentTable.match_id),
        ),
        *of(
            penalties,
            sa.func.count(TournamentPenalty.id),
            sa.func.coalesce(sa.func.sum(TournamentPenalty.id), 0),
            sa.func.coalesce(sa.func.sum(TournamentPenalty.mp), 0),
            sa.func.coalesce(sa.func.sum(TournamentPenalty.vp), 0),
        ),
        *of(
            entries,
            sa.func.count(TournamentEntry.id),
            sa.func.coalesce(sa.func.sum(TournamentEntry.id), 0),
            sa.func.count(TournamentEntry.id).filter(TournamentEntry.withdrawn),
        ),
    )
