"""Words of the game in the page's language: each preset's word for a biriba and for the
biribaki, opening minimums, cards, ranks and suits. Card codes and symbols (3♥, JK) stay as
they are in every language; only names that are spelled out are translated."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from scorekeeper.rules.cards import Card, Suit
from scorekeeper.rules.opening import Comparison, Requirement
from scorekeeper.rules.variants import Direction, Variant

#: Each preset's own word for a biriba and for the biribaki, in the page's language.
_BIRIBA_WORDS = {
    "biriba": _l("biriba"),
    "beriba": _l("beriba"),
    "buraco": _l("buraco"),
    "burraco": _l("burraco"),
}
_POT_WORDS = {
    "biribaki": _l("biribaki"),
    "beribeika": _l("beribeika"),
    "pot": _l("pot"),
    "pozzetto": _l("pozzetto"),
}


def word_of(variant: Variant) -> str:
    """The variant's word for a biriba (biriba, beriba, buraco…), in the page's language."""
    word = variant.biriba_word
    return str(_BIRIBA_WORDS[word]) if word in _BIRIBA_WORDS else word


def pot_of(variant: Variant) -> str:
    """The variant's word for the biribaki (biribaki, pot, pozzetto…), in the page's language."""
    pot = variant.biribaki_word
    return str(_POT_WORDS[pot]) if pot in _POT_WORDS else pot


def requirement_text(needs: Requirement) -> str:
    """An opening minimum in words: "at least 75", "more than 120", "no minimum"."""
    if needs.points == 0 and needs.comparison is Comparison.AT_LEAST:
        return _("no minimum")
    if needs.comparison is Comparison.MORE_THAN:
        return _("more than %(points)d", points=needs.points)
    return _("at least %(points)d", points=needs.points)


def opening_line(needs: str, needed: int, points: int | None) -> str:
    """The line under a team on the hand form: what its opening needs (`needs`, as
    requirement_text words it) and what its marked melds hold; the phone's offline preview
    words it with this too."""
    if not needed:
        return _("no opening minimum this hand")
    if points is None:
        return _("needs %(needs)s · no opening marked yet", needs=needs)
    return _("needs %(needs)s · opening so far %(points)d", needs=needs, points=points)


def card_label(card: Card) -> str:
    """A card as players read it: 10♥, A♠, or the joker by name in the page's language."""
    return _("joker") if card.suit is None else card.label


SUIT_NAMES = {
    Suit.SPADES: _l("spades"),
    Suit.HEARTS: _l("hearts"),
    Suit.DIAMONDS: _l("diamonds"),
    Suit.CLUBS: _l("clubs"),
}
#: The kózi buttons: value sent, symbol shown, name read out, red suit or not.
SUIT_CHOICES: tuple[tuple[str, str, Any, bool], ...] = (
    *((suit.value, suit.symbol, SUIT_NAMES[suit], suit.red) for suit in Suit),
    ("", "–", _l("none"), False),
)
#: The card picker's suits (templates/macros/cards.html): code, symbol, red or not.
SUIT_FACES = tuple((suit.value, suit.symbol, suit.red) for suit in Suit)


def red_suit(text: str | None) -> bool:
    """Whether a kózi as a page shows it ("♥", or "H") is a red suit: drawn in red."""
    return any(text in (suit.value, suit.symbol) for suit in Suit if suit.red)


def picker_words() -> dict[str, str]:
    """What static/js/card-picker.js says while cards are tapped: templates with %(name)s
    fields, filled in by the script."""
    return {
        "filled": _("%(first)s to %(last)s filled in as a run; ⌫ keeps only the two cards."),
        "run_undone": _("Only the two cards tapped, up to %(card)s."),
        "new_meld": _("%(card)s starts the next meld; ⌫ puts it in the meld before."),
        "meld_undone": _("%(card)s joined the meld before."),
        "suits_key": _("Add %(cards)s to the set"),
        "suits_added": _("%(cards)s added; ⌫ takes them back."),
        "suits_undone": _("%(cards)s taken back out of the set."),
        "typing": _("Keyboard on: type the cards (3H-9H is a run); ⌨ again for the picker."),
        "field_first": _("Tap a card field first, then the cards."),
        "joker": _("joker"),
    }


def dock_words() -> dict[str, str]:
    """What static/js/entry-dock.js says of its own steps: templates with %(name)s fields,
    filled in by the script with the teams' names."""
    return {
        # The joined step's spoken name: the fact it enters, and where it goes next.
        "out_next": _("%(team)s went out, then %(next)s"),
        "out_left": _("%(team)s went out, then the cards left"),
        # What it did, on the dock's status line; the page's toggle takes it back.
        "out_done": _("%(team)s went out; untick “Went out” to take it back."),
    }


def deal_text(direction: Direction, order: Sequence[str]) -> str:
    """Which way the deal goes and whom it reaches, for checking "next to deal" at the table:
    "The deal passes to the right: Eleni → Kostas → Giorgos → Maria". Seats go clockwise, so
    a clockwise deal passes to the dealer's left."""
    names = " → ".join(order)
    if direction is Direction.ANTICLOCKWISE:
        return _("The deal passes to the right: %(order)s", order=names)
    return _("The deal passes to the left: %(order)s", order=names)
