"""The named presets of rules/presets.md §4, as data.

Each preset lists in `assumed` the options whose values fill a gap in its sources; pages show
those as assumptions, and players may change any of them as a house rule.
"""

from __future__ import annotations

from typing import Any

from .cards import Rank
from .i18n import mark, tr
from .opening import Comparison
from .variants import AceRule, Direction, OptionError, TargetRule, Variant

_BIRIBA_BONUSES = (
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


def _flat_bonuses(clean: int, dirty: int) -> dict[str, Any]:
    """One clean/dirty pair for every meld: the presets without set or kózi extras."""
    return {name: clean if name.endswith("clean") else dirty for name in _BIRIBA_BONUSES}


# Any: these dicts are spread into Variant(...) as keyword arguments of mixed types.
_GREEK_POINTS: dict[str, Any] = {
    "points_joker": 20,
    "points_ace": 15,
    "points_two": 10,
    "points_eight_to_king": 10,
    "points_three_to_seven": 5,
}
_BURACO_POINTS: dict[str, Any] = _GREEK_POINTS | {"points_joker": 30, "points_two": 20}

PAGAT = Variant(
    id="pagat",
    english_name=mark("Greek Biriba (pagat.com)"),
    **_GREEK_POINTS,
    assumed=frozenset({"going_out_bonus", "penalty_no_biribaki"}),
    sources=("pagat.com Biriba (via its Persian translation)",),
)

PAGAT_KOURIDAKIS = Variant(
    id="pagat-kouridakis",
    english_name=mark("Greek Biriba, Kouridakis' version"),
    **_GREEK_POINTS,
    set_ranks=frozenset(),
    bonus_full_kozi_run_clean=1000,
    bonus_full_kozi_run_dirty=500,
    assumed=frozenset({"going_out_bonus", "penalty_no_biribaki"}),
    sources=("pagat.com Biriba, Alexandros Kouridakis' recommended version",),
)

WIKIPEDIA = Variant(
    id="wikipedia",
    english_name=mark("Greek Biriba (Wikipedia)"),
    **(_GREEK_POINTS | {"points_joker": 25}),
    bonus_run_clean=400,
    bonus_run_dirty=200,
    bonus_kozi_run_clean=600,
    bonus_kozi_run_dirty=300,
    bonus_full_kozi_run_clean=1000,
    bonus_full_kozi_run_dirty=500,
    opening_table="W1",
    target=3000,
    sources=("Wikipedia (English), Biriba",),
)

CATSATCARDS = Variant(
    id="catsatcards",
    english_name=mark("Biriba (CatsAtCards)"),
    **_GREEK_POINTS,
    opening_table="C1",
    assumed=frozenset({*_BIRIBA_BONUSES, "going_out_bonus", "penalty_no_biribaki"}),
    sources=("CatsAtCards, How to Play Biriba",),
)

VENEZUELAN = Variant(
    id="venezuelan",
    english_name=mark("Venezuelan Biriba"),
    points_joker=50,
    points_ace=20,
    points_two=25,
    points_eight_to_king=10,
    points_three_to_seven=5,
    wild_melds=True,
    wild_meld_lockout=True,
    kozi=False,
    **(_flat_bonuses(200, 100) | {"bonus_set_clean": 300, "bonus_set_dirty": 150}),
    bonus_wild_meld=500,
    penalty_no_biribaki=0,
    cut_exact_bonus=100,
    cut_off_by_one_bonus=50,
    target=2500,
    target_rule=TargetRule.AT_LEAST,
    deal_direction=Direction.CLOCKWISE,
    # The sources name no bonus suit for this game; "kozi" fills that gap with "none".
    assumed=frozenset({*_BIRIBA_BONUSES, "bonus_wild_meld", "going_out_bonus", "kozi"}),
    sources=("Wikipedia (English), Biriba, older revision: Venezuelan version",),
)

BERIBA = Variant(
    id="beriba",
    english_name=mark("German Beriba (house rules, 2003)"),
    **_BURACO_POINTS,
    max_size=7,
    wild_melds=True,
    **(_flat_bonuses(200, 100) | {"bonus_kozi_run_clean": 400, "bonus_kozi_run_dirty": 200}),
    bonus_wild_meld=500,
    penalty_no_biriba=100,
    target=3000,
    deal_direction=Direction.CLOCKWISE,
    assumed=frozenset({"target"}),
    sources=("BERIBA house rules, Karl Heinz L., Windeck-Rossel 2003",),
    biriba_word="beriba",
    biribaki_word="beribeika",
)

BURACO_US = Variant(
    id="buraco-us",
    english_name=mark("Buraco (US rules)"),
    **_BURACO_POINTS,
    set_ranks=frozenset({Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE}),
    ace=AceRule.BOTH_ENDS,
    kozi=False,
    **_flat_bonuses(200, 100),
    going_out_needs_clean_biriba=True,
    cut_exact_bonus=100,
    opening_table="B1",
    opening_comparison=Comparison.AT_LEAST,
    opening_failed_increment=15,
    target=2000,
    target_rule=TargetRule.AT_LEAST,
    deal_direction=Direction.CLOCKWISE,
    sources=("Wikipedia, Buraco: game rules as played in the United States",),
    biriba_word="buraco",
    biribaki_word="pot",
)

BURRACO_IT = Variant(
    id="burraco-it",
    english_name=mark("Burraco (Italian federation)"),
    **_BURACO_POINTS,
    kozi=False,
    **_flat_bonuses(200, 100),
    bonus_semiclean=150,
    target=2005,
    deal_direction=Direction.CLOCKWISE,
    # No source read gives Burraco's direction of play; clockwise is the common usage.
    assumed=frozenset({"deal_direction"}),
    sources=("FIBur Codice di Gara del Burraco Italiano (article summaries on eburraco.com)",),
    biriba_word="burraco",
    biribaki_word="pozzetto",
)

PRESETS: dict[str, Variant] = {
    v.id: v
    for v in (
        PAGAT,
        PAGAT_KOURIDAKIS,
        WIKIPEDIA,
        CATSATCARDS,
        VENEZUELAN,
        BERIBA,
        BURACO_US,
        BURRACO_IT,
    )
}

_ALIASES = {"greek": "pagat", "kouridakis": "pagat-kouridakis", "buraco": "buraco-us"}


def find_variant(variant_id: str) -> Variant:
    """The preset with this id (case-insensitive, a few aliases); OptionError names a bad one."""
    key = variant_id.strip().lower().replace("_", "-")
    key = _ALIASES.get(key, key)
    try:
        return PRESETS[key]
    except KeyError:
        known = ", ".join(PRESETS)
        raise OptionError(
            tr("'{variant}' is not a variant: use one of {known}", variant=variant_id, known=known)
        ) from None
