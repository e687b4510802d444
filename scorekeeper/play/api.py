"""JSON API v1: matches and their hands, for a logged-in session or a bearer token
(`Authorization: Bearer <token>`, made with `flask --app scorekeeper create-token`); clubs and
players are clubs.api's.

Views read the request, ask the match's front door and answer with what it says; every score
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

from typing import Any

from flask import Blueprint, Response, abort, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from scorekeeper import clubs
from scorekeeper import match as matches
from scorekeeper.accounts import api_login_required, me
from scorekeeper.errors import Invalid
from scorekeeper.extensions import csrf
from scorekeeper.match import HandEntry, read_hand, seating_of
from scorekeeper.models import Hand, Match, Role
from scorekeeper.numbers import MAX_ROW_ID, whole_number
from scorekeeper.quote import short, show
from scorekeeper.rules.variants import options_from_json
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.json_body import created, object_body

bp = Blueprint("api_matches", __name__, url_prefix="/api/v1")
csrf.exempt(bp)

MATCH_FIELDS = frozenset(
    {"club", "variant", "options", "format", "target", "teams", "first_dealer"}
)
MATCH_TEAM_FIELDS = frozenset({"name", "players"})
#: A hand: what the players entered (read by match.read_hand) and a reason for problems.
HAND_FIELDS = frozenset({"kozi", "teams", "accepted_reason"})
IDEMPOTENCY_KEY_LENGTH = 100  # the column's width


bp.before_request(api_login_required)


# --- matches ------------------------------------------------------------------------------------


@bp.post("/matches")
def create_match() -> ResponseReturnValue:
    body = object_body(MATCH_FIELDS, required=("club", "variant", "format", "teams"))
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
    return created(matches.match_json(match), url_for(".match", match_id=match.id))


@bp.get("/matches/<int:match_id>")
def match(match_id: int) -> Response:
    return jsonify(matches.match_json(_members_match(match_id)))


# --- hands --------------------------------------------------------------------------------------


@bp.post("/matches/<int:match_id>/hands")
def add_hand(match_id: int) -> ResponseReturnValue:
    found = _members_match(match_id, Role.SCORER)
    key = _idempotency_key()
    entry, reason = _handobject_body(found)
    hand, new = matches.record_hand(found, me(), entry, reason, key)
    response = _hand_response(hand)
    response.status_code = 201 if new else 200  # 200: a retry, answered with the first hand
    response.headers["Location"] = _hand_url(hand)
    return response


@bp.delete("/matches/<int:match_id>")
def delete_match(match_id: int) -> tuple[str, int]:
    matches.delete_match(_members_match(match_id, Role.OWNER))
    return "", 204


@bp.get("/matches/<int:match_id>/hands/<int:number>")
def hand(match_id: int, number: int) -> Response:
    return _hand_response(matches.hand_of(_members_match(match_id), number))


@bp.put("/matches/<int:match_id>/hands/<int:number>")
def edit_hand(match_id: int, number: int) -> Response:
    found = _members_match(match_id, Role.SCORER)
    version = _if_match()
    matches.check_version(found, number, version)
    entry, reason = _handobject_body(found)
    return _hand_response(matches.edit_hand(found, number, me(), entry, version, reason))


@bp.delete("/matches/<int:match_id>/hands/<int:number>")
def delete_hand(match_id: int, number: int) -> tuple[str, int]:
    found = _members_match(match_id, Role.SCORER)
    matches.delete_hand(found, number, me(), _if_match())
    return "", 204


# --- reading requests ---------------------------------------------------------------------------


def _members_match(match_id: int, needed: Role = Role.VIEWER) -> Match:
    """The match, if the caller is a member of its club (404 otherwise) with `needed` (403)."""
    missing = _(
        "There is no match %(number)d, or you are not a member of its club.", number=match_id
    )
    return clubs.match_for(me(), match_id, needed, missing)


def _team_specs(value: Any) -> list[matches.TeamSpec]:
    if not isinstance(value, list) or not value:
        raise Invalid(
            _(
                "'teams' must list the teams, such as "
                '[{"name": "A", "players": [1, 2]}, {"name": "B", "players": [3, 4]}].'
            )
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


def _handobject_body(match: Match) -> tuple[HandEntry, str | None]:
    """A hand's entry (its kózi and sides, read against the match's table) and its accepted
    reason."""
    body = object_body(HAND_FIELDS)
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


def _hand_url(hand: Hand) -> str:
    return url_for(".hand", match_id=hand.match_id, number=hand.number)


def _hand_response(hand: Hand) -> Response:
    response = jsonify(matches.hand_json(hand))
    response.set_etag(str(hand.version))
    return response
