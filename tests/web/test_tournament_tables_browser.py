"""Club night in the browser (issue 20): three table phones with no account open their table
links, each enters a hand through the card picker, the side that did not enter the last
hand confirms with one tap, the big screen (1920×1080) follows each change within 3 s, and
a withdrawn link is 404 at once. In English and Greek, light and dark; the table page, the
table card and the big screen are saved as screenshots."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, Route, expect
from support.browser import shoot, sign_in
from support.hand_taps import Meld, Side, enter_hand
from support.tournament_setup import setup_of, singles

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.tournaments import service as tournaments
from scorekeeper.tournaments import table_links

pytestmark = pytest.mark.browser

PASSWORD = "correct horse"
#: Without a service worker, as main's browser tests do unless they are about the phone
#: offline: the outbox sends a missed hand by itself (outbox.js), no worker needed.
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "service_workers": "block",
}
SCREEN = {"viewport": {"width": 1920, "height": 1080}, "service_workers": "block"}
#: A big screen shows a change within this long (a poll every 2 s, then the page drawn).
FOLLOWS_MS = 3_000
WORDS = {
    "en": {"confirm": "Confirm the result", "confirmed": "Confirmed", "deal": "1 of 2 deals"},
    "el": {"confirm": "Επιβεβαίωση αποτελέσματος", "confirmed": "Επιβεβαιώθηκε", "deal": "1 από 2"},
}


@dataclass
class Phone:
    page: Page
    player_ids: dict[str, int]


@dataclass(frozen=True)
class Night:
    tournament: int
    owner: int
    players: dict[str, int]
    links: dict[tuple[int, str], str]  # (table, side) → the link's path


@pytest.fixture
def night(app: Flask) -> Night:
    with app.app_context():
        owner = accounts.create_user("olga", PASSWORD)
        club = clubs.create_club(owner, "Kafeneio")
        players = {n: clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di")}
        setup = setup_of(singles(players.values()), deals_per_round=2, round_minutes=45)
        made = tournaments.create_tournament(club, owner, setup)
        links = {}
        for table in tournaments.start_round(made, owner).tables:
            for side, link in table_links.working_links(table).items():
                links[(table.number, side)] = f"/tables/{table_links.token_of(link)}"
        return Night(made.id, owner.id, players, links)


def phone(browser: Browser, lang: str, night: Night) -> Phone:
    context = browser.new_context(locale="el-GR" if lang == "el" else "en-GB", **PHONE)  # type: ignore[arg-type]
    return Phone(context.new_page(), night.players)


def enter_one(phone: Phone, base: str, link: str, sides: list[Side]) -> None:
    page = phone.page
    page.locator(".table-enter").click()
    expect(page).to_have_url(re.compile(r"/hands/new$"))
    enter_hand(phone.page, phone.player_ids, "H", sides)
    page.locator("button[data-save]").click()
    expect(page).to_have_url(f"{base}{link}")


def hands_for(phone: Phone, first: str, second: str, winner_first: bool) -> list[Side]:
    """The demo's first pagat hand for two, the table's first or second player going out
    with three melds."""
    winner = Side(
        melds=[Meld("5S-JS"), Meld("QD QC QH"), Meld("8H-KH JK")], went_out=True, biribaki=True
    )
    loser = Side(melds=[Meld("3C-5C"), Meld("KS KD JK")])
    win = Side(winner.melds, {first if winner_first else second: ""}, True, True)
    lose = Side(loser.melds, {second if winner_first else first: "AS 9D"})
    return [win, lose] if winner_first else [lose, win]


@pytest.mark.parametrize("lang", ["en", "el"])
def test_three_table_phones_and_the_big_screen(
    browser: Browser, app: Flask, live_server: str, night: Night, screenshots: Path, lang: str
) -> None:
    words = WORDS[lang]
    screen_context = browser.new_context(locale="el-GR" if lang == "el" else "en-GB", **SCREEN)  # type: ignore[arg-type]
    screen = screen_context.new_page()
    sign_in(screen, app, live_server, night.owner)
    screen.goto(f"{live_server}/tournaments/{night.tournament}/live")
    expect(screen.locator("[data-round-clock-time]")).to_have_text(re.compile(r"^4[45]:\d\d$"))
    rows = screen.locator(".tournament-tables tbody tr")
    expect(rows).to_have_count(2)

    # Phone A: table 1's NS. Phone B: table 1's EW. Phone C: table 2's NS. No account.
    a, b, c = (phone(browser, lang, night) for _ in range(3))
    for who, (table, side) in ((a, (1, "ns")), (b, (1, "ew")), (c, (2, "ns"))):
        who.page.goto(f"{live_server}{night.links[(table, side)]}")
        expect(who.page.locator("h1")).to_contain_text(str(table))
        expect(who.page.locator(".site-nav a[href^='/clubs']")).to_have_count(0)
    clock = a.page.locator("[data-round-clock-time]")
    expect(clock).to_have_text(re.compile(r"^4[45]:\d\d$"))
    drawn = clock.inner_text()
    expect(clock).not_to_have_text(drawn, timeout=2_500)  # the clock ticks on the phone
    shoot(a.page, screenshots, f"tournament-table-phone-{lang}")

    # Table 1, hand 1 by NS on phone A: the big screen shows 1 of 2 deals within 3 s.
    a.page.locator(".table-enter").click()
    expect(a.page.locator(".crumbs a")).to_contain_text("1")
    shoot(a.page, screenshots, f"tournament-table-hand-{lang}")
    names = a.page.locator(".side-entry h2").all_inner_texts()
    first = next(n for n in night.players if n in names[0])
    second = next(n for n in night.players if n in names[1])
    a.page.go_back()
    enter_one(a, live_server, night.links[(1, "ns")], hands_for(a, first, second, True))
    expect(rows.nth(0)).to_contain_text(words["deal"], timeout=FOLLOWS_MS)

    # Table 1, hand 2 by EW on phone B: the table's deals are in; NS confirms, not EW.
    b.page.reload()
    enter_one(b, live_server, night.links[(1, "ew")], hands_for(b, first, second, False))
    expect(b.page.locator(".table-confirm-button")).to_have_count(0)
    expect(a.page.locator(".table-confirm-button")).to_have_text(words["confirm"])
    shoot(a.page, screenshots, f"tournament-table-confirm-{lang}")
    a.page.locator(".table-confirm-button").click()
    expect(a.page.locator(".table-confirmed")).to_be_visible()
    expect(rows.nth(0).locator(".screen-state")).to_have_text(
        words["confirmed"], timeout=FOLLOWS_MS
    )
    # Phone B follows by itself: its page shows the confirmation without a reload.
    expect(b.page.locator(".table-confirmed")).to_be_visible(timeout=FOLLOWS_MS)

    # Table 2, hand 1 by NS on phone C.
    c.page.locator(".table-enter").click()
    names = c.page.locator(".side-entry h2").all_inner_texts()
    first2 = next(n for n in night.players if n in names[0])
    second2 = next(n for n in night.players if n in names[1])
    c.page.go_back()
    enter_one(c, live_server, night.links[(2, "ns")], hands_for(c, first2, second2, True))
    expect(rows.nth(1)).to_contain_text(words["deal"], timeout=FOLLOWS_MS)
    expect(screen.locator(".tournament-ranking tbody tr")).to_have_count(4)
    screen.emulate_media(color_scheme="light")
    screen.screenshot(path=screenshots / f"tournament-big-screen-{lang}.png")
    screen.emulate_media(color_scheme="dark")
    screen.screenshot(path=screenshots / f"tournament-big-screen-{lang}-dark.png")

    # The director withdraws table 2's NS link on its card: phone C's link is 404 at once.
    director = screen_context.new_page()
    director.set_viewport_size({"width": 390, "height": 844})
    director.goto(f"{live_server}/tournaments/{night.tournament}/rounds/1/tables/2/card")
    expect(director.locator(".qr-code")).to_have_count(2)
    shoot(director, screenshots, f"tournament-table-card-{lang}", check=lambda page: None)
    director.emulate_media(media="print")
    expect(director.locator(".site-header")).to_be_hidden()
    expect(director.locator(".table-card form")).to_have_count(2)
    expect(director.locator(".table-card form").first).to_be_hidden()
    director.screenshot(
        path=screenshots / f"tournament-table-card-{lang}-print.png", full_page=True
    )
    director.emulate_media(media="screen")
    director.locator(".table-card-side").nth(0).locator("button").click()
    expect(director.locator(".flash")).to_be_visible()
    expect(c.page.locator(".live-gone")).to_be_visible(timeout=FOLLOWS_MS)
    answer = c.page.goto(f"{live_server}{night.links[(2, 'ns')]}")
    assert answer is not None and answer.status == 404
    for each in (a, b, c):
        each.page.context.close()
    screen_context.close()


def test_a_table_phones_outbox_sends_a_hand_the_server_missed(
    browser: Browser, live_server: str, night: Night
) -> None:
    """A hand whose save did not reach the server waits in the phone's outbox (the link's
    own, with no account) and is sent by itself once the server answers again."""
    a = phone(browser, "en", night)
    link = night.links[(1, "ns")]
    missed: list[str] = []

    def once_unreachable(route: Route) -> None:
        if route.request.method == "POST" and not missed:
            missed.append(route.request.url)
            route.abort("internetdisconnected")
        else:
            route.continue_()

    a.page.route(f"**{link}/hands/new", once_unreachable)
    a.page.goto(f"{live_server}{link}")
    a.page.locator(".table-enter").click()
    names = a.page.locator(".side-entry h2").all_inner_texts()
    first = next(n for n in night.players if n in names[0])
    second = next(n for n in night.players if n in names[1])
    enter_hand(a.page, a.player_ids, "H", hands_for(a, first, second, True))
    a.page.locator("button[data-save]").click()
    expect(a.page).to_have_url(f"{live_server}{link}")
    assert missed, "the first save never reached the server"
    # The outbox sends it from the table page; the page follows the table and lists it.
    expect(a.page.locator(".table-hands li")).to_have_count(1, timeout=10_000)
    expect(a.page.locator(".table-hands li")).to_contain_text(first)
    assert (
        a.page.evaluate(
            "() => Object.keys(localStorage).filter(k => k.startsWith('scorekeeper:outbox:'))"
        )
        == []
    )
    a.page.context.close()


# --- the card picker, as a scorer taps it (as tests/web/test_flow_browser.py does) ---------


# --- a person on a phone -----------------------------------------------------------------------
