"""JSON API v1 (architecture.md): the stateless referee endpoints through the Flask test client.

Field names are the contract; every expected number is written out from rules/presets.md.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from flask.testing import FlaskClient
from support.hand_entries import EXAMPLE_SCORE_BODY

from scorekeeper.rules.presets import find_variant

# Nothing here reads or writes stored data: once, on an app without a database.
pytestmark = pytest.mark.stateless

PRESET_IDS = [
    "pagat",
    "pagat-kouridakis",
    "wikipedia",
    "catsatcards",
    "venezuelan",
    "beriba",
    "buraco-us",
    "burraco-it",
]

TEAM_B = {
    "name": "B",
    "melds": ["3C 4C 5C", "8D 8S 8H"],
    "hands": ["KC 5D", "7S"],
    "went_out": False,
    "took_biribaki": False,
    "score_before": 0,
}
MELD_FIELDS = {"legal", "kind", "clean", "biriba", "size", "card_points", "bonus", "problems"}
HAND_FIELDS = {"legal", "problems", "teams"}
TEAM_FIELDS = {"name", "score", "lines", "problems", "opening_required"}


def two_team_body() -> dict[str, Any]:
    body = copy.deepcopy(EXAMPLE_SCORE_BODY)
    body["teams"].append(copy.deepcopy(TEAM_B))
    return body


def post(client: FlaskClient, path: str, body: Any) -> tuple[int, Any]:
    response = client.post(f"/api/v1/{path}", json=body)
    assert response.status_code != 500
    assert response.is_json
    return response.status_code, response.get_json()


# --- GET /api/v1/variants -----------------------------------------------------------------------


def test_variants_lists_the_eight_presets(client: FlaskClient) -> None:
    response = client.get("/api/v1/variants")
    assert response.status_code == 200
    variants = response.get_json()["variants"]
    assert [v["id"] for v in variants] == PRESET_IDS
    for v in variants:
        assert {"id", "name", "options", "assumed"} <= set(v)
        assert isinstance(v["name"], str) and v["name"]
        assert isinstance(v["options"], dict) and v["options"]
        assert isinstance(v["assumed"], list)
        assert set(v["assumed"]) <= set(v["options"])  # every assumption is a changeable option


def test_variant_names(client: FlaskClient) -> None:
    names = {v["id"]: v["name"] for v in client.get("/api/v1/variants").get_json()["variants"]}
    assert names == {
        "pagat": "Greek Biriba (pagat.com)",
        "pagat-kouridakis": "Greek Biriba, Kouridakis' version",
        "wikipedia": "Greek Biriba (Wikipedia)",
        "catsatcards": "Biriba (CatsAtCards)",
        "venezuelan": "Venezuelan Biriba",
        "beriba": "German Beriba (house rules, 2003)",
        "buraco-us": "Buraco (US rules)",
        "burraco-it": "Burraco (Italian federation)",
    }


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_variant_options_round_trip_through_with_options(client: FlaskClient, preset: str) -> None:
    variants = client.get("/api/v1/variants").get_json()["variants"]
    options = next(v["options"] for v in variants if v["id"] == preset)
    rebuilt = find_variant(preset).with_options(**options)
    assert rebuilt.options() == options
    # and through the API: the same options, sent back, judge a meld the same way
    body = {"variant": preset, "cards": "8S 9S 10S JS QS KS AS", "kozi": "S"}
    _, plain = post(client, "melds/check", body)
    _, echoed = post(client, "melds/check", {**body, "options": options})
    assert echoed == plain


# presets.md §4, as option values. Greek points 20/15/10/10/5; buraco points 30/15/20/10/5.
GREEK = {"points_joker": 20, "points_ace": 15, "points_two": 10}
BURACO = {"points_joker": 30, "points_ace": 15, "points_two": 20}
# Listed in run order with the ace high, as players name the ranks that may form sets.
THREE_TO_ACE = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
PAGAT_BONUSES = {
    "bonus_run_clean": 200,
    "bonus_run_dirty": 100,
    "bonus_set_clean": 300,
    "bonus_set_dirty": 150,
    "bonus_kozi_run_clean": 400,
    "bonus_kozi_run_dirty": 200,
    "bonus_full_run_clean": 1000,
    "bonus_full_run_dirty": 500,
    "bonus_full_kozi_run_clean": 2000,
    "bonus_full_kozi_run_dirty": 1000,
}
SPEC_OPTIONS: dict[str, dict[str, Any]] = {
    "pagat": GREEK
    | PAGAT_BONUSES
    | {
        "set_ranks": THREE_TO_ACE,
        "going_out_bonus": 100,
        "penalty_no_biribaki": 100,
        "opening_table": None,
        "target": 5000,
        "target_rule": "above",
    },
    "pagat-kouridakis": GREEK
    | PAGAT_BONUSES
    | {
        "set_ranks": [],
        "bonus_full_kozi_run_clean": 1000,
        "bonus_full_kozi_run_dirty": 500,
        "going_out_bonus": 100,
        "penalty_no_biribaki": 100,
        "opening_table": None,
        "target": 5000,
        "target_rule": "above",
    },
    "wikipedia": {
        "points_joker": 25,
        "points_ace": 15,
        "points_two": 10,
        "bonus_run_clean": 400,
        "bonus_run_dirty": 200,
        "bonus_set_clean": 300,
        "bonus_set_dirty": 150,
        "bonus_kozi_run_clean": 600,
        "bonus_kozi_run_dirty": 300,
        "bonus_full_run_clean": 1000,
        "bonus_full_run_dirty": 500,
        "bonus_full_kozi_run_clean": 1000,
        "bonus_full_kozi_run_dirty": 500,
        "going_out_bonus": 100,
        "penalty_no_biribaki": 100,
        "opening_table": "W1",
        "target": 3000,
        "target_rule": "above",
    },
    "catsatcards": GREEK
    | PAGAT_BONUSES
    | {
        "set_ranks": THREE_TO_ACE,
        "going_out_bonus": 100,
        "penalty_no_biribaki": 100,
        "opening_table": "C1",
        "target": 5000,
        "target_rule": "above",
    },
    "venezuelan": {
        "points_joker": 50,
        "points_ace": 20,
        "points_two": 25,
        "set_ranks": THREE_TO_ACE,
        "wild_melds": True,
        "kozi": False,
        "bonus_run_clean": 200,
        "bonus_run_dirty": 100,
        "bonus_set_clean": 300,
        "bonus_set_dirty": 150,
        "bonus_wild_meld": 500,
        "going_out_bonus": 100,
        "penalty_no_biribaki": 0,
        "penalty_no_biriba": 0,
        "cut_exact_bonus": 100,
        "cut_off_by_one_bonus": 50,
        "opening_table": None,
        "target": 2500,
        "target_rule": "at_least",
    },
    "beriba": BURACO
    | {
        "set_ranks": THREE_TO_ACE,
        "max_size": 7,
        "wild_melds": True,
        "bonus_run_clean": 200,
        "bonus_run_dirty": 100,
        "bonus_set_clean": 200,
        "bonus_set_dirty": 100,
        "bonus_kozi_run_clean": 400,
        "bonus_kozi_run_dirty": 200,
        "bonus_wild_meld": 500,
        "going_out_bonus": 100,
        "penalty_no_biriba": 100,
        "penalty_no_biribaki": 100,
        "opening_table": None,
        "target": 3000,
        "target_rule": "above",
    },
    "buraco-us": BURACO
    | {
        "set_ranks": ["J", "Q", "K", "A"],
        "ace": "both_ends",
        "kozi": False,
        "bonus_run_clean": 200,
        "bonus_run_dirty": 100,
        "bonus_set_clean": 200,
        "bonus_set_dirty": 100,
        "going_out_bonus": 100,
        "going_out_needs_clean_biriba": True,
        "penalty_no_biribaki": 100,
        "penalty_biribaki_unplayed": "card_points",
        "cut_exact_bonus": 100,
        "opening_table": "B1",
        "opening_failed_increment": 15,
        "target": 2000,
        "target_rule": "at_least",
    },
    "burraco-it": BURACO
    | {
        "set_ranks": THREE_TO_ACE,
        "kozi": False,
        "bonus_run_clean": 200,
        "bonus_run_dirty": 100,
        "bonus_set_clean": 200,
        "bonus_set_dirty": 100,
        "bonus_semiclean": 150,
        "going_out_bonus": 100,
        "penalty_no_biribaki": 100,
        "penalty_biribaki_unplayed": "card_points",
        "opening_table": None,
        "target": 2005,
        "target_rule": "above",
    },
}
# Values presets.md §4 marks *assumed*.
SPEC_ASSUMED = {
    "pagat": {"going_out_bonus", "penalty_no_biribaki"},
    "pagat-kouridakis": {"going_out_bonus", "penalty_no_biribaki"},
    "wikipedia": set(),
    "catsatcards": {"bonus_run_clean", "bonus_set_clean", "going_out_bonus", "penalty_no_biribaki"},
    "venezuelan": {"bonus_run_clean", "bonus_set_clean", "bonus_wild_meld", "going_out_bonus"},
    "beriba": {"target"},
    "buraco-us": set(),
    "burraco-it": set(),
}


@pytest.mark.parametrize("preset", PRESET_IDS)
def test_variant_options_match_presets_md(client: FlaskClient, preset: str) -> None:
    variants = client.get("/api/v1/variants").get_json()["variants"]
    found = next(v for v in variants if v["id"] == preset)
    options = found["options"]
    assert options["points_eight_to_king"] == 10
    assert options["points_three_to_seven"] == 5
    for name, value in SPEC_OPTIONS[preset].items():
        assert options[name] == value, name
    assert SPEC_ASSUMED[preset] <= set(found["assumed"])


# --- POST /api/v1/melds/check -------------------------------------------------------------------

MELDS = {
    # id: (variant, kozi, cards, legal, kind, clean, biriba, size, card_points, bonus, fragment)
    "pagat-dirty-kozi-run": ("pagat", "H", "3H 4H 2H 6H 7H", True, "run", False, False, 5,
                             5 + 5 + 10 + 5 + 5, 0, None),
    "pagat-clean-kozi-biriba-400": ("pagat", "H", "AH 2H 3H 4H 5H 6H 7H", True, "run", True,
                                    True, 7, 15 + 10 + 25, 400, None),
    "pagat-run-wraps": ("pagat", None, "KH AH 2H 3H", False, "run", None, False, 4,
                        10 + 15 + 10 + 5, 0, "wraps"),
    "kouridakis-clean-biriba-200": ("pagat-kouridakis", "D", "8S-AS", True, "run", True, True,
                                    7, 60 + 15, 200, None),
    "kouridakis-no-sets": ("pagat-kouridakis", None, "QS QH QD", False, "set", None, False, 3,
                           30, 0, "no sets"),
    "wikipedia-kozi-biriba-600": ("wikipedia", "S", "8S 9S 10S JS QS KS AS", True, "run", True,
                                  True, 7, 75, 600, None),
    "wikipedia-set-of-2s": ("wikipedia", None, "2S 2H 2D", False, "wild", None, False, 3, 30,
                            0, "set of 2s"),
    "catsatcards-dirty-set-150": ("catsatcards", None, "JK 5C 5D 5H 5S 5S 5C", True, "set",
                                  False, True, 7, 20 + 30, 150, None),
    "catsatcards-two-wilds": ("catsatcards", None, "JK 2D 5C 6C", False, "run", None, False, 4,
                              20 + 10 + 10, 0, "joker and 2♦."),
    "venezuelan-wild-biriba-500": ("venezuelan", None, "JK JK 2S 2H 2D 2C JK", True, "wild",
                                   None, True, 7, 3 * 50 + 4 * 25, 500, None),
    "venezuelan-mixed-suits": ("venezuelan", None, "4S 5S 6S 7D", False, None, None, False, 4,
                               20, 0, "7♦"),
    "beriba-joker-beriba-500": ("beriba", None, "JK JK JK JK 2S 2H 2D", True, "wild", None,
                                True, 7, 4 * 30 + 3 * 20, 500, None),
    "beriba-eight-cards": ("beriba", None, "4H 5H 6H 7H 8H 9H 10H JH", False, "run", None,
                           False, 8, 20 + 40, 0, "at most 7"),
    "buraco-us-ace-both-ends": ("buraco-us", None, "AS 2S 3S-KS AS", True, "run", True, True,
                                14, 30 + 20 + 25 + 60, 200, None),
    "buraco-us-set-of-5s": ("buraco-us", None, "5H 5D 5C", False, "set", None, False, 3, 15,
                            0, "only J Q K A"),
    "burraco-it-semipulito-150": ("burraco-it", None, "3H 4H 5H 6H 7H 8H 9H JK", True, "run",
                                  False, True, 8, 25 + 20 + 30, 150, None),
    "burraco-it-sporco-100": ("burraco-it", None, "6S 7S 8S 9S 10S JS 2D", True, "run", False,
                              True, 7, 10 + 40 + 20, 100, None),
    "burraco-it-gap": ("burraco-it", None, "3H 4H 6H", False, "run", None, False, 3, 15, 0,
                       "5♥"),
}  # fmt: skip


@pytest.mark.parametrize(
    ("variant", "kozi", "cards", "legal", "kind", "clean", "biriba", "size", "points", "bonus",
     "fragment"),
    list(MELDS.values()),
    ids=list(MELDS),
)  # fmt: skip
def test_melds_check(
    client: FlaskClient,
    variant: str,
    kozi: str | None,
    cards: str,
    legal: bool,
    kind: str | None,
    clean: bool | None,
    biriba: bool,
    size: int,
    points: int,
    bonus: int,
    fragment: str | None,
) -> None:
    status, answer = post(
        client, "melds/check", {"variant": variant, "options": {}, "kozi": kozi, "cards": cards}
    )
    assert status == 200
    assert set(answer) >= MELD_FIELDS
    assert answer["legal"] is legal
    assert answer["kind"] == kind
    assert answer["clean"] is clean
    assert answer["biriba"] is biriba
    assert answer["size"] == size
    assert answer["card_points"] == points
    assert answer["bonus"] == bonus
    assert isinstance(answer["problems"], list)
    if legal:
        assert answer["problems"] == []
    else:
        assert answer["problems"]
        assert any(fragment in p for p in answer["problems"]), answer["problems"]


def test_melds_check_architecture_example(client: FlaskClient) -> None:
    body = {"variant": "pagat", "options": {}, "kozi": "H", "cards": "3H 4H 2H 6H 7H"}
    status, answer = post(client, "melds/check", body)
    assert status == 200
    assert {k: answer[k] for k in MELD_FIELDS} == {
        "legal": True,
        "kind": "run",
        "clean": False,  # 2♥ stands for 5♥
        "biriba": False,
        "size": 5,
        "card_points": 30,  # 3H 4H 6H 7H 20 + 2H 10
        "bonus": 0,
        "problems": [],
    }


def test_melds_check_house_rule_changes_the_verdict(client: FlaskClient) -> None:
    body = {"variant": "pagat", "cards": "4D 5D 6D 7D 8D 9D 10D", "kozi": None}
    _, plain = post(client, "melds/check", body)
    assert plain["bonus"] == 200
    _, house = post(client, "melds/check", {**body, "options": {"bonus_run_clean": 250}})
    assert house["bonus"] == 250


def test_melds_check_with_format_counts_the_decks(client: FlaskClient) -> None:
    body = {"variant": "pagat", "cards": "7H 7H 7H", "format": "4p"}
    status, answer = post(client, "melds/check", body)
    assert status == 200
    assert answer["legal"] is False
    assert "7♥ appears 3 times, but two decks hold only 2." in answer["problems"]
    status, answer = post(client, "melds/check", {**body, "format": "3p"})
    assert (status, answer["legal"]) == (200, True)


def test_melds_check_without_format_counts_the_largest_decks(client: FlaskClient) -> None:
    """Issue 18: 162 aces of hearts were a legal clean biriba; no table holds more than 3."""
    body = {"variant": "pagat", "cards": " ".join(["AH"] * 162)}
    status, answer = post(client, "melds/check", body)
    assert (status, answer["legal"]) == (200, False)
    assert answer["problems"] == ["A♥ appears 162 times, but three decks hold only 3."]
    assert answer["verdict"].startswith("Not legal: A♥ appears 162 times")
    status, answer = post(client, "melds/check", {**body, "cards": "AH AH AH"})
    assert (status, answer["legal"], answer["problems"]) == (200, True, [])
    status, answer = post(client, "melds/check", {**body, "cards": "JK JK JK JK JK JK JK"})
    assert "jokers appear 7 times, but three decks hold only 6." in answer["problems"]


@pytest.mark.parametrize(
    "cards", ["", "  ", [""], []], ids=["empty", "blank", "list-of-empty", "empty-list"]
)
def test_melds_check_empty_meld_is_400(client: FlaskClient, cards: Any) -> None:
    status, answer = post(client, "melds/check", {"variant": "pagat", "cards": cards})
    assert status == 400
    assert answer == {"error": "'cards' holds no card"}


def test_hands_score_names_every_problem_of_its_teams(client: FlaskClient) -> None:
    """Every problem, not only the first: one a line in "error", each in "errors"."""
    body = two_team_body()
    body["teams"][0]["melds"] = ["", "3H 4H 5H"]
    body["teams"][1]["melds"].append("9Z 9H 9S")
    status, answer = post(client, "hands/score", body)
    assert status == 400
    assert answer["errors"] == [
        "Team A, meld 1 holds no card",
        answer["errors"][1],
    ] and answer["errors"][1].startswith("Team B, meld 3: ")
    assert answer["error"] == "\n".join(answer["errors"])


def test_hands_score_empty_meld_text_is_400_naming_the_meld(client: FlaskClient) -> None:
    body = two_team_body()
    body["teams"][0]["melds"] = [""]
    assert post(client, "hands/score", body) == (400, {"error": "Team A, meld 1 holds no card"})
    body = two_team_body()
    body["teams"][1]["melds"].append("")
    assert post(client, "hands/score", body) == (400, {"error": "Team B, meld 3 holds no card"})


# --- POST /api/v1/hands/score --------------------------------------------------------------------


def test_hands_score_architecture_example(client: FlaskClient) -> None:
    status, answer = post(client, "hands/score", EXAMPLE_SCORE_BODY)
    assert status == 200
    assert set(answer) >= HAND_FIELDS
    # the example enters one team in a 4p hand: scored, but not legal
    assert answer["legal"] is False
    assert answer["problems"] == ["The 4p format plays with 2 sides, but 1 is entered."]
    (team,) = answer["teams"]
    assert set(team) >= TEAM_FIELDS
    assert team["name"] == "A"
    # 5S-7S 15 + 8S-JS 40 + QD QC QH 30 = 85; clean biriba 200; out 100;
    # AS 15 + 9D 10 + JK 20 + 4H 5 = 50 left
    assert team["score"] == 85 + 200 + 100 - 50
    assert team["lines"] == [
        {"label": "Cards melded", "points": 85},
        {"label": "Clean biriba 5♠–J♠", "points": 200},
        {"label": "Went out", "points": 100},
        {"label": "Cards left in hands", "points": -50},
    ]
    assert team["problems"] == []
    assert team["opening_required"] == 0  # pagat has no opening table


def test_hands_score_two_teams_is_legal(client: FlaskClient) -> None:
    status, answer = post(client, "hands/score", two_team_body())
    assert status == 200
    assert answer["legal"] is True
    assert answer["problems"] == []
    a, b = answer["teams"]
    assert (a["name"], a["score"]) == ("A", 335)
    # B: 3C 4C 5C 15 + three 8s 30 − (KC 10 + 5D 5 + 7S 5) − no biribaki 100
    assert (b["name"], b["score"]) == ("B", 45 - 20 - 100)
    assert b["lines"] == [
        {"label": "Cards melded", "points": 45},
        {"label": "Cards left in hands", "points": -20},
        {"label": "No biribaki taken", "points": -100},
    ]


def test_hands_score_hand_points_and_optional_fields(client: FlaskClient) -> None:
    body = {
        "variant": "buraco-us",
        "format": "4p",
        "teams": [
            {
                "name": "Us",
                "melds": ["4H 5H 6H 7H 8H 9H 10H"],
                "hands": ["", ""],
                "went_out": True,
                "took_biribaki": True,
                "cut": "exact",
                "failed_openings": 2,
                "score_before": 1600,
                "opening": "4H 5H 6H 7H 8H 9H 10H",  # 20 + 30 = 50 < 75 + 2×15
            },
            {
                "name": "Them",
                "melds": [],
                "hand_points": 35,
                "took_biribaki": True,
                "biribaki_unplayed": "AS KS",
            },
        ],
    }
    status, answer = post(client, "hands/score", body)
    assert status == 200
    us, them = answer["teams"]
    # Us: 50 + clean 200 + out 100 + exact cut 100
    assert us["score"] == 50 + 200 + 100 + 100
    assert us["opening_required"] == 105
    assert answer["legal"] is False
    assert us["problems"] and "at least 105" in us["problems"][0]
    # Them: nothing melded; −35; unplayed pot AS 15 + KS 10
    assert them["lines"] == [
        {"label": "Cards left in hands", "points": -35},
        {"label": "Pot taken but not played", "points": -25},
    ]
    assert them["score"] == -60
    assert them["opening_required"] == 50


def test_legal_but_wrong_hand_is_200_with_legal_false(client: FlaskClient) -> None:
    body = two_team_body()
    body["teams"][0]["melds"][1] = "QD QC 5H"  # not a meld
    body["teams"][1]["went_out"] = True  # two sides out
    status, answer = post(client, "hands/score", body)
    assert status == 200
    assert answer["legal"] is False
    assert len(answer["problems"]) >= 3
    assert any(p.startswith("The meld Q♦ Q♣ 5♥ of A is not legal.") for p in answer["problems"])
    assert any("A and B" in p for p in answer["problems"])
    assert "B went out without a biriba on its side." in answer["problems"]
    # the hand carries each team's problems as they are: whole sentences naming the team
    a_problems, b_problems = (team["problems"] for team in answer["teams"])
    assert any(p.startswith("The meld Q♦ Q♣ 5♥ of A is not legal.") for p in a_problems)
    assert "B went out without a biriba on its side." in b_problems
    assert set(a_problems + b_problems) <= set(answer["problems"])


@pytest.mark.parametrize(
    "score_before",
    [
        pytest.param("1252½", id="1252-and-a-half"),
        pytest.param("−12½", id="minus-12-and-a-half"),
        pytest.param("−½", id="minus-a-half"),
        pytest.param("116⅔", id="116-and-two-thirds"),
        pytest.param("−⅓", id="minus-a-third"),
        pytest.param("7¼", id="7-and-a-quarter"),
        pytest.param("−¾", id="minus-three-quarters"),
        pytest.param("⅙", id="a-sixth"),
        pytest.param("−1⅚", id="minus-1-and-five-sixths"),
        pytest.param("2505/2", id="2505-over-2"),
    ],
)
def test_score_before_reads_every_share_the_app_writes(
    client: FlaskClient, score_before: str
) -> None:
    """points_json writes shares as text ("−½" for −1/2): a client must be able to send
    them back as score_before."""
    body = two_team_body()
    body["variant"] = "wikipedia"
    body["teams"][0]["opening"] = None
    body["teams"][1]["score_before"] = score_before
    status, answer = post(client, "hands/score", body)
    assert status == 200, answer
    assert answer["teams"][1]["opening_required"] == 75  # every one is below 1500


@pytest.mark.parametrize(
    ("score_before", "opening_required"),
    [
        # W1: at least 75 below 1500; more than 120 from 3000, and 125 is the least that meets it
        pytest.param(10_000_000, 125, id="ten-million"),
        pytest.param(-10_000_000, 75, id="minus-ten-million"),
        pytest.param("10000000", 125, id="ten-million-as-text"),
        pytest.param("−10000000", 75, id="minus-ten-million-as-text"),
    ],
)
def test_score_before_takes_up_to_ten_million_either_way(
    client: FlaskClient, score_before: int | str, opening_required: int
) -> None:
    body = two_team_body()
    body["variant"] = "wikipedia"
    body["teams"][0]["opening"] = None
    body["teams"][1]["score_before"] = score_before
    status, answer = post(client, "hands/score", body)
    assert status == 200, answer
    assert answer["teams"][1]["opening_required"] == opening_required


@pytest.mark.parametrize(
    ("score_before", "shown"),
    [
        pytest.param(10_000_001, "10000001", id="ten-million-and-one"),
        pytest.param(-10_000_001, "-10000001", id="minus-ten-million-and-one"),
        pytest.param("10000000½", '"10000000½"', id="ten-million-and-a-half"),
        pytest.param("−10000000½", '"−10000000½"', id="minus-ten-million-and-a-half"),
        pytest.param("20000002/2", '"20000002/2"', id="ten-million-and-one-as-a-fraction"),
    ],
)
def test_score_before_beyond_ten_million_is_400(
    client: FlaskClient, score_before: int | str, shown: str
) -> None:
    body = two_team_body()
    body["teams"][1]["score_before"] = score_before
    status, answer = post(client, "hands/score", body)
    assert status == 400
    assert answer == {
        "error": "Team B: 'score_before' must be a whole number or exact text like "
        f'"1252½", from -10000000 to 10000000, not {shown}'
    }


def test_format_null_means_the_default_4p(client: FlaskClient) -> None:
    body = two_team_body()
    body["format"] = None
    status, answer = post(client, "hands/score", body)
    assert status == 200
    assert answer == post(client, "hands/score", two_team_body())[1]
    assert answer["legal"] is True
    # one team is one side short of 4p, exactly as with "format": "4p"
    body = copy.deepcopy(EXAMPLE_SCORE_BODY)
    body["format"] = None
    status, answer = post(client, "hands/score", body)
    assert status == 200
    assert answer["problems"] == ["The 4p format plays with 2 sides, but 1 is entered."]


# --- 400s ---------------------------------------------------------------------------------------


def _with(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    body = two_team_body()
    target: Any = body
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return body


def _hand_points(points: Any) -> dict[str, Any]:
    """Team B with hand_points in place of its hands."""
    body = two_team_body()
    del body["teams"][1]["hands"]
    body["teams"][1]["hand_points"] = points
    return body


BAD_REQUESTS = {
    # id: (endpoint, body, fragments the error must contain)
    "unknown-variant": ("hands/score", _with(("variant",), "klaberjass"), ["'klaberjass'"]),
    "missing-variant": ("melds/check", {"cards": "3H 4H 5H"}, ["'variant'"]),
    "unknown-option": ("hands/score", _with(("options",), {"jokers_wild": True}),
                       ["'jokers_wild'"]),
    "options-not-an-object": ("hands/score", _with(("options",), ["target"]), ["'options'"]),
    "bad-option-value-int": ("hands/score", _with(("options",), {"target": "lots"}),
                             ["'target'", '"lots"']),
    "bad-option-value-enum": ("melds/check",
                              {"variant": "pagat", "options": {"ace": "sideways"},
                               "cards": "3H 4H 5H"},
                              ["'ace'", '"sideways"']),
    "bad-option-opening-table": ("hands/score", _with(("options",), {"opening_table": "Z9"}),
                                 ["'opening_table'", "Z9"]),
    "not-a-card-in-check": ("melds/check", {"variant": "pagat", "cards": "3H 4X 5H"}, ["'4X'"]),
    "not-a-card-in-meld": ("hands/score", _with(("teams", 0, "melds", 1), "QD QC 11H"),
                           ["'11H'", "A"]),
    "not-a-card-in-hand": ("hands/score", _with(("teams", 1, "hands", 0), "KC 5Z"),
                           ["'5Z'", "B"]),
    "not-a-card-in-opening": ("hands/score", _with(("teams", 0, "opening"), "QD QC QQ"),
                              ["'QQ'"]),
    "bad-range": ("melds/check", {"variant": "pagat", "cards": "9H-3H"}, ["'9H-3H'"]),
    "cards-not-text": ("melds/check", {"variant": "pagat", "cards": 345}, ["'cards'", "345"]),
    "unknown-format": ("hands/score", _with(("format",), "7p"), ["'7p'"]),
    "unknown-format-in-check": ("melds/check",
                                {"variant": "pagat", "cards": "3H 4H 5H", "format": "9p"},
                                ["'9p'"]),
    "bad-kozi": ("hands/score", _with(("kozi",), "Z"), ['"Z"', "kozi"]),
    "bad-kozi-in-check": ("melds/check", {"variant": "pagat", "kozi": 7, "cards": "3H 4H 5H"},
                          ["7", "kozi"]),
    "teams-not-a-list": ("hands/score", _with(("teams",), {"A": {}}), ["'teams'"]),
    "teams-empty": ("hands/score", _with(("teams",), []), ["'teams'"]),
    "team-not-an-object": ("hands/score", _with(("teams", 1), "B"), ["Team 2"]),
    "bad-team-field": ("hands/score", _with(("teams", 0, "colour"), "red"),
                       ['Team A: "colour" is not a field of a team']),
    "duplicate-team-names": ("hands/score", _with(("teams", 1, "name"), "A"), ['"A"']),
    "both-hands-and-hand-points": ("hands/score", _with(("teams", 0, "hand_points"), 50),
                                   ["Team A", "'hands'", "'hand_points'"]),
    "negative-hand-points": ("hands/score", _hand_points(-5), ["Team B", "'hand_points'", "-5"]),
    "bad-cut": ("hands/score", _with(("teams", 0, "cut"), "almost"), ["Team A", '"almost"']),
    "bad-went-out": ("hands/score", _with(("teams", 0, "went_out"), "yes"),
                     ["'went_out'", '"yes"']),
    "bad-score-before": ("hands/score", _with(("teams", 1, "score_before"), "lots"),
                         ["'score_before'", '"lots"']),
    "float-score-before": ("hands/score", _with(("teams", 1, "score_before"), 12.5),
                           ["'score_before'", "12.5"]),
    "melds-not-a-list": ("hands/score", _with(("teams", 0, "melds"), "QD QC QH"),
                         ["Team A", "'melds'"]),
    "bad-failed-openings": ("hands/score", _with(("teams", 0, "failed_openings"), -1),
                            ["'failed_openings'", "-1"]),
}  # fmt: skip


@pytest.mark.parametrize(
    ("endpoint", "body", "fragments"), list(BAD_REQUESTS.values()), ids=list(BAD_REQUESTS)
)
def test_bad_request_is_400_naming_the_value(
    client: FlaskClient, endpoint: str, body: Any, fragments: list[str]
) -> None:
    status, answer = post(client, endpoint, body)
    assert status == 400
    assert set(answer) == {"error"}
    for fragment in fragments:
        assert fragment in answer["error"], answer["error"]


NOT_JSON = "The request body is not valid JSON: send a JSON object."
NOT_AN_OBJECT = "The request body must be a JSON object"


@pytest.mark.parametrize("endpoint", ["melds/check", "hands/score"])
@pytest.mark.parametrize(
    ("raw", "error"),
    [
        pytest.param(b'{"variant": "pagat", "cards": ', NOT_JSON, id="malformed-json"),
        pytest.param(b"", NOT_JSON, id="empty-body"),
        pytest.param(b"[1, 2]", NOT_AN_OBJECT, id="array-body"),
        pytest.param(b'"pagat"', NOT_AN_OBJECT, id="string-body"),
        pytest.param(b"42", NOT_AN_OBJECT, id="number-body"),
    ],
)
def test_unreadable_body_is_400(client: FlaskClient, endpoint: str, raw: bytes, error: str) -> None:
    response = client.post(f"/api/v1/{endpoint}", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json() == {"error": error}


@pytest.mark.parametrize("endpoint", ["melds/check", "hands/score"])
def test_json_null_body_is_not_called_invalid_json(client: FlaskClient, endpoint: str) -> None:
    response = client.post(f"/api/v1/{endpoint}", data=b"null", content_type="application/json")
    assert response.status_code == 400
    # null is valid JSON, just not an object
    assert response.get_json() == {"error": NOT_AN_OBJECT}


ODD_BODIES = {
    "empty-cards": {"variant": "pagat", "cards": ""},
    "empty-card-list-item": {"variant": "pagat", "cards": [""]},
    "non-text-card-item": {"variant": "pagat", "cards": ["3H", 4]},
    "the-same-run-three-times": {"variant": "pagat", "cards": "AH-KH AH-KH AH-KH"},
    "range-from-a-joker": {"variant": "pagat", "cards": "JK-AS"},
    "double-dash-range": {"variant": "pagat", "cards": "3H--9H"},
    "joker-glyphs": {"variant": "pagat", "cards": "🃏 ★ X"},
    "set-ranks-not-a-list": {"variant": "pagat", "cards": "3H 4H 5H", "options": {"set_ranks": 5}},
    "set-ranks-with-2": {"variant": "pagat", "cards": "3H 4H 5H", "options": {"set_ranks": ["2"]}},
    "max-size-below-min-size": {
        "variant": "pagat",
        "cards": "3H 4H 5H",
        "options": {"max_size": 1},
    },
    "min-size-true": {"variant": "pagat", "cards": "3H 4H 5H", "options": {"min_size": True}},
    "biriba-size-0": {"variant": "pagat", "cards": "3H 4H 5H", "options": {"biriba_size": 0}},
    "max-wilds-0": {"variant": "pagat", "cards": "3H 4H 5H", "options": {"max_wilds": 0}},
    "opening-table-null": {
        "variant": "pagat",
        "cards": "3H 4H 5H",
        "options": {"opening_table": None},
    },
    "target-null": {"variant": "pagat", "cards": "3H 4H 5H", "options": {"target": None}},
    "low-only-with-3-wilds": {
        "variant": "pagat",
        "cards": "3H 4H 5H",
        "options": {"ace": "low_only", "max_wilds": 3},
    },
    "wild-meld-house-rule": {
        "variant": "pagat",
        "cards": "JK JK JK",
        "options": {"wild_melds": True},
    },
    "blank-variant": {"variant": " ", "cards": "3H 4H 5H"},
    "numeric-variant": {"variant": 5, "cards": "3H 4H 5H"},
    "kozi-as-list": {"variant": "pagat", "cards": "3H 4H 5H", "kozi": ["H"]},
    "null-hand": _with(("teams", 0, "hands"), [None]),
    "hands-as-text": _with(("teams", 0, "hands"), "AS 9D"),
    "numeric-team-name": _with(("teams", 0, "name"), 5),
    "blank-team-name": _with(("teams", 0, "name"), "  "),
    "empty-meld-text": _with(("teams", 0, "melds"), [""]),
    "meld-as-card-list": _with(("teams", 0, "melds"), [["5S", "6S", "7S"]]),
    "failed-openings-true": _with(("teams", 0, "failed_openings"), True),
    "empty-opening": _with(("teams", 0, "opening"), ""),
    "empty-biribaki-unplayed": _with(("teams", 0, "biribaki_unplayed"), ""),
    "score-before-inf": _with(("teams", 0, "score_before"), "inf"),
    "score-before-1e400": _with(("teams", 0, "score_before"), "1e400"),
    "score-before-huge-int": _with(("teams", 0, "score_before"), 10**30),
    "cut-as-list": _with(("teams", 0, "cut"), ["exact"]),
    "format-null": _with(("format",), None),
    "format-solo-vs-rest": _with(("format",), "solo-vs-rest"),
    "opening-more-than-75": _with(
        ("options",), {"opening_table": "W1", "opening_comparison": "more_than"}
    ),
}


@pytest.mark.parametrize("body", list(ODD_BODIES.values()), ids=list(ODD_BODIES))
def test_odd_requests_are_never_a_500(client: FlaskClient, body: dict[str, Any]) -> None:
    endpoint = "melds/check" if "cards" in body else "hands/score"
    status, answer = post(client, endpoint, body)
    assert status in (200, 400)
    if status == 400:
        assert isinstance(answer["error"], str) and answer["error"]


def test_answers_keep_card_symbols_readable(client: FlaskClient) -> None:
    response = client.post("/api/v1/melds/check", json={"variant": "pagat", "cards": "3H 5H"})
    assert '"3♥ 5♥"'.encode() in response.data
    assert b"\\u2665" not in response.data


@pytest.mark.parametrize(
    "raw",
    [
        pytest.param(b"[" * 5000 + b"]" * 5000, id="nested-thousands-deep"),
        pytest.param(b'{"variant": "pagat", "cards": "\\ud800"}', id="unpaired-surrogate"),
        pytest.param(b'{"variant": "pagat\\u0000", "cards": "3H"}', id="nul-character"),
    ],
)
@pytest.mark.parametrize("endpoint", ["melds/check", "hands/score"])
def test_hostile_json_is_a_400_not_a_500(client: FlaskClient, endpoint: str, raw: bytes) -> None:
    response = client.post(f"/api/v1/{endpoint}", data=raw, content_type="application/json")
    assert response.status_code == 400
    assert response.json is not None and response.json["error"]


# --- issue 10: the kózi every hand, and the opening marked by meld -------------------------


def _wikipedia(*teams: dict[str, Any]) -> dict[str, Any]:
    return {"variant": "wikipedia", "kozi": "H", "format": "4p", "teams": list(teams)}


def test_hands_score_refuses_a_kozi_variant_hand_without_its_kozi(client: FlaskClient) -> None:
    body = two_team_body()
    body["kozi"] = None
    status, answer = post(client, "hands/score", body)
    assert status == 400
    assert answer["error"] == (
        "Choose this hand's kózi: Greek Biriba (pagat.com) has one every hand."
    )
    body.pop("kozi")
    assert post(client, "hands/score", body)[0] == 400


def test_hands_score_without_kozi_where_the_house_rule_allows_it(client: FlaskClient) -> None:
    body = two_team_body()
    body["kozi"] = None
    body["options"] = {"kozi_optional": True}
    status, answer = post(client, "hands/score", body)
    assert status == 200, answer
    body["variant"], body["options"] = "buraco-us", {}  # no kózi suit at all
    assert post(client, "hands/score", body)[0] == 200


def test_hands_score_a_lone_15_point_meld_against_75_is_a_problem(client: FlaskClient) -> None:
    # Before issue 10 this passed silently: the opening was only checked when given as cards.
    body = _wikipedia(
        {"name": "A", "melds": ["AS AH AD", "KC KD KS"], "took_biribaki": True},
        {"name": "B", "melds": ["3C 4C 5C"], "took_biribaki": True},
    )
    status, answer = post(client, "hands/score", body)
    assert status == 200
    assert answer["problems"] == [
        "B needs at least 75 to open, but all its melds together hold 15 points."
    ]
    a = answer["teams"][0]
    # A could have opened (75 in all) but marked nothing: scored, with the note on its lines
    assert {"label": "Opening not checked (needed at least 75)", "points": 0} in a["lines"]
    assert a["score"] == 75 and a["opening_points"] is None


def test_hands_score_takes_the_opening_as_meld_indexes(client: FlaskClient) -> None:
    body = _wikipedia(
        {"name": "A", "melds": ["AS AH AD", "3H 4H 5H", "KC KD KS"], "opening_melds": [0, 2]},
        {"name": "B", "melds": ["QC QD QS", "8S 9S 10S"], "opening_melds": [1]},
    )
    status, answer = post(client, "hands/score", body)
    assert status == 200
    a, b = answer["teams"]
    assert a["opening_points"] == 75 and a["problems"] == []
    assert not any(line["label"].startswith("Opening") for line in a["lines"])
    assert b["opening_points"] == 30
    assert b["problems"] == [
        "The opening of B (8♠ 9♠ 10♠) is worth 30 points, but with 0 before the hand it "
        "needed at least 75."
    ]


@pytest.mark.parametrize(
    ("opening_melds", "words"),
    [
        ([0, 3], "Team A: 'opening_melds' names meld 3, but 'melds' has indexes 0 to 1"),
        ([-1], "names meld -1"),
        ([True], "'opening_melds' must be a list of meld indexes"),
        ("0", "'opening_melds' must be a list of meld indexes"),
        ([0, 0], "names a meld twice"),
    ],
)
def test_hands_score_bad_opening_melds_are_400_naming_them(
    client: FlaskClient, opening_melds: Any, words: str
) -> None:
    team = {"name": "A", "melds": ["AS AH AD", "KC KD KS"], "opening_melds": opening_melds}
    status, answer = post(client, "hands/score", _wikipedia(team))
    assert status == 400
    assert words in answer["error"]


def test_hands_score_opening_as_cards_and_melds_at_once_is_400(client: FlaskClient) -> None:
    team = {
        "name": "A",
        "melds": ["AS AH AD", "KC KD KS"],
        "opening": "AS AH AD",
        "opening_melds": [0],
    }
    status, answer = post(client, "hands/score", _wikipedia(team))
    assert status == 400
    assert "not both" in answer["error"] and "'opening_melds'" in answer["error"]
