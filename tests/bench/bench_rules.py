"""Benchmark of the rules engine: prints the median time to judge one meld and to score a
three-team hand of 20 melds. Goal: under 50 µs a meld and under 1 ms a hand.

    .venv/bin/python tests/bench/bench_rules.py [--smoke]

It prints figures and asserts nothing about time (machines differ; the figures go into the
closing notes and are compared by people). `--smoke` times a few rounds only: what CI runs
(tests/test_benchmarks_smoke.py) to show the benchmark still works, not a figure to compare.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from functools import partial

from scorekeeper.rules.cards import Suit, parse_cards
from scorekeeper.rules.formats import FORMATS
from scorekeeper.rules.melds import judge_meld
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.scoring import TeamHand, score_hand
from scorekeeper.rules.variants import Variant

# A mix of what players lay: clean and dirty runs, sets, a natural 2, biribas, and a few
# illegal ones (which take the longest, as every reading is tried).
MELDS = [
    parse_cards(text)
    for text in (
        "3H 4H 2H 6H 7H",
        "5S-JS",
        "QD QC QH",
        "8H 9H 10H JH QH KH JK",
        "AC 2C 2D 4C",
        "AH-KH",
        "KS KD JK",
        "3C 4C 5C",
        "2H-9H",
        "QH KH AH 2S",
        "3H 5H 9H",
        "QH JK 2S",
        "7D 7D 7S 7C 7H 7H JK",
        "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH",
    )
]

HAND = [
    TeamHand(
        "A",
        melds=tuple(
            parse_cards(m)
            for m in (
                "5S-JS",
                "QD QC QH",
                "8H-KH JK",
                "3D-6D",
                "AC 2C 3C",
                "9S 9D 9C",
                "4H 5H 6H 7H",
            )
        ),
        hands=(parse_cards(""), parse_cards("AS 9D")),
        went_out=True,
        took_biribaki=True,
        opening=parse_cards("QD QC QH"),
    ),
    TeamHand(
        "B",
        melds=tuple(
            parse_cards(m)
            for m in (
                "3C 4C 5C",
                "KS KD JK",
                "8D-AD",
                "10C JC QC KC",
                "5S 5D 5H",
                "AS AH 2D",
                "6C 7C 8C 9C",
            )
        ),
        hands=(parse_cards("JK 4H"), parse_cards("7S")),
        took_biribaki=True,
    ),
    TeamHand(
        "C",
        melds=tuple(
            parse_cards(m)
            for m in ("JH QH KH", "4S 4D 4C JK", "10D JD QD KD", "6S 6H 6D", "2S 3S 4S", "8S 8H 8C")
        ),
        hands=(parse_cards("QS 3H 3D"), parse_cards("KH")),
    ),
]


def median_ns(action: Callable[[], object], rounds: int, per_round: int) -> float:
    samples = []
    for _ in range(rounds):
        start = time.perf_counter_ns()
        for _ in range(per_round):
            action()
        samples.append((time.perf_counter_ns() - start) / per_round)
    return statistics.median(samples)


def judge_all(variant: Variant) -> None:
    for meld in MELDS:
        judge_meld(meld, variant, Suit.HEARTS)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="a few rounds: does it still run?")
    args = parser.parse_args()
    rounds, melds_per_round, hands_per_round = (3, 2, 2) if args.smoke else (31, 50, 20)
    melds_in_hand = sum(len(team.melds) for team in HAND)
    assert melds_in_hand == 20, melds_in_hand
    print(f"{'preset':18} {'meld (median)':>16} {'20-meld hand (median)':>24}")
    for variant in PRESETS.values():
        per_meld = median_ns(
            partial(judge_all, variant), rounds=rounds, per_round=melds_per_round
        ) / len(MELDS)
        per_hand = median_ns(
            partial(score_hand, variant, HAND, Suit.HEARTS, FORMATS["6p"]),
            rounds=rounds,
            per_round=hands_per_round,
        )
        print(f"{variant.id:18} {per_meld / 1000:13.1f} µs {per_hand / 1e6:21.3f} ms")


if __name__ == "__main__":
    main()
