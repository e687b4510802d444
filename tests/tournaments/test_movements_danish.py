"""Danish movements (tournaments.md §1, §4): pure and modified, byes and sides.

Modified Danish must avoid every avoidable rematch and otherwise stay as close to the
ranking as it can. "As close" is checked against a brute-force search over every perfect
matching (small fields) written here: the cheapest by (earlier meetings of the tables, the
places they move in all, Σd, then Σd²), the order `danish.costs` documents.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.tournaments import danish
from scorekeeper.tournaments.movements import Draw, Table, draw

Pair = tuple[int, int]


# --- Independent helpers ----------------------------------------------------------------


def meetings(history: Sequence[Draw]) -> Counter[frozenset[int]]:
    return Counter(frozenset((t.ns, t.ew)) for d in history for t in d.tables)


def perfect_matchings(items: Sequence[int]) -> Iterator[list[Pair]]:
    """Every way to pair `items` (an even number of them)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, partner in enumerate(rest):
        for more in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *more]


def has_rematch_free(items: Sequence[int], met: Counter[frozenset[int]]) -> bool:
    """Whether `items` can be paired with no two who met (backtracking, first one found)."""
    if not items:
        return True
    first, rest = items[0], items[1:]
    return any(
        not met[frozenset((first, partner))] and has_rematch_free(rest[:k] + rest[k + 1 :], met)
        for k, partner in enumerate(rest)
    )


def playing(result: Draw, ranking: Sequence[int]) -> list[int]:
    return [e for e in ranking if e != result.bye]


def cost(
    pairs: Sequence[Pair], ranked: Sequence[int], met: Counter[frozenset[int]]
) -> tuple[int, int, int]:
    """(earlier meetings, Σd, Σd²) of a pairing, d = places apart in `ranked`."""
    place = {e: k for k, e in enumerate(ranked)}
    gaps = [abs(place[a] - place[b]) for a, b in pairs]
    return (
        sum(met[frozenset(p)] for p in pairs),
        sum(gaps),
        sum(g * g for g in gaps),
    )


def cost_of(result: Draw, ranking: Sequence[int], history: Sequence[Draw]) -> tuple[int, ...]:
    pairs = [(t.ns, t.ew) for t in result.tables]
    return cost(pairs, playing(result, ranking), meetings(history))


def expected_bye(ranking: Sequence[int], history: Sequence[Draw]) -> int | None:
    """The lowest-ranked entry among those with the fewest byes (§1)."""
    if len(ranking) % 2 == 0:
        return None
    had = Counter(d.bye for d in history)
    fewest = min(had[e] for e in ranking)
    return [e for e in ranking if had[e] == fewest][-1]


def random_round(entries: Sequence[int], rng: random.Random) -> Draw:
    """An arbitrary earlier round: shuffled, paired in order, the odd one out on a bye."""
    order = list(entries)
    rng.shuffle(order)
    bye = order.pop() if len(order) % 2 else None
    pairs = [(order[k], order[k + 1]) for k in range(0, len(order), 2)]
    return Draw(tuple(Table(n, a, b) for n, (a, b) in enumerate(pairs, start=1)), bye)


def check_sides(result: Draw, history: Sequence[Draw]) -> None:
    """At each table the entry that sat EW more often sits NS; if as often, the one that
    sat EW last time (tournaments.md §4: sides alternate)."""
    ns = Counter(t.ns for d in history for t in d.tables)
    ew = Counter(t.ew for d in history for t in d.tables)
    last: dict[int, str] = {}
    for d in history:
        for t in d.tables:
            last[t.ns], last[t.ew] = "ns", "ew"
    for t in result.tables:
        lean_ns, lean_ew = ew[t.ns] - ns[t.ns], ew[t.ew] - ns[t.ew]
        assert lean_ns >= lean_ew, (t, history)
        if lean_ns == lean_ew:
            assert not (last.get(t.ns) == "ns" and last.get(t.ew) in ("ew", None))
            assert not (last.get(t.ns) is None and last.get(t.ew) == "ew")


# --- Round 1 ---------------------------------------------------------------------------


def test_round_one_follows_the_seeding() -> None:
    entries = [31, 7, 19, 4, 12, 40, 2]
    result = draw("danish", entries, 1)
    assert [(t.ns, t.ew) for t in result.tables] == [(31, 7), (19, 4), (12, 40)]
    assert result.bye == 2


def test_round_one_drawn_is_repeatable() -> None:
    entries = list(range(1, 21))
    first = draw("danish", entries, 1, rng=random.Random(7))
    again = draw("danish", entries, 1, rng=random.Random(7))
    assert first == again
    order = list(entries)
    random.Random(7).shuffle(order)
    assert [(t.ns, t.ew) for t in first.tables] == list(zip(order[::2], order[1::2], strict=True))
    assert first != draw("danish", entries, 1)


# --- Pure and modified ------------------------------------------------------------------


def test_pure_danish_pairs_by_the_ranking_rematches_and_all() -> None:
    entries = list(range(1, 9))
    ranking = [8, 6, 4, 2, 7, 5, 3, 1]
    history = [draw("pure-danish", entries, 1)]
    history.append(draw("pure-danish", entries, 2, history, ranking=ranking))
    again = draw("pure-danish", entries, 3, history, ranking=ranking)
    assert {frozenset((t.ns, t.ew)) for t in again.tables} == {
        frozenset(p) for p in [(8, 6), (4, 2), (7, 5), (3, 1)]
    }
    assert max(meetings([*history, again]).values()) == 2


def test_modified_danish_sixteen_over_five_rounds_with_a_stuck_ranking_never_rematches() -> None:
    # The ranking never moves: pure Danish would pair 1 v 2, 3 v 4, … every round.
    entries = list(range(1, 17))
    ranking = list(entries)
    pure: list[Draw] = []
    modified: list[Draw] = []
    for number in range(1, 6):
        pure.append(draw("pure-danish", entries, number, pure, ranking=ranking))
        modified.append(draw("danish", entries, number, modified, ranking=ranking))
    assert max(meetings(pure).values()) == 5
    assert max(meetings(modified).values()) == 1
    # Each round still the nearest pairing the ranking allows (brute force is too big
    # here; the full graph's matching, with no band, is the reference).
    for number in range(1, 5):
        result = modified[number]
        full = danish._matching(
            ranking, meetings(modified[:number]), len(ranking) - 1, rematches=True
        )
        expected = cost(
            [(ranking[i], ranking[j]) for i, j in full], ranking, meetings(modified[:number])
        )
        assert cost_of(result, ranking, modified[:number]) == expected


def test_the_better_entry_gets_the_nearer_opponent() -> None:
    # A met B and C met D: A v C, B v D (Σd 4, Σd² 8) beats A v D, B v C (Σd 4, Σd² 10).
    a, b, c, d = 10, 20, 30, 40
    history = [draw("pure-danish", [a, b, c, d], 1)]
    result = draw("danish", [a, b, c, d], 2, history, ranking=[a, b, c, d])
    assert {frozenset((t.ns, t.ew)) for t in result.tables} == {
        frozenset((a, c)),
        frozenset((b, d)),
    }
    # Tables go by the better entry's place.
    assert a in result.tables[0][1:]


def test_no_rematch_beats_any_rematch_however_far() -> None:
    # 1 has met 2 … 7: only 1 v 8 avoids a rematch, the farthest opponent 1 could get.
    entries = list(range(1, 9))
    history = []
    for number, rival in enumerate(range(2, 8), start=1):
        others = random_round([e for e in entries if e not in (1, rival)], random.Random(number))
        tables = [Table(1, 1, rival), *(t._replace(table=t.table + 1) for t in others.tables)]
        history.append(Draw(tuple(tables)))
    met = meetings(history)
    assert has_rematch_free(entries, met)
    result = draw("danish", entries, len(history) + 1, history, ranking=entries)
    assert frozenset((1, 8)) in {frozenset((t.ns, t.ew)) for t in result.tables}
    assert cost_of(result, entries, history)[0] == 0


def test_weights_order_rematches_places_and_spread() -> None:
    for count in range(2, 201, 2):
        rematch, place = danish.costs(count)
        tables, span = count // 2, count - 1
        # Σd² of any pairing stays below PLACE; Σ(PLACE·d + d²) below REMATCH.
        assert tables * span * span < place
        assert tables * (place * span + span * span) < rematch


def test_a_danish_round_after_the_first_needs_the_ranking() -> None:
    entries = [1, 2, 3, 4]
    history = [draw("danish", entries, 1)]
    with pytest.raises(ValueError, match="ranking"):
        draw("danish", entries, 2, history)
    with pytest.raises(ValueError, match="ranking"):
        draw("danish", entries, 2, history, ranking=[1, 2, 3, 5])
    with pytest.raises(ValueError, match="twice"):
        draw("danish", [1, 2, 2, 4], 1)


# --- Properties --------------------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.integers(0, 7),
            st.permutations(range(1, n + 1)),
            st.randoms(use_true_random=False),
        )
    )
)
def test_modified_danish_is_the_cheapest_pairing_by_brute_force(
    case: tuple[int, int, list[int], random.Random],
) -> None:
    n, earlier, ranking, rng = case
    entries = list(range(1, n + 1))
    history = [random_round(entries, rng) for _ in range(earlier)]
    result = draw("danish", entries, earlier + 1, history, ranking=ranking)
    assert sorted(result.entries()) == entries
    if earlier:
        assert result.bye == expected_bye(ranking, history)
        ranked = playing(result, ranking)
        best = min(cost(p, ranked, meetings(history)) for p in perfect_matchings(ranked))
        assert cost_of(result, ranking, history) == best
    check_sides(result, history)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 24).flatmap(
        lambda n: st.tuples(
            st.just(n),
            st.lists(st.permutations(range(1, n + 1)), min_size=1, max_size=max(n // 2, 1)),
        )
    )
)
def test_modified_danish_avoids_every_avoidable_rematch(case: tuple[int, list[list[int]]]) -> None:
    n, rankings = case
    entries = list(range(1, n + 1))
    history: list[Draw] = []
    for number, ranking in enumerate(rankings, start=1):
        result = draw("danish", entries, number, history, ranking=ranking)
        met = meetings(history)
        ranked = playing(result, ranking if number > 1 else entries)
        if has_rematch_free(ranked, met):
            assert all(not met[frozenset((t.ns, t.ew))] for t in result.tables)
        assert result.bye == expected_bye(ranking if number > 1 else entries, history)
        if number > 1:
            # The banded search gives what the whole graph's matching gives.
            full = danish._matching(ranked, met, len(ranked) - 1, rematches=True)
            whole = cost([(ranked[i], ranked[j]) for i, j in full], ranked, met)
            assert cost_of(result, ranking, history) == whole
        check_sides(result, history)
        history.append(result)


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 15).filter(lambda n: n % 2), st.randoms(use_true_random=False))
def test_no_second_bye_while_another_has_none(n: int, rng: random.Random) -> None:
    entries = list(range(1, n + 1))
    history: list[Draw] = []
    # Every entry's first bye, then the first of the second round of byes: the rounds past
    # that repeat the same choice with a longer history (and cost a draw each for nothing).
    for number in range(1, n + 3):
        ranking = list(entries)
        rng.shuffle(ranking)
        result = draw("danish", entries, number, history, ranking=ranking)
        before = Counter(d.bye for d in history)
        assert before[result.bye] == min(before[e] for e in entries)
        history.append(result)
        after = Counter(d.bye for d in history)
        assert max(after[e] for e in entries) - min(after[e] for e in entries) <= 1


def test_sides_alternate_when_the_same_two_meet_again() -> None:
    entries = [5, 6]
    history: list[Draw] = []
    for number in range(1, 7):
        history.append(draw("danish", entries, number, history, ranking=entries))
    assert [d.tables[0].ns for d in history] == [5, 6, 5, 6, 5, 6]
