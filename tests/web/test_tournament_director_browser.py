"""The director on a laptop and on a phone, in English and Greek (issue 20): from the club page
to the tournaments, a night set up through the form, round 1 started, and its tables shown
with who sits NS and EW. Screenshots light and dark."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from support.browser import fits_a_phone, shoot, sign_in
from support.tournament_setup import pairs, setup_of, singles

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import Club
from scorekeeper.tournaments import directing
from scorekeeper.tournaments import service as tournaments

pytestmark = pytest.mark.browser

LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# Each device and language once: the phone in Greek (longer words on the narrow screen).
RUNS = [(LAPTOP, "en-GB"), (PHONE, "el-GR")]
NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida")
ENTRIES = "Eagles: Ann, Bob\nOwls: Cy, Di\nCy's cousins: Eve, Fay\nGus, Hal"
#: The console's heading for round 1 in each language.
ROUND_1 = {"en": "Round 1", "el": "Γύρος 1"}


@pytest.fixture
def club_id(app: Flask) -> int:
    with app.app_context():
        owner = accounts.create_user("eleni", "correct horse")
        club = clubs.create_club(owner, "Friday Biriba")
        for name in NAMES:
            clubs.add_player(club, name)
        assert owner.id == 1  # sign_in's default user
        return club.id


def _fits(page: Page, width: int) -> None:
    fits_a_phone(page, width)


@pytest.mark.parametrize(
    ("size", "locale"), RUNS, ids=lambda v: str(v["width"]) if isinstance(v, dict) else v
)
def test_the_director_sets_up_a_night_and_starts_round_1(
    browser: Browser,
    app: Flask,
    live_server: str,
    club_id: int,
    screenshots: Path,
    size: Any,
    locale: str,
) -> None:
    context = browser.new_context(
        viewport=size,
        locale=locale,
        is_mobile=size is PHONE,
        has_touch=size is PHONE,  # type: ignore[arg-type]
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    lang = locale[:2]
    name = f"issue20-director-{size['width']}x{size['height']}-{lang}"
    check = partial(_fits, width=size["width"])
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/clubs/{club_id}")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        page.locator("#club-tournaments").click()
        page.locator("#new-tournament").click()
        expect(page.locator("#tournament-setup")).to_be_visible()
        page.locator("#name").fill("Friday night")
        page.locator("#movement").select_option("mitchell")
        page.locator("#rounds").fill("2")
        page.locator("#deals").fill("1")
        page.locator("#scale").select_option("win-draw-loss")
        page.locator("#minutes").fill("40")
        page.locator("#entries").fill(ENTRIES)
        if size is PHONE:
            shoot(page, screenshots, f"{name}-setup", check=check)
        page.locator("#set-up").click()

        expect(page.locator("h1")).to_have_text("Friday night")
        expect(page.locator("#start-round")).to_be_visible()
        page.locator("#start-round").click()
        expect(page.locator("#round-1-title")).to_contain_text(ROUND_1[lang])
        rows = page.locator("#round-1 table.draw tbody tr")
        expect(rows).to_have_count(2)
        seated = " ".join(rows.all_inner_texts())
        for entry in ("Eagles", "Owls", "Cy's cousins", "Gus & Hal"):
            assert entry in seated
        expect(page.locator("#start-round")).to_have_count(0)
        expect(page.locator("#close-round")).to_be_visible()
        shoot(page, screenshots, f"{name}-console", check=check)

        page.locator("#ranking-link").click()
        expect(page.locator("#ranking tbody tr")).to_have_count(4)
        if size is PHONE:
            shoot(page, screenshots, f"{name}-ranking", check=check, schemes=("light",))
        assert not errors
    finally:
        context.close()


def test_the_ranking_prints_as_a_clean_table(
    browser: Browser, app: Flask, live_server: str, club_id: int, screenshots: Path
) -> None:
    """A round played, a penalty given: the printed ranking is the table and the penalty's
    reason, without the site's header, footer or buttons."""
    with app.app_context():
        owner = accounts.find_user("eleni")
        club = db.session.get(Club, club_id)
        assert owner is not None and club is not None
        ids = {p.name: p.id for p in club.players}
        partners = (("Ann", "Bob"), ("Cy", "Di"), ("Eve", "Fay"), ("Gus", "Hal"))
        setup = setup_of(
            pairs((ids[a], ids[b]) for a, b in partners), format="4p", movement="mitchell", rounds=2
        )
        made = tournaments.create_tournament(club, owner, setup)
        for table in tournaments.start_round(made, owner).tables:
            match = table.match
            assert match is not None
            kozi, first, second = PAGAT_HANDS[0]
            hand = {
                "kozi": kozi,
                "teams": [
                    {"name": t.name, **side}
                    for t, side in zip(match.teams, (first, second), strict=True)
                ],
            }
            matches.record_hand(match, owner, matches.read_hand(hand, matches.seating_of(match)))
        directing.add_penalty(made, made.entries[0].id, 1, 0, 1, "Slow play at table 1")
        tournament_id = made.id
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/tournaments/{tournament_id}/ranking")
        expect(page.locator("#ranking")).to_contain_text("Slow play at table 1")
        # On a phone the played ranking is cards: nothing scrolls sideways, not even in its box.
        page.set_viewport_size(PHONE)
        expect(page.locator("#ranking thead")).to_have_css("position", "absolute")
        assert page.evaluate(
            """() => [document.documentElement, document.querySelector(".ranking-scroll")]
                .every(e => e.scrollWidth <= e.clientWidth)"""
        ), "the ranking scrolls sideways on a phone"
        page.screenshot(path=screenshots / "issue20-ranking-phone-played.png", full_page=True)
        page.set_viewport_size(LAPTOP)
        page.emulate_media(media="print")
        expect(page.locator(".site-header")).to_be_hidden()
        expect(page.locator(".site-footer")).to_be_hidden()
        expect(page.locator(".ranking-exports")).to_be_hidden()
        expect(page.locator("#ranking tbody tr")).to_have_count(4)
        page.screenshot(path=screenshots / "issue20-ranking-print.png", full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=lambda v: f"{v['width']}")
def test_a_rounds_penalties_show_beside_the_table_results(
    browser: Browser, app: Flask, live_server: str, club_id: int, screenshots: Path, size: Any
) -> None:
    """Five singles, round 1 played: a penalty in VP and one in MP beside table 1's result,
    one beside the bye, each with its reason, on a laptop and on a phone."""
    with app.app_context():
        owner = accounts.find_user("eleni")
        club = db.session.get(Club, club_id)
        assert owner is not None and club is not None
        ids = {p.name: p.id for p in club.players}
        setup = setup_of(singles(ids[n] for n in NAMES[:5]), rounds=5, bye_vp=1)
        made = tournaments.create_tournament(club, owner, setup)
        started = tournaments.start_round(made, owner)
        for table in started.tables:
            match = table.match
            assert match is not None
            kozi, first, second = PAGAT_HANDS[0]
            sides = [{**side, "hands": side["hands"][:1]} for side in (first, second)]
            hand = {
                "kozi": kozi,
                "teams": [{"name": t.name, **s} for t, s in zip(match.teams, sides, strict=True)],
            }
            matches.record_hand(match, owner, matches.read_hand(hand, matches.seating_of(match)))
        one = started.tables[0]
        bye = started.byes[0].entry_id
        directing.add_penalty(
            made, one.ew_entry_id, 1, 0, 1, "Slow play: the deal started ten minutes late"
        )
        directing.add_penalty(made, one.ns_entry_id, 1, 30, 0, "Wrong card shown")
        directing.add_penalty(made, bye, 1, 0, 1, "Late for the draw")
        directing.confirm_table(made, 1, 1)
        tournament_id = made.id
    context = browser.new_context(
        viewport=size,
        is_mobile=size is PHONE,
        has_touch=size is PHONE,  # type: ignore[arg-type]
    )
    page = context.new_page()
    try:
        sign_in(page, app, live_server)
        page.goto(f"{live_server}/tournaments/{tournament_id}")
        first = page.locator("#round-1 table.draw tbody tr").first
        expect(first.locator(".penalty")).to_have_count(2)
        expect(first.locator(".penalty").first).to_be_visible()
        expect(first).to_contain_text("Wrong card shown")
        expect(first).to_contain_text("ten minutes late")
        expect(page.locator("#round-1 .bye .penalty")).to_contain_text("Late for the draw")
        # Beside the result: under the VP, inside the table's row (its card on a phone).
        result = first.locator("td").last.bounding_box()
        penalty = first.locator(".penalty").first.bounding_box()
        assert result is not None and penalty is not None
        assert result["y"] <= penalty["y"] < result["y"] + result["height"]
        name = f"issue20-console-penalties-{size['width']}x{size['height']}"
        shoot(page, screenshots, name, check=partial(_fits, width=size["width"]))
        page.locator("#round-1").screenshot(path=screenshots / f"{name}-round.png")
    finally:
        context.close()
