"""A refused Save on a phone (issue 19): the page that comes back opens at the first problem,
its field focused and on the screen (it opened at the top, 3,200 px above it), and a link
in the banner takes the thumb to each problem's field. At 390×844 in English and Greek,
light and dark, with the kózi row showing last hand's kózi marked; no sideways scrolling
at 360 px."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from support.browser import fits_a_phone, shoot, sign_in
from support.hand_entries import typed
from support.world import new_club

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import User

pytestmark = pytest.mark.browser

# Hand 2: A opens with its aces and kings; B's lone 15-point run is short of the 75 it needs,
# and its four queens of hearts are two too many.
FIELDS = {
    "s0-meld-1": "AS AH AD",
    "s0-meld-2": "KC KD KS",
    "s1-meld-1": "3H 4H 5H",
}


def wikipedia_match(app: Flask) -> tuple[int, int]:
    """A wikipedia match for four with one hand played (kózi ♦); eleni's id and the match's."""
    with app.app_context():
        user = accounts.create_user("eleni", "password1")
        club, players = new_club(user)
        teams = [
            TeamSpec("A", (players["Ann"], players["Cy"])),
            TeamSpec("B", (players["Bob"], players["Di"])),
        ]
        match = matches.create_match(club, user, "wikipedia", "4p", teams)
        first = {
            "kozi": "D",
            "teams": [
                {"name": "A", "melds": ["AS AH AD", "KC KD KS"], "opening_melds": [0, 1]},
                {"name": "B", "melds": []},
            ],
        }
        owner = db.session.get(User, user.id)
        assert owner is not None
        matches.record_hand(match, owner, typed(match, first), "", "first")
        return user.id, match.id


def seen(page: Page, folder: Path, name: str) -> None:
    """What the phone's screen shows now, light and dark: `name`-screen(-dark).png."""
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        suffix = "-dark" if scheme == "dark" else ""
        page.screenshot(path=folder / f"{name}-screen{suffix}.png")
    page.emulate_media(color_scheme="light")


def in_sight(page: Page, element_id: str) -> bool:
    """On the screen, and above the docked keys (issue 19) where they are up."""
    return bool(
        page.evaluate(
            """id => { const r = document.getElementById(id).getBoundingClientRect();
                const dock = document.querySelector("[data-entry-dock]:not([hidden])");
                const floor = dock ? dock.getBoundingClientRect().top : window.innerHeight;
                return r.height > 0 && r.top >= 0 && r.bottom <= floor; }""",
            element_id,
        )
    )


@pytest.mark.parametrize("locale", ["en-US", "el-GR"])
def test_a_refused_save_opens_at_its_first_problem(
    browser: Browser, app: Flask, live_server: str, screenshots: Path, locale: str
) -> None:
    user_id, match_id = wikipedia_match(app)
    context = browser.new_context(
        service_workers="block",  # not the offline phone: tests/conftest.py
        viewport={"width": 390, "height": 844},
        locale=locale,
        is_mobile=True,
        has_touch=True,  # type: ignore[arg-type]
    )
    page = context.new_page()
    try:
        sign_in(page, app, live_server, user_id)
        page.goto(f"{live_server}/matches/{match_id}/hands/new")
        # Last hand's kózi is marked where it always is, third.
        expect(page.locator(".kozi-picker .suit-radio")).to_have_count(4)
        expect(page.locator("label.was-last")).to_have_attribute("for", "kozi-D")
        expect(page.locator("[data-last-kozi]")).to_be_visible()
        lang = locale[:2]
        shoot(page, screenshots, f"issue19-kozi-{lang}")
        seen(page, screenshots, f"issue19-kozi-{lang}")

        page.locator("label[for='kozi-S']").click()
        page.evaluate(
            """fields => {
                for (const [id, cards] of Object.entries(fields)) {
                    document.getElementById(id).value = cards;
                }
                document.querySelectorAll("[data-side='0'] [data-opening-mark]")
                    .forEach((box, i) => { box.checked = i < 2; });
            }""",
            FIELDS,
        )
        page.locator("[data-save]").click()
        banner = page.locator("[data-hand-errors]")
        expect(banner).to_be_visible()
        # The page opens at B's meld, focused and on the screen, its opening line marked.
        field = page.locator("#s1-meld-1")
        expect(field).to_be_focused()
        expect(field).to_have_attribute("aria-invalid", "true")
        assert in_sight(page, "s1-meld-1"), "the first problem's field is on the screen"
        assert page.evaluate("window.scrollY") > 0, "the page left its top"
        expect(page.locator("#side-1-opening")).to_have_class("opening-line is-failed")
        link = banner.locator("a[data-problem-link]")
        expect(link).to_have_count(1)
        expect(link).to_have_attribute("href", "#s1-meld-1")
        # What is wrong is said where the page lands: B's failed opening line is in sight.
        page.wait_for_function(
            "() => document.getElementById('side-1-opening').getBoundingClientRect().top >= 0"
        )
        assert in_sight(page, "side-1-opening") and in_sight(page, "s1-meld-1")
        # With the keys docked under it, and the steps on to the next meld or team.
        expect(page.locator("[data-entry-dock] [data-card-picker]")).to_be_visible()
        expect(page.locator("[data-dock-step='meld']")).to_be_visible()
        seen(page, screenshots, f"issue19-refused-{lang}")
        shoot(page, screenshots, f"issue19-refused-{lang}")

        # From the top, the banner's link takes the thumb back to the field.
        page.locator("#s0-meld-1").focus()
        page.evaluate("window.scrollTo(0, 0)")
        seen(page, screenshots, f"issue19-refused-{lang}-top")
        link.click()
        expect(field).to_be_focused()
        # The frame after the focus, where the field is kept above the docked keys.
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => setTimeout(r, 50)))")
        assert in_sight(page, "s1-meld-1")

        page.set_viewport_size({"width": 360, "height": 640})
        fits_a_phone(page, 360)
        # The mark's words fit its button whole, in Greek too.
        mark = page.locator("[data-last-kozi]")
        assert mark.evaluate("e => e.scrollWidth <= e.clientWidth"), mark.evaluate(
            "e => [e.scrollWidth, e.clientWidth, e.parentElement.clientWidth]"
        )
    finally:
        context.close()
