"""Mitchell and round robin (tournaments.md §4): fixed by the seeding and the round's number.

Every expectation is counted from the draws themselves (who met whom, who sat where, who had
a bye), never written out table by table, except Berger's own published table for 6.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, pairwise

import pytest

from scorekeeper.tournaments.movements import Draw, Table, draw, max_rounds


def ids(n: int) -> list[int]:
    # Ids that are not their seeding places, so a mix-up of the two shows.
    return [100 + 7 * k for k in range(n)]


def play(movement: str, entries: list[int], rounds: int) -> list[Draw]:
    history: list[Draw] = []
    for number in range(1, rounds + 1):
        history.append(draw(movement, entries, number, history))
    return history


def met(history: list[Draw]) -> Counter[frozenset[int]]:
    return Counter(frozenset((t.ns, t.ew)) for d in history for t in d.tables)


def assert_well_formed(result: Draw, entries: list[int]) -> None:
    """Every entry once in the round, tables numbered 1, 2, …, a bye only when odd."""
    assert sorted(result.entries()) == sorted(entries)
    assert [t.table for t in result.tables] == list(range(1, len(result.tables) + 1))
    assert (result.bye is not None) == (len(entries) % 2 == 1)


# --- Mitchell -------------------------------------------------------------------------


def test_mitchell_eight_tables_eight_rounds_nobody_meets_twice() -> None:
    entries = ids(16)
    assert max_rounds("mitchell", 16) == 8
    history = play("mitchell", entries, 8)
    for result in history:
        assert_well_formed(result, entries)
    assert max(met(history).values()) == 1
    assert len(met(history)) == 8 * 8


def test_mitchell_ns_stay_and_ew_move_up_one_table() -> None:
    history = play("mitchell", ids(16), 8)
    first = history[0]
    for before, after in pairwise(history):
        assert [t.ns for t in after.tables] == [t.ns for t in first.tables]
        where = {t.ew: t.table for t in after.tables}
        for t in before.tables:
            assert where[t.ew] == t.table % 8 + 1


def test_mitchell_seeds_alternate_between_the_lines() -> None:
    entries = ids(8)
    first = draw("mitchell", entries, 1)
    assert [(t.ns, t.ew) for t in first.tables] == list(
        zip(entries[0::2], entries[1::2], strict=True)
    )
    assert first.bye is None


@pytest.mark.parametrize("n", [3, 5, 9, 15])
def test_odd_mitchell_one_bye_per_round_for_each_ew_entry(n: int) -> None:
    entries = ids(n)
    rounds = max_rounds("mitchell", n)
    assert rounds == (n + 1) // 2
    history = play("mitchell", entries, rounds)
    for result in history:
        assert_well_formed(result, entries)
    byes = Counter(d.bye for d in history)
    ew = {t.ew for d in history for t in d.tables} | set(byes)
    ns = {t.ns for d in history for t in d.tables}
    assert ns.isdisjoint(ew)
    # Each EW entry exactly one bye, the NS entries none: no second bye for anyone.
    assert byes == Counter(ew)
    assert max(met(history).values()) == 1
    # The extra EW entry moves on from the phantom table to table 1.
    assert history[0].bye == entries[-1]
    assert history[1].tables[0].ew == entries[-1]


def test_mitchell_refuses_a_round_beyond_its_rounds() -> None:
    with pytest.raises(ValueError, match="round 9"):
        draw("mitchell", ids(16), 9)


# --- Round robin ----------------------------------------------------------------------


def test_round_robin_of_six_is_bergers_table() -> None:
    # FIDE's Berger table for 6 players, White first.
    berger = [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]
    entries = ids(6)
    seat = {number: entries[number - 1] for number in range(1, 7)}
    for number, boards in enumerate(berger, start=1):
        expected = tuple(Table(k, seat[w], seat[b]) for k, (w, b) in enumerate(boards, start=1))
        assert draw("round-robin", entries, number).tables == expected


@pytest.mark.parametrize("n", [2, 4, 10, 16, 3, 9, 11])
def test_round_robin_everyone_meets_everyone_once(n: int) -> None:
    entries = ids(n)
    rounds = n - 1 if n % 2 == 0 else n
    assert max_rounds("round-robin", n) == rounds
    history = play("round-robin", entries, rounds)
    for result in history:
        assert_well_formed(result, entries)
    assert met(history) == Counter(frozenset(p) for p in combinations(entries, 2))
    if n % 2:
        # A bye each round, and each entry exactly one.
        assert Counter(d.bye for d in history) == Counter(entries)


@pytest.mark.parametrize("n", [4, 9, 10, 16])
def test_round_robin_sides_alternate(n: int) -> None:
    entries = ids(n)
    history = play("round-robin", entries, max_rounds("round-robin", n))
    for entry in entries:
        seats = [
            "ns" if t.ns == entry else "ew"
            for d in history
            for t in d.tables
            if entry in (t.ns, t.ew)
        ]
        # As many NS as EW games, give or take one, and never three in a row on one side.
        assert abs(seats.count("ns") - seats.count("ew")) <= 1
        runs = ["".join(seats[k : k + 3]) for k in range(len(seats) - 2)]
        assert "nsnsns" not in runs and "ewewew" not in runs


def test_round_robin_refuses_a_round_beyond_a_full_one() -> None:
    with pytest.raises(ValueError, match="round 10"):
        draw("round-robin", ids(10), 10)
