"""The ranking of a tournament (tournaments.md §5), from the results of its tables.

Input (plain values; entries are ids, ints, as the database gives them):

* `TableResult(round, ns, ew, ns_mp, ew_mp, ns_vp, ew_vp)`: a finished table of a round,
  its MP as the matches scored them and its VP as the tournament's scale gave them
  (`scales.vp`). Pass only finished tables: a table still being played has no result.
* `Bye(round, entry, vp)`: an entry sitting out a round; it counts `vp` and no MP.
* `Penalty(entry, round, mp, vp, reason)`: a director's penalty; `round` is None for one
  given to the tournament as a whole. `mp` and `vp` are what is taken away (positive:
  a penalty of 10 VP is ``vp=10``).

`standings(entries, tables, byes=(), penalties=()) -> list[Standing]`: one `Standing` per
entry, best first. A `Standing` holds `rank`, `entry`, `vp`, `mp_for`, `mp_against`
(`mp_difference` = for − against), `played` (tables), `byes`, `rounds` (a `RoundResult` per
round it played or sat out, by round: its `opponent` (None for a bye), `side` ("NS", "EW" or
None), `mp_for`, `mp_against`, `vp`), and its `penalties` with their totals `penalty_vp` and
`penalty_mp`, so a page shows them beside the totals they were taken from: never silently
folded in. `vp` and `mp_for` are the totals AFTER the penalties (`mp_for` + `penalty_mp` is
what the tables scored). A penalty in MP lowers MP for (and so the MP difference) but does
not run the table through the VP scale again: a director who means to change a table's VP
gives a VP penalty. `tie_break_vp` is the VP the entry won against the others it is tied
with when that tie-break was used (below), else None.

The order (§5): total VP; ties by MP difference; then by the VP the tied entries won in
their meetings; then by MP scored; still tied, they share the place (1, 2, 2, 4), listed in
the order of `entries` (the seeding).

The meetings tie-break, for a group of entries with equal VP and equal MP difference: each
entry's VP from its tables against the others of the group, summed. It applies only when
every two of the group met, and equally often — for two entries: if they met; for three or
more, a complete mini-league among them. Where some of them never met (or a Danish rematch
made one pair meet more often than another), summing would reward whoever happened to meet
more of the group, so the criterion is skipped for that group and MP scored decides. The
group is formed once, by VP and MP difference; it is not re-formed after the meetings split
it.

Inconsistent input (an unknown entry, an entry seated twice in one round, an entry playing
itself) is a ValueError: the service builds this input from stored rows, so it is a bug.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

Side = Literal["NS", "EW"]


@dataclass(frozen=True)
class TableResult:
    round: int
    ns: int
    ew: int
    ns_mp: int
    ew_mp: int
    ns_vp: int
    ew_vp: int


@dataclass(frozen=True)
class Bye:
    round: int
    entry: int
    vp: int


@dataclass(frozen=True)
class Penalty:
    entry: int
    round: int | None
    mp: int
    vp: int
    reason: str


@dataclass(frozen=True)
class RoundResult:
    """One entry's round: its table (opponent, side, MP both ways, VP) or its bye."""

    round: int
    opponent: int | None
    side: Side | None
    mp_for: int
    mp_against: int
    vp: int


@dataclass(frozen=True)
class Standing:
    rank: int
    entry: int
    vp: int
    mp_for: int
    mp_against: int
    played: int
    byes: int
    rounds: tuple[RoundResult, ...]
    penalties: tuple[Penalty, ...]
    penalty_vp: int
    penalty_mp: int
    tie_break_vp: int | None

    @property
    def mp_difference(self) -> int:
        return self.mp_for - self.mp_against


def standings(
    entries: Sequence[int],
    tables: Iterable[TableResult],
    byes: Iterable[Bye] = (),
    penalties: Iterable[Penalty] = (),
) -> list[Standing]:
    """The ranking of `entries` from their tables, byes and penalties, best first."""
    tables, byes, penalties = list(tables), list(byes), list(penalties)
    _check(entries, tables, byes, penalties)
    rounds: dict[int, list[RoundResult]] = {entry: [] for entry in entries}
    for table in tables:
        rounds[table.ns].append(
            RoundResult(table.round, table.ew, "NS", table.ns_mp, table.ew_mp, table.ns_vp)
        )
        rounds[table.ew].append(
            RoundResult(table.round, table.ns, "EW", table.ew_mp, table.ns_mp, table.ew_vp)
        )
    for bye in byes:
        rounds[bye.entry].append(RoundResult(bye.round, None, None, 0, 0, bye.vp))
    given: dict[int, list[Penalty]] = {entry: [] for entry in entries}
    for penalty in penalties:
        given[penalty.entry].append(penalty)

    totals = {entry: _totals(rounds[entry], given[entry]) for entry in entries}
    meetings = _meetings_vp(entries, tables, totals)
    seeding = {entry: place for place, entry in enumerate(entries)}

    def key(entry: int) -> tuple[int, int, int, int]:
        total = totals[entry]
        return (total.vp, total.mp_difference, meetings.get(entry) or 0, total.mp_for)

    ordered = sorted(entries, key=lambda entry: (_negated(key(entry)), seeding[entry]))
    result: list[Standing] = []
    for place, entry in enumerate(ordered, start=1):
        rank = place
        if result and key(result[-1].entry) == key(entry):
            rank = result[-1].rank  # a full tie shares the place of the first of them
        result.append(
            Standing(
                rank=rank,
                entry=entry,
                vp=totals[entry].vp,
                mp_for=totals[entry].mp_for,
                mp_against=totals[entry].mp_against,
                played=totals[entry].played,
                byes=totals[entry].byes,
                rounds=tuple(sorted(rounds[entry], key=lambda played: played.round)),
                penalties=tuple(given[entry]),
                penalty_vp=sum(penalty.vp for penalty in given[entry]),
                penalty_mp=sum(penalty.mp for penalty in given[entry]),
                tie_break_vp=meetings.get(entry),
            )
        )
    return result


@dataclass(frozen=True)
class _Totals:
    vp: int
    mp_for: int
    mp_against: int
    played: int
    byes: int

    @property
    def mp_difference(self) -> int:
        return self.mp_for - self.mp_against


def _totals(rounds: list[RoundResult], penalties: list[Penalty]) -> _Totals:
    return _Totals(
        vp=sum(played.vp for played in rounds) - sum(penalty.vp for penalty in penalties),
        mp_for=sum(played.mp_for for played in rounds) - sum(penalty.mp for penalty in penalties),
        mp_against=sum(played.mp_against for played in rounds),
        played=sum(1 for played in rounds if played.opponent is not None),
        byes=sum(1 for played in rounds if played.opponent is None),
    )


def _negated(key: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(-value for value in key)


def _meetings_vp(
    entries: Sequence[int], tables: list[TableResult], totals: dict[int, _Totals]
) -> dict[int, int]:
    """For each entry in a group tied on VP and MP difference whose members all met each
    other equally often: the VP it won in those meetings. Entries not in such a group are
    left out."""
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for entry in entries:
        groups[(totals[entry].vp, totals[entry].mp_difference)].append(entry)
    found: dict[int, int] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        members = set(group)
        met: Counter[frozenset[int]] = Counter()
        won = dict.fromkeys(group, 0)
        for table in tables:
            if table.ns in members and table.ew in members:
                met[frozenset((table.ns, table.ew))] += 1
                won[table.ns] += table.ns_vp
                won[table.ew] += table.ew_vp
        counts = {met[frozenset(pair)] for pair in combinations(group, 2)}
        if len(counts) == 1 and 0 not in counts:
            found.update(won)
    return found


def _check(
    entries: Sequence[int],
    tables: list[TableResult],
    byes: list[Bye],
    penalties: list[Penalty],
) -> None:
    known = set(entries)
    if len(known) != len(entries):
        raise ValueError("an entry is listed twice")
    seated: set[tuple[int, int]] = set()

    def seat(round_: int, entry: int) -> None:
        if entry not in known:
            raise ValueError(f"entry {entry} of round {round_} is not an entry of the tournament")
        if (round_, entry) in seated:
            raise ValueError(f"entry {entry} is seated twice in round {round_}")
        seated.add((round_, entry))

    for table in tables:
        if table.ns == table.ew:
            raise ValueError(f"entry {table.ns} plays itself in round {table.round}")
        seat(table.round, table.ns)
        seat(table.round, table.ew)
    for bye in byes:
        seat(bye.round, bye.entry)
    for penalty in penalties:
        if penalty.entry not in known:
            raise ValueError(f"a penalty names entry {penalty.entry}, not an entry")
