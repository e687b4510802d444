"""Who meets whom, where: the movements of a tournament (tournaments.md §1 and §4).

The front door to the movements, pure logic (standard library and networkx):

* `draw(movement, entries, round_number, history, ranking, rng)`: one round's tables and
  bye (`Draw`), from the entries in seeding order and the earlier rounds' draws.
* `check_setup(movement, entry_count, rounds)`: what is wrong with a tournament's setup, as
  sentences for the director, in the current language (`scorekeeper.rules.i18n`).
* `max_rounds(movement, entry_count)`: the most rounds `check_setup` accepts.

The movements (`Movement`): `mitchell` (mitchell.py), `round-robin` (robin.py), `danish`
(modified Danish, the default, danish.py) and `pure-danish`. Their seeding and sides are
described in their modules.

Setup decisions (the spec leaves them open):

* At least 2 entries for every movement. Byes need no more: with 3 entries each movement
  still has a valid bye rotation (a Mitchell of one table and a phantom, a round robin of 3
  rounds, a Danish whose byes go round).
* At most `MAX_ENTRIES` entries and `MAX_ROUNDS` rounds, whatever the movement.
* A Mitchell has at most one round per position (tables, plus the phantom with an odd
  number of entries): more would bring rematches.
* A round robin may stop early (fewer rounds than a full one, for a short evening), never go
  beyond one: entries − 1 rounds for an even number, entries for an odd one.
* Danish has no limit of its own: when no pairing without rematches is left, modified
  Danish takes the one with the fewest.

`draw` trusts a setup that `check_setup` accepted and raises ValueError (a programming
error, not a director's) for what it cannot draw: a round beyond the movement's rounds,
repeated entries, a Danish ranking that is not the entries. Mitchell and round robin are
fixed by the seeding and the round's number: they read neither history, ranking nor rng.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Sequence

from scorekeeper.rules.i18n import mark, ntr, tr
from scorekeeper.tournaments import danish, mitchell, robin
from scorekeeper.tournaments.draws import Draw, Entry, Table

__all__ = [
    "LABELS",
    "MAX_ENTRIES",
    "MAX_ROUNDS",
    "MIN_ENTRIES",
    "Draw",
    "Entry",
    "Movement",
    "Table",
    "check_setup",
    "draw",
    "label",
    "max_rounds",
]

#: The fewest entries of a tournament: two make one table.
MIN_ENTRIES = 2
#: The most entries of a tournament: a big club's night, with room to spare.
MAX_ENTRIES = 200
#: The most rounds of a tournament: a long weekend of short rounds.
MAX_ROUNDS = 30


class Movement(enum.StrEnum):
    MITCHELL = "mitchell"
    DANISH = "danish"
    PURE_DANISH = "pure-danish"
    ROUND_ROBIN = "round-robin"


#: Each movement's name for the director, in English (translated by `label`).
LABELS: dict[Movement, str] = {
    Movement.MITCHELL: mark("Mitchell"),
    Movement.DANISH: mark("Modified Danish"),
    Movement.PURE_DANISH: mark("Pure Danish"),
    Movement.ROUND_ROBIN: mark("Round robin"),
}


def label(movement: Movement | str) -> str:
    """The movement's name in the current language."""
    return tr(LABELS[Movement(movement)])


def max_rounds(movement: Movement | str, entry_count: int) -> int:
    """The most rounds a tournament of `movement` for `entry_count` entries may have: a
    Mitchell's rounds without a rematch, a full round robin, and never above MAX_ROUNDS."""
    match Movement(movement):
        case Movement.MITCHELL:
            return min(mitchell.max_rounds(entry_count), MAX_ROUNDS)
        case Movement.ROUND_ROBIN:
            return min(robin.rounds(entry_count), MAX_ROUNDS)
        case Movement.DANISH | Movement.PURE_DANISH:
            return MAX_ROUNDS


def check_setup(movement: Movement | str, entry_count: int, rounds: int) -> list[str]:
    """What stops a tournament of `movement` for `entry_count` entries over `rounds` rounds,
    one sentence each; an empty list when it can be drawn."""
    try:
        chosen = Movement(movement)
    except ValueError:
        names = ", ".join(m.value for m in Movement)
        return [
            tr(
                "There is no movement called {name}; choose one of {names}.",
                name=str(movement)[:40],
                names=names,
            )
        ]
    problems: list[str] = []
    if entry_count < MIN_ENTRIES:
        problems.append(
            tr(
                "A tournament needs at least {least} entries; this one has {count}.",
                least=MIN_ENTRIES,
                count=entry_count,
            )
        )
    elif entry_count > MAX_ENTRIES:
        problems.append(
            tr(
                "A tournament takes at most {most} entries; this one has {count}.",
                most=MAX_ENTRIES,
                count=entry_count,
            )
        )
    if rounds < 1:
        problems.append(tr("A tournament needs at least one round."))
    elif rounds > MAX_ROUNDS:
        problems.append(
            tr(
                "A tournament has at most {most} rounds; this one asks for {rounds}.",
                most=MAX_ROUNDS,
                rounds=rounds,
            )
        )
    elif MIN_ENTRIES <= entry_count <= MAX_ENTRIES and rounds > max_rounds(chosen, entry_count):
        most = max_rounds(chosen, entry_count)
        if chosen is Movement.MITCHELL:
            problems.append(
                ntr(
                    "A Mitchell for {count} entries has only {most} round without a rematch; "
                    "this one asks for {rounds}.",
                    "A Mitchell for {count} entries has only {most} rounds without a "
                    "rematch; this one asks for {rounds}.",
                    most,
                    count=entry_count,
                    most=most,
                    rounds=rounds,
                )
            )
        else:
            problems.append(
                ntr(
                    "A round robin for {count} entries is over after {most} round; "
                    "this one asks for {rounds}.",
                    "A round robin for {count} entries is over after {most} rounds; "
                    "this one asks for {rounds}.",
                    most,
                    count=entry_count,
                    most=most,
                    rounds=rounds,
                )
            )
    return problems


def draw(
    movement: Movement | str,
    entries: Sequence[Entry],
    round_number: int,
    history: Sequence[Draw] = (),
    ranking: Sequence[Entry] | None = None,
    rng: random.Random | None = None,
) -> Draw:
    """Round `round_number` (from 1) of `movement` for `entries` in seeding order.

    `history` holds the draws of the rounds before (Danish reads meetings, byes and sides
    from it). `ranking` is the current ranking, best first, every entry once: Danish needs
    it from round 2 on. `rng` draws Danish's round 1 instead of following the seeding; seed
    it to draw the same again.
    """
    chosen = Movement(movement)
    if len(set(entries)) != len(entries):
        raise ValueError("an entry is listed twice")
    if not 1 <= len(entries) <= MAX_ENTRIES:
        raise ValueError(f"{len(entries)} entries: a movement takes 1 to {MAX_ENTRIES}")
    if not 1 <= round_number <= max_rounds(chosen, len(entries)):
        raise ValueError(f"round {round_number} is outside this {chosen.value} movement")
    match chosen:
        case Movement.MITCHELL:
            return mitchell.draw(entries, round_number)
        case Movement.ROUND_ROBIN:
            return robin.draw(entries, round_number)
        case Movement.DANISH | Movement.PURE_DANISH:
            if round_number > 1 and (
                ranking is None or len(ranking) != len(entries) or set(ranking) != set(entries)
            ):
                raise ValueError("a Danish round after the first needs a ranking of the entries")
            return danish.draw(
                entries,
                round_number,
                history,
                ranking,
                rng,
                modified=chosen is Movement.DANISH,
            )
