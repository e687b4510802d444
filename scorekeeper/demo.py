"""`flask --app scorekeeper demo`: a lived-in demo club, so a newcomer sees the app at work.

Every hand goes through the same use cases as the pages and the API, so the demo's scores
are the engine's own.
"""

from __future__ import annotations

from itertools import cycle
from typing import Any

import click
import sqlalchemy as sa
from flask.cli import with_appcontext

from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, User
from scorekeeper.schema import ensure_schema
from scorekeeper.services import accounts, clubs, hands, matches
from scorekeeper.services.matches import TeamSpec, state_of

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


@click.command("demo")
@with_appcontext
def demo_command() -> None:
    """Fill a demo club with players and a few finished and running matches."""
    ensure_schema()
    user = accounts.find_user(DEMO_USER) or accounts.create_user(DEMO_USER, DEMO_PASSWORD)
    existing = db.session.scalar(sa.select(Club).where(Club.name == DEMO_CLUB))
    if existing is not None:
        click.echo(f"The demo club is already there (club {existing.id}); nothing added.")
        return
    club = clubs.create_club(user, DEMO_CLUB)
    people = [clubs.add_player(club, name) for name in PLAYERS]
    eleni, nikos, maria, giorgos, katerina, yannis = (p.id for p in people)

    finished = _start(club, user, "pagat", (eleni, maria), (nikos, giorgos), target=2000)
    _play(finished, user, until_finished=True)
    running = _start(club, user, "pagat", (katerina, nikos), (yannis, eleni), target=5000)
    _play(running, user, hands_to_play=3)
    wikipedia = _start(club, user, "wikipedia", (maria, yannis), (giorgos, katerina), 3000)
    _play(wikipedia, user, hands_to_play=2)

    click.echo(f"Demo club {club.id} is ready: log in as {DEMO_USER!r} / {DEMO_PASSWORD!r}.")
    for match in (finished, running, wikipedia):
        state = state_of(match)
        status = f"won by {state.winner}" if state.finished else "running"
        click.echo(f"  match {match.id}: {match.variant_id}, {state.hands_played} hands, {status}")


def _start(
    club: Club, user: User, variant: str, a: tuple[int, int], b: tuple[int, int], target: int
) -> Match:
    return matches.create_match(
        club, user, variant, "4p", [TeamSpec("Us", a), TeamSpec("Them", b)], target=target
    )


def _play(match: Match, user: User, hands_to_play: int = 0, until_finished: bool = False) -> None:
    for played, (kozi, side_a, side_b) in enumerate(cycle(PAGAT_HANDS), start=1):
        if until_finished and (state_of(match).finished or played > 30):
            return
        if not until_finished and played > hands_to_play:
            return
        # Every third hand the other side does well, so the scores do not run away.
        first, second = (side_b, side_a) if played % 3 == 0 else (side_a, side_b)
        entry = {
            "kozi": kozi,
            "teams": [{"name": "Us", **first}, {"name": "Them", **second}],
        }
        hands.record_hand(match, user, entry, idempotency_key=f"demo-{match.id}-{played}")
