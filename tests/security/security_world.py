"""A club world for the security tests: people in every role, a stranger with a club of
their own, matches with hands, a season and API tokens; and the tools to attack it (clients
logged in as each role, URL parameters filled with real ids, snapshots of every table).

Imported by the tests beside it (pyproject.toml puts this folder on the import path).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date
from html.parser import HTMLParser
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.databases import TEST_CONFIG, new_app
from support.databases import drop as drop  # the tests beside this import it from here
from support.hand_entries import ILLEGAL_MELD_HAND, REFERENCE_HAND, typed
from support.tournament_setup import setup_of, singles
from support.world import signed_in
from werkzeug.datastructures import MultiDict
from werkzeug.routing import Rule
from werkzeug.security import generate_password_hash

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import LiveDrawing, Membership, Role, ScreenDrawing, ShareLink, User
from scorekeeper.play import sharing
from scorekeeper.play.engine_files import engine_zip, runtime_version
from scorekeeper.records import seasons
from scorekeeper.tournaments import service as tournaments
from scorekeeper.tournaments import table_links

PASSWORD = "correct horse"
# One hash for every person of the world, made as the test apps make theirs (cheaply: see
# TEST_CONFIG), so a login does not make it anew; the matrix builds hundreds of worlds.
PASSWORD_HASH = generate_password_hash(PASSWORD, TEST_CONFIG["PASSWORD_HASH_METHOD"])

#: Who asks, from nobody to the owner; "stranger" is a member (owner) of another club only.
ROLES = ("anonymous", "stranger", "viewer", "scorer", "owner")
UNSAFE = ("POST", "PUT", "DELETE", "PATCH")


def secure_app(database_url: str, **config: Any) -> Flask:
    """An app of its own as production runs it: CSRF on, login limits on (the `app`
    fixture is the shared one with CSRF switched on; this is for tests that need more)."""
    return new_app(database_url, **({"WTF_CSRF_ENABLED": True} | config))


@dataclass(frozen=True)
class World:
    """Ids of everything (tests run outside the app context)."""

    users: dict[str, int]  # role -> user id ("stranger" owns the other club)
    usernames: dict[str, str]
    club: int
    other_club: int
    players: dict[str, int]
    match: int
    other_match: int
    hand_version: int  # of hand 1 of `match`
    season: int
    invite_code: str
    token: str  # the owner's bearer token
    token_id: int
    stranger_token: str
    reason: str  # hand 2's accepted reason
    share: str  # a working read-only link to `match`
    share_id: int
    club_share: str  # a working link to the home club's big screen
    club_share_id: int
    join_request: int  # someone outside the club asking to join it
    tournament: int  # four singles; round 1 open, both its tables finished
    table_link: str  # the working scorer link of table 1's NS side, round 1 (no account)

    def url_values(self) -> dict[str, object]:
        """A real object for every URL parameter the app uses, seen from the home club."""
        return {
            "club_id": self.club,
            "match_id": self.match,
            "number": 1,
            "user_id": self.users["viewer"],
            "token_id": self.token_id,
            "code": self.invite_code,
            "variant_id": "pagat",
            "filename": "style.css",
            # The rules engine for the phone (scorekeeper/play/engine_files.py).
            "digest": engine_zip()[1],
            "version": runtime_version() or "not-installed",
            "name": "pyodide-lock.json",
            "player_id": self.players["Ann"],
            "season_id": self.season,
            "share": self.share,
            "link_id": self.share_id,
            "club_share": self.club_share,
            "screen_link_id": self.club_share_id,
            "request_id": self.join_request,
            "tournament_id": self.tournament,
            "table_token": self.table_link,
            "round_number": 1,
            "table_number": 1,
            "table": 1,
            "side": "ew",
        }


def build_world(
    app: Flask, text: Callable[[str], str] = str, tournament: tuple[int, str] | None = None
) -> World:
    """The home club (owner, scorer, viewer) and the stranger's club; `text` dresses every
    free-text name (the XSS test puts markup in them). `tournament` (its id and table link)
    stands in for the club's own, which is then not made: a world for a route that never
    names a tournament (a third of the world's making)."""
    with app.app_context():
        people = {role: text(name) for role, name in _NAMES.items()}
        users = {
            role: User(username=name, password_hash=PASSWORD_HASH) for role, name in people.items()
        }
        db.session.add_all(users.values())
        db.session.commit()
        home = clubs.create_club(users["owner"], text("Home club"))
        for role in (Role.SCORER, Role.VIEWER):
            db.session.add(Membership(club=home, user=users[role.value], role=role))
        db.session.commit()
        away = clubs.create_club(users["stranger"], text("Away club"))
        players = {n: clubs.add_player(home, text(n)).id for n in ("Ann", "Bob", "Cy", "Di", "Eve")}
        away_players = [clubs.add_player(away, text(n)).id for n in ("Flo", "Gus", "Hal", "Ivy")]
        match = _match(home, users["owner"], text, [players[n] for n in ("Ann", "Cy", "Bob", "Di")])
        other = _match(away, users["stranger"], text, away_players)
        reason = text("Agreed at the table")
        matches.record_hand(match, users["scorer"], typed(match, _named(REFERENCE_HAND, text)))
        matches.edit_hand(
            match, 1, users["owner"], typed(match, _named(REFERENCE_HAND, text)), 1, reason
        )
        matches.record_hand(
            match, users["scorer"], typed(match, _named(ILLEGAL_MELD_HAND, text)), reason
        )
        matches.record_hand(other, users["stranger"], typed(other, _named(REFERENCE_HAND, text)))
        today = date.today()
        season = seasons.create_season(
            home, text("Season"), date(today.year, 1, 1), date(today.year, 12, 31)
        )
        token = accounts.create_token(users["owner"], text("laptop"))
        token_id = accounts.list_tokens(users["owner"])[0].id
        share = sharing.create_link(home, match, users["scorer"])
        club_share = sharing.create_link(home, None, users["owner"])
        share_id, club_share_id = (link.id for link in _links(home))
        joiner = User(username=text("jo"), password_hash=PASSWORD_HASH)
        db.session.add(joiner)
        db.session.commit()
        sharing.ask_to_join(joiner, home)
        tournament, table_link = tournament or _tournament(
            home, users["owner"], [players[n] for n in ("Ann", "Bob", "Cy", "Di")]
        )
        return World(
            users={role: user.id for role, user in users.items()},
            usernames=people,
            club=home.id,
            other_club=away.id,
            players=players,
            match=match.id,
            other_match=other.id,
            hand_version=2,
            season=season.id,
            invite_code=home.invite_code,
            token=token,
            token_id=token_id,
            stranger_token=accounts.create_token(users["stranger"], "xena's"),
            reason=reason,
            share=share,
            share_id=share_id,
            club_share=club_share,
            club_share_id=club_share_id,
            join_request=sharing.join_requests(home)[0].id,
            tournament=tournament,
            table_link=table_link,
        )


def _links(club: Any) -> list[Any]:
    """The club's match link and big-screen link, in the order they were made."""
    return list(
        db.session.scalars(
            sa.select(ShareLink).where(ShareLink.club_id == club.id).order_by(ShareLink.id)
        )
    )


_NAMES = {"owner": "olga", "scorer": "sam", "viewer": "vera", "stranger": "xena"}


def _match(club: Any, user: User, text: Callable[[str], str], seats: list[int]) -> Any:
    teams = [
        matches.TeamSpec(text("A"), (seats[0], seats[1])),
        matches.TeamSpec(text("B"), (seats[2], seats[3])),
    ]
    return matches.create_match(club, user, "pagat", "4p", teams)


def _tournament(club: Any, user: User, players: list[int]) -> tuple[int, str]:
    """A round robin of four singles, one deal a round: round 1 started, and each of its two
    tables played its deal (so it may be closed; the next round may not start yet); with
    the secret of table 1's NS scorer link."""
    setup = setup_of(singles(players), name="Club night")
    made = tournaments.create_tournament(club, user, setup)
    started = tournaments.start_round(made, user)
    link = table_links.token_of(table_links.working_links(started.tables[0])["ns"])
    for table in started.tables:
        match = table.match
        assert match is not None
        kozi, first, second = PAGAT_HANDS[0]
        sides = [{**side, "hands": side["hands"][:1]} for side in (first, second)]
        hand = {
            "kozi": kozi,
            "teams": [
                {"name": team.name, **side} for team, side in zip(match.teams, sides, strict=True)
            ],
        }
        matches.record_hand(match, user, typed(match, hand))
    return made.id, link


def _named(hand: dict[str, Any], text: Callable[[str], str]) -> dict[str, Any]:
    """The hand with its sides named as the match's teams are."""
    return {**hand, "teams": [{**t, "name": text(t["name"])} for t in hand["teams"]]}


# --- asking as someone ---------------------------------------------------------------------


def client_as(app: Flask, world: World, role: str) -> FlaskClient:
    """A browser session of `role` (anonymous: no session at all)."""
    client = app.test_client()
    if role != "anonymous":
        signed_in(client, world.users[role])
    return client


def csrf_token(client: FlaskClient) -> str:
    """A valid CSRF token of this client's session, read from a form as a browser would."""
    page = client.get("/account/tokens")
    if page.status_code != 200:  # anonymous: the login form carries one too
        page = client.get("/login")
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.get_data(as_text=True))
    assert found, "a form page carries a CSRF token"
    return found.group(1)


def fill(rule: Rule, values: dict[str, object]) -> str:
    """The rule's URL with every parameter filled; a new parameter name must be taught."""
    missing = sorted(set(rule.arguments) - set(values))
    assert not missing, (
        f"{rule.rule} has URL parameters {missing} that tests/security/security_world.py "
        "does not know: add a real object's id for each to World.url_values()"
    )
    path = rule.rule
    for name in rule.arguments:
        path = re.sub(rf"<(?:[^:<>]+:)?{name}>", str(values[name]), path)
    return path


#: A NULL in a snapshot's row (no text a column holds: PostgreSQL stores no NUL).
NULL = "\x00NULL"


def snapshot(app: Flask) -> dict[str, list[tuple[str, ...]]]:
    """Every row of every table, to show that a refused request changed nothing. The kept
    live and big-screen drawings are left out: any allowed reader's GET stores one
    (play.drawings), a cache of what the other tables hold, never data of its own."""
    with app.app_context():
        tables = {}
        for table in db.metadata.sorted_tables:
            if table.name in (LiveDrawing.__tablename__, ScreenDrawing.__tablename__):
                continue
            # As the database's own text: decoding every JSON column into Python and taking
            # its repr was a tenth of the fuzzing's time, and compares no better.
            columns = [sa.cast(column, sa.Text) for column in table.columns]
            rows = db.session.execute(sa.select(*columns)).all()
            tables[table.name] = sorted(
                tuple(NULL if v is None else v for v in row) for row in rows
            )
        db.session.remove()
        return tables


# --- reading a form as a browser sends it ---------------------------------------------------


class _Form(HTMLParser):
    def __init__(self, form_id: str) -> None:
        super().__init__()
        self.form_id, self.inside, self.fields = form_id, False, MultiDict[str, str]()
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        elif not self.inside or not a.get("name"):
            return
        elif tag == "input" and a.get("type", "text") not in ("submit", "button"):
            if a.get("type") not in ("checkbox", "radio") or "checked" in a:
                self.fields.add(a["name"], a.get("value") or "")
        elif tag == "select":
            self._select, self._options = a["name"], []
        elif tag == "textarea":
            self._textarea = a["name"]
            self.fields.add(a["name"], "")
        if tag == "option" and self._select is not None:
            self._options.append((a.get("value", ""), "selected" in a))

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self.fields.setlist(self._textarea, [self.fields[self._textarea] + data])

    def handle_endtag(self, tag: str) -> None:
        if tag == "textarea":
            self._textarea = None
        elif tag == "form":
            self.inside = False
        elif tag == "select" and self._select is not None:
            chosen = [v for v, on in self._options if on] or [v for v, _ in self._options[:1]]
            self.fields.setlist(self._select, chosen)
            self._select = None


def form_of(page: str, form_id: str) -> MultiDict[str, str]:
    """The form's fields as a browser would send them, less its CSRF token: each test says
    itself which token (if any) a request carries."""
    reader = _Form(form_id)
    reader.feed(page)
    reader.fields.poplist("csrf_token")
    return reader.fields


def visible_text(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def every_rule(app: Flask) -> Iterator[tuple[str, Rule]]:
    """Each method of each route, HEAD and OPTIONS aside (Flask answers those itself)."""
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: (r.rule, r.endpoint)):
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            yield method, rule
