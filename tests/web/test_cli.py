"""The command-line referee prints the same JSON as API v1."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient, FlaskCliRunner
from support.hand_entries import EXAMPLE_SCORE_BODY

# Nothing here reads or writes stored data: once, on an app without a database.
pytestmark = pytest.mark.stateless

#: architecture.md's example, with a second team that did not go out.
HAND = {
    **EXAMPLE_SCORE_BODY,
    "teams": [
        *EXAMPLE_SCORE_BODY["teams"],
        {
            "name": "B",
            "melds": ["3C 4C 5C", "8D 8S 8H"],
            "hands": ["KC 5D", "7S"],
            "took_biribaki": False,
        },
    ],
}


def _json(output: str) -> Any:
    return json.loads(output)


def test_check_meld_prints_the_api_answer(runner: FlaskCliRunner, client: FlaskClient) -> None:
    result = runner.invoke(
        args=["check-meld", "--variant", "pagat", "--kozi", "H", "3H", "4H", "2H", "6H", "7H"]
    )
    assert result.exit_code == 0, result.output
    printed = _json(result.output)
    api = client.post(
        "/api/v1/melds/check",
        json={"variant": "pagat", "options": {}, "kozi": "H", "cards": "3H 4H 2H 6H 7H"},
    ).get_json()
    # The API adds the verdict worded for a page (verdict, verdict_words); the rest is one.
    assert printed == {k: v for k, v in api.items() if not k.startswith("verdict")}
    # and the answer itself: a dirty 5-card kózi run worth 5+5+10+5+5 = 30
    assert (printed["legal"], printed["kind"], printed["clean"]) == (True, "run", False)
    assert (printed["size"], printed["card_points"], printed["bonus"]) == (5, 30, 0)


def test_check_meld_prints_readable_suits(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["check-meld", "--variant", "pagat", "3H", "4H", "6H"])
    assert result.exit_code == 0
    assert "5♥" in result.output  # not a \u2665 escape


def test_check_meld_with_house_rule_and_format(runner: FlaskCliRunner, client: FlaskClient) -> None:
    args = ["check-meld", "--variant", "venezuelan", "--option", "bonus_wild_meld=600"]
    args += ["--format", "4p", "JK", "JK", "2S", "2H", "2D", "2C", "JK"]
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    printed = _json(result.output)
    api = client.post(
        "/api/v1/melds/check",
        json={
            "variant": "venezuelan",
            "options": {"bonus_wild_meld": 600},
            "format": "4p",
            "cards": "JK JK 2S 2H 2D 2C JK",
        },
    ).get_json()
    # The API adds the verdict worded for a page (verdict, verdict_words); the rest is one.
    assert printed == {k: v for k, v in api.items() if not k.startswith("verdict")}
    assert printed["bonus"] == 600


def test_score_hand_file_prints_the_api_answer(
    runner: FlaskCliRunner, client: FlaskClient, tmp_path: Path
) -> None:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(HAND, ensure_ascii=False), encoding="utf-8")
    result = runner.invoke(args=["score-hand", str(path)])
    assert result.exit_code == 0, result.output
    printed = _json(result.output)
    assert printed == client.post("/api/v1/hands/score", json=HAND).get_json()
    # A: 85 + 200 + 100 − 50; B: 45 − 20 − 100
    assert [t["score"] for t in printed["teams"]] == [335, -75]
    assert printed["legal"] is True


def test_score_hand_reads_stdin(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["score-hand", "-"], input=json.dumps(HAND))
    assert result.exit_code == 0, result.output
    assert [t["score"] for t in _json(result.output)["teams"]] == [335, -75]


def test_check_meld_bad_card_is_a_clear_error(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["check-meld", "--variant", "pagat", "3H", "4X", "5H"])
    assert result.exit_code != 0
    assert "'4X' is not a card" in result.output
    assert "Traceback" not in result.output


def test_check_meld_unknown_variant_is_a_clear_error(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["check-meld", "--variant", "rummy", "3H", "4H", "5H"])
    assert result.exit_code != 0
    assert "'rummy' is not a variant" in result.output


def test_check_meld_bad_option_is_a_clear_error(runner: FlaskCliRunner) -> None:
    result = runner.invoke(args=["check-meld", "--option", "nonsense", "3H", "4H", "5H"])
    assert result.exit_code != 0
    assert "'nonsense' is not NAME=VALUE" in result.output


def test_score_hand_bad_card_in_file_is_a_clear_error(
    runner: FlaskCliRunner, tmp_path: Path
) -> None:
    hand = json.loads(json.dumps(HAND))
    hand["teams"][1]["hands"][0] = "KC 5Q"
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand), encoding="utf-8")
    result = runner.invoke(args=["score-hand", str(path)])
    assert result.exit_code != 0
    assert "'5Q' is not a card" in result.output
    assert "Team B" in result.output


def test_score_hand_missing_file_is_a_clear_error(runner: FlaskCliRunner, tmp_path: Path) -> None:
    result = runner.invoke(args=["score-hand", str(tmp_path / "nowhere.json")])
    assert result.exit_code != 0
    assert "nowhere.json" in result.output
    assert "No such file or directory" in result.output


def test_score_hand_invalid_json_file_is_a_clear_error(
    runner: FlaskCliRunner, tmp_path: Path
) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"variant": "pagat", "teams": [', encoding="utf-8")
    result = runner.invoke(args=["score-hand", str(path)])
    assert result.exit_code != 0
    assert "broken.json is not valid JSON" in result.output
    assert "Traceback" not in result.output


def test_score_hand_null_file_is_a_clear_error(runner: FlaskCliRunner, tmp_path: Path) -> None:
    path = tmp_path / "null.json"
    path.write_text("null", encoding="utf-8")
    result = runner.invoke(args=["score-hand", str(path)])
    assert result.exit_code != 0
    assert "The request body must be a JSON object" in result.output
    assert "not valid JSON" not in result.output  # null is valid JSON
    assert "Traceback" not in result.output


def test_score_hand_empty_meld_is_a_clear_error(runner: FlaskCliRunner, tmp_path: Path) -> None:
    hand = json.loads(json.dumps(HAND))
    hand["teams"][0]["melds"].append("")
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand), encoding="utf-8")
    result = runner.invoke(args=["score-hand", str(path)])
    assert result.exit_code != 0
    assert "Team A, meld 3 holds no card" in result.output
    assert "Traceback" not in result.output


def test_score_hand_prints_problems_as_sentences_naming_the_team(
    runner: FlaskCliRunner, tmp_path: Path
) -> None:
    hand = json.loads(json.dumps(HAND))
    hand["teams"][1]["went_out"] = True
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand), encoding="utf-8")
    result = runner.invoke(args=["score-hand", str(path)])
    assert result.exit_code == 0, result.output
    printed = _json(result.output)
    assert printed["legal"] is False
    assert printed["problems"] == [
        "Only one side can go out in a hand, but A and B are both marked as gone out.",
        "B went out without a biriba on its side.",
        "B went out without having taken its biribaki.",
    ]
    assert printed["teams"][1]["problems"] == printed["problems"][1:]
    # problems never stop the arithmetic: A 85 + 200 + 100 − 50; B 45 + out 100 − 20 − 100
    assert [t["score"] for t in printed["teams"]] == [335, 45 + 100 - 20 - 100]
    assert printed["teams"][1]["lines"] == [
        {"label": "Cards melded", "points": 45},
        {"label": "Went out", "points": 100},
        {"label": "Cards left in hands", "points": -20},
        {"label": "No biribaki taken", "points": -100},
    ]
