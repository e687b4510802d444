"""The engine's messages in English and in Greek, from the one catalog (messages.po).

A table of cases, one or more for every message template: what each case produces in
English (exactly what the engine printed before it had a catalog), and in Greek, with the
compiled catalog read by the standard library as the web layer hands Flask-Babel's in. Every
case also words its message again from the message's data alone (`render`), as a stored hand
result is shown in another language. Static checks extract the engine's messages as pybabel
does, so a message without a Greek translation, or a translation that names a field the
code does not fill, fails here before it reaches a page.
"""
# Greek letters that look like Latin ones are the point of this file.
# ruff: noqa: RUF001

from __future__ import annotations

import ast
import contextvars
import gettext
import string
from collections.abc import Callable, Iterator
from fractions import Fraction
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po
from support.catalog import TRANSLATIONS, catalog

import scorekeeper.rules
from scorekeeper.rules import i18n, melds, variants, word_forms
from scorekeeper.rules.cards import JOKER, Card, Rank, Suit, parse_card, parse_cards, parse_range
from scorekeeper.rules.formats import FORMATS, Credit, TableFormat, find_format
from scorekeeper.rules.i18n import (
    Message,
    joined,
    language,
    render,
    set_translations,
    term,
    tr_for,
    using,
)
from scorekeeper.rules.match import MatchSetup, PlayedHand, Side, credits
from scorekeeper.rules.melds import judge_meld
from scorekeeper.rules.opening import Comparison, Requirement
from scorekeeper.rules.points import parse_points
from scorekeeper.rules.presets import (
    BERIBA,
    BURACO_US,
    BURRACO_IT,
    PAGAT,
    PAGAT_KOURIDAKIS,
    PRESETS,
    VENEZUELAN,
    WIKIPEDIA,
    find_variant,
)
from scorekeeper.rules.scoring import Cut, TeamHand, kozi_missing, score_hand
from scorekeeper.rules.variants import Variant, options_from_json

H, S = Suit.HEARTS, Suit.SPADES
RULES = Path(scorekeeper.rules.__file__).parent
PO = TRANSLATIONS / "el" / "LC_MESSAGES" / "messages.po"


@pytest.fixture(autouse=True)
def _english_afterwards() -> Iterator[None]:
    yield
    set_translations(None)


# --- producing each message ------------------------------------------------------------------


def error(action: Callable[..., object], *args: Any, **kwargs: Any) -> str:
    """The message of the ValueError (CardError, OptionError …) that `action` raises."""
    try:
        action(*args, **kwargs)
    except ValueError as exc:
        message = exc.args[0]
        return message if isinstance(message, Message) else str(exc)
    raise AssertionError(f"{action} raised nothing")


def label(variant: Variant, text: str, kozi: Suit | None = H) -> str:
    verdict = judge_meld(parse_cards(text), variant, kozi)
    assert verdict.legal, verdict.problems
    return verdict.bonus_label


def problems(variant: Variant, text: str, kozi: Suit | None = H) -> str:
    return joined(" ", judge_meld(parse_cards(text), variant, kozi).problems)


def team(name: str, *melds: str, **kw: Any) -> TeamHand:
    for key in ("opening", "biribaki_unplayed"):
        if isinstance(kw.get(key), str):
            kw[key] = parse_cards(kw[key])
    if "hands" in kw:
        kw["hands"] = tuple(parse_cards(h) for h in kw["hands"])
    return TeamHand(name, melds=tuple(parse_cards(m) for m in melds), **kw)


def hand(variant: Variant, *teams: TeamHand, fmt: str | TableFormat = "4p") -> str:
    """Every problem of the hand, one a line."""
    table = FORMATS[fmt] if isinstance(fmt, str) else fmt
    return joined("\n", score_hand(variant, teams, H, table).problems)


def lines(variant: Variant, one: TeamHand) -> str:
    """The score lines of `one`, scored against a side that did nothing wrong."""
    scored = score_hand(variant, [one, team("EW", took_biribaki=True)], H).teams[0]
    return joined("\n", (joined(": ", [line.label, str(line.points)]) for line in scored.lines))


def unsettable_option() -> str:
    """The guard for an option of no known type: every field is typed, so it takes a patch."""
    types = variants._FIELD_TYPES
    saved = types["target"]
    types["target"] = "float"
    try:
        return error(PAGAT.with_options, target=1)
    finally:
        types["target"] = saved


SEMI = PAGAT.with_options(bonus_semiclean=150)  # μπιρίμπα, feminine, with every label
NEUTER = BURRACO_IT.with_options(kozi=True)  # μπουράκο, neuter, with every label
FOUR_DECKS = TableFormat("x", "x", 4, 8, ((2, 2),), Credit.TEAM)
TWO_SHAPES = TableFormat("x", "x", 2, 4, ((2, 2), (1, 1, 1)), Credit.TEAM)
TEAMS = MatchSetup(PAGAT, FORMATS["4p"], ("a", "b", "c", "d"), {"NS": ("a", "c"), "EW": ("b", "d")})
SHARES = MatchSetup(PAGAT, FORMATS["3p-partnership"], ("a", "b", "c"))


class Case(NamedTuple):
    name: str
    produce: Callable[[], str]
    english: str
    greek: str


# --- the table ---------------------------------------------------------------------------------

#: Melds of each shape, clean, semi-clean and dirty; the kózi is hearts.
SHAPES = {
    "set": ("7S 7S 7D 7D 7C 7C 7H", "7S 7S 7D 7D 7C 7C 7H JK", "7S 7S 7D 7D 7C 7H JK"),
    "kozi full": ("AH-KH", "AH-QH JK", "AH 2H 3H 4H 5H 6H JK 8H 9H 10H JH QH KH"),
    "full": ("AS-KS", "AS-QS JK", "AS 2S 3S 4S 5S 6S JK 8S 9S 10S JS QS KS"),
    "kozi": ("3H-9H", "3H-9H JK", "3H 4H 5H JK 7H 8H 9H"),
    "run": ("3S-9S", "3S-9S JK", "3S 4S 5S JK 7S 8S 9S"),
}
QUALITIES = ("clean", "semi-clean", "dirty")

#: Bonus labels: shape, quality, English, Greek for μπιρίμπα, Greek for μπουράκο.
LABELS = [
    (
        "set",
        "clean",
        "Clean biriba (set)",
        "Καθαρή μπιρίμπα (αρσενική)",
        "Καθαρό μπουράκο (αρσενική)",
    ),
    (
        "set",
        "semi-clean",
        "Semi-clean biriba (set)",
        "Μισοκάθαρη μπιρίμπα (αρσενική)",
        "Μισοκάθαρο μπουράκο (αρσενική)",
    ),
    (
        "set",
        "dirty",
        "Dirty biriba (set)",
        "Βρόμικη μπιρίμπα (αρσενική)",
        "Βρόμικο μπουράκο (αρσενική)",
    ),
    (
        "kozi full",
        "clean",
        "Clean kózi full biriba",
        "Καθαρή πλήρης μπιρίμπα κόζι",
        "Καθαρό πλήρες μπουράκο κόζι",
    ),
    (
        "kozi full",
        "semi-clean",
        "Semi-clean kózi full biriba",
        "Μισοκάθαρη πλήρης μπιρίμπα κόζι",
        "Μισοκάθαρο πλήρες μπουράκο κόζι",
    ),
    (
        "kozi full",
        "dirty",
        "Dirty kózi full biriba",
        "Βρόμικη πλήρης μπιρίμπα κόζι",
        "Βρόμικο πλήρες μπουράκο κόζι",
    ),
    ("full", "clean", "Clean full biriba", "Καθαρή πλήρης μπιρίμπα", "Καθαρό πλήρες μπουράκο"),
    (
        "full",
        "semi-clean",
        "Semi-clean full biriba",
        "Μισοκάθαρη πλήρης μπιρίμπα",
        "Μισοκάθαρο πλήρες μπουράκο",
    ),
    ("full", "dirty", "Dirty full biriba", "Βρόμικη πλήρης μπιρίμπα", "Βρόμικο πλήρες μπουράκο"),
    ("kozi", "clean", "Clean kózi biriba", "Καθαρή μπιρίμπα κόζι", "Καθαρό μπουράκο κόζι"),
    (
        "kozi",
        "semi-clean",
        "Semi-clean kózi biriba",
        "Μισοκάθαρη μπιρίμπα κόζι",
        "Μισοκάθαρο μπουράκο κόζι",
    ),
    ("kozi", "dirty", "Dirty kózi biriba", "Βρόμικη μπιρίμπα κόζι", "Βρόμικο μπουράκο κόζι"),
    ("run", "clean", "Clean biriba", "Καθαρή μπιρίμπα", "Καθαρό μπουράκο"),
    ("run", "semi-clean", "Semi-clean biriba", "Μισοκάθαρη μπιρίμπα", "Μισοκάθαρο μπουράκο"),
    ("run", "dirty", "Dirty biriba", "Βρόμικη μπιρίμπα", "Βρόμικο μπουράκο"),
]

FORMAT_NAMES = {
    "4p": ("4 players, 2 teams of 2", "4 παίκτες, 2 ομάδες των 2"),
    "2p": ("2 players", "2 παίκτες"),
    "3p": ("3 players, each alone", "3 παίκτες, ο καθένας μόνος του"),
    "3p-partnership": (
        "3 players, one alone against a pair",
        "3 παίκτες, ένας μόνος του εναντίον ζευγαριού",
    ),
    "5p": (
        "5 players, one alone against two pairs",
        "5 παίκτες, ένας μόνος του εναντίον δύο ζευγαριών",
    ),
    "6p": ("6 players, 3 teams of 2", "6 παίκτες, 3 ομάδες των 2"),
    "solo-vs-rest": (
        "3 or 4 players, one alone against all the others",
        "3 ή 4 παίκτες, ένας μόνος του εναντίον όλων των άλλων",
    ),
}

PRESET_NAMES = {
    "pagat": ("Greek Biriba (pagat.com)", "Ελληνική Μπιρίμπα (pagat.com)"),
    "pagat-kouridakis": (
        "Greek Biriba, Kouridakis' version",
        "Ελληνική Μπιρίμπα, η εκδοχή του Κουριδάκη",
    ),
    "wikipedia": ("Greek Biriba (Wikipedia)", "Ελληνική Μπιρίμπα (Wikipedia)"),
    "catsatcards": ("Biriba (CatsAtCards)", "Μπιρίμπα (CatsAtCards)"),
    "venezuelan": ("Venezuelan Biriba", "Μπιρίμπα της Βενεζουέλας"),
    "beriba": ("German Beriba (house rules, 2003)", "Γερμανική Μπερίμπα (κανόνες παρέας, 2003)"),
    "buraco-us": ("Buraco (US rules)", "Buraco (κανόνες ΗΠΑ)"),
    "burraco-it": ("Burraco (Italian federation)", "Burraco (Ιταλική Ομοσπονδία)"),
}

#: Each rank in "Sets of … are not allowed", in English and in the Greek accusative.
PLURALS = {
    "A": ("aces", "άσους"),
    "3": ("3s", "τριάρια"),
    "4": ("4s", "τεσσάρια"),
    "5": ("5s", "πεντάρια"),
    "6": ("6s", "εξάρια"),
    "7": ("7s", "εφτάρια"),
    "8": ("8s", "οχτάρια"),
    "9": ("9s", "εννιάρια"),
    "10": ("10s", "δεκάρια"),
    "J": ("jacks", "βαλέδες"),
    "Q": ("queens", "ντάμες"),
    "K": ("kings", "ρηγάδες"),
}

#: Each variant's words, in Greek.
WORDS = {
    "pagat": ("μπιρίμπα", "μπιριμπάκι"),
    "beriba": ("μπερίμπα", "μπεριμπάκι"),
    "buraco-us": ("μπουράκο", "πακέτο"),
    "burraco-it": ("μπουράκο", "ποτσέτο"),
}


def _name(named: Variant | TableFormat) -> str:
    return named.name


def _label_cases() -> list[Case]:
    cases = []
    for shape, quality, english, feminine, neuter in LABELS:
        text = SHAPES[shape][QUALITIES.index(quality)]
        cases.append(
            Case(f"{quality} {shape} biriba", partial(label, SEMI, text), english, feminine)
        )
        cases.append(
            Case(
                f"{quality} {shape} burraco",
                partial(label, NEUTER, text),
                english.replace("biriba", "burraco"),
                neuter,
            )
        )
    return cases


def _set_rank_cases() -> list[Case]:
    cases = []
    for rank, (english, greek) in PLURALS.items():
        allowed = "4" if rank == "3" else "3"
        variant = PAGAT.with_options(set_ranks=[allowed])
        cases.append(
            Case(
                f"sets of {english}",
                partial(problems, variant, f"{rank}S {rank}H {rank}D"),
                f"Sets of {english} are not allowed in this variant: only {allowed} may form sets.",
                f"Σε αυτή την παραλλαγή δεν επιτρέπονται αρσενικές από {greek}: αρσενικές κάνουν "
                f"μόνο τα {allowed}.",
            )
        )
    return cases


CASES = [
    *[
        Case(f"format {id_}", partial(_name, FORMATS[id_]), english, greek)
        for id_, (english, greek) in FORMAT_NAMES.items()
    ],
    *[
        Case(f"preset {id_}", partial(_name, PRESETS[id_]), english, greek)
        for id_, (english, greek) in PRESET_NAMES.items()
    ],
    *_label_cases(),
    *_set_rank_cases(),
    Case(
        "option of no known type",
        unsettable_option,
        "Option 'target' cannot be set",
        "Η επιλογή «target» δεν αλλάζει",
    ),
    # cards
    Case(
        "joker label",
        lambda: JOKER.label,
        "joker",
        "τζόκερ",
    ),
    Case(
        "joker cards",
        lambda: " ".join(c.label for c in parse_cards("JK 3H")),
        "joker 3♥",
        "τζόκερ 3♥",
    ),
    Case(
        "joker with a suit",
        lambda: error(Card, Rank.JOKER, H),
        "a joker has no suit and every other card has one",
        "το τζόκερ δεν έχει χρώμα, ενώ κάθε άλλο φύλλο έχει",
    ),
    Case(
        "empty card",
        lambda: error(parse_card, " "),
        "an empty string is not a card",
        "ένα κενό κείμενο δεν είναι φύλλο",
    ),
    Case(
        "rank without suit",
        lambda: error(parse_card, "10"),
        "'10' is not a card: it needs a suit, suits are S H D C (or ♠ ♥ ♦ ♣)",
        "«10» δεν είναι φύλλο: του λείπει το χρώμα, που γράφεται S H D C (ή ♠ ♥ ♦ ♣)",
    ),
    Case(
        "bad suit",
        lambda: error(parse_card, "QX"),
        "'QX' is not a card: suits are S H D C (or ♠ ♥ ♦ ♣)",
        "«QX» δεν είναι φύλλο: τα χρώματα γράφονται S H D C (ή ♠ ♥ ♦ ♣)",
    ),
    Case(
        "bad rank",
        lambda: error(parse_card, "1h"),
        "'1h' is not a card: ranks are A 2–10 J Q K (T for 10), or JK for a joker",
        "«1h» δεν είναι φύλλο: οι αξίες γράφονται A 2–10 J Q K (T για το 10) ή JK για το τζόκερ",
    ),
    Case(
        "range with a joker",
        lambda: error(parse_range, "JK-5H"),
        "'JK-5H' is not a run: a range runs between two cards of one suit",
        ("«JK-5H» δεν είναι σειρά: ένα διάστημα πάει από ένα φύλλο σε ένα άλλο του ίδιου χρώματος"),
    ),
    Case(
        "range of two suits",
        lambda: error(parse_range, "3H-9S"),
        "'3H-9S' is not a run: both ends of a range need the same suit",
        "«3H-9S» δεν είναι σειρά: οι δύο άκρες ενός διαστήματος θέλουν το ίδιο χρώμα",
    ),
    Case(
        "range of one card",
        lambda: error(parse_range, "5H-5H"),
        "'5H-5H' is not a run: a range goes from one card up to a higher one",
        "«5H-5H» δεν είναι σειρά: ένα διάστημα πάει από ένα φύλλο σε ένα μεγαλύτερο",
    ),
    Case(
        "range going down",
        lambda: error(parse_range, "9H-3H"),
        (
            "'9H-3H' is not a run: a range goes up from its first card to its last, "
            "and a run never wraps past the ace"
        ),
        (
            "«9H-3H» δεν είναι σειρά: ένα διάστημα ανεβαίνει από το πρώτο του φύλλο "
            "στο τελευταίο, και μια σειρά δεν συνεχίζει ποτέ πέρα από τον άσο"
        ),
    ),
    Case(
        "double dash",
        lambda: error(parse_cards, "3H--5H"),
        "'3H--5H' is not a card or a range: write a run as 3H-9H",
        "«3H--5H» δεν είναι ούτε φύλλο ούτε διάστημα: γράψτε μια σειρά ως 3H-9H",
    ),
    # opening requirements and points
    Case(
        "no minimum",
        lambda: Requirement(0).text,
        "no minimum",
        "χωρίς ελάχιστο",
    ),
    Case(
        "at least",
        lambda: Requirement(75).text,
        "at least 75",
        "τουλάχιστον 75",
    ),
    Case(
        "more than",
        lambda: Requirement(120, Comparison.MORE_THAN).text,
        "more than 120",
        "πάνω από 120",
    ),
    Case(
        "bad points",
        lambda: error(parse_points, "12x"),
        "'12x' is not a number of points",
        "«12x» δεν είναι αριθμός πόντων",
    ),
    Case(
        "bad half points",
        lambda: error(parse_points, "x½"),
        "'x½' is not a number of points",
        "«x½» δεν είναι αριθμός πόντων",
    ),
    # table formats and presets
    Case(
        "two decks",
        lambda: FORMATS["4p"].deck_words,
        "two decks",
        "δύο τράπουλες",
    ),
    Case(
        "three decks",
        lambda: FORMATS["6p"].deck_words,
        "three decks",
        "τρεις τράπουλες",
    ),
    Case(
        "four decks",
        lambda: FOUR_DECKS.deck_words,
        "4 decks",
        "4 τράπουλες",
    ),
    Case(
        "unknown format",
        lambda: error(find_format, "9p"),
        ("'9p' is not a table format: use one of 4p, 2p, 3p, 3p-partnership, 5p, 6p, solo-vs-rest"),
        (
            "«9p» δεν είναι διάταξη τραπεζιού: διαλέξτε μία από τις 4p, 2p, 3p, "
            "3p-partnership, 5p, 6p, solo-vs-rest"
        ),
    ),
    Case(
        "unknown variant",
        lambda: error(find_variant, "rummy"),
        (
            "'rummy' is not a variant: use one of pagat, pagat-kouridakis, wikipedia,"
            " catsatcards, venezuelan, beriba, buraco-us, burraco-it"
        ),
        (
            "«rummy» δεν είναι παραλλαγή: διαλέξτε μία από τις pagat, "
            "pagat-kouridakis, wikipedia, catsatcards, venezuelan, beriba, buraco-us,"
            " burraco-it"
        ),
    ),
    # house-rule options
    Case(
        "unknown option",
        lambda: error(PAGAT.with_options, colour=1),
        "'colour' is not an option of variant pagat",
        "«colour» δεν είναι επιλογή της παραλλαγής pagat",
    ),
    Case(
        "null option",
        lambda: error(PAGAT.with_options, target=None),
        "Option 'target' needs a value, not null",
        "Η επιλογή «target» θέλει τιμή, όχι null",
    ),
    Case(
        "bad enum",
        lambda: error(PAGAT.with_options, ace="middle"),
        (
            "Option 'ace' cannot be \"middle\": use one of low_or_high, both_ends, "
            "low_only, high_only"
        ),
        (
            'Η επιλογή «ace» δεν μπορεί να είναι "middle": διαλέξτε μία από τις τιμές'
            " low_or_high, both_ends, low_only, high_only"
        ),
    ),
    Case(
        "bad bool",
        lambda: error(PAGAT.with_options, kozi=1),
        "Option 'kozi' must be true or false, not 1",
        "Η επιλογή «kozi» πρέπει να είναι true ή false, όχι 1",
    ),
    Case(
        "bad int",
        lambda: error(PAGAT.with_options, target="5"),
        "Option 'target' must be a whole number, not \"5\"",
        'Η επιλογή «target» πρέπει να είναι ακέραιος αριθμός, όχι "5"',
    ),
    Case(
        "bad text",
        lambda: error(PAGAT.with_options, opening_table=5),
        "Option 'opening_table' must be text, not 5",
        "Η επιλογή «opening_table» πρέπει να είναι κείμενο, όχι 5",
    ),
    Case(
        "set ranks not a list",
        lambda: error(PAGAT.with_options, set_ranks=5),
        "Option 'set_ranks' must be a list of ranks, not 5",
        "Η επιλογή «set_ranks» πρέπει να είναι λίστα από αξίες, όχι 5",
    ),
    Case(
        "set ranks bad rank",
        lambda: error(PAGAT.with_options, set_ranks=["Z"]),
        "Option 'set_ranks' cannot hold \"Z\": ranks are A 3–10 J Q K",
        'Η επιλογή «set_ranks» δεν μπορεί να περιέχει "Z": οι αξίες είναι A 3–10 J Q K',
    ),
    Case(
        "set ranks wild",
        lambda: error(PAGAT.with_options, set_ranks=["2"]),
        "Option 'set_ranks' cannot hold 2 or JK: a set of wild cards is no set",
        (
            "Η επιλογή «set_ranks» δεν μπορεί να περιέχει 2 ή JK: αρσενική από "
            "μπαλαντέρ δεν είναι αρσενική"
        ),
    ),
    Case(
        "min size",
        lambda: error(PAGAT.with_options, min_size=1),
        "Option 'min_size' must be at least 2, not 1",
        "Η επιλογή «min_size» πρέπει να είναι τουλάχιστον 2, όχι 1",
    ),
    Case(
        "max size",
        lambda: error(PAGAT.with_options, max_size=2),
        "Option 'max_size' (2) cannot be below 'min_size' (3)",
        "Η επιλογή «max_size» (2) δεν μπορεί να είναι μικρότερη από την «min_size» (3)",
    ),
    Case(
        "max wilds",
        lambda: error(PAGAT.with_options, max_wilds=-1),
        "Option 'max_wilds' cannot be negative (-1)",
        "Η επιλογή «max_wilds» δεν μπορεί να είναι αρνητική (-1)",
    ),
    Case(
        "biriba size",
        lambda: error(PAGAT.with_options, biriba_size=0),
        "Option 'biriba_size' must be at least 1, not 0",
        "Η επιλογή «biriba_size» πρέπει να είναι τουλάχιστον 1, όχι 0",
    ),
    Case(
        "target",
        lambda: error(PAGAT.with_options, target=0),
        "Option 'target' must be above 0, not 0",
        "Η επιλογή «target» πρέπει να είναι πάνω από 0, όχι 0",
    ),
    Case(
        "deals",
        lambda: error(PAGAT.with_options, deals=0),
        "Option 'deals' must be at least 1, or null, not 0",
        "Η επιλογή «deals» πρέπει να είναι τουλάχιστον 1, ή null, όχι 0",
    ),
    Case(
        "opening table",
        lambda: error(PAGAT.with_options, opening_table="Z9"),
        (
            "Option 'opening_table' cannot be \"Z9\": use one of W1, C1, B1, P1, P2, "
            "P3, P4, P5, P6, P7, or null"
        ),
        (
            'Η επιλογή «opening_table» δεν μπορεί να είναι "Z9": διαλέξτε έναν από '
            "τους πίνακες W1, C1, B1, P1, P2, P3, P4, P5, P6, P7 ή null"
        ),
    ),
    Case(
        "too large",
        lambda: error(PAGAT.with_options, going_out_bonus=10**40),
        "Option 'going_out_bonus' must be a whole number from 0 to 100000, not …",
        "Η επιλογή «going_out_bonus» πρέπει να είναι ακέραιος από 0 έως 100000, όχι …",
    ),
    Case(
        "negative",
        lambda: error(PAGAT.with_options, going_out_bonus=-5),
        "Option 'going_out_bonus' cannot be negative (-5)",
        "Η επιλογή «going_out_bonus» δεν μπορεί να είναι αρνητική (-5)",
    ),
    Case(
        "options not an object",
        lambda: error(options_from_json, [1]),
        "'options' must be an object of option names and values, not [1]",
        "Το «options» πρέπει να είναι αντικείμενο με ονόματα επιλογών και τιμές, όχι [1]",
    ),
    # the match
    Case(
        "teams not named",
        lambda: error(lambda: MatchSetup(PAGAT, FORMATS["4p"], ("a",)).competitors),
        "The 4p format needs its teams named.",
        "Η διάταξη 4p θέλει τα ονόματα των ομάδων.",
    ),
    Case(
        "unknown team",
        lambda: error(credits, TEAMS, PlayedHand((Side((), 10, "XY"),)), 3),
        "Hand 3: 'XY' is not a team of this match.",
        "Μοιρασιά 3: «XY» δεν είναι ομάδα αυτής της παρτίδας.",
    ),
    Case(
        "side without players",
        lambda: error(credits, SHARES, PlayedHand((Side((), 10),)), 2),
        "Hand 2: a side has no players.",
        "Μοιρασιά 2: μια ομάδα δεν έχει παίκτες.",
    ),
    Case(
        "unknown player",
        lambda: error(credits, SHARES, PlayedHand((Side(("zed",), 10),)), 4),
        "Hand 4: 'zed' is not a player of this match.",
        "Μοιρασιά 4: «zed» δεν είναι παίκτης αυτής της παρτίδας.",
    ),
    # bonus labels beyond the tables above
    Case(
        "wild beriba",
        lambda: label(BERIBA, "JK JK 2S 2H 2D 2C JK"),
        "Wild beriba",
        "Μπερίμπα από μπαλαντέρ",
    ),
    Case(
        "wild biriba",
        lambda: label(VENEZUELAN, "JK JK 2S 2H 2D 2C JK"),
        "Wild biriba",
        "Μπιρίμπα από μπαλαντέρ",
    ),
    Case(
        "buraco",
        lambda: label(BURACO_US, "3S-9S"),
        "Clean buraco",
        "Καθαρό μπουράκο",
    ),
    # meld problems
    Case(
        "too few cards",
        lambda: problems(PAGAT, "3H 4H"),
        "A meld needs at least 3 cards; this one has 2.",
        "Ένας συνδυασμός θέλει τουλάχιστον 3 φύλλα, ενώ αυτός έχει 2.",
    ),
    Case(
        "too many cards",
        lambda: problems(BERIBA, "3S-10S"),
        "A meld may hold at most 7 cards in this variant; this one has 8.",
        "Σε αυτή την παραλλαγή ένας συνδυασμός έχει το πολύ 7 φύλλα, ενώ αυτός έχει 8.",
    ),
    Case(
        "no wild allowed",
        lambda: problems(PAGAT.with_options(max_wilds=0), "3H 4H 2S"),
        (
            "A meld may hold no wild card, but this one has 2♠. 2♠ stands in as a wild "
            "card here: a 2 is natural only in its own place in a run of its own suit."
        ),
        (
            "Ένας συνδυασμός δεν μπορεί να έχει μπαλαντέρ, αλλά αυτός έχει 2♠. Το 2♠ "
            "παίζει εδώ ως μπαλαντέρ: ένα 2 είναι κανονικό φύλλο μόνο στη θέση του, σε "
            "σειρά του χρώματός του."
        ),
    ),
    Case(
        "no wild allowed, a joker: no note on 2s",
        lambda: problems(PAGAT.with_options(max_wilds=0), "3H 4H JK"),
        "A meld may hold no wild card, but this one has joker.",
        "Ένας συνδυασμός δεν μπορεί να έχει μπαλαντέρ, αλλά αυτός έχει τζόκερ.",
    ),
    Case(
        "two jokers where two wilds are allowed: no note on 2s",
        lambda: problems(PAGAT.with_options(max_wilds=2), "3S 4S JK JK JK"),
        "A meld may hold 2 wild cards, but this one has more: joker, joker and joker.",
        (
            "Ένας συνδυασμός μπορεί να έχει έως 2 μπαλαντέρ, αλλά αυτός έχει περισσότερους: "
            "τζόκερ, τζόκερ και τζόκερ."
        ),
    ),
    Case(
        "one wild allowed",
        lambda: problems(PAGAT, "3S 4S 2D JK"),
        (
            "A meld may hold only one wild card, but this one has more: 2♦ and joker. "
            "2♦ stands in as a wild card here: a 2 is natural only in its own place in a "
            "run of its own suit."
        ),
        (
            "Ένας συνδυασμός μπορεί να έχει μόνο έναν μπαλαντέρ, αλλά αυτός έχει "
            "περισσότερους: 2♦ και τζόκερ. Το 2♦ παίζει εδώ ως μπαλαντέρ: ένα 2 είναι "
            "κανονικό φύλλο μόνο στη θέση του, σε σειρά του χρώματός του."
        ),
    ),
    Case(
        "two wilds allowed",
        lambda: problems(PAGAT.with_options(max_wilds=2), "3S 4S 2D JK 2C"),
        (
            "A meld may hold 2 wild cards, but this one has more: 2♦, joker and 2♣. "
            "2♦ and 2♣ stand in as wild cards here: a 2 is natural only in its own place "
            "in a run of its own suit."
        ),
        (
            "Ένας συνδυασμός μπορεί να έχει έως 2 μπαλαντέρ, αλλά αυτός έχει "
            "περισσότερους: 2♦, τζόκερ και 2♣. Τα 2♦ και 2♣ παίζουν εδώ ως μπαλαντέρ: ένα "
            "2 είναι κανονικό φύλλο μόνο στη θέση του, σε σειρά του χρώματός του."
        ),
    ),
    Case(
        "set of 2s",
        lambda: problems(PAGAT, "2S 2H 2D"),
        "2♠ 2♥ 2♦: a set of 2s is never legal, 2s are wild.",
        "2♠ 2♥ 2♦: αρσενική από δυάρια δεν επιτρέπεται ποτέ, τα δυάρια είναι μπαλαντέρ.",
    ),
    Case(
        "wild meld",
        lambda: problems(PAGAT, "JK 2S JK"),
        "joker 2♠ joker: this variant allows no meld of wild cards only (jokers and 2s).",
        (
            "τζόκερ 2♠ τζόκερ: αυτή η παραλλαγή δεν επιτρέπει συνδυασμό μόνο από "
            "μπαλαντέρ (τζόκερ και δυάρια)."
        ),
    ),
    Case(
        "no sets",
        lambda: problems(PAGAT_KOURIDAKIS, "QH QS QD"),
        "This variant allows no sets, only runs: Q♥ Q♠ Q♦ is a set.",
        (
            "Αυτή η παραλλαγή δεν επιτρέπει αρσενικές, μόνο σειρές: τα φύλλα Q♥ Q♠ Q♦"
            " κάνουν αρσενική."
        ),
    ),
    Case(
        "sets of 7s in buraco",
        lambda: problems(BURACO_US, "7S 7H 7D"),
        "Sets of 7s are not allowed in this variant: only J Q K A may form sets.",
        (
            "Σε αυτή την παραλλαγή δεν επιτρέπονται αρσενικές από εφτάρια: αρσενικές "
            "κάνουν μόνο τα J Q K A."
        ),
    ),
    Case(
        "one card of another suit",
        lambda: problems(PAGAT, "3H 4S 5S"),
        "A run keeps to one suit: 3♥ is not ♠.",
        "Μια σειρά είναι όλη σε ένα χρώμα: το φύλλο 3♥ δεν είναι ♠.",
    ),
    Case(
        "cards of other suits",
        lambda: problems(PAGAT, "3H 4H 5S 6D 7H"),
        "A run keeps to one suit: 5♠ 6♦ are not ♥.",
        "Μια σειρά είναι όλη σε ένα χρώμα: τα φύλλα 5♠ 6♦ δεν είναι ♥.",
    ),
    Case(
        "one card of another rank",
        lambda: problems(PAGAT, "QH QS 5D"),
        "A set holds one rank: 5♦ is not Q.",
        "Μια αρσενική έχει φύλλα μίας μόνο αξίας: το φύλλο 5♦ δεν είναι Q.",
    ),
    Case(
        "cards of other ranks",
        lambda: problems(PAGAT, "QH QS QC 5D 6D"),
        "A set holds one rank: 5♦ 6♦ are not Q.",
        "Μια αρσενική έχει φύλλα μίας μόνο αξίας: τα φύλλα 5♦ 6♦ δεν είναι Q.",
    ),
    Case(
        "neither run nor set",
        lambda: problems(PAGAT, "3H 7S 9D"),
        "3♥ 7♠ 9♦ is neither a run (one suit, in sequence) nor a set (one rank).",
        ("Τα φύλλα 3♥ 7♠ 9♦ δεν είναι ούτε σειρά (ένα χρώμα, διαδοχικά) ούτε αρσενική (μία αξία)."),
    ),
    Case(
        "card twice",
        lambda: problems(PAGAT, "3H 4H 5H 5H"),
        "A run holds each card once, but 5♥ appears twice in this one.",
        (
            "Σε μια σειρά κάθε φύλλο μπαίνει μία φορά, αλλά σε αυτήν το φύλλο 5♥ εμφανίζεται "
            "δύο φορές."
        ),
    ),
    Case(
        "cards twice, in one sentence",
        lambda: problems(PAGAT, "5S 5S 6S 6S 7S"),
        "A run holds each card once, but 5♠ and 6♠ appear twice in this one.",
        (
            "Σε μια σειρά κάθε φύλλο μπαίνει μία φορά, αλλά σε αυτήν τα φύλλα 5♠ και 6♠ "
            "εμφανίζονται από δύο φορές."
        ),
    ),
    Case(
        "a card three times and cards twice, in one sentence",
        lambda: problems(PAGAT, "5S 5S 5S 6S 6S 7S 7S 8S", kozi=None),
        (
            "A run holds each card once, but 6♠ and 7♠ appear twice and 5♠ appears 3 times "
            "in this one."
        ),
        (
            "Σε μια σειρά κάθε φύλλο μπαίνει μία φορά, αλλά σε αυτήν τα φύλλα 6♠ και 7♠ "
            "εμφανίζονται από δύο φορές και το φύλλο 5♠ εμφανίζεται 3 φορές."
        ),
    ),
    Case(
        "cards three times, in one sentence",
        lambda: problems(PAGAT, "5S 5S 5S 6S 6S 6S 7S", kozi=None),
        "A run holds each card once, but 5♠ and 6♠ appear 3 times in this one.",
        (
            "Σε μια σειρά κάθε φύλλο μπαίνει μία φορά, αλλά σε αυτήν τα φύλλα 5♠ και 6♠ "
            "εμφανίζονται από 3 φορές."
        ),
    ),
    Case(
        "ace at both ends",
        lambda: problems(PAGAT, "AH 2H 3H QH KH AH JK"),
        (
            "This run has A♥ at both ends, but an ace sits low (A-2-3) or high "
            "(Q-K-A) in a run, never both. The run has a gap: 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ "
            "J♥ are missing, more than its wild card fills."
        ),
        (
            "Αυτή η σειρά έχει τον A♥ και στις δύο άκρες, αλλά σε μια σειρά ο άσος "
            "μπαίνει ή κάτω (A-2-3) ή πάνω (Q-K-A), ποτέ και στις δύο. Η σειρά έχει "
            "κενό: λείπουν τα φύλλα 4♥ 5♥ 6♥ 7♥ 8♥ 9♥ 10♥ J♥, περισσότερα απ' όσα "
            "καλύπτει ο μπαλαντέρ της."
        ),
    ),
    Case(
        "ace low only",
        lambda: problems(PAGAT.with_options(ace="low_only"), "QH KH AH"),
        "In this variant an ace is always low (A-2-3), never high.",
        "Σε αυτή την παραλλαγή ο άσος μπαίνει πάντα κάτω (A-2-3), ποτέ πάνω.",
    ),
    Case(
        "ace high only",
        lambda: problems(PAGAT.with_options(ace="high_only"), "AH 2H 3H"),
        "In this variant an ace is always high (Q-K-A), never low.",
        "Σε αυτή την παραλλαγή ο άσος μπαίνει πάντα πάνω (Q-K-A), ποτέ κάτω.",
    ),
    Case(
        "wraps",
        lambda: problems(PAGAT, "QH KH AH 2H 3H"),
        "A run never wraps around the ace: K-A-2 is not a run.",
        "Μια σειρά δεν συνεχίζει ποτέ πέρα από τον άσο: το K-A-2 δεν είναι σειρά.",
    ),
    Case(
        "one card missing",
        lambda: problems(PAGAT, "3H 5H 6H"),
        "The run has a gap: 4♥ is missing, and no wild card fills it.",
        "Η σειρά έχει κενό: λείπει το φύλλο 4♥ και δεν υπάρχει μπαλαντέρ να το καλύψει.",
    ),
    Case(
        "cards missing",
        lambda: problems(PAGAT, "3H 6H 7H"),
        "The run has a gap: 4♥ 5♥ are missing, and no wild card fills it.",
        "Η σειρά έχει κενό: λείπουν τα φύλλα 4♥ 5♥ και δεν υπάρχει μπαλαντέρ να τα καλύψει.",
    ),
    Case(
        "more missing than wilds",
        lambda: problems(PAGAT, "3H JK 7H"),
        "The run has a gap: 4♥ 5♥ 6♥ are missing, more than its wild card fills.",
        (
            "Η σειρά έχει κενό: λείπουν τα φύλλα 4♥ 5♥ 6♥, περισσότερα απ' όσα "
            "καλύπτει ο μπαλαντέρ της."
        ),
    ),
    Case(
        "too long",
        lambda: problems(PAGAT, "AH-KH JK"),
        (
            "A run can be at most 13 cards long (from A to K or from 2 to A), and "
            "never wraps around; this one would need 14."
        ),
        (
            "Μια σειρά έχει το πολύ 13 φύλλα (από A ως K ή από 2 ως A) και δεν κάνει "
            "ποτέ κύκλο, ενώ αυτή θα χρειαζόταν 14."
        ),
    ),
    Case(
        "too long, ace low",
        lambda: problems(PAGAT.with_options(ace="low_only"), "AH-KH JK"),
        (
            "A run can be at most 13 cards long (from A to K), and never wraps "
            "around; this one would need 14."
        ),
        (
            "Μια σειρά έχει το πολύ 13 φύλλα (από A ως K) και δεν κάνει ποτέ κύκλο, "
            "ενώ αυτή θα χρειαζόταν 14."
        ),
    ),
    # score lines
    Case(
        "lines of a hand",
        lambda: lines(
            PAGAT,
            team("NS", "5S-JS", "QD QC QH", went_out=True, took_biribaki=True, hands=("AS 9D", "")),
        ),
        ("Cards melded: 85\nClean biriba 5♠–J♠: 200\nWent out: 100\nCards left in hands: -25"),
        (
            "Κατεβασμένα φύλλα: 85\n"
            "Καθαρή μπιρίμπα 5♠–J♠: 200\n"
            "Κλείσιμο: 100\n"
            "Φύλλα που έμειναν στο χέρι: -25"
        ),
    ),
    Case(
        "lines without biribaki",
        lambda: lines(PAGAT, team("NS", "5S-JS", hands=("JK",), biribaki_unplayed="AS 9D")),
        (
            "Cards melded: 55\n"
            "Clean biriba 5♠–J♠: 200\n"
            "Cards left in hands: -20\n"
            "Biribaki taken but not played: -25\n"
            "No biribaki taken: -100"
        ),
        (
            "Κατεβασμένα φύλλα: 55\n"
            "Καθαρή μπιρίμπα 5♠–J♠: 200\n"
            "Φύλλα που έμειναν στο χέρι: -20\n"
            "Μπιριμπάκι που πάρθηκε αλλά δεν παίχτηκε: -25\n"
            "Δεν πήρε μπιριμπάκι: -100"
        ),
    ),
    Case(
        "lines of a cut",
        lambda: lines(VENEZUELAN, team("NS", "5S 6S 7S", hand_points=20, cut=Cut.EXACT)),
        ("Cards melded: 15\nExact cut: 100\nCards left in hands: -20"),
        ("Κατεβασμένα φύλλα: 15\nΑκριβές κόψιμο: 100\nΦύλλα που έμειναν στο χέρι: -20"),
    ),
    Case(
        "lines of a near cut",
        lambda: lines(VENEZUELAN, team("NS", "5S 6S 7S", cut=Cut.OFF_BY_ONE, took_biribaki=True)),
        ("Cards melded: 15\nCut off by one card: 50"),
        ("Κατεβασμένα φύλλα: 15\nΚόψιμο με διαφορά ενός φύλλου: 50"),
    ),
    Case(
        "lines of nothing melded",
        lambda: lines(PAGAT.with_options(penalty_nothing_melded=300), team("NS")),
        "Melded nothing: -300",
        "Δεν κατέβασε τίποτα: -300",
    ),
    Case(
        "lines without beriba",
        lambda: lines(BERIBA, team("NS", "5S 6S 7S")),
        ("Cards melded: 15\nNo beribeika taken: -100\nNo beriba: -100"),
        ("Κατεβασμένα φύλλα: 15\nΔεν πήρε μπεριμπάκι: -100\nΧωρίς μπερίμπα: -100"),
    ),
    Case(
        "lines of buraco",
        lambda: lines(
            BURACO_US, team("NS", "5S-JS", biribaki_unplayed="AS 9D", opening_melds=(0,))
        ),
        (
            "Cards melded: 55\n"
            "Clean buraco 5♠–J♠: 200\n"
            "Pot taken but not played: -25\n"
            "No pot taken: -100"
        ),
        (
            "Κατεβασμένα φύλλα: 55\n"
            "Καθαρό μπουράκο 5♠–J♠: 200\n"
            "Πακέτο που πάρθηκε αλλά δεν παίχτηκε: -25\n"
            "Δεν πήρε πακέτο: -100"
        ),
    ),
    # hand problems
    Case(
        "illegal meld",
        lambda: hand(
            PAGAT, team("NS", "3H 4H", took_biribaki=True), team("EW", took_biribaki=True)
        ),
        "The meld 3♥ 4♥ of NS is not legal. A meld needs at least 3 cards; this one has 2.",
        (
            "NS: ο συνδυασμός 3♥ 4♥ δεν είναι έγκυρος. Ένας συνδυασμός θέλει "
            "τουλάχιστον 3 φύλλα, ενώ αυτός έχει 2."
        ),
    ),
    Case(
        "out without a clean buraco",
        lambda: hand(
            BURACO_US, team("NS", "3S-9S JK", went_out=True, took_biribaki=True), team("EW")
        ),
        "NS went out without a clean buraco on its side.",
        "NS έκλεισε χωρίς να έχει κάνει καθαρό μπουράκο.",
    ),
    Case(
        "out without a clean biriba",
        lambda: hand(
            PAGAT.with_options(going_out_needs_clean_biriba=True),
            team("NS", "3S-9S JK", went_out=True, took_biribaki=True),
            team("EW"),
        ),
        "NS went out without a clean biriba on its side.",
        "NS έκλεισε χωρίς να έχει κάνει καθαρή μπιρίμπα.",
    ),
    Case(
        "out without a biriba or biribaki",
        lambda: hand(PAGAT, team("NS", "3S 4S 5S", went_out=True), team("EW")),
        (
            "NS went out without a biriba on its side.\n"
            "NS went out without having taken its biribaki."
        ),
        ("NS έκλεισε χωρίς να έχει κάνει μπιρίμπα.\nNS έκλεισε χωρίς να έχει πάρει το μπιριμπάκι."),
    ),
    Case(
        "out without a pot",
        lambda: hand(BURRACO_IT, team("NS", "3S-9S", went_out=True), team("EW")),
        "NS went out without having taken its pozzetto.",
        "NS έκλεισε χωρίς να έχει πάρει το ποτσέτο.",
    ),
    Case(
        "wild meld lockout",
        lambda: hand(VENEZUELAN, team("NS", "JK JK 2S", "3H 4H JK"), team("EW")),
        (
            "The meld 3♥ 4♥ joker of NS uses the wild card joker, but while the wild "
            "meld joker joker 2♠ of NS has fewer than 7 cards, no other meld may use "
            "a wild card."
        ),
        (
            "NS: ο συνδυασμός 3♥ 4♥ τζόκερ έχει τον μπαλαντέρ τζόκερ, αλλά όσο ο "
            "συνδυασμός από μπαλαντέρ τζόκερ τζόκερ 2♠ έχει λιγότερα από 7 φύλλα, "
            "κανένας άλλος συνδυασμός δεν μπορεί να πάρει μπαλαντέρ."
        ),
    ),
    Case(
        "cuts without bonus",
        lambda: hand(PAGAT, team("NS", cut=Cut.EXACT), team("EW", cut=Cut.OFF_BY_ONE)),
        (
            "Only the side that cut can earn a cut bonus, but NS and EW both claim "
            "one.\n"
            "NS claims an exact cut, but this variant gives no bonus for it.\n"
            "EW claims a cut off by one card, but this variant gives no bonus for it."
        ),
        (
            "Μπόνους κοψίματος παίρνει μόνο η ομάδα που έκοψε, αλλά το διεκδικούν και"
            " οι δύο: NS και EW.\n"
            "NS δηλώνει ακριβές κόψιμο, αλλά αυτή η παραλλαγή δεν δίνει μπόνους γι' "
            "αυτό.\n"
            "EW δηλώνει κόψιμο με διαφορά ενός φύλλου, αλλά αυτή η παραλλαγή δεν "
            "δίνει μπόνους γι' αυτό."
        ),
    ),
    Case(
        "failed openings",
        lambda: hand(PAGAT, team("NS", failed_openings=1), team("EW")),
        "NS lists failed opening attempts, but this variant has no rule for them.",
        (
            "NS: δηλώνονται αποτυχημένες προσπάθειες για πρώτο κατέβασμα, αλλά αυτή η"
            " παραλλαγή δεν έχει κανόνα γι' αυτές."
        ),
    ),
    Case(
        "opening without melds",
        lambda: hand(WIKIPEDIA, team("NS", opening="3H 4H 5H"), team("EW")),
        "An opening meld is given for NS, but it melded nothing.",
        "NS: δόθηκε πρώτο κατέβασμα, αλλά η ομάδα δεν κατέβασε τίποτα.",
    ),
    Case(
        "opening not melded",
        lambda: hand(PAGAT, team("NS", "3H 4H 5H", opening="3H 4H 6H"), team("EW")),
        "The opening of NS lists 6♥, which its melds do not hold.",
        (
            "NS: στο πρώτο κατέβασμα δηλώνονται φύλλα που δεν βρίσκονται στους "
            "κατεβασμένους συνδυασμούς: 6♥."
        ),
    ),
    Case(
        "opening too low",
        lambda: hand(
            WIKIPEDIA,
            team("NS", "3H 4H 5H", opening="3H 4H 5H", score_before=Fraction(3001, 2)),
            team("EW"),
        ),
        (
            "The first meld of NS (3♥ 4♥ 5♥) is worth 15 points, but with 1500½ "
            "before the hand it needed at least 90."
        ),
        (
            "NS: το πρώτο κατέβασμα (3♥ 4♥ 5♥) αξίζει 15 πόντους, αλλά με 1500½ πριν "
            "από τη μοιρασιά χρειαζόταν τουλάχιστον 90."
        ),
    ),
    Case(
        "opening needs more than",
        lambda: hand(
            WIKIPEDIA,
            team("NS", "KH KS KD JK", opening="KH KS KD JK", score_before=3000),
            team("EW"),
        ),
        (
            "The first meld of NS (K♥ K♠ K♦ joker) is worth 55 points, but with 3000 "
            "before the hand it needed more than 120."
        ),
        (
            "NS: το πρώτο κατέβασμα (K♥ K♠ K♦ τζόκερ) αξίζει 55 πόντους, αλλά με 3000"
            " πριν από τη μοιρασιά χρειαζόταν πάνω από 120."
        ),
    ),
    Case(
        "opening melds marked short",
        lambda: hand(
            WIKIPEDIA,
            team("NS", "3H 4H 5H", "QS QH QD", "KC KD KS", opening_melds=(0, 1)),
            team("EW"),
        ),
        (
            "The opening of NS (3♥ 4♥ 5♥ · Q♠ Q♥ Q♦) is worth 45 points, but with 0 "
            "before the hand it needed at least 75."
        ),
        (
            "NS: το πρώτο κατέβασμα (3♥ 4♥ 5♥ · Q♠ Q♥ Q♦) αξίζει 45 πόντους, αλλά με 0 "
            "πριν από τη μοιρασιά χρειαζόταν τουλάχιστον 75."
        ),
    ),
    Case(
        "opening melds outside the melds",
        lambda: hand(WIKIPEDIA, team("NS", "AS AH AD", "KC KD KS", opening_melds=(2,)), team("EW")),
        "The opening of NS names meld index 2, but its melds are numbered 0 to 1.",
        (
            "NS: το πρώτο κατέβασμα δείχνει τον συνδυασμό με αριθμό 2, αλλά οι "
            "συνδυασμοί της αριθμούνται από 0 έως 1."
        ),
    ),
    Case(
        "opening as cards and as melds",
        lambda: hand(
            WIKIPEDIA,
            team("NS", "AS AH AD", "KC KD KS", opening="AS AH AD", opening_melds=(0,)),
            team("EW"),
        ),
        "The opening of NS is given both as cards and as marked melds; give one.",
        (
            "NS: το πρώτο κατέβασμα δόθηκε και με φύλλα και με σημειωμένους συνδυασμούς· "
            "δώσ' το με έναν μόνο τρόπο."
        ),
    ),
    Case(
        "opening impossible with every meld",
        lambda: hand(WIKIPEDIA, team("NS", "3H 4H 5H"), team("EW")),
        "NS needs at least 75 to open, but all its melds together hold 15 points.",
        (
            "NS: για να ανοίξει χρειάζεται τουλάχιστον 75, αλλά όλοι οι συνδυασμοί της "
            "μαζί κάνουν 15 πόντους."
        ),
    ),
    Case(
        "opening not checked",
        lambda: lines(WIKIPEDIA, team("NS", "AS AH AD", "KC KD KS", took_biribaki=True)),
        "Cards melded: 75\nOpening not checked (needed at least 75): 0",
        ("Κατεβασμένα φύλλα: 75\nΤο πρώτο κατέβασμα δεν ελέγχθηκε (χρειαζόταν τουλάχιστον 75): 0"),
    ),
    Case(
        "kózi missing",
        lambda: kozi_missing(PAGAT, None) or "",
        "Choose this hand's kózi: Greek Biriba (pagat.com) has one every hand.",
        (
            "Διάλεξε το κόζι της μοιρασιάς: η παραλλαγή «Ελληνική Μπιρίμπα (pagat.com)» "
            "έχει κόζι σε κάθε μοιρασιά."
        ),
    ),
    Case(
        "one side entered",
        lambda: hand(PAGAT, team("NS")),
        "The 4p format plays with 2 sides, but 1 is entered.",
        "Η διάταξη 4p παίζεται με 2 ομάδες, αλλά δόθηκε 1.",
    ),
    Case(
        "three sides entered",
        lambda: hand(PAGAT, team("A"), team("B"), team("C")),
        "The 4p format plays with 2 sides, but 3 are entered.",
        "Η διάταξη 4p παίζεται με 2 ομάδες, αλλά δόθηκαν 3.",
    ),
    Case(
        "sides of two counts",
        lambda: hand(PAGAT, team("A"), fmt=TWO_SHAPES),
        "The x format plays with 2 or 3 sides, but 1 is entered.",
        "Η διάταξη x παίζεται με 2 ή 3 ομάδες, αλλά δόθηκε 1.",
    ),
    Case(
        "both went out",
        lambda: hand(PAGAT, team("NS", went_out=True), team("EW", went_out=True)).split("\n")[0],
        "Only one side can go out in a hand, but NS and EW are both marked as gone out.",
        (
            "Σε μια μοιρασιά μόνο μία ομάδα μπορεί να κλείσει, αλλά έχουν σημειωθεί "
            "ότι έκλεισαν και οι δύο: NS και EW."
        ),
    ),
    Case(
        "all went out",
        lambda: hand(
            PAGAT,
            team("A", went_out=True),
            team("B", went_out=True),
            team("C", went_out=True),
            fmt="6p",
        ).split("\n")[0],
        "Only one side can go out in a hand, but A, B and C are all marked as gone out.",
        (
            "Σε μια μοιρασιά μόνο μία ομάδα μπορεί να κλείσει, αλλά έχουν σημειωθεί "
            "ότι έκλεισαν όλες: A, B και C."
        ),
    ),
    Case(
        "both cut",
        lambda: hand(VENEZUELAN, team("NS", cut=Cut.EXACT), team("EW", cut=Cut.OFF_BY_ONE)),
        "Only the side that cut can earn a cut bonus, but NS and EW both claim one.",
        (
            "Μπόνους κοψίματος παίρνει μόνο η ομάδα που έκοψε, αλλά το διεκδικούν και"
            " οι δύο: NS και EW."
        ),
    ),
    Case(
        "all cut",
        lambda: hand(
            VENEZUELAN,
            team("A", cut=Cut.EXACT),
            team("B", cut=Cut.EXACT),
            team("C", cut=Cut.EXACT),
            fmt="6p",
        ),
        "Only the side that cut can earn a cut bonus, but A, B and C all claim one.",
        "Μπόνους κοψίματος παίρνει μόνο η ομάδα που έκοψε, αλλά το διεκδικούν όλες: A, B και C.",
    ),
    Case(
        "too many jokers",
        lambda: hand(PAGAT, team("NS", "JK JK 3H", "JK 5H 6H", hands=("JK JK",)), team("EW")),
        (
            "jokers appear 5 times, but two decks hold only 4.\n"
            "The meld joker joker 3♥ of NS is not legal. A meld may hold only one "
            "wild card, but this one has more: joker and joker."
        ),
        (
            "Τα τζόκερ εμφανίζονται 5 φορές, αλλά με δύο τράπουλες υπάρχουν μόνο 4.\n"
            "NS: ο συνδυασμός τζόκερ τζόκερ 3♥ δεν είναι έγκυρος. Ένας συνδυασμός "
            "μπορεί να έχει μόνο έναν μπαλαντέρ, αλλά αυτός έχει περισσότερους: τζόκερ και "
            "τζόκερ."
        ),
    ),
    Case(
        "too many of a card",
        lambda: hand(PAGAT, team("NS", "AH 2S 3H", hands=("AH",)), team("EW", hands=("AH", ""))),
        "A♥ appears 3 times, but two decks hold only 2.",
        "Το φύλλο A♥ εμφανίζεται 3 φορές, αλλά με δύο τράπουλες υπάρχουν μόνο 2.",
    ),
    Case(
        "too many of a card, four decks",
        lambda: hand(PAGAT, team("NS", "5H 5H 5H 5H 5H"), team("EW"), fmt=FOUR_DECKS),
        "5♥ appears 5 times, but 4 decks hold only 4.",
        "Το φύλλο 5♥ εμφανίζεται 5 φορές, αλλά με 4 τράπουλες υπάρχουν μόνο 4.",
    ),
    Case(
        "too many of several cards, in one sentence",
        lambda: hand(
            PAGAT,
            team("NS", "5S 6S 7S", "5H 5S 5C", hands=("6S 6S 7S 7S 7S",)),
            team("EW", hands=("5S",)),
        ),
        "5♠ and 6♠ appear 3 times and 7♠ appears 4 times, but two decks hold only 2 of each.",
        (
            "Τα φύλλα 5♠ και 6♠ εμφανίζονται από 3 φορές και το φύλλο 7♠ εμφανίζεται 4 φορές, "
            "αλλά με δύο τράπουλες υπάρχουν μόνο 2 από το καθένα."
        ),
    ),
]


# --- every message, in English and in Greek ---------------------------------------------------

#: What English is, to the engine: no translations, a NullTranslations, or a language without
#: a catalog.
ENGLISHES = {"none": None, "null": gettext.NullTranslations(), "fr": catalog("fr")}


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_greek_message(case: Case) -> None:
    with using(catalog("el")):
        assert language() == "el"
        assert case.produce() == case.greek


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_english_message_unchanged(case: Case) -> None:
    with using(None):
        assert language() == "en"
        assert case.produce() == case.english


# One test per kind of English, each over the whole table (the cases × kinds product was
# 3 × 166 tests more).
@pytest.mark.parametrize("english", ENGLISHES)
def test_every_kind_of_english_gives_the_whole_tables_english(english: str) -> None:
    with using(ENGLISHES[english]):
        assert language() == "en"
        assert [case.produce() for case in CASES] == [case.english for case in CASES]


def test_english_is_the_default() -> None:
    assert language() == "en"
    assert [case.produce() for case in CASES] == [case.english for case in CASES]


def test_the_table_names_every_case_once() -> None:
    names = [case.name for case in CASES]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_a_message_made_in_english_is_worded_in_greek_from_its_data(case: Case) -> None:
    """What a stored hand result keeps (the message's data, as JSON) is enough to show it in
    any language, without producing it again."""
    made = case.produce()
    if not isinstance(made, Message):
        pytest.skip("a part of a message (split), not a message")
    assert render(made.data) == case.english
    with using(catalog("el")):
        assert render(made.data) == case.greek


# --- the catalog against the engine's source -----------------------------------------------

#: How pybabel finds the engine's messages (OPERATING.md, "Languages").
KEYWORDS: dict[str, Any] = {
    "tr": None,
    "mark": None,
    "ntr": (1, 2),
    "ptr": ((1, "c"), 2),
    "tr_for": (2,),
    "pmark": ((1, "c"), 2),
}


def engine_messages() -> set[tuple[str | None, str | tuple[str, ...]]]:
    """(context, message id) of every message in the engine's source; a plural's id is its
    (singular, plural)."""
    found = extract_from_dir(str(RULES), [("**.py", "python")], keywords=KEYWORDS)
    return {(context, message) for _file, _line, message, _comments, context in found}


def engine_entries() -> dict[tuple[str | None, str], tuple[str, ...]]:
    """The Greek catalog's entries for the engine's messages: (context, English) → its Greek
    forms (a plural's singular and plural each with the Greek forms for it)."""
    with PO.open("rb") as po:
        entries = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in read_po(po)}
    found = {}
    for context, message in engine_messages():
        ids = (message,) if isinstance(message, str) else message
        entry = entries.get((context, ids[0]))
        strings = () if entry is None else entry.string
        if isinstance(strings, str):
            found[(context, ids[0])] = (strings,)
        else:  # Greek has two forms: one for the English singular, one for its plural
            for english, form in zip(ids, (strings[:1], strings[1:]), strict=True):
                found[(context, english)] = tuple(form)
    return found


def test_the_extraction_sees_the_engine() -> None:
    messages = engine_messages()
    assert (None, "A meld needs at least {need} cards; this one has {size}.") in messages
    assert (None, "Clean kózi full {biriba}") in messages  # a mark()ed template in a table
    assert ("n", "Clean kózi full {biriba}") in messages  # its neuter form
    assert ("variant word", "buraco") in messages
    assert ("gender", "buraco") in messages
    assert ("score line", "Went out") in messages
    assert (
        None,
        (
            "A run keeps to one suit: {cards} is not {suit}.",
            "A run keeps to one suit: {cards} are not {suit}.",
        ),
    ) in messages
    assert len(messages) > 130


_CALLS = {"tr": 0, "mark": 0, "ntr": 0, "ptr": 1, "tr_for": 1, "pmark": 1}
#: Calls whose template is looked up at run time, each from a table of `mark()`ed templates
#: or a name given with `mark()`: the source of the template argument.
_LOOKED_UP = {
    "self.english_name",  # Variant.name, TableFormat.name
    "_PLURALS[rank]",
    "self.bonus_template",  # MeldVerdict.bonus_label, from the table of labels
}


def test_every_template_of_the_engine_is_a_literal_or_a_marked_name() -> None:
    """Extraction sees only literal templates: any other must come from a marked table."""
    looked_up = set()
    for path in sorted(RULES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in _CALLS
                and path.name != "i18n.py"
            ):
                arg = node.args[_CALLS[node.func.id]]
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    looked_up.add(ast.unparse(arg))
    assert looked_up == _LOOKED_UP


def test_every_message_of_the_engine_has_a_greek_translation() -> None:
    missing = sorted(str(key) for key, forms in engine_entries().items() if not all(forms or [""]))
    assert missing == []


def test_every_message_of_the_engine_is_said_by_a_case() -> None:
    """Run the whole table in Greek noting each entry asked for: every message the engine
    declares (words, genders and gendered forms too) must be asked for by some case."""
    asked: set[tuple[str | None, str]] = set()

    class Noting(gettext.GNUTranslations):
        def gettext(self, message: str) -> str:
            asked.add((None, message))
            return super().gettext(message)

        def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
            asked.update({(None, msgid1), (None, msgid2)})
            return super().ngettext(msgid1, msgid2, n)

        def pgettext(self, context: str, message: str) -> str:
            asked.add((context, message))
            return super().pgettext(context, message)

    with (TRANSLATIONS / "el" / "LC_MESSAGES" / "messages.mo").open("rb") as mo:
        noting = Noting(mo)
    with using(noting):
        for case in CASES:
            assert case.produce() == case.greek, case.name
    assert sorted(map(str, set(engine_entries()) - asked)) == []


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name is not None}


_WORD_FIELDS = {"biriba", "Biriba", "biribaki", "Biribaki"}


def _greek_forms() -> list[tuple[tuple[str | None, str], str]]:
    """(context, English) and each Greek form of it, but the genders (a gender is no text)."""
    return [
        (key, form)
        for key, forms in engine_entries().items()
        if key[0] != "gender"
        for form in forms
    ]


def test_greek_fills_only_the_fields_the_english_has() -> None:
    """A Greek template may name only the fields of its English one (and, where the English
    names a variant's word, that word in either case: every word field is passed). A plural's
    forms may name the fields of either English form."""
    english_of = {}
    for context, message in engine_messages():
        ids = (message,) if isinstance(message, str) else message
        for english in ids:
            english_of[(context, english)] = set().union(*map(_fields, ids))
    wrong = {}
    for key, greek_form in _greek_forms():
        allowed = english_of[key]
        if allowed & _WORD_FIELDS:
            allowed = allowed | _WORD_FIELDS
        if not _fields(greek_form) <= allowed:
            wrong[key] = sorted(_fields(greek_form) - allowed)
    assert wrong == {}


def test_greek_keeps_every_card_and_number_field() -> None:
    """Dropping a field would lose what the player needs to see; only a repeated team name
    (said once in Greek), a word given in the other case and the count of a singular ("only
    one wild card", μόνο έναν) may go unused."""
    lost = {}
    for (context, english), greek_form in _greek_forms():
        unused = _fields(english) - _fields(greek_form)
        unused -= {"team"} if "{team}" in greek_form else set()
        unused -= {"most"} if "only one" in english else set()
        if unused - _WORD_FIELDS:
            lost[(context, english)] = sorted(unused)
    assert lost == {}


def test_every_greek_message_is_greek_and_tidy() -> None:
    for (_context, english), greek_form in _greek_forms():
        assert greek_form == greek_form.strip(), english
        assert "  " not in greek_form, english
        # ";" is the Greek question mark: no English semicolons in Greek text.
        assert ";" not in greek_form, english
        # Quotes around a typed token are Greek guillemets, not English quotes.
        assert "'{" not in greek_form, english
        # Each message ends as its English one does (a full stop, or none for fragments).
        assert greek_form.endswith(".") == english.endswith("."), english


# --- variant words and gender --------------------------------------------------------------


@pytest.mark.parametrize("preset_id", WORDS)
def test_words_of_a_variant(preset_id: str) -> None:
    variant = PRESETS[preset_id]
    biriba, biribaki = WORDS[preset_id]
    with using(catalog("el")):
        assert variant.words() == {
            "biriba": biriba,
            "Biriba": biriba.capitalize(),
            "biribaki": biribaki,
            "Biribaki": biribaki.capitalize(),
        }
        assert term(variant.biriba_word) == biriba
    assert variant.words()["biriba"] == variant.biriba_word
    assert variant.words()["Biribaki"] == variant.biribaki_word.capitalize()


def test_every_preset_word_is_declared_and_has_a_greek_term() -> None:
    words = {w for v in PRESETS.values() for w in (v.biriba_word, v.biribaki_word)}
    assert words == set(word_forms.WORDS)
    with using(catalog("el")):
        assert all(term(word) != word for word in words)


def test_a_word_without_a_gender_takes_the_plain_translation() -> None:
    with using(catalog("el")):
        assert tr_for("biriba", "Clean {biriba}", biriba="μπιρίμπα") == "Καθαρή μπιρίμπα"
        assert tr_for("buraco", "Clean {biriba}", biriba="μπουράκο") == "Καθαρό μπουράκο"
        # A word no catalog knows keeps its own spelling and the plain template.
        assert term("canasta") == "canasta"
        assert tr_for("canasta", "Clean {biriba}", biriba="canasta") == "Καθαρή canasta"
        # A gendered word with a template that has no gendered form.
        assert tr_for("buraco", "No {biriba}", biriba="μπουράκο") == "Χωρίς μπουράκο"
    assert tr_for("buraco", "Clean {biriba}", biriba="buraco") == "Clean buraco"


def test_a_house_rule_variant_keeps_its_presets_name() -> None:
    with using(catalog("el")):
        assert PAGAT.with_options(target=3000).name == "Ελληνική Μπιρίμπα (pagat.com)"
    assert PAGAT.with_options(target=3000).name == "Greek Biriba (pagat.com)"


# --- the language itself -------------------------------------------------------------------


def test_using_restores_the_translations_after_an_exception() -> None:
    set_translations(catalog("el"))
    with pytest.raises(RuntimeError), using(None):
        assert language() == "en"
        raise RuntimeError("boom")
    assert language() == "el"
    with pytest.raises(ValueError), using(catalog("el")):
        parse_card("ZZ")
    assert language() == "el"
    with using(None), using(catalog("el")):
        assert judge_meld(parse_cards("3H 4H"), PAGAT).problems[0].startswith("Ένας")
    assert language() == "el"


def test_translations_say_whether_they_translate() -> None:
    assert not i18n.translating()
    with using(catalog("el")):
        assert i18n.translating()
        assert i18n.translations() is catalog("el")
    with using(gettext.NullTranslations()):
        assert not i18n.translating()


def test_a_language_stays_in_its_own_context() -> None:
    # The web layer sets the translations per request; requests on other threads have their
    # own context, as a copied context shows.
    def in_greek() -> str:
        set_translations(catalog("el"))
        return JOKER.label

    assert contextvars.copy_context().run(in_greek) == "τζόκερ"
    assert language() == "en"
    assert JOKER.label == "joker"


# --- messages as data ------------------------------------------------------------------------


def test_a_message_keeps_its_id_and_values_as_json() -> None:
    verdict = judge_meld(parse_cards("3H 4H"), PAGAT, H)
    message = verdict.problems[0]
    assert isinstance(message, Message)
    assert message.data == {
        "msg": "A meld needs at least {need} cards; this one has {size}.",
        "values": {"need": 3, "size": 2},
    }
    cards = judge_meld(parse_cards("3H 4H JK JK 6H"), PAGAT, H).problems[0]
    assert cards.data["values"]["cards"] == {
        "msg": "{names} and {last}",
        "values": {"names": {"join": ", ", "parts": [{"msg": "joker"}]}, "last": {"msg": "joker"}},
    }
    with using(catalog("el")):
        assert render(cards.data) == cards.replace("joker", "τζόκερ").replace(
            "A meld may hold only one wild card, but this one has more: ",
            "Ένας συνδυασμός μπορεί να έχει μόνο έναν μπαλαντέρ, αλλά αυτός έχει περισσότερους: ",
        ).replace(" and ", " και ")


def test_render_keeps_plain_values_and_numbers() -> None:
    assert render(None) == ""
    assert render("NS") == "NS"
    assert render(5) == "5"
    assert render({"msg": "{n} {t!r}", "values": {"n": 7, "t": "x"}}) == "7 'x'"
    # stored data may come from a file: its templates may name plain fields only
    for template in ("{n:>99999}", "{n.__class__}", "{n[0]}", "{n!a}", "{0}"):
        with pytest.raises(ValueError):
            render({"msg": template, "values": {"n": 7}})


# --- the hot path ----------------------------------------------------------------------------


def test_judging_legal_melds_formats_no_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging tries several readings of the cards; for a legal meld none of their problems
    is put into words, and a biriba's label is made only when it is read."""
    asked: list[str] = []

    def noting(template: str, /, *args: object, **fields: object) -> str:
        asked.append(template)
        return template

    monkeypatch.setattr(melds, "tr", noting)
    monkeypatch.setattr(melds, "ntr", noting)
    monkeypatch.setattr(melds, "tr_for", lambda word, template, /, **f: noting(template))
    legal = ("3H 4H 2H 6H 7H", "QH KH AH", "QD QC QH", "KS KD JK", "AC 2C 3C", "AH 2H 3H 2S")
    biribas = ("3H-9H", "5S-JS", "8H 9H 10H JH QH KH JK", "AH-KH", "7D 7D 7S 7C 7H 7H JK")
    verdicts = [judge_meld(parse_cards(text), PAGAT, H) for text in (*legal, *biribas)]
    assert all(verdict.legal for verdict in verdicts)
    assert asked == []
    assert verdicts[len(legal)].bonus_label == "Clean kózi {biriba}"
    assert asked == ["Clean kózi {biriba}"]


def test_a_label_is_worded_when_it_is_read() -> None:
    verdict = judge_meld(parse_cards("3H-9H JK"), BURRACO_IT, H)
    assert verdict.bonus_template == "Semi-clean {biriba}"
    assert verdict.bonus_label == "Semi-clean burraco"
    with using(catalog("el")):
        assert verdict.bonus_label == "Μισοκάθαρο μπουράκο"
    assert judge_meld(parse_cards("3H 4H 5H"), PAGAT, H).bonus_label == ""
