"""The bench's match (tests/bench/match_hands.json) stays a match the rules engine accepts: every
hand scores without a problem, and its correction changes a total. So entry_taps.py measures a
real evening's entry, and a hand that has rotted (a card too many, a biriba no longer there)
fails here rather than reporting taps for a refused hand."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from scorekeeper import referee

MATCH = Path(__file__).parents[1] / "bench" / "match_hands.json"


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MATCH.read_text(encoding="utf-8"))
    return data


def answer(data: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    """The engine's scoring of one hand (POST /api/v1/hands/score's answer); fails on any
    problem."""
    body = {
        "variant": data["variant"],
        "options": {},
        "format": data["format"],
        "kozi": hand["kozi"],
        "teams": [
            {"name": team["name"], **side}
            for team, side in zip(data["teams"], hand["teams"], strict=True)
        ],
    }
    scored = referee.score_hand_request(body)
    assert scored["problems"] == [], f"{hand['note']}: {scored['problems']}"
    return scored


def score(data: dict[str, Any], hand: dict[str, Any]) -> list[int]:
    return [int(team["score"]) for team in answer(data, hand)["teams"]]


def corrected(data: dict[str, Any]) -> dict[str, Any]:
    fix = data["correction"]
    hand = copy.deepcopy(data["hands"][fix["hand"] - 1])
    side = hand["teams"][fix["team"]]
    side["melds"][fix["meld"]] += " " + " ".join(fix["add"])
    return hand


def test_the_match_has_eight_hands_of_every_kind() -> None:
    data = load()
    hands = data["hands"]
    assert len(hands) == 8
    assert data["variant"] == "pagat" and data["format"] == "4p"
    assert any(not side["melds"] for hand in hands for side in hand["teams"]), "a team with no meld"
    left = " ".join(" ".join(side["hands"]) for hand in hands for side in hand["teams"])
    assert "JK" in left.split() and any(card.startswith("2") for card in left.split())


def test_every_hand_scores_without_a_problem() -> None:
    data = load()
    labels = [
        line["label"]
        for hand in data["hands"]
        for team in answer(data, hand)["teams"]
        for line in team["lines"]
    ]
    # The kinds the bench is meant to enter: a kózi biriba, a dirty one, a set biriba.
    assert any(label.startswith("Clean kózi biriba") for label in labels)
    assert any(label.startswith("Dirty biriba ") for label in labels)
    assert any(label.startswith("Clean biriba (set)") for label in labels)
    assert labels.count("No biribaki taken") >= 1


def test_the_correction_changes_a_total() -> None:
    data = load()
    number = data["correction"]["hand"]
    before = score(data, data["hands"][number - 1])
    after = score(data, corrected(data))
    assert before != after
