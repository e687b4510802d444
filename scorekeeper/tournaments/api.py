"""JSON API v1: tournaments (issue 20), for a logged-in session or a bearer token, with the
same login, CSRF and body rules as the matches' endpoints (play.api).

* ``POST /api/v1/tournaments``: set one up in a club → 201 with its id and entries;
* ``POST /api/v1/tournaments/<id>/rounds``: draw and start the next round → its tables
  (each an ordinary match: hands go in through ``POST /api/v1/matches/<match>/hands``);
* ``POST /api/v1/tournaments/<id>/rounds/<n>/close``: close a round whose tables are done;
* ``POST /api/v1/tournaments/<id>/rounds/<n>/tables/<t>/confirm``: the director
  countersigns a finished table's result (its other side would, on its own phone);
* ``GET /api/v1/tournaments/<id>``: the setup (``rounds`` is how many it has), the entries,
  every round drawn so far (``rounds_drawn``) with its tables' MP, VP and status, and the
  penalties;
* ``GET /api/v1/tournaments/<id>/standings``: the ranking (tournaments.md §5).

Both reads answer with an ETag and, to ``If-None-Match`` with it, an empty 304 until
something they show changed (service.revision_of).

The club's owner and scorers direct; any member reads. A refusal is ``{"error": "…",
"problems": ["…", …]}``: 400 for bad input, 409 for what the tournament's state forbids.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, jsonify, url_for
from flask.typing import ResponseReturnValue

from scorekeeper import clubs
from scorekeeper.accounts import api_login_required, me
from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import csrf
from scorekeeper.models import Role, Tournament, TournamentRound, as_utc
from scorekeeper.play import conditional_json
from scorekeeper.quote import show
from scorekeeper.rules.variants import options_from_json
from scorekeeper.tournaments import service, table_links
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.json_body import created, object_body

bp = Blueprint("api_tournaments", __name__, url_prefix="/api/v1")
csrf.exempt(bp)
bp.before_request(api_login_required)

TOURNAMENT_FIELDS = frozenset(
    {
        "club",
        "name",
        "variant",
        "options",
        "format",
        "movement",
        "rounds",
        "deals_per_round",
        "vp_scale",
        "bye_vp",
        "round_minutes",
        "counts_in_season",
        "entries",
    }
)
REQUIRED = ("club", "name", "variant", "format", "movement", "rounds", "vp_scale", "entries")


@bp.post("/tournaments")
def create_tournament() -> ResponseReturnValue:
    body = object_body(TOURNAMENT_FIELDS, required=REQUIRED)
    club_id = body["club"]
    if isinstance(club_id, bool) or not isinstance(club_id, int):
        raise Invalid(
            _("'club' must be the id of one of your clubs, not %(value)s.", value=show(club_id))
        )
    club = clubs.club_for(me(), club_id, Role.SCORER)
    try:
        options = options_from_json(body.get("options"))
    except ValueError as error:
        raise service.Refused([str(error)]) from None
    tournament = service.create_tournament(
        club,
        me(),
        service.Setup(
            name=body["name"],
            variant=body["variant"],
            options=options,
            format=body["format"],
            movement=body["movement"],
            rounds=body["rounds"],
            deals_per_round=body.get("deals_per_round"),
            vp_scale=body["vp_scale"],
            bye_vp=body.get("bye_vp", service.DEFAULT_BYE_VP),
            round_minutes=body.get("round_minutes"),
            counts_in_season=body.get("counts_in_season", True),
            entries=body["entries"],
        ),
    )
    answer = {"id": tournament.id, "entries": [_entry_json(e) for e in tournament.entries]}
    return created(answer, url_for(".tournament", tournament_id=tournament.id))


@bp.post("/tournaments/<int:tournament_id>/rounds")
def start_round(tournament_id: int) -> ResponseReturnValue:
    found = service.tournament_for(me(), tournament_id, Role.SCORER)
    started = service.start_round(found, me())
    answer = {
        "number": started.number,
        "tables": [
            {"table": t.number, "ns": t.ns_entry_id, "ew": t.ew_entry_id, "match": t.match_id}
            for t in started.tables
        ],
        "bye": started.byes[0].entry_id if started.byes else None,
    }
    return created(answer, url_for(".tournament", tournament_id=found.id))


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/close")
def close_round(tournament_id: int, number: int) -> Response:
    found = service.tournament_for(me(), tournament_id, Role.SCORER)
    closed = service.close_round(found, number)
    return jsonify(_round_json(closed))


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/confirm")
def confirm_table(tournament_id: int, number: int, table: int) -> Response:
    """The director countersigns a table's result in place of its other side."""
    found = service.tournament_for(me(), tournament_id, Role.SCORER)
    played = service.round_of(found, number)
    seated = next((t for t in played.tables if t.number == table), None)
    if seated is None:
        raise NotFound(_("Round %(round)d has no table %(table)d.", round=number, table=table))
    table_links.confirm_table(seated, table_links.DIRECTOR)
    result = service.table_result(seated)
    return jsonify(
        {
            "table": result.table,
            "status": result.status,
            "confirmed_by": seated.confirmed_by,
            "ns_vp": result.ns_vp,
            "ew_vp": result.ew_vp,
        }
    )


@bp.get("/tournaments/<int:tournament_id>")
def tournament(tournament_id: int) -> ResponseReturnValue:
    found = service.tournament_for(me(), tournament_id, reads=service.ROW)

    def build() -> dict[str, Any]:
        service.with_tables(found)
        results = service.table_results(found)
        return {
            **_setup_json(found),
            "entries": [_entry_json(e) for e in found.entries],
            "rounds_drawn": [_round_json(r, results) for r in found.round_rows],
            "penalties": [service.penalty_json(p) for p in found.penalties],
        }

    return _conditional(found, build)


@bp.get("/tournaments/<int:tournament_id>/standings")
def standings(tournament_id: int) -> ResponseReturnValue:
    found = service.tournament_for(me(), tournament_id, reads=service.ROW)

    def build() -> dict[str, Any]:
        service.with_tables(found)
        names = {e.id: e.name for e in found.entries}
        return {
            "rounds_played": service.rounds_played(found),
            "standings": [service.standing_json(s, names) for s in service.standings_of(found)],
        }

    return _conditional(found, build)


def _conditional(found: Tournament, build: Callable[[], dict[str, Any]]) -> ResponseReturnValue:
    """The answer `build` makes, with the tournament's ETag (service.revision_of): an empty
    304 to a reader that already holds it, as the live pages' polls are answered, so a
    screen or a script polling the ranking costs a few small queries until something
    changed (`found` is read as its row; `build` reads the rest)."""
    return conditional_json(
        service.revision_of(found.id), lambda: str(current_app.json.dumps(build()))
    )


# --- answering ----------------------------------------------------------------------------------


def _setup_json(found: Tournament) -> dict[str, Any]:
    return {
        "id": found.id,
        "club": found.club_id,
        "name": found.name,
        "variant": found.variant_id,
        "options": found.house_rules,
        "format": found.format,
        "movement": found.movement,
        "rounds": found.rounds,
        "deals_per_round": found.deals_per_round,
        "vp_scale": found.vp_scale,
        "vp_rows": found.vp_rows,
        "bye_vp": found.bye_vp,
        "round_minutes": found.round_minutes,
        "counts_in_season": found.counts_in_season,
        "created_at": as_utc(found.created_at).isoformat(),
    }


def _entry_json(entry: Any) -> dict[str, Any]:
    return {
        "id": entry.id,
        "name": entry.name,
        "players": [p.player_id for p in entry.players],
        "seed": entry.position,
        "withdrawn": entry.withdrawn,
    }


def _round_json(
    played: TournamentRound, results: dict[int, service.TableState] | None = None
) -> dict[str, Any]:
    """The round and its tables' results: from `results` (service.table_results) when the
    caller read every table's at once."""
    tables = []
    scale = service.scale_of(played.tournament)
    for table in played.tables:
        result = results[table.id] if results is not None else service.table_result(table, scale)
        tables.append(
            {
                "table": result.table,
                "ns": result.ns,
                "ew": result.ew,
                "match": result.match,
                "status": result.status,
                "hands": result.hands,
                "deals": result.deals,
                "ns_mp": result.ns_mp,
                "ew_mp": result.ew_mp,
                "ns_vp": result.ns_vp,
                "ew_vp": result.ew_vp,
                # Its result was confirmed, then its hands corrected: to be confirmed again
                # (the console's "corrected, to be confirmed again").
                "corrected": table.corrected_at is not None and not table.confirmed,
            }
        )
    return {
        "number": played.number,
        "status": played.status,
        "started_at": as_utc(played.started_at).isoformat(),
        "closed_at": None if played.closed_at is None else as_utc(played.closed_at).isoformat(),
        "tables": tables,
        "bye": (
            {"entry": played.byes[0].entry_id, "vp": played.byes[0].vp} if played.byes else None
        ),
        "penalties": [
            service.penalty_json(p)
            for p in played.tournament.penalties
            if p.round_number == played.number
        ],
    }
