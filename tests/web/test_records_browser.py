"""On a phone (390×844, light and dark): a player's page with the rating picture, the club's
partnerships, a match's score picture, and the owner adding a season and moving a match into
it. Every page fits the screen without sideways scrolling, every tap target is big enough,
the pictures take their colours from the theme, and nothing is fetched from another host."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from playwright.sync_api import Page, expect
from support.browser import fits_a_phone, log_in, record_requests, shoot
from support.hand_entries import LOSERS, WINNERS, typed
from werkzeug.security import generate_password_hash

from scorekeeper import match as matches
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import HandVersion, Match, User
from scorekeeper.records import seasons, stats

pytestmark = pytest.mark.browser

PASSWORD = "correct horse"


def won_by(winner: str, names: tuple[str, str] = ("A", "B")) -> dict[str, object]:
    """The reference hand: 665 to the side `winner` that goes out, −95 to the other."""
    return {
        "kozi": "H",
        "teams": [{"name": n, **(WINNERS if n == winner else LOSERS)} for n in names],
    }


@dataclass
class Club:
    id: int
    ann: int
    long_match: int  # eight hands to 3000
    first_match: int


def played_on(match: Match, day: date) -> None:
    when = datetime(day.year, day.month, day.day, 20, tzinfo=UTC)
    db.session.execute(
        sa.update(HandVersion).where(HandVersion.match_id == match.id).values(created_at=when)
    )
    stats.refresh_match(match)  # the derived tables follow the stored times
    db.session.commit()


@pytest.fixture
def club(app: Flask) -> Club:
    """Six weeks of Friday matches between Ann, Bob, Cy and Di (partners changing), then
    a long match to 3000 that sways both ways."""
    with app.app_context():
        owner = User(username="eleni", password_hash=generate_password_hash(PASSWORD))
        db.session.add(owner)
        friday = clubs.create_club(owner, "Friday Biriba")
        ids = {n: clubs.add_player(friday, n).id for n in ("Ann", "Bob", "Cy", "Di")}
        pairings = [
            ("Ann", "Cy", "Bob", "Di"),
            ("Ann", "Bob", "Cy", "Di"),
            ("Ann", "Di", "Bob", "Cy"),
        ]
        made = []
        for week in range(6):
            a1, a2, b1, b2 = pairings[week % 3]
            teams = [TeamSpec("A", (ids[a1], ids[a2])), TeamSpec("B", (ids[b1], ids[b2]))]
            match = matches.create_match(friday, owner, "pagat", "4p", teams, target=600)
            matches.record_hand(match, owner, typed(match, won_by("A" if week % 4 else "B")))
            played_on(match, date(2026, 3, 6) + timedelta(weeks=week))
            made.append(match.id)
        teams = [TeamSpec("Us", (ids["Ann"], ids["Bob"])), TeamSpec("Them", (ids["Cy"], ids["Di"]))]
        long = matches.create_match(friday, owner, "pagat", "4p", teams, target=3000)
        for number in range(8):
            winner = "Us" if number in (0, 1, 4, 6, 7) else "Them"
            matches.record_hand(long, owner, typed(long, won_by(winner, ("Us", "Them"))))
        played_on(long, date(2026, 4, 24))
        seasons.create_season(friday, "Spring 2026", date(2026, 3, 1), date(2026, 5, 31))
        return Club(friday.id, ids["Ann"], long.id, made[0])


def stroke_of(page: Page, selector: str) -> str:
    return str(page.locator(selector).first.evaluate("e => getComputedStyle(e).stroke"))


def follows_the_theme(page: Page, chart: str) -> None:
    """The picture `chart`'s first line changes colour between light and dark."""
    strokes = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        strokes.append(stroke_of(page, f"{chart} .chart-line-0"))
    page.emulate_media(color_scheme="light")
    assert strokes[0] != strokes[1], "the picture follows the theme"


def test_player_partnerships_and_match_pictures_on_a_phone(
    page: Page, live_server: str, club: Club, screenshots: Path
) -> None:
    requested = record_requests(page)
    log_in(page, live_server, "eleni", PASSWORD)

    # --- from the club page to Ann's page ------------------------------------------------
    page.goto(f"{live_server}/clubs/{club.id}")
    page.locator(".name-list").get_by_role("link", name="Ann").click()
    expect(page.get_by_role("heading", level=1, name="Ann")).to_be_visible()
    rating = page.get_by_role("img", name="Ann's rating after each match")
    expect(rating).to_be_visible()
    assert rating.bounding_box()["width"] > 300, "the picture uses the phone's width"  # type: ignore[index]
    expect(page.locator("#rating .chart-dot")).to_have_count(8)  # the start and 7 matches
    page.locator("#rating summary").click()
    expect(page.locator("#rating .chart-numbers tbody tr")).to_have_count(7)
    expect(page.locator(".best-hand").first.locator(".card-face").first).to_have_text("5♠")
    shoot(page, screenshots, "records-player")
    follows_the_theme(page, "#rating")

    # --- head to head from Ann's page ------------------------------------------------------
    page.get_by_label("Ann against").select_option(label="Bob")
    page.get_by_label("Their partner, for a team").select_option(label="Cy")
    page.get_by_role("button", name="Show the record").click()
    expect(page.get_by_role("heading", name="Ann against Bob & Cy")).to_be_visible()
    fits_a_phone(page)

    # --- the club's partnerships ------------------------------------------------------------
    page.get_by_role("link", name="Partnerships").click()
    expect(page.get_by_role("heading", level=1, name="Partnerships")).to_be_visible()
    expect(page.locator(".stats-table tbody tr")).to_have_count(6)
    shoot(page, screenshots, "records-partnerships")

    # --- a long match's score picture on its scoreboard -------------------------------------
    page.goto(f"{live_server}/matches/{club.long_match}")
    chart = page.get_by_role("img", name=f"Score after each hand, match {club.long_match}")
    chart.scroll_into_view_if_needed()
    expect(chart).to_be_visible()
    expect(page.locator("#progress path.chart-line")).to_have_count(2)
    expect(page.locator("#progress .chart-legend li")).to_have_text(["Us", "Them"])
    # Nine points (the start and eight hands) are labelled every second one.
    expect(page.locator("#progress .chart-label-x")).to_have_text(["0", "2", "4", "6", "8"])
    page.locator("#progress summary").click()
    expect(page.locator("#progress tbody tr")).to_have_count(8)
    shoot(page, screenshots, "records-match-chart")
    follows_the_theme(page, "#progress")

    hosts = {urlsplit(url).netloc for url in requested if not url.startswith("data:")}
    assert hosts == {urlsplit(live_server).netloc}, "no request leaves the server"


def test_the_owner_adds_a_season_and_moves_a_match_into_it(
    page: Page, live_server: str, club: Club, screenshots: Path
) -> None:
    log_in(page, live_server, "eleni", PASSWORD)
    page.goto(f"{live_server}/clubs/{club.id}")
    page.get_by_role("link", name="Seasons").first.click()
    expect(page.get_by_role("heading", level=1, name="Seasons")).to_be_visible()

    # A season overlapping spring is refused with the reason, and what was typed stays.
    page.get_by_label("Season's name").fill("Summer 2026")
    page.get_by_label("First day").fill("2026-05-20")
    page.get_by_label("Last day").fill("2026-08-31")
    page.get_by_role("button", name="Add the season").click()
    expect(page.get_by_role("alert")).to_contain_text("These days overlap the season Spring 2026")
    expect(page.get_by_label("Season's name")).to_have_value("Summer 2026")
    shoot(page, screenshots, "records-season-refused")
    page.get_by_label("First day").fill("2026-06-01")
    page.get_by_role("button", name="Add the season").click()
    expect(page.get_by_text("The season Summer 2026 is ready.")).to_be_visible()
    expect(page.get_by_text("No match falls in this season yet.")).to_be_visible()

    # The first match moves to summer from its scoreboard, and the season page lists it.
    page.goto(f"{live_server}/matches/{club.first_match}")
    expect(page.locator(".match-season")).to_contain_text("Season: Spring 2026")
    page.get_by_role("link", name="Change season").click()
    page.get_by_label("Season of this match").select_option(label="Summer 2026")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_text(f"Match {club.first_match} is now in Summer 2026.")).to_be_visible()
    page.locator(".match-season").get_by_role("link", name="Summer 2026").click()
    expect(page.locator(".tap-list .card-title")).to_have_count(1)
    expect(page.get_by_text("placed by the owner")).to_be_visible()
    shoot(page, screenshots, "records-season")
