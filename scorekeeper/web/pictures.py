"""The pictures of the pages: a match's score progression and a player's rating over time,
each a `charts.Chart` with its words (title, description) and the numbers as a table, the
text alternative templates/macros/charts.html puts under the picture."""

from __future__ import annotations

from dataclasses import dataclass

from flask import url_for
from flask_babel import gettext as _

from scorekeeper.match import HandLine, MatchView
from scorekeeper.models import Match
from scorekeeper.rules.points import format_points
from scorekeeper.services.ratings import Rating
from scorekeeper.web.charts import Chart, Series, line_chart

#: The hands the score picture's table of numbers lists (the last ones; the page of all
#: hands has every one).
TABLE_ROWS = 12


@dataclass(frozen=True, slots=True)
class Picture:
    chart: Chart
    id: str  # unique on its page: the title and description are found by it
    title: str
    description: str
    x_title: str  # what the x axis counts
    columns: tuple[str, ...]  # the numbers' table: its header …
    rows: tuple[tuple[str, ...], ...]  # … and its rows
    links: tuple[str | None, ...] = ()  # per row, where its first cell leads (if anywhere)
    more: tuple[str, str] | None = None  # rows left out: words and where they all are


def rating_text(value: float) -> str:
    """A rating as the pages show it: one decimal, a real minus sign."""
    return f"{value:.1f}".replace("-", "−")


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
    guides = [(float(target), _("target %(points)d", points=target), "target")]
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


def rating_picture(rating: Rating, match_url: str) -> Picture | None:
    """The player's conservative rating after each rated match, from the start (0);
    `match_url` is a scoreboard path with "{id}" for the match. None before any match."""
    if not rating.history:
        return None
    values = (0.0, *(p.ordinal for p in rating.history))
    series = [Series(rating.name, values)]
    guides = [(0.0, "", "zero")] if min(values) < 0 < max(values) else []
    return Picture(
        chart=line_chart(series, [str(i) for i in range(len(values))], guides),
        id=f"rating-{rating.player_id}",
        title=_("%(player)s's rating after each match", player=rating.name),
        description=_(
            "The rating starts at 0 and moves after each of %(count)d rated matches; "
            "it is now %(rating)s.",
            count=len(rating.history),
            rating=rating_text(rating.ordinal),
        ),
        x_title=_("matches played"),
        columns=(_("Match"), _("Rating after it")),
        rows=tuple(
            (_("Match %(number)d", number=p.match_id), rating_text(p.ordinal))
            for p in rating.history
        ),
        links=tuple(match_url.format(id=p.match_id) for p in rating.history),
    )
