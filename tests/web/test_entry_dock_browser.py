"""Entry without scrolling (issue 19): on the hand form the card picker is docked at the foot
of the screen like a keyboard, the field in use and its verdict stay in sight above it, one
tap moves to the next meld, the next team or the cards left, and Save with this hand's scores
is on the screen all along. In real Chromium at 390×844 and 360×640, English and Greek, light
and dark; with the phone's own keyboard (⌨) too. Before, the picker hung under the field, so
its lower rows, the next team and Save (about 4,000 px down) kept leaving the screen."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

import pytest
from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect
from support.browser import fits_a_phone, phone_context, settled, sign_in
from support.dock import RUNS, box, on_screen
from support.set_keys import NO_THREE_SETS, SPOKEN, THREE_SETS, added, card_words

pytestmark = pytest.mark.browser


def above_the_dock(page: Page, target: Locator, what: str) -> None:
    """`target` on the screen, above the dock (nothing of it under the keys)."""
    at = on_screen(page, target, what)
    dock = box(page.locator("[data-entry-dock]"))
    assert at["bottom"] <= dock["top"] + 0.5, f"{what} is under the dock: {at} / {dock}"


def docked(page: Page, keys: Literal["picker", "pad"]) -> None:
    """The dock at the foot of the screen with every key of `keys` in sight, and Save and this
    hand's scores on the screen; nothing scrolls sideways."""
    size = page.viewport_size
    assert size is not None
    dock = on_screen(page, page.locator("[data-entry-dock]"), "the dock")
    assert abs(dock["bottom"] - size["height"]) <= 1, "the dock is not at the foot"
    on_screen(page, page.locator("[data-dock-save]"), "Save")
    # The scores, or for a moment over them what a shortcut did.
    status = page.locator("[data-entry-dock] [data-picker-status]")
    if status.is_visible() and status.inner_text():
        on_screen(page, status, "what the picker did")
    else:
        on_screen(page, page.locator("[data-dock-scores]"), "the scores")
    if keys == "picker":
        picker = page.locator("[data-entry-dock] [data-card-picker]")
        expect(picker).to_be_visible()
        for code in ("AS", "7C", "8S", "KC", "KD", "JK"):  # the corners of both blocks
            on_screen(page, picker.locator(f"[data-card='{code}']"), f"the key {code}")
        on_screen(page, picker.locator("[data-picker-back]"), "⌫")
    else:
        pad = page.locator("[data-entry-dock] [data-points-pad]")
        expect(pad).to_be_visible()
        # A column of keys for each team, every key in sight and a finger wide.
        columns = pad.locator("[data-pad-for]")
        expect(columns).to_have_count(page.locator("[data-side]").count())
        for column in columns.all():
            for value in (5, 100):
                key = on_screen(page, column.locator(f"[data-add='{value}']"), f"+{value}")
                assert key["height"] >= 40 and key["right"] - key["left"] >= 40, key
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= size["width"], f"the page scrolls sideways ({scroll}px)"


def screen(page: Page, folder: Path, name: str) -> None:
    page.screenshot(path=folder / f"{name}.png")


@pytest.mark.parametrize(("size", "locale", "scheme"), RUNS)
def test_a_hand_goes_in_with_the_keys_docked_and_nothing_scrolled(
    browser: Browser,
    app: Flask,
    live_server: str,
    match_id: int,
    screenshots: Path,
    size: Any,
    locale: str,
    scheme: Literal["light", "dark"],
) -> None:
    context = phone_context(browser, size, locale, scheme)
    page = context.new_page()
    name = f"issue19-dock-{size['width']}x{size['height']}-{locale[:2]}-{scheme}"
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/matches/{match_id}/hands/new")
        # Before any field: the dock is Save and the scores alone, at the foot of the screen.
        dock = page.locator("[data-entry-dock]")
        expect(dock).to_be_visible()
        expect(page.locator("[data-dock-step='meld']")).to_be_hidden()
        on_screen(page, page.locator("[data-dock-save]"), "Save")
        fits_a_phone(page, size["width"])

        # The kózi opens the first meld, with the picker docked under it.
        page.locator("label[for='kozi-H']").click()
        first = page.locator("[data-side='0'] [data-meld-row] input").first
        expect(first).to_be_focused()
        docked(page, "picker")
        above_the_dock(page, first, "the first meld")
        settled(page)
        screen(page, screenshots, f"{name}-first")
        # The team's "went out" is in sight with its first meld: ticked there, no scroll.
        on_screen(page, page.locator("label.toggle", has=page.locator("#s0-out")), "went out")
        picker = page.locator("[data-entry-dock] [data-card-picker]")
        meld_step = page.locator("[data-dock-step='meld']")
        suits_step = page.locator("[data-dock-step='suits']")
        # A set in the making: the set key, naming the suits it lacks, in the place of "Add
        # meld" (a meld of one card wants no next one), until the meld has three cards.
        picker.locator("[data-card='QD']").click()
        expect(suits_step).to_have_text("+♠♥♣")
        expect(meld_step).to_be_hidden()
        on_screen(page, suits_step, "the set key")
        for code in ("QC", "QH"):
            picker.locator(f"[data-card='{code}']").click()
        expect(first).to_have_value("QD QC QH")
        expect(suits_step).to_be_hidden()
        expect(meld_step).to_be_visible()
        verdict = page.locator("[data-side='0'] [data-meld-row]").first.locator("[data-verdict]")
        expect(verdict).not_to_be_empty()
        above_the_dock(page, first, "the first meld, filled")
        above_the_dock(page, verdict, "its verdict")
        docked(page, "picker")
        screen(page, screenshots, f"{name}-meld")

        # One tap: the team's next meld.
        page.locator("[data-dock-step='meld']").click()
        second = page.locator("[data-side='0'] [data-meld-row] input").nth(1)
        expect(second).to_be_focused()
        above_the_dock(page, second, "the second meld")
        for code in ("5S", "9S"):  # a run by its ends
            picker.locator(f"[data-card='{code}']").click()
        expect(second).to_have_value("5S 6S 7S 8S 9S")
        second_verdict = (
            page.locator("[data-side='0'] [data-meld-row]").nth(1).locator("[data-verdict]")
        )
        expect(second_verdict).not_to_be_empty()
        above_the_dock(page, second_verdict, "its verdict")
        docked(page, "picker")

        # One tap: the next team, at its first meld; its name is on the step.
        team = page.locator("[data-dock-step='team']")
        expect(team).to_contain_text(
            page.locator("[data-side='1']").get_attribute("data-side-label") or "?"
        )
        team.click()
        other = page.locator("[data-side='1'] [data-meld-row] input").first
        expect(other).to_be_focused()
        above_the_dock(page, other, "the next team's first meld")
        docked(page, "picker")
        for code in ("3C", "5C"):
            picker.locator(f"[data-card='{code}']").click()
        expect(other).to_have_value("3C 4C 5C")
        screen(page, screenshots, f"{name}-team")

        # One tap: the team's cards left, as its points in total, on the points pad.
        page.locator("[data-dock-step='left']").click()
        points = page.locator("#s1-points")
        expect(points).to_be_focused()
        docked(page, "pad")
        above_the_dock(page, points, "the points field")
        pad = page.locator("[data-entry-dock] [data-points-pad]")
        pad.locator("[data-pad-for='s1-points'] [data-add='20']").click()
        expect(points).to_have_value("20")
        above_the_dock(page, points, "the points field, in use")
        screen(page, screenshots, f"{name}-pad")
        # The same step, named after where it goes: each player's cards, with the picker.
        left_step = page.locator("[data-dock-step='left']")
        players = page.locator("[data-side='1'] fieldset.hands input[data-card-input]")
        for n in range(players.count()):
            name_of = players.nth(n).get_attribute("data-dock-name") or "?"
            expect(left_step).to_contain_text(name_of)
            left_step.click()
            expect(players.nth(n)).to_be_focused()
            docked(page, "picker")
            above_the_dock(page, players.nth(n), f"{name_of}'s cards left")
        left_step.click()  # round again to the points
        expect(points).to_be_focused()
        # The next team's points, in one tap.
        team.click()
        expect(page.locator("#s0-points")).to_be_focused()
        above_the_dock(page, page.locator("#s0-points"), "the other team's points")
        docked(page, "pad")
        # Or no step at all: each team's column adds to its own points and makes them the
        # field in use (framed, its points over its keys); ⌫ takes back the last key there.
        mine, theirs = (
            pad.locator("[data-pad-for='s0-points']"),
            pad.locator("[data-pad-for='s1-points']"),
        )
        theirs.locator("[data-add='5']").click()
        expect(points).to_have_value("25")
        expect(points).to_be_focused()
        expect(theirs).to_have_class("pad-side is-current")
        expect(theirs.locator("[data-pad-sum]")).to_have_text("25")
        pad.locator("[data-pad-back]").click()
        expect(points).to_have_value("20")
        mine.locator("[data-add='15']").click()
        expect(page.locator("#s0-points")).to_have_value("15")
        expect(page.locator("#s0-points")).to_be_focused()
        expect(mine.locator("[data-pad-sum]")).to_have_text("15")
        expect(points).to_have_value("20")
        above_the_dock(page, page.locator("#s0-points"), "the points in use")
        docked(page, "pad")
        screen(page, screenshots, f"{name}-columns")

        # The scores in the dock follow the live preview.
        expect(page.locator("[data-dock-score]").first).not_to_have_text("–")
        on_screen(page, page.locator("[data-dock-scores]"), "the scores")
        fits_a_phone(page, size["width"])
        screen(page, screenshots, f"{name}-scores")

        # Save, from the dock, with no scroll.
        page.locator("[data-dock-save]").click()
        expect(page).to_have_url(f"{live_server}/matches/{match_id}")
    finally:
        context.close()


@pytest.mark.parametrize(
    ("size", "locale"),
    [
        pytest.param({"width": 360, "height": 640}, "en-US", id="360x640-en"),
        pytest.param({"width": 390, "height": 844}, "el-GR", id="390x844-el"),
    ],
)
def test_the_phone_keyboard_still_types_with_the_dock(
    browser: Browser,
    app: Flask,
    live_server: str,
    match_id: int,
    screenshots: Path,
    size: Any,
    locale: str,
) -> None:
    context = phone_context(browser, size, locale)
    page = context.new_page()
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/matches/{match_id}/hands/new")
        page.locator("label[for='kozi-S']").click()
        first = page.locator("[data-side='0'] [data-meld-row] input").first
        expect(first).to_be_focused()
        keyboard = page.locator("[data-entry-dock] [data-picker-keyboard]")
        keyboard.click()
        expect(keyboard).to_have_attribute("aria-pressed", "true")
        expect(first).to_have_attribute("inputmode", "text")
        expect(first).to_be_focused()
        # The card keys fold for the phone's keyboard; ⌨, the steps and Save stay.
        expect(page.locator("[data-entry-dock] .picker-block").first).to_be_hidden()
        on_screen(page, keyboard, "⌨")
        on_screen(page, page.locator("[data-dock-save]"), "Save")
        on_screen(page, page.locator("[data-dock-step='team']"), "the next team")
        page.keyboard.type("3H-6H")
        expect(first).to_have_value("3H-6H")
        above_the_dock(page, first, "the typed meld")
        typed_verdict = page.locator("[data-side='0'] [data-verdict]").first
        expect(typed_verdict).not_to_be_empty()
        above_the_dock(page, typed_verdict, "its verdict")
        screen(page, screenshots, f"issue19-dock-keyboard-{size['width']}-{locale[:2]}")
        # ⌨ again: the card keys are back, docked whole.
        keyboard.click()
        expect(keyboard).to_have_attribute("aria-pressed", "false")
        docked(page, "picker")
        above_the_dock(page, first, "the meld")
    finally:
        context.close()


@pytest.mark.parametrize(("size", "locale", "scheme"), RUNS)
def test_a_set_of_three_goes_in_by_its_first_card_and_one_key(
    browser: Browser,
    app: Flask,
    live_server: str,
    match_id: int,
    screenshots: Path,
    size: Any,
    locale: str,
    scheme: Literal["light", "dark"],
) -> None:
    """After a meld's lone natural card, three set keys in the dock's step row (in the places
    of the next team and the cards left, beside the set key of all three suits) each write two
    of the missing suits: a set of three in two taps. ⌫ takes them back in one; no key moves;
    none for two cards, a 2, a joker or a run."""
    context = phone_context(browser, size, locale, scheme)
    page = context.new_page()
    name = f"issue19-three-sets-{size['width']}x{size['height']}-{locale[:2]}-{scheme}"
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/matches/{match_id}/hands/new")
        page.locator("label[for='kozi-H']").click()
        first = page.locator("[data-side='0'] [data-meld-row] input").first
        expect(first).to_be_focused()
        picker = page.locator("[data-entry-dock] [data-card-picker]")
        status = picker.locator("[data-picker-status]")
        set_steps = page.locator("[data-dock-step='set']")
        suits_step = page.locator("[data-dock-step='suits']")
        team = page.locator("[data-dock-step='team']")
        left = page.locator("[data-dock-step='left']")
        out = page.locator("[data-dock-step='out']")  # test_dock_went_out_browser.py
        save = page.locator("[data-dock-save]")
        spoken = SPOKEN[locale[:2]]
        settled(page)
        still = {what: box(page.locator(what)) for what in ("[data-dock-save]", "[data-card='KS']")}

        def nothing_moved() -> None:
            settled(page)
            for what, was in still.items():
                now = box(page.locator(what))
                assert abs(now["top"] - was["top"]) <= 1 and abs(now["left"] - was["left"]) <= 1, (
                    f"{what} moved: {was} → {now}"
                )

        def tap(*codes: str) -> None:
            for code in codes:
                picker.locator(f"[data-card='{code}']").click()

        # Every card and key of the table on the first run; on the others (a size, a language,
        # a scheme of their own) the first card's keys: the same code, a quarter of the taps.
        whole = (size, locale, scheme) == tuple(RUNS[0].values)
        for ready in THREE_SETS if whole else THREE_SETS[:1]:
            for key in range(3):
                tap(ready.first)
                expect(first).to_have_value(ready.first)
                expect(set_steps).to_have_text(list(ready.words))
                expect(suits_step).to_be_visible()  # the set of all four, first
                expect(team).to_be_hidden()
                expect(left).to_be_hidden()
                expect(out).to_be_hidden()
                for n, words in enumerate(ready.writes):
                    cards = card_words(words.split(" ", 1)[1])
                    expect(set_steps.nth(n)).to_have_attribute(
                        "aria-label", spoken.format(cards=cards)
                    )
                for step in set_steps.all():
                    at = on_screen(page, step, f"the set key {step.inner_text()}")
                    assert at["height"] >= 44 and at["right"] - at["left"] >= 44, at
                    assert step.evaluate("e => e.scrollWidth <= e.clientWidth"), "its suits whole"
                on_screen(page, save, "Save")
                nothing_moved()
                if key == 0 and ready.first == "KH":
                    screen(page, screenshots, name)
                set_steps.nth(key).click()
                expect(first).to_have_value(ready.writes[key])
                expect(status).to_contain_text(card_words(added(ready, key)))
                expect(set_steps.first).to_be_hidden()
                expect(team).to_be_visible()
                expect(out).to_be_visible()  # team A's going out, in the place of its cards left
                nothing_moved()
                # ⌫ takes the two cards back in one tap; the keys come back with the lone card.
                picker.locator("[data-picker-back]").click()
                expect(first).to_have_value(ready.first)
                expect(set_steps).to_have_text(list(ready.words))
                picker.locator("[data-picker-clear]").click()
                expect(first).to_have_value("")
                expect(set_steps.first).to_be_hidden()

        # Red suits in red on the keys, as on the cards.
        tap("KH")
        red = set_steps.first.locator(".red")
        expect(red).to_have_text("♦")
        assert red.evaluate("e => getComputedStyle(e).color") != set_steps.first.evaluate(
            "e => getComputedStyle(e).color"
        )
        picker.locator("[data-picker-clear]").click()

        for none in NO_THREE_SETS if whole else NO_THREE_SETS[:2]:
            tap(*none.cards)
            expect(first).to_have_value(" ".join(none.cards))
            expect(set_steps.first, f"no three-card keys for {none.why}").to_be_hidden()
            if none.set_key:
                expect(suits_step).to_be_visible()
            else:
                expect(suits_step).to_be_hidden()
            expect(team).to_be_visible()
            expect(out).to_be_visible()  # team A's going out, in the place of its cards left
            picker.locator("[data-picker-clear]").click()
            expect(first).to_have_value("")

        # A player's cards left are any cards, never a set in the making: no set keys there.
        page.locator("[data-side='0'] fieldset.hands input[data-card-input]").first.focus()
        tap("KH")
        expect(set_steps.first).to_be_hidden()
        expect(left).to_be_visible()
        fits_a_phone(page, size["width"])
    finally:
        context.close()


GROW_THE_MELD = """input => {
    const late = document.createElement("p");
    late.setAttribute("data-late", "");
    late.style.height = "300px";
    input.closest("[data-meld-row]").append(late);
}"""


def pressed_as_it_grows(
    page: Page, meld: Locator, press: Callable[[], None], lift: Callable[[], None]
) -> None:
    """Press, grow the meld in use past the keys as something late would, then lift: the page
    holds still under the press and keeps the grown meld above the keys once it is lifted."""
    press()
    before = page.evaluate("window.scrollY")
    meld.evaluate(GROW_THE_MELD)
    settled(page)
    assert page.evaluate("window.scrollY") == before, "the page moved under the press"
    lift()
    settled(page)
    assert page.evaluate("window.scrollY") > before, "the grown meld was left under the keys"


def test_the_page_stays_still_under_a_finger(
    browser: Browser, app: Flask, live_server: str, match_id: int
) -> None:
    """What comes late (a verdict, the preview's totals) while a finger or the mouse is down
    does not scroll the page under it: the dock keeps the field in use above its keys once the
    tap has landed. Before, a toggle pressed as the live preview answered could be released
    over another line, and "Went out" stayed unticked (a lost tap, seen under load)."""
    context = phone_context(browser)
    page = context.new_page()
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/matches/{match_id}/hands/new")
        page.locator("label[for='kozi-H']").click()
        first = page.locator("[data-side='0'] [data-meld-row] input").first
        expect(first).to_be_focused()
        went_out = page.locator("label.toggle", has=page.locator("#s0-out"))
        box = page.locator("#s0-out")

        def point() -> dict[str, float]:
            at = on_screen(page, went_out, "went out")
            return {"x": at["left"] + 10, "y": (at["top"] + at["bottom"]) / 2}

        # The mouse ticks "Went out".
        at = point()
        page.mouse.move(at["x"], at["y"])
        pressed_as_it_grows(page, first, page.mouse.down, page.mouse.up)
        expect(box).to_be_checked()
        above_the_dock(page, first, "the meld")

        # A finger, as on a phone (its click comes after the lift), takes it back.
        page.evaluate("document.querySelector('[data-late]').remove(); window.scrollTo(0, 0)")
        first.blur()
        first.focus()
        cdp = context.new_cdp_session(page)
        at = point()

        def touch(kind: str, points: list[dict[str, float]]) -> None:
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

        pressed_as_it_grows(
            page, first, lambda: touch("touchStart", [at]), lambda: touch("touchEnd", [])
        )
        expect(box).not_to_be_checked()
    finally:
        context.close()
