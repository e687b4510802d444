"""Take the README's screenshots on a phone (390×844) in Debian's Chromium.

    .venv/bin/python docs/screenshots/take.py [FOLDER]

Two walks, each on a throw-away SQLite database served on a free localhost port:

- the demo club (`flask --app scorekeeper demo`): the scoreboard of a running pagat match and
  its hand entry (scoreboard.png, hand-entry.png);
- an evening at the table from nothing (evening-NN-*.png): the home page signed out, register,
  a club, four players, a pagat match, hand 1 tapped in with the card picker docked at the foot
  of the screen and the points pad, its correction and history, then hands 2 to 4 saved with
  the network off (a draft restored by a reload; the scoreboard shows the three on the phone,
  scored by the engine there, "not yet sent") and sent when the network is back; last, a
  wikipedia match whose first Save is refused (a team short of its opening).

The offline pictures need the engine on the phone (`make runtime`: Pyodide from npm).

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
    # Both melds with their verdicts just above the docked picker, and the scores under them
    # once what the last tap did has had its few seconds.
    expect(page.locator("[data-entry-dock] [data-picker-status]")).to_have_text("", timeout=10_000)
    second = page.locator("[data-side='0'] [data-meld-row]").nth(1)
    above_dock(page, second)
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
        refused_save(me)
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


def above_dock(page: Page, target: Locator, margin: int = 8) -> None:
    """Scroll so that `target` ends just above the docked keys (the page has room at its
    foot for them), as a thumb would to read it with the keys up."""
    target.evaluate(
        """(e, m) => {
            const dock = document.querySelector("[data-entry-dock]").getBoundingClientRect();
            window.scrollTo(0, e.getBoundingClientRect().bottom + window.scrollY - dock.top + m);
        }""",
        margin,
    )
    settled(page)


def with_kozi_in_sight(page: Page, row: Locator) -> None:
    """Scroll the kózi row to the top of the screen if the meld row in use (with its card faces
    and verdict) still ends above the docked keys; otherwise leave the page where it is."""
    page.evaluate(
        """row => {
            const before = window.scrollY;
            const kozi = document.getElementById("kozi");
            window.scrollTo(0, kozi.getBoundingClientRect().top + window.scrollY - 8);
            const dock = document.querySelector("[data-entry-dock]").getBoundingClientRect();
            if (row.getBoundingClientRect().bottom > dock.top) window.scrollTo(0, before);
        }""",
        row.element_handle(),
    )
    settled(page)


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
    field = holder.locator("input[data-card-input]")
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
    # Mid-entry, as the phone shows it: the keys docked at the foot with the steps on (the
    # set key among them), Save and this hand's scores so far; the meld in use above them.
    dock = page.locator("[data-entry-dock]")
    expect(dock.locator("[data-card-picker]")).to_be_visible()
    expect(dock.locator("[data-dock-step='meld']")).to_be_visible()
    expect(dock.locator("[data-dock-save]")).to_be_visible()
    expect(dock.locator("[data-dock-score]").first).not_to_have_text("–")
    # What the last tap did covers the scores for a few seconds: the scores again.
    expect(dock.locator("[data-picker-status]")).to_have_text("", timeout=10_000)
    settled(page)
    with_kozi_in_sight(page, page.locator("[data-side='0'] [data-meld-row]").first)
    me.shoot("hand-1-docked")
    meld(page, 0, 1, "QD QC QH", "QD QC QH")
    meld(page, 0, 2, "8H-KH JK", "8H 9H 10H JH QH KH JK")
    above_dock(page, page.locator("[data-side='0'] [data-meld-row]").nth(2))
    me.shoot("hand-1-melds")

    toggle(page, 0, "out")
    meld(page, 1, 0, "3C-5C", "3C 4C 5C")
    meld(page, 1, 1, "KS KD JK", "KS KD JK")
    points(page, 1, (25, 25))  # A♠ 9♦ and joker 4♥: 25 each
    expect(page.locator("[data-preview-total]")).to_have_text(["665", "−95"])
    me.shoot("hand-1-points")  # the points field kept above the pad, as the phone shows it

    top_at(page, page.locator("#preview"))  # its lines above the keys, the totals in the dock
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
    # The engine on the phone, kept by the worker once the hand form has been opened: offline
    # it scores the hands waiting on the phone.
    page.goto(f"{base}{board}/hands/new")
    page.wait_for_function(
        "async () => (await (await caches.open('scorekeeper-runtime')).keys()).length >= 6",
        timeout=60_000,
    )
    page.goto(base + board)


def offline_hand(me: Evening, context: BrowserContext, board: str) -> None:
    """Hands 2 to 4 with the network gone: hand 2 half entered, the page reloaded (the draft
    comes back), saved into the outbox; hands 3 and 4 after it. The scoreboard shows the three
    on the phone, scored by the engine there; back online they are sent by themselves and the
    server's totals are those the phone showed."""
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
    # The engine on the phone scores the restored entry: the dock's scores, with no network.
    expect(page.locator("[data-entry-dock] [data-dock-score]").first).not_to_have_text(
        "–", timeout=60_000
    )
    page.evaluate("window.scrollTo(0, 0)")
    me.shoot("draft-restored")

    meld(page, 1, 1, "6S-QS", "6S 7S 8S 9S 10S JS QS")
    toggle(page, 1, "out")
    meld(page, 0, 0, "3H-5H", "3H 4H 5H")
    toggle(page, 0, "biribaki")
    points(page, 0, (10,))
    save_offline(page, 1)

    # Hand 3, kózi ♣: Eleni & Giorgos go out with a clean club biriba.
    page.locator(f"a[href='{board}/hands/new']").first.click()
    page.locator("label[for='kozi-C']").click()
    meld(page, 0, 0, "7C-KC", "7C 8C 9C 10C JC QC KC")
    toggle(page, 0, "out")
    meld(page, 1, 0, "4S 4H 4D", "4S 4H 4D")
    points(page, 1, (25,))
    save_offline(page, 2)

    # Hand 4, kózi ♠: Kostas & Maria go out with a clean diamond biriba.
    page.locator(f"a[href='{board}/hands/new']").first.click()
    page.locator("label[for='kozi-S']").click()
    meld(page, 1, 0, "5D-JD", "5D 6D 7D 8D 9D 10D JD")
    toggle(page, 1, "out")
    meld(page, 0, 0, "AC AD AH", "AC AD AH")
    points(page, 0, (10,))
    save_offline(page, 3)

    queued = page.locator("[data-outbox-board] .outbox-queued")
    numbers = [queued.nth(i).get_attribute("data-queued-number") for i in range(3)]
    assert numbers == ["2", "3", "4"], numbers
    expect(queued.locator(".kozi-mark")).to_have_text(["♦", "♣", "♠"])
    expect(page.locator("[data-outbox-board] .outbox-next")).to_be_visible()
    phone_totals = re.findall(r"−?\d+", queued.nth(2).locator(".outbox-text").inner_text())
    bottom_at(page, page.locator("[data-outbox-board]"))
    me.shoot("queued")

    context.set_offline(False)
    expect(page.locator("[data-outbox-board]")).to_be_hidden(timeout=30_000)
    expect(page.locator("[data-total]")).to_have_text(phone_totals)  # the phone had it right
    page.evaluate("window.scrollTo(0, 0)")
    me.shoot("sent")

    # Next Friday: the home page leads straight back to the running match.
    page.locator(".brand").first.click()
    expect(page.locator(".running-card")).to_have_count(1)
    me.shoot("home-signed-in")


def save_offline(page: Page, waiting: int) -> None:
    """Save with no network: the hand goes to the outbox, the scoreboard (from the worker's
    cache) shows it with those before it, each scored by the engine on the phone."""
    settled(page)
    page.locator("[data-dock-save]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    queued = page.locator("[data-outbox-board] .outbox-queued")
    expect(queued).to_have_count(waiting, timeout=30_000)
    expect(queued.locator(".badge")).to_have_text(["not yet sent"] * waiting)


def refused_save(me: Evening) -> None:
    """A wikipedia match, where a team must open with melds worth its minimum: Kostas & Maria
    lay one run of 15 points and mark no opening, so Save is refused and the page comes back
    at that meld, its team's opening line marked; the banner at its top says why."""
    page = me.page
    page.goto(me.base + "/clubs")
    page.locator("main a", has_text=CLUB).first.click()
    page.locator("a[href$='/matches/new']").click()
    page.locator("#preset").select_option("wikipedia")
    seats = {(0, 0): "Eleni", (1, 0): "Kostas", (0, 1): "Giorgos", (1, 1): "Maria"}
    for (team, seat), name in seats.items():
        page.locator(f"#team-{team}-seat-{seat}").select_option(label=name)
    page.locator("#first_dealer").select_option(label="Eleni")
    page.locator("#new-match > button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    board = re.sub(r"^https?://[^/]+", "", page.url)

    page.locator(f"a[href='{board}/hands/new']").first.click()
    page.locator("label[for='kozi-S']").click()
    meld(page, 0, 0, "AS AH AD", "AS AH AD")
    meld(page, 0, 1, "KC KD KS", "KC KD KS")
    for chip in page.locator("[data-side='0'] .opening-chip").all()[:2]:
        chip.click()
        settled(page)
    meld(page, 1, 0, "3H-5H", "3H 4H 5H")
    page.locator("[data-dock-save]").click()
    expect(page.locator("[data-hand-errors]")).to_be_visible()
    field = page.locator("#s1-meld-1")
    expect(field).to_be_focused()
    expect(field).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#side-1-opening")).to_have_class(re.compile(r"\bis-failed\b"))
    page.wait_for_function(
        "() => document.getElementById('side-1-opening').getBoundingClientRect().top >= 0"
    )
    me.shoot("refused-opening")
    # The banner at the top of the page says why, a link to the field for each problem.
    top_at(page, page.locator("[data-hand-errors]"))
    expect(page.locator("[data-hand-errors] a[data-problem-link]")).to_have_attribute(
        "href", "#s1-meld-1"
    )
    me.shoot("refused-banner")


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
