"""The ranking (tournaments.md §5): each tie-break by a small tournament worked out by hand,
penalties taken away and kept in sight, and properties of any ranking.

The hand-worked tables use VP that burraco-3-deals would give for their MP (10–10 up to 50,
11–9 up to 150, 12–8 up to 250, 15–5 up to 650, 17–3 up to 1000), but the ranking takes the
VP as given: the arithmetic of each example is in its comments.
"""

from __future__ import annotations

import random
from dataclasses import replace
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.tournaments.scales import BURRACO_3_DEALS, WIN_DRAW_LOSS, VPScale, vp
from scorekeeper.tournaments.standings import (
    Bye,
    Penalty,
    RoundResult,
    Standing,
    TableResult,
    standings,
)

T = TableResult


def ranking(rows: list[Standing]) -> list[tuple[int, int]]:
    """(rank, entry), best first."""
    return [(row.rank, row.entry) for row in rows]


def by_entry(rows: list[Standing]) -> dict[int, Standing]:
    return {row.entry: row for row in rows}


def test_a_bye_counts_its_vp_and_no_mp_and_mp_difference_breaks_a_vp_tie() -> None:
    # Three entries, a round robin with one bye (12 VP) a round.
    tables = [
        T(1, 1, 2, 620, 300, 13, 7),  # difference 320
        T(2, 3, 1, 500, 480, 10, 10),  # difference 20
        T(3, 2, 3, 900, 100, 16, 4),  # difference 800
    ]
    byes = [Bye(1, 3, 12), Bye(2, 2, 12), Bye(3, 1, 12)]
    rows = standings([1, 2, 3], tables, byes)
    # 1: 13 + 10 + 12 = 35 VP, MP 620 + 480 = 1100 for, 300 + 500 = 800 against: +300.
    # 2: 7 + 12 + 16 = 35 VP, MP 300 + 900 = 1200 for, 620 + 100 = 720 against: +480.
    # 3: 12 + 10 + 4 = 26 VP.
    assert ranking(rows) == [(1, 2), (2, 1), (3, 3)]
    one = by_entry(rows)[1]
    assert (one.vp, one.mp_for, one.mp_against, one.mp_difference) == (35, 1100, 800, 300)
    assert (one.played, one.byes) == (2, 1)
    assert one.rounds == (
        RoundResult(1, 2, "NS", 620, 300, 13),
        RoundResult(2, 3, "EW", 480, 500, 10),
        RoundResult(3, None, None, 0, 0, 12),
    )
    assert by_entry(rows)[3].mp_for == 100 + 500  # the bye added none
    assert all(row.tie_break_vp is None for row in rows)  # no tie got that far


def test_the_result_between_two_tied_entries_comes_before_mp_scored() -> None:
    tables = [
        T(1, 1, 2, 600, 400, 12, 8),  # 1 beats 2 by 200
        T(1, 3, 4, 500, 500, 10, 10),
        T(2, 1, 3, 300, 500, 8, 12),
        T(2, 2, 4, 700, 500, 12, 8),
    ]
    rows = standings([1, 2, 3, 4], tables)
    # 1: 12 + 8 = 20 VP, MP 900 for, 900 against: 0. 2: 8 + 12 = 20 VP, 1100 for, 1100
    # against: 0. Tied; they met and 1 won it 12–8, so 1 is ahead though 2 scored more MP.
    # 3: 22 VP. 4: 18 VP.
    assert ranking(rows) == [(1, 3), (2, 1), (3, 2), (4, 4)]
    assert by_entry(rows)[1].mp_for < by_entry(rows)[2].mp_for
    assert [(row.entry, row.tie_break_vp) for row in rows] == [
        (3, None),
        (1, 12),
        (2, 8),
        (4, None),
    ]


def test_two_tied_entries_that_never_met_are_split_by_mp_scored() -> None:
    tables = [T(1, 1, 2, 600, 400, 12, 8), T(1, 3, 4, 700, 500, 12, 8)]
    rows = standings([1, 2, 3, 4], tables)
    # 1 and 3: 12 VP, +200 each, never met: 3 scored 700, 1 600. 2 and 4: 8 VP, −200 each:
    # 4 scored 500, 2 400.
    assert ranking(rows) == [(1, 3), (2, 1), (3, 4), (4, 2)]
    assert all(row.tie_break_vp is None for row in rows)


def test_a_three_way_tie_that_met_in_full_is_split_by_their_mini_league() -> None:
    # Four entries, round robin. 1, 2 and 3 end on 34 VP and +500 each.
    tables = [
        T(1, 1, 2, 800, 200, 15, 5),  # difference 600
        T(1, 3, 4, 700, 100, 15, 5),  # 600
        T(2, 2, 3, 600, 400, 12, 8),  # 200
        T(2, 1, 4, 500, 500, 10, 10),  # 0
        T(3, 3, 1, 500, 400, 11, 9),  # 100
        T(3, 2, 4, 1000, 100, 17, 3),  # 900
    ]
    rows = standings([1, 2, 3, 4], tables)
    # VP: 1: 15 + 10 + 9 = 34; 2: 5 + 12 + 17 = 34; 3: 15 + 8 + 11 = 34; 4: 5 + 10 + 3 = 18.
    # MP difference: 1: +600 + 0 − 100 = +500; 2: −600 + 200 + 900 = +500;
    # 3: +600 − 200 + 100 = +500.
    # Among themselves: 1: 15 (v 2) + 9 (v 3) = 24; 2: 5 + 12 = 17; 3: 8 + 11 = 19.
    # MP scored would say 2 (1800), 1 (1700), 3 (1600): the mini-league comes first.
    assert ranking(rows) == [(1, 1), (2, 3), (3, 2), (4, 4)]
    assert {row.entry: row.tie_break_vp for row in rows} == {1: 24, 2: 17, 3: 19, 4: None}
    assert [by_entry(rows)[entry].mp_for for entry in (1, 2, 3)] == [1700, 1800, 1600]


def test_a_three_way_tie_that_did_not_all_meet_goes_to_mp_scored() -> None:
    # Six entries, two rounds. 1, 2 and 3 end on 20 VP and 0 each; 1 met 2, but neither
    # met 3, so their meetings are skipped: summed, they would put 1 (12) ahead of 2 (8)
    # and 3 (0) for no better reason than whom the draw gave them.
    tables = [
        T(1, 1, 2, 700, 500, 12, 8),  # 200
        T(1, 3, 4, 500, 500, 10, 10),
        T(1, 6, 5, 600, 500, 11, 9),  # 100
        T(2, 4, 1, 600, 400, 12, 8),  # 200
        T(2, 2, 5, 900, 700, 12, 8),  # 200
        T(2, 3, 6, 400, 400, 10, 10),
    ]
    rows = standings([1, 2, 3, 4, 5, 6], tables)
    # 4: 10 + 12 = 22. 6: 11 + 10 = 21. 1: 12 + 8, 2: 8 + 12, 3: 10 + 10 = 20, each with an
    # MP difference of 0; MP scored: 2: 1400, 1: 1100, 3: 900. 5: 9 + 8 = 17.
    assert ranking(rows) == [(1, 4), (2, 6), (3, 2), (4, 1), (5, 3), (6, 5)]
    assert all(row.tie_break_vp is None for row in rows)


def test_two_entries_that_split_a_rematch_are_level_on_their_meetings() -> None:
    tables = [
        T(1, 1, 2, 500, 300, 12, 8),  # 200
        T(1, 3, 4, 500, 100, 14, 6),  # 400
        T(2, 2, 1, 460, 260, 12, 8),  # 200
        T(2, 3, 4, 500, 100, 14, 6),  # 400
    ]
    rows = standings([1, 2, 3, 4], tables)
    # 1 and 2: 20 VP, 0, 20 VP each from their two meetings, 760 MP each: they share.
    assert ranking(rows) == [(1, 3), (2, 1), (2, 2), (4, 4)]
    assert by_entry(rows)[1].tie_break_vp == by_entry(rows)[2].tie_break_vp == 20


def test_a_tie_whose_members_met_unevenly_skips_the_meetings() -> None:
    # Win-draw-loss, four rounds; round 4 is a Danish rematch of round 1 (1–2 and 3–4).
    tables = [
        T(1, 1, 2, 500, 400, 2, 0),
        T(1, 3, 4, 400, 400, 1, 1),
        T(2, 1, 3, 300, 400, 0, 2),
        T(2, 2, 4, 650, 550, 2, 0),
        T(3, 1, 4, 200, 300, 0, 2),
        T(3, 2, 3, 500, 400, 2, 0),
        T(4, 2, 1, 400, 500, 0, 2),
        T(4, 3, 4, 350, 350, 1, 1),
    ]
    rows = standings([1, 2, 3, 4], tables)
    # Every entry: 4 VP (1: 2 + 0 + 0 + 2; 2: 0 + 2 + 2 + 0; 3: 1 + 2 + 0 + 1;
    # 4: 1 + 0 + 2 + 1) and an MP difference of 0 (1: +100 − 100 − 100 + 100; 2: −100 + 100
    # + 100 − 100; 3: 0 + 100 − 100 + 0; 4: 0 − 100 + 100 + 0). 1–2 and 3–4 met twice, the
    # other pairs once: skipped. MP scored: 2: 400 + 650 + 500 + 400 = 1950;
    # 4: 400 + 550 + 300 + 350 = 1600; 3: 400 + 400 + 400 + 350 = 1550;
    # 1: 500 + 300 + 200 + 500 = 1500.
    assert ranking(rows) == [(1, 2), (2, 4), (3, 3), (4, 1)]
    assert all(row.tie_break_vp is None for row in rows)


def test_a_full_tie_shares_the_place_and_the_next_place_is_skipped() -> None:
    tables = [T(1, 1, 2, 700, 300, 14, 6), T(1, 3, 4, 500, 500, 10, 10)]
    # 3 and 4: 10 VP, 0, 10 VP each in their meeting, 500 MP each: a full tie.
    assert ranking(standings([1, 2, 3, 4], tables)) == [(1, 1), (2, 3), (2, 4), (4, 2)]
    # Tied entries are listed in the order of the seeding.
    assert ranking(standings([4, 3, 2, 1], tables)) == [(1, 1), (2, 4), (2, 3), (4, 2)]


def test_a_vp_penalty_is_taken_away_and_kept_in_sight() -> None:
    slow = Penalty(1, 1, 0, 3, "Slow play")
    rows = standings([1, 2], [T(1, 1, 2, 600, 500, 11, 9)], penalties=[slow])
    # 1: 11 − 3 = 8 VP, behind 2's 9.
    assert ranking(rows) == [(1, 2), (2, 1)]
    one = by_entry(rows)[1]
    assert (one.vp, one.penalty_vp, one.penalty_mp, one.penalties) == (8, 3, 0, (slow,))
    assert one.rounds[0].vp == 11  # the table's own result is unchanged
    assert by_entry(rows)[2].penalties == ()


def test_an_mp_penalty_lowers_mp_for_and_so_the_mp_difference() -> None:
    tables = [T(1, 1, 2, 500, 480, 10, 10), T(1, 3, 4, 450, 450, 10, 10)]
    assert ranking(standings([1, 2, 3, 4], tables)) == [(1, 1), (2, 3), (2, 4), (4, 2)]
    late = Penalty(1, None, 50, 0, "Late to the table")
    rows = standings([1, 2, 3, 4], tables, penalties=[late])
    # 1: MP 500 − 50 = 450 for, 480 against: −30, now below 2's −20. 3 and 4 still share.
    assert ranking(rows) == [(1, 3), (1, 4), (3, 2), (4, 1)]
    one = by_entry(rows)[1]
    assert (one.mp_for, one.mp_difference, one.penalty_mp, one.vp) == (450, -30, 50, 10)
    assert one.rounds[0].mp_for == 500


def test_penalties_add_up() -> None:
    penalties = [Penalty(2, 1, 10, 1, "a"), Penalty(2, None, 20, 2, "b")]
    rows = standings([1, 2], [T(1, 1, 2, 500, 500, 10, 10)], penalties=penalties)
    two = by_entry(rows)[2]
    assert (two.vp, two.mp_for, two.penalty_vp, two.penalty_mp) == (7, 470, 3, 30)
    assert two.penalties == tuple(penalties)


def test_an_entry_that_has_not_played_is_ranked_with_nothing() -> None:
    rows = standings([1, 2, 3], [T(1, 1, 2, 600, 500, 11, 9)])
    three = by_entry(rows)[3]
    assert (three.rank, three.vp, three.played, three.byes, three.rounds) == (3, 0, 0, 0, ())


@pytest.mark.parametrize(
    ("entries", "tables", "byes", "penalties", "complaint"),
    [
        ([1, 1], [], [], [], "listed twice"),
        ([1, 2], [T(1, 1, 3, 0, 0, 10, 10)], [], [], "entry 3 of round 1"),
        ([1, 2], [T(1, 1, 1, 0, 0, 10, 10)], [], [], "plays itself"),
        ([1, 2, 3], [T(1, 1, 2, 0, 0, 10, 10)], [Bye(1, 2, 12)], [], "seated twice"),
        ([1, 2, 3], [T(1, 1, 2, 0, 0, 1, 1), T(1, 3, 1, 0, 0, 1, 1)], [], [], "seated twice"),
        ([1, 2], [], [], [Penalty(5, None, 0, 1, "x")], "names entry 5"),
    ],
)
def test_inconsistent_input_is_a_value_error(
    entries: list[int],
    tables: list[TableResult],
    byes: list[Bye],
    penalties: list[Penalty],
    complaint: str,
) -> None:
    with pytest.raises(ValueError, match=complaint):
        standings(entries, tables, byes, penalties)


@st.composite
def tournaments(
    draw: st.DrawFn,
) -> tuple[list[int], list[TableResult], list[Bye], list[Penalty]]:
    """Random pairings each round (a bye for the odd one out), MP from a few values so ties
    are common, VP by a preset scale, and now and then a penalty."""
    count = draw(st.integers(2, 8))
    entries = draw(st.permutations(range(10, 10 + count)))
    scale: VPScale = draw(st.sampled_from([BURRACO_3_DEALS, WIN_DRAW_LOSS]))
    seed = draw(st.randoms(use_true_random=False))
    tables: list[TableResult] = []
    byes: list[Bye] = []
    for round_ in range(1, draw(st.integers(1, 5)) + 1):
        seats = list(entries)
        seed.shuffle(seats)
        if len(seats) % 2:
            byes.append(Bye(round_, seats.pop(), scale.total * 6 // 10))
        for ns, ew in zip(seats[::2], seats[1::2], strict=True):
            ns_mp = draw(st.sampled_from([0, 100, 300, 600]))
            ew_mp = draw(st.sampled_from([0, 100, 300, 600]))
            tables.append(T(round_, ns, ew, ns_mp, ew_mp, *vp(scale, ns_mp, ew_mp)))
    penalties = draw(
        st.lists(
            st.builds(
                Penalty,
                entry=st.sampled_from(entries),
                round=st.none() | st.integers(1, 5),
                mp=st.sampled_from([0, 50]),
                vp=st.integers(0, 2),
                reason=st.just("director"),
            ),
            max_size=3,
        )
    )
    return list(entries), tables, byes, penalties


def key(row: Standing) -> tuple[int, int, int, int]:
    return (row.vp, row.mp_difference, row.tie_break_vp or 0, row.mp_for)


@given(tournament=tournaments())
def test_any_ranking_is_sorted_and_shares_places_only_in_full_ties(
    tournament: tuple[list[int], list[TableResult], list[Bye], list[Penalty]],
) -> None:
    entries, tables, byes, penalties = tournament
    rows = standings(entries, tables, byes, penalties)
    assert sorted(row.entry for row in rows) == sorted(entries)
    assert rows[0].rank == 1
    for place, (above, below) in enumerate(pairwise(rows), start=2):
        assert (above.vp, above.mp_difference) >= (below.vp, below.mp_difference)
        assert key(above) >= key(below)
        if below.rank == above.rank:
            # A shared place is a tie on every criterion.
            assert (above.vp, above.mp_difference, above.mp_for) == (
                below.vp,
                below.mp_difference,
                below.mp_for,
            )
            assert above.tie_break_vp == below.tie_break_vp
        else:
            assert below.rank == place
            assert key(above) > key(below)
    # The totals are the rounds' results less the penalties, and every round is listed.
    for row in rows:
        assert row.vp == sum(played.vp for played in row.rounds) - row.penalty_vp
        assert row.mp_for == sum(played.mp_for for played in row.rounds) - row.penalty_mp
        assert row.mp_against == sum(played.mp_against for played in row.rounds)
        assert row.played + row.byes == len(row.rounds)
        assert row.penalties == tuple(p for p in penalties if p.entry == row.entry)
        assert [played.round for played in row.rounds] == sorted(
            played.round for played in row.rounds
        )
        # The meetings tie-break is given to every member of a tied group or to none.
        tied = [
            other
            for other in rows
            if (other.vp, other.mp_difference) == (row.vp, row.mp_difference)
        ]
        assert len({other.tie_break_vp is None for other in tied}) == 1
        if len(tied) == 1:
            assert row.tie_break_vp is None


@given(tournament=tournaments(), order=st.randoms(use_true_random=False))
def test_the_ranking_does_not_depend_on_the_order_of_the_results(
    tournament: tuple[list[int], list[TableResult], list[Bye], list[Penalty]],
    order: random.Random,
) -> None:
    entries, tables, byes, penalties = tournament
    shuffled = list(tables)
    order.shuffle(shuffled)
    assert standings(entries, shuffled, byes, penalties) == standings(
        entries, tables, byes, penalties
    )


def test_a_standing_is_a_plain_value() -> None:
    [row, *_] = standings([1, 2], [T(1, 1, 2, 600, 500, 11, 9)])
    assert replace(row, rank=2).rank == 2  # frozen dataclasses: copied, never changed
    with pytest.raises(AttributeError):
        row.rank = 3  # type: ignore[misc]
