"""Benchmark of the tournament draw: prints the time to draw each of 8 rounds of modified
Danish for 60 entries (the slowest part of a movement: a weighted matching each round).
Goal: round 8 well under 100 ms.

    .venv/bin/python tests/bench/tournament_draw.py [--smoke] [--entries N] [--rounds N]

Each tournament's results are random (seeded, so runs compare): after every round the
ranking is the entries sorted by points won so far, so later rounds have ever more
rematches to avoid. It prints the median and worst time of each round's draw over the
tournaments, as CPU time (a shared machine's other work does not count in it), and asserts
nothing about time (machines differ). `--smoke` draws one small
tournament: what CI runs (tests/test_benchmarks_smoke.py) to show it still works.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from scorekeeper.tournaments.movements import Draw, draw


def tournament(entries: int, rounds: int, seed: int) -> list[float]:
    """CPU seconds taken by each round's draw of one modified Danish tournament."""
    rng = random.Random(seed)
    ids = list(range(1, entries + 1))
    points: Counter[int] = Counter()
    history: list[Draw] = []
    times = []
    for number in range(1, rounds + 1):
        # Best first; equal points keep the seeding order.
        ranking = sorted(ids, key=lambda e: (-points[e], e))
        start = time.process_time()
        result = draw("danish", ids, number, history, ranking=ranking)
        times.append(time.process_time() - start)
        history.append(result)
        for table in result.tables:
            won = rng.randint(0, 20)
            points[table.ns] += won
            points[table.ew] += 20 - won
        if result.bye is not None:
            points[result.bye] += 12
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="one small tournament (CI)")
    parser.add_argument("--entries", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--runs", type=int, default=15, help="tournaments to time")
    args = parser.parse_args()
    entries, rounds, runs = (12, 4, 1) if args.smoke else (args.entries, args.rounds, args.runs)
    timings = [tournament(entries, rounds, seed) for seed in range(runs)]
    print(f"modified Danish, {entries} entries, {rounds} rounds, {runs} tournaments")
    for number in range(rounds):
        each = [run[number] * 1000 for run in timings]
        print(
            f"  round {number + 1}: median {statistics.median(each):.1f} ms,"
            f" worst {max(each):.1f} ms"
        )
    total = [sum(run) * 1000 for run in timings]
    print(f"  all {rounds} rounds: median {statistics.median(total):.1f} ms")


if __name__ == "__main__":
    main()
