"""The club's leaderboard page: a season (or all time), sorted by any column, with the
players below the club's minimum of matches listed apart; the owner sets that minimum.

Every number comes from records.leaderboard (the stored sums and ratings); this module only
words and formats them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from babel.numbers import get_decimal_symbol, get_group_symbol
from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from flask_login import login_required

from scorekeeper import clubs
from scorekeeper.accounts import me
from scorekeeper.models import Club, Role
from scorekeeper.records import leaderboard
from scorekeeper.records.leaderboard import ALL, TREND_MATCHES, Board
from scorekeeper.records.leaderboard_forms import MinimumForm
from scorekeeper.records.seasons import seasons_of
from scorekeeper.records.standings import PlayerRow
from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.gettext import ngettext

bp = Blueprint("leaderboard", __name__)

#: A rating that moved less than this over the last matches shows as steady.
STEADY = 0.05


@dataclasses.dataclass(frozen=True)
class Column:
    key: str  # a sort of standings.SORTS
    label: Any  # the full name (a lazy string), in the sort picker and for screen readers
    short: Any  # the table's header
    show: Callable[[Numbers, PlayerRow], str]


@dataclasses.dataclass(frozen=True, slots=True)
class Numbers:
    """Numbers written the way of the page's language. Babel's formatting costs a few tens of
    microseconds a number, and a board of 500 players holds 6,000 of them, so the symbols
    are looked up once a page and the numbers written by Python."""

    decimal: str
    group: str

    @classmethod
    def here(cls) -> Numbers:
        locale = get_locale()
        return cls(get_decimal_symbol(locale), get_group_symbol(locale))

    def whole(self, value: int) -> str:
        return self._signed(value, f"{abs(value):,}")

    def tenths(self, value: float | Fraction | None) -> str:
        if value is None:
            return "–"
        return self._signed(value, f"{abs(float(value)):,.1f}")

    def rounded(self, value: float | None) -> str:
        """A rating as a casual player reads it: a whole number (its decimals are noise)."""
        return "–" if value is None else self._signed(value, f"{abs(round(value)):,}")

    def percent(self, value: Fraction | None) -> str:
        return "–" if value is None else f"{round(float(value) * 100)}%"

    def _signed(self, value: float | Fraction, text: str) -> str:
        text = text.replace(",", "\0").replace(".", self.decimal).replace("\0", self.group)
        return "−" + text if value < 0 and text.strip("0" + self.decimal) else text


#: The page's columns. "Average hand score of the side" is not one: in the team formats it is
#: always the points per hand, and in the share formats it is the side's score before
#: sharing, which no player was credited. The API keeps it (average_hand_score).
COLUMNS = (
    Column("rating", _l("Rating"), _l("Rating"), lambda n, r: n.rounded(r.rating)),
    Column("matches", _l("Matches played"), _l("Matches"), lambda n, r: n.whole(r.matches)),
    Column("wins", _l("Wins"), _l("Wins"), lambda n, r: n.whole(r.wins)),
    Column("win_rate", _l("Win rate"), _l("Win %"), lambda n, r: n.percent(r.win_rate)),
    Column(
        "points_per_hand",
        _l("Points per hand"),
        _l("Pts/hand"),
        lambda n, r: n.tenths(r.points_per_hand),
    ),
    Column(
        "biribas_clean",
        _l("Clean biribas"),
        _l("Clean"),
        lambda n, r: n.whole(r.biribas_clean),
    ),
    Column(
        "biribas_dirty",
        _l("Dirty biribas"),
        _l("Dirty"),
        lambda n, r: n.whole(r.biribas_dirty),
    ),
    Column(
        "full_runs", _l("Full 13-card runs"), _l("Full runs"), lambda n, r: n.whole(r.full_runs)
    ),
    Column("went_out", _l("Times went out"), _l("Out"), lambda n, r: n.whole(r.went_out)),
)


def ordered_columns(sort: str) -> list[Column]:
    """The columns with the one sorted on first, so a phone shows it beside the names."""
    return sorted(COLUMNS, key=lambda c: c.key != sort)


#: The rating's trend, said to screen readers and in the arrow's tooltip.
TREND_WORDS = {
    "up": _l("up %(points)s"),
    "down": _l("down %(points)s"),
    "steady": _l("steady"),
}
TREND_TITLE = _l("%(move)s over the last %(count)d matches")


@dataclasses.dataclass(frozen=True, slots=True)
class Line:
    """A player's line as the page shows it, every text ready (a board has hundreds)."""

    rank: int | None
    name: str
    url: str  # the player's page
    cells: list[tuple[str, str]]  # (column, text) in the order of the page's columns
    rating: str
    sigma: str
    trend: str  # up, down, steady, or "" without a rating
    trend_text: str
    trend_title: str


class Lines:
    """Makes the lines of one page: numbers and words looked up once, not once a player."""

    def __init__(self, columns: list[Column], player_url: str) -> None:
        self.columns = columns
        self.player_url = player_url  # with "{}" for the player's id: one url_for a page
        self.numbers = Numbers.here()
        self.words = {trend: str(text) for trend, text in TREND_WORDS.items()}
        self.title = str(TREND_TITLE)

    def __call__(self, row: PlayerRow) -> Line:
        numbers = self.numbers
        trend, text = "", ""
        if row.rating_trend is not None:
            moved = numbers.tenths(abs(row.rating_trend))
            if row.rating_trend >= STEADY:
                trend = "up"
            elif row.rating_trend <= -STEADY:
                trend = "down"
            else:
                trend = "steady"
            text = self.words[trend] % {"points": moved}
        return Line(
            rank=row.rank,
            name=row.name,
            url=self.player_url.format(row.player_id),
            cells=[(c.key, c.show(numbers, row)) for c in self.columns],
            rating=numbers.rounded(row.rating),
            sigma=numbers.tenths(row.rating_sigma),
            trend=trend,
            trend_text=text,
            trend_title=self.title % {"move": text, "count": TREND_MATCHES},
        )


def _sort_link(club: Club, found: Board, key: str) -> str:
    """Sort by `key`; the column already sorted on turns round."""
    if key == found.sort:
        direction = "asc" if found.descending else "desc"
    else:
        direction = "asc" if key == "name" else "desc"
    season = ALL if found.season is None else found.season.id
    return url_for(".show", club_id=club.id, season=season, sort=key, dir=direction)


def _page(club: Club, form: MinimumForm | None = None, status: int = 200) -> ResponseReturnValue:
    args = request.args
    found = leaderboard.board(club, args.get("season"), args.get("sort"), args.get("dir"))
    role = clubs.role_in(me(), club)
    is_owner = role is Role.OWNER
    minimum = form or MinimumForm(formdata=None, minimum=str(club.min_matches_ranked))
    columns = ordered_columns(found.sort)
    # The players' pages: one url_for, the id put in for each of hundreds of players.
    player_url = url_for("players.show", club_id=club.id, player_id=0).removesuffix("0") + "{}"
    line = Lines(columns, player_url)
    page = render_template(
        "records/leaderboard.html",
        club=club,
        board=found,
        seasons=seasons_of(club),
        season_value=ALL if found.season is None else str(found.season.id),
        columns=columns,
        # A phone's card names each number by its column (translated once, not per player).
        shorts={c.key: str(c.short) for c in COLUMNS},
        sort_columns=COLUMNS,
        ranked=[line(r) for r in found.ranked],
        unranked=[line(r) for r in found.unranked],
        sort_link=lambda key: _sort_link(club, found, key),
        is_owner=is_owner,
        minimum_form=minimum if is_owner else None,
        trend_matches=TREND_MATCHES,
        trend_arrows={"up": "▲", "down": "▼", "steady": "▶"},
    )
    return page, status


@bp.get("/clubs/<int:club_id>/leaderboard")
@login_required
def show(club_id: int) -> ResponseReturnValue:
    return _page(clubs.club_for(me(), club_id))


@bp.post("/clubs/<int:club_id>/leaderboard/minimum")
@login_required
def set_minimum(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.OWNER)
    form = MinimumForm()
    if not form.validate_on_submit():
        return _page(club, form, 400)
    leaderboard.set_minimum(club, form.count)
    flash(
        ngettext(
            "Players now need %(num)d finished match in a season to be ranked.",
            "Players now need %(num)d finished matches in a season to be ranked.",
            club.min_matches_ranked,
        )
    )
    season = request.args.get("season") or None
    return redirect(url_for(".show", club_id=club.id, season=season))
