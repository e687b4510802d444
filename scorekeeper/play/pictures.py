"""The score picture of a match: each side's total after every hand, a `charts.Picture`
with its words and its numbers (the text alternative templates/macros/charts.html puts
under the picture)."""

from __future__ import annotations

from flask import url_for

from scorekeeper.match import HandLine, MatchView
from scorekeeper.models import Match
from scorekeeper.rules.points import format_points
from scorekeeper.web.charts import Picture, Series, line_chart
from scorekeeper.web.gettext import gettext as _

#: The hands the score picture's table of numbers lists (the last ones; the page of all
#: hands has every one).
TABLE_ROWS = 12


def progress_picture(
    match: Match, view: MatchView, lines: list[HandLine], rows: int = TABLE_ROWS
) -> Picture | None:
    """Each competitor's running total after every hand, against the target; None before
    the first hand. `lines` are the match's hands with their totals (`match.hand_lines`),
    read once for the whole scoreboard. Its table of numbers lists the last `rows` hands;
    the page of all hands has every one."""
    live = [line for line in lines if not line.deleted]
    if not live:
        return None
    target = view.target
    order = [s.key for s in view.standings]
    shown = [s.name for s in view.standings]
    series = [
        Series(shown[i], (0.0, *(float(line.after[key]) for line in live)))
        for i, key in enumerate(order)
    ]
    # A match of fixed deals ends after them whatever the totals: no target line to reach.
    fixed = view.variant.deals is not None
    guides = [] if fixed else [(float(target), _("target %(points)d", points=target), "target")]
    if any(v < 0 for s in series for v in s.values):
        guides.append((0.0, "", "zero"))  # the y axis labels 0 already
    numbers = ["0", *(str(line.number) for line in live)]
    finals = ", ".join(
        f"{shown[i]} {format_points(live[-1].after[key])}" for i, key in enumerate(order)
    )
    return Picture(
        chart=line_chart(series, numbers, guides),
        id=f"progress-{match.id}",
        title=_("Score after each hand, match %(number)d", number=match.id),
        description=_(
            "One line per side, from 0 to its total after each hand. Now: %(totals)s.",
            totals=finals,
        )
        if fixed
        else _(
            "One line per side, from 0 to its total after each hand; the dashed line is "
            "the target, %(target)d. Now: %(totals)s.",
            target=target,
            totals=finals,
        ),
        x_title=_("hand"),
        columns=(_("Hand"), *shown),
        rows=tuple(
            (str(line.number), *(format_points(line.after[key]) for key in order))
            for line in live[-rows:]
        ),
        more=None
        if len(live) <= rows
        else (
            _("The totals after every hand: all hands of the match"),
            url_for("matches.all_hands", match_id=match.id),
        ),
    )
