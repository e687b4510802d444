"""Player pages: one player's seasons, matches, partners, best hands and rating; the club's
partnerships; and head-to-head records between any two players or teams.

Members of the club read them; to anyone else the club and its players do not exist (404).
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import format_date, format_decimal, format_percent
from flask_login import login_required

from scorekeeper.accounts import me
from scorekeeper.clubs import PlayerChoices, club_for, player_choices, players_named
from scorekeeper.errors import Invalid
from scorekeeper.models import Club, Season
from scorekeeper.numbers import row_id
from scorekeeper.records import lines as records
from scorekeeper.records import match_list, pair_records, player_records, ratings, seasons
from scorekeeper.records.counted import left_out
from scorekeeper.records.pictures import rating_picture, rating_text
from scorekeeper.rules.cards import parse_cards
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.paging import page_number

bp = Blueprint("players", __name__)

#: The player page lists this many of the player's latest matches.
RECENT = 30
#: Pairs on one page of the partnerships; a big club has thousands.
PAIRS_PAGE = 50


@bp.app_template_filter("win_percent")
def win_percent(value: Fraction | None) -> str:
    return "—" if value is None else format_percent(float(value))


@bp.app_template_filter("per_hand")
def per_hand(value: Fraction | None) -> str:
    """An average a hand as a decimal (13.5), never an exact fraction ("447 29/33"): a player
    compares averages, and a fraction of 33rds says nothing at a glance."""
    return "—" if value is None else format_decimal(float(value), "#,##0.0")


@bp.app_template_filter("short_day")
def short_day(value: date) -> str:
    return format_date(value, "d MMM y")


@bp.app_template_filter("rating")
def _rating(value: float) -> str:
    return rating_text(value)


@bp.app_template_global("meld_cards")
def meld_cards(text: str) -> list[tuple[str, str, bool]]:
    """A meld as card faces: (face, name, red) per card, a joker's face a star and its name
    the word; the text itself when it is not cards."""
    try:
        cards = parse_cards(text)
    except ValueError:
        return [(text, text, False)]
    return [
        ("★" if c.is_joker else c.label, c.label, c.suit is not None and c.suit.red) for c in cards
    ]


@bp.get("/clubs/<int:club_id>/players/<int:player_id>")
@login_required
def show(club_id: int, player_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id)
    player = records.player_in(club, player_id)
    mine = match_list.player_matches(club, player)
    rating = ratings.stored_ratings(club, [player.id]).get(player.id)
    # Listed like any match, but left out of the lines, partners and rating above them.
    uncounted = left_out(m.match_id for m in mine)
    return render_template(
        "records/players/show.html",
        club=club,
        player=player,
        lines=player_records.season_lines(club, player),
        matches=match_list.lines(mine[:RECENT], player),
        more_matches=max(0, len(mine) - RECENT),
        uncounted=uncounted,
        partners=pair_records.partners(club, player),
        best=player_records.best_hands(club, player),
        rating=rating,
        trend=None if rating is None else records.trend(rating),
        trend_span=records.TREND_SPAN,
        picture=None if rating is None else rating_picture(rating, "/matches/{id}"),
        others=_others(club, player.id),
    )


def _others(club: Club, player_id: int) -> PlayerChoices:
    """The players the page offers to compare with: a page of them by name (the
    head-to-head page finds the others by a part of their name)."""
    choices = player_choices(club, "")
    others = [p for p in choices.players if p.id != player_id]
    listed = choices.listed - (len(choices.players) - len(others))
    return PlayerChoices(others, choices.total - 1, listed, "")


def _season_arg(club: Club) -> Season | None:
    """The `season` query value: a season of the club, or "all" (the default) for all time."""
    text = request.args.get("season", "all")
    if text == "all":
        return None
    season_id = row_id(text)
    if season_id is None:
        raise Invalid(_("Choose one of the club's seasons, or all time."))
    return seasons.season_in(club, season_id)


@bp.get("/clubs/<int:club_id>/partnerships")
@login_required
def partnerships(club_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id)
    season = _season_arg(club)
    every = pair_records.partnerships(club, season)
    page, pages = page_number(len(every), PAIRS_PAGE)
    pairs = every.records((page - 1) * PAIRS_PAGE, page * PAIRS_PAGE)
    return render_template(
        "records/players/partnerships.html",
        club=club,
        season=season,
        seasons=seasons.seasons_of(club),
        pairs=pairs,
        page=page,
        pages=pages,
    )


@bp.get("/clubs/<int:club_id>/head-to-head")
@login_required
def head_to_head(club_id: int) -> ResponseReturnValue:
    club = club_for(me(), club_id)
    season = _season_arg(club)
    asked = {key: _side_asked(key) for key in ("a", "b")}
    record, error = None, None
    # "Find" narrows the pickers' players and compares nothing yet.
    if any(asked.values()) and "look" not in request.args:
        try:
            if not all(asked.values()):
                raise Invalid(_("Choose both sides to compare: a player or a team each."))
            if any(text.startswith("-") for text in asked.values()):
                raise Invalid(_("Choose a side's player as well as its partner."))
            a, b = records.subject(club, asked["a"]), records.subject(club, asked["b"])
            record = pair_records.head_to_head(club, season, a, b)
        except Invalid as error_:
            error = error_.message
    chosen = [part for text in asked.values() for part in text.split("-")]
    choices = player_choices(club, request.args.get("find", ""), chosen)
    names = {} if record is None else _names(club, (*record.a, *record.b))
    page = render_template(
        "records/players/head_to_head.html",
        club=club,
        season=season,
        seasons=seasons.seasons_of(club),
        chosen={key: _picked(text) for key, text in asked.items()},
        record=record,
        error=error,
        side_names=None if record is None else [_side(record.a, names), _side(record.b, names)],
        players=choices,
    )
    return page, 400 if error else 200


def _side_asked(key: str) -> str:
    """One side of the comparison as a link writes it: a player ("12") or a team ("12-15").
    The pickers send a side's player as `a` and its partner, when it has one, as `a2`: a
    list of every team would run to thousands in a big club."""
    text = request.args.get(key, "").strip()
    partner = request.args.get(f"{key}2", "").strip()
    return f"{text}-{partner}" if partner else text


def _picked(text: str) -> tuple[str, str]:
    """The player and partner a side's selects show as chosen, from the side's text."""
    first, _dash, rest = text.partition("-")
    return first, rest.partition("-")[0]


def _names(club: Club, ids: tuple[int, ...]) -> dict[int, str]:
    return {pid: p.name for pid, p in players_named(club, ids).items()}


def _side(ids: tuple[int, ...], names: dict[int, str]) -> str:
    return " & ".join(names[i] for i in ids)
