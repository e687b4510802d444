"""The card picker at the table, on a 390×844 and a 360×640 phone, in English and in Greek:
all 53 keys in sight at once and 40px or more, the kózi names inside their buttons, a run by
its two ends, a new meld by its first card, ⌫ taking either guess back, card faces in suit
colours, the phone's keyboard kept down, and the points pad."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect
from support.browser import phone_context, settled, shown, sign_in
from support.set_keys import NO_THREE_SETS, SPOKEN, THREE_SETS, added, card_words

pytestmark = pytest.mark.browser

PHONES = [
    ({"width": 390, "height": 844}, "en-US"),
    ({"width": 360, "height": 640}, "en-US"),
    ({"width": 360, "height": 640}, "el-GR"),
]
SAYS = {
    "en": {
        "filled": "5♠ to J♠ filled in as a run",
        "new_meld": "5♠ starts the next meld",
        "suits_key": "Add 9♠ 9♥ 9♦ to the set",
        "suits_added": "9♠ 9♥ 9♦ added",
        "suits_undone": "9♠ 9♥ 9♦ taken back",
    },
    "el": {
        "filled": "Σειρά από 5♠ ως J♠",
        "new_meld": "Το 5♠ ανοίγει νέο συνδυασμό",  # noqa: RUF001 (Greek, not Latin, letters)
        "suits_key": "Βάλε τα 9♠ 9♥ 9♦ στις ντόπιες",
        "suits_added": "Μπήκαν τα 9♠ 9♥ 9♦",
        "suits_undone": "Τα 9♠ 9♥ 9♦ βγήκαν από τις ντόπιες",  # noqa: RUF001 (Greek)
    },
}


def box(target: Locator) -> dict[str, float]:
    found = target.bounding_box()
    assert found is not None, "the element is drawn"
    return dict(found)


def no_sideways_scroll(page: Page, width: int) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def kozi_names_inside(page: Page) -> None:
    for button in page.locator(".kozi-picker .suit-button").all():
        outer, name = box(button), box(button.locator(".suit-name"))
        assert (
            name["x"] >= outer["x"] and name["x"] + name["width"] <= outer["x"] + outer["width"]
        ), f"the name {button.inner_text()!r} sticks out of its button"


def all_keys_in_sight(page: Page, viewport: dict[str, int]) -> None:
    """Every one of the 53 keys on the screen at once (no scrolling), 40px or more each way."""
    settled(page)
    keys = page.locator("[data-card-picker] [data-card]")
    expect(keys).to_have_count(53)
    seen = shown(keys)  # every box in one round trip
    assert len(seen) == 53, "every key is drawn"
    for at in seen:
        assert at.width >= 40 and at.height >= 40, f"{at.html} is {at}"
        assert at.y >= 0 and at.y + at.height <= viewport["height"], (
            f"{at.html} is off the screen at {at.y:.0f}"
        )
        assert at.x >= 0 and at.x + at.width <= viewport["width"]


def test_the_picker_on_two_phones_in_two_languages(
    browser: Browser, app: Flask, live_server: str, match_id: int
) -> None:
    for viewport, locale in PHONES:
        context = phone_context(browser, viewport, locale)
        page = context.new_page()
        try:
            sign_in(page, app, live_server)
            page.goto(f"{live_server}/matches/{match_id}/hands/new")
            lang = page.locator("html").get_attribute("lang") or ""
            assert lang == locale[:2], "the page speaks the phone's language"
            enter_with_the_picker(page, viewport, SAYS[lang])
        finally:
            context.close()


def enter_with_the_picker(page: Page, viewport: dict[str, int], says: dict[str, Any]) -> None:
    width = viewport["width"]
    no_sideways_scroll(page, width)
    kozi_names_inside(page)
    picker = page.locator("[data-card-picker]")
    status = picker.locator("[data-picker-status]")
    rows = page.locator("[data-side='0'] [data-meld-row] input")

    def tap(*codes: str) -> None:
        for code in codes:
            picker.locator(f"[data-card='{code}']").click()
            settled(page)  # a finger's pace: the keys are still before the next tap

    # The kózi opens the first meld with the picker under it: no tap on a field first, and
    # no phone keyboard over the keys.
    page.locator("label[for='kozi-H']").click()
    expect(rows.first).to_be_focused()
    expect(picker).to_be_visible()
    expect(rows.first).to_have_attribute("inputmode", "none")
    all_keys_in_sight(page, viewport)
    no_sideways_scroll(page, width)

    # A set card by card, drawn as card faces in suit colours.
    tap("QD", "QC", "QH")
    expect(rows.first).to_have_value("QD QC QH")
    faces = page.locator("[data-side='0'] [data-meld-row]").first.locator(".card-face")
    expect(faces).to_have_text(["Q♦", "Q♣", "Q♥"])
    expect(faces.nth(0)).to_have_class("card-face red")
    expect(faces.nth(1)).to_have_class("card-face")
    red = faces.nth(0).evaluate("e => getComputedStyle(e).color")
    black = faces.nth(1).evaluate("e => getComputedStyle(e).color")
    assert red != black

    # 5♠ cannot join three queens: it starts the next meld, and no key moved under the finger.
    before = box(picker.locator("[data-card='JS']"))
    tap("5S")
    expect(rows.nth(1)).to_have_value("5S")
    expect(rows.first).to_have_value("QD QC QH")
    expect(status).to_contain_text(says["new_meld"])
    assert abs(box(picker.locator("[data-card='JS']"))["y"] - before["y"]) <= 2
    all_keys_in_sight(page, viewport)
    # ⌫ puts it back in the meld before, in one tap; ⌫ again removes it from there.
    picker.locator("[data-picker-back]").click()
    expect(rows.first).to_have_value("QD QC QH 5S")
    expect(rows.nth(1)).to_have_value("")
    picker.locator("[data-picker-back]").click()
    expect(rows.first).to_have_value("QD QC QH")

    # A run by its ends: 5♠ then J♠ fills in the five between; ⌫ keeps only the two tapped.
    tap("5S", "JS")
    expect(rows.nth(1)).to_have_value("5S 6S 7S 8S 9S 10S JS")
    expect(status).to_contain_text(says["filled"])
    expect(
        page.locator("[data-side='0'] [data-meld-row]").nth(1).locator(".card-face")
    ).to_have_count(7)
    picker.locator("[data-picker-back]").click()
    expect(rows.nth(1)).to_have_value("5S JS")
    picker.locator("[data-picker-back]").click()
    expect(rows.nth(1)).to_have_value("5S")
    tap("JS")
    expect(rows.nth(1)).to_have_value("5S 6S 7S 8S 9S 10S JS")
    all_keys_in_sight(page, viewport)

    # A dirty run tapped in its order fills in nothing; a 2 never starts a run.
    tap("8H")
    expect(rows.nth(2)).to_have_value("8H")
    tap("JK", "10H", "2C", "QH")
    expect(rows.nth(2)).to_have_value("8H JK 10H 2C QH")

    # A set of the four suits in two taps: after its first card the set key (in the dock, in
    # the place of "Add meld") names the suits the set lacks and writes one card of each,
    # with no key moving; ⌫ takes them back in one tap. The second deck's cards join it.
    suits = page.locator("[data-dock-step='suits']")
    tap("9C")
    expect(rows.nth(3)).to_have_value("9C")
    expect(suits).to_have_text("+♠♥♦")
    expect(suits).to_have_attribute("aria-label", says["suits_key"])
    expect(page.locator("[data-dock-step='meld']")).to_be_hidden()
    at = box(suits)
    assert at["width"] >= 40 and at["height"] >= 40, at
    assert at["y"] >= 0 and at["y"] + at["height"] <= viewport["height"], at
    before = box(picker.locator("[data-card='JS']"))
    suits.click()
    settled(page)
    expect(rows.nth(3)).to_have_value("9C 9S 9H 9D")
    expect(status).to_contain_text(says["suits_added"])
    expect(suits).to_be_hidden()
    expect(page.locator("[data-dock-step='meld']")).to_be_visible()
    assert abs(box(picker.locator("[data-card='JS']"))["y"] - before["y"]) <= 2
    picker.locator("[data-picker-back]").click()
    expect(rows.nth(3)).to_have_value("9C")
    expect(status).to_contain_text(says["suits_undone"])
    suits.click()
    tap("9C", "9D", "9H")
    expect(rows.nth(3)).to_have_value("9C 9S 9H 9D 9C 9D 9H")
    expect(rows.nth(4)).to_have_value("")
    # Two cards of a run are no set: no key.
    tap("5D")
    expect(rows.nth(4)).to_have_value("5D")
    expect(suits).to_be_visible()
    tap("6D")
    expect(suits).to_be_hidden()
    all_keys_in_sight(page, viewport)
    no_sideways_scroll(page, width)

    # The keyboard key brings the phone's keyboard back for typing, and takes it away again.
    keyboard = picker.locator("[data-picker-keyboard]")
    keyboard.click()
    expect(keyboard).to_have_attribute("aria-pressed", "true")
    expect(rows.first).to_have_attribute("inputmode", "text")
    keyboard.click()
    expect(rows.first).to_have_attribute("inputmode", "none")

    # Cards left as a point total: the pad adds; ⌫ takes back the last key.
    points = page.locator("#s1-points")
    points.click()
    pad = page.locator("[data-points-pad]")
    expect(pad).to_be_visible()
    expect(picker).to_be_hidden()
    expect(points).to_have_attribute("inputmode", "none")
    settled(page)
    adds = pad.locator("[data-add]")
    seen = shown(adds)
    assert len(seen) == adds.count(), "every key of the pad is drawn"
    for at in seen:
        assert at.width >= 40 and at.height >= 40
        assert at.y + at.height <= viewport["height"], "the pad is in sight"
    column = pad.locator("[data-pad-for='s1-points']")
    column.locator("[data-add='40']").click()
    column.locator("[data-add='10']").click()
    expect(points).to_have_value("50")
    pad.locator("[data-pad-back]").click()
    expect(points).to_have_value("40")
    pad.locator("[data-pad-clear]").click()
    expect(points).to_have_value("")
    no_sideways_scroll(page, width)
    # Back in a card field the picker returns and the pad folds away.
    rows.first.click()
    expect(picker).to_be_visible()
    expect(pad).to_be_hidden()


@pytest.mark.parametrize(
    ("viewport", "locale", "scheme"),
    [
        pytest.param({"width": 390, "height": 844}, "en-US", "light", id="390x844-en-light"),
        pytest.param({"width": 360, "height": 640}, "el-GR", "dark", id="360x640-el-dark"),
    ],
)
def test_a_set_of_three_in_two_taps_without_the_dock(
    browser: Browser,
    live_server: str,
    screenshots: Path,
    viewport: Any,
    locale: str,
    scheme: Literal["light", "dark"],
) -> None:
    """The picker on its own (the referee's meld checker): after a lone natural card, a strip
    of three set keys under the grid, each writing two of the missing suits; ⌫ takes them back
    in one tap; none for two cards, a 2, a joker or a run; no key of the grid moves."""
    context = phone_context(browser, viewport, locale, scheme)
    page = context.new_page()
    try:
        page.goto(f"{live_server}/referee/meld")
        picker = page.locator("[data-card-picker]")
        expect(picker).to_be_visible()
        field = page.locator("#cards")
        status = picker.locator("[data-picker-status]")
        strip = picker.locator("[data-picker-sets]")
        keys = picker.locator("[data-picker-set]")
        suits = picker.locator("[data-picker-suits]")
        spoken = SPOKEN[locale[:2]]
        # The picker at the top of the screen, with room under it for the strip: on this page
        # the picker stays where it is drawn, and the strip comes under its last row.
        picker.evaluate("e => e.scrollIntoView({block: 'start'})")
        expect(strip).to_be_hidden()
        still = {code: box(picker.locator(f"[data-card='{code}']")) for code in ("AS", "KC")}

        def nothing_moved() -> None:
            settled(page)
            for code, was in still.items():
                now = box(picker.locator(f"[data-card='{code}']"))
                assert abs(now["y"] - was["y"]) <= 1 and abs(now["x"] - was["x"]) <= 1, code

        # A finger taps a key where it is on the screen: clicks here never scroll. (Playwright
        # scrolls an element into view, and on a retry, as a busy machine's "not stable" makes,
        # to its end, centre or start, which moved the keys these checks hold still.)
        def tap(*codes: str) -> None:
            for code in codes:
                picker.locator(f"[data-card='{code}']").click(scroll="none")

        for ready in THREE_SETS:
            for key in range(3):
                tap(ready.first)
                expect(keys).to_have_text(list(ready.words))
                expect(suits).to_be_visible()
                for n in range(3):
                    cards = card_words(added(ready, n))
                    expect(keys.nth(n)).to_have_attribute("aria-label", spoken.format(cards=cards))
                for at in shown(keys):
                    assert at.width >= 44 and at.height >= 44, f"{at.html} is {at}"
                    assert at.x >= 0 and at.x + at.width <= viewport["width"]
                no_sideways_scroll(page, viewport["width"])
                nothing_moved()
                if key == 0 and ready.first == "KH":
                    page.screenshot(
                        path=screenshots / f"picker-three-sets-{viewport['width']}-{locale[:2]}.png"
                    )
                keys.nth(key).click(scroll="none")
                expect(field).to_have_value(ready.writes[key])
                expect(status).to_contain_text(card_words(added(ready, key)))
                expect(strip).to_be_hidden()
                nothing_moved()
                picker.locator("[data-picker-back]").click(scroll="none")
                expect(field).to_have_value(ready.first)
                expect(keys).to_have_text(list(ready.words))
                picker.locator("[data-picker-clear]").click(scroll="none")
                expect(field).to_have_value("")
                expect(strip).to_be_hidden()

        for none in NO_THREE_SETS:
            tap(*none.cards)
            expect(field).to_have_value(" ".join(none.cards))
            expect(strip, f"no three-card keys for {none.why}").to_be_hidden()
            if none.set_key:
                expect(suits).to_be_visible()
            else:
                expect(suits).to_be_hidden()
            picker.locator("[data-picker-clear]").click(scroll="none")

        # On a hand form without the dock (the demo hand) the picker follows the field and
        # keeps room under its grid: the strip comes wholly in sight, no key moving for it.
        page.goto(f"{live_server}/demo/hand")
        page.locator("label[for='kozi-S']").click()
        expect(page.locator("[data-meld]").first).to_be_focused()
        settled(page)
        before = box(picker.locator("[data-card='KC']"))
        tap("KH")
        expect(keys).to_have_text(["+♠♦", "+♠♣", "+♦♣"])
        settled(page)
        assert abs(box(picker.locator("[data-card='KC']"))["y"] - before["y"]) <= 2
        for at in shown(keys):
            assert at.y >= 0 and at.y + at.height <= viewport["height"], f"{at.html} is {at}"
        keys.nth(2).click(scroll="none")
        expect(page.locator("[data-meld]").first).to_have_value("KH KD KC")
    finally:
        context.close()


def test_a_field_tapped_while_the_page_loads_gets_its_picker(
    browser: Browser, app: Flask, live_server: str, match_id: int
) -> None:
    """On a slow phone the first meld's field can be tapped before the page's scripts run:
    its picker opens once they do, and its first card goes into that field (it used to stay
    folded until another field was tapped; a CI run on a slow machine tapped into it)."""
    context = phone_context(browser)
    page = context.new_page()
    held: list[Any] = []
    try:
        sign_in(page, app, live_server)
        # Every script of the hand page waits until the field has been tapped.
        page.route("**/static/js/*.js", lambda route: held.append(route))
        page.goto(f"{live_server}/matches/{match_id}/hands/new", wait_until="commit")
        first = page.locator("[data-side='0'] [data-meld-row] input").first
        first.click()
        expect(first).to_be_focused()
        expect(page.locator("[data-card-picker]")).to_be_hidden()
        for route in held:
            route.continue_()
        page.unroute("**/static/js/*.js")
        picker = page.locator("[data-card-picker]")
        expect(picker).to_be_visible()
        picker.locator("[data-card='QD']").click()
        expect(first).to_have_value("QD")
    finally:
        context.close()
