"""A tournament's big screen (`/tournaments/<id>/live`): the round, its clock, every table's
state, where each entry sits, and the ranking, read across a room at 1920×1080.

Members open it signed in; the club's big-screen share link (play.sharing, made on the
club's share page) opens it too, for the television that signs in as nobody. It polls a
small JSON view with `If-None-Match` every two seconds (static/js/live.js): the answer is an
empty 304 until a table, a round or the ranking changes (table_links.revision), and only then
does the screen fetch itself again and swap what changed.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import hmac
import threading
from collections import OrderedDict
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, current_app, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_login import login_required
from markupsafe import Markup

from scorekeeper.accounts import me
from scorekeeper.extensions import db
from scorekeeper.models import Tournament
from scorekeeper.numbers import is_row_id
from scorekeeper.play import (
    POLL_EVERY_MS,
    SHARED_HEADERS,
    club_for_link,
    conditional_json,
    dead_link,
    root_free,
    screen_keep,
    screen_kept,
    with_root,
)
from scorekeeper.tournaments import service, table_links
from scorekeeper.web.i18n import language

bp = Blueprint("tournament_live", __name__)


def _shared(tournament_id: int, club_share: str) -> Tournament:
    """The tournament a working big-screen link of its club opens (its row alone: a poll
    reads no more, the page its tables only to draw them anew); else 404."""
    found = (
        db.session.scalars(
            sa.select(Tournament).where(Tournament.id == tournament_id)
        ).one_or_none()
        if is_row_id(tournament_id)
        else None
    )
    club = club_for_link(found.club_id if found else -1, club_share)
    if found is None or found.club_id != club.id or club.importing:
        raise dead_link()
    return found


def screen(tournament: Tournament, clock: object = None) -> dict[str, Any]:
    """What the big screen shows, as the template reads it; `clock` stands in for the
    round's clock (table_links.clock_of) when given."""
    names = {e.id: e.name for e in tournament.entries}
    rounds = list(tournament.round_rows)
    current = rounds[-1] if rounds else None
    results = service.table_results(tournament)  # every table's match read at once
    tables = []
    if current is not None:
        for table in current.tables:
            state = results[table.id]
            tables.append(
                {
                    "state": state,
                    "ns": names[table.ns_entry_id],
                    "ew": names[table.ew_entry_id],
                    # Confirmed, then its hands corrected: the room saw the old result.
                    "corrected": table.corrected_at is not None and not table.confirmed,
                }
            )
    bye = names[current.byes[0].entry_id] if current is not None and current.byes else None
    standings = [
        {"standing": s, "name": names.get(s.entry, "?")}
        for s in service.standings_of(tournament, results)
    ]
    return {
        "tournament": tournament,
        "round": current,
        "tables": tables,
        "bye": bye,
        "standings": standings,
        "clock": table_links.clock_of(tournament, current) if clock is None else clock,
        "rounds_left": tournament.rounds - len(rounds),
    }


#: Each worker's drawings of big screens' changing part (tournaments/_screen.html), by the
#: tournament's live revision and setup (screen_html: everything the screen shows) and
#: language.
#: After each saved hand every television asks the page again (live.js), a hundred within
#: one poll, and drawing it (every table's result, the ranking) costs tens of milliseconds
#: where the revision costs a few small queries. The most recent few are kept here, and each
#: in the database for the other workers (play.drawings): with a save every few tenths of a
#: second, each worker drawing each revision itself was half the server's time on the
#: club-night benchmark.
_drawn: OrderedDict[tuple[str, str], str] = OrderedDict()
_drawn_lock = threading.Lock()
KEPT = 16


@functools.lru_cache(maxsize=4)
def _clock_marks(secret: str | bytes) -> tuple[str, str]:
    """What stands for the clock's "now" and its time left in a kept drawing, each answer
    putting in its own (static/js/round-clock.js counts from the server's time when the page
    was drawn): the same in every worker, since they share drawings, and derived from the
    secret key, so no name a user typed can hold them."""
    key = secret.encode() if isinstance(secret, str) else secret

    def mark(word: bytes) -> str:
        return "clock" + hmac.new(key, word, hashlib.sha256).hexdigest()[:20]

    return mark(b"screen clock now"), mark(b"screen clock left")


def _setup_mark(tournament: Tournament) -> str:
    """The tournament's row (its setup) in a few characters, from what is read already."""
    row = tuple(getattr(tournament, column.key) for column in Tournament.__table__.columns)
    return hashlib.sha256(repr(row).encode()).hexdigest()[:12]


@dataclasses.dataclass(frozen=True)
class _KeptClock:
    """The round's clock as a kept drawing holds it: its end, and marks for the time."""

    ends_ms: int | None
    now_ms: str
    left: str


def screen_html(tournament: Tournament, live: str) -> Markup:
    """The big screen's changing part, drawn once a revision (by the first worker asked),
    with this answer's time in its clock; `live` is the live pages' revision
    (table_links.revision). With the tournament's own row it covers all the screen shows:
    entries, rounds, byes and penalties are only ever added, closed or withdrawn, each of
    which moves it, and no row of them is edited (service.revision_of, the API's ETag, reads
    them all: too slow for a page every television asks again after each hand)."""
    revision, what = f"{live}-{_setup_mark(tournament)}", f"screen:{language()}"
    now, left = _clock_marks(current_app.secret_key or "")
    # This answer's clock, read before a drawing is kept: keeping one commits, and the
    # tournament's rounds would be read again after it.
    rounds = tournament.round_rows
    clock = table_links.clock_of(tournament, rounds[-1] if rounds else None)
    with _drawn_lock:
        drawn = _drawn.get((revision, what))
    if drawn is None:
        drawn = screen_kept(tournament.id, revision, what)
    if drawn is None:
        kept = _KeptClock(clock.ends_ms, now, left)
        with root_free():
            screen_of = screen(service.with_tables(tournament, service.ROUNDS), kept)
            drawn = render_template("tournaments/_screen.html", **screen_of)
        screen_keep(tournament.id, revision, what, drawn)
    with _drawn_lock:
        _drawn[(revision, what)] = drawn
        while len(_drawn) > KEPT:
            _drawn.popitem(last=False)
    shown = with_root(drawn).replace(now, str(clock.now_ms))
    return Markup(shown.replace(left, clock.left))


def _page(tournament: Tournament, poll: str, shared: bool) -> ResponseReturnValue:
    live = table_links.revision(tournament.id)
    page = render_template(
        "tournaments/live.html",
        tournament=tournament,
        live_url=poll,
        live_etag=live,
        live_every=POLL_EVERY_MS,
        shared=shared,
        screen_html=screen_html(tournament, live),
    )
    return page, 200, SHARED_HEADERS if shared else {"Cache-Control": "no-store"}


def _poll(tournament: Tournament) -> ResponseReturnValue:
    def build() -> str:
        rounds = tournament.round_rows
        shown = {
            "tournament": tournament.id,
            "round": rounds[-1].number if rounds else None,
            "status": rounds[-1].status if rounds else None,
        }
        return str(current_app.json.dumps(shown))

    return conditional_json(table_links.revision(tournament.id), build)


@bp.get("/tournaments/<int:tournament_id>/live")
@login_required
def big_screen(tournament_id: int) -> ResponseReturnValue:
    tournament = service.tournament_for(me(), tournament_id, reads=service.ROW)
    return _page(tournament, url_for(".live_json", tournament_id=tournament.id), shared=False)


@bp.get("/tournaments/<int:tournament_id>/live.json")
@login_required
def live_json(tournament_id: int) -> ResponseReturnValue:
    return _poll(service.tournament_for(me(), tournament_id, reads=service.ROW))


@bp.get("/tournaments/<int:tournament_id>/live/<club_share>")
def shared_screen(tournament_id: int, club_share: str) -> ResponseReturnValue:
    tournament = _shared(tournament_id, club_share)
    poll = url_for(".shared_json", tournament_id=tournament.id, club_share=club_share)
    return _page(tournament, poll, shared=True)


@bp.get("/tournaments/<int:tournament_id>/live/<club_share>/live.json")
def shared_json(tournament_id: int, club_share: str) -> ResponseReturnValue:
    return _poll(_shared(tournament_id, club_share))
