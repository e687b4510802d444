"""JSON API v1: clubs and their players, for a logged-in session or a bearer token, as the
matches' endpoints are (play.api): the same login, CSRF and body rules."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from scorekeeper.accounts import api_login_required, me
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import NotFound
from scorekeeper.extensions import csrf, db
from scorekeeper.models import Club, Player, Role, as_utc
from scorekeeper.numbers import is_row_id
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.json_body import created, object_body, text_field
from scorekeeper.web.paging import page_number

bp = Blueprint("api_clubs", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
bp.before_request(api_login_required)

CLUB_FIELDS = frozenset({"name"})
PLAYER_FIELDS = frozenset({"name"})
#: Players a page (`GET /clubs/<id>/players`, and the first page in the club's own answer).
PLAYERS_PAGE = 100
#: The newest matches a club's answer lists.
RECENT_MATCHES = 30


# --- clubs and players --------------------------------------------------------------------------


@bp.get("/clubs")
def my_clubs() -> Response:
    return jsonify(
        {
            "clubs": [
                {"id": club.id, "name": club.name, "role": role.value}
                for club, role in clubs.clubs_of(me())
            ]
        }
    )


@bp.post("/clubs")
def create_club() -> ResponseReturnValue:
    body = object_body(CLUB_FIELDS)
    club = clubs.create_club(me(), text_field(body, "name"))
    return created(_club_json(club, Role.OWNER), url_for(".club", club_id=club.id))


@bp.get("/clubs/<int:club_id>")
def club(club_id: int) -> Response:
    found = clubs.club_for(me(), club_id)
    role = clubs.role_in(me(), found)
    assert role is not None  # club_for found a membership
    return jsonify(_club_json(found, role))


@bp.post("/clubs/<int:club_id>/players")
def add_player(club_id: int) -> ResponseReturnValue:
    found = clubs.club_for(me(), club_id, Role.SCORER)
    body = object_body(PLAYER_FIELDS)
    player = clubs.add_player(found, text_field(body, "name"))
    return created(_player_json(player), url_for(".player", club_id=found.id, player_id=player.id))


@bp.get("/clubs/<int:club_id>/players")
def players(club_id: int) -> Response:
    """The club's players a page at a time (`page`, from 1), by name; `find` keeps those
    whose name holds it."""
    found = clubs.club_for(me(), club_id)
    find = request.args.get("find", "").strip()[: clubs.MAX_FIND]
    total = clubs.players_found(found, find)
    page, pages = page_number(total, PLAYERS_PAGE)
    rows = clubs.players_page(found, find, (page - 1) * PLAYERS_PAGE, PLAYERS_PAGE)
    return jsonify(
        {
            "players": [{"id": p.id, "name": p.name} for p in rows],
            "total": total,
            "page": page,
            "pages": pages,
            "next": None if page >= pages else _players_url(found.id, find, page + 1),
        }
    )


def _players_url(club_id: int, find: str, page: int) -> str:
    return url_for(".players", club_id=club_id, find=find or None, page=page)


@bp.get("/clubs/<int:club_id>/players/<int:player_id>")
def player(club_id: int, player_id: int) -> Response:
    found = clubs.club_for(me(), club_id)
    row = db.session.get(Player, player_id) if is_row_id(player_id) else None
    if row is None or row.club_id != found.id:
        raise NotFound(_("Player %(player)d does not play in this club.", player=player_id))
    return jsonify(_player_json(row))


def _player_json(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "club": player.club_id}


def _club_json(club: Club, role: Role) -> dict[str, Any]:
    """The club with its first page of players and its newest matches (never all of
    either: a club may have a thousand players and any number of matches); the totals say
    how many there are, and `players_next` where the next page of players is."""
    players = clubs.players_page(club, "", 0, PLAYERS_PAGE)
    total = clubs.players_found(club, "") if len(players) == PLAYERS_PAGE else len(players)
    matches, match_total = clubs.recent_matches(club, RECENT_MATCHES)
    return {
        "id": club.id,
        "name": club.name,
        "role": role.value,
        "players": [{"id": p.id, "name": p.name} for p in players],
        "players_total": total,
        "players_next": _players_url(club.id, "", 2) if total > len(players) else None,
        "matches": [
            {
                "id": m.id,
                "variant": m.variant_id,
                "format": m.format,
                "players": [s.player.name for s in m.seats],
                "created_at": as_utc(m.created_at).isoformat(),
            }
            for m in matches
        ],
        "matches_total": match_total,
    }
