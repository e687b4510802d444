"""The live pages: what a scoreboard polls to follow saves on other phones, and the club's
big screen of every running match.

A page polls a small JSON view with `If-None-Match` every two seconds (static/js/live.js);
while nothing changed the answer is an empty 304 worked out from one aggregate over the
stored hands (play.live), so it suits gunicorn's sync workers behind any proxy. Only a
new revision makes the page fetch itself again and swap the parts that changed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

import sqlalchemy as sa
from flask import Blueprint, Response, current_app, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required
from sqlalchemy.orm import joinedload, selectinload

from scorekeeper.accounts import me
from scorekeeper.clubs import club_for, match_and_role, no_such_match
from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, Role, Seat
from scorekeeper.numbers import is_row_id
from scorekeeper.play import drawings, live
from scorekeeper.play.live import POLL_EVERY_MS
from scorekeeper.play.scoreboard import board
from scorekeeper.records import scoreboard_extras
from scorekeeper.web.i18n import language

bp = Blueprint("live", __name__)


# --- the changed parts, drawn once per revision ---------------------------------------------
# When a hand is saved every viewer of the match asks for the new scoreboard within two
# seconds. They all get the same parts (for their language and kind of page), so the first
# worker to be asked draws them and stores the drawing for the others (play.drawings);
# each worker also keeps the drawings it used in memory. Ten phones at a table cost one
# replay of the match, not one a worker. Who may see the match is checked before any drawing
# is looked up, on every request.

#: Drawings kept per worker process: a club night's matches, each in two languages and a few
#: kinds of page, with room to spare; the oldest go first.
KEPT_DRAWINGS = 256
#: The kinds of reader a live page is drawn for: with the languages, all a match's drawings.
KINDS = ("shared", "viewer", "scorer", "owner")
#: Revalidate every time, and never from a shared cache: the answer is one member's.
POLL_CACHE_CONTROL = "private, no-cache"
_drawings: OrderedDict[tuple[int, str, str], str] = OrderedDict()
_drawings_lock = threading.Lock()


def conditional_json(etag: str, build: Callable[[], str]) -> ResponseReturnValue:
    """304 when the asker already holds `etag` (nothing is built), else the JSON text of
    `build`. A proxy that compresses may weaken the tag (W/"…"), so the comparison is the
    weak one."""
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        response = Response(f"{build()}\n", mimetype="application/json")
    response.set_etag(etag)
    response.headers["Cache-Control"] = POLL_CACHE_CONTROL
    return response


def drawing(
    match_id: int, revision: str, what: str, draw: Callable[[Match], str], stored: bool = True
) -> str:
    """The drawing `what` of the match at `revision`: from this worker's memory, else (when
    `stored`) from the store, else drawn by `draw` and (when `stored`) stored. Only a drawing
    whose hands are those of `revision` is kept: one drawn just after yet another save goes
    out but is not kept. A drawing that costs less to draw than to store and read back (the
    poll's JSON: the match's progress and its last hand, however long the match) is kept in
    this worker's memory alone: storing it was a write for every revision, each of which
    waits for, and holds up, every hand being saved (tests/bench/live_viewers.py)."""
    key = (match_id, revision, what)
    with _drawings_lock:
        text = _drawings.get(key)
    if text is not None:
        return text
    text = drawings.kept(match_id, revision, what) if stored else None
    if text is None:
        match = match_to_draw(match_id)
        text = draw(match)
        # Kept only if no hand changed since the revision was read: the drawing reads the
        # match's progress and its hands in separate statements, which all fell in between.
        if live.match_revision(match_id) != revision:
            return text
        if stored:
            drawings.keep(match_id, revision, what, text)
    with _drawings_lock:
        _drawings[key] = text
        while len(_drawings) > KEPT_DRAWINGS:
            _drawings.popitem(last=False)
    return text


def match_to_draw(match_id: int) -> Match:
    """The match with what a drawing of it reads loaded up front: the match with its teams,
    seats and players (a few rows joined; its hands are read as the drawing needs them). A
    revision is drawn right after a save, while the match's viewers all ask at once; on
    PostgreSQL each query is a round trip."""
    match = (
        db.session.execute(
            sa.select(Match)
            .where(Match.id == match_id)
            .options(
                joinedload(Match.seats).joinedload(Seat.player),
                joinedload(Match.teams),
            )
        )
        .unique()  # every joined row, so each collection is whole
        .scalar_one_or_none()
    )
    if match is None:
        raise no_such_match()
    return match


def match_poll(match_id: int, revision: str | None = None) -> ResponseReturnValue:
    """The poll of one match whose reader is already known to be allowed (`revision` when
    the caller read it already)."""
    revision = revision or live.match_revision(match_id)

    def build() -> str:
        # Names and points hold no words, so every language shares this drawing.
        return drawing(
            match_id,
            revision,
            "json",
            lambda match: current_app.json.dumps(live.live_match(match).as_json()),
            stored=False,
        )

    return conditional_json(revision, build)


@bp.get("/matches/<int:match_id>/live.json")
@login_required
def match_json(match_id: int) -> ResponseReturnValue:
    # Membership and revision in one query: most polls end here with a 304.
    revision = live.member_revision(match_id, me().id) if is_row_id(match_id) else None
    if revision is None:
        raise no_such_match()
    return match_poll(match_id, revision)


def live_regions(
    match_id: int,
    kind: str,
    share: str | None = None,
    headers: dict[str, str] | None = None,
    revision: str | None = None,
) -> ResponseReturnValue:
    """The live parts of the scoreboard as `kind` sees it ("shared", "viewer", "scorer" or
    "owner"), from the kept drawing of this revision when there is one (`revision` when the
    caller read it already). The drawing holds words of the reader's language, so the
    language is part of what it is a drawing of; its links are drawn under a placeholder
    root and get the asker's own root as they go out (play.drawings), so no request header
    makes a drawing of its own. The link's secret is not in it."""
    if kind not in KINDS:
        raise ValueError(f"no such kind of live page: {kind}")
    revision = revision or live.match_revision(match_id)
    what = f"html:{kind}:{language()}"

    def draw(match: Match) -> str:
        shown = board(match)
        extras = {} if kind == "shared" else scoreboard_extras(match)
        with drawings.root_free():
            return render_template(
                "play/_live_regions.html",
                match=match,
                board=shown,
                progress=shown.progress,
                can_score=kind in ("scorer", "owner"),
                shared=kind == "shared",
                share=share,
                live_etag=revision,
                **extras,
            )

    text = drawings.with_root(drawing(match_id, revision, what, draw))
    return text, 200, {"Cache-Control": "private, no-cache", **(headers or {})}


@bp.get("/matches/<int:match_id>/live.html")
@login_required
def match_regions(match_id: int) -> ResponseReturnValue:
    # The club's own reading of a member's match and role: one query.
    found = match_and_role(me(), match_id)
    if found is None:
        raise no_such_match()
    match, role = found
    return live_regions(match.id, "viewer" if role is Role.VIEWER else role.value)


def running_matches(club: Club) -> list[live.LiveMatch]:
    ids = live.running_ids(club.id)
    if not ids:
        return []
    found = db.session.scalars(
        sa.select(Match)
        .where(Match.id.in_(ids))
        .order_by(Match.id.desc())
        .options(
            selectinload(Match.seats).selectinload(Seat.player),
            selectinload(Match.teams),
        )
    )
    shown = [live.live_match(m) for m in found]
    return [m for m in shown if not m.finished]


def big_screen(club: Club, poll_url: str, shared: bool) -> str:
    etag = live.club_revision(club.id)  # before reading: a save in between shows next poll
    return render_template(
        "play/big_screen.html",
        club=club,
        matches=running_matches(club),
        live_url=poll_url,
        live_etag=etag,
        live_every=POLL_EVERY_MS,
        shared=shared,
    )


def club_poll(club_id: int) -> ResponseReturnValue:
    def build() -> str:
        club = db.session.get(Club, club_id)
        if club is None:
            return current_app.json.dumps({"matches": []})
        matches = [m.as_json() for m in running_matches(club)]
        return current_app.json.dumps({"club": club.id, "matches": matches})

    return conditional_json(live.club_revision(club_id), build)


@bp.get("/clubs/<int:club_id>/live")
@login_required
def club_screen(club_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id)
    return big_screen(club, url_for(".club_json", club_id=club.id), shared=False)


@bp.get("/clubs/<int:club_id>/live.json")
@login_required
def club_json(club_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id)
    return club_poll(club.id)
