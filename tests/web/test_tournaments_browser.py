"""A tournament table's match on the phone: its scoreboard says it is over once its deals are
in, with the winner, or a draw when the two entries are level (the match's `deals` rule)."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from playwright.sync_api import Page, expect
from support.browser import log_in, shoot
from support.tournament_setup import pairs, setup_of

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.tournaments import service as tournaments

pytestmark = pytest.mark.browser

PASSWORD = "correct horse"
#: A hand both sides score alike: the same cards melded and held, neither out.
LEVEL_SIDE = {"melds": ["3C 4C 5C"], "hands": ["9S", "8D"], "took_biribaki": True}


@pytest.fixture
def tables(app: Flask) -> list[int]:
    """Round 1 of a one-deal night of four pairs: table 1 won by its NS entry, table 2
    level; the two tables' match ids."""
    with app.app_context():
        owner = accounts.create_user("eleni", PASSWORD)
        club = clubs.create_club(owner, "Friday Biriba")
        ids = [clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di", "Eve", "Fay")]
        ids += [clubs.add_player(club, n).id for n in ("Gus", "Hal")]
        setup = setup_of(
            pairs(ids[n : n + 2] for n in range(0, 8, 2)),
            format="4p",
            movement="mitchell",
            rounds=2,
            vp_scale="burraco-3-deals",
        )
        made = tournaments.create_tournament(club, owner, setup)
        started = tournaments.start_round(made, owner)
        match_ids = [t.match_id for t in started.tables]
        kozi, first, second = PAGAT_HANDS[0]
        for match_id, sides in zip(
            match_ids, ((first, second), (LEVEL_SIDE, LEVEL_SIDE)), strict=True
        ):
            match = db.session.get(Match, match_id)
            assert match is not None
            hand = {
                "kozi": kozi,
                "teams": [{"name": t.name, **s} for t, s in zip(match.teams, sides, strict=True)],
            }
            matches.record_hand(
                match, owner, matches.read_hand(hand, matches.seating_of(match)), "level"
            )
        return [m for m in match_ids if m is not None]


def test_a_tables_scoreboard_says_it_is_over_after_its_deals(
    page: Page, app: Flask, live_server: str, tables: list[int], screenshots: Path
) -> None:
    log_in(page, live_server, "eleni", PASSWORD)
    won, level = tables
    page.goto(f"{live_server}/matches/{won}")
    expect(page.locator(".result-won")).to_contain_text("Ann & Bob won")
    expect(page.locator(".match-meta")).to_contain_text("the higher total after 1 hand")
    shoot(page, screenshots, "tournament-table-won")

    page.goto(f"{live_server}/matches/{level}")
    expect(page.locator(".result-tied")).to_contain_text("A draw")
    expect(page.locator(".result-tied")).to_contain_text("level after its last hand")
    shoot(page, screenshots, "tournament-table-draw")


def test_the_new_match_form_offers_fixed_deals_as_a_house_rule(
    page: Page, app: Flask, live_server: str, tables: list[int], screenshots: Path
) -> None:
    log_in(page, live_server, "eleni", PASSWORD)
    page.goto(f"{live_server}/clubs/1/matches/new")
    page.locator("details.house-rules summary").click()
    field = page.locator("#opt-deals")
    expect(field).to_have_value("")
    expect(page.locator("label[for=opt-deals]")).to_contain_text("Hands in the match")
    rule = page.locator(".option-rule", has=field)
    rule.scroll_into_view_if_needed()
    rule.screenshot(path=screenshots / "house-rule-deals.png")
