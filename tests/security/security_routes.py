"""Who may use each route, and a request that does what the route is for.

Every method of every rule in app.url_map must be here (tests/security/test_access_matrix.py
fails for a route that is not): when you add a route, add a row saying what each role gets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from io import BytesIO
from typing import Any

from flask.testing import FlaskClient
from security_world import PASSWORD, ROLES, World, form_of
from support.hand_entries import REFERENCE_HAND

from scorekeeper.play.engine_files import runtime_version

#: A page answers an anonymous visitor with a redirect to the login page; the API with 401.
LOGIN = "login"
Statuses = dict[str, int | str]
#: Builds the request's keyword arguments for client.open; the client is the owner's, for
#: reading forms as the page draws them.
Ask = Callable[[World, FlaskClient], dict[str, Any]]


@dataclass(frozen=True)
class Route:
    statuses: Statuses  # what each role gets
    ask: Ask | None = None  # the request body and headers (None: nothing to send)
    changes: tuple[str, ...] = ()  # the roles whose request changes stored data
    why: str = ""


def public(ok: int) -> Statuses:
    return dict.fromkeys(ROLES, ok)


def signed_in(ok: int) -> Statuses:
    return {"anonymous": LOGIN} | dict.fromkeys(ROLES[1:], ok)


def guests(ok: int) -> Statuses:
    """Login and register: a logged-in visitor is sent on to their clubs."""
    return {"anonymous": ok} | dict.fromkeys(ROLES[1:], 302)


def member(ok: int) -> Statuses:
    return {"anonymous": LOGIN, "stranger": 404, "viewer": ok, "scorer": ok, "owner": ok}


def scorer(ok: int) -> Statuses:
    return {"anonymous": LOGIN, "stranger": 404, "viewer": 403, "scorer": ok, "owner": ok}


def owner(ok: int) -> Statuses:
    return {"anonymous": LOGIN, "stranger": 404, "viewer": 403, "scorer": 403, "owner": ok}


def own_token(ok: int) -> Statuses:
    """Someone else's token is as unknown as no token at all."""
    return {"anonymous": LOGIN} | dict.fromkeys(ROLES[1:4], 404) | {"owner": ok}


WRITERS = ("scorer", "owner")
ANY_SIGNED_IN = ROLES[1:]


def form(**data: Any) -> Ask:
    return lambda world, _owner: {"data": data}


def json(body: Callable[[World], Any], **headers: str) -> Ask:
    return lambda world, _owner: {"json": body(world), "headers": headers}


def hand_form(path: str, save: bool = True) -> Ask:
    """Hand 1 as its correction form shows it, saved (as a new hand, or as the correction),
    or only sent to the live preview (`save=False`)."""

    def ask(world: World, owner: FlaskClient) -> dict[str, Any]:
        page = owner.get(f"/matches/{world.match}/hands/1/edit").get_data(as_text=True)
        data = form_of(page, "hand-form")
        if path == "new":
            data.poplist("version")
        if save:
            data["save"] = "1"
        return {"data": data}

    return ask


def table_hand_form(new: bool, save: bool = True) -> Ask:
    """Hand 1 of the world's tournament table 1 as its link's correction form shows it:
    sent as a new hand, or as the correction; saved, or only previewed."""

    def ask(world: World, owner: FlaskClient) -> dict[str, Any]:
        page = owner.get(f"/tables/{world.table_link}/hands/1/edit").get_data(as_text=True)
        data = form_of(page, "hand-form")
        if new:
            data.poplist("version")
        if save:
            data["save"] = "1"
        return {"data": data}

    return ask


def new_match_form(world: World, owner: FlaskClient) -> dict[str, Any]:
    page = owner.get(f"/clubs/{world.club}/matches/new?preset=pagat&format=4p")
    data = form_of(page.get_data(as_text=True), "new-match")
    seats = {"0-seat-0": "Ann", "0-seat-1": "Cy", "1-seat-0": "Bob", "1-seat-1": "Di"}
    for name, player in seats.items():
        data[f"team-{name}"] = str(world.players[player])
    data["team-0-name"], data["team-1-name"] = "North", "South"
    return {"data": data}


def _match_body(world: World) -> dict[str, Any]:
    p = world.players
    return {
        "club": world.club,
        "variant": "pagat",
        "format": "4p",
        "teams": [
            {"name": "North", "players": [p["Ann"], p["Cy"]]},
            {"name": "South", "players": [p["Bob"], p["Di"]]},
        ],
    }


def _tournament_body(world: World) -> dict[str, Any]:
    p = world.players
    return {
        "club": world.club,
        "name": "Next week",
        "variant": "pagat",
        "format": "4p",
        "movement": "mitchell",
        "rounds": 1,
        "deals_per_round": 2,
        "vp_scale": "burraco-3-deals",
        "entries": [
            {"name": "North", "players": [p["Ann"], p["Cy"]]},
            {"name": "South", "players": [p["Bob"], p["Di"]]},
        ],
    }


#: The setup form, filled in: two singles of the home club, one round.
_TOURNAMENT_FORM = {
    "name": "Next week",
    "preset": "pagat",
    "format": "2p",
    "movement": "round-robin",
    "rounds": "1",
    "deals": "1",
    "scale": "win-draw-loss",
    "bye_vp": "12",
    "entries": "Ann\nBob",
    "seeding": "given",
}


def _entry_form(**data: str) -> Ask:
    """`data` with the tournament's first entry as the form's "entry" (the page's select)."""

    def ask(world: World, owner: FlaskClient) -> dict[str, Any]:
        read = owner.get(f"/api/v1/tournaments/{world.tournament}").get_json()
        return {"data": {"entry": str(read["entries"][0]["id"]), **data}}

    return ask


def _hand_body(world: World) -> dict[str, Any]:
    return {**REFERENCE_HAND, "teams": [{**t} for t in REFERENCE_HAND["teams"]]}


def _club_file(world: World, owner: FlaskClient) -> dict[str, Any]:
    """The home club's own backup, uploaded to make a new club."""
    exported = owner.get(f"/clubs/{world.club}/export.json").get_data()
    return {"data": {"file": (BytesIO(exported), "club.json")}}


def _this_year() -> dict[str, str]:
    """The days of the world's own season (security_world.build_world)."""
    year = date.today().year
    return {"starts_on": f"{year}-01-01", "ends_on": f"{year}-12-31"}


def _next_year(name: str) -> dict[str, str]:
    year = date.today().year + 1
    return {"name": name, "starts_on": f"{year}-01-01", "ends_on": f"{year}-12-31"}


def _version(world: World) -> str:
    return f'"{world.hand_version}"'


TABLE: dict[tuple[str, str], Route] = {
    # Open to everyone: the referee, the rules, the start page and the files.
    ("GET", "pages.home"): Route(public(200)),
    # The read-only sample match (scored at each request, never stored) and the API page.
    ("GET", "pages.demo"): Route(public(200)),
    # The demo's sandbox hand: the sample's next hand scored for anyone, stored nowhere.
    ("GET", "pages.demo_hand"): Route(public(200)),
    ("POST", "pages.demo_hand"): Route(
        public(200), form(kozi="H", **{"s0-meld": "3H 4H 5H"}), why="changes nothing"
    ),
    ("POST", "pages.demo_hand_preview"): Route(
        public(200), form(kozi="H", **{"s0-meld": "3H 4H 5H"}), why="changes nothing"
    ),
    ("GET", "pages.api"): Route(public(200)),
    ("GET", "static"): Route(public(200)),
    ("GET", "health.healthz"): Route(public(200)),
    # The rules engine for the phone's offline score: public files, nobody's data (none
    # where npm did not install Pyodide).
    ("GET", "engine_files.engine"): Route(public(200)),
    ("GET", "engine_files.runtime"): Route(public(200 if runtime_version() else 404)),
    # The installable app: its manifest, service worker and offline page name nobody.
    ("GET", "pwa.manifest"): Route(public(200)),
    ("GET", "pwa.service_worker"): Route(public(200)),
    ("GET", "pwa.offline"): Route(public(200)),
    ("GET", "pwa.offline_expired"): Route(public(200)),
    # Whose the kept pages are: anyone may ask; the anonymous hear of no session, no club.
    ("GET", "offline.session"): Route(public(200)),
    ("GET", "api.variants"): Route(public(200)),
    ("POST", "api.check_meld"): Route(
        public(200), json(lambda w: {"variant": "pagat", "kozi": "H", "cards": "3H 4H 5H"})
    ),
    ("POST", "api.score_hand"): Route(
        public(200),
        json(lambda w: {"variant": "pagat", "format": "4p", **_hand_body(w)}),
    ),
    ("GET", "referee.index"): Route(public(200)),
    ("GET", "referee.meld"): Route(public(200)),
    ("POST", "referee.meld"): Route(
        public(200), form(variant="pagat", kozi="H", cards="3H 4H 5H"), why="changes nothing"
    ),
    ("GET", "referee.rules_index"): Route(public(200)),
    ("GET", "referee.rules"): Route(public(200)),
    ("GET", "i18n.switch_language_link"): Route(public(303)),
    ("POST", "i18n.switch_language"): Route(public(303), form(lang="el")),
    ("POST", "theme.switch_theme"): Route(public(303), form(theme="dark")),
    # The invitation: the link is the secret; opening it shows the club's name to anyone.
    ("GET", "clubs.join"): Route(public(200)),
    ("POST", "clubs.join_confirmed"): Route(signed_in(302), changes=("stranger",)),
    # Accounts.
    ("GET", "auth.login"): Route(guests(200)),
    ("POST", "auth.login"): Route(
        guests(302),
        lambda w, _o: {"data": {"username": w.usernames["owner"], "password": PASSWORD}},
    ),
    ("GET", "auth.register"): Route(guests(200)),
    ("POST", "auth.register"): Route(
        guests(302),
        form(username="newcomer", password=PASSWORD, repeat=PASSWORD),
        changes=("anonymous",),
    ),
    ("POST", "auth.logout"): Route(public(302)),
    ("GET", "account.tokens"): Route(signed_in(200)),
    ("POST", "account.create_token"): Route(
        signed_in(201), form(label="phone"), changes=ANY_SIGNED_IN
    ),
    ("POST", "account.revoke_token"): Route(own_token(302), changes=("owner",)),
    ("GET", "account.password"): Route(signed_in(200)),
    ("POST", "account.password"): Route(
        signed_in(302),
        form(current=PASSWORD, password="a new password", repeat="a new password"),
        changes=ANY_SIGNED_IN,
    ),
    ("POST", "account.logout_everywhere"): Route(signed_in(302), changes=ANY_SIGNED_IN),
    # Clubs.
    ("GET", "clubs.index"): Route(signed_in(200)),
    ("POST", "clubs.create"): Route(signed_in(302), form(name="New club"), changes=ANY_SIGNED_IN),
    ("GET", "api_clubs.my_clubs"): Route(signed_in(200)),
    ("POST", "api_clubs.create_club"): Route(
        signed_in(201), json(lambda w: {"name": "New club"}), changes=ANY_SIGNED_IN
    ),
    ("GET", "clubs.show"): Route(member(200)),
    ("GET", "api_clubs.club"): Route(member(200)),
    ("GET", "api_clubs.players"): Route(member(200)),
    ("GET", "api_clubs.player"): Route(member(200)),
    ("POST", "clubs.add_player"): Route(scorer(302), form(name="Zoe"), changes=WRITERS),
    ("POST", "api_clubs.add_player"): Route(
        scorer(201), json(lambda w: {"name": "Zoe"}), changes=WRITERS
    ),
    ("POST", "clubs.set_role"): Route(
        owner(302),
        lambda w, _o: {"data": {f"member-{w.users['viewer']}-role": "scorer"}},
        changes=("owner",),
    ),
    # The owner removes a member (the URL's user is the viewer) after a confirmation page;
    # any member leaves, except the world's only owner, who is told why (400).
    ("GET", "clubs.remove_member"): Route(owner(200)),
    ("POST", "clubs.remove_member"): Route(owner(302), changes=("owner",)),
    ("GET", "clubs.leave"): Route(member(200)),
    ("POST", "clubs.leave"): Route(
        member(302) | {"owner": 400},
        changes=("viewer", "scorer"),
        why="the only owner may not leave the club ownerless",
    ),
    ("GET", "clubs.invite"): Route(owner(200)),
    ("POST", "clubs.renew_invite"): Route(owner(302), changes=("owner",)),
    # Matches and hands.
    ("GET", "matches.new_match"): Route(scorer(200)),
    ("POST", "matches.new_match"): Route(scorer(302), new_match_form, changes=WRITERS),
    ("POST", "api_matches.create_match"): Route(scorer(201), json(_match_body), changes=WRITERS),
    ("GET", "matches.scoreboard"): Route(member(200)),
    # What a live scoreboard and the club's big screen poll (304 once the asker is current).
    ("GET", "live.match_json"): Route(member(200)),
    ("GET", "live.match_regions"): Route(member(200)),
    ("GET", "live.club_screen"): Route(member(200)),
    ("GET", "live.club_json"): Route(member(200)),
    # Share links: scorers make and withdraw them; the link is the secret, so what it opens
    # (the scoreboard, its poll and rules; the club's big screen) answers anyone holding it.
    ("GET", "share.match_links"): Route(scorer(200)),
    ("POST", "share.match_links"): Route(scorer(201), form(until="today"), changes=WRITERS),
    ("POST", "share.revoke_match_link"): Route(scorer(302), changes=WRITERS),
    ("GET", "share.club_links"): Route(scorer(200)),
    ("POST", "share.club_links"): Route(scorer(201), changes=WRITERS),
    ("POST", "share.revoke_club_link"): Route(scorer(302), changes=WRITERS),
    ("GET", "share.watch"): Route(public(200)),
    ("GET", "share.watch_json"): Route(public(200)),
    ("GET", "share.watch_regions"): Route(public(200)),
    ("GET", "share.watch_rules"): Route(public(200)),
    ("GET", "share.club_screen"): Route(public(200)),
    ("GET", "share.club_screen_json"): Route(public(200)),
    # Holding a link, someone signed in outside the club asks to join; members are in.
    ("POST", "share.ask_to_join"): Route(signed_in(302), changes=("stranger",)),
    ("POST", "share.answer_request"): Route(owner(302), form(answer="accept"), changes=("owner",)),
    ("GET", "api_matches.match"): Route(member(200)),
    ("GET", "referee.match_rules"): Route(member(200)),
    ("GET", "matches.hand_history"): Route(member(200)),
    ("GET", "matches.all_hands"): Route(member(200)),
    ("GET", "api_matches.hand"): Route(member(200)),
    ("GET", "matches.new_hand"): Route(scorer(200)),
    ("POST", "matches.new_hand"): Route(scorer(302), hand_form("new"), changes=WRITERS),
    ("POST", "api_matches.add_hand"): Route(scorer(201), json(_hand_body), changes=WRITERS),
    # The live preview: the hand form's body, a JSON answer, nothing stored.
    ("POST", "matches.preview_new_hand"): Route(scorer(200), hand_form("new", save=False)),
    ("POST", "matches.preview_hand"): Route(scorer(200), hand_form("edit", save=False)),
    ("GET", "matches.edit_hand"): Route(scorer(200)),
    ("POST", "matches.edit_hand"): Route(scorer(302), hand_form("edit"), changes=WRITERS),
    ("PUT", "api_matches.edit_hand"): Route(
        scorer(200),
        lambda w, _o: {"json": _hand_body(w), "headers": {"If-Match": _version(w)}},
        changes=WRITERS,
    ),
    ("GET", "matches.delete_hand"): Route(scorer(200)),
    ("POST", "matches.delete_hand"): Route(
        scorer(302), lambda w, _o: {"data": {"version": str(w.hand_version)}}, changes=WRITERS
    ),
    ("DELETE", "api_matches.delete_hand"): Route(
        scorer(204), lambda w, _o: {"headers": {"If-Match": _version(w)}}, changes=WRITERS
    ),
    # A whole match is the owner's to delete.
    ("GET", "matches.delete_match"): Route(owner(200)),
    ("POST", "matches.delete_match"): Route(owner(302), changes=("owner",)),
    ("DELETE", "api_matches.delete_match"): Route(owner(204), changes=("owner",)),
    # Tournaments: the club's owner and scorers direct, every member reads. The world's
    # tournament has round 1 open with both tables finished: it may be closed, and the next
    # round may not start while it is open (409, after the role was checked).
    ("POST", "api_tournaments.create_tournament"): Route(
        scorer(201), json(_tournament_body), changes=WRITERS
    ),
    ("POST", "api_tournaments.start_round"): Route(scorer(409), why="round 1 is still open"),
    ("POST", "api_tournaments.close_round"): Route(scorer(200), changes=WRITERS),
    ("GET", "api_tournaments.tournament"): Route(member(200)),
    ("GET", "api_tournaments.standings"): Route(member(200)),
    # The director's pages (tournaments/pages.py), on the same tournament.
    ("GET", "tournament_pages.index"): Route(member(200)),
    ("GET", "tournament_pages.setup"): Route(scorer(200)),
    ("POST", "tournament_pages.setup"): Route(
        scorer(302), form(**_TOURNAMENT_FORM), changes=WRITERS
    ),
    ("GET", "tournament_pages.console"): Route(member(200)),
    ("POST", "tournament_pages.start_round"): Route(scorer(409), why="round 1 is still open"),
    ("POST", "tournament_pages.close_round"): Route(scorer(302), changes=WRITERS),
    ("POST", "tournament_pages.add_penalty"): Route(
        scorer(302), _entry_form(vp="2", reason="Slow play"), changes=WRITERS
    ),
    ("POST", "tournament_pages.withdraw_entry"): Route(
        scorer(409), _entry_form(), why="entries change between rounds only"
    ),
    ("POST", "tournament_pages.add_entry"): Route(
        scorer(409), form(entry="Late: Eve"), why="entries change between rounds only"
    ),
    ("POST", "tournament_pages.confirm_table"): Route(
        scorer(302), form(round="1", table="1"), changes=WRITERS
    ),
    ("GET", "tournament_pages.ranking"): Route(member(200)),
    ("GET", "tournament_pages.ranking_csv"): Route(member(200)),
    ("GET", "tournament_pages.ranking_json"): Route(member(200)),
    ("POST", "api_tournaments.confirm_table"): Route(scorer(200), changes=WRITERS),
    # A table's scorer link (no account): whoever holds it enters and corrects its own
    # match's hands and countersigns, whoever they are signed in as. The world's table 1 has
    # played its one deal: a new hand is refused (the match is over), a correction goes in,
    # and either side may confirm (a member entered the hand, not a side's phone).
    ("GET", "tournament_tables.table_page"): Route(public(200)),
    ("GET", "tournament_tables.table_json"): Route(public(200)),
    ("POST", "tournament_tables.confirm"): Route(public(302), changes=ROLES),
    ("GET", "tournament_tables.new_hand"): Route(public(200)),
    ("POST", "tournament_tables.new_hand"): Route(
        public(409), table_hand_form(new=True), why="the table's one deal is in"
    ),
    ("GET", "tournament_tables.edit_hand"): Route(public(200)),
    ("POST", "tournament_tables.edit_hand"): Route(
        public(302), table_hand_form(new=False), changes=ROLES
    ),
    ("POST", "tournament_tables.preview_new_hand"): Route(
        public(200), table_hand_form(new=True, save=False)
    ),
    ("POST", "tournament_tables.preview_hand"): Route(
        public(200), table_hand_form(new=False, save=False)
    ),
    # The table cards hold the links' secrets: the director's (owner and scorers) only.
    ("GET", "tournament_tables.table_card"): Route(scorer(200)),
    ("GET", "tournament_tables.round_cards"): Route(scorer(200)),
    ("POST", "tournament_tables.withdraw_link"): Route(scorer(302), changes=WRITERS),
    # The tournament's big screen: members, or the club's big-screen share link.
    ("GET", "tournament_live.big_screen"): Route(member(200)),
    ("GET", "tournament_live.live_json"): Route(member(200)),
    ("GET", "tournament_live.shared_screen"): Route(public(200)),
    ("GET", "tournament_live.shared_json"): Route(public(200)),
    # Seasons: everyone in the club reads them; only the owner shapes them.
    ("GET", "seasons.index"): Route(member(200)),
    ("GET", "seasons.show"): Route(member(200)),
    ("POST", "seasons.create"): Route(
        owner(302), lambda w, _o: {"data": _next_year("Next year")}, changes=("owner",)
    ),
    ("GET", "seasons.edit"): Route(owner(200)),
    ("POST", "seasons.edit"): Route(
        owner(302),
        lambda w, _o: {"data": {**_this_year(), "name": "Renamed"}},
        changes=("owner",),
    ),
    ("GET", "seasons.delete"): Route(owner(200)),
    ("POST", "seasons.delete"): Route(owner(302), changes=("owner",)),
    ("GET", "seasons.place"): Route(owner(200)),
    ("POST", "seasons.place"): Route(
        owner(302), lambda w, _o: {"data": {"season": str(w.season)}}, changes=("owner",)
    ),
    # Leaderboards and the club's files: members read; the owner sets the minimum and takes
    # the whole club's backup; anyone signed in may import a club of their own.
    ("GET", "leaderboard.show"): Route(member(200)),
    ("GET", "api_leaderboard.club_leaderboard"): Route(member(200)),
    ("POST", "leaderboard.set_minimum"): Route(owner(302), form(minimum="2"), changes=("owner",)),
    ("GET", "club_export.season_csv_download"): Route(member(200)),
    ("GET", "club_export.club_json"): Route(owner(200)),
    ("GET", "club_export.backup"): Route(owner(200)),
    ("GET", "club_export.import_page"): Route(signed_in(200)),
    ("POST", "club_export.import_page"): Route(signed_in(302), _club_file, changes=ANY_SIGNED_IN),
    # Players' records.
    ("GET", "players.show"): Route(member(200)),
    ("GET", "players.partnerships"): Route(member(200)),
    ("GET", "players.head_to_head"): Route(member(200)),
}

#: Writes that need no CSRF token, and why: none of them touches anyone's stored data.
CSRF_EXEMPT = {
    "api.check_meld": "the stateless referee API reads no cookie and stores nothing",
    "api.score_hand": "the stateless referee API reads no cookie and stores nothing",
    "referee.meld": "the meld checker page only answers; it stores nothing",
    "pages.demo_hand": "the demo's sandbox hand only answers; it stores nothing",
    "pages.demo_hand_preview": "the sandbox's live preview only answers; it stores nothing",
    "i18n.switch_language": "a language cookie, no stored data; a token would expire",
    "theme.switch_theme": "a theme cookie, no stored data; a token would expire",
}
