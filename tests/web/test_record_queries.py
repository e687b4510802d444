"""The record pages' readings of the derived tables (records.match_list, pair_records,
player_records) in the cases the random equivalence test in test_stats.py rarely meets:
best hands tied on score across days that run against the match numbers, a side of three
players, and a match with no live hand. Each is worked out here, and checked against the
pure-Python sums over the stored hands too.

The reference hand (pagat, kózi hearts) scores 665 for the side that goes out and −95 for
the other (−70 for a lone player holding AS 9D); with a target of 600 one hand ends a match.
"""

from collections.abc import Iterator
from datetime import UTC, date, datetime

import pytest
import sqlalchemy as sa
from flask import Flask
from support import replay
from support.hand_entries import typed

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, HandVersion, Match, User
from scorekeeper.records import lines as records
from scorekeeper.records import match_list, pair_records, player_records, seasons, stats

WINNERS = {
    "melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"],
    "hands": ["", ""],
    "went_out": True,
    "took_biribaki": True,
}
LOSERS = {"melds": ["3C 4C 5C", "KS KD JK"], "hands": ["AS 9D", "JK 4H"]}
REFERENCE = {"kozi": "H", "teams": [{"name": "A", **WINNERS}, {"name": "B", **LOSERS}]}

Friday = tuple[Club, User, dict[str, int]]


@pytest.fixture
def friday(app: Flask) -> Iterator[Friday]:
    with app.app_context():
        user = accounts.create_user("eleni", "password1")
        club = clubs.create_club(user, "Friday")
        ids = {n: clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di")}
        yield club, user, ids


def played_on(match: Match, day: date) -> None:
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    db.session.execute(
        sa.update(HandVersion).where(HandVersion.match_id == match.id).values(created_at=when)
    )
    stats.refresh_match(match)  # the derived tables follow the stored times
    db.session.commit()


def four(club: Club, user: User, a: tuple[int, int], b: tuple[int, int], day: date) -> Match:
    """A 4p match of one reference hand: `a` (team A) 665, `b` (team B) −95."""
    match = matches.create_match(
        club, user, "pagat", "4p", [TeamSpec("A", a), TeamSpec("B", b)], target=600
    )
    matches.record_hand(match, user, typed(match, REFERENCE))
    played_on(match, day)
    return match


def test_best_hands_on_equal_scores_come_by_the_day_played(friday: Friday) -> None:
    club, user, p = friday
    ann, bob, cy, di = p["Ann"], p["Bob"], p["Cy"], p["Di"]
    # Ann wins four matches with 665, started in one order and played in the other, and
    # loses one (−95).
    days = [date(2026, 3, d) for d in (20, 15, 10, 5)]
    won = [four(club, user, (ann, bob), (cy, di), day) for day in days]
    lost = four(club, user, (cy, di), (ann, bob), date(2026, 3, 1))
    player = next(x for x in club.players if x.id == ann)
    everything = seasons.matches_in(club, None)
    mine = replay.seated(player, everything)
    earliest_first = [m.id for m in reversed(won)]
    for limit in range(1, 7):
        best = player_records.best_hands(club, player, limit)
        assert best == records.best_hands(player, mine, limit), limit
        expected = [(665, m) for m in earliest_first] + [(-95, lost.id)]
        assert [(h.score, h.match_id) for h in best] == expected[:limit]
    assert best[0].side == "Ann & Bob" and best[0].day == date(2026, 3, 5)
    assert best[0].melds == tuple(WINNERS["melds"])
    assert best[-1].melds == tuple(LOSERS["melds"]) and best[-1].side == "Ann & Bob"


def test_a_side_of_three_makes_three_pairs_for_the_hand(friday: Friday) -> None:
    club, user, p = friday
    ann, bob, cy, di = p["Ann"], p["Bob"], p["Cy"], p["Di"]
    match = matches.create_match(
        club, user, "pagat", "solo-vs-rest", [TeamSpec("table", (ann, bob, cy, di))], target=600
    )
    score = 0
    # Three hands, a different player alone each time; shares of 665 are thirds. After
    # them Cy has 3 × 221⅔ = 665, past 600 and alone on top; the others 373⅓ each.
    for single in (ann, bob, di):
        rest = [x for x in (ann, bob, cy, di) if x != single]
        hand, _ = matches.record_hand(
            match,
            user,
            typed(
                match,
                {
                    "kozi": "H",
                    "teams": [
                        {**WINNERS, "hands": ["", "", ""], "players": rest},
                        {**LOSERS, "hands": ["AS 9D"], "players": [single]},
                    ],
                },
            ),
        )
        score = hand.result["teams"][0]["score"]
    assert matches.match_json(match)["winner"] == "Cy"
    pairs = pair_records.partnerships(club, None).records()
    # Each hand's side of three makes three pairs; Cy was in every side of three.
    assert [(x.names, x.matches, x.wins, x.hands, x.side_points) for x in pairs] == [
        (("Ann", "Cy"), 0, 0, 2, 2 * score),
        (("Bob", "Cy"), 0, 0, 2, 2 * score),
        (("Cy", "Di"), 0, 0, 2, 2 * score),
        (("Ann", "Bob"), 0, 0, 1, score),
        (("Ann", "Di"), 0, 0, 1, score),
        (("Bob", "Di"), 0, 0, 1, score),
    ]
    assert pairs == replay.partnerships([match])
    assert replay.teams_of([match]) == [], "partners of a hand are not a team"
    bob_player = next(x for x in club.players if x.id == bob)
    assert [x.names for x in pair_records.partners(club, bob_player)] == [
        ("Bob", "Cy"),
        ("Ann", "Bob"),
        ("Bob", "Di"),
    ]
    record = pair_records.head_to_head(club, None, [cy], [ann])
    assert (record.matches, record.wins_a, record.wins_b, record.ahead_a) == (1, 1, 0, 1)
    assert record == replay.head_to_head([match], [cy], [ann])
    level = pair_records.head_to_head(club, None, [bob], [ann])
    assert (level.matches, level.wins_a, level.wins_b, level.ahead_a, level.ahead_b) == (
        1,
        0,
        0,
        0,
        0,
    )


def test_a_match_without_a_live_hand_is_listed_from_the_match_itself(friday: Friday) -> None:
    club, user, p = friday
    ann, bob, cy, di = p["Ann"], p["Bob"], p["Cy"], p["Di"]
    spring = seasons.create_season(club, "Spring", date(2026, 3, 1), date(2026, 5, 31))
    played = four(club, user, (ann, bob), (cy, di), date(2026, 3, 4))
    empty = matches.create_match(
        club, user, "pagat", "2p", [TeamSpec("A", (ann,)), TeamSpec("B", (di,))]
    )
    matches.record_hand(
        empty,
        user,
        typed(
            empty,
            REFERENCE
            | {
                "teams": [
                    {"name": "A", **WINNERS, "hands": [""]},
                    {"name": "B", **LOSERS, "hands": ["AS 9D"]},
                ]
            },
        ),
    )
    matches.delete_hand(empty, 1, user, 1)
    seasons.place_match(empty, spring)  # in the season by the owner's choice alone
    listed = match_list.club_matches(club, spring)
    assert [m.match_id for m in listed] == [empty.id, played.id]  # started today, played in March
    lines = match_list.lines(listed)
    assert lines == records.match_lines(seasons.matches_in(club, spring))
    assert (lines[0].sides, lines[0].finished, lines[0].placed) == (("Ann", "Di"), False, True)
    assert lines[1].sides == ("Ann & Bob", "Cy & Di") and lines[1].winner == "Ann & Bob"
    ann_player = next(x for x in club.players if x.id == ann)
    theirs = match_list.player_matches(club, ann_player)
    assert [m.match_id for m in theirs] == [empty.id, played.id]
    assert [(x.own, x.won) for x in match_list.lines(theirs, ann_player)] == [
        (0, False),
        (0, True),
    ]
