"""The director's pages of a tournament (issue 20): the club's tournaments, the setup form, the
console (rounds, tables, penalties, entries) and the ranking with its CSV and JSON.

Views read the form, call the service (`service`, `directing`), then flash and redirect; a
refusal shows the service's sentences beside the form with its 4xx status. Every score
shown comes from the service and the pure modules: nothing is added up here.
"""

from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, Response, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required

from scorekeeper import clubs
from scorekeeper.accounts import me
from scorekeeper.errors import Invalid, ServiceError
from scorekeeper.extensions import db
from scorekeeper.models import (
    Club,
    Role,
    Tournament,
    TournamentPenalty,
    TournamentRound,
    as_utc,
    utcnow,
)
from scorekeeper.numbers import row_id
from scorekeeper.rules.i18n import tr
from scorekeeper.rules.presets import PRESETS
from scorekeeper.tournaments import directing, movements, scales, service
from scorekeeper.tournaments.setup_form import CUSTOM, SetupForm, players_by_name, unknown_players
from scorekeeper.tournaments.standings import Standing
from scorekeeper.web.gettext import gettext as _

bp = Blueprint("tournament_pages", __name__)

#: How often the ranking page reloads itself while a round is open (seconds).
RANKING_REFRESH = 20
#: A spreadsheet runs a cell starting with these as a formula; entry names are never formulas.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _problems(error: ServiceError) -> list[str]:
    return list(getattr(error, "problems", None) or [error.message])


# --- the club's tournaments and the setup -------------------------------------------------------


@bp.get("/clubs/<int:club_id>/tournaments")
@login_required
def index(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id)
    found = db.session.scalars(
        sa.select(Tournament)
        .where(Tournament.club_id == club.id)
        .order_by(Tournament.created_at.desc(), Tournament.id.desc())
    ).all()
    return render_template(
        "tournaments/setup_index.html",
        club=club,
        tournaments=[(t, _state(t)) for t in found],
        can_direct=_can_direct(club),
    )


def _can_direct(club: Club) -> bool:
    role = clubs.role_in(me(), club)
    return role is not None and role.allows(Role.SCORER)


def _state(tournament: Tournament) -> str:
    drawn = list(tournament.round_rows)
    if not drawn:
        return _("Not started yet")
    last = drawn[-1]
    if last.number == tournament.rounds and last.status == service.CLOSED:
        return _("Finished")
    if last.status == service.OPEN:
        return _("Round %(number)d of %(rounds)d", number=last.number, rounds=tournament.rounds)
    return _("Round %(number)d of %(rounds)d closed", number=last.number, rounds=tournament.rounds)


@bp.route("/clubs/<int:club_id>/tournaments/new", methods=["GET", "POST"])
@login_required
def setup(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.SCORER)
    if request.method == "GET":
        return _setup_page(club, SetupForm())
    form = SetupForm.read(request.form)
    if "add_players" in request.form:
        return _add_players(club, form)
    if "refresh" in request.form:  # a new preset: its house rules, nothing stored
        return _setup_page(club, form)
    wanted = form.setup(club)
    if wanted is None:
        return _setup_page(club, form, 400)
    try:
        made = service.create_tournament(club, me(), wanted)
    except ServiceError as error:
        db.session.rollback()
        form.errors.extend(_problems(error))
        return _setup_page(club, form, error.status)
    flash(_("%(name)s is set up: start round 1 when the entries are seated.", name=made.name))
    return redirect(url_for(".console", tournament_id=made.id))


def _add_players(club: Club, form: SetupForm) -> ResponseReturnValue:
    """The names in the entries box that the club does not know, added as its players (the
    one thing this button stores); the form comes back as it was typed."""
    form.setup(club)
    added = []
    for name in form.unknown:
        try:
            added.append(clubs.add_player(club, name).name)
        except Invalid as error:
            db.session.rollback()
            form.errors = [error.message]
            return _setup_page(club, form, 400)
    form.errors, form.unknown = [], []
    if added:
        flash(_("Now playing in %(club)s: %(names)s.", club=club.name, names=", ".join(added)))
    return _setup_page(club, form)


def _setup_page(club: Club, form: SetupForm, status: int = 200) -> ResponseReturnValue:
    page = render_template(
        "tournaments/setup.html",
        club=club,
        form=form,
        presets=PRESETS,
        movements=[(m.value, movements.label(m)) for m in movements.Movement],
        scales=[(s.id, tr(s.name)) for s in scales.SCALES.values()],
        custom=CUSTOM,
        limits=service,
    )
    return page, status


# --- the console --------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRow:
    state: service.TableState
    ns: str
    ew: str
    late: bool
    #: The penalties given to each entry for this round, shown beside its result (§2: never
    #: silently folded in); the ranking counts them.
    ns_penalties: list[TournamentPenalty]
    ew_penalties: list[TournamentPenalty]
    #: Its result was confirmed, then its hands corrected: it waits to be confirmed again.
    corrected: bool = False


@dataclass(frozen=True)
class RoundView:
    number: int
    open: bool
    tables: list[TableRow]
    bye: str | None
    ends_at: str | None
    bye_penalties: list[TournamentPenalty]


def _rounds(tournament: Tournament) -> list[RoundView]:
    names = {e.id: e.name for e in tournament.entries}
    scale = service.scale_of(tournament)
    fined: dict[tuple[int, int], list[TournamentPenalty]] = {}
    for penalty in tournament.penalties:  # a whole tournament's penalty is no table's
        if penalty.round_number is not None:
            fined.setdefault((penalty.round_number, penalty.entry_id), []).append(penalty)
    now = utcnow()
    shown = []
    for played in tournament.round_rows:
        ends = _ends(tournament, played)
        is_open = played.status == service.OPEN
        rows = []
        for table in played.tables:
            state = service.table_result(table, scale)
            late = is_open and ends is not None and now > ends and not state.finished
            rows.append(
                TableRow(
                    state,
                    names[state.ns],
                    names[state.ew],
                    late,
                    fined.get((played.number, state.ns), []),
                    fined.get((played.number, state.ew), []),
                    corrected=table.corrected_at is not None and not table.confirmed,
                )
            )
        bye = played.byes[0].entry_id if played.byes else None
        shown.append(
            RoundView(
                played.number,
                is_open,
                rows,
                None if bye is None else names[bye],
                None if ends is None else ends.strftime("%H:%M UTC"),
                [] if bye is None else fined.get((played.number, bye), []),
            )
        )
    return shown


def _ends(tournament: Tournament, played: TournamentRound) -> Any:
    if tournament.round_minutes is None:
        return None
    return as_utc(played.started_at) + timedelta(minutes=tournament.round_minutes)


def _console(
    tournament: Tournament, problems: list[str] | None = None, status: int = 200
) -> ResponseReturnValue:
    drawn = list(tournament.round_rows)
    open_round = next((r.number for r in drawn if r.status == service.OPEN), None)
    can_start = open_round is None and len(drawn) < tournament.rounds
    page = render_template(
        "tournaments/director_console.html",
        tournament=tournament,
        club=tournament.club,
        rounds=_rounds(tournament),
        open_round=open_round,
        next_round=len(drawn) + 1 if can_start else None,
        can_direct=_can_direct(tournament.club),
        movement=movements.label(tournament.movement),
        scale=_scale_text(tournament),
        preset=PRESETS[tournament.variant_id].name
        if tournament.variant_id in PRESETS
        else tournament.variant_id,
        names={e.id: e.name for e in tournament.entries},
        problems=problems or [],
        form=request.form if problems else {},
    )
    return page, status


def _scale_text(tournament: Tournament) -> str:
    if tournament.vp_scale in scales.SCALES:
        return tr(scales.SCALES[tournament.vp_scale].name)
    return _("Custom scale")


@bp.get("/tournaments/<int:tournament_id>")
@login_required
def console(tournament_id: int) -> ResponseReturnValue:
    return _console(service.tournament_for(me(), tournament_id))


def _directed(tournament_id: int) -> Tournament:
    return service.tournament_for(me(), tournament_id, Role.SCORER)


@bp.post("/tournaments/<int:tournament_id>/rounds")
@login_required
def start_round(tournament_id: int) -> ResponseReturnValue:
    found = _directed(tournament_id)
    try:
        started = service.start_round(found, me())
    except ServiceError as error:
        db.session.rollback()
        return _console(_reloaded(tournament_id), _problems(error), error.status)
    flash(_("Round %(number)d is drawn: the tables are below.", number=started.number))
    return redirect(url_for(".console", tournament_id=found.id, _anchor=f"round-{started.number}"))


def _reloaded(tournament_id: int) -> Tournament:
    """The tournament read again after a refused change was rolled back."""
    db.session.expire_all()
    return service.tournament_for(me(), tournament_id)


@bp.post("/tournaments/<int:tournament_id>/rounds/<int:number>/close")
@login_required
def close_round(tournament_id: int, number: int) -> ResponseReturnValue:
    found = _directed(tournament_id)
    try:
        service.close_round(found, number)
    except ServiceError as error:
        db.session.rollback()
        return _console(_reloaded(tournament_id), _problems(error), error.status)
    flash(_("Round %(number)d is closed.", number=number))
    return redirect(url_for(".console", tournament_id=found.id))


def _number(key: str) -> int | None:
    return row_id(str(request.form.get(key, "")).strip())


def _whole(key: str) -> object:
    """A form field as a whole number (0 when left empty), or the text for the service to
    name in its refusal."""
    text = str(request.form.get(key, "")).strip()[:20]
    if not text:
        return 0
    return int(text) if re.fullmatch(r"[0-9]{1,9}", text) else text


@bp.post("/tournaments/<int:tournament_id>/penalties")
@login_required
def add_penalty(tournament_id: int) -> ResponseReturnValue:
    found = _directed(tournament_id)
    round_text = str(request.form.get("round", "")).strip()
    try:
        given = directing.add_penalty(
            found,
            _number("entry"),
            None if not round_text else row_id(round_text) or round_text[:20],
            _whole("mp"),
            _whole("vp"),
            str(request.form.get("reason", ""))[:1000],
        )
    except ServiceError as error:
        db.session.rollback()
        return _console(_reloaded(tournament_id), _problems(error), error.status)
    names = {e.id: e.name for e in found.entries}
    flash(_("The penalty to %(entry)s is recorded.", entry=names[given.entry_id]))
    return redirect(url_for(".console", tournament_id=found.id, _anchor="penalties"))


@bp.post("/tournaments/<int:tournament_id>/withdraw")
@login_required
def withdraw_entry(tournament_id: int) -> ResponseReturnValue:
    found = _directed(tournament_id)
    try:
        entry = directing.withdraw_entry(found, _number("entry"))
    except ServiceError as error:
        db.session.rollback()
        return _console(_reloaded(tournament_id), _problems(error), error.status)
    flash(_("%(entry)s is withdrawn from the rounds still to come.", entry=entry.name))
    return redirect(url_for(".console", tournament_id=found.id, _anchor="entries"))


@bp.post("/tournaments/<int:tournament_id>/entries")
@login_required
def add_entry(tournament_id: int) -> ResponseReturnValue:
    found = _directed(tournament_id)
    lines = SetupForm(entries=str(request.form.get("entry", ""))[:300]).entry_lines()
    if len(lines) != 1:
        problems = [_("Write one entry: its name, a colon, and its players, as in the setup.")]
        return _console(found, problems, 400)
    name, players = lines[0]
    known = players_by_name(found.club, set(players))
    unknown = [p for p in players if p not in known]
    if unknown:
        problems = [unknown_players(unknown)]
        return _console(found, problems, 400)
    try:
        entry = directing.add_entry(found, name, [known[p] for p in players])
    except ServiceError as error:
        db.session.rollback()
        return _console(_reloaded(tournament_id), _problems(error), error.status)
    flash(_("%(entry)s plays from the next round on.", entry=entry.name))
    return redirect(url_for(".console", tournament_id=found.id, _anchor="entries"))


@bp.post("/tournaments/<int:tournament_id>/confirm")
@login_required
def confirm_table(tournament_id: int) -> ResponseReturnValue:
    found = _directed(tournament_id)
    try:
        directing.confirm_table(found, _number("round"), _number("table"))
    except ServiceError as error:
        db.session.rollback()
        return _console(_reloaded(tournament_id), _problems(error), error.status)
    flash(_("The table's result is confirmed."))
    return redirect(url_for(".console", tournament_id=found.id))


# --- the ranking --------------------------------------------------------------------------------


@dataclass(frozen=True)
class RankRow:
    standing: Standing
    name: str
    withdrawn: bool
    #: Each round's cell: (round, opponent's name or None for a bye, side, MP for, MP
    #: against, VP), or None for a round it did not play.
    rounds: list[tuple[int, str | None, str | None, int, int, int] | None]


def _ranking(tournament: Tournament) -> tuple[list[RankRow], int]:
    standings = service.standings_of(tournament)
    entries = {e.id: e for e in tournament.entries}
    drawn = len(tournament.round_rows)
    rows = []
    for s in standings:
        by_round = {r.round: r for r in s.rounds}
        cells: list[tuple[int, str | None, str | None, int, int, int] | None] = []
        for number in range(1, drawn + 1):
            r = by_round.get(number)
            cells.append(
                None
                if r is None
                else (
                    number,
                    None if r.opponent is None else entries[r.opponent].name,
                    r.side,
                    r.mp_for,
                    r.mp_against,
                    r.vp,
                )
            )
        rows.append(RankRow(s, entries[s.entry].name, entries[s.entry].withdrawn, cells))
    return rows, drawn


@bp.get("/tournaments/<int:tournament_id>/ranking")
@login_required
def ranking(tournament_id: int) -> ResponseReturnValue:
    found = service.tournament_for(me(), tournament_id)
    rows, drawn = _ranking(found)
    live = any(r.status == service.OPEN for r in found.round_rows)
    page = render_template(
        "tournaments/ranking.html",
        tournament=found,
        club=found.club,
        rows=rows,
        drawn=drawn,
        closed=service.rounds_played(found),
        refresh=RANKING_REFRESH if live else None,
        names={e.id: e.name for e in found.entries},
    )
    # While tables play, the page reloads itself (a plain header: no script, works printed
    # or on a laptop left open by the director's table).
    headers = {"Refresh": str(RANKING_REFRESH)} if live else {}
    return page, 200, headers


def standings_json(tournament: Tournament, standings: list[Standing]) -> dict[str, Any]:
    """The API's standings shape, with each round's results and the penalties' reasons."""
    names = {e.id: e.name for e in tournament.entries}
    return {
        "tournament": tournament.id,
        "name": tournament.name,
        "rounds_played": service.rounds_played(tournament),
        "standings": [
            {
                **service.standing_json(s, names),
                "penalties": [
                    {"round": p.round, "mp": p.mp, "vp": p.vp, "reason": p.reason}
                    for p in s.penalties
                ],
                "rounds": [
                    {
                        "round": r.round,
                        "opponent": r.opponent,
                        "side": r.side,
                        "mp_for": r.mp_for,
                        "mp_against": r.mp_against,
                        "vp": r.vp,
                    }
                    for r in s.rounds
                ],
            }
            for s in standings
        ],
    }


@bp.get("/tournaments/<int:tournament_id>/ranking.json")
@login_required
def ranking_json(tournament_id: int) -> ResponseReturnValue:
    found = service.tournament_for(me(), tournament_id)
    body = standings_json(found, service.standings_of(found))
    return Response(
        json.dumps(body, ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="tournament-{found.id}-ranking.json"'
        },
    )


@bp.get("/tournaments/<int:tournament_id>/ranking.csv")
@login_required
def ranking_csv(tournament_id: int) -> ResponseReturnValue:
    found = service.tournament_for(me(), tournament_id)
    rows, drawn = _ranking(found)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "rank",
            "entry",
            "name",
            "vp",
            "mp_for",
            "mp_against",
            "played",
            "byes",
            "penalty_vp",
            "penalty_mp",
            "penalty_reasons",
            *[f"round_{n}" for n in range(1, drawn + 1)],
        ]
    )
    for row in rows:
        s = row.standing
        writer.writerow(
            [
                s.rank,
                s.entry,
                _text(row.name),
                s.vp,
                s.mp_for,
                s.mp_against,
                s.played,
                s.byes,
                s.penalty_vp,
                s.penalty_mp,
                _text("; ".join(p.reason for p in s.penalties)),
                *[_cell(c) for c in row.rounds],
            ]
        )
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="tournament-{found.id}-ranking.csv"'
        },
    )


def _cell(cell: tuple[int, str | None, str | None, int, int, int] | None) -> str:
    """A round in one CSV cell: "vs Name (NS) 120-80 15 VP", "bye 12 VP", or empty."""
    if cell is None:
        return ""
    _round, opponent, side, mp_for, mp_against, vp = cell
    if opponent is None:
        return f"bye {vp} VP"
    return _text(f"vs {opponent} ({side}) {mp_for}-{mp_against} {vp} VP")


def _text(value: str) -> str:
    """Text a person typed, kept from being read as a formula by a spreadsheet."""
    return "'" + value if value.startswith(_FORMULA_STARTS) else value
