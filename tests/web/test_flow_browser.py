"""The issue's acceptance flow, on a phone, as a person does it, in English and in Greek.

Register, start a club, add four players, start a pagat match for four, enter three hands with
the card picker (one with an illegal meld that is shown, then corrected before saving), correct
the first hand and see the totals move, then play a short match to its winner. Every step is a
helper, and elements are found by ids, names, data-* attributes and card codes rather than by
their English words, so the same flow runs in both languages. Screenshots of every step land in
tests/screenshots/flow-<lang>-NN-<step>.png.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, Page, expect
from support.browser import fits_a_phone, from_elsewhere, record_requests, shoot
from support.hand_taps import Meld, Side, enter_hand, spelled, tap_cards
from support.static_names import plain

# The phone offline is what this tests: its service worker stays (tests/conftest.py).
pytestmark = [pytest.mark.browser, pytest.mark.browser_context_args(service_workers="allow")]

USERNAME, PASSWORD = "eleni", "correct horse"
CLUB = "Friday Biriba"
PLAYERS = ("Ann", "Bob", "Cat", "Dan")
SEATS = (("Ann", "Cat"), ("Bob", "Dan"))  # team A, team B; partners sit opposite
TEAM_NAMES = ("Ann & Cat", "Bob & Dan")  # a team left unnamed is called by its players

# Words the pages say, in each language. Everything else in this test finds elements by ids,
# names, data-* attributes and card codes, so the same steps drive both languages.
TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "welcome": f"Welcome, {USERNAME}",
        "club ready": f"{CLUB} is ready",
        "player added": "now plays in",
        "match started": "started: Ann deals.",
        "hand saved": "saved.",
        "run verdict": "Legal: run, clean, biriba · 55 points + 200 bonus",
        "gap verdict": "Not legal: The run has a gap: 4♥ 6♥ are missing",
        "refused": "The meld 3♥ 5♥ 7♥ of Ann & Cat is not legal.",
        "corrected": "Hand 1 corrected.",
        "won": "Ann & Cat won",
    },
    "el": {
        "welcome": f"Καλώς ήρθες, {USERNAME}",
        "club ready": f"Η παρέα {CLUB} είναι έτοιμη",
        "player added": "παίζει πλέον στην παρέα",
        "match started": "ξεκίνησε: μοιράζει ο/η Ann.",
        "hand saved": "αποθηκεύτηκε.",
        "run verdict": "Έγκυρος: σειρά, καθαρή, μπιρίμπα · 55 πόντοι + 200 μπόνους",
        "gap verdict": "Άκυρος: Η σειρά έχει κενό: λείπουν τα φύλλα 4♥ 6♥",
        "refused": "Ann & Cat: ο συνδυασμός 3♥ 5♥ 7♥ δεν είναι έγκυρος.",
        "corrected": "Ο γύρος 1 διορθώθηκε.",
        "won": "Νικητής: Ann & Cat",
    },
}


def pts(value: int) -> str:
    """A score as the pages print it: a real minus sign."""
    return f"−{-value}" if value < 0 else str(value)


# --- the arithmetic the scoreboard must agree with (pagat card points: joker 20, ace 15,
# 2 and 8–K 10, 3–7 5; biriba bonuses: clean run 200, dirty 100, kózi run 400 / 200;
# 100 for going out, −100 for a side that took no biribaki) -----------------------------------

# Hand 1, the reference hand, kózi ♥. A went out and took the biribaki:
# 5♠–J♠ 55, Q♦ Q♣ Q♥ 30, 8♥–K♥ + joker 80; clean biriba 200, dirty kózi biriba 200, out 100.
H1_A = 55 + 30 + 80 + 200 + 200 + 100
# B: 3♣ 4♣ 5♣ 15, K♠ K♦ joker 40; left in hand A♠ 9♦ and joker 4♥; no biribaki.
H1_B = 15 + 40 - (15 + 10 + 20 + 5) - 100
# Hand 2, kózi ♦. A: 3♥ 4♥ 5♥ 15 (first tapped as 3♥ 5♥ 7♥), took the biribaki, Ann keeps K♣.
H2_A = 15 - 10
# B went out with the biribaki: A♣ A♦ A♠ 45, 6♠–Q♠ 60 (a clean biriba, 200), out 100.
H2_B = 45 + (5 + 5 + 10 * 5) + 200 + 100
# Hand 3, kózi ♣. A: 7♦ 8♦ 9♦ 25, took the biribaki, Ann keeps a 2♠ and Cat a joker.
H3_A = 25 - (10 + 20)
# B went out with the biribaki: 4♣–10♣ 50 (clean kózi biriba, 400), K♥ K♠ K♦ 30, out 100.
H3_B = (4 * 5 + 3 * 10) + 400 + 30 + 100
# Hand 1 corrected: kózi was ♠, not ♥. 5♠–J♠ turns kózi (400, not 200) and the hearts run is a
# plain dirty biriba (100, not 200).
H1_A_FIXED = H1_A + (400 - 200) - (200 - 100)

# Match 2, won by a score above 500. Hand 1, kózi ♠: A Q♦ Q♣ Q♥ 30 with the biribaki, Ann
# keeps 5♥; B out with the biribaki, 8♣–A♣ 75 (a clean biriba, 200).
M2_H1_A = 30 - 5
M2_H1_B = (6 * 10 + 15) + 200 + 100
# Hand 2, kózi ♠: A out with the biribaki, 5♠–J♠ 55 (clean kózi biriba, 400); B 3♦ 4♦ 5♦ 15
# with the biribaki, Bob keeps K♣.
M2_H2_A = 55 + 400 + 100
M2_H2_B = 15 - 10
M2_TARGET = 500


# --- a person on a phone -----------------------------------------------------------------------


class Person:
    """One phone, one language: takes screenshots of each step and checks every page fits."""

    def __init__(self, page: Page, lang: str, folder: Path) -> None:
        self.page, self.lang, self.folder = page, lang, folder
        self.step = 0
        self.player_ids: dict[str, str] = {}

    def fits(self) -> None:
        fits_a_phone(self.page)

    def shoot(self, name: str) -> None:
        """The page checked and shot as this person's next numbered step."""
        self.step += 1
        shoot(
            self.page, self.folder, f"flow-{self.lang}-{self.step:02d}-{name}", schemes=("light",)
        )

    def says(self, key: str) -> None:
        """The page shows the words for `key` in this language."""
        expect(self.page.locator("main")).to_contain_text(TEXTS[self.lang][key])


def switch_language(page: Page, lang: str) -> None:
    """Choose the language with the page's own switcher, as a person would."""
    with page.expect_navigation():
        page.locator(f"form.lang-switch button[value='{lang}']").click()


def register(me: Person) -> None:
    page = me.page
    page.locator("a[href$='/register']").first.click()
    page.locator("#username").fill(USERNAME)
    page.locator("#password").fill(PASSWORD)
    page.locator("#repeat").fill(PASSWORD)
    me.shoot("register")
    page.locator("main form button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/clubs$"))
    expect(page.locator(".nav-user")).to_have_text(USERNAME)
    me.says("welcome")


def start_club(me: Person) -> None:
    page = me.page
    page.locator("#name").fill(CLUB)
    me.shoot("clubs")
    page.locator("form[action$='/clubs'] button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/clubs/\d+$"))
    expect(page.locator("h1")).to_have_text(CLUB)
    me.says("club ready")


def add_players(me: Person, names: tuple[str, ...]) -> None:
    page = me.page
    for name in names:
        page.locator("#name").fill(name)
        page.locator("form[action$='/players'] button[type=submit]").click()
        expect(page.locator(".name-list li").last).to_have_text(name)
        me.says("player added")
    expect(page.locator(".name-list li")).to_have_text(list(names))
    me.shoot("club")


def start_match(me: Person, target: int | None = None) -> str:
    """Start a pagat match for four from the club page; returns the scoreboard's path."""
    page = me.page
    page.locator("a[href$='/matches/new']").click()
    for select, value in (("#preset", "pagat"), ("#format", "4p")):
        if page.locator(select).input_value() != value:  # another choice reloads the form
            with page.expect_navigation():
                page.locator(select).select_option(value)
    expect(page.locator("#preset")).to_have_value("pagat")
    expect(page.locator("#format")).to_have_value("4p")
    for t, team in enumerate(SEATS):
        for s, name in enumerate(team):
            page.locator(f"#team-{t}-seat-{s}").select_option(label=name)
    # The options name each player's id: bookkeeping for the hand page's per-player fields.
    options = page.locator("#first_dealer option").all()
    me.player_ids = {o.inner_text().strip(): o.get_attribute("value") or "" for o in options}
    if target is None:
        expect(page.locator("#target")).to_have_value("5000")  # pagat's own target
    else:
        page.locator("#target").fill(str(target))
    me.shoot("match-new" if target is None else f"match-new-target-{target}")
    page.locator("#new-match > button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    expect(page.locator(".standing-name")).to_have_text(list(TEAM_NAMES))
    expect(page.locator("[data-total]")).to_have_text(["0", "0"])
    me.says("match started")
    return urlsplit(page.url).path


def save_hand(me: Person, totals: tuple[int, int], said: str = "hand saved") -> None:
    page = me.page
    page.locator("button[data-save]").click()
    expect(page).to_have_url(re.compile(r"/matches/\d+$"))
    expect(page.locator("[data-total]")).to_have_text([pts(t) for t in totals])
    me.says(said)


def open_new_hand(me: Person, board: str) -> None:
    me.page.locator(f"a[href='{board}/hands/new']").click()
    expect(me.page.locator("#hand-form")).to_be_visible()


def hand_scores(me: Person, number: int, scores: tuple[int, int]) -> None:
    expect(me.page.locator(f"#hand-{number} .hand-score strong")).to_have_text(
        [pts(s) for s in scores]
    )


# --- the hands ---------------------------------------------------------------------------------

REFERENCE = [
    Side(
        melds=[
            Meld("5S-JS", numbers=("55", "200")),
            Meld("QD QC QH", numbers=("30",)),
            Meld("8H-KH JK", numbers=("80", "200")),
        ],
        went_out=True,
        biribaki=True,
    ),
    Side(
        melds=[Meld("3C-5C", numbers=("15",)), Meld("KS KD JK", numbers=("40",))],
        hands={"Bob": "AS 9D", "Dan": "JK 4H"},
    ),
]
HAND_2_B = Side(
    melds=[Meld("AC AD AS", numbers=("45",)), Meld("6S-QS", numbers=("60", "200"))],
    went_out=True,
    biribaki=True,
)
HAND_3 = [
    Side(melds=[Meld("7D-9D", numbers=("25",))], hands={"Ann": "2S", "Cat": "JK"}, biribaki=True),
    Side(
        melds=[Meld("4C-10C", numbers=("50", "400")), Meld("KH KS KD", numbers=("30",))],
        went_out=True,
        biribaki=True,
    ),
]
MATCH_2 = [
    (
        "S",
        [
            Side(melds=[Meld("QD QC QH")], hands={"Ann": "5H"}, biribaki=True),
            Side(melds=[Meld("8C-AC", numbers=("75", "200"))], went_out=True, biribaki=True),
        ],
    ),
    (
        "S",
        [
            Side(melds=[Meld("5S-JS", numbers=("55", "400"))], went_out=True, biribaki=True),
            Side(melds=[Meld("3D-5D")], hands={"Bob": "KC"}, biribaki=True),
        ],
    ),
]


def enter_hand_with_a_bad_meld(me: Person) -> None:
    """Hand 2: 3♥ 5♥ 7♥ is tapped, judged illegal live and refused on Save with its problem;
    the scorer clears it, taps the run 3♥–5♥ and saves."""
    page = me.page
    bad = Meld("3H 5H 7H", legal=False, numbers=("4♥ 6♥",))  # the gap, named by its cards
    enter_hand(
        me.page,
        me.player_ids,
        "D",
        [Side(melds=[bad], hands={"Ann": "KC"}, biribaki=True), HAND_2_B],
    )
    first = page.locator("[data-side='0'] [data-meld-row]").first
    me.says("gap verdict")
    me.shoot("hand-2-bad-meld")

    page.locator("button[data-save]").click()  # refused: nothing is saved
    expect(page.locator("#hand-errors")).to_be_visible()
    expect(page.locator("#preview .problems li").first).to_contain_text("3♥ 5♥ 7♥")
    expect(page.locator("#accepted_reason")).to_be_visible()
    expect(first.locator("input")).to_have_value("3H 5H 7H")  # the entry is kept
    expect(first.locator("[data-verdict]")).to_have_class(re.compile(r"verdict-bad"))
    me.says("refused")
    me.shoot("hand-2-refused")

    first.locator("input").click()
    page.locator("[data-card-picker] [data-picker-clear]").click()
    expect(first.locator("input")).to_have_value("")
    tap_cards(page, first.locator("input"), "3H-5H")
    expect(first.locator("input")).to_have_value("3H 4H 5H")
    expect(first.locator("[data-verdict]")).to_have_class(re.compile(r"\bverdict-ok\b"))
    expect(first.locator("[data-verdict]")).to_contain_text("15")
    # The live preview has nothing to accept any more: the reason field goes with the problem.
    expect(page.locator("[data-reason]")).to_be_hidden()
    me.shoot("hand-2-corrected")


def correct_hand_one(me: Person, board: str) -> None:
    """Open hand 1 on the scoreboard, Edit, tap kózi ♠ instead of ♥, save the correction."""
    page = me.page
    page.locator("#hand-1 summary").click()
    page.locator(f"#hand-1 a[href='{board}/hands/1/edit']").click()
    expect(page.locator("#kozi-H")).to_be_checked()
    first = page.locator("[data-side='0'] [data-meld-row] input").first
    expect(first).to_have_value(spelled("5S-JS"))
    page.locator("label[for='kozi-S']").click()
    expect(page.locator("#kozi-S")).to_be_checked()
    # The live verdict follows the kózi: the spade run is now a clean kózi biriba.
    expect(page.locator("[data-side='0'] [data-verdict]").first).to_contain_text("400")
    me.shoot("hand-1-edit")


# --- the test ----------------------------------------------------------------------------------


@pytest.fixture
def phone(
    request: pytest.FixtureRequest,
    browser: Browser,
    browser_context_args: dict[str, Any],
    live_server: str,
    screenshots: Path,
) -> Iterator[tuple[Person, list[str]]]:
    """A phone showing the home page in the test's language (Greek chosen with the page's
    switcher on an English phone), and every URL it requests."""
    lang: str = request.param
    context = browser.new_context(
        **{**browser_context_args, "service_workers": "allow"},  # the whole phone, offline too
        locale="en-US",
        extra_http_headers={"Accept-Language": "en"},
    )
    page = context.new_page()
    page.goto(live_server + "/")
    if lang != "en":
        switch_language(page, lang)
    requested = record_requests(page.context)
    try:
        yield Person(page, lang, screenshots), requested
    finally:
        context.close()


@pytest.mark.parametrize("phone", ["en", "el"], indirect=True)
def test_acceptance_flow(phone: tuple[Person, list[str]], live_server: str) -> None:
    me, requested = phone
    page = me.page
    expect(page.locator("html")).to_have_attribute("lang", re.compile(rf"^{me.lang}"))
    me.shoot("home")

    register(me)
    start_club(me)
    add_players(me, PLAYERS)
    board = start_match(me)
    me.shoot("scoreboard-new")

    # --- hand 1: the reference hand ------------------------------------------------------------
    open_new_hand(me, board)
    enter_hand(me.page, me.player_ids, "H", REFERENCE)
    me.says("run verdict")
    me.shoot("hand-1")
    save_hand(me, (H1_A, H1_B))
    hand_scores(me, 1, (H1_A, H1_B))
    me.shoot("scoreboard-hand-1")

    # --- hand 2: an illegal meld is shown, refused, corrected ----------------------------------
    open_new_hand(me, board)
    enter_hand_with_a_bad_meld(me)
    save_hand(me, (H1_A + H2_A, H1_B + H2_B))
    hand_scores(me, 2, (H2_A, H2_B))

    # --- hand 3 --------------------------------------------------------------------------------
    open_new_hand(me, board)
    enter_hand(me.page, me.player_ids, "C", HAND_3)
    me.shoot("hand-3")
    save_hand(me, (H1_A + H2_A + H3_A, H1_B + H2_B + H3_B))
    hand_scores(me, 3, (H3_A, H3_B))
    me.shoot("scoreboard-hand-3")

    # --- correct hand 1: the totals change -----------------------------------------------------
    correct_hand_one(me, board)
    save_hand(me, (H1_A_FIXED + H2_A + H3_A, H1_B + H2_B + H3_B), said="corrected")
    hand_scores(me, 1, (H1_A_FIXED, H1_B))
    page.locator("#hand-1 summary").click()
    me.shoot("scoreboard-corrected")
    assert (H1_A_FIXED + H2_A + H3_A, H1_B + H2_B + H3_B) == (765, 890)

    # --- a short match, to its winner ----------------------------------------------------------
    page.locator(".crumbs a").click()  # back to the club
    expect(page).to_have_url(re.compile(r"/clubs/\d+$"))
    me.fits()
    board = start_match(me, target=M2_TARGET)
    open_new_hand(me, board)
    kozi, sides = MATCH_2[0]
    enter_hand(me.page, me.player_ids, kozi, sides)
    save_hand(me, (M2_H1_A, M2_H1_B))
    expect(page.locator(".result-won")).to_have_count(0)  # 375 is not above 500 yet
    open_new_hand(me, board)
    kozi, sides = MATCH_2[1]
    enter_hand(me.page, me.player_ids, kozi, sides)
    save_hand(me, (M2_H1_A + M2_H2_A, M2_H1_B + M2_H2_B))
    assert M2_H1_A + M2_H2_A > M2_TARGET >= M2_H1_B + M2_H2_B
    winner = page.locator(".result-won")
    expect(winner).to_be_visible()
    expect(winner).to_contain_text(TEAM_NAMES[0])
    expect(winner).to_contain_text(pts(M2_H1_A + M2_H2_A))
    expect(page.locator(f"a[href='{board}/hands/new']")).to_have_count(0)  # the match is over
    me.says("won")
    me.shoot("winner")

    elsewhere = sorted(set(from_elsewhere(requested, live_server)))
    assert elsewhere == [], "the pages must not load anything from another host"
    assert any(plain(url).endswith("/static/js/card-picker.js") for url in requested)
