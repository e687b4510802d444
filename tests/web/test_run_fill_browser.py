"""The card picker's run by its ends, case by case, in real Chromium (issue 19): a card of the
run's suit beyond either end fills in towards that end, never writes a rank twice, and ⌫
takes the fill back in one tap. One page answers every case of the table: the field is set,
one card tapped, ⌫ tapped, and the next case starts from a field set afresh."""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect
from support.browser import phone_context, sign_in

pytestmark = pytest.mark.browser


class Case(NamedTuple):
    id: str
    field: str  # the meld field before the tap
    tap: str  # the card tapped
    after: str  # the field after it
    ace: str = "low_or_high"  # the variant's ace rule (the form's data-ace)


A_TO_10 = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H"

CASES = [
    # The ends of a run, in the field's order; a neighbour and a card inside are one card.
    Case("below the low end", "5S 6S 7S", "3S", "3S 4S 5S 6S 7S"),
    Case("further below", "9S 10S JS QS KS", "7S", "7S 8S 9S 10S JS QS KS"),
    Case("next to the low end", "9S 10S JS QS KS", "8S", "9S 10S JS QS KS 8S"),
    Case("above the high end", "5S 6S 7S", "10S", "5S 6S 7S 8S 9S 10S"),
    Case("a gap of one above", "5S 6S 7S", "9S", "5S 6S 7S 8S 9S"),
    Case("a gap of one below", "5S 6S 7S", "3S", "3S 4S 5S 6S 7S"),
    Case("next to the high end", "5S 6S 7S", "8S", "5S 6S 7S 8S"),
    Case("inside, in a gap", "5S 6S 8S", "7S", "5S 6S 8S 7S"),
    Case("between two ends left by ⌫", "5S JS", "8S", "5S JS 8S"),
    Case("falling run, below", "9S 8S 7S", "5S", "9S 8S 7S 6S 5S"),
    Case("falling run, above", "9S 8S 7S", "JS", "JS 10S 9S 8S 7S"),
    Case("one card, upwards", "5S", "JS", "5S 6S 7S 8S 9S 10S JS"),
    Case("one card, downwards", "JS", "5S", "JS 10S 9S 8S 7S 6S 5S"),
    Case("neighbours", "7H", "8H", "7H 8H"),
    # Aces, low and high, as the variant's ace rule lets them.
    Case("ace high after a ten", "10H", "AH", "10H JH QH KH AH"),
    Case("ace low before a four", "AC", "4C", "AC 2C 3C 4C"),
    Case("ace low below a run", "3S 4S 5S", "AS", "AS 2S 3S 4S 5S"),
    Case("ace high above a run", "10S JS QS", "AS", "10S JS QS KS AS"),
    Case("ace next to the king", "QS KS", "AS", "QS KS AS"),
    Case("a lone ace and a king", "AS", "KS", "AS KS"),
    Case("from a low ace", "AS 2S 3S", "5S", "AS 2S 3S 4S 5S"),
    Case("ace next to a 2 in place", "2S 3S 4S", "AS", "2S 3S 4S AS"),
    Case("ace always low", "4H 5H", "AH", "AH 2H 3H 4H 5H", "low_only"),
    Case("ace always low, below a king", "JH QH KH", "AH", f"{A_TO_10} JH QH KH", "low_only"),
    Case("ace always high", "JH QH", "AH", "JH QH KH AH", "high_only"),
    Case("ace always high, never low", "3H 4H", "AH", f"{A_TO_10[6:]} JH QH KH AH", "high_only"),
    Case("ace at both ends", f"{A_TO_10} JH", "AH", f"{A_TO_10} JH QH KH AH", "both_ends"),
    # (A rank the run has already starts the next meld: row 1 stays, ⌫ brings the card back.)
    Case("no second ace where one end only", f"{A_TO_10} JH", "AH", f"{A_TO_10} JH"),
    # 2s and jokers: tapped, they fill nothing; in the field, they hold a place.
    Case("a joker inside", "5S JK 7S", "10S", "5S JK 7S 8S 9S 10S"),
    Case("a joker after the run", "5S 6S JK", "9S", "5S 6S JK 8S 9S"),
    Case("a joker before the run", "JK 6S 7S", "3S", "3S 4S JK 6S 7S"),
    Case("a joker is the next rank", "9S JK", "JS", "9S JK JS"),
    Case("past a joker upwards", "9S JK", "KS", "9S JK JS QS KS"),
    Case("past a joker downwards", "9S JK", "6S", "9S JK 7S 6S"),
    Case("a 2 of another suit", "4H 5H 2C", "8H", "4H 5H 2C 7H 8H"),
    Case("a 2 of the suit as a wild", "3H 4H 2H", "6H", "3H 4H 2H 6H"),
    Case("a dirty run in its order", "8H JK 10H 2C", "QH", "8H JK 10H 2C QH"),
    Case("a joker tapped", "5S 6S", "JK", "5S 6S JK"),
    Case("a 2 tapped", "5S 6S 7S", "2S", "5S 6S 7S 2S"),
    Case("a joker inside, tapped over", "5S JK 7S", "6S", "5S JK 7S 6S"),
    # Nothing to fill: another suit, a set, a typed range.
    Case("another suit", "5S 6S", "10H", "5S 6S 10H"),
    Case("a set", "QD QC", "9D", "QD QC 9D"),
    Case("a typed range", "3H-6H", "9H", "3H-6H 9H"),
]


# The field set for a case as the page had it before any tap: no "input" event, so neither a
# verdict nor a preview is asked for it; the ace rule as the variant would give it.
SET_FIELD = """([field, ace]) => {
    const form = document.querySelector("[data-hand-entry]");
    form.setAttribute("data-ace", ace);
    const rows = form.querySelectorAll("[data-side='0'] [data-meld-row] input");
    rows[1].value = "";
    rows[0].value = field;
    rows[0].focus();
}"""


def test_the_run_fills_in_towards_either_end_and_back_out_in_one_tap(
    browser: Browser, app: Flask, live_server: str, match_id: int
) -> None:
    context = phone_context(browser)
    page = context.new_page()
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/matches/{match_id}/hands/new")
        form = page.locator("[data-hand-entry]")
        expect(form).to_have_attribute("data-ace", "low_or_high")  # pagat's ace rule
        page.locator("label[for='kozi-H']").click()
        rows = page.locator("[data-side='0'] [data-meld-row] input")
        expect(rows.first).to_be_focused()
        picker = page.locator("[data-card-picker]")
        back = picker.locator("[data-picker-back]")
        wrong = []
        for case in CASES:
            page.evaluate(SET_FIELD, [case.field, case.ace])
            picker.locator(f"[data-card='{case.tap}']").click()
            after = rows.first.input_value()
            back.click()
            undone = rows.first.input_value()
            typed = f"{case.field} {case.tap}"
            # ⌫ takes back the whole fill, leaving the tapped card; or the one card tapped.
            expected_back = typed if case.after != typed else case.field
            if (after, undone) != (case.after, expected_back):
                wrong.append(f"{case.id}: {case.field} + {case.tap} → {after}, ⌫ → {undone}")
            # A fill never writes a rank the field already holds (but the tapped card's own:
            # the second ace of a run with one at each end).
            added = set(Counter(after.split()) - Counter(case.field.split())) - {case.tap}
            assert not added & set(case.field.split()), f"{case.id}: a card written twice"
        assert not wrong, "\n".join(wrong)
        assert rows.nth(1).input_value() == ""  # no case started a new meld
        # What the picker says of a fill at the low end: the run it makes, end to end.
        page.evaluate(SET_FIELD, ["5S 6S 7S", "low_or_high"])
        picker.locator("[data-card='3S']").click()
        expect(picker.locator("[data-picker-status]")).to_contain_text(
            "3♠ to 7♠ filled in as a run"
        )
        # A rank already in a run of three still starts the next meld, and ⌫ brings it back.
        page.evaluate(SET_FIELD, ["5S 6S 7S 8S 9S", "low_or_high"])
        picker.locator("[data-card='7S']").click()
        expect(rows.nth(1)).to_have_value("7S")
        expect(rows.first).to_have_value("5S 6S 7S 8S 9S")
        back.click()
        expect(rows.first).to_have_value("5S 6S 7S 8S 9S 7S")
        expect(rows.nth(1)).to_have_value("")
    finally:
        context.close()
