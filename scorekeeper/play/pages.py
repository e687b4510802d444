"""HTML pages a person opens on a phone: the home page, the read-only demo match and the
page about the JSON API."""

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from scorekeeper.accounts import signed_in
from scorekeeper.clubs import clubs_of, player_counts
from scorekeeper.extensions import csrf
from scorekeeper.match import view_from
from scorekeeper.play.hand_forms import HandForm, SideFields
from scorekeeper.play.hand_refusals import Refusal
from scorekeeper.play.live_answer import live_words
from scorekeeper.play.match_forms import win_rule
from scorekeeper.play.running import running_matches
from scorekeeper.play.sample import sample_match
from scorekeeper.play.sandbox import sandbox_answer, sandbox_layout
from scorekeeper.play.scoreboard import SUIT_SYMBOLS, HandRow, side_rows, standing_rows
from scorekeeper.rules.points import format_points
from scorekeeper.web.gettext import gettext as _
from scorekeeper.words import deal_text, opening_line

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> str:
    """Signed out: what the app does, and the ways in. Signed in: where to carry on."""
    user = signed_in()
    if user is None:
        return render_template("play/index.html")
    clubs = clubs_of(user)
    # Counted, not loaded: a club may have a thousand players.
    counts = player_counts(club.id for club, _role in clubs)
    return render_template(
        "play/home.html", running=running_matches(user), clubs=clubs, player_counts=counts
    )


@bp.get("/demo")
def demo() -> str:
    """A sample match anyone may look at: scored now by the rules engine, stored nowhere."""
    sample = sample_match()
    variant = sample.variant
    # The sample is stored nowhere: its read model comes from its totals after its hands,
    # as a stored match's comes from its progress.
    teams = sample.setup.teams or {}
    view = view_from(
        sample.setup,
        dict(sample.hands[-1].totals_after),
        len(sample.hands),
        len(sample.hands) + 1,
        {seat: seat for seat in sample.setup.seats},
        {name: _players(players, name) for name, players in teams.items()},
    )
    hands = [
        HandRow(
            number=h.number,
            deleted=False,
            kozi=SUIT_SYMBOLS.get(h.kozi or ""),
            sides=side_rows(h.result),
            problems=list(h.result.problems),
            accepted_reason=None,
            totals_after=" · ".join(f"{n} {format_points(t)}" for n, t in h.totals_after.items()),
            version=1,
            flagged=bool(h.result.problems),
        )
        for h in reversed(sample.hands)
    ]
    return render_template(
        "play/demo.html",
        title=_("A sample match"),
        rules=variant.name,
        table=sample.table_format.name,
        target=variant.target,
        win_rule=win_rule(variant.target_rule, variant.target),
        standings=standing_rows(view),
        openings=variant.opening_table is not None,
        next_dealer=view.next_dealer,
        deal_order=deal_text(variant.deal_direction, view.deal_order),
        hands=hands,
        variant_id=variant.id,
    )


@bp.route("/demo/hand", methods=["GET", "POST"])
@csrf.exempt  # the sandbox stores nothing and reads no one's data: nothing to forge
def demo_hand() -> ResponseReturnValue:
    """Try the hand entry: the sample match's next hand, with the live preview; a post (the
    Preview button without JavaScript) draws the preview into the page. Stored nowhere."""
    if request.method == "POST":
        form, answer = sandbox_answer(request.form)
    else:
        layout = sandbox_layout()
        form, answer = HandForm(layout, [SideFields() for _l in layout.side_labels]), None
    status = 400 if answer and answer["errors"] else 200
    page = render_template(
        "play/demo_hand.html",
        form=form,
        layout=form.layout,
        answer=answer,
        live_words=live_words(),
        opening_line=opening_line,
        refusal=Refusal(),  # the hand form's fields mark a refused save's; the demo has none
    )
    return page, status


@bp.post("/demo/hand/preview")
@csrf.exempt  # as above: the answer is all that leaves the request
def demo_hand_preview() -> ResponseReturnValue:
    """The sandbox's live preview (hand-entry.js asks it as a match's hand form asks its own)."""
    _form, answer = sandbox_answer(request.form)
    return answer


@bp.get("/api")
def api() -> str:
    """The JSON API's referee endpoints, with requests to copy."""
    return render_template("referee/api.html")


def _players(players: tuple[str, ...], team: str) -> str:
    """A team's players under its name, unless the name is just them."""
    names = " & ".join(players)
    return "" if names == team else names
