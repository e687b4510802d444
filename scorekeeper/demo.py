"""`flask --app scorekeeper demo`: a lived-in demo club, so a newcomer sees the app at work.

Every hand goes through the same use cases as the pages and the API, so the demo's scores
are the engine's own.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import cycle
from typing import Any

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import (
    TeamSpec,
    create_match,
    read_hand,
    record_hand,
    seating_of,
    variant_of,
    view_of,
)
from scorekeeper.models import Club, HandVersion, Match, User
from scorekeeper.records import seasons, stats
from scorekeeper.schema import ensure_schema

DEMO_USER = "demo"
DEMO_PASSWORD = "biriba-demo"
DEMO_CLUB = "Demo club: Friday night at Eleni's"
PLAYERS = ("Eleni", "Nikos", "Maria", "Giorgos", "Katerina", "Yannis")

# Real-looking hands of Greek Biriba, each legal under pagat: (kózi, side A, side B).
PAGAT_HANDS: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    (
        "H",
        {
            "melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"],
            "hands": ["", ""],
            "went_out": True,
            "took_biribaki": True,
        },
        {"melds": ["3C 4C 5C", "KS KD JK"], "hands": ["AS 9D", "JK 4H"]},
    ),
    (
        "D",
        {"melds": ["3D-9D", "AC AS AH"], "hands": ["7C", "KS 8S"], "took_biribaki": True},
        {
            "melds": ["4C-10C", "QH QD QS JK", "2H 3H 4H"],
            "hands": ["", ""],
            "went_out": True,
            "took_biribaki": True,
        },
    ),
    (
        "S",
        {
            "melds": ["9S 10S JS QS KS AS 2D", "5H 5D 5C"],
            "hands": ["3D 4D", ""],
            "took_biribaki": True,
        },
        {
            "melds": ["6C-QC", "KH KD KC"],
            "hands": ["", "8D"],
            "went_out": True,
            "took_biribaki": True,
        },
    ),
    (
        "C",
        {
            "melds": ["2C-8C", "JD JS JH JC", "6H 7H 8H"],
            "hands": ["", ""],
            "went_out": True,
            "took_biribaki": True,
        },
        {"melds": ["9D 10D JD QD", "4S 4H 4C"], "hands": ["AH KC", "JK"], "took_biribaki": True},
    ),
]


#: Where an opening table asks up to 90 card points (wikipedia below 3000), the sides of the
#: sample hands that hold less lay one more meld (hand 1's and hand 4's side B), and every side
#: marks all its melds as its opening, laid down together.
_MORE_FOR_AN_OPENING = {0: "AD AC AH", 3: "AS AD AC"}


def _opening_hands() -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
    played = []
    for number, (kozi, side_a, side_b) in enumerate(PAGAT_HANDS):
        extra = _MORE_FOR_AN_OPENING.get(number)
        side_b = {**side_b, "melds": [*side_b["melds"], extra]} if extra else side_b
        sides = [
            {**side, "opening_melds": list(range(len(side["melds"])))} for side in (side_a, side_b)
        ]
        played.append((kozi, sides[0], sides[1]))
    return played


OPENING_HANDS = _opening_hands()

#: Finished matches of the demo's two seasons: (season, days into it, preset, team A, team B,
#: which hands team B takes). Indexes into PLAYERS, so partnerships and rivalries repeat.
FINISHED: list[tuple[str, int, str, tuple[int, int], tuple[int, int], frozenset[int]]] = [
    ("last", 3, "pagat", (0, 2), (1, 3), frozenset({3})),
    ("last", 10, "pagat", (4, 5), (0, 1), frozenset({1, 2, 4})),
    ("last", 17, "pagat", (2, 3), (4, 0), frozenset({3, 6})),
    ("last", 24, "wikipedia", (1, 5), (2, 4), frozenset({1})),
    ("last", 38, "pagat", (0, 3), (2, 5), frozenset({1, 3, 4})),
    ("last", 52, "pagat", (1, 4), (3, 5), frozenset({3})),
    ("this", 2, "pagat", (0, 2), (4, 5), frozenset({1, 2, 4})),
    ("this", 9, "pagat", (1, 3), (0, 5), frozenset({2, 3, 4})),
    ("this", 16, "wikipedia", (2, 4), (1, 3), frozenset({2})),
    ("this", 23, "pagat", (5, 1), (3, 4), frozenset({1, 3, 4})),
    ("this", 30, "pagat", (3, 0), (2, 1), frozenset({3})),
    ("this", 44, "pagat", (4, 2), (5, 0), frozenset({2, 3, 5})),
]
SEASON_NAMES = {12: "Winter", 3: "Spring", 6: "Summer", 9: "Autumn"}


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Fill a demo club with players, two seasons, finished and running matches."""
    ensure_schema()
    user = accounts.find_user(DEMO_USER) or accounts.create_user(DEMO_USER, DEMO_PASSWORD)
    existing = db.session.scalar(sa.select(Club).where(Club.name == DEMO_CLUB))
    if existing is not None:
        click.echo(f"The demo club is already there (club {existing.id}); nothing added.")
        return
    club = clubs.create_club(user, DEMO_CLUB)
    people = [clubs.add_player(club, name).id for name in PLAYERS]
    today = datetime.now(UTC).date()
    this = _season_around(today)
    last = _season_around(this[0] - timedelta(days=1))
    for first, final in (last, this):
        seasons.create_season(club, _season_name(first, final), first, final)

    played: list[Match] = []
    for which, day, variant, a, b, b_takes in FINISHED:
        first = (last if which == "last" else this)[0]
        when = min(first + timedelta(days=day), today)
        match = _start(club, user, variant, _pair(people, a), _pair(people, b), target=2000)
        _play(match, user, b_takes=b_takes, until_finished=True)
        _played_on(match, when)
        played.append(match)
    eleni, nikos, maria, giorgos, katerina, yannis = people
    running = _start(club, user, "pagat", (katerina, nikos), (yannis, eleni), target=5000)
    _play(running, user, hands_to_play=3)
    wikipedia = _start(club, user, "wikipedia", (maria, yannis), (giorgos, katerina), 3000)
    _play(wikipedia, user, hands_to_play=2)

    click.echo(f"Demo club {club.id} is ready: log in as {DEMO_USER!r} / {DEMO_PASSWORD!r}.")
    for match in [*played, running, wikipedia]:
        view = view_of(match)
        status = f"won by {view.winner}" if view.finished else "running"
        click.echo(f"  match {match.id}: {match.variant_id}, {view.hands_played} hands, {status}")


def _season_around(day: date) -> tuple[date, date]:
    """The meteorological season (Dec–Feb, Mar–May, Jun–Aug, Sep–Nov) that holds `day`."""
    start_month = (day.month % 12) // 3 * 3 or 12
    start_year = day.year - (day.month < start_month)  # January's winter began last December
    end_month = start_month + 3
    after = date(start_year + (end_month > 12), (end_month - 1) % 12 + 1, 1)
    first = date(start_year, start_month, 1)
    return first, after - timedelta(days=1)


def _season_name(first: date, final: date) -> str:
    name = SEASON_NAMES[first.month]
    years = f"{first.year}" if first.year == final.year else f"{first.year}–{final.year % 100:02d}"
    return f"{name} {years}"


def _pair(people: list[int], seats: tuple[int, int]) -> tuple[int, int]:
    return people[seats[0]], people[seats[1]]


def _start(
    club: Club, user: User, variant: str, a: tuple[int, int], b: tuple[int, int], target: int
) -> Match:
    return create_match(
        club, user, variant, "4p", [TeamSpec("Us", a), TeamSpec("Them", b)], target=target
    )


def _play(
    match: Match,
    user: User,
    hands_to_play: int = 0,
    until_finished: bool = False,
    b_takes: frozenset[int] = frozenset({3, 6, 9}),
) -> None:
    """Play the sample hands in turn; in the hands numbered in `b_takes` the sides swap, so
    team B does well there and the scores do not run away."""
    sample = OPENING_HANDS if variant_of(match).opening_table else PAGAT_HANDS
    for played, (kozi, side_a, side_b) in enumerate(cycle(sample), start=1):
        if until_finished and (view_of(match).finished or played > 30):
            return
        if not until_finished and played > hands_to_play:
            return
        first, second = (side_b, side_a) if played in b_takes else (side_a, side_b)
        entry = {
            "kozi": kozi,
            "teams": [{"name": "Us", **first}, {"name": "Them", **second}],
        }
        typed = read_hand(entry, seating_of(match))
        record_hand(match, user, typed, idempotency_key=f"demo-{match.id}-{played}")


def _played_on(match: Match, day: date) -> None:
    """Date a demo match's hands back to `day` (an evening, ten minutes a hand), so the two
    seasons fill up; the derived leaderboard and rating tables follow the stored times."""
    evening = datetime(day.year, day.month, day.day, 19, tzinfo=UTC)
    match.created_at = evening
    for hand in match.hands:
        when = evening + timedelta(minutes=10 * hand.number)
        hand.updated_at = when
        db.session.execute(
            sa.update(HandVersion)
            .where(HandVersion.match_id == match.id, HandVersion.number == hand.number)
            .values(created_at=when)
        )
    stats.refresh_match(match)
    db.session.commit()
