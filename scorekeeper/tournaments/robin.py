"""Round robin by Berger tables (tournaments.md §4): everyone meets everyone once.

Entry i of the seeding (from 1) is Berger number i. With an odd number of entries a phantom
joins as number n + 1 and whoever meets it has the round's bye, so each entry has exactly
one bye over the n rounds. With m = n − 1 for the (now even) n numbers: in round r, numbers
i and j below n meet when i + j ≡ r + 1 (mod m), and n meets the number i with
2i ≡ r + 1 (mod m). Each number meets each other exactly once in rounds 1 … m.

Sides are Berger's colours, NS for White: of two numbers below n the smaller sits NS when
their sum is odd, the larger when it is even; n sits EW in odd rounds and NS in even ones.
That keeps each entry's NS and EW games within one of each other and alternates them,
mostly (a Berger table has its occasional two in a row).

Tables are numbered in the Berger table's board order: board 1 is n's game (or, with a
phantom, the bye, which takes no table), then the pairs moving outwards from n's opponent.
"""

from __future__ import annotations

from collections.abc import Sequence

from scorekeeper.tournaments.draws import Draw, Entry, numbered


def rounds(entry_count: int) -> int:
    """A full round robin's rounds: n − 1 for an even n, n (one bye each) for an odd n."""
    return entry_count - 1 if entry_count % 2 == 0 else entry_count


def _seated(i: int, j: int) -> tuple[int, int]:
    """Two Berger numbers below n as (NS, EW)."""
    low, high = min(i, j), max(i, j)
    return (low, high) if (low + high) % 2 else (high, low)


def board_order(n: int, round_number: int) -> list[tuple[int, int]]:
    """Round `round_number` of the Berger table for an even `n`, as (NS, EW) numbers."""
    m = n - 1
    # n's opponent: the number i in 1 … m with 2i ≡ r + 1 (mod m); m is odd, so 2 has an
    # inverse, (m + 1) / 2.
    opponent = (round_number + 1) * (m + 1) // 2 % m or m
    boards = [(opponent, n) if round_number % 2 else (n, opponent)]
    for k in range(1, n // 2):
        up = (opponent + k - 1) % m + 1
        down = (opponent - k - 1) % m + 1
        boards.append(_seated(up, down))
    return boards


def draw(entries: Sequence[Entry], round_number: int) -> Draw:
    """Round `round_number` (from 1) of a round robin for `entries` in seeding order."""
    n = len(entries) + len(entries) % 2
    phantom = n if len(entries) % 2 else None
    bye: Entry | None = None
    pairs: list[tuple[Entry, Entry]] = []
    for ns, ew in board_order(n, round_number):
        if phantom in (ns, ew):
            bye = entries[(ew if ns == phantom else ns) - 1]
        else:
            pairs.append((entries[ns - 1], entries[ew - 1]))
    return numbered(pairs, bye)
