"""A tournament's setup (tournaments.md §1, §4): what `check_setup` refuses, and in which words.

The sentences are the director's, each naming what is wrong (in Greek:
test_movements_words.py). Every accepted setup is drawn to its last round, so "accepted" means
"can be drawn".
"""

from __future__ import annotations

import random

import pytest

from scorekeeper.tournaments.movements import (
    MAX_ENTRIES,
    MAX_ROUNDS,
    Draw,
    Movement,
    check_setup,
    draw,
    max_rounds,
)

MOVEMENTS = [m.value for m in Movement]


@pytest.mark.parametrize("movement", MOVEMENTS)
@pytest.mark.parametrize("count", [2, 3, 4, 7, 16, 61])
def test_what_check_setup_accepts_can_be_drawn_to_the_last_round(movement: str, count: int) -> None:
    rounds = max_rounds(movement, count)
    assert check_setup(movement, count, rounds) == []
    assert check_setup(movement, count, rounds + 1) != []
    entries = list(range(1, count + 1))
    rng = random.Random(count)
    history: list[Draw] = []
    # Danish runs to MAX_ROUNDS; its later rounds are like its earlier ones, so 6 do.
    for number in range(1, min(rounds, 6 if "danish" in movement else rounds) + 1):
        ranking = list(entries)
        rng.shuffle(ranking)
        history.append(draw(movement, entries, number, history, ranking=ranking))
        assert sorted(history[-1].entries()) == entries


def test_too_few_entries() -> None:
    for movement in MOVEMENTS:
        assert check_setup(movement, 1, 1) == [
            "A tournament needs at least 2 entries; this one has 1."
        ]
    assert check_setup("danish", 0, 1) == ["A tournament needs at least 2 entries; this one has 0."]


def test_too_many_entries_and_rounds() -> None:
    assert check_setup("danish", MAX_ENTRIES + 1, MAX_ROUNDS + 1) == [
        f"A tournament takes at most {MAX_ENTRIES} entries; this one has {MAX_ENTRIES + 1}.",
        f"A tournament has at most {MAX_ROUNDS} rounds; this one asks for {MAX_ROUNDS + 1}.",
    ]
    assert check_setup("danish", MAX_ENTRIES, MAX_ROUNDS) == []
    assert check_setup("mitchell", 5, 0) == ["A tournament needs at least one round."]


def test_a_mitchell_has_no_more_rounds_than_positions() -> None:
    assert check_setup("mitchell", 16, 8) == []
    assert check_setup("mitchell", 16, 9) == [
        "A Mitchell for 16 entries has only 8 rounds without a rematch; this one asks for 9."
    ]
    assert check_setup("mitchell", 2, 2) == [
        "A Mitchell for 2 entries has only 1 round without a rematch; this one asks for 2."
    ]
    # A big Mitchell is held by the tournament's own limit.
    assert max_rounds("mitchell", 200) == MAX_ROUNDS


def test_a_round_robin_may_stop_early_but_not_go_beyond() -> None:
    assert check_setup("round-robin", 10, 9) == []
    assert check_setup("round-robin", 10, 4) == []
    assert check_setup("round-robin", 9, 9) == []
    assert check_setup("round-robin", 10, 10) == [
        "A round robin for 10 entries is over after 9 rounds; this one asks for 10."
    ]
    assert check_setup("round-robin", 9, 10) == [
        "A round robin for 9 entries is over after 9 rounds; this one asks for 10."
    ]


def test_an_unknown_movement() -> None:
    assert check_setup("howell", 8, 3) == [
        "There is no movement called howell; choose one of "
        "mitchell, danish, pure-danish, round-robin."
    ]
    with pytest.raises(ValueError):
        draw("howell", [1, 2], 1)
