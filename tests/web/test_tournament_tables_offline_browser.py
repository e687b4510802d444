"""A table phone with no network (issue 20): a tournament table's link, opened on a phone with
no account, works at the table as a match's own pages do when the network drops. The service
worker keeps the table page and its new-hand page (static/sw.js), so "Enter hand" opens
offline; the live preview comes from the engine on the phone; Save puts the hand in the
link's outbox and the kept table page lists it; back online, it is sent once. Once the link
opens nothing any more (withdrawn by the director), the worker drops the kept pages.

One app with CSRF on (the outbox sends a fresh token), served over http://127.0.0.1 where
service workers run; at 390×844, in English; screenshots in tests/screenshots/.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from support.browser import PHONE, serve, shoot, until
from support.databases import file_app
from support.tournament_setup import setup_of

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Match, TournamentTable
from scorekeeper.play.engine_files import runtime_version
from scorekeeper.tournaments import service as tournaments
from scorekeeper.tournaments import table_links

# The phone offline is what this tests: its service worker stays (tests/conftest.py).
pytestmark = [
    pytest.mark.offline_engine,
    pytest.mark.browser,
    pytest.mark.browser_context_args(service_workers="allow"),
    pytest.mark.skipif(
        runtime_version() is None,
        reason="Pyodide is not installed (no npm at setup: `make runtime`); no offline engine",
    ),
]

# How many of a table link's pages the service worker keeps.
KEPT_TABLE_PAGES = """async () => {
    let found = [];
    for (const key of await caches.keys()) {
        if (key.startsWith('scorekeeper-pages-')) {
            for (const request of await (await caches.open(key)).keys()) {
                const path = new URL(request.url).pathname;
                if (path.startsWith('/tables/')) found.push(path);
            }
        }
    }
    return found.sort();
}"""


@dataclass(frozen=True)
class Table:
    link: str  # NS's link, its path
    table_id: int
    match_id: int
    ns: tuple[int, int]  # the players' ids, in the order of the match's seats
    ew: tuple[int, int]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with file_app(tmp_path_factory.mktemp("tables-offline")) as app:
        yield app


@pytest.fixture(scope="module")
def server(app: Flask) -> Iterator[str]:
    with serve(app) as base_url:
        yield base_url


@pytest.fixture(scope="module")
def table(app: Flask) -> Table:
    """A pairs tournament of two entries, round 1 started: its one table."""
    with app.app_context():
        owner = accounts.create_user("olga", "correct horse")
        club = clubs.create_club(owner, "Kafeneio")
        ids = {n: clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di")}
        entries = [
            {"name": "Ann & Cy", "players": [ids["Ann"], ids["Cy"]]},
            {"name": "Bob & Di", "players": [ids["Bob"], ids["Di"]]},
        ]
        setup = setup_of(entries, format="4p", rounds=1, deals_per_round=2)
        made = tournaments.create_tournament(club, owner, setup)
        (drawn,) = tournaments.start_round(made, owner).tables
        match = drawn.match
        assert match is not None
        first, second = match.teams[0], match.teams[1]
        seats = sorted(match.seats, key=lambda s: s.position)
        ns = tuple(s.player_id for s in seats if s.team_id == first.id)
        ew = tuple(s.player_id for s in seats if s.team_id == second.id)
        link = table_links.working_links(drawn)[table_links.NS]
        return Table(
            f"/tables/{table_links.token_of(link)}",
            drawn.id,
            match.id,
            (ns[0], ns[1]),
            (ew[0], ew[1]),
        )


def enter_the_reference_hand(page: Page, table: Table) -> None:
    """presets.md's reference hand, NS going out: with kózi ♥, NS 665 and EW −95."""
    page.locator("label[for='kozi-H']").click()
    for side, melds in (
        (0, ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"]),
        (1, ["3C 4C 5C", "KS KD JK"]),
    ):
        rows = page.locator(f"[data-side='{side}'] [data-meld-row]")
        for i, cards in enumerate(melds):
            if i >= rows.count() or not rows.nth(i).is_visible():
                page.locator(f"[data-side='{side}'] [data-add-meld]").click()
            rows.nth(i).locator("input").fill(cards)
    page.locator("input[name='s0-out']").check()
    page.locator("input[name='s0-biribaki']").check()
    page.locator(f"#p{table.ew[0]}-hand").fill("AS 9D")
    page.locator(f"#p{table.ew[1]}-hand").fill("JK 4H")


def hands_stored(app: Flask, table: Table) -> list[int]:
    with app.app_context():
        match = db.session.get(Match, table.match_id)
        assert match is not None
        return sorted(h.number for h in match.hands if not h.deleted)


def test_a_table_phone_enters_a_hand_with_no_network(
    browser: Browser, app: Flask, server: str, table: Table, screenshots: Path
) -> None:
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, service_workers="allow"
    )
    page = context.new_page()
    board = f"{server}{table.link}"
    page.goto(board)
    until(page, "async () => Boolean(await navigator.serviceWorker.ready)")
    page.reload()  # through the active worker, which keeps the table page and its new hand
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")
    kept = [table.link, f"{table.link}/hands/new"]
    until(
        page,
        f"async (want) => JSON.stringify(await ({KEPT_TABLE_PAGES})()) === want",
        json.dumps(kept, separators=(",", ":")),
    )
    # Online once, the hand page fetches the engine for the phone; the worker keeps it.
    page.locator(".table-enter").click()
    expect(page.locator("#hand-form")).to_be_visible()
    until(
        page,
        """async () => (await (await caches.open('scorekeeper-runtime')).keys()).length >= 6""",
        seconds=60,
    )
    page.goto(board)  # a table page seen signed out keeps the table's pages (pwa.js)
    expect(page.locator(".table-enter")).to_be_visible()
    assert page.evaluate(KEPT_TABLE_PAGES) == kept

    context.set_offline(True)
    page.locator(".table-enter").click()  # "Enter hand 1", from the worker's cache
    expect(page.locator("#hand-form")).to_be_visible()
    enter_the_reference_hand(page, table)
    expect(page.locator("[data-preview-total]")).to_have_text(["665", "−95"], timeout=30_000)
    expect(page.locator("[data-preview-offline]")).to_be_visible()
    page.locator("[data-preview]").scroll_into_view_if_needed()
    shoot(page, screenshots, "table-offline-preview", check=lambda _page: None)
    page.locator("[data-save]").click()

    expect(page).to_have_url(board)  # the kept table page
    waiting = page.locator("[data-outbox-board]")
    expect(waiting.locator(".outbox-item")).to_have_count(1)
    expect(waiting).to_contain_text("waiting to send")
    page.reload()  # still offline: the outbox is on the phone, not in the page
    expect(waiting.locator(".outbox-item")).to_have_count(1)
    # The next hand is hand 2, though the kept page was drawn when hand 1 was next, and the
    # table's state says the hand waits here (not "Waiting for the first hand").
    expect(page.locator(".table-enter")).to_have_text("Enter hand 2")
    expect(page.locator("#state-title")).to_have_text("1 hand entered on this phone, not sent yet.")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, screenshots, "table-offline-waiting", check=lambda _page: None)
    assert hands_stored(app, table) == [], "nothing reached the server"

    context.set_offline(False)
    expect(waiting).to_be_hidden(timeout=20_000)
    expect(page.locator(".table-hands li")).to_have_count(1, timeout=10_000)
    assert hands_stored(app, table) == [1]

    # The director withdraws the link: at its next check the worker drops the kept pages.
    with app.app_context():
        row = db.session.get(TournamentTable, table.table_id)
        assert row is not None
        table_links.withdraw_link(row, table_links.NS)
    page.evaluate("() => navigator.serviceWorker.controller.postMessage('online')")
    until(page, f"async () => (await ({KEPT_TABLE_PAGES})()).length === 0", seconds=15)
    context.close()
