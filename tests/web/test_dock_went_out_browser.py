"""One tap fewer a hand (issue 19): while no team has gone out, the hand form's dock offers
"<team> went out >" in a team's meld, which ticks that team's "Went out" on the page, as a tap
on the toggle would (what it implies, the preview), and moves on as the dock would next: a
team before the last to the next team's first meld (the step in the place of "Cards left"),
the last team to its cards left (in the place of the next team). The set keys of a one-card
meld keep their places; once a team has gone out, by the step or the toggle, the usual steps
are back, and unticking the toggle brings the step back. What it did shows on the dock's
status line, naming the team. In real Chromium at 390×844 and 360×640, English and Greek,
light and dark, as tests/web/test_entry_dock_browser.py; long team names ellipsize.

Every variant has the "went out" fact (the form draws its toggle for every team), so there is
no variant here without the step; the script offers it only where the toggle is."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal, NamedTuple

import pytest
from flask import Flask
from flask_babel import force_locale
from playwright.sync_api import Browser, Locator, Page, expect
from support.browser import fits_a_phone, phone_context, settled, sign_in
from support.dock import RUNS, box, on_screen

from scorekeeper import match as matches
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Match, User
from scorekeeper.words import dock_words

pytestmark = pytest.mark.browser

MELD = "[data-side='{side}'] [data-meld-row] input"


class Going(NamedTuple):
    """A team going out from its meld by the dock's step."""

    side: int  # the team whose meld is in use
    cards: tuple[str, str]  # the ends of a run tapped there first
    instead_of: str  # the step it stands in place of (hidden while it shows)
    beside: str  # the step that stays beside it
    words: str  # its spoken name's template (scorekeeper.words.dock_words)
    lands: str  # the field focused after it


GOING = [
    Going(0, ("3H", "5H"), "left", "team", "out_next", MELD.format(side=1) + " >> nth=0"),
    Going(1, ("6C", "8C"), "team", "left", "out_left", "#s1-points"),
]


def spoken(app: Flask, locale: str, key: str, **names: str) -> str:
    """The step's words in the page's language, as the catalog has them."""
    with app.test_request_context(), force_locale(locale[:2]):
        template = dock_words()[key]
    for name, value in names.items():
        template = template.replace(f"%({name})s", value)
    return template


def step(page: Page, name: str) -> Locator:
    return page.locator(f"[data-entry-dock] [data-dock-step='{name}']")


def a_finger_wide(page: Page, target: Locator, what: str) -> None:
    at = on_screen(page, target, what)
    assert at["height"] >= 44 and at["right"] - at["left"] >= 44, f"{what}: {at}"


def label_of(page: Page, side: int) -> str:
    return page.locator(f"[data-side='{side}']").get_attribute("data-side-label") or "?"


@pytest.mark.parametrize(("size", "locale", "scheme"), RUNS)
def test_a_team_goes_out_and_the_dock_moves_on_in_one_tap(
    browser: Browser,
    app: Flask,
    live_server: str,
    match_id: int,
    screenshots: Path,
    size: Any,
    locale: str,
    scheme: Literal["light", "dark"],
) -> None:
    page = phone_context(browser, size, locale, scheme).new_page()
    whole = (size, locale, scheme) == tuple(RUNS[0].values)
    name = f"issue19-went-out-{size['width']}x{size['height']}-{locale[:2]}-{scheme}"
    picker = page.locator("[data-entry-dock] [data-card-picker]")
    out, status = step(page, "out"), page.locator("[data-entry-dock] [data-dock-status]")
    try:
        sign_in(page, app, live_server)
        for going in GOING:
            if going.side:  # not the draft the case before left on this phone
                page.evaluate("localStorage.clear()")
            page.goto(f"{live_server}/matches/{match_id}/hands/new")
            page.locator("label[for='kozi-H']").click()
            first = page.locator(MELD.format(side=going.side)).first
            if going.side:
                first.click()
            expect(first).to_be_focused()
            team, other = label_of(page, going.side), label_of(page, 1 - going.side)
            box_ = page.locator(f"#s{going.side}-out")
            # In an empty meld already; a lone natural card's set keys take its place.
            expect(out).to_be_visible()
            picker.locator(f"[data-card='{going.cards[0]}']").click()
            expect(step(page, "set").first).to_be_visible()
            expect(out).to_be_hidden()
            picker.locator(f"[data-card='{going.cards[1]}']").click()
            expect(first).not_to_have_value(going.cards[0])

            # The step, named after the team, in the place of the step it stands for.
            expect(out).to_be_visible()
            expect(out.locator("[data-dock-out-name]")).to_have_text(team)
            expect(out).to_have_attribute(
                "aria-label", spoken(app, locale, going.words, team=team, next=other)
            )
            expect(step(page, going.instead_of)).to_be_hidden()
            expect(step(page, going.beside)).to_be_visible()
            expect(step(page, "meld")).to_be_visible()
            a_finger_wide(page, out, "the went-out step")
            for other_step in ("meld", going.beside):
                a_finger_wide(page, step(page, other_step), f"the {other_step} step")
            a_finger_wide(page, page.locator("[data-dock-save]"), "Save")
            # The steps in the row's order: the joined one where the one it replaces was.
            order = [
                s.get_attribute("data-dock-step")
                for s in page.locator("[data-entry-dock] [data-dock-step]:visible").all()
            ]
            assert order == (
                ["meld", "team", "out"] if going.side == 0 else ["meld", "out", "left"]
            ), order
            fits_a_phone(page, size["width"])
            settled(page)
            page.screenshot(path=screenshots / f"{name}-{going.side}.png")

            # The team's score before: the preview has its melds.
            score = page.locator("[data-dock-score]").nth(going.side)
            expect(score).not_to_have_text("–")
            before = score.inner_text()
            out.click()
            expect(box_).to_be_checked()
            implied = box_.get_attribute("data-implies")
            if implied:  # as the toggle would: going out ticks what it needs
                expect(page.locator(f"[name='{implied}']")).to_be_checked()
            expect(page.locator(going.lands)).to_be_focused()
            expect(score).not_to_have_text(before)  # the preview counts the going out
            expect(status).to_contain_text(team)
            on_screen(page, status, "what the step did")
            if going.side == 0:
                settled(page)
                page.screenshot(path=screenshots / f"{name}-{going.side}-after.png")
            # A team has gone out: no step in any meld, the usual ones are back.
            expect(out).to_be_hidden()
            if going.side:
                expect(step(page, "left")).to_be_visible()  # its cards left, the pad up
                page.locator(MELD.format(side=0)).first.click()
            expect(step(page, "team")).to_be_visible()
            expect(step(page, "left")).to_be_visible()
            expect(out).to_be_hidden()
            if not whole:
                continue

            # Unticked on the page: taken back, and the step is back in a meld.
            toggle = page.locator("label.toggle", has=box_)
            toggle.click()
            expect(box_).not_to_be_checked()
            expect(status).to_be_empty()
            page.locator(MELD.format(side=going.side)).first.click()
            expect(out).to_be_visible()
            expect(step(page, going.instead_of)).to_be_hidden()
            # Ticked on the page instead (the other team): the step goes as well.
            page.locator("label.toggle", has=page.locator(f"#s{1 - going.side}-out")).click()
            expect(out).to_be_hidden()
            expect(step(page, "team")).to_be_visible()
            expect(step(page, "left")).to_be_visible()
    finally:
        page.context.close()


@pytest.fixture
def long_names(app: Flask, match_id: int) -> int:
    """A pagat match of the same club whose teams have long names."""
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        seats = [seat.player_id for seat in match.seats]
        teams = [
            TeamSpec("Οι Παρασκευιάτικοι της γειτονιάς", (seats[0], seats[2])),  # noqa: RUF001
            TeamSpec("Οι αιώνιοι αντίπαλοι του καφενείου", (seats[1], seats[3])),  # noqa: RUF001
        ]
        owner = db.session.get(User, match.created_by_id)
        twin = matches.create_match(match.club, owner, "pagat", "4p", teams)
        return twin.id


@pytest.mark.parametrize(
    "size",
    [
        pytest.param({"width": 360, "height": 640}, id="360x640"),
        pytest.param({"width": 390, "height": 844}, id="390x844"),
    ],
)
def test_a_long_team_name_is_cut_short_on_the_step(
    browser: Browser,
    app: Flask,
    live_server: str,
    long_names: int,
    screenshots: Path,
    size: Any,
) -> None:
    page = phone_context(browser, size, "el-GR", "light").new_page()
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/matches/{long_names}/hands/new")
        page.locator("label[for='kozi-S']").click()
        out = step(page, "out")
        expect(out).to_be_visible()
        a_finger_wide(page, out, "the went-out step")
        name = out.locator("[data-dock-out-name]")
        expect(name).to_have_text(label_of(page, 0))
        # The name ellipsized within the key, "went out" whole under it.
        assert name.evaluate("e => e.scrollWidth > e.clientWidth"), "the name is not cut short"
        assert name.evaluate("e => getComputedStyle(e).textOverflow") == "ellipsis"
        what = out.locator(".dock-out-what")
        assert what.evaluate("e => e.scrollWidth <= e.clientWidth"), "went out is cut"
        inside, key = box(name), box(out)
        assert inside["right"] <= key["right"] + 0.5, (inside, key)
        fits_a_phone(page, size["width"])
        settled(page)
        page.screenshot(path=screenshots / f"issue19-went-out-long-{size['width']}-el.png")
    finally:
        page.context.close()
