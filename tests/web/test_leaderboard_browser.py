"""On a phone: from the club page to the leaderboard, a season picked and a column sorted
with the pickers alone (they submit themselves), each player a card that fits the screen
(at 360 px as at 390), in English and Greek, light and dark."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from support.browser import fits_a_phone
from support.hand_entries import typed

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.errors import Conflict
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.records import seasons

pytestmark = pytest.mark.browser

NAMES = ("Eleni", "Nikos", "Maria", "Giorgos", "Katerina Papadopoulou")


def _club(app: Flask) -> int:
    with app.app_context():
        user = accounts.create_user("eleni", "correct horse")
        club = clubs.create_club(user, "Friday")
        ids = [clubs.add_player(club, name).id for name in NAMES]
        today = date.today()
        seasons.create_season(club, "This year", date(today.year, 1, 1), date(today.year, 12, 31))
        for shift in range(5):
            ring = ids[shift:] + ids[:shift]
            teams = [TeamSpec("A", (ring[0], ring[1])), TeamSpec("B", (ring[2], ring[3]))]
            match = matches.create_match(club, user, "pagat", "4p", teams, target=1200)
            for number in range(8):
                kozi, first, second = PAGAT_HANDS[(number + shift) % len(PAGAT_HANDS)]
                if number % 3 == 2:
                    first, second = second, first
                entry = {"kozi": kozi, "teams": [{"name": "A", **first}, {"name": "B", **second}]}
                try:
                    matches.record_hand(match, user, typed(match, entry))
                except Conflict:  # the match is over
                    db.session.rollback()
                    break
        return club.id


def test_the_leaderboard_on_a_phone(
    page: Page, app: Flask, live_server: str, screenshots: Path
) -> None:
    club_id = _club(app)
    page.goto(live_server + "/login")
    page.get_by_label("Username").fill("eleni")
    page.get_by_label("Password").fill("correct horse")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server}/clubs/{club_id}")
    page.get_by_role("link", name="Leaderboard").click()
    expect(page.get_by_role("heading", level=1, name="Leaderboard")).to_be_visible()
    # Without a choice, the season running today.
    expect(page.locator("#board-season option:checked")).to_have_text("This year")
    ranked = page.locator("section[aria-labelledby=ranked-title] tbody tr")
    expect(ranked).to_have_count(5)

    # The sort picker submits itself: points per hand comes first, highest first.
    page.get_by_label("Sort by").select_option("points_per_hand")
    page.wait_for_url("**sort=points_per_hand**")
    header = page.locator("section[aria-labelledby=ranked-title] thead th").nth(1)
    expect(header).to_have_attribute("aria-sort", "descending")
    values = [
        float(text.replace(",", ""))
        for text in page.locator(
            "section[aria-labelledby=ranked-title] tbody tr td:nth-of-type(1)"
        ).all_inner_texts()
    ]
    assert values == sorted(values, reverse=True)

    # Every column is there, each player a card: nothing scrolls sideways, even at 360 px.
    scroller = page.locator(".board-scroll").first
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth")
    card = ranked.first
    expect(card.locator("td[data-label='Pts/hand']")).to_be_visible()
    expect(card.locator("th a")).to_have_attribute(
        "href", re.compile(rf"^/clubs/{club_id}/players/\d+$")
    )
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        fits_a_phone(page)
        page.screenshot(path=screenshots / f"leaderboard-{theme}.png", full_page=True)
    page.set_viewport_size({"width": 360, "height": 640})
    fits_a_phone(page, 360)
    page.screenshot(path=screenshots / "leaderboard-360.png", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})

    # The rating explained in a sentence, a tap away.
    page.get_by_text("What is the rating?").click()
    expect(page.get_by_text("Everyone starts at 0", exact=False)).to_be_visible()

    # The order picker turns the order round.
    page.get_by_label("Order").select_option("asc")
    page.wait_for_url("**dir=asc**")
    expect(page.get_by_label("Order")).to_have_value("asc")

    # Greek words are longer; the page must still fit.
    page.get_by_role("button", name="Ελληνικά").click()
    expect(page.get_by_role("heading", level=1, name="Κατάταξη")).to_be_visible()
    for theme in ("light", "dark"):
        page.emulate_media(color_scheme=theme)
        fits_a_phone(page)
        page.screenshot(path=screenshots / f"leaderboard-el-{theme}.png", full_page=True)
    page.set_viewport_size({"width": 360, "height": 640})
    fits_a_phone(page, 360)
