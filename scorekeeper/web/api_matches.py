"""JSON API v1: clubs, players, matches and their hands, for a logged-in session or a bearer
token (`Authorization: Bearer <token>`, made with `flask --app scorekeeper create-token`).

Views read the request, ask `scorekeeper.services` and answer with what they say; every score
comes from the rules engine. Errors are `{"error": "…"}` (scorekeeper/web/errors.py): 400 bad
input, 401 anonymous, 403 a role too low, 404 no such thing or not your club, 409 a stale
version or a finished match, 415 a body that is not JSON, 422 a hand with problems and no
accepted reason (with "problems" and "preview"), 428 an edit without If-Match.

Scripts send no CSRF token, so a write with a valid bearer token needs none (no other site can
make a browser send an Authorization header). A write that rides on a session cookie must send
the X-CSRFToken header, as the page forms do (web/security.py); bodies must also come as
`Content-Type: application/json`, which no cross-site form can send.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_login import current_user

from scorekeeper import match as matches
from scorekeeper.extensions import csrf, db, login_manager
from scorekeeper.match import HandEntry, read_hand, seating_of, short, show
from scorekeeper.models import Club, Hand, Match, Player, Role, as_utc
from scorekeeper.rules.variants import options_from_json
from scorekeeper.services import clubs
from scorekeeper.services.errors import Invalid, NotFound
from scorekeeper.services.numbers import MAX_ROW_ID, is_row_id, whole_number
from scorekeeper.web.access import identified_by_token
from scorekeeper.web.auth import me
from scorekeeper.web.json_body import read_json
from scorekeeper.web.security import protect_session_write

bp = Blueprint("api_matches", __name__, url_prefix="/api/v1")
csrf.exempt(bp)

CLUB_FIELDS = frozenset({"name"})
PLAYER_FIELDS = frozenset({"name"})
MATCH_FIELDS = frozenset(
    {"club", "variant", "options", "format", "target", "teams", "first_dealer"}
)
MATCH_TEAM_FIELDS = frozenset({"name", "players"})
#: A hand: what the players entered (read by match.read_hand) and a reason for problems.
HAND_FIELDS = frozenset({"kozi", "teams", "accepted_reason"})
IDEMPOTENCY_KEY_LENGTH = 100  # the column's width


@bp.before_request
def login_required() -> ResponseReturnValue | None:
    if not current_user.is_authenticated:
        answer: ResponseReturnValue = login_manager.unauthorized()  # 401 JSON (web/access.py)
        return answer
    if not identified_by_token():
        protect_session_write()
    return None


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
    body = _body(CLUB_FIELDS)
    club = clubs.create_club(me(), _text(body, "name"))
    return _created(_club_json(club, Role.OWNER), url_for(".club", club_id=club.id))


@bp.get("/clubs/<int:club_id>")
def club(club_id: int) -> Response:
    found = clubs.club_for(me(), club_id)
    role = clubs.role_in(me(), found)
    assert role is not None  # club_for found a membership
    return jsonify(_club_json(found, role))


@bp.post("/clubs/<int:club_id>/players")
def add_player(club_id: int) -> ResponseReturnValue:
    found = clubs.club_for(me(), club_id, Role.SCORER)
    body = _body(PLAYER_FIELDS)
    player = clubs.add_player(found, _text(body, "name"))
    return _created(_player_json(player), url_for(".player", club_id=found.id, player_id=player.id))


@bp.get("/clubs/<int:club_id>/players/<int:player_id>")
def player(club_id: int, player_id: int) -> Response:
    found = clubs.club_for(me(), club_id)
    row = db.session.get(Player, player_id) if is_row_id(player_id) else None
    if row is None or row.club_id != found.id:
        raise NotFound(_("Player %(player)d does not play in this club.", player=player_id))
    return jsonify(_player_json(row))


# --- matches ------------------------------------------------------------------------------------


@bp.post("/matches")
def create_match() -> ResponseReturnValue:
    body = _body(MATCH_FIELDS, required=("club", "variant", "format", "teams"))
    club_id = body["club"]
    if isinstance(club_id, bool) or not isinstance(club_id, int):
        raise Invalid(
            _("'club' must be the id of one of your clubs, not %(value)s.", value=show(club_id))
        )
    found = clubs.club_for(me(), club_id, Role.SCORER)
    for field in ("variant", "format"):
        if not isinstance(body[field], str):
            raise Invalid(
                f'\'{field}\' must be text, such as "pagat" or "4p", not {show(body[field])}.'
            )
    try:
        house_rules = options_from_json(body.get("options"))
    except ValueError as error:
        raise Invalid(str(error)) from None
    match = matches.create_match(
        found,
        me(),
        body["variant"],
        body["format"],
        _team_specs(body["teams"]),
        house_rules=house_rules,
        target=body.get("target"),
        first_dealer=body.get("first_dealer"),
    )
    return _created(matches.match_json(match), url_for(".match", match_id=match.id))


@bp.get("/matches/<int:match_id>")
def match(match_id: int) -> Response:
    return jsonify(matches.match_json(_match(match_id)))


# --- hands --------------------------------------------------------------------------------------


@bp.post("/matches/<int:match_id>/hands")
def add_hand(match_id: int) -> ResponseReturnValue:
    found = _match(match_id, Role.SCORER)
    key = _idempotency_key()
    entry, reason = _hand_body(found)
    hand, new = matches.record_hand(found, me(), entry, reason, key)
    response = _hand_response(hand)
    response.status_code = 201 if new else 200  # 200: a retry, answered with the first hand
    response.headers["Location"] = _hand_url(hand)
    return response


@bp.delete("/matches/<int:match_id>")
def delete_match(match_id: int) -> tuple[str, int]:
    matches.delete_match(_match(match_id, Role.OWNER))
    return "", 204


@bp.get("/matches/<int:match_id>/hands/<int:number>")
def hand(match_id: int, number: int) -> Response:
    return _hand_response(matches.hand_of(_match(match_id), number))


@bp.put("/matches/<int:match_id>/hands/<int:number>")
def edit_hand(match_id: int, number: int) -> Response:
    found = _match(match_id, Role.SCORER)
    version = _if_match()
    matches.check_version(found, number, version)
    entry, reason = _hand_body(found)
    return _hand_response(matches.edit_hand(found, number, me(), entry, version, reason))


@bp.delete("/matches/<int:match_id>/hands/<int:number>")
def delete_hand(match_id: int, number: int) -> tuple[str, int]:
    found = _match(match_id, Role.SCORER)
    matches.delete_hand(found, number, me(), _if_match())
    return "", 204


# --- reading requests ---------------------------------------------------------------------------


def _match(match_id: int, needed: Role = Role.VIEWER) -> Match:
    """The match, if the caller is a member of its club (404 otherwise) with `needed` (403)."""
    missing = _(
        "There is no match %(number)d, or you are not a member of its club.", number=match_id
    )
    return clubs.match_for(me(), match_id, needed, missing)


def _body(allowed: frozenset[str], required: Iterable[str] = ()) -> dict[str, Any]:
    """The request's JSON object, with only `allowed` fields and every `required` one."""
    if not request.is_json:
        abort(415, description=_("Send the body as JSON, with Content-Type: application/json."))
    body = read_json()
    if not isinstance(body, dict):
        raise Invalid(
            _("The request body must be a JSON object, not %(value)s.", value=short(body))
        )
    unknown = sorted(set(body) - allowed)
    if unknown:
        fields = ", ".join(show(field) for field in sorted(allowed))
        raise Invalid(
            _(
                "%(field)s is not a field here; the fields are %(fields)s.",
                field=show(unknown[0]),
                fields=fields,
            )
        )
    missing = [field for field in required if field not in body]
    if missing:
        raise Invalid(_("%(field)s is missing.", field=show(missing[0])))
    return body


def _text(body: Mapping[str, Any], field: str) -> str:
    value = body.get(field)
    if not isinstance(value, str):
        raise Invalid(
            _("%(field)s must be text, not %(value)s.", field=show(field), value=show(value))
        )
    return value


def _team_specs(value: Any) -> list[matches.TeamSpec]:
    if not isinstance(value, list) or not value:
        raise Invalid(
            "'teams' must list the teams, such as "
            '[{"name": "A", "players": [1, 2]}, {"name": "B", "players": [3, 4]}].'
        )
    specs = []
    for number, team in enumerate(value, 1):
        if not isinstance(team, dict):
            raise Invalid(
                _("Team %(number)d must be an object with 'name' and 'players'.", number=number)
            )
        unknown = sorted(set(team) - MATCH_TEAM_FIELDS)
        if unknown:
            raise Invalid(
                _(
                    "Team %(number)d: %(field)s is not a field of a team.",
                    number=number,
                    field=show(unknown[0]),
                )
            )
        name = team.get("name", "")
        if not isinstance(name, str):
            raise Invalid(
                _(
                    "Team %(number)d: 'name' must be text, not %(value)s.",
                    number=number,
                    value=show(name),
                )
            )
        players = team.get("players")
        if not isinstance(players, list):
            raise Invalid(
                _(
                    "Team %(number)d: 'players' must list player ids, not %(value)s.",
                    number=number,
                    value=show(players),
                )
            )
        specs.append(matches.TeamSpec(name=name, player_ids=tuple(players)))
    return specs


def _hand_body(match: Match) -> tuple[HandEntry, str | None]:
    """A hand's entry (its kózi and sides, read against the match's table) and its accepted
    reason."""
    body = _body(HAND_FIELDS)
    reason = body.pop("accepted_reason", None)
    if reason is not None and not isinstance(reason, str):
        raise Invalid(_("'accepted_reason' must be text, not %(value)s.", value=show(reason)))
    return read_hand(body, seating_of(match)), reason


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is None:
        return None
    if not 0 < len(key) <= IDEMPOTENCY_KEY_LENGTH or not key.isascii() or not key.isprintable():
        raise Invalid(
            _(
                "Idempotency-Key must be 1 to %(most)d printable ASCII characters, such as a UUID.",
                most=IDEMPOTENCY_KEY_LENGTH,
            )
        )
    return key


def _if_match() -> int:
    """The version the client last saw: If-Match as "3", 3 or W/"3"."""
    raw = request.headers.get("If-Match", "").strip()
    if not raw:
        abort(
            428,
            description=_(
                "Send If-Match with the version of the hand you are changing (its 'version' "
                "or ETag), so a change you have not seen is never overwritten."
            ),
        )
    text = raw.removeprefix("W/")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1]
    version = whole_number(text, MAX_ROW_ID)
    if version is None:
        raise Invalid(
            _('If-Match must be the hand\'s version, such as "3", not %(value)s.', value=short(raw))
        )
    return version


# --- answering ----------------------------------------------------------------------------------


def _created(body: dict[str, Any], location: str) -> Response:
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = location
    return response


def _hand_url(hand: Hand) -> str:
    return url_for(".hand", match_id=hand.match_id, number=hand.number)


def _hand_response(hand: Hand) -> Response:
    response = jsonify(matches.hand_json(hand))
    response.set_etag(str(hand.version))
    return response


def _player_json(player: Player) -> dict[str, Any]:
    return {"id": player.id, "name": player.name, "club": player.club_id}


def _club_json(club: Club, role: Role) -> dict[str, Any]:
    return {
        "id": club.id,
        "name": club.name,
        "role": role.value,
        "players": [{"id": p.id, "name": p.name} for p in club.players],
        "matches": [
            {
                "id": m.id,
                "variant": m.variant_id,
                "format": m.format,
                "players": [s.player.name for s in m.seats],
                "created_at": as_utc(m.created_at).isoformat(),
            }
            for m in club.matches
        ],
    }
