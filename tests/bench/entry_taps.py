"""Benchmark of hand entry on a phone: how many taps and keystrokes the reference hand takes.

    .venv/bin/python tests/bench/entry_taps.py

Starts the app on a temporary SQLite database and a free localhost port, makes a user, a club,
four players and a pagat match for four through the services, logs in through the login page,
opens the hand page and enters the reference hand as a practised scorer would with the card
picker and the page's controls:

    pagat, kózi ♥. A went out and took the biribaki; melds 5S-JS, QD QC QH,
    8H 9H 10H JH QH KH JK; hands empty. B melds 3C 4C 5C, KS KD JK; hands AS 9D and JK 4H.

Every tap (click) and keystroke (one per typed character) on the hand page, Save included,
goes through `Counter`. The hand is saved and the scoreboard must then show 665 and −95, so a
wrong entry cannot report a good figure. It prints taps, keystrokes, their total and where the
taps go; the goal is 30 or fewer in all, printed, never asserted.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter as Tally
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from flask import Flask
from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.*
from support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, log_in, serve

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.services import accounts, clubs, matches

GOAL = 30
USERNAME, PASSWORD = "eleni", "correct horse"
# Taps that put no card, suit or fact into the hand: moving the picker, opening a row, modes.
OVERHEAD = ("focus a field", "add meld", "range on/off")


@dataclass
class Counter:
    """Every tap and keystroke made on the page, with what each tap was for."""

    taps: list[tuple[str, str]] = field(default_factory=list)  # (kind, what)
    keystrokes: int = 0

    def tap(self, target: Locator, kind: str, what: str = "") -> None:
        target.click()
        self.taps.append((kind, what))

    def type(self, target: Locator, text: str) -> None:
        target.press_sequentially(text)
        self.keystrokes += len(text)


@dataclass(frozen=True)
class Table:
    base_url: str
    match_id: int
    hand_field: dict[str, str]  # player name → id of their "cards left" field


def make_app(folder: Path) -> Flask:
    app = create_app(
        {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'bench.sqlite'}"}
    )
    with app.app_context():
        db.create_all()
    return app


def seed(app: Flask) -> tuple[int, dict[str, str]]:
    """A user, a club, Ann Bob Cat Dan and a pagat match for four: Ann & Cat against Bob & Dan."""
    with app.app_context():
        user = accounts.create_user(USERNAME, PASSWORD)
        club = clubs.create_club(user, "Friday Biriba")
        ids = {name: clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cat", "Dan")}
        teams = [
            matches.TeamSpec("Ann & Cat", (ids["Ann"], ids["Cat"])),
            matches.TeamSpec("Bob & Dan", (ids["Bob"], ids["Dan"])),
        ]
        match = matches.create_match(club, user, "pagat", "4p", teams)
        return match.id, {name: f"p{pid}-hand" for name, pid in ids.items()}


@contextmanager
def table() -> Iterator[Table]:
    """A served app with the match ready, on a throw-away database."""
    with tempfile.TemporaryDirectory() as folder:
        app = make_app(Path(folder))
        match_id, hand_field = seed(app)
        with serve(app) as base_url:
            yield Table(base_url, match_id, hand_field)


@contextmanager
def phone() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    return context.new_page()


def enter_reference_hand(page: Page, count: Counter, hand_field: dict[str, str]) -> None:
    """The reference hand, tapped as a practised scorer taps it: sets while range mode is off,
    runs while it is on, one "Add meld" between melds, and the cards left by picker too."""
    picker = page.locator("[data-card-picker]")
    range_button = picker.locator("[data-picker-range]")

    def cards(*codes: str) -> None:
        for code in codes:
            count.tap(picker.locator(f"[data-card='{code}']"), "card", code)

    def range_mode() -> None:
        count.tap(range_button, "range on/off")

    def meld_field(side: int) -> Locator:
        return page.locator(f"[data-side='{side}'] [data-meld-row] input").first

    def add_meld(side: int) -> None:
        count.tap(page.locator(f"[data-side='{side}'] [data-add-meld]"), "add meld")

    def toggle(side: int, name: str, what: str) -> None:
        box = page.locator(f"input[name='s{side}-{name}']")
        count.tap(page.locator("label.toggle", has=box), "went out / biribaki", what)

    count.tap(page.locator("label[for='kozi-H']"), "kózi", "♥")
    # Team A: the set first, with range mode off, then both runs with it on.
    count.tap(meld_field(0), "focus a field", "A meld 1")
    cards("QD", "QC", "QH")
    add_meld(0)
    range_mode()
    cards("5S", "JS")
    add_meld(0)
    cards("8H", "KH", "JK")  # a joker goes in as it is, even in range mode
    toggle(0, "out", "A went out")
    toggle(0, "biribaki", "A took the biribaki")
    # Team B: the run while range mode is still on, then the set and the hands with it off.
    count.tap(meld_field(1), "focus a field", "B meld 1")
    cards("3C", "5C")
    add_meld(1)
    range_mode()
    cards("KS", "KD", "JK")
    count.tap(page.locator(f"#{hand_field['Bob']}"), "focus a field", "Bob's hand")
    cards("AS", "9D")
    count.tap(page.locator(f"#{hand_field['Dan']}"), "focus a field", "Dan's hand")
    cards("JK", "4H")


def check_entry(page: Page, hand_field: dict[str, str]) -> None:
    """What the fields hold before Save: the picker wrote exactly the reference hand."""
    melds = {
        0: ["QD QC QH", "5S 6S 7S 8S 9S 10S JS", "8H 9H 10H JH QH KH JK"],
        1: ["3C 4C 5C", "KS KD JK"],
    }
    for side, wanted in melds.items():
        fields = page.locator(f"[data-side='{side}'] [data-meld-row] input")
        for row, cards in enumerate(wanted):
            expect(fields.nth(row)).to_have_value(cards)
    expect(page.locator(f"#{hand_field['Bob']}")).to_have_value("AS 9D")
    expect(page.locator(f"#{hand_field['Dan']}")).to_have_value("JK 4H")
    expect(page.locator("#kozi-H")).to_be_checked()


def report(count: Counter) -> None:
    taps = len(count.taps)
    total = taps + count.keystrokes
    print(f"taps:       {taps}")
    print(f"keystrokes: {count.keystrokes}")
    print(f"total:      {total}  (goal: {GOAL} or fewer: {'met' if total <= GOAL else 'NOT met'})")
    print("\nwhere the taps go:")
    for kind, n in Tally(kind for kind, _ in count.taps).most_common():
        whats = [what for k, what in count.taps if k == kind and what]
        note = "  (overhead)" if kind in OVERHEAD else ""
        print(f"  {n:3d}  {kind}{note}" + (f": {', '.join(whats)}" if whats else ""))
    overhead = sum(1 for kind, _ in count.taps if kind in OVERHEAD)
    print(f"\noverhead taps (no card, suit or fact entered): {overhead} of {taps}")
    print(
        "  · 4 focus taps choose where the one shared picker writes (A meld 1, B meld 1, Bob,"
        " Dan);\n    the picker stays folded until a card field is tapped, so the first is a"
        " tap no card needs\n"
        "  · 3 'Add meld' taps open the next meld row (only one empty row is shown)\n"
        "  · 2 range taps switch between runs (range on) and sets and single cards (range off)\n"
        "  · 'Went out' without 'Took the biribaki' is impossible under pagat"
        " (going out needs the biribaki),\n    yet both are tapped"
    )


def main() -> int:
    with table() as where, phone() as browser:
        page = new_page(browser)
        log_in(page, where.base_url, USERNAME, PASSWORD)
        board = f"{where.base_url}/matches/{where.match_id}"
        page.goto(f"{board}/hands/new")
        expect(page.locator("#hand-form")).to_be_visible()

        count = Counter()  # counting starts on the hand page
        enter_reference_hand(page, count, where.hand_field)
        check_entry(page, where.hand_field)
        count.tap(page.locator("button[data-save]"), "save")

        expect(page).to_have_url(board)
        try:
            expect(page.locator("[data-total]")).to_have_text(["665", "−95"])
        except AssertionError as error:
            print(f"The scoreboard does not show A 665, B −95, so no figure counts:\n{error}")
            return 1
        print("The scoreboard shows A 665, B −95: the reference hand went in right.\n")
        report(count)
    return 0


if __name__ == "__main__":
    sys.exit(main())
