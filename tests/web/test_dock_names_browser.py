# ruff: noqa: RUF001  (Greek team names are Greek letters, not look-alikes)
"""The dock's score line on the hand form (issue 19): each team's name, this hand's score and
the match total after it, on one line over the keys. With long Greek team names on a 360×640
phone, every score and total is shown whole, and every name keeps enough of itself to be
read (its start, cut with an ellipsis where it must be), for two teams and for three.

The figures are the widest a real evening gives (a four-digit loss this hand, a five-digit
total), put in by the live preview's own event (`hand:preview`, hand-entry.js's contract)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect
from support.browser import fits_a_phone, sign_in

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.match import TeamSpec, create_match

pytestmark = pytest.mark.browser

SMALL_PHONE = {"width": 360, "height": 640}
TEAMS = ["Οι Θεσσαλονικείς της Πέμπτης", "Αλεξανδρούπολη Βόρεια", "Τα Λιοντάρια του Πειραιά"]
#: The widest figures of an evening: this hand's score and the total after it.
SCORES, TOTALS = ["−1250", "2340", "−1805"], ["12345", "−3010", "11890"]
#: Enough of a name to tell the teams apart: about four Greek letters and the ellipsis.
READABLE = 40


def matches(app: Flask) -> dict[int, int]:
    """Eleni's club with six players, a match for four (two teams) and one for six (three),
    each team with a long Greek name: their ids by number of teams."""
    with app.app_context():
        owner = accounts.create_user("eleni", "password1")
        club = clubs.create_club(owner, "Παρέα")
        ids = [
            clubs.add_player(club, name).id
            for name in ("Άννα", "Βάσω", "Γιώργος", "Δήμος", "Ελένη", "Ζωή")
        ]
        two = create_match(
            club,
            owner,
            "pagat",
            "4p",
            [TeamSpec(TEAMS[0], (ids[0], ids[2])), TeamSpec(TEAMS[1], (ids[1], ids[3]))],
        )
        three = create_match(
            club,
            owner,
            "pagat",
            "6p",
            [TeamSpec(TEAMS[i], (ids[i], ids[i + 3])) for i in range(3)],
        )
        return {2: two.id, 3: three.id}


def test_long_greek_team_names_and_their_scores_stay_readable_in_the_dock(
    browser: Browser, app: Flask, live_server: str, screenshots: Path
) -> None:
    ids = matches(app)
    context = browser.new_context(
        service_workers="block",
        viewport=SMALL_PHONE,  # type: ignore[arg-type]
        locale="el-GR",
        is_mobile=True,
        has_touch=True,
    )
    page = context.new_page()
    try:
        sign_in(page, app, live_server)
        for count, match_id in ids.items():
            page.goto(f"{live_server}/matches/{match_id}/hands/new")
            dock = page.locator("[data-dock-scores]")
            expect(dock).to_be_visible()
            page.evaluate(
                """([scores, totals]) => document.querySelector("[data-hand-entry]").dispatchEvent(
                    new CustomEvent("hand:preview", {bubbles: true, detail: {
                        teams: scores.map(score => ({score})),
                        totals: totals.map(total => ({total})),
                    }}))""",
                [SCORES[:count], TOTALS[:count]],
            )
            expect(dock.locator("[data-dock-score]")).to_have_text(SCORES[:count])
            expect(dock.locator("[data-dock-total]")).to_have_text(TOTALS[:count])
            page.screenshot(path=screenshots / f"issue19-dock-names-{count}-teams-360-el.png")
            line: dict[str, Any] = dock.evaluate("e => e.getBoundingClientRect().toJSON()")
            for team in dock.locator(".dock-team").all():
                for part in team.locator("[data-dock-score], [data-dock-total]").all():
                    at = part.evaluate(
                        "e => ({box: e.getBoundingClientRect().toJSON(), "
                        "whole: e.scrollWidth <= e.clientWidth + 0.5})"
                    )
                    text = part.inner_text()
                    assert at["box"]["left"] >= line["left"] - 0.5, f"{text} cut on the left"
                    assert at["box"]["right"] <= line["right"] + 0.5, f"{text} cut off: {at}"
                    assert at["whole"], f"{text} is cut"
                name = team.locator(".dock-name")
                width = name.evaluate("e => e.getBoundingClientRect().width")
                assert width >= READABLE, f"{name.inner_text()!r} shows {width:.0f}px of itself"
            fits_a_phone(page, SMALL_PHONE["width"])
    finally:
        context.close()
