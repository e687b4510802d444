"""Season pages: a club's seasons, one season (or all time) with its matches, and the owner's
changes: a new season, new name or days, deleting one, and moving a match to a season.

Members read; only owners change (403 for the others); strangers find nothing (404). The
rules (unique names, no overlapping days) and their messages are records.seasons'.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required

from scorekeeper.accounts import me
from scorekeeper.clubs import club_for, match_for, role_in
from scorekeeper.errors import Invalid
from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, Role, Season
from scorekeeper.records import match_list, seasons
from scorekeeper.records.season_forms import BY_FIRST_HAND, ConfirmForm, SeasonForm, place_form
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.paging import page_number
from scorekeeper.web.security import safe_next

bp = Blueprint("seasons", __name__)

#: Matches listed on one season page; older ones are on the next pages.
PAGE_SIZE = 40


def _is_owner(club: Club) -> bool:
    return role_in(me(), club) is Role.OWNER


def _index_page(club: Club, form: SeasonForm, status: int = 200) -> ResponseReturnValue:
    page = render_template(
        "records/seasons/index.html",
        club=club,
        seasons=seasons.seasons_of(club),
        form=form,
        is_owner=_is_owner(club),
    )
    return page, status


@bp.get("/clubs/<int:club_id>/seasons")
@login_required
def index(club_id: int) -> ResponseReturnValue:
    return _index_page(club_for(me(), club_id), SeasonForm(formdata=None))


@bp.post("/clubs/<int:club_id>/seasons")
@login_required
def create(club_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id, Role.OWNER)
    form = SeasonForm()
    if not form.validate_on_submit():
        return _index_page(club, form, 400)
    try:
        season = seasons.create_season(club, form.name.data, form.starts_on.data, form.ends_on.data)
    except Invalid as error:
        db.session.rollback()
        form.form_errors.append(error.message)
        return _index_page(club, form, 400)
    flash(_("The season %(season)s is ready.", season=season.name))
    return redirect(url_for(".show", club_id=club.id, season_id=season.id))


@bp.get("/clubs/<int:club_id>/seasons/<int:season_id>")
@bp.get("/clubs/<int:club_id>/seasons/all", defaults={"season_id": None})
@login_required
def show(club_id: int, season_id: int | None) -> ResponseReturnValue:
    club = club_for(me(), club_id)
    season = None if season_id is None else seasons.season_in(club, season_id)
    total = match_list.count_matches(club, season)
    page, pages = page_number(total, PAGE_SIZE)
    shown = match_list.club_matches(club, season, page * PAGE_SIZE)[(page - 1) * PAGE_SIZE :]
    lines = match_list.lines(shown)
    where = match_list.season_ids(club, shown) if season is None else {}
    names = {s.id: s.name for s in seasons.seasons_of(club)}
    return render_template(
        "records/seasons/show.html",
        club=club,
        season=season,
        lines=lines,
        total=total,
        season_names={m: names.get(s) for m, s in where.items() if s is not None},
        page=page,
        pages=pages,
        is_owner=_is_owner(club),
    )


@bp.route("/clubs/<int:club_id>/seasons/<int:season_id>/edit", methods=["GET", "POST"])
@login_required
def edit(club_id: int, season_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id, Role.OWNER)
    season = seasons.season_in(club, season_id)
    if request.method == "GET":
        form = SeasonForm(formdata=None, obj=season)
        return render_template("records/seasons/edit.html", club=club, season=season, form=form)
    form = SeasonForm()
    if form.validate_on_submit():
        try:
            seasons.update_season(season, form.name.data, form.starts_on.data, form.ends_on.data)
        except Invalid as error:
            db.session.rollback()
            form.form_errors.append(error.message)
        else:
            flash(_("The season %(season)s is saved.", season=season.name))
            return redirect(url_for(".show", club_id=club.id, season_id=season.id))
    page = render_template("records/seasons/edit.html", club=club, season=season, form=form)
    return page, 400


@bp.route("/clubs/<int:club_id>/seasons/<int:season_id>/delete", methods=["GET", "POST"])
@login_required
def delete(club_id: int, season_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id, Role.OWNER)
    season = seasons.season_in(club, season_id)
    form = ConfirmForm()
    if request.method == "GET" or not form.validate_on_submit():
        status = 200 if request.method == "GET" else 400
        page = render_template("records/seasons/delete.html", club=club, season=season, form=form)
        return page, status
    name = season.name
    seasons.delete_season(season)
    flash(_("The season %(season)s is deleted; its matches are kept.", season=name))
    return redirect(url_for(".index", club_id=club.id))


@bp.route("/matches/<int:match_id>/season", methods=["GET", "POST"])
@login_required
def place(match_id: int) -> ResponseReturnValue:
    """The owner moves a match into a season, or back to the season of its first hand."""
    match = match_for(me(), match_id, Role.OWNER)
    club = match.club
    form = place_form(seasons.seasons_of(club), match.season_id)
    if request.method == "POST" and form.validate_on_submit():
        chosen = form.season.data
        season = None if chosen == BY_FIRST_HAND else seasons.season_in(club, int(chosen))
        seasons.place_match(match, season)
        found = seasons.season_of(match)
        flash(_placed_message(match, season, found))
        back = safe_next(request.form.get("next"))
        return redirect(back or url_for("matches.scoreboard", match_id=match.id))
    page = render_template(
        "records/seasons/place.html",
        club=club,
        match=match,
        form=form,
        now=seasons.season_of(match),
        next=safe_next(request.values.get("next")),
    )
    return page, 400 if request.method == "POST" else 200


def _placed_message(match: Match, chosen: Season | None, found: Season | None) -> str:
    if chosen is not None:
        return _("Match %(number)d is now in %(season)s.", number=match.id, season=chosen.name)
    if found is not None:
        return _(
            "Match %(number)d follows its first hand again: it is in %(season)s.",
            number=match.id,
            season=found.name,
        )
    return _("Match %(number)d follows its first hand again: no season holds it.", number=match.id)


def scoreboard_extras(match: Match) -> dict[str, object]:
    """What the scoreboard adds from this area: the match's season, and whether the viewer
    may move it (templates/matches/_progress.html draws them)."""
    return {
        "match_season": seasons.season_of(match),
        "can_place": _is_owner(match.club),
    }
