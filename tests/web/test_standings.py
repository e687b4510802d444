"""Leaderboards, partnerships and head-to-head records as the app reads them, with every
number worked out here.

The reference hand (pagat, kózi hearts) scores 665 for the side that goes out (a clean and
a dirty biriba) and −95 for the other side with two players' cards left (−70 with one
player's: AS 9D). With a target of 600 one hand ends the match."""

from datetime import date
from fractions import Fraction

import pytest
from support.hand_entries import LOSERS, REFERENCE_HAND, WINNERS, typed
from support.world import new_club, played_on

from scorekeeper import match as matches
from scorekeeper.errors import Invalid
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, Match, User
from scorekeeper.records import leaderboard, pair_records, seasons, standings


@pytest.fixture
def club(owner: User) -> tuple[Club, User, dict[str, int]]:
    friday, ids = new_club(owner, players=("Ann", "Bob", "Cy", "Di", "Eva"))
    return friday, owner, ids


def team_win(
    club: Club, user: User, winners: tuple[int, int], losers: tuple[int, int], day: date
) -> Match:
    """A 4p match of one reference hand: `winners` (team A) 665, `losers` (team B) −95."""
    match = matches.create_match(
        club, user, "pagat", "4p", [TeamSpec("A", winners), TeamSpec("B", losers)], target=600
    )
    matches.record_hand(match, user, typed(match, REFERENCE_HAND))
    played_on(match, day)
    return match


@pytest.fixture
def spring(club: tuple[Club, User, dict[str, int]]) -> tuple[Club, dict[str, int]]:
    """Spring: three 4p matches and a 2p match; summer: one unfinished match.

    M1 Ann+Cy beat Bob+Di, M2 Ann+Bob beat Cy+Di, M3 Bob+Cy beat Ann+Di (4p);
    M4 Ann beats Eva (2p: Ann 665, Eva 55 − 25 − 100 = −70)."""
    friday, user, p = club
    seasons.create_season(friday, "Spring", date(2026, 3, 1), date(2026, 5, 31))
    seasons.create_season(friday, "Summer", date(2026, 6, 1), date(2026, 8, 31))
    team_win(friday, user, (p["Ann"], p["Cy"]), (p["Bob"], p["Di"]), date(2026, 3, 5))
    team_win(friday, user, (p["Ann"], p["Bob"]), (p["Cy"], p["Di"]), date(2026, 3, 12))
    team_win(friday, user, (p["Bob"], p["Cy"]), (p["Ann"], p["Di"]), date(2026, 3, 19))
    duel = matches.create_match(
        friday,
        user,
        "pagat",
        "2p",
        [TeamSpec("A", (p["Ann"],)), TeamSpec("B", (p["Eva"],))],
        target=600,
    )
    entry = {
        "kozi": "H",
        "teams": [
            {"name": "A", **WINNERS, "hands": [""]},
            {"name": "B", **LOSERS, "hands": ["AS 9D"]},
        ],
    }
    matches.record_hand(duel, user, typed(duel, entry))
    played_on(duel, date(2026, 4, 2))
    unfinished = matches.create_match(
        friday,
        user,
        "pagat",
        "4p",
        [TeamSpec("A", (p["Eva"], p["Di"])), TeamSpec("B", (p["Bob"], p["Cy"]))],
        target=5000,
    )
    matches.record_hand(unfinished, user, typed(unfinished, REFERENCE_HAND))
    played_on(unfinished, date(2026, 6, 3))
    return friday, p


def table(rows: list[standings.PlayerRow]) -> list[tuple[object, ...]]:
    return [
        (
            r.name,
            r.rank,
            r.matches,
            r.wins,
            r.win_rate,
            r.hands,
            r.points_per_hand,
            r.biribas_clean,
            r.biribas_dirty,
            r.went_out,
        )
        for r in rows
    ]


def test_the_all_time_leaderboard_by_hand(spring: tuple[Club, dict[str, int]]) -> None:
    friday, _ = spring
    rows = leaderboard.ranked(friday, None)
    # Ann: M1 665, M2 665, M3 −95, M4 665 → 1900 over 4 hands; went out in the three wins.
    # Bob: −95 + 665 + 665 = 1235 over 3; Cy the same; Di: 3 × −95; Eva: −70 in 1 hand.
    # The unfinished summer match counts for no one. Eva has 1 match of the 3 needed.
    third = Fraction(2, 3)
    assert table(rows) == [
        ("Ann", 1, 4, 3, Fraction(3, 4), 4, Fraction(475), 3, 3, 3),
        ("Bob", 2, 3, 2, third, 3, Fraction(1235, 3), 2, 2, 2),
        ("Cy", 2, 3, 2, third, 3, Fraction(1235, 3), 2, 2, 2),
        ("Di", 4, 3, 0, Fraction(0), 3, Fraction(-95), 0, 0, 0),
        ("Eva", None, 1, 0, Fraction(0), 1, Fraction(-70), 0, 0, 0),
    ]
    assert [r.ranked for r in rows] == [True, True, True, True, False]
    bob = rows[1].json()
    assert bob["points_per_hand"] == "411⅔"  # exact, never a rounded float
    assert bob["average_hand_score"] == "411⅔"  # a team's score is each member's
    assert bob["points"] == 1235
    assert bob["win_rate"] == 0.6667
    assert bob["biribas"] == 4
    assert rows[0].json()["points_per_hand"] == 475


def test_a_season_counts_only_its_matches(spring: tuple[Club, dict[str, int]]) -> None:
    friday, _ = spring
    first, second = seasons.seasons_of(friday)
    assert [(r.name, r.matches) for r in leaderboard.ranked(friday, first)] == [
        ("Ann", 4),
        ("Bob", 3),
        ("Cy", 3),
        ("Di", 3),
        ("Eva", 1),
    ]
    assert leaderboard.ranked(friday, second) == []  # its only match is unfinished
    # Place the duel in summer: Ann drops to 3 matches with 2 wins in spring.
    duel = next(m for m in seasons.matches_in(friday, first) if m.format == "2p")
    seasons.place_match(duel, second)
    rows = {r.name: r for r in leaderboard.ranked(friday, first)}
    assert (rows["Ann"].matches, rows["Ann"].wins, rows["Ann"].points) == (3, 2, 1235)
    assert "Eva" not in rows
    assert [(r.name, r.ranked) for r in leaderboard.ranked(friday, second)] == [
        ("Ann", False),
        ("Eva", False),
    ]


def test_the_leaderboard_sorts_by_any_column(spring: tuple[Club, dict[str, int]]) -> None:
    friday, _ = spring
    by_points = leaderboard.ranked(friday, None, sort="points_per_hand", descending=False)
    assert [(r.name, r.rank) for r in by_points] == [
        ("Di", 1),
        ("Bob", 2),
        ("Cy", 2),
        ("Ann", 4),
        ("Eva", None),
    ]
    by_name = leaderboard.ranked(friday, None, sort="name", descending=True)
    assert [r.name for r in by_name] == ["Di", "Cy", "Bob", "Ann", "Eva"]
    by_biribas = leaderboard.ranked(friday, None, sort="biribas")
    assert [(r.name, r.biribas) for r in by_biribas][:3] == [("Ann", 6), ("Bob", 4), ("Cy", 4)]
    with pytest.raises(Invalid, match="not a column"):
        leaderboard.ranked(friday, None, sort="luck")


def test_the_club_sets_the_matches_needed_to_be_ranked(
    spring: tuple[Club, dict[str, int]],
) -> None:
    friday, _ = spring
    friday.min_matches_ranked = 1
    db.session.commit()
    rows = leaderboard.ranked(friday, None)
    # Di and Eva both won nothing: they share fourth place, by name.
    assert [(r.name, r.rank) for r in rows] == [
        ("Ann", 1),
        ("Bob", 2),
        ("Cy", 2),
        ("Di", 4),
        ("Eva", 4),
    ]
    friday.min_matches_ranked = 4
    db.session.commit()
    assert [(r.name, r.rank) for r in leaderboard.ranked(friday, None)][:2] == [
        ("Ann", 1),
        ("Bob", None),
    ]


def test_partnerships_and_head_to_head(spring: tuple[Club, dict[str, int]]) -> None:
    friday, p = spring
    pairs = {pair.names: pair for pair in pair_records.partnerships(friday, None).records()}
    assert {names: (pair.matches, pair.wins, pair.hands) for names, pair in pairs.items()} == {
        ("Ann", "Cy"): (1, 1, 1),
        ("Bob", "Di"): (1, 0, 1),
        ("Ann", "Bob"): (1, 1, 1),
        ("Cy", "Di"): (1, 0, 1),
        ("Bob", "Cy"): (1, 1, 1),
        ("Ann", "Di"): (1, 0, 1),
    }
    assert pairs[("Ann", "Cy")].side_points == 665
    # Ann against Di: opponents in M1 and M2 (Ann won both), partners in M3.
    record = pair_records.head_to_head(friday, None, [p["Ann"]], [p["Di"]])
    assert (record.matches, record.wins_a, record.wins_b, record.ahead_a) == (2, 2, 0, 2)
    # Team against team: Ann+Cy met Bob+Di once, and won.
    teams = pair_records.head_to_head(friday, None, [p["Ann"], p["Cy"]], [p["Bob"], p["Di"]])
    assert teams.json() == {
        "a": [p["Ann"], p["Cy"]],
        "b": [p["Bob"], p["Di"]],
        "matches": 1,
        "wins_a": 1,
        "wins_b": 0,
        "ahead_a": 1,
        "ahead_b": 0,
    }
    with pytest.raises(Invalid):
        pair_records.head_to_head(friday, None, [p["Ann"]], [p["Ann"]])


def test_a_share_format_credits_each_player_their_share(
    club: tuple[Club, User, dict[str, int]],
) -> None:
    friday, user, p = club
    trio = (p["Ann"], p["Bob"], p["Cy"])
    match = matches.create_match(
        friday, user, "pagat", "3p-partnership", [TeamSpec("table", trio)], target=600
    )

    def hand(pair: tuple[int, int], alone: int) -> dict[str, object]:
        return {
            "kozi": "H",
            "teams": [
                {**WINNERS, "players": list(pair)},
                {**LOSERS, "hands": ["AS 9D"], "players": [alone]},
            ],
        }

    # Hand 1: Bob+Cy 665 (332½ each), Ann alone −70. Hand 2: Ann+Cy 665, Bob alone −70.
    # Totals: Ann 262½, Bob 262½, Cy 665: Cy reaches 600 and wins.
    matches.record_hand(match, user, typed(match, hand((p["Bob"], p["Cy"]), p["Ann"])))
    matches.record_hand(match, user, typed(match, hand((p["Ann"], p["Cy"]), p["Bob"])))
    assert matches.match_json(match)["winner"] == "Cy"
    rows = {r.name: r for r in leaderboard.ranked(friday, None)}
    cy, ann = rows["Cy"], rows["Ann"]
    assert (cy.matches, cy.wins, cy.hands, cy.points) == (1, 1, 2, Fraction(665))
    assert cy.points_per_hand == Fraction(665, 2)
    assert cy.average_hand_score == Fraction(665)  # the side's score, before sharing
    assert (cy.biribas_clean, cy.biribas_dirty, cy.went_out) == (2, 2, 2)
    assert (ann.wins, ann.points) == (0, Fraction(525, 2))  # −70 + 332½
    assert ann.points_per_hand == Fraction(525, 4)
    assert ann.average_hand_score == Fraction(595, 2)  # (−70 + 665) / 2
    assert (ann.biribas_clean, ann.biribas_dirty, ann.went_out) == (1, 1, 1)
    assert ann.json()["points_per_hand"] == "131¼"
    assert ann.json()["points"] == "262½"
    assert rows["Bob"].points == Fraction(525, 2)
    # Pairs formed for one hand each; the share formats have no match-long partners.
    pairs = {pair.names: pair for pair in pair_records.partnerships(friday, None).records()}
    assert {n: (x.matches, x.hands) for n, x in pairs.items()} == {
        ("Bob", "Cy"): (0, 1),
        ("Ann", "Cy"): (0, 1),
    }
    record = pair_records.head_to_head(friday, None, [p["Ann"]], [p["Cy"]])
    assert (record.matches, record.wins_a, record.wins_b, record.ahead_b) == (1, 0, 1, 1)


def test_a_full_run_is_counted(club: tuple[Club, User, dict[str, int]]) -> None:
    friday, user, p = club
    match = matches.create_match(
        friday,
        user,
        "pagat",
        "4p",
        [TeamSpec("A", (p["Ann"], p["Cy"])), TeamSpec("B", (p["Bob"], p["Di"]))],
        target=600,
    )
    full = {**WINNERS, "melds": ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"]}
    matches.record_hand(
        match, user, typed(match, {"kozi": "H", "teams": [{"name": "A", **full}, LOSERS]})
    )
    rows = {r.name: r for r in leaderboard.ranked(friday, None)}
    assert (rows["Ann"].full_runs, rows["Ann"].biribas_clean, rows["Ann"].biribas_dirty) == (
        1,
        1,
        0,
    )
    assert rows["Bob"].full_runs == 0
