"""presets.md §4: every preset as data, house rules on top of a preset, and finding a preset."""

from typing import Any

import pytest

from scorekeeper.rules.cards import Rank
from scorekeeper.rules.opening import Comparison
from scorekeeper.rules.presets import (
    BERIBA,
    BURACO_US,
    BURRACO_IT,
    CATSATCARDS,
    PAGAT,
    PAGAT_KOURIDAKIS,
    PRESETS,
    VENEZUELAN,
    WIKIPEDIA,
    find_variant,
)
from scorekeeper.rules.variants import (
    AceRule,
    Direction,
    OptionError,
    TargetRule,
    UnplayedBiribaki,
    Variant,
)

BONUS_FIELDS = (
    "bonus_run_clean",
    "bonus_run_dirty",
    "bonus_set_clean",
    "bonus_set_dirty",
    "bonus_kozi_run_clean",
    "bonus_kozi_run_dirty",
    "bonus_full_run_clean",
    "bonus_full_run_dirty",
    "bonus_full_kozi_run_clean",
    "bonus_full_kozi_run_dirty",
)
THREE_TO_ACE = "3 4 5 6 7 8 9 10 J Q K A"


def bonuses(
    run: tuple[int, int],
    set_: tuple[int, int],
    kozi: tuple[int, int],
    full: tuple[int, int],
    full_kozi: tuple[int, int],
) -> dict[str, int]:
    pairs = [run, set_, kozi, full, full_kozi]
    return {name: pairs[i // 2][i % 2] for i, name in enumerate(BONUS_FIELDS)}


def ranks(text: str) -> frozenset[Rank]:
    return frozenset(Rank(word) for word in text.split())


# One row per preset, column by column as in the §4 table of presets.md.
PRESET_TABLE: dict[str, dict[str, Any]] = {
    "pagat": {
        "name": "Greek Biriba (pagat.com)",
        "points": (20, 15, 10, 10, 5),
        "set_ranks": ranks(THREE_TO_ACE),
        "bonuses": bonuses((200, 100), (300, 150), (400, 200), (1000, 500), (2000, 1000)),
        "going_out_bonus": 100,
        "penalties": {"penalty_no_biribaki": 100, "penalty_no_biriba": 0},
        "opening": (None, None, 0),
        "target": (5000, TargetRule.ABOVE),
        "assumed": {"going_out_bonus", "penalty_no_biribaki"},
    },
    "pagat-kouridakis": {
        "name": "Greek Biriba, Kouridakis' version",
        "points": (20, 15, 10, 10, 5),
        "set_ranks": frozenset(),
        "bonuses": bonuses((200, 100), (300, 150), (400, 200), (1000, 500), (1000, 500)),
        "going_out_bonus": 100,
        "penalties": {"penalty_no_biribaki": 100, "penalty_no_biriba": 0},
        "opening": (None, None, 0),
        "target": (5000, TargetRule.ABOVE),
        "assumed": {"going_out_bonus", "penalty_no_biribaki"},
    },
    "wikipedia": {
        "name": "Greek Biriba (Wikipedia)",
        "points": (25, 15, 10, 10, 5),
        "set_ranks": ranks(THREE_TO_ACE),
        "bonuses": bonuses((400, 200), (300, 150), (600, 300), (1000, 500), (1000, 500)),
        "going_out_bonus": 100,
        "penalties": {"penalty_no_biribaki": 100, "penalty_no_biriba": 0},
        "opening": ("W1", None, 0),
        "target": (3000, TargetRule.ABOVE),
        "assumed": set(),
    },
    "catsatcards": {
        "name": "Biriba (CatsAtCards)",
        "points": (20, 15, 10, 10, 5),
        "set_ranks": ranks(THREE_TO_ACE),
        "bonuses": bonuses((200, 100), (300, 150), (400, 200), (1000, 500), (2000, 1000)),
        "going_out_bonus": 100,
        "penalties": {"penalty_no_biribaki": 100, "penalty_no_biriba": 0},
        "opening": ("C1", None, 0),
        "target": (5000, TargetRule.ABOVE),
        "assumed": {*BONUS_FIELDS, "going_out_bonus", "penalty_no_biribaki"},
    },
    "venezuelan": {
        "name": "Venezuelan Biriba",
        "points": (50, 20, 25, 10, 5),
        "set_ranks": ranks(THREE_TO_ACE),
        # No kózi: a kózi-suited or 13-card run is a run like any other.
        "bonuses": bonuses((200, 100), (300, 150), (200, 100), (200, 100), (200, 100)),
        "bonus_wild_meld": 500,
        "going_out_bonus": 100,
        "penalties": {"penalty_no_biribaki": 0, "penalty_no_biriba": 0},
        "opening": (None, None, 0),
        "target": (2500, TargetRule.AT_LEAST),
        # kozi: the sources name no bonus suit, so "no kózi" fills a gap.
        "assumed": {*BONUS_FIELDS, "bonus_wild_meld", "going_out_bonus", "kozi"},
    },
    "beriba": {
        "name": "German Beriba (house rules, 2003)",
        "points": (30, 15, 20, 10, 5),
        "set_ranks": ranks(THREE_TO_ACE),
        # One beriba value for runs and sets; 13-card runs cannot happen (max 7 cards).
        "bonuses": bonuses((200, 100), (200, 100), (400, 200), (200, 100), (200, 100)),
        "bonus_wild_meld": 500,
        "going_out_bonus": 100,
        "penalties": {"penalty_no_biribaki": 100, "penalty_no_biriba": 100},
        "opening": (None, None, 0),
        "target": (3000, TargetRule.ABOVE),
        "assumed": {"target"},
    },
    "buraco-us": {
        "name": "Buraco (US rules)",
        "points": (30, 15, 20, 10, 5),
        "set_ranks": ranks("J Q K A"),
        "bonuses": bonuses((200, 100), (200, 100), (200, 100), (200, 100), (200, 100)),
        "going_out_bonus": 100,
        "penalties": {
            "penalty_no_biribaki": 100,
            "penalty_no_biriba": 0,
            "penalty_biribaki_unplayed": UnplayedBiribaki.CARD_POINTS,
        },
        "opening": ("B1", Comparison.AT_LEAST, 15),
        "target": (2000, TargetRule.AT_LEAST),
        "assumed": set(),
    },
    "burraco-it": {
        "name": "Burraco (Italian federation)",
        "points": (30, 15, 20, 10, 5),
        "set_ranks": ranks(THREE_TO_ACE),
        "bonuses": bonuses((200, 100), (200, 100), (200, 100), (200, 100), (200, 100)),
        "bonus_semiclean": 150,
        "going_out_bonus": 100,
        "penalties": {
            "penalty_no_biribaki": 100,
            "penalty_no_biriba": 0,
            "penalty_biribaki_unplayed": UnplayedBiribaki.CARD_POINTS,
        },
        "opening": (None, None, 0),
        "target": (2005, TargetRule.ABOVE),
        # deal_direction: no source gives Burraco's direction (presets.md has no such column).
        "assumed": {"deal_direction"},
    },
}

IDS = list(PRESET_TABLE)


def test_the_table_lists_exactly_the_presets() -> None:
    assert list(PRESETS) == IDS


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} id and name") for p in IDS])
def test_name(preset_id: str) -> None:
    variant = PRESETS[preset_id]
    assert variant.id == preset_id
    assert variant.name == PRESET_TABLE[preset_id]["name"]


# What the players of each preset call a 7+ meld and the extra packet (presets.md §4 wording).
WORDS = {
    "pagat": ("biriba", "biribaki"),
    "pagat-kouridakis": ("biriba", "biribaki"),
    "wikipedia": ("biriba", "biribaki"),
    "catsatcards": ("biriba", "biribaki"),
    "venezuelan": ("biriba", "biribaki"),
    "beriba": ("beriba", "beribeika"),
    "buraco-us": ("buraco", "pot"),
    "burraco-it": ("burraco", "pozzetto"),
}


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} words") for p in IDS])
def test_words(preset_id: str) -> None:
    v = PRESETS[preset_id]
    assert (v.biriba_word, v.biribaki_word) == WORDS[preset_id]


def test_a_house_rule_keeps_the_words() -> None:
    house = BURRACO_IT.with_options(target=3000)
    assert (house.biriba_word, house.biribaki_word) == ("burraco", "pozzetto")


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} card points") for p in IDS])
def test_card_points(preset_id: str) -> None:
    v = PRESETS[preset_id]
    points = (
        v.points_joker,
        v.points_ace,
        v.points_two,
        v.points_eight_to_king,
        v.points_three_to_seven,
    )
    assert points == PRESET_TABLE[preset_id]["points"]


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} set ranks") for p in IDS])
def test_set_ranks(preset_id: str) -> None:
    assert PRESETS[preset_id].set_ranks == PRESET_TABLE[preset_id]["set_ranks"]


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} biriba bonuses") for p in IDS])
def test_biriba_bonuses(preset_id: str) -> None:
    v = PRESETS[preset_id]
    row = PRESET_TABLE[preset_id]
    assert {name: getattr(v, name) for name in BONUS_FIELDS} == row["bonuses"]
    assert v.bonus_semiclean == row.get("bonus_semiclean")
    assert v.bonus_wild_meld == row.get("bonus_wild_meld", 0)


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} going out") for p in IDS])
def test_going_out(preset_id: str) -> None:
    v = PRESETS[preset_id]
    assert v.going_out_bonus == PRESET_TABLE[preset_id]["going_out_bonus"]
    # "Whoever goes out must have a biriba on the team's side (all presets),
    # and in buraco-us a clean one."
    assert v.going_out_needs_biriba is True
    assert v.going_out_needs_clean_biriba is (preset_id == "buraco-us")


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} penalties") for p in IDS])
def test_penalties(preset_id: str) -> None:
    v = PRESETS[preset_id]
    for name, value in PRESET_TABLE[preset_id]["penalties"].items():
        assert getattr(v, name) == value, name
    assert v.penalty_nothing_melded == 0


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} opening meld") for p in IDS])
def test_opening_meld(preset_id: str) -> None:
    v = PRESETS[preset_id]
    opening = (v.opening_table, v.opening_comparison, v.opening_failed_increment)
    assert opening == PRESET_TABLE[preset_id]["opening"]


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} target and win") for p in IDS])
def test_target_and_win_rule(preset_id: str) -> None:
    v = PRESETS[preset_id]
    assert (v.target, v.target_rule) == PRESET_TABLE[preset_id]["target"]


@pytest.mark.parametrize(
    "preset_id", [pytest.param(p, id=f"{p} assumed cells of presets.md") for p in IDS]
)
def test_exactly_the_assumed_options(preset_id: str) -> None:
    assert PRESETS[preset_id].assumed == frozenset(PRESET_TABLE[preset_id]["assumed"])


# --- the notes under the §4 table ---------------------------------------------------------------

NOTES = [
    pytest.param(BURACO_US, "ace", AceRule.BOTH_ENDS, id="buraco-us ace may sit at both ends"),
    pytest.param(BURACO_US, "kozi", False, id="buraco-us has no kozi"),
    pytest.param(BURACO_US, "going_out_needs_biribaki", True, id="buraco-us going out needs pot"),
    pytest.param(BURACO_US, "cut_exact_bonus", 100, id="buraco-us exact cut of 22 is +100"),
    pytest.param(BURRACO_IT, "kozi", False, id="burraco-it has no kozi"),
    pytest.param(
        BURRACO_IT, "going_out_needs_biribaki", True, id="burraco-it closing needs the pozzetto"
    ),
    pytest.param(VENEZUELAN, "wild_melds", True, id="venezuelan allows wild melds"),
    pytest.param(VENEZUELAN, "wild_meld_lockout", True, id="venezuelan wild meld lockout"),
    pytest.param(VENEZUELAN, "cut_exact_bonus", 100, id="venezuelan exact cut is +100"),
    pytest.param(VENEZUELAN, "cut_off_by_one_bonus", 50, id="venezuelan cut off by one is +50"),
    pytest.param(BERIBA, "wild_melds", True, id="beriba allows wild melds"),
    pytest.param(BERIBA, "max_size", 7, id="beriba max 7 cards in any meld"),
    pytest.param(BERIBA, "kozi", True, id="beriba trump suit is the kozi"),
    pytest.param(PAGAT, "ace", AceRule.LOW_OR_HIGH, id="pagat ace low or high never both"),
    pytest.param(PAGAT, "wild_melds", False, id="pagat allows no wild melds"),
    pytest.param(PAGAT, "max_wilds", 1, id="pagat at most one wild per meld"),
    pytest.param(PAGAT, "min_size", 3, id="pagat melds of at least 3"),
    pytest.param(PAGAT, "biriba_size", 7, id="pagat biriba from 7 cards"),
    pytest.param(PAGAT, "max_size", None, id="pagat no max meld size"),
    pytest.param(PAGAT, "cut_exact_bonus", 0, id="pagat no cut bonus"),
    pytest.param(WIKIPEDIA, "kozi", True, id="wikipedia has atout"),
    pytest.param(PAGAT_KOURIDAKIS, "kozi", True, id="kouridakis has kozi"),
    pytest.param(CATSATCARDS, "kozi", True, id="catsatcards has kozi"),
]


@pytest.mark.parametrize(("variant", "option", "value"), NOTES)
def test_notes_on_the_table(variant: Variant, option: str, value: object) -> None:
    assert getattr(variant, option) == value


@pytest.mark.parametrize(
    "preset_id",
    [pytest.param(p, id=f"{p} at most one wild, melds of 3, biriba at 7") for p in IDS],
)
def test_rules_shared_by_all_presets(preset_id: str) -> None:
    v = PRESETS[preset_id]
    assert (v.max_wilds, v.min_size, v.biriba_size) == (1, 3, 7)
    assert v.wild_melds is (preset_id in ("venezuelan", "beriba"))


# --- house rules --------------------------------------------------------------------------------

HOUSE_RULES = [
    pytest.param({"target": 3000}, "target", 3000, id="target as a whole number"),
    pytest.param({"going_out_bonus": 0}, "going_out_bonus", 0, id="going out bonus may be 0"),
    pytest.param({"kozi": False}, "kozi", False, id="kozi off as a JSON boolean"),
    pytest.param({"ace": "both_ends"}, "ace", AceRule.BOTH_ENDS, id="ace rule as a string"),
    pytest.param(
        {"target_rule": "at_least"}, "target_rule", TargetRule.AT_LEAST, id="win rule as a string"
    ),
    pytest.param(
        {"deal_direction": "clockwise"},
        "deal_direction",
        Direction.CLOCKWISE,
        id="deal direction as a string",
    ),
    pytest.param(
        {"set_ranks": ["J", "Q", "K", "A"]},
        "set_ranks",
        frozenset({Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE}),
        id="set ranks as a JSON list",
    ),
    pytest.param(
        {"set_ranks": "a, 3"},
        "set_ranks",
        frozenset({Rank.ACE, Rank.THREE}),
        id="set ranks as text with commas and lower case",
    ),
    pytest.param(
        {"set_ranks": ["T"]}, "set_ranks", frozenset({Rank.TEN}), id="set ranks accept T for 10"
    ),
    pytest.param({"set_ranks": []}, "set_ranks", frozenset(), id="set ranks empty means runs only"),
    pytest.param({"opening_table": "P3"}, "opening_table", "P3", id="opening table P3"),
    pytest.param(
        {"opening_comparison": "more_than"},
        "opening_comparison",
        Comparison.MORE_THAN,
        id="opening comparison more than",
    ),
    pytest.param({"max_size": 7}, "max_size", 7, id="max size 7"),
    pytest.param({"max_size": None}, "max_size", None, id="max size null"),
    pytest.param({"bonus_semiclean": 150}, "bonus_semiclean", 150, id="semipulito as a house rule"),
    pytest.param(
        {"penalty_biribaki_unplayed": "flat"},
        "penalty_biribaki_unplayed",
        UnplayedBiribaki.FLAT,
        id="unplayed biribaki flat penalty",
    ),
]


@pytest.mark.parametrize(("overrides", "option", "value"), HOUSE_RULES)
def test_house_rules_accept_json_values(
    overrides: dict[str, Any], option: str, value: object
) -> None:
    house = PAGAT.with_options(**overrides)
    assert getattr(house, option) == value
    assert house.id == "pagat"


def test_a_house_rule_leaves_the_preset_unchanged() -> None:
    house = PAGAT.with_options(target=3000, set_ranks=[], going_out_bonus=0)
    assert (house.target, house.set_ranks, house.going_out_bonus) == (3000, frozenset(), 0)
    assert (PAGAT.target, PAGAT.going_out_bonus) == (5000, 100)
    assert PAGAT.set_ranks == ranks(THREE_TO_ACE)
    assert PAGAT.assumed == frozenset({"going_out_bonus", "penalty_no_biribaki"})
    assert PRESETS["pagat"] is PAGAT


@pytest.mark.parametrize(
    ("variant", "overrides", "assumed"),
    [
        pytest.param(
            PAGAT, {"going_out_bonus": 50}, {"penalty_no_biribaki"}, id="overriding removes it"
        ),
        pytest.param(
            PAGAT,
            {"going_out_bonus": 100},
            {"penalty_no_biribaki"},
            id="choosing the assumed value keeps it but as the players' own choice",
        ),
        pytest.param(
            PAGAT,
            {"going_out_bonus": 100, "penalty_no_biribaki": 50},
            set(),
            id="overriding every assumption leaves none",
        ),
        pytest.param(
            PAGAT,
            {"target": 3000},
            {"going_out_bonus", "penalty_no_biribaki"},
            id="overriding a sourced option keeps the assumptions",
        ),
        pytest.param(BERIBA, {"target": 5000}, set(), id="beriba target set by the players"),
        pytest.param(
            VENEZUELAN,
            {"bonus_wild_meld": 400},
            # kozi stays assumed: the sources name no bonus suit for venezuelan.
            {*BONUS_FIELDS, "going_out_bonus", "kozi"},
            id="venezuelan wild biriba value set by the players",
        ),
        pytest.param(
            BURRACO_IT,
            {"deal_direction": "anticlockwise"},
            set(),
            id="burraco-it direction set by the players",
        ),
    ],
)
def test_overriding_an_option_removes_it_from_assumed(
    variant: Variant, overrides: dict[str, Any], assumed: set[str]
) -> None:
    assert variant.with_options(**overrides).assumed == frozenset(assumed)


def test_no_overrides_is_the_preset_itself() -> None:
    assert WIKIPEDIA.with_options() is WIKIPEDIA


BAD_OPTIONS = [
    pytest.param(
        {"colour": "red"}, "'colour' is not an option of variant pagat", id="unknown option"
    ),
    pytest.param({"id": "mine"}, "'id' is not an option of variant pagat", id="id is no option"),
    pytest.param(
        {"assumed": []}, "'assumed' is not an option of variant pagat", id="assumed is no option"
    ),
    pytest.param(
        {"biriba_word": "meld"},
        "'biriba_word' is not an option of variant pagat",
        id="biriba word is no option",
    ),
    pytest.param(
        {"biribaki_word": "pot"},
        "'biribaki_word' is not an option of variant pagat",
        id="biribaki word is no option",
    ),
    pytest.param(
        {"target": "lots"},
        "Option 'target' must be a whole number, not \"lots\"",
        id="text for a number",
    ),
    pytest.param(
        {"target": 2.5}, "Option 'target' must be a whole number, not 2.5", id="fraction for int"
    ),
    pytest.param(
        {"target": True}, "Option 'target' must be a whole number, not true", id="bool for int"
    ),
    pytest.param(
        {"target": ["A"]},
        "Option 'target' must be a whole number, not [\"A\"]",
        id="list for int is shown as JSON",
    ),
    pytest.param(
        {"kozi": "yes"}, "Option 'kozi' must be true or false, not \"yes\"", id="text for a bool"
    ),
    pytest.param({"kozi": 1}, "Option 'kozi' must be true or false, not 1", id="int for a bool"),
    pytest.param(
        {"ace": "sideways"},
        "Option 'ace' cannot be \"sideways\": "
        "use one of low_or_high, both_ends, low_only, high_only",
        id="unknown ace rule lists the allowed ones",
    ),
    pytest.param(
        {"target_rule": "exceed"},
        "Option 'target_rule' cannot be \"exceed\": use one of above, at_least",
        id="unknown win rule",
    ),
    pytest.param(
        {"going_out_bonus": None},
        "Option 'going_out_bonus' needs a value, not null",
        id="null for a required number",
    ),
    pytest.param(
        {"set_ranks": ["Z"]},
        "Option 'set_ranks' cannot hold \"Z\": ranks are A 3–10 J Q K",
        id="unknown rank in set ranks",
    ),
    pytest.param(
        {"set_ranks": ["A", None]},
        "Option 'set_ranks' cannot hold null: ranks are A 3–10 J Q K",
        id="null in set ranks is shown as JSON",
    ),
    pytest.param(
        {"set_ranks": ["JK"]},
        "Option 'set_ranks' cannot hold 2 or JK: a set of wild cards is no set",
        id="jokers in set ranks",
    ),
    pytest.param(
        {"set_ranks": 5},
        "Option 'set_ranks' must be a list of ranks, not 5",
        id="a number for set ranks",
    ),
    pytest.param(
        {"opening_table": "W9"},
        "Option 'opening_table' cannot be \"W9\": use one of W1, C1, B1, P1, P2, P3, P4, P5, "
        "P6, P7, or null",
        id="unknown opening table",
    ),
    pytest.param(
        {"opening_table": 1}, "Option 'opening_table' must be text, not 1", id="number as table"
    ),
    pytest.param(
        {"min_size": 1}, "Option 'min_size' must be at least 2, not 1", id="min size below 2"
    ),
    pytest.param(
        {"max_size": 2},
        "Option 'max_size' (2) cannot be below 'min_size' (3)",
        id="max size below min size",
    ),
    pytest.param(
        {"max_wilds": -1}, "Option 'max_wilds' cannot be negative (-1)", id="negative max wilds"
    ),
    pytest.param(
        {"biriba_size": 0}, "Option 'biriba_size' must be at least 1, not 0", id="biriba size 0"
    ),
    pytest.param({"target": 0}, "Option 'target' must be above 0, not 0", id="target 0"),
    pytest.param(
        {"bonus_run_clean": -200},
        "Option 'bonus_run_clean' cannot be negative (-200)",
        id="negative bonus",
    ),
    pytest.param(
        {"penalty_no_biribaki": -100},
        "Option 'penalty_no_biribaki' cannot be negative (-100)",
        id="penalties are positive numbers",
    ),
]


@pytest.mark.parametrize(("overrides", "message"), BAD_OPTIONS)
def test_bad_house_rules_name_the_option(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError) as raised:
        PAGAT.with_options(**overrides)
    assert str(raised.value) == message


def test_option_error_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="'colour'"):
        PAGAT.with_options(colour="red")


# --- options as JSON ----------------------------------------------------------------------------


def test_options_are_json_ready() -> None:
    options = BURACO_US.options()
    assert options["set_ranks"] == ["J", "Q", "K", "A"]
    assert options["ace"] == "both_ends"
    assert options["opening_table"] == "B1"
    assert options["opening_comparison"] == "at_least"
    assert options["target"] == 2000
    assert options["target_rule"] == "at_least"
    assert options["max_size"] is None
    assert {"id", "name", "assumed", "sources", "biriba_word", "biribaki_word"}.isdisjoint(options)


def test_set_ranks_list_in_run_order_with_the_ace_last() -> None:
    assert PAGAT.options()["set_ranks"] == [
        "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"
    ]  # fmt: skip


@pytest.mark.parametrize("preset_id", [pytest.param(p, id=f"{p} options round-trip") for p in IDS])
def test_options_round_trip_through_with_options(preset_id: str) -> None:
    variant = PRESETS[preset_id]
    copy = variant.with_options(**variant.options())
    assert copy.options() == variant.options()
    # Every option was set by the players, so nothing is an assumption any more.
    assert copy.assumed == frozenset()


# --- finding a preset ---------------------------------------------------------------------------

FIND = [
    pytest.param("pagat", PAGAT, id="by id"),
    pytest.param("PAGAT", PAGAT, id="any case"),
    pytest.param("  wikipedia ", WIKIPEDIA, id="spaces around"),
    pytest.param("buraco_us", BURACO_US, id="underscore for hyphen"),
    pytest.param("burraco-it", BURRACO_IT, id="burraco-it by id"),
    pytest.param("greek", PAGAT, id="alias greek"),
    pytest.param("kouridakis", PAGAT_KOURIDAKIS, id="alias kouridakis"),
    pytest.param("buraco", BURACO_US, id="alias buraco"),
]


@pytest.mark.parametrize(("name", "variant"), FIND)
def test_find_variant(name: str, variant: Variant) -> None:
    assert find_variant(name) is variant


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("canasta", id="unknown game"),
        pytest.param("", id="empty name"),
        pytest.param("pagat2", id="near miss"),
    ],
)
def test_find_variant_errors_name_the_variant_and_list_the_presets(name: str) -> None:
    with pytest.raises(OptionError) as raised:
        find_variant(name)
    assert str(raised.value) == (
        f"'{name}' is not a variant: use one of pagat, pagat-kouridakis, wikipedia, "
        "catsatcards, venezuelan, beriba, buraco-us, burraco-it"
    )
