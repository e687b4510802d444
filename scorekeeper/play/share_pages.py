"""Read-only share links: the scorer makes one for a match (or the club's big screen) and
shows it as a QR code; whoever opens it sees the live scoreboard, the hand details and the
match's rules, and nothing else of the club, with no account. A signed-in holder may ask to
join the club; an owner accepts with one tap on the club page."""

from __future__ import annotations

from typing import Any

import segno
from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required
from markupsafe import Markup, escape

from scorekeeper.accounts import me, signed_in
from scorekeeper.clubs import club_for, match_for, role_in
from scorekeeper.errors import Invalid
from scorekeeper.match import variant_of
from scorekeeper.models import Club, Match, Role
from scorekeeper.numbers import signed_number
from scorekeeper.play import sharing
from scorekeeper.play.live import POLL_EVERY_MS, match_revision
from scorekeeper.play.live_pages import big_screen, club_poll, live_regions, match_poll
from scorekeeper.play.scoreboard import board
from scorekeeper.web.gettext import gettext as _
from scorekeeper.words import ASSUMED_NOTE, describe_rules

bp = Blueprint("share", __name__)

#: Shared pages are for the people at the table: no search engine, no cache keeps them, and
#: the secret in their URL goes to no other site (the app's own policy is same-origin).
SHARED_HEADERS = {"Cache-Control": "no-store", "X-Robots-Tag": "noindex, nofollow"}


def qr_code(url: str, label: str) -> Markup:
    """`url` as a QR code in SVG, drawn here so the page needs no script; dark on white in
    either theme (a scanner wants the contrast), sized by the stylesheet."""
    svg = segno.make(url, error="m").svg_inline(
        scale=4, border=4, dark="#000", light="#fff", omitsize=True, svgclass="qr-code"
    )
    labelled = svg.replace("<svg ", f'<svg role="img" aria-label="{escape(label)}" ', 1)
    return Markup(labelled)  # segno's own markup, the label escaped above


def _expiry() -> Any:
    """The form's choice: the link ends at midnight on the phone's clock, or never."""
    if request.form.get("until") != "today":
        return None
    # The page's script fills the offset in; without a readable one the day is UTC's (a
    # readable one too far from UTC is refused by end_of_day with its reason).
    return sharing.end_of_day(signed_number(request.form.get("offset"), 9999))


def _share_page(
    club: Club, match: Match | None, new_link: str | None = None, status: int = 200
) -> ResponseReturnValue:
    links = sharing.live_links(club, match)
    page = render_template(
        "play/share/links.html",
        club=club,
        match=match,
        links=links,
        new_link=new_link,
        qr=None if new_link is None else qr_code(new_link, _("QR code of the link")),
        can_own=role_in(me(), club) is Role.OWNER,
    )
    # The new secret is in this answer only: nothing may keep it.
    return page, status, {"Cache-Control": "no-store"}


def _made(club: Club, match: Match | None) -> ResponseReturnValue:
    try:
        expires = _expiry()
    except Invalid as error:
        flash(error.message, "error")
        return _share_page(club, match, status=400)
    token = sharing.create_link(club, match, me(), expires)
    if match is None:
        url = url_for(".club_screen", club_id=club.id, club_share=token, _external=True)
    else:
        url = url_for(".watch", match_id=match.id, share=token, _external=True)
    return _share_page(club, match, new_link=url, status=201)


@bp.route("/matches/<int:match_id>/share", methods=["GET", "POST"])
@login_required
def match_links(match_id: int) -> ResponseReturnValue:
    match = match_for(me(), match_id, Role.SCORER)
    if request.method == "POST":
        return _made(match.club, match)
    return _share_page(match.club, match)


@bp.post("/matches/<int:match_id>/share/<int:link_id>/revoke")
@login_required
def revoke_match_link(match_id: int, link_id: int) -> ResponseReturnValue:
    match = match_for(me(), match_id, Role.SCORER)
    sharing.revoke(match.club, match, link_id)
    flash(_("The link is withdrawn: it shows nothing from now on."))
    return redirect(url_for(".match_links", match_id=match.id))


@bp.route("/clubs/<int:club_id>/share", methods=["GET", "POST"])
@login_required
def club_links(club_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id, Role.SCORER)
    if request.method == "POST":
        return _made(club, None)
    return _share_page(club, None)


@bp.post("/clubs/<int:club_id>/share/<int:screen_link_id>/revoke")
@login_required
def revoke_club_link(club_id: int, screen_link_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id, Role.SCORER)
    sharing.revoke(club, None, screen_link_id)
    flash(_("The link is withdrawn: it shows nothing from now on."))
    return redirect(url_for(".club_links", club_id=club.id))


# --- what a link opens ----------------------------------------------------------------------


@bp.get("/watch/<int:match_id>/<share>")
def watch(match_id: int, share: str) -> ResponseReturnValue:
    match = sharing.match_for_link(match_id, share)
    live_etag = match_revision(match.id)  # before the board: a save in between shows next poll
    role = role_in(signed_in(), match.club)
    page = render_template(
        "play/share/watch.html",
        match=match,
        board=board(match),
        can_score=False,
        shared=True,
        share=share,
        role=role,
        live_url=url_for(".watch_json", match_id=match.id, share=share),
        live_page=url_for(".watch_regions", match_id=match.id, share=share),
        live_etag=live_etag,
        live_every=POLL_EVERY_MS,
    )
    return page, 200, SHARED_HEADERS


@bp.get("/watch/<int:match_id>/<share>/live.json")
def watch_json(match_id: int, share: str) -> ResponseReturnValue:
    # The link and the revision in one query: most polls end here with a 304.
    return match_poll(match_id, sharing.link_revision(match_id, share))


@bp.get("/watch/<int:match_id>/<share>/live.html")
def watch_regions(match_id: int, share: str) -> ResponseReturnValue:
    # The link and the revision in one query, as for the poll: every viewer asks this after
    # each save, and the drawing itself is usually kept already.
    revision = sharing.link_revision(match_id, share)
    return live_regions(match_id, "shared", share, SHARED_HEADERS, revision)


@bp.get("/watch/<int:match_id>/<share>/rules")
def watch_rules(match_id: int, share: str) -> ResponseReturnValue:
    match = sharing.match_for_link(match_id, share)
    variant = variant_of(match)
    groups = describe_rules(variant)
    page = render_template(
        "referee/rules.html",
        variant=variant,
        groups=groups,
        assumed_count=sum(1 for group in groups for rule in group.rules if rule.assumed),
        assumed_note=ASSUMED_NOTE,
        match=match,
        back_url=url_for(".watch", match_id=match.id, share=share),
    )
    return page, 200, SHARED_HEADERS


@bp.post("/watch/<int:match_id>/<share>/join")
@login_required
def ask_to_join(match_id: int, share: str) -> ResponseReturnValue:
    match = sharing.match_for_link(match_id, share)
    if sharing.ask_to_join(me(), match.club):
        flash(_("Asked: an owner of the club lets you in, and then the club is yours to follow."))
    else:
        flash(_("You are already a member of %(club)s.", club=match.club.name))
    return redirect(url_for(".watch", match_id=match.id, share=share))


@bp.get("/clubs/<int:club_id>/live/<club_share>")
def club_screen(club_id: int, club_share: str) -> ResponseReturnValue:
    club = sharing.club_for_link(club_id, club_share)
    poll = url_for(".club_screen_json", club_id=club.id, club_share=club_share)
    return big_screen(club, poll, shared=True), 200, SHARED_HEADERS


@bp.get("/clubs/<int:club_id>/live/<club_share>/live.json")
def club_screen_json(club_id: int, club_share: str) -> ResponseReturnValue:
    club = sharing.club_for_link(club_id, club_share)
    return club_poll(club.id)


# --- the owner answers ------------------------------------------------------------------------


@bp.post("/clubs/<int:club_id>/requests/<int:request_id>")
@login_required
def answer_request(club_id: int, request_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id, Role.OWNER)
    accept = request.form.get("answer") == "accept"
    user = sharing.answer_request(club, request_id, accept)
    if accept:
        flash(_("%(user)s joined as a viewer.", user=user.username))
    else:
        flash(_("%(user)s was not let in.", user=user.username))
    return redirect(url_for("clubs.show", club_id=club.id, _anchor="members"))
