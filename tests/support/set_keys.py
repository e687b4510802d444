"""The card picker's set keys, as the browser tests check them (tests/web/
test_entry_dock_browser.py in the dock, tests/web/test_picker_browser.py without it): what
each three-card set key writes after a lone natural card, and the melds that get none."""

from __future__ import annotations

from typing import NamedTuple


class ThreeSets(NamedTuple):
    """A meld's lone first card, the words on its three-card set keys (in their order) and
    what the meld's field holds after each key."""

    first: str
    words: tuple[str, str, str]
    writes: tuple[str, str, str]


THREE_SETS = [
    ThreeSets("KH", ("+♠♦", "+♠♣", "+♦♣"), ("KH KS KD", "KH KS KC", "KH KD KC")),
    ThreeSets("3S", ("+♥♦", "+♥♣", "+♦♣"), ("3S 3H 3D", "3S 3H 3C", "3S 3D 3C")),
    ThreeSets("AC", ("+♠♥", "+♠♦", "+♥♦"), ("AC AS AH", "AC AS AD", "AC AH AD")),
]


class NoThreeSets(NamedTuple):
    """Cards tapped into a meld that get no three-card set key, and whether the set key of
    all the missing suits is there instead."""

    cards: tuple[str, ...]
    why: str
    set_key: bool


NO_THREE_SETS = [
    NoThreeSets(("KH", "KS"), "two cards of a set", True),
    NoThreeSets(("KH", "JK"), "a card and a joker", True),
    NoThreeSets(("2C",), "a 2 alone", False),
    NoThreeSets(("JK",), "a joker alone", False),
    NoThreeSets(("5D", "6D"), "a run", False),
]

# Each key's spoken name, the catalog's suits_key: the cards it writes, as the picker says them.
SPOKEN = {"en": "Add {cards} to the set", "el": "Βάλε τα {cards} στις ντόπιες"}


def card_words(codes: str) -> str:
    """Cards as the picker says them: "KS KD" → "K♠ K♦"."""
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return " ".join(code[:-1] + symbols[code[-1]] for code in codes.split())


def added(ready: ThreeSets, key: int) -> str:
    """The cards key number `key` adds: what it writes after the first card."""
    return ready.writes[key].split(" ", 1)[1]
