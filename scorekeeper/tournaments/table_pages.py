"""A tournament table's pages for the phones at it (no account), and the table cards the
director prints.

**How a phone is known.** The link's secret is in every path of the table's pages
(``/tables/<secret>/…``), exactly as a share link's is (play.share_pages), not in a session
marker: each request, the hands POST and the outbox's later sends included, finds its table
again from the secret, so a link withdrawn or a round closed answers 404 from the very next
request, and two tables' links on one phone never mix. The secret is checked before anything
else runs (a url_value_preprocessor, which Flask calls before the CSRF check), so a dead
link's POST is told the link is dead, not that its form is stale. CSRF protection is
unchanged: every form carries the session's token, the phone's session being an anonymous
one. The pages are ``no-store`` and ``noindex``, and the app's referrer policy keeps the
secret from other sites. The pages name no club page and no other match.

The table page follows the table live (static/js/live.js polls ``live.json``) and shows the
round's clock (static/js/round-clock.js); when the deals are in, the side that did not
enter the last hand confirms the result with one tap.

**No network.** The table page and its hand pages are kept by the phone's service worker as a
match's are (static/sw.js): with the network gone, "Enter hand" opens the kept form, the live
preview comes from the engine on the phone, Save puts the hand in the link's outbox and the
kept table page lists it until it is sent. The worker keeps them while the link works.
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    g,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import login_required
from markupsafe import Markup

from scorekeeper import match as matches
from scorekeeper.accounts import me
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.extensions import db
from scorekeeper.models import Match, Role, TournamentTable
from scorekeeper.numbers import whole_number
from scorekeeper.play import (
    POLL_EVERY_MS,
    SHARED_HEADERS,
    EntryLayout,
    HandForm,
    HandLinks,
    asks_for_json,
    board,
    conditional_json,
    hand_page,
    live_preview_of,
    previewed_hand,
    qr_code,
    refused_hand,
    saved_hand_page,
)
from scorekeeper.tournaments import service, table_links
from scorekeeper.tournaments.table_links import TableAccess
from scorekeeper.web.errors import handle_service_error
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.kept_pages import kept_for_table

bp = Blueprint("tournament_tables", __name__)


@bp.url_value_preprocessor
def _open_link(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """The table a link opens, found before the CSRF check and the view run (404 if dead)."""
    if values and "table_token" in values:
        g.table_access = table_links.resolve(str(values["table_token"]))


@bp.errorhandler(ServiceError)
def _refused(error: ServiceError) -> ResponseReturnValue:
    """A refusal the phone's outbox and Save button can read (JSON when asked), else the
    app's page."""
    if asks_for_json() and request.method == "POST":
        db.session.rollback()
        return jsonify(saved=False, errors=[error.message], problems=[]), error.status
    return handle_service_error(error)


def _access() -> TableAccess:
    access: TableAccess = g.table_access
    # Its pages (the table page, a hand's) may be kept by the phone's service worker for use
    # with no network, as a match's are (web.kept_pages, static/sw.js).
    kept_for_table()
    return access


def _match(access: TableAccess) -> Match:
    match = access.table.match
    if match is None:
        raise table_links.dead_link()
    return match


def _links(token: str, access: TableAccess, number: int | None) -> HandLinks:
    def preview() -> str:
        if number:
            return url_for(".preview_hand", table_token=token, number=number)
        return url_for(".preview_new_hand", table_token=token)

    return HandLinks(
        back=url_for(".table_page", table_token=token),
        back_label=_("Table %(table)d", table=access.table.number),
        preview=preview(),
        edit=lambda n: url_for(".edit_hand", table_token=token, number=n),
        # The link, not the secret: a phone's drafts and outbox of this table link.
        phone_user=f"table-link-{access.link.id}",
    )


def _shown(page: ResponseReturnValue) -> Response:
    """A hand page's answer with the shared pages' headers added."""
    response = make_response(page)
    response.headers.update(SHARED_HEADERS)
    return response


# --- the table page -----------------------------------------------------------------------------


def _table_context(token: str, access: TableAccess) -> dict[str, Any]:
    tournament = access.tournament
    table = access.table
    match = _match(access)
    state = service.table_result(table)
    return {
        "access": access,
        "tournament": tournament,
        "table": table,
        "round": access.round,
        "state": state,
        "board": board(match),
        "match": match,
        "ns": access.entry(table_links.NS),
        "ew": access.entry(table_links.EW),
        "side_name": table_links.side_name,
        "may_confirm": table_links.may_confirm(table, access.side, state.finished),
        "clock": table_links.clock_of(tournament, access.round),
        "token": token,
        "phone_user": f"table-link-{access.link.id}",
    }


@bp.get("/tables/<table_token>")
def table_page(table_token: str) -> ResponseReturnValue:
    access = _access()
    page = render_template(
        "tournaments/table_page.html",
        live_url=url_for(".table_json", table_token=table_token),
        live_etag=table_links.revision(access.tournament.id),
        live_every=POLL_EVERY_MS,
        **_table_context(table_token, access),
    )
    return page, 200, SHARED_HEADERS


@bp.get("/tables/<table_token>/live.json")
def table_json(table_token: str) -> ResponseReturnValue:
    access = _access()
    revision = table_links.revision(access.tournament.id)

    def build() -> str:
        state = service.table_result(access.table)
        shown = {"table": state.table, "status": state.status, "hands": state.hands}
        return str(current_app.json.dumps(shown))

    return conditional_json(revision, build)


@bp.post("/tables/<table_token>/confirm")
def confirm(table_token: str) -> ResponseReturnValue:
    access = _access()
    table_links.confirm_table(access.table, access.side)
    return redirect(url_for(".table_page", table_token=table_token))


# --- entering and correcting hands --------------------------------------------------------------


def _saved(token: str, number: int, status: int) -> ResponseReturnValue:
    back = url_for(".table_page", table_token=token)
    return jsonify(saved=True, number=number, scoreboard=back), status


@bp.route("/tables/<table_token>/hands/new", methods=["GET", "POST"])
def new_hand(table_token: str) -> ResponseReturnValue:
    access = _access()
    table_links.check_writable(access)
    match = _match(access)
    links = _links(table_token, access, None)
    layout = EntryLayout.of(match)
    if request.method == "GET":
        return _shown(hand_page(match, HandForm.blank(layout, match), links=links))
    form = HandForm.from_request(layout, request.form)
    entry = form.entry()
    if entry is None:
        return _shown(hand_page(match, form, status=400, links=links))
    if "save" not in request.form:
        return _shown(previewed_hand(match, form, entry, links=links))
    try:
        hand, new = matches.record_hand(match, None, entry, form.reason, form.key)
    except ServiceError as error:
        return _shown(refused_hand(match, form, error, links=links))
    table_links.wrote(access.table.id, access.side)
    if asks_for_json():
        return _saved(table_token, hand.number, 201 if new else 200)
    return redirect(url_for(".table_page", table_token=table_token))


@bp.route("/tables/<table_token>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(table_token: str, number: int) -> ResponseReturnValue:
    access = _access()
    table_links.check_writable(access)
    match = _match(access)
    links = _links(table_token, access, number)
    hand = matches.hand_of(match, number)
    layout = EntryLayout.of(match, number)
    if request.method == "GET":
        return _shown(saved_hand_page(match, hand, layout, number, links))
    form = HandForm.from_request(layout, request.form)
    entry = form.entry()
    if entry is None:
        return _shown(hand_page(match, form, number=number, status=400, links=links))
    if "save" not in request.form:
        return _shown(previewed_hand(match, form, entry, number, links=links))
    try:
        version = whole_number(form.version) or -1
        matches.edit_hand(match, number, None, entry, version, form.reason)
    except ServiceError as error:
        return _shown(refused_hand(match, form, error, number, links=links))
    table_links.wrote(access.table.id, access.side)
    if asks_for_json():
        return _saved(table_token, number, 200)
    return redirect(url_for(".table_page", table_token=table_token))


def _live_preview(number: int | None) -> ResponseReturnValue:
    access = _access()
    table_links.check_writable(access)
    match = _match(access)
    if number is not None:
        matches.hand_of(match, number)
    return live_preview_of(match, EntryLayout.of(match, number), number)


@bp.post("/tables/<table_token>/hands/preview")
def preview_new_hand(table_token: str) -> ResponseReturnValue:
    return _live_preview(None)


@bp.post("/tables/<table_token>/hands/<int:number>/preview")
def preview_hand(table_token: str, number: int) -> ResponseReturnValue:
    return _live_preview(number)


# --- the director's table cards -----------------------------------------------------------------

CARD_PATH = "/tournaments/<int:tournament_id>/rounds/<int:round_number>"


def _card(table: TournamentTable) -> dict[str, Any]:
    """One table's card: its number, its entries and each side's link with its QR code."""
    tournament = table.round.tournament
    names = {e.id: e.name for e in tournament.entries}
    links = table_links.working_links(table)
    sides = []
    for side in table_links.SIDES:
        url = url_for(".table_page", table_token=table_links.token_of(links[side]), _external=True)
        entry = table.ns_entry_id if side == table_links.NS else table.ew_entry_id
        label = _("QR code of %(side)s's link", side=table_links.side_name(side))
        qr: Markup = qr_code(url, label)
        sides.append({"side": side, "name": names[entry], "url": url, "qr": qr})
    return {"table": table, "sides": sides}


def _director_round(tournament_id: int, round_number: int) -> Any:
    tournament = service.tournament_for(me(), tournament_id, Role.SCORER)
    return tournament, service.round_of(tournament, round_number)


def _table_of(played: Any, table_number: int) -> TournamentTable:
    found = next((t for t in played.tables if t.number == table_number), None)
    if found is None:
        raise NotFound(
            _("Round %(round)d has no table %(table)d.", round=played.number, table=table_number)
        )
    return found


def _cards_page(tournament: Any, played: Any, tables: list[TournamentTable]) -> ResponseReturnValue:
    page = render_template(
        "tournaments/table_cards.html",
        tournament=tournament,
        round=played,
        cards=[_card(t) for t in tables],
        side_name=table_links.side_name,
        clock=table_links.clock_of(tournament, played),
    )
    # The secrets are on this page: nothing may keep it.
    return page, 200, SHARED_HEADERS


@bp.get(f"{CARD_PATH}/tables/<int:table_number>/card")
@login_required
def table_card(tournament_id: int, round_number: int, table_number: int) -> ResponseReturnValue:
    tournament, played = _director_round(tournament_id, round_number)
    return _cards_page(tournament, played, [_table_of(played, table_number)])


@bp.get(f"{CARD_PATH}/cards")
@login_required
def round_cards(tournament_id: int, round_number: int) -> ResponseReturnValue:
    tournament, played = _director_round(tournament_id, round_number)
    return _cards_page(tournament, played, list(played.tables))


@bp.post(f"{CARD_PATH}/tables/<int:table_number>/links/<side>/withdraw")
@login_required
def withdraw_link(
    tournament_id: int, round_number: int, table_number: int, side: str
) -> ResponseReturnValue:
    tournament, played = _director_round(tournament_id, round_number)
    table = _table_of(played, table_number)
    table_links.withdraw_link(table, side)
    flash(
        _(
            "%(side)s's link of table %(table)d is withdrawn; the card shows its new link.",
            side=table_links.side_name(side),
            table=table.number,
        )
    )
    return redirect(
        url_for(
            ".table_card",
            tournament_id=tournament.id,
            round_number=played.number,
            table_number=table.number,
        )
    )
