"""Match pages: start a match, its scoreboard, and entering, correcting and deleting hands.

Views parse the form, call the match's front door (`scorekeeper.match`), then flash and
redirect; every score they show comes from the rules engine through it.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required

from scorekeeper import match as matches
from scorekeeper.accounts import me
from scorekeeper.clubs import club_for, match_for, player_choices
from scorekeeper.errors import NotFound, ServiceError
from scorekeeper.extensions import db
from scorekeeper.match import HandEntry, HandRefused, ScoredHand
from scorekeeper.models import Hand, Match, Role
from scorekeeper.numbers import whole_number
from scorekeeper.play.hand_forms import EntryLayout, HandForm
from scorekeeper.play.hand_links import HandLinks, member_links
from scorekeeper.play.hand_refusals import Refusal, refusal
from scorekeeper.play.live import POLL_EVERY_MS, match_revision
from scorekeeper.play.live_answer import live_answer, live_words, totals_title
from scorekeeper.play.match_forms import new_match_form
from scorekeeper.play.scoreboard import board, cards_text, points, tally_rows, version_rows
from scorekeeper.records import scoreboard_extras
from scorekeeper.rules.formats import FORMATS
from scorekeeper.rules.presets import PRESETS
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.kept_pages import kept_for_club
from scorekeeper.words import SUIT_CHOICES, opening_line, verdict_text

bp = Blueprint("matches", __name__)


@bp.app_template_filter("points")
def _points_filter(value: Any) -> str:
    return points(value)


@bp.app_template_filter("cards")
def _cards_filter(value: str) -> str:
    return cards_text(value)


def _members_match(match_id: int, needed: Role = Role.VIEWER) -> Match:
    """The match if the user may act on it; to strangers no match exists (404). A page of it
    the phone keeps offline is kept for this session and the match's club only."""
    match = match_for(me(), match_id, needed)
    kept_for_club(match.club_id)
    return match


@bp.route("/clubs/<int:club_id>/matches/new", methods=["GET", "POST"])
@login_required
def new_match(club_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id, Role.SCORER)
    posted = request.method == "POST"
    data = request.form if posted else request.args
    # The seats offer some of the club's players (those a part of a name finds, and those
    # chosen already), never a big club's every player in each of up to seven lists.
    chosen = [value for key, value in data.items() if "-seat-" in key or key == "first_dealer"]
    choices = player_choices(club, str(data.get("find", "")), chosen)
    form = new_match_form(data, choices.players, submitted=posted or "shown_preset" in data)
    # "refresh" (a new preset or table) re-renders the form from the POSTed fields, so that
    # neither they nor the CSRF token end up in the URL; nothing is created.
    refresh = posted and "refresh" in request.form
    if posted and not refresh and (wanted := form.request()) is not None:
        try:
            match = matches.create_match(
                club,
                me(),
                wanted.variant_id,
                wanted.format_id,
                wanted.teams,
                wanted.house_rules,
                wanted.target,
                wanted.first_dealer,
            )
        except ServiceError as error:
            db.session.rollback()
            form.errors.append(error.message)
        else:
            dealer = match.seats[match.first_dealer].player.name
            flash(_("Match %(number)d started: %(dealer)s deals.", number=match.id, dealer=dealer))
            return redirect(url_for(".scoreboard", match_id=match.id))
    page = render_template(
        "play/new.html", club=club, form=form, choices=choices, presets=PRESETS, formats=FORMATS
    )
    return page, 400 if form.errors else 200


@bp.get("/matches/<int:match_id>")
@login_required
def scoreboard(match_id: int) -> ResponseReturnValue:
    match = _members_match(match_id)
    can_score = _can_score(match)
    # The revision before the board is read: a save in between shows at the next poll.
    live_etag = match_revision(match.id)
    shown = board(match)
    return render_template(
        "play/scoreboard.html",
        match=match,
        board=shown,
        progress=shown.progress,
        can_score=can_score,
        shared=False,
        live_url=url_for("live.match_json", match_id=match.id),
        live_page=url_for("live.match_regions", match_id=match.id),
        live_etag=live_etag,
        live_every=POLL_EVERY_MS,
        **scoreboard_extras(match),
    )


def _can_score(match: Match) -> bool:
    try:
        club_for(me(), match.club_id, Role.SCORER)
    except ServiceError:
        return False
    return True


@bp.route("/matches/<int:match_id>/hands/new", methods=["GET", "POST"])
@login_required
def new_hand(match_id: int) -> ResponseReturnValue:
    match = _members_match(match_id, Role.SCORER)
    layout = EntryLayout.of(match)
    if request.method == "GET":
        return hand_page(match, HandForm.blank(layout, match))
    form = HandForm.from_request(layout, request.form)
    entry = form.entry()
    if entry is None:
        return hand_page(match, form, status=400)
    if "save" not in request.form:
        return previewed_hand(match, form, entry)
    try:
        hand, new = matches.record_hand(match, me(), entry, form.reason, form.key)
    except ServiceError as error:
        return refused_hand(match, form, error)
    flash(_("Hand %(number)d saved.", number=hand.number))
    if asks_for_json():
        return _saved(match_id, hand.number, 201 if new else 200)
    return redirect(url_for(".scoreboard", match_id=match_id))


@bp.route("/matches/<int:match_id>/hands/<int:number>/edit", methods=["GET", "POST"])
@login_required
def edit_hand(match_id: int, number: int) -> ResponseReturnValue:
    match = _members_match(match_id, Role.SCORER)
    hand = matches.hand_of(match, number)
    layout = EntryLayout.of(match, number)
    if request.method == "GET":
        return saved_hand_page(match, hand, layout, number)
    form = HandForm.from_request(layout, request.form)
    entry = form.entry()
    if entry is None:
        return hand_page(match, form, number=number, status=400)
    if "save" not in request.form:
        return previewed_hand(match, form, entry, number)
    try:
        version = whole_number(form.version) or -1
        matches.edit_hand(match, number, me(), entry, version, form.reason)
    except ServiceError as error:
        return refused_hand(match, form, error, number)
    flash(_("Hand %(number)d corrected.", number=number))
    if asks_for_json():
        return _saved(match_id, number, 200)
    return redirect(url_for(".scoreboard", match_id=match_id))


@bp.post("/matches/<int:match_id>/hands/preview")
@login_required
def preview_new_hand(match_id: int) -> ResponseReturnValue:
    """The live preview of a new hand: the hand form's body in, its score as JSON out."""
    return _live_preview(match_id, None)


@bp.post("/matches/<int:match_id>/hands/<int:number>/preview")
@login_required
def preview_hand(match_id: int, number: int) -> ResponseReturnValue:
    """The live preview of a correction to hand `number`."""
    return _live_preview(match_id, number)


@bp.route("/matches/<int:match_id>/hands/<int:number>/delete", methods=["GET", "POST"])
@login_required
def delete_hand(match_id: int, number: int) -> ResponseReturnValue:
    match = _members_match(match_id, Role.SCORER)
    hand = matches.hand_of(match, number)
    if request.method == "GET":
        scored = matches.ScoredHand.from_json(hand.result)
        return render_template("play/delete.html", match=match, hand=hand, scored=scored)
    version = request.form.get("version", "")
    matches.delete_hand(match, number, me(), whole_number(version) or -1)
    flash(_("Hand %(number)d deleted; its history is kept.", number=number))
    return redirect(url_for(".scoreboard", match_id=match.id))


@bp.route("/matches/<int:match_id>/delete", methods=["GET", "POST"])
@login_required
def delete_match(match_id: int) -> ResponseReturnValue:
    match = _members_match(match_id, Role.OWNER)
    if request.method == "GET":
        return render_template("play/delete_match.html", match=match, board=board(match))
    club_id, number = match.club_id, match.id
    matches.delete_match(match)
    flash(_("Match %(number)d deleted.", number=number))
    return redirect(url_for("clubs.show", club_id=club_id))


@bp.get("/matches/<int:match_id>/hands")
@login_required
def all_hands(match_id: int) -> ResponseReturnValue:
    """Every hand of the match with its scores and the totals after it; each leads to its
    lines and history (the scoreboard shows only the newest hands whole)."""
    match = _members_match(match_id)
    rows = tally_rows(match, matches.hand_lines(match))
    return render_template("play/hands.html", match=match, rows=rows)


@bp.get("/matches/<int:match_id>/hands/<int:number>/history")
@login_required
def hand_history(match_id: int, number: int) -> ResponseReturnValue:
    match = _members_match(match_id)
    versions = matches.history(match, number)
    if not versions:
        raise NotFound(_("Hand %(number)d is not part of this match.", number=number))
    rows = version_rows(match, versions)
    return render_template("play/history.html", match=match, number=number, versions=rows)


# --- the hand form --------------------------------------------------------------------------
# With `Accept: application/json` (the phone's outbox, static/js/outbox.js, sending a hand
# saved offline, and the Save button with JavaScript) the same POST answers JSON: 201/200
# {"saved": true, "number", "scoreboard"} or 4xx {"errors": [...], "problems": [...]}.
# Without it, HTML exactly as ever: the form works without JavaScript.


def asks_for_json() -> bool:
    accept = request.accept_mimetypes
    return accept.best_match(["text/html", "application/json"]) == "application/json"


def _saved(match_id: int, number: int, status: int) -> ResponseReturnValue:
    # By the id: the commit expired the match, and reading it again costs a query.
    scoreboard = url_for(".scoreboard", match_id=match_id)
    return jsonify(saved=True, number=number, scoreboard=scoreboard), status


def _not_saved(
    form: HandForm, status: int, preview: ScoredHand | None = None
) -> ResponseReturnValue:
    problems = list(preview.problems) if preview else []
    return jsonify(saved=False, errors=form.errors, problems=problems), status


def _live_preview(match_id: int, number: int | None) -> ResponseReturnValue:
    """What the hand form would give as it stands: form errors, the engine's problems, each
    side's lines and opening line, and (only when nothing is missing) the match totals after
    the hand. Every figure comes from the hand service; this only puts it into JSON."""
    answer: dict[str, Any] = {"errors": [], "problems": [], "teams": [], "totals": []}
    try:
        match = _members_match(match_id, Role.SCORER)
        if number is not None:
            matches.hand_of(match, number)
        layout = EntryLayout.of(match, number)
    except ServiceError as error:
        db.session.rollback()
        return {**answer, "errors": [error.message]}, error.status
    return live_preview_of(match, layout, number)


def live_preview_of(match: Match, layout: EntryLayout, number: int | None) -> ResponseReturnValue:
    """The live preview's JSON for the hand form in this request, new (`number` None) or
    correcting hand `number` (the match's own pages and a tournament table's)."""
    form = HandForm.from_request(layout, request.form)
    return live_answer(
        layout,
        form,
        lambda entry: matches.preview(
            match, entry, number, require_kozi=False, before=layout.view.totals
        ),
    )


def saved_hand_page(
    match: Match, hand: Hand, layout: EntryLayout, number: int, links: HandLinks | None = None
) -> ResponseReturnValue:
    """The correction form of saved hand `number`, filled in as it was saved, with its score
    as saved (the match's own pages and a tournament table's)."""
    form = HandForm.from_entry(layout, HandEntry.from_json(hand.entry))
    form.version, form.reason = str(hand.version), hand.accepted_reason or ""
    saved = matches.shown(match, hand.result, hand.entry, layout.view.totals)
    return hand_page(match, form, number=number, preview=saved, links=links)


def previewed_hand(
    match: Match,
    form: HandForm,
    entry: HandEntry,
    number: int | None = None,
    links: HandLinks | None = None,
) -> ResponseReturnValue:
    try:
        previewed = matches.preview(match, entry, number, before=form.layout.view.totals)
    except ServiceError as error:
        return refused_hand(match, form, error, number, links)
    return hand_page(
        match,
        form,
        number=number,
        preview=previewed.hand,
        previewed=True,
        totals=previewed.totals,
        links=links,
    )


def refused_hand(
    match: Match,
    form: HandForm,
    error: ServiceError,
    number: int | None = None,
    links: HandLinks | None = None,
) -> ResponseReturnValue:
    """Nothing was saved: show the form again with the reason, and the score it would give."""
    db.session.rollback()
    preview = error.preview if isinstance(error, HandRefused) else None
    totals = None
    if preview is not None:
        view = form.layout.view
        totals = matches.totals_after(match, view.setup, view.totals, preview)
    form.errors.append(error.message)
    return hand_page(
        match,
        form,
        number=number,
        preview=preview,
        previewed=True,
        status=error.status,
        totals=totals,
        links=links,
    )


def hand_page(
    match: Match,
    form: HandForm,
    number: int | None = None,
    preview: ScoredHand | None = None,
    previewed: bool = False,
    status: int = 200,
    totals: list[tuple[str, Any]] | None = None,
    links: HandLinks | None = None,
) -> ResponseReturnValue:
    if asks_for_json() and request.method == "POST":
        return _not_saved(form, status, preview)
    layout = form.layout.for_page(match)
    page = render_template(
        "play/hand.html",
        match=match,
        links=links or member_links(match, number),
        form=form,
        layout=layout,
        number=number,
        next_number=form.layout.view.next_number,
        preview=preview,
        previewed=previewed,
        suits=SUIT_CHOICES,
        verdict_text=verdict_text,
        opening_line=opening_line,
        totals=totals,
        live_words=live_words(number),
        totals_title=totals_title(number),
        conflict=status == 409,
        # A refused hand opens at its first problem, each linked from the banner.
        refusal=refusal(form, preview) if status >= 400 or form.errors else Refusal(),
    )
    return page, status
