"""The sample match behind "Try the demo": a small JSON of hands shipped in the package,
scored by the rules engine at each request (in the reader's language), never stored.

So the demo works on any fresh install without a command, and no shared account exists
for strangers to vandalize: the page is read-only by construction.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from importlib import resources
from typing import Any

from scorekeeper.match import HandEntry, ScoredHand, read_suit, read_teams, team_hands
from scorekeeper.rules.formats import Credit, TableFormat, find_format
from scorekeeper.rules.match import MatchSetup, PlayedHand, Side, carry, start_totals
from scorekeeper.rules.presets import find_variant
from scorekeeper.rules.scoring import score_hand
from scorekeeper.rules.variants import Variant


@dataclass(frozen=True, slots=True)
class SampleHand:
    number: int
    kozi: str | None  # the suit letter, as entered
    result: ScoredHand  # each team's score and lines
    totals_after: dict[str, Fraction]


@dataclass(frozen=True, slots=True)
class SampleMatch:
    variant: Variant
    table_format: TableFormat
    setup: MatchSetup
    hands: list[SampleHand]  # oldest first, each with the totals after it


@cache
def _data() -> dict[str, Any]:
    text = resources.files("scorekeeper").joinpath("data/sample_match.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def sample_match() -> SampleMatch:
    """The sample match, every hand scored now by the rules engine (labels in the current
    language), with the running totals after each."""
    data = _data()
    variant = find_variant(data["variant"])
    table_format = find_format(data["format"])
    teams = {name: tuple(players) for name, players in data["teams"].items()}
    setup = MatchSetup(
        variant=variant,
        table_format=table_format,
        seats=tuple(data["seats"]),
        teams=teams,
        first_dealer=int(data["first_dealer"]),
    )
    totals = start_totals(setup)
    hands: list[SampleHand] = []
    for number, hand in enumerate(data["hands"], start=1):
        # Each hand against the totals before it, carried from the hand before (no replay).
        bodies = [
            {**side, "name": name, "score_before": str(totals[name])}
            for name, side in zip(teams, hand["teams"], strict=True)
        ]
        kozi = read_suit(hand.get("kozi"))
        sides, befores = read_teams(bodies, table_format.cards)
        scored = score_hand(variant, team_hands(sides, befores, table_format), kozi, table_format)
        team_credit = table_format.credit is Credit.TEAM
        result = ScoredHand.of(scored, HandEntry(kozi, tuple(sides)), team_credit)
        played = PlayedHand(tuple(Side((), t.score, team=t.name) for t in result.teams))
        totals = carry(setup, totals, played, number)
        hands.append(SampleHand(number, hand.get("kozi"), result, totals))
    return SampleMatch(variant, table_format, setup, hands)
