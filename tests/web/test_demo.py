"""`flask --app scorekeeper demo` fills a club a newcomer can look around in."""

from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskCliRunner
from support.replay import state_of

from scorekeeper.accounts.service import authenticate
from scorekeeper.extensions import db
from scorekeeper.models import Club, Hand, Match
from scorekeeper.records.leaderboard import ranked
from scorekeeper.records.seasons import matches_in, seasons_of


def test_demo_makes_a_club_with_two_seasons_of_finished_and_running_matches(
    app: Flask, runner: FlaskCliRunner
) -> None:
    result = runner.invoke(args=["demo"])
    assert result.exit_code == 0, result.output
    assert "log in as 'demo'" in result.output
    with app.app_context():
        club = db.session.scalar(sa.select(Club))
        assert club is not None
        assert [p.name for p in club.players] == [
            "Eleni",
            "Giorgos",
            "Katerina",
            "Maria",
            "Nikos",
            "Yannis",
        ]
        states = [state_of(m) for m in db.session.scalars(sa.select(Match).order_by(Match.id))]
        assert [s.finished for s in states] == [True] * 12 + [False, False]
        assert [s.hands_played for s in states][-2:] == [3, 2]
        # Two seasons, the last one and the one holding today, each with finished matches
        # dated inside it, so the leaderboards have something to rank.
        last, this = seasons_of(club)
        assert last.ends_on + timedelta(days=1) == this.starts_on
        assert this.starts_on <= datetime.now(UTC).date() <= this.ends_on
        done = {
            s.id: sum(1 for m in matches_in(club, s) if state_of(m).finished) for s in (last, this)
        }
        assert done == {last.id: 6, this.id: 6}
        for season in (last, this):
            board = ranked(club, season)
            assert sum(r.matches for r in board) == 6 * 4
            assert [r.ranked for r in board].count(True) >= 3
        # Both sides win some: every player has won and lost at least once all time.
        for row in ranked(club, None):
            assert 0 < row.wins < row.matches, row.name
        # The reference hand opens the first match: 665 for Us, -95 for Them.
        first = db.session.scalar(
            sa.select(Hand).where(Hand.number == 1).order_by(Hand.match_id).limit(1)
        )
        assert first is not None
        assert [t["score"] for t in first.result["teams"]] == [665, -95]
        assert all(h.result["legal"] for h in db.session.scalars(sa.select(Hand)))
        assert authenticate("demo", "biriba-demo") is not None


def test_demo_twice_adds_nothing(app: Flask, runner: FlaskCliRunner) -> None:
    runner.invoke(args=["demo"])
    second = runner.invoke(args=["demo"])
    assert second.exit_code == 0
    assert "already there" in second.output
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 14
