"""Database models (SQLAlchemy 2.0 style). No scoring here: a hand stores what the players
entered and the lines the rules engine computed from it."""

from __future__ import annotations

import secrets
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Any, ClassVar, cast

import sqlalchemy as sa
from flask_login import UserMixin
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates

from scorekeeper.extensions import Model
from scorekeeper.usernames import look_key, username_key


def utcnow() -> datetime:
    return datetime.now(UTC)


def as_utc(when: datetime) -> datetime:
    """A stored time as an aware UTC time: SQLite gives back naive times (stored as UTC),
    PostgreSQL aware ones."""
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def table_of(model: type[Model]) -> sa.Table:
    """A model's table, for plain statements on a hot path (typed as the Table it is: a
    mapped class's `__table__` is typed as any FROM clause)."""
    return cast(sa.Table, model.__table__)


def rows_changed(result: sa.Result[Any]) -> int:
    """How many rows an UPDATE or DELETE changed, summed over its parameter sets (SQLite's
    and psycopg's executemany both sum them). Session.execute types every answer as a
    plain Result; a DML statement's is a CursorResult."""
    return cast(sa.CursorResult[Any], result).rowcount


def new_session_secret() -> str:
    return secrets.token_hex(16)


class Role(StrEnum):
    VIEWER = "viewer"  # reads the club's matches
    SCORER = "scorer"  # also enters and edits hands, starts matches
    OWNER = "owner"  # also manages members, players and invitations

    @property
    def rank(self) -> int:
        return [Role.VIEWER, Role.SCORER, Role.OWNER].index(self)

    def allows(self, needed: Role) -> bool:
        return self.rank >= needed.rank


class User(UserMixin, Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    username: Mapped[str] = mapped_column(sa.String(80), unique=True)
    password_hash: Mapped[str] = mapped_column(sa.String(255))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    #: Part of the id every session and remember-me cookie holds (`get_id`): a new secret
    #: ("log out everywhere", a new password) makes every earlier cookie name nobody.
    session_secret: Mapped[str] = mapped_column(sa.String(32), default=new_session_secret)
    #: The username as a login finds it and as it looks (scorekeeper.usernames), kept so
    #: that either is one indexed lookup; set with the username (`_keys`). Not unique:
    #: accounts made before the keys may share one. Text: NFKC and the skeleton may lengthen
    #: a name past its 80 characters.
    name_key: Mapped[str] = mapped_column(sa.Text, index=True)
    look_key: Mapped[str] = mapped_column(sa.Text, index=True)

    memberships: Mapped[list[Membership]] = relationship(back_populates="user")

    @validates("username")
    def _keys(self, _field: str, username: str) -> str:
        self.name_key = username_key(username)
        self.look_key = look_key(username)
        return username

    def get_id(self) -> str:
        """What Flask-Login stores in the session and the remember-me cookie: the user's id
        and session secret ("12:9f…"); `web.access.load_user` checks both."""
        if self.session_secret is None:  # a new User not flushed yet
            self.session_secret = new_session_secret()
        return f"{self.id}:{self.session_secret}"


class ApiToken(Model):
    """A bearer token for the JSON API; only its SHA-256 digest is stored."""

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"))
    digest: Mapped[str] = mapped_column(sa.String(64), unique=True)
    label: Mapped[str] = mapped_column(sa.String(80), default="")
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))

    user: Mapped[User] = relationship()


class LoginFailure(Model):
    """A failed login, counted in the database against the account it named, so that every
    worker and machine sees the same count (accounts/failures.py). `account` is a keyed digest
    of the name's usernames.username_key, never the name typed: people type passwords there.
    Rows older than the longest window of the limit are deleted as new ones come."""

    __table_args__ = (sa.Index("ix_login_failure_account_at", "account", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    account: Mapped[str] = mapped_column(sa.String(64))
    at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow, index=True)


class Club(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(120))
    # The secret in the invitation link; a new one revokes the old link.
    invite_code: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    # Fewer finished matches than this in a season and a player is listed but not ranked.
    min_matches_ranked: Mapped[int] = mapped_column(default=3, server_default="3")
    # A club being imported is written in steps (exchange.club_import) and is no one's until
    # its last step: to everyone else it does not exist, and a failed import removes it.
    importing: Mapped[bool] = mapped_column(default=False, server_default=sa.false())

    memberships: Mapped[list[Membership]] = relationship(
        back_populates="club", cascade="all, delete-orphan"
    )
    players: Mapped[list[Player]] = relationship(
        back_populates="club", cascade="all, delete-orphan", order_by="Player.name"
    )
    matches: Mapped[list[Match]] = relationship(
        back_populates="club", cascade="all, delete-orphan", order_by="Match.id.desc()"
    )
    seasons: Mapped[list[Season]] = relationship(
        back_populates="club", cascade="all, delete-orphan", order_by="Season.starts_on"
    )


class Season(Model):
    """A named stretch of the club's calendar, both days included; seasons never overlap."""

    __table_args__ = (sa.UniqueConstraint("club_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(sa.String(80))
    starts_on: Mapped[date] = mapped_column(sa.Date)
    ends_on: Mapped[date] = mapped_column(sa.Date)

    club: Mapped[Club] = relationship(back_populates="seasons")


class Membership(Model):
    __table_args__ = (sa.UniqueConstraint("club_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"))
    role: Mapped[Role] = mapped_column(sa.Enum(Role, native_enum=False, length=16))

    club: Mapped[Club] = relationship(back_populates="memberships")
    user: Mapped[User] = relationship(back_populates="memberships")


class Player(Model):
    """Someone who plays at the club's table; a player needs no account."""

    __table_args__ = (sa.UniqueConstraint("club_id", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(sa.String(80))

    club: Mapped[Club] = relationship(back_populates="players")


class Match(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"), index=True)
    variant_id: Mapped[str] = mapped_column(sa.String(40))
    # Every option frozen at the start, so a later change to a preset never alters this match;
    # house_rules keeps just what the players changed, for the rules page.
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    house_rules: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)
    format: Mapped[str] = mapped_column(sa.String(20))
    first_dealer: Mapped[int] = mapped_column(default=0)  # index into the seats
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))
    # The owner's choice of season; without it the match belongs to the season its first
    # hand falls in (records.seasons.season_of).
    # (No ON DELETE: records.seasons.delete_season clears it; see migration 0002.)
    season_id: Mapped[int | None] = mapped_column(sa.ForeignKey("season.id"), index=True)
    # Derived, like the stats tables: where the live hands brought the match (the next hand's
    # number, the live hands' count, each competitor's total as exact fraction text), so a
    # save scores against the previous hand's state instead of replaying every hand
    # (match.progress). None: not counted yet; the next write counts it from the hands.
    progress: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON)

    club: Mapped[Club] = relationship(back_populates="matches")
    season: Mapped[Season | None] = relationship()
    teams: Mapped[list[MatchTeam]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="MatchTeam.position"
    )
    seats: Mapped[list[Seat]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="Seat.position"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="match", cascade="all, delete-orphan", order_by="Hand.number"
    )


class MatchTeam(Model):
    """A fixed team (4p, 2p, 3p, 6p); the share formats form their sides anew each hand."""

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(80))

    match: Mapped[Match] = relationship(back_populates="teams")


class Seat(Model):
    """A player's place at the table, in clockwise order, and their fixed team if any."""

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    # Indexed: a player's page lists their matches, those without a hand too.
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"), index=True)
    team_id: Mapped[int | None] = mapped_column(sa.ForeignKey("match_team.id"))

    match: Mapped[Match] = relationship(back_populates="seats")
    # Joined: every reader of a seat wants its player's name (seating, scoreboards), and one
    # query per seat made a save and every page that names players cost a query a player.
    player: Mapped[Player] = relationship(lazy="joined")
    team: Mapped[MatchTeam | None] = relationship()


class Hand(Model):
    """The current version of one hand of a match; earlier versions live in HandVersion."""

    __table_args__ = (
        sa.UniqueConstraint("match_id", "number"),
        sa.UniqueConstraint("match_id", "idempotency_key"),
        # What the live pages' revisions add up (play.live, tournaments.table_links), read
        # from the index alone: a tournament's big screen sums every table's hands.
        sa.Index("ix_hand_revision", "match_id", "version", "updated_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    number: Mapped[int]
    version: Mapped[int] = mapped_column(default=1)
    # What the players entered: kózi and, per side, melds, hands, flags (the body of
    # POST /api/v1/hands/score without variant, options, format and score_before).
    entry: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    # What the engine made of it: per side name, players, score and lines; and the problems.
    result: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    # Derived from entry and result (match.scored.Tally): the kózi and each side's name,
    # players and score, all a scoreboard line, the match totals and the score picture read
    # of a hand. None: not written yet (the pages then read it from entry and result).
    # Deferred: the pages select it by itself; a Hand loaded whole (a correction, the stats,
    # migration 0007's rebuild on a database that has no such column yet) leaves it out.
    tally: Mapped[dict[str, Any] | None] = mapped_column(sa.JSON, deferred=True)
    accepted_reason: Mapped[str | None] = mapped_column(sa.Text)
    # A deleted hand keeps its number (and its history) so numbers never shift under a link.
    deleted: Mapped[bool] = mapped_column(default=False)
    idempotency_key: Mapped[str | None] = mapped_column(sa.String(100))
    updated_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    updated_by_id: Mapped[int | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))

    match: Mapped[Match] = relationship(back_populates="hands")
    updated_by: Mapped[User | None] = relationship()


class ShareLink(Model):
    """A read-only link anyone may open without an account: to one match's scoreboard, or
    (without a match) to the club's big screen. Only the SHA-256 digest of its secret is
    stored, as for API tokens; revoking or expiring it ends access at the next request."""

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"), index=True)
    match_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), index=True
    )
    digest: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_by_id: Mapped[int | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))

    created_by: Mapped[User | None] = relationship()


class JoinRequest(Model):
    """A signed-in person who opened a shared link asks to join its club; an owner accepts
    (they join as a viewer) or declines, and the request is gone either way."""

    __table_args__ = (sa.UniqueConstraint("club_id", "user_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    user: Mapped[User] = relationship()


class ClubImport(Model):
    """One club file someone sent to be imported: their imports in a window are counted here
    (exchange.import_rate), in the database every worker shares; `club_id` is the club it
    made or is making (a club left hidden by a killed worker is found by it)."""

    __table_args__ = (sa.Index("ix_club_import_user_started", "user_id", "started_at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    # None: an import from the command line, which no limit counts.
    user_id: Mapped[int | None] = mapped_column(sa.ForeignKey("user.id", ondelete="CASCADE"))
    started_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    club_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("club.id", ondelete="SET NULL"), index=True
    )


class HandVersion(Model):
    """Every saved state of a hand, kept for good: who changed what, and when."""

    # A match's versions are read together (its history, its first hand's time).
    __table_args__ = (sa.Index("ix_hand_version_match_number", "match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(sa.ForeignKey("match.id", ondelete="CASCADE"))
    number: Mapped[int]
    version: Mapped[int]
    action: Mapped[str] = mapped_column(sa.String(10))  # created, edited, deleted
    entry: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    result: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    accepted_reason: Mapped[str | None] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    user_id: Mapped[int | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))

    user: Mapped[User | None] = relationship()


# --- Derived tables: sums of the stored hands, kept in step by records.stats ---------------
# Nothing here is entered by anyone: every row can be rebuilt from the hands
# (`flask --app scorekeeper rebuild-stats`), and the hand service refreshes a match's rows in
# the transaction that saves, edits or deletes one of its hands.

#: Points are stored times this: shares of a side of two or three are halves and thirds, so a
#: whole number of sixtieths keeps every share exact (and sums stay exact in SQL).
POINT_SCALE = 60


class MatchStat(Model):
    """When a match with at least one live hand was played: the lists of matches read it
    (newest first by day, then id) instead of every hand's history."""

    __table_args__ = (
        sa.Index("ix_match_stat_listed", "club_id", "played_on", "match_id"),
        sa.Index("ix_match_stat_played", "club_id", "played_at"),
    )

    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    # When its first live hand was first saved, and that day in UTC.
    played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    played_on: Mapped[date] = mapped_column(sa.Date)


class PlayerMatchStat(Model):
    """One player's part in one match with at least one live hand."""

    __table_args__ = (
        sa.Index("ix_player_match_stat_board", "club_id", "finished", "played_at"),
        sa.Index("ix_player_match_stat_player", "player_id"),
    )

    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    # When the match's first live hand was first saved: its place in time and its season.
    played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    finished: Mapped[bool]
    won: Mapped[bool]
    # The team name, or the player's id in the share formats; the order the ratings use.
    competitor: Mapped[str] = mapped_column(sa.String(80))
    competitor_order: Mapped[int]
    seat: Mapped[int]
    competitor_total: Mapped[int] = mapped_column(sa.BigInteger)  # × POINT_SCALE
    hands: Mapped[int]
    points: Mapped[int] = mapped_column(sa.BigInteger)  # credited points × POINT_SCALE
    side_points: Mapped[int] = mapped_column(sa.BigInteger)
    biribas_clean: Mapped[int]
    biribas_dirty: Mapped[int]
    full_runs: Mapped[int]
    went_out: Mapped[int]
    # The highest score of a side the player was on in one hand (None: no hand played): the
    # player page reads the hands of the few matches whose best can reach its best hands.
    best_hand: Mapped[int | None] = mapped_column(sa.BigInteger)


class PairMatchStat(Model):
    """Two players on one side in one match with at least one live hand: one team of a
    fixed-team format, or partners in some hands of a share format."""

    __table_args__ = (
        sa.Index("ix_pair_match_stat_board", "club_id", "finished", "played_at"),
        # Holds all the partnerships and teams read: they are summed from the index alone.
        sa.Index(
            "ix_pair_match_stat_pairs",
            "club_id",
            "finished",
            "player_id",
            "partner_id",
            "teammates",
            "won",
            "hands",
            "side_points",
        ),
        sa.Index("ix_pair_match_stat_player", "player_id"),
        sa.Index("ix_pair_match_stat_partner", "partner_id"),
    )

    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(  # the lower id of the two
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    partner_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))  # as PlayerMatchStat
    finished: Mapped[bool]
    teammates: Mapped[bool]  # one team of a fixed-team format
    won: Mapped[bool]  # … and that team won
    hands: Mapped[int]  # live hands played on one side
    side_points: Mapped[int] = mapped_column(sa.BigInteger)  # those sides' scores


class RatingStep(Model):
    """A player's rating before and after one finished match, in the order played."""

    __table_args__ = (
        sa.UniqueConstraint("player_id", "seq"),
        sa.Index("ix_rating_step_club_played", "club_id", "played_at", "match_id"),
    )

    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    played_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True))
    seq: Mapped[int]  # 1 for the player's first rated match
    mu_before: Mapped[float] = mapped_column(sa.Double)
    sigma_before: Mapped[float] = mapped_column(sa.Double)
    mu: Mapped[float] = mapped_column(sa.Double)
    sigma: Mapped[float] = mapped_column(sa.Double)


class PlayerTotal(Model):
    """A player's sums over all their finished matches: the all-time leaderboard's line."""

    __table_args__ = (sa.Index("ix_player_total_club", "club_id"),)

    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    matches: Mapped[int]
    wins: Mapped[int]
    hands: Mapped[int]
    points: Mapped[int] = mapped_column(sa.BigInteger)  # × POINT_SCALE
    side_points: Mapped[int] = mapped_column(sa.BigInteger)
    biribas_clean: Mapped[int]
    biribas_dirty: Mapped[int]
    full_runs: Mapped[int]
    went_out: Mapped[int]


class PlayerRating(Model):
    """A player's rating after all their finished matches (their last RatingStep)."""

    __table_args__ = (sa.Index("ix_player_rating_club", "club_id"),)

    player_id: Mapped[int] = mapped_column(
        sa.ForeignKey("player.id", ondelete="CASCADE"), primary_key=True
    )
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"))
    mu: Mapped[float] = mapped_column(sa.Double)
    sigma: Mapped[float] = mapped_column(sa.Double)
    matches: Mapped[int]
    # How far the conservative rating (mu − 3 sigma) moved over the last few matches
    # (records.rating_history.TREND_MATCHES).
    trend: Mapped[float] = mapped_column(sa.Double)


class _KeptDrawing:
    """What a kept drawing holds besides what it is of (play/drawings.py): the revision it
    shows, the code's build, `what` was drawn, the drawing, and when it was stored."""

    #: The column of what the drawing is of (its match, its tournament).
    owner: ClassVar[str]

    revision: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    build: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    what: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    body: Mapped[str] = mapped_column(sa.Text)
    created_at: Mapped[datetime] = mapped_column(
        sa.DateTime(timezone=True), default=utcnow, index=True
    )


class LiveDrawing(_KeptDrawing, Model):
    """A drawing of a live page's changed parts (play/live_pages.py), kept for every worker: the
    match's viewers all ask for the same one right after a save, so one worker draws it and
    the others read it. Keyed by what it is a drawing of: the match, its revision (which
    moves with every save, correction and deletion), the code's build (a deploy never meets
    an old drawing) and `what` (the kind of answer, with the language and kind of reader).
    Each match keeps only its current revision's drawings (play/drawings.py)."""

    owner = "match_id"
    match_id: Mapped[int] = mapped_column(
        sa.ForeignKey("match.id", ondelete="CASCADE"), primary_key=True
    )


class ScreenDrawing(_KeptDrawing, Model):
    """A drawing of a tournament's big screen's changing part (tournaments/live_pages.py),
    kept for every worker as LiveDrawing keeps a match's: after each saved hand every
    television in the room asks for it again, and drawing it reads the open round's tables
    and ranks every entry. Keyed by the tournament, its revision (the live revision and its
    setup, tournaments.live_pages.screen_html), the code's build and `what` (the language).
    Only the current revision's are kept."""

    owner = "tournament_id"
    tournament_id: Mapped[int] = mapped_column(
        sa.ForeignKey("tournament.id", ondelete="CASCADE"), primary_key=True
    )


# --- tournaments (issue 20; tournaments.md) -------------------------------------------------


class Tournament(Model):
    """A club night or a tournament: its rules (frozen as a match's are), how its tables are
    drawn, how a table's Match Points become VP, and its rounds. Every table of a round is
    an ordinary match of the club (TournamentTable.match)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(sa.ForeignKey("club.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(sa.String(80))
    # The rules as a Match keeps them: the preset, every option frozen (deals per round
    # included, as the `deals` option), and the options the director changed.
    variant_id: Mapped[str] = mapped_column(sa.String(40))
    options: Mapped[dict[str, Any]] = mapped_column(sa.JSON)
    house_rules: Mapped[dict[str, Any]] = mapped_column(sa.JSON, default=dict)
    format: Mapped[str] = mapped_column(sa.String(20))  # "4p" (pairs) or "2p" (singles)
    movement: Mapped[str] = mapped_column(sa.String(20))  # movements.Movement
    rounds: Mapped[int]
    # None: a round is played to the variant's target.
    deals_per_round: Mapped[int | None]
    vp_scale: Mapped[str] = mapped_column(sa.String(40))  # a preset's id, or "custom"
    # The scale's rows as scales.scale_to_json gives them, so a preset changed later never
    # changes a tournament's VP.
    vp_rows: Mapped[list[dict[str, Any]]] = mapped_column(sa.JSON)
    bye_vp: Mapped[int] = mapped_column(default=12)
    round_minutes: Mapped[int | None]
    # Whether its tables count in the season's leaderboard and ratings (tournaments.md §6).
    counts_in_season: Mapped[bool] = mapped_column(default=True, server_default=sa.true())
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    created_by_id: Mapped[int | None] = mapped_column(sa.ForeignKey("user.id", ondelete="SET NULL"))

    club: Mapped[Club] = relationship()
    entries: Mapped[list[TournamentEntry]] = relationship(
        back_populates="tournament",
        cascade="all, delete-orphan",
        order_by="TournamentEntry.position",
    )
    round_rows: Mapped[list[TournamentRound]] = relationship(
        back_populates="tournament",
        cascade="all, delete-orphan",
        order_by="TournamentRound.number",
    )
    penalties: Mapped[list[TournamentPenalty]] = relationship(
        back_populates="tournament",
        cascade="all, delete-orphan",
        order_by="TournamentPenalty.id",
    )


class TournamentEntry(Model):
    """A pair (4p) or a single player (2p) of a tournament; `position` is its seed, from 1."""

    __table_args__ = (
        sa.UniqueConstraint("tournament_id", "position"),
        sa.UniqueConstraint("tournament_id", "name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament.id", ondelete="CASCADE"))
    position: Mapped[int]
    name: Mapped[str] = mapped_column(sa.String(80))
    withdrawn: Mapped[bool] = mapped_column(default=False, server_default=sa.false())

    tournament: Mapped[Tournament] = relationship(back_populates="entries")
    players: Mapped[list[TournamentEntryPlayer]] = relationship(
        back_populates="entry",
        cascade="all, delete-orphan",
        order_by="TournamentEntryPlayer.position",
        lazy="selectin",
    )


class TournamentEntryPlayer(Model):
    """One player of an entry, in the order the entry names them."""

    __table_args__ = (sa.UniqueConstraint("entry_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    entry_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament_entry.id", ondelete="CASCADE"))
    position: Mapped[int]
    player_id: Mapped[int] = mapped_column(sa.ForeignKey("player.id"), index=True)

    entry: Mapped[TournamentEntry] = relationship(back_populates="players")


class TournamentRound(Model):
    """A round: open while its tables play, closed by the director."""

    __table_args__ = (sa.UniqueConstraint("tournament_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament.id", ondelete="CASCADE"))
    number: Mapped[int]
    status: Mapped[str] = mapped_column(sa.String(10), default="open")  # "open" or "closed"
    started_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))

    tournament: Mapped[Tournament] = relationship(back_populates="round_rows")
    tables: Mapped[list[TournamentTable]] = relationship(
        back_populates="round",
        cascade="all, delete-orphan",
        order_by="TournamentTable.number",
    )
    byes: Mapped[list[TournamentBye]] = relationship(
        back_populates="round", cascade="all, delete-orphan", order_by="TournamentBye.id"
    )


class TournamentTable(Model):
    """One table of a round: the entries sitting NS and EW and the match they play (NS its
    first team, EW its second)."""

    __table_args__ = (sa.UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament_round.id", ondelete="CASCADE"))
    number: Mapped[int]
    ns_entry_id: Mapped[int] = mapped_column(
        sa.ForeignKey("tournament_entry.id", ondelete="CASCADE")
    )
    ew_entry_id: Mapped[int] = mapped_column(
        sa.ForeignKey("tournament_entry.id", ondelete="CASCADE")
    )
    # None once the match was deleted: the table then has no result.
    match_id: Mapped[int | None] = mapped_column(
        sa.ForeignKey("match.id", ondelete="SET NULL"), index=True
    )
    confirmed: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    # Who countersigned the result: "ns" or "ew" (through its table link) or "director".
    confirmed_by: Mapped[str | None] = mapped_column(sa.String(10))
    confirmed_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # When a confirmed result's hands were corrected, which undid its confirmation
    # (tournaments.directing); None again once it is confirmed again. The console says so:
    # "finished" alone would hide that a result the room saw confirmed has changed.
    corrected_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))
    # The side whose table link saved or corrected a hand last ("ns" or "ew"); None when
    # a member wrote it on the match's own pages. The other side countersigns.
    last_side: Mapped[str | None] = mapped_column(sa.String(2))
    # Raised by every UPDATE of the row (ORM or Core: a confirmation, a correction undoing
    # one, who wrote last): the tournament's live revision (table_links.revision) sums it,
    # so one aggregate sees a change of any table, where it read every table's row.
    version: Mapped[int] = mapped_column(
        default=0, server_default="0", onupdate=sa.literal_column("version") + 1
    )

    round: Mapped[TournamentRound] = relationship(back_populates="tables")
    match: Mapped[Match | None] = relationship()
    links: Mapped[list[TournamentTableLink]] = relationship(
        back_populates="table", cascade="all, delete-orphan", order_by="TournamentTableLink.id"
    )


class TournamentTableLink(Model):
    """A side's scorer link to its table (no account): it opens that table's match for hand
    entry while its round is open. As for share links only the SHA-256 digest of the secret
    is stored; the secret itself is derived from the app's secret key and `salt`
    (tournaments.table_links), so the director can print the table card again."""

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(
        sa.ForeignKey("tournament_table.id", ondelete="CASCADE"), index=True
    )
    side: Mapped[str] = mapped_column(sa.String(2))  # "ns" or "ew"
    salt: Mapped[str] = mapped_column(sa.String(32))
    digest: Mapped[str] = mapped_column(sa.String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)
    withdrawn_at: Mapped[datetime | None] = mapped_column(sa.DateTime(timezone=True))

    table: Mapped[TournamentTable] = relationship(back_populates="links")


class TournamentBye(Model):
    """An entry sitting out a round; it scores `vp` and no MP."""

    __table_args__ = (sa.UniqueConstraint("round_id", "entry_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament_round.id", ondelete="CASCADE"))
    entry_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament_entry.id", ondelete="CASCADE"))
    vp: Mapped[int]

    round: Mapped[TournamentRound] = relationship(back_populates="byes")


class TournamentPenalty(Model):
    """A director's penalty in MP and/or VP with its reason, shown beside the totals it was
    taken from; `round_number` None: given to the tournament as a whole."""

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament.id", ondelete="CASCADE"))
    entry_id: Mapped[int] = mapped_column(sa.ForeignKey("tournament_entry.id", ondelete="CASCADE"))
    round_number: Mapped[int | None]
    mp: Mapped[int] = mapped_column(default=0)
    vp: Mapped[int] = mapped_column(default=0)
    reason: Mapped[str] = mapped_column(sa.String(200))
    created_at: Mapped[datetime] = mapped_column(sa.DateTime(timezone=True), default=utcnow)

    tournament: Mapped[Tournament] = relationship(back_populates="penalties")
