"""A hand entered as a scorer does on a phone, tap by tap on the card picker: its melds (a run
by its two ends), the went-out and biribaki toggles and each player's cards left. Shared by
the browser tests that play a whole evening (tests/web/test_flow_browser.py) and a
tournament's table phones (tests/web/test_tournament_tables_browser.py)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from playwright.sync_api import Locator, Page, expect

from support.browser import settled

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


@dataclass
class Meld:
    """A meld as it is tapped: card codes, and `X-Y` for a run tapped by its two ends."""

    taps: str
    legal: bool = True
    numbers: tuple[str, ...] = ()  # figures the live verdict must show (any language)


@dataclass
class Side:
    melds: list[Meld] = field(default_factory=list)
    hands: dict[str, str] = field(default_factory=dict)  # player → cards tapped, as above
    went_out: bool = False
    biribaki: bool = False


def spelled(taps: str) -> str:
    """What the picker writes for these taps: 5S-JS → 5S 6S 7S 8S 9S 10S JS (the ace is high
    when it ends a run)."""
    codes: list[str] = []
    for token in taps.split():
        if "-" not in token:
            codes.append(token)
            continue
        first, last = token.split("-")
        suit = first[-1]
        low, high = RANKS.index(first[:-1]), RANKS.index(last[:-1])
        if high == 0:
            high = 13
        codes += [RANKS[i % 13] + suit for i in range(low, high + 1)]
    return " ".join(codes)


def tap_cards(page: Page, target: Locator, taps: str) -> None:
    """Tap cards on the card picker into the focused field: `X-Y` as its two ends (the picker
    fills in the run between), anything else one card a tap. Where the picker guessed a run or
    a new meld that these taps do not mean (3H then 5H of a meld with a gap), ⌫ takes the guess
    back in one tap, as a scorer would."""
    picker = page.locator("[data-card-picker]")
    expect(picker).to_be_visible()
    for token in taps.split():
        before = target.input_value().split()
        for code in token.split("-"):
            picker.locator(f"[data-card='{code}']").click()
            settled(page)
        wanted = " ".join(before + spelled(token).split())
        if target.input_value() != wanted:
            picker.locator("[data-picker-back]").click()  # the guess taken back
        expect(target).to_have_value(wanted)


def tap_meld(page: Page, side: int, row: int, meld: Meld) -> None:
    """Fill a side's meld row with the picker: tap the first row, "Add meld" for the next."""
    holder = page.locator(f"[data-side='{side}'] [data-meld-row]").nth(row)
    field_ = holder.locator("input")
    if holder.is_visible():
        field_.click()
    else:
        page.locator(f"[data-side='{side}'] [data-add-meld]").click()
    expect(field_).to_be_focused()
    tap_cards(page, field_, meld.taps)
    expect(field_).to_have_value(spelled(meld.taps))
    verdict = holder.locator("[data-verdict]")
    expect(verdict).to_have_class(re.compile(r"\bverdict-ok\b" if meld.legal else r"verdict-bad"))
    for number in meld.numbers:
        expect(verdict).to_contain_text(number)


def tap_toggle(page: Page, side: int, name: str) -> None:
    box = page.locator(f"input[name='s{side}-{name}']")
    if not box.is_checked():  # "Went out" ticks the biribaki it implies: no second tap
        page.locator("label.toggle", has=box).click()
    expect(box).to_be_checked()


def enter_hand(page: Page, player_ids: Mapping[str, object], kozi: str, sides: list[Side]) -> None:
    """On a hand page: kózi by one tap, then every side's melds, toggles and hands by picker
    (`player_ids`: each player's id by name, for their cards-left field)."""
    page.locator(f"label[for='kozi-{kozi}']").click()
    expect(page.locator(f"#kozi-{kozi}")).to_be_checked()
    for i, side in enumerate(sides):
        for row, meld in enumerate(side.melds):
            tap_meld(page, i, row, meld)
        if side.went_out:
            tap_toggle(page, i, "out")
        if side.biribaki:
            tap_toggle(page, i, "biribaki")
        for name, taps in side.hands.items():
            hand = page.locator(f"#p{player_ids[name]}-hand")
            hand.click()
            tap_cards(page, hand, taps)
            expect(hand).to_have_value(spelled(taps))
