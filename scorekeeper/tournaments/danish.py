"""The Danish movement (tournaments.md §4): each round pairs by the current ranking.

Round 1 follows the seeding order (1 v 2, 3 v 4, …), or a drawn order when a seeded
`random.Random` is given. Later rounds pair by the ranking handed in, best first. Pure
Danish pairs 1st v 2nd, 3rd v 4th, … whoever has met before. Modified Danish (the default)
avoids rematches wherever some pairing allows it, and among the pairings with the fewest
rematches takes the one closest to the ranking: a minimum-cost perfect matching, found by
networkx's weighted (blossom) matching rather than by a hand-written search.

Byes: with an odd number of entries the lowest-ranked entry among those with the fewest
byes sits out, so no entry has a second bye while another has had none (§1).

Sides: at each table the entry that has sat EW more often (EW games minus NS games) sits
NS; between two alike, the one that sat EW last time; between two alike in that too, the
higher-ranked one. Tables are numbered by the ranking of their better entry.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

import networkx as nx

from scorekeeper.tournaments.draws import (
    Draw,
    Entry,
    byes,
    meetings,
    numbered,
    pair_key,
    sides,
)

#: The pairing is first sought among partners at most this many places apart in the ranking
#: (then as far as `_pairing` finds it must look): the matching of a sparse graph is quick,
#: and `_pairing` proves its answer is also the best over all pairings before taking it.
BAND = 4


def order_of_round_one(entries: Sequence[Entry], rng: random.Random | None) -> list[Entry]:
    """Round 1's order: the seeding, or drawn by `rng`."""
    order = list(entries)
    if rng is not None:
        rng.shuffle(order)
    return order


def bye_of(ranking: Sequence[Entry], history: Sequence[Draw]) -> Entry | None:
    """Who sits out: none with an even count, else the lowest-ranked entry among those with
    the fewest byes so far."""
    if len(ranking) % 2 == 0:
        return None
    had = byes(history)
    fewest = min(had[entry] for entry in ranking)
    return next(entry for entry in reversed(ranking) if had[entry] == fewest)


def costs(count: int) -> tuple[int, int]:
    """The weights behind modified Danish's choice, for `count` entries to pair: (REMATCH,
    PLACE). A pairing's cost is the sum, over its tables, of

        REMATCH × (times the two have met) + PLACE × d + d²

    where d is how many places apart the two stand in the ranking (1 for 1st v 2nd). With h
    = count / 2 tables and d ≤ count − 1, the d² terms of a pairing add up to less than
    PLACE = h(count − 1)² + 1, and the last two terms together to less than REMATCH =
    h(PLACE(count − 1) + (count − 1)²) + 1. So a cheaper pairing

    1. has fewer (earlier) meetings among its tables: no rematch beats any rematch, and a
       second rematch costs more than any reshuffle avoiding it;
    2. if as few, moves the entries fewer places in all (Σd): 1 v 2, 3 v 4, … is the only
       pairing with Σd = h, the ranking itself;
    3. if as few, spreads the moves more evenly (Σd²): 1 v 3, 2 v 4 beats 1 v 4, 2 v 3, so
       the better entry gets the nearer opponent.

    Ties beyond that are settled by the matching, the same way for the same input.
    """
    tables = count // 2
    span = max(count - 1, 1)
    place = tables * span * span + 1
    rematch = tables * (place * span + span * span) + 1
    return rematch, place


def _cost(d: int, met: int, rematch: int, place: int) -> int:
    return rematch * met + place * d + d * d


def _matching(
    ranked: Sequence[Entry], met: Counter[frozenset[Entry]], band: int, *, rematches: bool
) -> list[tuple[int, int]]:
    """The cheapest pairing among partners at most `band` places apart, as pairs of places
    (better first); without `rematches`, among partners who have not met, which may leave
    some unpaired when no full pairing exists."""
    rematch, place = costs(len(ranked))
    # Weights are maximised: each is a constant above its cost, and every matching of
    # maximum cardinality (all we accept) has the same number of tables, so the heaviest
    # is the cheapest. The constant keeps every weight positive.
    top = rematch * (max(met.values(), default=0) + 1)
    graph: nx.Graph[int] = nx.Graph()
    count = len(ranked)
    for i in range(count):
        for j in range(i + 1, min(i + band, count - 1) + 1):
            times = met[pair_key(ranked[i], ranked[j])]
            if times == 0 or rematches:
                graph.add_edge(i, j, weight=top - _cost(j - i, times, rematch, place))
    found = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in found)


def _pairing(ranked: Sequence[Entry], met: Counter[frozenset[Entry]]) -> list[tuple[int, int]]:
    """The cheapest pairing of all (see `costs`), as pairs of places, better first.

    A pairing without rematches is sought first, among partners who have not met and stand
    at most `band` places apart: a sparse graph, whose matching is quick. Its answer is
    proven the cheapest of all before it is taken. Any pairing with two partners more than
    `band` places apart moves the entries at least h − 1 + band + 1 = h + band places in all
    (h tables, each at least 1). So a full banded answer that moves them fewer places is
    cheaper than every pairing outside the band; at exactly h + band, its d² add up to less
    (band ≥ 2) than those of such a pairing, whose one long move concentrates them. A full
    banded answer that moves them more, h + x places, shows where the cheapest pairing lies:
    within x places, since any pairing outside moves them more; one matching of that band
    gives it. A banded graph without a full pairing widens to twice the band, up to the
    whole ranking; only when even that has none are rematches let in, over all pairs.
    """
    count = len(ranked)
    tables = count // 2
    band = min(BAND, count - 1)
    while True:
        pairs = _matching(ranked, met, band, rematches=False)
        if len(pairs) < tables:
            if band >= count - 1:
                return _matching(ranked, met, count - 1, rematches=True)
            band = min(band * 2, count - 1)
            continue
        extra = sum(j - i for i, j in pairs) - tables
        if extra <= band or band >= count - 1:
            return pairs
        band = min(extra, count - 1)


def _seat(a: Entry, b: Entry, history: Sequence[Draw]) -> tuple[Entry, Entry]:
    """(NS, EW) for the better-ranked `a` and `b`: see the module's docstring."""
    ns, ew, last = sides(history)
    lean_a = ew[a] - ns[a]
    lean_b = ew[b] - ns[b]
    if lean_a != lean_b:
        return (a, b) if lean_a > lean_b else (b, a)
    if last.get(a) != last.get(b):
        return (a, b) if last.get(a) == "ew" or last.get(b) == "ns" else (b, a)
    return a, b


def draw(
    entries: Sequence[Entry],
    round_number: int,
    history: Sequence[Draw],
    ranking: Sequence[Entry] | None,
    rng: random.Random | None,
    *,
    modified: bool = True,
) -> Draw:
    """Round `round_number` of a Danish movement: by seeding (or drawn) in round 1, by
    `ranking` after it; `modified` avoids rematches where it can."""
    if round_number == 1:
        ranked = order_of_round_one(entries, rng)
    elif ranking is None:
        raise ValueError(f"Danish round {round_number} needs the ranking after round 1")
    else:
        ranked = list(ranking)
    bye = bye_of(ranked, history)
    playing = [entry for entry in ranked if entry != bye]
    if modified and history:
        places = _pairing(playing, meetings(history))
    else:
        places = [(i, i + 1) for i in range(0, len(playing), 2)]
    return numbered((_seat(playing[i], playing[j], history) for i, j in places), bye)
