"""Take the README's screenshots on a phone (390×844) in Debian's Chromium.

    .venv/bin/python docs/screenshots/take.py [FOLDER]

Two walks, each on a throw-away SQLite database served on a free localhost port:

- the demo club (`flask --app scorekeeper demo`): the scoreboard of a running pagat match and
  its hand entry (scoreboard.png, hand-entry.png);
- an evening at the table from nothing (evening-NN-*.png): the home page signed out, register,
  a club, four players, a pagat match, hand 1 tapped in with the card picker and the points pad,
  its correction and history, then hand 2 saved with the network off (a draft restored by a
  reload, the outbox "waiting to send") and sent when the network is back.

The pictures go next to this file (or to FOLDER) and are shrunk with pngquant when it is
installed (`apt-get install pngquant`), so the repository stays small.
"""

from __future__ import annotations

import logging
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import BrowserContext, Locator, Page, expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))  # for support.*
from support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, log_in, serve

from scorekeeper import create_app
from scorekeeper.demo import DEMO_PASSWORD, DEMO_USER
from scorekeeper.extensions import db
from scorekeeper.match import view_of
from scorekeeper.models import Match

HERE = Path(__file__).parent
USERNAME, PASSWORD = "eleni", "correct horse"
CLUB = "Friday Biriba"
PLAYERS = ("Eleni", "Kostas", "Giorgos", "Maria")  # in seat order round the table
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def main() -> int:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        if demo(Path(scratch), folder):
            return 1
    with tempfile.TemporaryDirectory() as scratch:
        evening(Path(scratch), folder)
    shrink(folder)
    return 0


def phone(playwright: object, base: str) -> tuple[BrowserContext, Page]:
    """A phone with English words and no one logged in."""
    browser = playwright.chromium.launch(  # type: ignore[attr-defined]
        executable_path=CHROMIUM, args=CHROMIUM_ARGS
    )
    context: BrowserContext = browser.new_context(
        viewport=PHONE,
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
        locale="en-US",
    )
    return context, context.new_page()


# --- the demo club -----------------------------------------------------------------------------


def demo(scratch: Path, folder: Path) -> int:
    app = create_app(
        {"SECRET_KEY": "screenshots", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{scratch}/demo.sqlite"}
    )
    result = app.test_cli_runner().invoke(args=["demo"])
    if result.exit_code:
        print(result.output, file=sys.stderr)
        return 1
    with app.app_context():
        running = [
            m.id
            for m in db.session.scalars(sa.select(Match).order_by(Match.id))
            if m.variant_id == "pagat" and not view_of(m).finished
        ]
    with serve(app) as base, sync_playwright() as playwright:
        context, page = phone(playwright, base)
        log_in(page, base, DEMO_USER, DEMO_PASSWORD)
        shoot_demo(page, base, running[0], folder)
        context.browser.close()  # type: ignore[union-attr]
    return 0


def shoot_demo(page: Page, base: str, match_id: int, folder: Path) -> None:
    page.goto(f"{base}/matches/{match_id}")
    page.locator(".hand-list details").first.locator("summary").click()
    page.screenshot(path=folder / "scoreboard.png")

    page.goto(f"{base}/matches/{match_id}/hands/new")
    page.locator("label[for='kozi-H']").click()
    first = page.locator("[data-side='0'] [data-meld-row] input").first
    first.click()
    for code in ("QD", "QC", "QH"):
        page.locator(f"[data-card-picker] [data-card='{code}']").click()
        settled(page)
    expect(page.locator("[data-side='0'] [data-verdict]").first).to_have_class(
        re.compile(r"\bverdict-ok\b")
    )
    # 5S then JS: the picker fills in the run between.
    for code in ("5S", "JS"):
        page.locator(f"[data-card-picker] [data-card='{code}']").click()
        settled(page)
    expect(page.locator("[data-side='0'] [data-verdict]").nth(1)).to_contain_text("200")
    # Start the picture at the team's card, so its melds, verdicts and the picker all show.
    top_at(page, page.locator("[data-side='0']"))
    page.screenshot(path=folder / "hand-entry.png")


# --- an evening at the table -------------------------------------------------------------------


class Evening:
    """One phone through one evening; each picture is numbered in the order it was taken."""

    def __init__(self, page: Page, base: str, folder: Path) -> None:
        self.page, self.base, self.folder = page, base, folder
        self.step = 0

    def shoot(self, name: str, full_page: bool = False) -> None:
        self.page.wait_for_load_state()
        width = self.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{self.page.url} scrolls sideways ({width}px)"
        settled(self.page)
        self.step += 1
        path = self.folder / f"evening-{self.step:02d}-{name}.png"
        self.page.screenshot(path=path, full_page=full_page)


def evening(scratch: Path, folder: Path) -> None:
    # CSRF on, as in production: the outbox must send a valid token when it sends a hand.
    app = create_app(
        {
            "SECRET_KEY": "screenshots",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{scratch}/evening.sqlite",
        }
    )
    for old in folder.glob("evening-*.png"):
        old.unlink()
    with serve(app) as base, sync_playwright() as playwright:
        context, page = phone(playwright, base)
        me = Evening(page, base, folder)
        sign_up(me)
        board = start_match(me)
        hand_one(me, board)
        correct_hand_one(me, board)
        offline_hand(me, context, board)
        context.browser.close()  # type: ignore[union-attr]


def sign_up(me: Evening) -> None:
    """Home page signed out, register, start a club, add the four players."""
    page = me.page
    page.goto(me.base + "/")
    me.shoot("home")

    page.locator("main a[href$='/register']").first.click()
    page.locator("#username").fill(USERNAME)
    page.locator("#password").fill(PASSWORD)
    page.locator("#repeat").fill(PASSWORD)
    me.shoot("register")
    page.locator("main form button[type=submit]").click()
    expect(page.locator(".nav-user")).to_have_text(USERNAME)

    page.locator("#name").fill(CLUB)
    me.shoot("club-new")
    page.locator("form[action$='/clubs'] button[type=submit]").click()
    expect(page.locator("h1")).to_have_text(CLUB)
    for name in PLAYERS:
        page.locator("#name").fill(name)
        page.locator("form[action$='/players'] button[type=submit]").click()
        expect(page.locator(".name-list li", has_text=name)).to_have_count(1)  # by name
    page.evaluate("window.scrollTo(0, 0)")
    me.shoot("players")


def start_match(me: Evening) -> str:
    """A pagat match for four: Eleni & Giorgos against Kostas & Maria, Eleni deals first."""
    page = me.page
    page.locator("a[href$='/matches/new']").click()
    expect(page.locator("#preset")).to_have_value("pagat")
    expect(page.locator("#format")).to_have_value("4p")
    seats = {(0, 0): "Eleni", (1, 0): "Kostas", (0, 1): "Giorgos", (1, 1): "Maria"}
    for (team, seat), name in seats.items():
        page.locator(f"#team-{team}-seat-{seat}").select_option(label=name)
    page.locator("#first_dealer").select_option(label="Eleni")
    expect(page.locator("#deal-order")).to_contain_text("Eleni")
    bottom_at(page, page.locator("#deal-order"))
    me.shoot("match-new")
    page.locator("#new-match > button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    return re.sub(r"^https?://[^/]+", "", page.url)


def settled(page: Page) -> None:
    """Two frames on, a finger's pace: the picker has kept its keys still by then."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def top_at(page: Page, target: Locator, margin: int = 8) -> None:
    """Scroll so that `target` starts near the top of the screen."""
    target.evaluate(
        "(e, m) => window.scrollTo(0, e.getBoundingClientRect().top + window.scrollY - m)",
        margin,
    )


def bottom_at(page: Page, target: Locator, margin: int = 16) -> None:
    """Scroll so that `target` ends near the foot of the screen."""
    target.evaluate(
        "(e, m) => window.scrollTo(0, e.getBoundingClientRect().bottom + window.scrollY"
        " - window.innerHeight + m)",
        margin,
    )


def tap(page: Page, taps: str) -> None:
    """Tap cards on the picker: `X-Y` is a run by its two ends, anything else a card a tap."""
    picker = page.locator("[data-card-picker]")
    for token in taps.split():
        for code in token.split("-"):
            picker.locator(f"[data-card='{code}']").click()
            settled(page)


def meld(page: Page, side: int, row: int, taps: str, cards: str) -> None:
    """Fill a side's meld row with the picker: the first row by a tap, the next by "Add meld"
    (or by the picker itself, which starts a new meld when a card cannot join the last)."""
    holder = page.locator(f"[data-side='{side}'] [data-meld-row]").nth(row)
    field = holder.locator("input")
    if not holder.is_visible():
        page.locator(f"[data-side='{side}'] [data-add-meld]").click()
    elif not field.evaluate("e => e === document.activeElement"):
        field.click()
    tap(page, taps)
    expect(field).to_have_value(cards)
    # Offline the verdict waits for the server: "checked when you are back online".
    expect(holder.locator("[data-verdict]")).to_have_class(re.compile(r"\bverdict-(ok|offline)\b"))


def toggle(page: Page, side: int, name: str) -> None:
    box = page.locator(f"input[name='s{side}-{name}']")
    if not box.is_checked():  # "Went out" ticks the biribaki it implies
        page.locator("label.toggle", has=box).click()
    expect(box).to_be_checked()


def points(page: Page, side: int, keys: tuple[int, ...]) -> None:
    """Cards left as a point total, on the points pad."""
    page.locator(f"#s{side}-points").click()
    pad = page.locator("[data-points-pad]")
    expect(pad).to_be_visible()
    for key in keys:
        pad.locator(f"[data-pad-for='s{side}-points'] [data-add='{key}']").click()
        settled(page)
    expect(page.locator(f"#s{side}-points")).to_have_value(str(sum(keys)))


def hand_one(me: Evening, board: str) -> None:
    """presets.md's reference hand, kózi ♥: Eleni & Giorgos go out with two biribas (665);
    Kostas & Maria have two melds and 50 points left in hand (−95)."""
    page = me.page
    page.locator(f"a[href='{board}/hands/new']").first.click()
    expect(page.locator("[data-kozi-hint]")).to_be_visible()  # Save waits for the kózi
    expect(page.locator("button[data-save]")).to_be_disabled()
    bottom_at(page, page.locator(".entry-actions"))
    me.shoot("kozi-first")
    page.evaluate("window.scrollTo(0, 0)")

    page.locator("label[for='kozi-H']").click()
    meld(page, 0, 0, "5S-JS", "5S 6S 7S 8S 9S 10S JS")
    meld(page, 0, 1, "QD QC QH", "QD QC QH")
    meld(page, 0, 2, "8H-KH JK", "8H 9H 10H JH QH KH JK")
    top_at(page, page.locator("[data-side='0']"))
    me.shoot("hand-1-melds")

    toggle(page, 0, "out")
    meld(page, 1, 0, "3C-5C", "3C 4C 5C")
    meld(page, 1, 1, "KS KD JK", "KS KD JK")
    points(page, 1, (25, 25))  # A♠ 9♦ and joker 4♥: 25 each
    expect(page.locator("[data-preview-total]")).to_have_text(["665", "−95"])
    bottom_at(page, page.locator("[data-points-pad]"))
    me.shoot("hand-1-points")

    bottom_at(page, page.locator(".entry-actions"))  # the preview, right above Save
    me.shoot("hand-1-preview")
    page.locator("button[data-save]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    expect(page.locator("[data-total]")).to_have_text(["665", "−95"])
    me.shoot("scoreboard")


def correct_hand_one(me: Evening, board: str) -> None:
    """The kózi was ♠, not ♥: the spade run becomes a kózi biriba (400) and the hearts run a
    plain dirty one (100). Then the hand's history, with what changed marked."""
    page = me.page
    page.locator("#hand-1 summary").click()
    page.locator(f"#hand-1 a[href='{board}/hands/1/edit']").click()
    expect(page.locator("#kozi-H")).to_be_checked()
    page.locator("label[for='kozi-S']").click()
    expect(page.locator("[data-side='0'] [data-verdict]").first).to_contain_text("400")
    me.shoot("correction")
    page.locator("button[data-save]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    expect(page.locator("[data-total]")).to_have_text(["765", "−95"])
    page.locator("#hand-1 summary").click()
    page.locator(f"#hand-1 a[href='{board}/hands/1/history']").click()
    expect(page.locator("mark.changed-mark").first).to_be_visible()
    me.shoot("history")


def worker_ready(page: Page, base: str, board: str) -> None:
    """Wait until the service worker controls the page and keeps the hand form for offline."""
    page.goto(base + board)
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller")
    page.reload()  # this visit goes through the worker, which keeps the pages
    page.wait_for_function(
        """async (url) => {
            for (const key of await caches.keys()) {
                if (key.startsWith('scorekeeper-pages-')) {
                    if (await (await caches.open(key)).match(url)) return true;
                }
            }
            return false;
        }""",
        arg=f"{base}{board}/hands/new",
    )


def offline_hand(me: Evening, context: BrowserContext, board: str) -> None:
    """Hand 2 with the network gone: half entered, the page reloaded (the draft comes back),
    saved into the outbox, and sent by itself when the network returns."""
    page = me.page
    worker_ready(page, me.base, board)
    context.set_offline(True)
    page.locator(f"a[href='{board}/hands/new']").first.click()
    expect(page.locator("#hand-form")).to_be_visible()
    page.locator("label[for='kozi-D']").click()
    meld(page, 1, 0, "AC AD AS", "AC AD AS")
    page.reload()  # the phone locked, the browser killed…: the draft is on the phone
    expect(page.locator("[data-draft-note]")).to_be_visible()
    expect(page.locator("#kozi-D")).to_be_checked()
    page.evaluate("window.scrollTo(0, 0)")
    me.shoot("draft-restored")

    meld(page, 1, 1, "6S-QS", "6S 7S 8S 9S 10S JS QS")
    toggle(page, 1, "out")
    meld(page, 0, 0, "3H-5H", "3H 4H 5H")
    toggle(page, 0, "biribaki")
    points(page, 0, (10,))
    page.locator("button[data-save]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    waiting = page.locator("[data-outbox-board]")
    expect(waiting).to_contain_text("waiting to send")
    me.shoot("waiting")

    context.set_offline(False)
    expect(waiting).to_be_hidden(timeout=15000)
    expect(page.locator("[data-total]")).to_have_text(["770", "310"])
    me.shoot("sent")

    # Next Friday: the home page leads straight back to the running match.
    page.locator(".brand").first.click()
    expect(page.locator(".running-card")).to_have_count(1)
    me.shoot("home-signed-in")


def shrink(folder: Path) -> None:
    """256 colours are plenty for these pages: a third of the size or less."""
    if not shutil.which("pngquant"):
        print("pngquant is not installed: the pictures stay large", file=sys.stderr)
        return
    for png in sorted(folder.glob("*.png")):
        subprocess.run(
            ["pngquant", "--force", "--skip-if-larger", "--strip", "--output", png, "--", png],
            check=False,
        )


if __name__ == "__main__":
    sys.exit(main())
