"""On a phone, the meld checker opened from a match judges live by the match's house rules."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from support.world import new_club, pagat_match

from scorekeeper.accounts import service as accounts

pytestmark = pytest.mark.browser


@pytest.fixture
def runs_only_match(app: Flask) -> Iterator[int]:
    with app.app_context():
        owner = accounts.create_user("eleni", "password1")
        club, ids = new_club(owner)
        yield pagat_match(club, owner, list(ids.values()), house_rules={"set_ranks": []}).id


def test_live_verdict_follows_the_match_rules(
    page: Page, live_server: str, runs_only_match: int, screenshots: Path
) -> None:
    page.goto(f"{live_server}/login")
    page.get_by_label("Username").fill("eleni")
    page.get_by_label("Password").fill("password1")
    page.locator("main form button[type=submit]").click()
    page.goto(f"{live_server}/matches/{runs_only_match}")
    page.get_by_role("link", name="Check a meld").click()
    page.locator("#cards").fill("QH QD QC")
    verdict = page.locator("#meld-verdict")
    expect(verdict.locator(".verdict-problems")).to_contain_text("no sets, only runs")
    page.locator("#cards").fill("QH KH AH")
    expect(verdict.locator(".verdict-title")).to_contain_text("Legal")
    # The same set under plain pagat is legal: the house rule made the difference.
    page.get_by_label("Rules").select_option("wikipedia")
    page.locator("#cards").fill("QH QD QC")
    expect(verdict.locator(".verdict-title")).to_contain_text("Legal")
    page.screenshot(path=screenshots / "match-referee.png", full_page=True)
