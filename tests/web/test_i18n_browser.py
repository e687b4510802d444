"""A Greek table on a phone: the language switch, the meld checker's live verdict, a match's
scoreboard and hand entry in Greek, the dark theme by its switch, and the screen kept awake."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect
from support.browser import PHONE, fits_a_phone, from_elsewhere, record_requests, shoot
from support.static_names import plain

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs

pytestmark = pytest.mark.browser

PASSWORD = "correct horse"
# A long name: the header must still fit a 390px phone, in Greek as in English.
USERNAME = "konstantina.papadopoulou"
DARK_BACKGROUND = "rgb(15, 20, 24)"  # --bg of the dark palette
LIGHT_BACKGROUND = "rgb(244, 241, 234)"


@pytest.fixture
def match_id(app: Flask) -> int:
    """Not tests/conftest.py's match: Greek names on the Greek screens, and a long username
    for the header, logged in through the page by the test itself."""
    with app.app_context():
        owner = accounts.create_user(USERNAME, PASSWORD)
        club = clubs.create_club(owner, "Η μπιρίμπα της Παρασκευής")
        ids = [clubs.add_player(club, n).id for n in ("Ελένη", "Νίκος", "Κατερίνα", "Γιώργος")]
        teams = [
            matches.TeamSpec("Εμείς", (ids[0], ids[2])),
            matches.TeamSpec("Αυτοί", (ids[1], ids[3])),
        ]
        return matches.create_match(club, owner, "pagat", "4p", teams).id


def test_a_greek_table_on_a_phone(
    page: Page, live_server: str, match_id: int, screenshots: Path
) -> None:
    requested = record_requests(page)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.emulate_media(color_scheme="light")

    # --- the browser says English; the switch in the header makes it Greek ------------------
    page.goto(live_server + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.locator(".lang-switch").get_by_role("button", name="Ελληνικά").click()
    expect(page.locator("html")).to_have_attribute("lang", "el")
    expect(page).to_have_url(live_server + "/")
    expect(page.get_by_role("heading", level=2, name="Διαιτητής")).to_be_visible()
    expect(page.get_by_role("button", name="Ελληνικά")).to_have_attribute("aria-pressed", "true")
    shoot(page, screenshots, "greek-home", schemes=("light",))

    # --- the meld checker answers live, in Greek --------------------------------------------
    page.get_by_role("link", name="Έλεγξε έναν συνδυασμό").first.click()
    expect(page.get_by_role("heading", level=1, name="Έλεγχος συνδυασμού")).to_be_visible()
    expect(page.locator("#meld-verdict")).to_contain_text("Πρόσθεσε φύλλα")
    page.locator("label[for='kozi-H']").click()
    picker = page.locator("[data-card-picker]")
    picker.get_by_role("button", name="3 κούπα", exact=True).click()
    picker.get_by_role("button", name="7 κούπα", exact=True).click()  # the run by its ends
    expect(picker.locator("[data-picker-status]")).to_contain_text("Σειρά από 3♥ ως 7♥")
    expect(page.locator("#cards")).to_have_value("3H 4H 5H 6H 7H")
    verdict = page.locator("#meld-verdict")
    expect(verdict.locator(".verdict-title")).to_have_text("✓ Έγκυρος")
    expect(verdict).to_contain_text("5 φύλλα")
    expect(verdict.locator(".verdict-tags")).to_contain_text("καθαρή")
    expect(verdict).to_contain_text("Κανένα: η μπιρίμπα θέλει 7 φύλλα ή περισσότερα.")
    page.locator("#cards").fill("3H 4H 2H 6H 7H")
    expect(verdict.locator(".verdict-wild")).to_have_text("Το 2♥ παίζει ως 5♥")
    expect(verdict.locator(".verdict-tags")).to_contain_text("βρόμικη")
    page.locator("#opening").fill("50")
    expect(verdict).to_contain_text("Δεν ανοίγει: 30 πόντοι φύλλων, χρειάζονται τουλάχιστον 50.")
    page.locator("#cards").fill("3H 5H 7H")
    expect(verdict.locator(".verdict-title")).to_have_text("✗ Άκυρος")
    page.locator("#cards").fill("3H 4H 2H 6H 7H")
    expect(verdict.locator(".verdict-title")).to_have_text("✓ Έγκυρος")
    page.get_by_label("Κανόνες").select_option("wikipedia")
    expect(page.locator("#rules-link")).to_contain_text("Όλοι οι κανόνες:")
    expect(page.locator("#opening_band option").first).to_have_text("Χωρίς γραμμή πίνακα")
    shoot(page, screenshots, "greek-meld-checker", schemes=("light",))

    # --- log in through the Greek login page ------------------------------------------------
    page.get_by_role("link", name="Σύνδεση").click()
    page.get_by_label("Όνομα χρήστη").fill(USERNAME)
    page.get_by_label("Κωδικός").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    expect(page.get_by_text(f"Καλώς ήρθες πάλι, {USERNAME}.")).to_be_visible()
    fits_a_phone(page)  # the long name in the header, in Greek

    # --- the scoreboard, and a hand entered in Greek ----------------------------------------
    page.goto(f"{live_server}/matches/{match_id}")
    expect(page.get_by_role("heading", level=1, name=f"Παρτίδα {match_id}")).to_be_visible()
    expect(page.locator(".standing-name").first).to_be_visible()
    # pagat has no opening minimum, so no team shows a "next opening" line (it would be noise)
    expect(page.locator(".standing-opening")).to_have_count(0)
    shoot(page, screenshots, "greek-scoreboard-empty", schemes=("light",))
    page.get_by_role("link", name="Γράψε τον γύρο 1").click()
    expect(page.get_by_role("heading", level=1, name="Γύρος 1")).to_be_visible()
    page.locator("label[for='kozi-H']").click()
    first = page.locator("[data-side='0'] [data-meld-row]").first
    first.locator("input").fill("5S-JS")
    expect(first.locator("[data-verdict]")).to_have_text(
        "Έγκυρος: σειρά, καθαρή, μπιρίμπα · 55 πόντοι + 200 μπόνους"
    )
    page.locator("[data-side='0'] [data-add-meld]").click()
    second = page.locator("[data-side='0'] [data-meld-row]").nth(1)
    for card in ("ντάμα καρό", "ντάμα σπαθί", "ντάμα κούπα"):
        page.locator("[data-card-picker]").get_by_role("button", name=card, exact=True).click()
    expect(second.locator("[data-verdict]")).to_have_text("Έγκυρος: ντόπιες, καθαρή · 30 πόντοι")
    side_a = page.locator("[data-side='0']")
    side_a.get_by_text("Έκλεισε").click()
    side_a.get_by_text("Πήρε το μπιριμπάκι").click()
    other = page.locator("[data-side='1'] [data-meld-row]").first
    other.locator("input").fill("3C 5C 7C")
    expect(other.locator("[data-verdict]")).to_contain_text("Άκυρος:")
    other.locator("input").fill("3C 4C 5C")
    expect(other.locator("[data-verdict]")).to_have_text("Έγκυρος: σειρά, καθαρή · 15 πόντοι")
    page.get_by_label("Νίκος", exact=True).fill("AS 9D")
    shoot(page, screenshots, "greek-hand-entry", schemes=("light",))
    page.get_by_role("button", name="Υπολόγισε").click()
    expect(page.get_by_role("heading", name="Υπολογισμός: δεν αποθηκεύτηκε ακόμα")).to_be_visible()
    shoot(page, screenshots, "greek-hand-preview", schemes=("light",))
    page.get_by_role("button", name="Αποθήκευση γύρου 1").click()
    expect(page.get_by_text("Ο γύρος 1 αποθηκεύτηκε.")).to_be_visible()
    page.locator("#hand-1 summary").click()
    expect(page.locator("#hand-1")).to_contain_text("Μετά τον γύρο:")
    shoot(page, screenshots, "greek-scoreboard", schemes=("light",))

    # --- the dark theme, chosen with the switch at the foot of the page ---------------------
    page.locator(".theme-switch").get_by_role("button", name="Σκούρο").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.get_by_role("heading", level=1, name=f"Παρτίδα {match_id}")).to_be_visible()
    # the choice wins over the phone's own light setting
    expect(page.locator("body")).to_have_css("background-color", DARK_BACKGROUND)
    page.locator("#hand-1 summary").click()
    shoot(page, screenshots, "greek-scoreboard-dark", schemes=("light",))
    page.get_by_role("link", name="Γράψε τον γύρο 2").click()
    shoot(page, screenshots, "greek-hand-entry-dark", schemes=("light",))
    # Each switch posts a form and loads the page again: wait for the new page's theme
    # before reading its colours, or the old page may still be the one on screen.
    page.locator(".theme-switch").get_by_role("button", name="Φωτεινό").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    page.emulate_media(color_scheme="dark")
    # light stays light on a phone set to dark
    expect(page.locator("body")).to_have_css("background-color", LIGHT_BACKGROUND)
    page.locator(".theme-switch").get_by_role("button", name="Αυτόματο").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "auto")
    # auto follows the phone
    expect(page.locator("body")).to_have_css("background-color", DARK_BACKGROUND)

    assert errors == [], "no script error on any page, the wake lock's included"
    elsewhere = from_elsewhere(requested, live_server)
    assert elsewhere == [], "the pages must not load anything from another host (no CDN)"
    assert any(plain(url).endswith("/static/js/wake-lock.js") for url in requested)


# Stands in for the browser's Screen Wake Lock API: records each request, and lets the test
# release the lock as the browser does when the page is hidden.
FAKE_WAKE_LOCK = """
window.__wakeLocks = [];
Object.defineProperty(Navigator.prototype, "wakeLock", {
  configurable: true,
  get() {
    return {
      request(type) {
        const sentinel = { type, released: false, addEventListener() {} };
        window.__wakeLocks.push(sentinel);
        return Promise.resolve(sentinel);
      },
    };
  },
});
"""

NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"


def logged_in_page(
    browser: Browser, live_server: str, init_script: str
) -> tuple[BrowserContext, Page, list[str]]:
    """A phone-sized page running `init_script` first, logged in; and the page's errors."""
    context = browser.new_context(
        service_workers="block",  # not the offline phone: tests/conftest.py
        viewport=PHONE,
    )
    context.add_init_script(init_script)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(live_server + "/login")
    page.locator("#username").fill(USERNAME)
    page.locator("#password").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_load_state()
    return context, page, errors


@pytest.mark.parametrize("where", ["hands/new", ""], ids=["hand-entry", "scoreboard"])
def test_a_match_page_keeps_the_screen_awake(
    browser: Browser, live_server: str, match_id: int, where: str
) -> None:
    context, page, errors = logged_in_page(browser, live_server, FAKE_WAKE_LOCK)

    page.goto(f"{live_server}/matches/{match_id}/{where}".rstrip("/"))
    page.wait_for_function("() => window.__wakeLocks.length === 1")
    assert page.evaluate("window.__wakeLocks.map(lock => lock.type)") == ["screen"]
    # Hiding the page ends the lock; when it is visible again the script asks anew.
    page.evaluate(
        "window.__wakeLocks[0].released = true;"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    page.wait_for_function("() => window.__wakeLocks.length === 2")
    # A page without [data-wake-lock] asks for nothing.
    page.goto(live_server + "/rules")
    page.wait_for_load_state()
    assert page.evaluate("window.__wakeLocks.length") == 0
    assert errors == []
    context.close()


def test_without_the_wake_lock_api_nothing_goes_wrong(
    browser: Browser, live_server: str, match_id: int
) -> None:
    context, page, errors = logged_in_page(browser, live_server, NO_WAKE_LOCK)
    page.goto(f"{live_server}/matches/{match_id}")
    assert page.evaluate("'wakeLock' in navigator") is False
    page.get_by_role("link", name="Enter hand 1").click()
    expect(page.get_by_role("heading", level=1, name="Hand 1")).to_be_visible()
    assert errors == []
    context.close()
