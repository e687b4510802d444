"""Deleting a whole match: the owner's alone, on a page that asks first and through the API.
Nothing of the match stays, and the standings, records and ratings are those of a club that
never played it."""

from __future__ import annotations

from datetime import date
from typing import Any

import sqlalchemy as sa
from flask import Flask, g
from support.hand_entries import A_WINS, B_WINS, typed
from support.world import new_club, pagat_match, played_on, signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import (
    Club,
    Hand,
    HandVersion,
    Match,
    MatchStat,
    MatchTeam,
    PairMatchStat,
    PlayerMatchStat,
    PlayerRating,
    PlayerTotal,
    RatingStep,
    Role,
    Seat,
    User,
)
from scorekeeper.records import leaderboard, ratings, stats

#: Who sat where (A: first and third, B: second and fourth) and who won, day by day.
GAMES = [
    (("Ann", "Bob", "Cy", "Di"), A_WINS),
    (("Ann", "Cy", "Bob", "Di"), B_WINS),
    (("Bob", "Ann", "Di", "Cy"), A_WINS),
]
DERIVED = (MatchStat, PlayerMatchStat, PairMatchStat, RatingStep, PlayerTotal, PlayerRating)


def play(club: Club, user: User, ids: dict[str, int], games: list[Any]) -> list[Match]:
    """One-hand matches to 600, the n-th played on the n-th of March."""
    played = []
    for day, (seats, entry) in enumerate(games, start=1):
        match = pagat_match(club, user, [ids[name] for name in seats], target=600)
        matches.record_hand(match, user, typed(match, entry))
        played_on(match, date(2026, 3, day))
        played.append(match)
    return played


def derived_rows(club: Club) -> dict[str, list[tuple[Any, ...]]]:
    """Every derived row of the club, as sorted plain tuples (ids and all)."""
    rows = {}
    for table in DERIVED:
        columns = [c for c in table.__table__.columns if c.name != "id"]
        found = db.session.execute(sa.select(*columns).where(table.club_id == club.id))
        rows[table.__name__] = sorted(tuple(row) for row in found)
    return rows


def by_name(rated: dict[int, ratings.Rating]) -> dict[str, tuple[float, float, int]]:
    return {r.name: (r.mu, r.sigma, r.matches) for r in rated.values()}


def test_a_deleted_match_leaves_nothing_and_the_club_as_if_never_played(owner: User) -> None:
    club, ids = new_club(owner)
    first, middle, last = play(club, owner, ids, GAMES)
    gone = middle.id
    matches.delete_match(middle)
    db.session.expire_all()
    for table in (Match, MatchTeam, Seat, Hand, HandVersion, *DERIVED[:4]):
        column = table.id if table is Match else table.match_id
        left = db.session.scalar(sa.select(sa.func.count()).where(column == gone))
        assert left == 0, f"{table.__name__} keeps rows of the deleted match"
    # What the hand-by-hand bookkeeping left equals a rebuild from the stored hands…
    kept = derived_rows(club)
    stats.rebuild(club_id=club.id)
    db.session.commit()
    assert derived_rows(club) == kept
    # … and the standings and ratings of a club that played only the other two matches.
    twin, twin_ids = new_club(owner, "Twin")
    play(twin, owner, twin_ids, [GAMES[0], GAMES[2]])
    assert by_name(ratings.club_ratings(club)) == by_name(ratings.club_ratings(twin))
    assert [r.matches for r in ratings.club_ratings(club).values()] == [2, 2, 2, 2]

    def standings(c: Club) -> list[tuple[Any, ...]]:
        rows = leaderboard.stored_rows(c, None)
        return sorted((r.name, r.matches, r.wins, r.hands, r.points, r.rating) for r in rows)

    assert standings(club) == standings(twin)
    assert {m.id for m in club.matches} == {first.id, last.id}


def test_deleting_the_last_match_of_a_player_unrates_them(owner: User) -> None:
    club, ids = new_club(owner, players=("Ann", "Bob", "Cy", "Di", "Eva"))
    (only,) = play(club, owner, ids, [(("Eva", "Bob", "Cy", "Di"), A_WINS)])
    play(club, owner, ids, [(("Ann", "Bob", "Cy", "Di"), B_WINS)])
    assert ids["Eva"] in ratings.club_ratings(club)
    matches.delete_match(only)
    assert ids["Eva"] not in ratings.club_ratings(club)
    assert ids["Eva"] not in {r.player_id for r in leaderboard.stored_rows(club, None)}


def _member(club: Club, name: str, role: Role) -> User:
    user = accounts.create_user(name, "password1")
    code = clubs.renew_invite(club)
    clubs.join_by_invite(user, code)
    clubs.set_role(club, user.id, role)
    return user


# One signed-in user a test: the owner fixture holds the app context open, and Flask-Login
# keeps the user of a request in it.


def test_a_scorer_may_not_delete_a_match(app: Flask, owner: User) -> None:
    club, ids = new_club(owner)
    (match,) = play(club, owner, ids, GAMES[:1])
    scorer = _member(club, "stavros", Role.SCORER)
    as_scorer = signed_in(app.test_client(), scorer.id)
    assert "Delete this match" not in as_scorer.get(f"/matches/{match.id}").get_data(as_text=True)
    assert as_scorer.get(f"/matches/{match.id}/delete").status_code == 403
    assert as_scorer.post(f"/matches/{match.id}/delete").status_code == 403
    db.session.expire_all()
    assert db.session.get(Match, match.id) is not None


def test_the_owner_deletes_a_match_from_its_page(app: Flask, owner: User) -> None:
    club, ids = new_club(owner)
    match, other = play(club, owner, ids, GAMES[:2])
    number, club_id = match.id, club.id
    as_owner = signed_in(app.test_client(), owner.id)
    board = as_owner.get(f"/matches/{number}").get_data(as_text=True)
    assert f'href="/matches/{number}/delete"' in board
    asked = as_owner.get(f"/matches/{number}/delete")
    page = asked.get_data(as_text=True)
    assert asked.status_code == 200
    assert f"Delete match {number}?" in page
    assert "The match and its 1 hand are deleted for good" in page
    assert f'href="/clubs/{club_id}/backup"' in page, "the way to a copy first"
    answer = as_owner.post(f"/matches/{number}/delete")
    assert answer.status_code == 302 and answer.headers["Location"] == f"/clubs/{club_id}"
    assert f"Match {number} deleted." in as_owner.get(f"/clubs/{club_id}").get_data(as_text=True)
    assert as_owner.get(f"/matches/{number}").status_code == 404
    assert as_owner.post(f"/matches/{number}/delete").status_code == 404
    assert as_owner.get(f"/matches/{other.id}").status_code == 200, "the other match stays"


def test_the_api_deletes_a_match_for_its_owner_only(app: Flask, owner: User) -> None:
    club, ids = new_club(owner)
    (match,) = play(club, owner, ids, GAMES[:1])
    stranger = accounts.create_user("xenia", "password1")
    new_club(stranger, "Elsewhere")
    viewer = _member(club, "vasso", Role.VIEWER)
    scorer = _member(club, "stavros", Role.SCORER)
    client = app.test_client()
    url = f"/api/v1/matches/{match.id}"

    def delete(user: User) -> int:
        token = accounts.create_token(user)
        g.pop("_login_user", None)  # the last request's user, kept in the open app context
        return client.delete(url, headers={"Authorization": f"Bearer {token}"}).status_code

    assert [delete(u) for u in (stranger, viewer, scorer)] == [404, 403, 403]
    assert db.session.get(Match, match.id) is not None
    assert delete(owner) == 204
    db.session.expire_all()
    assert db.session.get(Match, match.id) is None
    assert delete(owner) == 404
