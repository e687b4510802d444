"""What a movement hands out for one round: its tables and its bye (tournaments.md §1, §4).

An entry is an int id (a pair or a single player: the tournament's format decides which).
A table seats two entries, North–South and East–West; with an odd number of entries one
entry sits out the round with a bye. The history of a tournament is its earlier rounds'
draws, oldest first: from it come who has met whom, who has had a bye and who sat where.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

#: An entry's id.
Entry = int


class Table(NamedTuple):
    """One table of a round: its number (from 1) and the entries sitting NS and EW."""

    table: int
    ns: Entry
    ew: Entry


@dataclass(frozen=True)
class Draw:
    """One round: its tables, numbered 1, 2, … in order, and the entry with a bye, if any."""

    tables: tuple[Table, ...]
    bye: Entry | None = None

    def entries(self) -> Iterator[Entry]:
        """Every entry of the round, seated or on its bye."""
        for table in self.tables:
            yield table.ns
            yield table.ew
        if self.bye is not None:
            yield self.bye


def numbered(pairs: Iterable[tuple[Entry, Entry]], bye: Entry | None = None) -> Draw:
    """A draw of (NS, EW) pairs, seated at tables 1, 2, … in the order given."""
    return Draw(tuple(Table(n, ns, ew) for n, (ns, ew) in enumerate(pairs, start=1)), bye)


def pair_key(a: Entry, b: Entry) -> frozenset[Entry]:
    """Two entries as a meeting, whichever sat NS."""
    return frozenset((a, b))


def meetings(history: Sequence[Draw]) -> Counter[frozenset[Entry]]:
    """How often each two entries have met (`pair_key`) in the rounds of `history`."""
    return Counter(pair_key(t.ns, t.ew) for draw in history for t in draw.tables)


def byes(history: Sequence[Draw]) -> Counter[Entry]:
    """How many byes each entry has had in `history` (entries with none are absent)."""
    return Counter(draw.bye for draw in history if draw.bye is not None)


def sides(history: Sequence[Draw]) -> tuple[Counter[Entry], Counter[Entry], dict[Entry, str]]:
    """Times each entry sat NS, times it sat EW, and the side ("ns" or "ew") it sat last."""
    ns: Counter[Entry] = Counter()
    ew: Counter[Entry] = Counter()
    last: dict[Entry, str] = {}
    for draw in history:
        for table in draw.tables:
            ns[table.ns] += 1
            ew[table.ew] += 1
            last[table.ns] = "ns"
            last[table.ew] = "ew"
    return ns, ew, last
