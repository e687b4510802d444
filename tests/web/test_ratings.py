"""Ratings: openskill's Plackett–Luce model over the finished matches, replayed in the order
they were played; the same matches always give the same ratings."""

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from support.hand_entries import LOSERS, WINNERS, typed
from support.world import new_club

from scorekeeper import match as matches
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, HandVersion, Match, PlayerRating, RatingStep, User
from scorekeeper.records import rating_history, ratings, seasons, stats

A_WINS = {"kozi": "H", "teams": [{"name": "A", **WINNERS}, {"name": "B", **LOSERS}]}
B_WINS = {"kozi": "H", "teams": [{"name": "A", **LOSERS}, {"name": "B", **WINNERS}]}
START = datetime(2026, 3, 1, 20, tzinfo=UTC)
FRESH = 25 - 3 * 25 / 3  # openskill's starting mu − 3 sigma


def play(
    club: Club, user: User, a: tuple[int, int], b: tuple[int, int], entry: dict, day: int
) -> Match:
    """A one-hand 4p match (target 600) played `day` days after START."""
    match = matches.create_match(
        club, user, "pagat", "4p", [TeamSpec("A", a), TeamSpec("B", b)], target=600
    )
    matches.record_hand(match, user, typed(match, entry))
    db.session.execute(
        sa.update(HandVersion)
        .where(HandVersion.match_id == match.id)
        .values(created_at=START + timedelta(days=day))
    )
    stats.refresh_match(match)  # the derived tables follow the stored times
    db.session.commit()
    return match


def by_name(rated: dict[int, ratings.Rating]) -> dict[str, tuple[float, float, int]]:
    return {r.name: (r.mu, r.sigma, r.matches) for r in rated.values()}


def test_winners_move_up_and_losers_down(owner: User) -> None:
    club, p = new_club(owner)
    play(club, owner, (p["Ann"], p["Cy"]), (p["Bob"], p["Di"]), A_WINS, 0)
    rated = ratings.club_ratings(club)
    ann, bob = rated[p["Ann"]], rated[p["Bob"]]
    assert ann.mu > 25 > bob.mu
    assert ann.sigma < 25 / 3 and ann.sigma == pytest.approx(bob.sigma)
    assert ann.ordinal > FRESH > bob.ordinal
    assert ann.ordinal == pytest.approx(ann.mu - 3 * ann.sigma)
    assert rated[p["Cy"]].mu == ann.mu  # partners rise together
    assert [point.ordinal for point in ann.history] == [ann.ordinal]
    assert ann.json()["rating_sigma"] == round(ann.sigma, 3)


def test_the_trend_follows_each_match(owner: User) -> None:
    club, p = new_club(owner)
    first = play(club, owner, (p["Ann"], p["Cy"]), (p["Bob"], p["Di"]), A_WINS, 0)
    second = play(club, owner, (p["Ann"], p["Bob"]), (p["Cy"], p["Di"]), A_WINS, 1)
    third = play(club, owner, (p["Ann"], p["Di"]), (p["Bob"], p["Cy"]), B_WINS, 2)
    rated = ratings.club_ratings(club)
    ann = rated[p["Ann"]]
    assert [point.match_id for point in ann.history] == [first.id, second.id, third.id]
    up1, up2, down = (point.ordinal for point in ann.history)
    assert FRESH < up1 < up2 and down < up2
    assert ann.matches == 3
    # A season's ratings use only its matches.
    seasons.create_season(club, "First two days", START.date(), START.date() + timedelta(days=1))
    season = seasons.seasons_of(club)[0]
    assert [p_.match_id for p_ in ratings.club_ratings(club, season)[p["Ann"]].history] == [
        first.id,
        second.id,
    ]


def test_the_same_matches_give_the_same_ratings_in_any_creation_order(owner: User) -> None:
    one, p = new_club(owner, "One")
    two, q = new_club(owner, "Two")
    games = [
        (("Ann", "Cy"), ("Bob", "Di"), A_WINS),
        (("Ann", "Bob"), ("Cy", "Di"), B_WINS),
        (("Bob", "Cy"), ("Ann", "Di"), A_WINS),
        (("Ann", "Di"), ("Bob", "Cy"), A_WINS),
    ]

    def ids(ps: dict[str, int], names: tuple[str, str]) -> tuple[int, int]:
        return ps[names[0]], ps[names[1]]

    # Club One creates them in playing order; club Two backwards, with the same hand times.
    for day, (a, b, entry) in enumerate(games):
        play(one, owner, ids(p, a), ids(p, b), entry, day)
    for day, (a, b, entry) in reversed(list(enumerate(games))):
        play(two, owner, ids(q, a), ids(q, b), entry, day)
    first = ratings.club_ratings(one)
    assert ratings.club_ratings(one) == first  # no randomness, no stored state
    assert by_name(ratings.club_ratings(two)) == by_name(first)
    # Order matters to the model: the same games played in reverse rate differently.
    three, r = new_club(owner, "Three")
    for day, (a, b, entry) in enumerate(reversed(games)):
        play(three, owner, ids(r, a), ids(r, b), entry, day)
    assert by_name(ratings.club_ratings(three)) != by_name(first)


def test_an_edit_or_a_deleted_hand_changes_the_ratings(owner: User) -> None:
    club, p = new_club(owner)
    game = play(club, owner, (p["Ann"], p["Cy"]), (p["Bob"], p["Di"]), A_WINS, 0)
    play(club, owner, (p["Ann"], p["Bob"]), (p["Cy"], p["Di"]), A_WINS, 1)
    before = ratings.club_ratings(club)
    assert before[p["Ann"]].mu > before[p["Di"]].mu
    # The first hand was entered the wrong way round: Bob and Di won it.
    matches.edit_hand(game, 1, owner, typed(game, B_WINS), expected_version=1)
    edited = ratings.club_ratings(club)
    assert edited[p["Bob"]].mu > edited[p["Cy"]].mu
    assert edited[p["Ann"]].mu < before[p["Ann"]].mu
    # Fresh ratings replayed give the same as a club that had it right from the start.
    fair, f = new_club(owner, "Fair")
    play(fair, owner, (f["Ann"], f["Cy"]), (f["Bob"], f["Di"]), B_WINS, 0)
    play(fair, owner, (f["Ann"], f["Bob"]), (f["Cy"], f["Di"]), A_WINS, 1)
    assert by_name(ratings.club_ratings(fair)) == by_name(edited)
    # Deleting the hand leaves the match unfinished: only the second match is rated.
    matches.delete_hand(game, 1, owner, expected_version=2)
    deleted = ratings.club_ratings(club)
    assert {r.matches for r in deleted.values()} == {1}
    assert deleted[p["Ann"]].mu == deleted[p["Bob"]].mu > 25


def stored_ratings(club: Club) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Every stored rating step and latest rating of the club, as rows."""
    steps = db.session.execute(
        sa.select(*RatingStep.__table__.columns)
        .where(RatingStep.club_id == club.id)
        .order_by(RatingStep.player_id, RatingStep.seq)
    )
    latest = db.session.execute(
        sa.select(*PlayerRating.__table__.columns)
        .where(PlayerRating.club_id == club.id)
        .order_by(PlayerRating.player_id)
    )
    return [tuple(r) for r in steps], [tuple(r) for r in latest]


def test_a_replay_from_a_match_on_writes_what_a_replay_of_the_whole_club_writes(
    owner: User,
) -> None:
    """A finished match replays only the matches after it, reading and writing only their
    players' ratings: what is stored is what a replay of the whole club stores, the players
    of the earlier matches left as they were, and one whose only rated match is no longer
    finished left without a rating."""
    names = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal")
    club, p = new_club(owner, players=names)

    def pair(x: str, y: str) -> tuple[int, int]:
        return p[x], p[y]

    play(club, owner, pair("Eve", "Gus"), pair("Fay", "Hal"), A_WINS, 0)  # only before
    play(club, owner, pair("Ann", "Cy"), pair("Bob", "Di"), A_WINS, 1)
    late = play(club, owner, pair("Ann", "Bob"), pair("Cy", "Di"), B_WINS, 3)
    # Played between the two, entered last: the one after it is replayed.
    play(club, owner, pair("Ann", "Di"), pair("Bob", "Cy"), A_WINS, 2)
    kept = stored_ratings(club)
    rating_history.replay(db.session, club.id)
    assert stored_ratings(club) == kept
    assert {row[0] for row in kept[1]} == set(p.values())
    # The last match loses its hand: its players' ratings go back to before it.
    matches.delete_hand(late, 1, owner, expected_version=1)
    kept = stored_ratings(club)
    rating_history.replay(db.session, club.id)
    assert stored_ratings(club) == kept
    steps = {pid: sum(1 for row in kept[0] if row[1] == pid) for pid in p.values()}
    assert steps == {p[n]: 2 if n in ("Ann", "Bob", "Cy", "Di") else 1 for n in names}


def test_a_share_format_rates_each_player_alone(owner: User) -> None:
    club, p = new_club(owner)
    trio = (p["Ann"], p["Bob"], p["Cy"])
    match = matches.create_match(
        club, owner, "pagat", "3p-partnership", [TeamSpec("table", trio)], target=600
    )
    for pair, alone in (((p["Bob"], p["Cy"]), p["Ann"]), ((p["Ann"], p["Cy"]), p["Bob"])):
        matches.record_hand(
            match,
            owner,
            typed(
                match,
                {
                    "kozi": "H",
                    "teams": [
                        {**WINNERS, "players": list(pair)},
                        {**LOSERS, "hands": ["AS 9D"], "players": [alone]},
                    ],
                },
            ),
        )
    rated = ratings.ratings([match])
    # Cy won (665); Ann and Bob tie at 262½ and share second place.
    assert rated[p["Cy"]].mu > 25 > rated[p["Ann"]].mu
    assert rated[p["Ann"]].mu == pytest.approx(rated[p["Bob"]].mu)
    assert p["Di"] not in rated
