"""The small club world most database tests start from, made through the services: a club
with its players, a pagat match for four, the day it was played, and a test client signed in
as someone.

Call these inside an app context (the `owner` fixture of tests/conftest.py keeps one open).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from typing import Any

import sqlalchemy as sa
from flask.testing import FlaskClient

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, HandVersion, Match, User
from scorekeeper.records import stats

FOUR = ("Ann", "Bob", "Cy", "Di")


def new_club(
    user: User, name: str = "Friday", players: Sequence[str] = FOUR
) -> tuple[Club, dict[str, int]]:
    """A club owned by `user` with `players` added in order; their ids by name."""
    club = clubs.create_club(user, name)
    return club, {n: clubs.add_player(club, n).id for n in players}


def pagat_match(club: Club, user: User, seats: Sequence[int], **options: Any) -> Match:
    """A pagat match for four, partners sitting opposite: team A the first and third of
    `seats`, team B the second and fourth. `options` go to matches.create_match."""
    teams = [TeamSpec("A", (seats[0], seats[2])), TeamSpec("B", (seats[1], seats[3]))]
    return matches.create_match(club, user, "pagat", "4p", teams, **options)


def played_on(match: Match, day: date, hour: int = 12) -> None:
    """Pretend every hand of `match` was saved at `hour` o'clock UTC on `day`."""
    when = datetime(day.year, day.month, day.day, hour, tzinfo=UTC)
    db.session.execute(
        sa.update(HandVersion).where(HandVersion.match_id == match.id).values(created_at=when)
    )
    stats.refresh_match(match)  # the derived tables follow the stored times
    db.session.commit()


def signed_in(client: FlaskClient, user_id: int) -> FlaskClient:
    """`client` with the session cookie Flask-Login makes at a fresh login of `user_id`
    (its id and session secret, `User.get_id`)."""
    with client.application.app_context():
        user = db.session.get(User, user_id)
        assert user is not None, f"no user {user_id}"
        session_id = user.get_id()
    with client.session_transaction() as session:
        session["_user_id"] = session_id
        session["_fresh"] = True
    return client


def signed_in_as(client: FlaskClient, username: str) -> FlaskClient:
    """`client` signed in as the user called `username`, as by `signed_in`."""
    with client.application.app_context():
        user = accounts.find_user(username)
        assert user is not None, f"no user {username}"
        user_id = user.id
    return signed_in(client, user_id)
