"""A player's rating over time as a picture: a `charts.Picture` with its words and its
numbers (the text alternative templates/macros/charts.html puts under the picture)."""

from __future__ import annotations

from scorekeeper.records.ratings import Rating
from scorekeeper.web.charts import Picture, Series, line_chart
from scorekeeper.web.gettext import gettext as _


def rating_text(value: float) -> str:
    """A rating as the pages show it: one decimal, a real minus sign."""
    return f"{value:.1f}".replace("-", "−")


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
