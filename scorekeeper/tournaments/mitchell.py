"""The Mitchell movement (tournaments.md §4): NS stay, EW move up one table each round.

Seeding: the entries alternate between the lines in seeding order, the 1st NS at table 1
against the 2nd EW, the 3rd NS at table 2 against the 4th EW, and so on, so round 1 is the
same as a Danish round 1 (1 v 2, 3 v 4, …). With an odd number of entries the last one is
the extra EW entry: it starts at a phantom table after the last real one, and whoever sits
there has the round's bye.

Each round every EW entry moves up one position (the phantom included), from the last back
to the first. EW entry k (from 0) sits at position (k + round − 1) mod positions, so it
meets every NS entry, and the phantom, once in the first `positions` rounds: the movement
has no rematch while rounds ≤ positions (= entries / 2, rounded up), and with an odd
number of entries each EW entry has one bye in that many rounds. NS entries never have
one: that is what a Mitchell is.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.tournaments.draws import Draw, Entry, numbered


def positions(entry_count: int) -> int:
    """The number of places an EW entry moves through: the tables, plus a phantom one when
    the number of entries is odd."""
    return (entry_count + 1) // 2


def max_rounds(entry_count: int) -> int:
    """The most rounds without a rematch: one per position."""
    return positions(entry_count)


def lines(entries: Sequence[Entry]) -> tuple[list[Entry], list[Entry]]:
    """The NS line (one per table) and the EW line (one per position), in seeding order."""
    even = len(entries) - len(entries) % 2
    ns = list(entries[0:even:2])
    ew = list(entries[1:even:2])
    if len(entries) % 2:
        ew.append(entries[-1])
    return ns, ew


def draw(entries: Sequence[Entry], round_number: int) -> Draw:
    """Round `round_number` (from 1) of a Mitchell for `entries` in seeding order."""
    ns, ew = lines(entries)
    count = len(ew)
    # The EW entry at position p in this round started at p − (round − 1).
    at = [ew[(p - (round_number - 1)) % count] for p in range(count)]
    bye = at[-1] if count > len(ns) else None
    return numbered(zip(ns, at, strict=False), bye)
