"""Club pages: my clubs, one club (players, members, matches), invitations and roles.

Who may do what is decided by clubs.service.club_for: strangers get 404, members without
the role 403. Owners and scorers add players; only owners invite, change roles and remove
members; any member may leave. Neither may leave a club without an owner.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import format_date
from flask_login import login_required
from markupsafe import Markup

from scorekeeper import play as sharing
from scorekeeper.accounts import look_alikes, me, signed_in
from scorekeeper.clubs import service as clubs
from scorekeeper.clubs.forms import ClubForm, ConfirmForm, PlayerForm, RoleForm, role_prefix
from scorekeeper.clubs.service import ROLE_NAMES
from scorekeeper.errors import Invalid, NotFound
from scorekeeper.match import view_of
from scorekeeper.models import Club, Match, Role
from scorekeeper.play import POLL_EVERY_MS, club_revision
from scorekeeper.rules.formats import FORMATS
from scorekeeper.rules.points import format_points
from scorekeeper.rules.presets import find_variant
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import ngettext
from scorekeeper.web.paging import page_number

bp = Blueprint("clubs", __name__)


@bp.app_template_global("role_badge")
def role_badge(role: Role) -> Markup:
    """A role as the pages show it: a badge with its name in the page's language."""
    role = Role(role)
    return Markup('<span class="role role-{}">{}</span>').format(role.value, ROLE_NAMES[role])


# The club page lists this many recent matches; older ones wait for a matches archive page.
RECENT_MATCHES = 30
# Players on one page of the club page's list; a part of a name finds the others.
PLAYERS_PAGE = 60


@dataclass(frozen=True, slots=True)
class MatchRow:
    url: str
    number: int
    rules: str
    table: str
    players: str
    started: datetime
    score: str  # each side's total, "Ann & Cy 1240 · Bob & Di 985"; "" before any hand
    status: str  # running (with its hands), won and by whom, or not started
    finished: bool

    @property
    def started_text(self) -> str:
        return format_date(self.started, "d MMM y")


def _match_row(match: Match) -> MatchRow:
    try:
        rules = find_variant(match.variant_id).name
    except ValueError:
        rules = match.variant_id
    table = FORMATS[match.format].name if match.format in FORMATS else match.format
    score, status, finished = _standing(match)
    return MatchRow(
        # The scoreboard is another blueprint's page; a plain path keeps this page working
        # whether or not that blueprint is registered.
        url=f"/matches/{match.id}",
        number=match.id,
        rules=rules,
        table=table,
        players=", ".join(seat.player.name for seat in match.seats),
        started=match.created_at,
        score=score,
        status=status,
        finished=finished,
    )


def _standing(match: Match) -> tuple[str, str, bool]:
    """Its totals, whether it is running or won and by whom, and whether it is over: from
    its stored progress (the read model), no hand read or scored."""
    try:
        view = view_of(match)
    except ValueError:  # a match whose table cannot be read (no teams): the list still shows
        return "", "", False
    played = view.hands_played
    score = " · ".join(f"{s.name} {format_points(s.total)}" for s in view.standings)
    if view.finished and view.winner:
        # The winner by the name the scoreboard gives it; the players are listed below.
        return score, _("Won by %(winner)s", winner=view.winner), True
    if played:
        running = ngettext(
            "Running · %(num)d hand played", "Running · %(num)d hands played", played
        )
        return score, running, False
    return "", _("Not started yet"), False


def _club_page(
    club: Club,
    player_form: PlayerForm | None = None,
    alert: str | None = None,
    status: int = 200,
) -> ResponseReturnValue:
    role = clubs.role_in(me(), club)
    if role is None:  # removed by another request since this one's check: a stranger now
        raise NotFound(_("There is no such club, or you are not one of its members."))
    members = clubs.members_of(club)
    role_forms = {}
    if role is Role.OWNER:
        role_forms = {
            m.user_id: RoleForm(formdata=None, prefix=role_prefix(m.user_id), role=m.role.value)
            for m in members
        }
    join_requests = sharing.join_requests(club) if role is Role.OWNER else []
    # A name that looks like a member's is marked ("looks like alice"), wherever it shows.
    alike = look_alikes([m.user for m in members], [asked.user for asked in join_requests])
    matches, total = clubs.recent_matches(club, RECENT_MATCHES)
    find = request.args.get("find", "").strip()[: clubs.MAX_FIND]
    counted = clubs.players_found(club, find)
    at, pages = page_number(counted, PLAYERS_PAGE)
    players = clubs.players_page(club, find, (at - 1) * PLAYERS_PAGE, PLAYERS_PAGE)
    live_etag = club_revision(club.id)  # the page follows new matches and hands (live.js)
    page = render_template(
        "clubs/show.html",
        club=club,
        role=role,
        can_score=role is not None and role.allows(Role.SCORER),
        is_owner=role is Role.OWNER,
        members=members,
        matches=[_match_row(m) for m in matches],
        more_matches=total - len(matches),
        players=players,
        players_found=counted,
        players_page=at,
        players_pages=pages,
        find=find,
        player_form=player_form or PlayerForm(formdata=None),
        role_forms=role_forms,
        alert=alert,
        join_requests=join_requests,
        alike=alike,
        live_etag=live_etag,
        live_every=POLL_EVERY_MS,
    )
    return page, status


def _index_page(form: ClubForm, status: int = 200) -> ResponseReturnValue:
    return render_template("clubs/index.html", memberships=clubs.clubs_of(me()), form=form), status


@bp.get("/clubs")
@login_required
def index() -> ResponseReturnValue:
    return _index_page(ClubForm(formdata=None))


@bp.post("/clubs")
@login_required
def create() -> ResponseReturnValue:
    form = ClubForm()
    if not form.validate_on_submit():
        return _index_page(form, 400)
    try:
        club = clubs.create_club(me(), form.name.data)
    except Invalid as error:
        form.name.errors.append(error.message)
        return _index_page(form, 400)
    flash(_("%(club)s is ready, and you are its owner. Add the players next.", club=club.name))
    return redirect(url_for(".show", club_id=club.id))


@bp.get("/clubs/<int:club_id>")
@login_required
def show(club_id: int) -> ResponseReturnValue:
    return _club_page(clubs.club_for(me(), club_id))


@bp.post("/clubs/<int:club_id>/players")
@login_required
def add_player(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.SCORER)
    form = PlayerForm()
    if not form.validate_on_submit():
        return _club_page(club, player_form=form, status=400)
    try:
        player = clubs.add_player(club, form.name.data)
    except Invalid as error:
        form.name.errors.append(error.message)
        return _club_page(club, player_form=form, status=400)
    flash(_("%(player)s now plays in %(club)s.", player=player.name, club=club.name))
    return redirect(url_for(".show", club_id=club.id, _anchor="players"))


@bp.post("/clubs/<int:club_id>/members/<int:user_id>/role")
@login_required
def set_role(club_id: int, user_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.OWNER)
    form = RoleForm(prefix=role_prefix(user_id))
    if not form.validate_on_submit():
        return _club_page(club, alert=_("Choose viewer, scorer or owner."), status=400)
    try:
        clubs.set_role(club, user_id, Role(form.role.data), by=me())
    except Invalid as error:
        return _club_page(club, alert=error.message, status=400)
    flash(_("The role is changed."))
    return redirect(url_for(".show", club_id=club.id, _anchor="members"))


@bp.route("/clubs/<int:club_id>/members/<int:user_id>/remove", methods=["GET", "POST"])
@login_required
def remove_member(club_id: int, user_id: int) -> ResponseReturnValue:
    """GET asks the owner to confirm; POST (with its CSRF token) removes the member."""
    club = clubs.club_for(me(), club_id, Role.OWNER)
    membership = clubs.member_of(club, user_id)
    form = ConfirmForm()
    if request.method == "GET":
        return render_template(
            "clubs/remove_member.html",
            club=club,
            member=membership,
            form=form,
            only_owner=clubs.only_owner(club, user_id),
        )
    if not form.validate_on_submit():
        return _club_page(club, alert=_("The form expired; try again."), status=400)
    try:
        name = clubs.remove_member(club, user_id, by=me())
    except Invalid as error:
        return _club_page(club, alert=error.message, status=400)
    if user_id == me().id:
        flash(_("You left %(club)s.", club=club.name))
        return redirect(url_for(".index"))
    flash(
        _(
            "%(name)s no longer has access to %(club)s; the hands they entered keep their name.",
            name=name,
            club=club.name,
        )
    )
    return redirect(url_for(".show", club_id=club.id, _anchor="members"))


@bp.route("/clubs/<int:club_id>/leave", methods=["GET", "POST"])
@login_required
def leave(club_id: int) -> ResponseReturnValue:
    """GET asks the member to confirm; POST (with its CSRF token) ends their membership."""
    club = clubs.club_for(me(), club_id)
    form = ConfirmForm()
    if request.method == "GET":
        return render_template(
            "clubs/leave.html", club=club, form=form, only_owner=clubs.only_owner(club, me().id)
        )
    if not form.validate_on_submit():
        return _club_page(club, alert=_("The form expired; try again."), status=400)
    name = club.name
    try:
        clubs.leave(club, me())
    except Invalid as error:
        return _club_page(club, alert=error.message, status=400)
    flash(_("You left %(club)s.", club=name))
    return redirect(url_for(".index"))


@bp.get("/clubs/<int:club_id>/invite")
@login_required
def invite(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.OWNER)
    link = url_for(".join", code=club.invite_code, _external=True)
    return render_template("clubs/invite.html", club=club, link=link)


@bp.post("/clubs/<int:club_id>/invite")
@login_required
def renew_invite(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.OWNER)
    clubs.renew_invite(club)
    flash(_("Here is a new invitation link; the old one no longer works."))
    return redirect(url_for(".invite", club_id=club.id))


@bp.get("/join/<code>")
def join(code: str) -> ResponseReturnValue:
    """The invitation's landing page: anyone holding the link may see the club's name."""
    club = clubs.club_by_invite(code)
    role = clubs.role_in(signed_in(), club)
    return render_template("clubs/join.html", club=club, code=code, role=role)


@bp.post("/join/<code>")
@login_required
def join_confirmed(code: str) -> ResponseReturnValue:
    already = clubs.role_in(me(), clubs.club_by_invite(code)) is not None
    club = clubs.join_by_invite(me(), code)
    if already:
        flash(_("You are already a member of %(club)s.", club=club.name))
    else:
        flash(
            _(
                "Welcome to %(club)s: you follow its matches; an owner can make you a scorer.",
                club=club.name,
            )
        )
    return redirect(url_for(".show", club_id=club.id))
