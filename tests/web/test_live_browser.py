"""Several phones at one table: the scorer saves, corrects and deletes hands; a member's
scoreboard, a phone on the share link and the club's big screen follow within 3 s, without a
reload and keeping an open hand's details open; withdrawing the link ends it at once.

One test for all of it (browser tests are slow); it also takes the screenshots of the share
page with its QR code and of the big screen, light and dark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, Page, expect
from support.browser import log_in
from support.hand_entries import LOSERS, REFERENCE_HAND, WINNERS, typed
from support.world import new_club, pagat_match

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import Membership, Role
from scorekeeper.play import sharing
from scorekeeper.rules.points import format_points

pytestmark = pytest.mark.browser

PASSWORD = "correct horse"
#: The goal: a save shows on every other screen within 3 s.
FOLLOW_MS = 3000
SHOTS = Path("/tmp/shots-live")


@pytest.fixture
def table(app: Flask) -> dict[str, Any]:
    """A club with a running match of one hand, a second running match for the big screen,
    a viewer, and a share link to the first match."""
    with app.app_context():
        scorer = accounts.create_user("eleni", PASSWORD)
        viewer = accounts.create_user("vera", PASSWORD)
        club, ids = new_club(scorer, "Kafeneio", ("Ann", "Bob", "Cy", "Di", "Eve", "Flo"))
        db.session.add(Membership(club=club, user=viewer, role=Role.VIEWER))
        match = pagat_match(club, scorer, [ids[n] for n in ("Ann", "Bob", "Cy", "Di")])
        matches.record_hand(match, scorer, typed(match, REFERENCE_HAND))
        second = pagat_match(club, scorer, [ids[n] for n in ("Eve", "Ann", "Flo", "Bob")])
        matches.record_hand(second, scorer, typed(second, REFERENCE_HAND))
        token = sharing.create_link(club, match, scorer)
        return {"club": club.id, "match": match.id, "token": token}


def api(page: Page, base: str, method: str, path: str, **kw: Any) -> Any:
    """A write through the JSON API with the page's session and CSRF token, as a phone's
    script would send it; returns the response."""
    token = page.locator("input[name=csrf_token]").first.input_value()
    headers = {"X-CSRFToken": token, "Content-Type": "application/json", **kw.pop("headers", {})}
    response = page.request.fetch(base + path, method=method, headers=headers, **kw)
    assert response.ok, response.text()
    return response


def test_viewers_follow_the_scorer_live_and_a_withdrawn_link_dies(
    browser: Browser, app: Flask, live_server: str, table: dict[str, Any]
) -> None:
    SHOTS.mkdir(exist_ok=True)
    base, match, club = live_server, table["match"], table["club"]
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    scorer_ctx, viewer_ctx, guest_ctx = (
        browser.new_context(
            service_workers="block",  # not the offline phone: tests/conftest.py
            **phone,
        )
        for _ in range(3)
    )
    scorer, viewer, guest = scorer_ctx.new_page(), viewer_ctx.new_page(), guest_ctx.new_page()
    log_in(scorer, base, "eleni", PASSWORD)
    log_in(viewer, base, "vera", PASSWORD)
    scorer.goto(f"{base}/matches/{match}")
    viewer.goto(f"{base}/matches/{match}")
    guest.goto(f"{base}/watch/{match}/{table['token']}")
    screen = scorer_ctx.new_page()
    screen.set_viewport_size({"width": 1280, "height": 720})
    screen.goto(f"{base}/clubs/{club}/live")
    for page in (viewer, guest):
        expect(page.locator("[data-total]")).to_have_text(["665", "−95"])
        # The viewer opens hand 1's details and scrolls down to them.
        page.locator("#hand-1 summary").click()
        page.locator("#hand-1").scroll_into_view_if_needed()
    scrolled = viewer.evaluate("window.scrollY")
    assert scrolled > 0
    expect(screen.locator(f"#live-match-{match} .big-total")).to_have_text(["665", "−95"])

    # --- hand 2 saved on the scorer's phone ----------------------------------------------------
    hand_2 = {"kozi": "H", "teams": [{"name": "A", **LOSERS}, {"name": "B", **WINNERS}]}
    api(
        scorer,
        base,
        "POST",
        f"/api/v1/matches/{match}/hands",
        data=hand_2,
        headers={"Idempotency-Key": "live-hand-2"},
    )
    for page in (viewer, guest):
        expect(page.locator("[data-total]")).to_have_text(["570", "570"], timeout=FOLLOW_MS)
        expect(page.locator("#hand-2")).to_be_visible()
        expect(page.locator("#hand-1 details")).to_have_attribute("open", "", timeout=FOLLOW_MS)
    expect(screen.locator(f"#live-match-{match} .big-total")).to_have_text(
        ["570", "570"], timeout=FOLLOW_MS
    )
    expect(screen.locator(f"#live-match-{match} .big-last")).to_contain_text("Hand 2")
    assert viewer.evaluate("window.scrollY") >= scrolled, "the viewer stays where they were"

    # --- hand 2 corrected: the kózi was spades ------------------------------------------------
    corrected = {**hand_2, "kozi": "S"}
    answer = api(
        scorer,
        base,
        "PUT",
        f"/api/v1/matches/{match}/hands/2",
        data=corrected,
        headers={"If-Match": '"1"'},
    ).json()
    scores = [int(t["score"]) for t in answer["teams"]]
    want = [format_points(665 + scores[0]), format_points(-95 + scores[1])]
    assert want != ["570", "570"], "the correction moves the totals"
    for page in (viewer, guest):
        expect(page.locator("[data-total]")).to_have_text(want, timeout=FOLLOW_MS)
        expect(page.locator("#hand-1 details")).to_have_attribute("open", "")

    # --- hand 2 deleted --------------------------------------------------------------------------
    api(scorer, base, "DELETE", f"/api/v1/matches/{match}/hands/2", headers={"If-Match": '"2"'})
    for page in (viewer, guest):
        expect(page.locator("[data-total]")).to_have_text(["665", "−95"], timeout=FOLLOW_MS)
        expect(page.locator("#hand-2")).to_contain_text("deleted", timeout=FOLLOW_MS)
    expect(screen.locator(f"#live-match-{match} .big-total")).to_have_text(
        ["665", "−95"], timeout=FOLLOW_MS
    )

    guest.screenshot(path=SHOTS / "watch-light.png", full_page=True)

    # --- the share page: a new link and its QR code ----------------------------------------------
    scorer.goto(f"{base}/matches/{match}")
    scorer.screenshot(path=SHOTS / "scoreboard-scorer.png", full_page=True)
    scorer.get_by_role("link", name="Share: link and QR code").click()
    scorer.get_by_role("button", name="Make a link and its QR code").click()
    expect(scorer.locator("svg.qr-code")).to_be_visible()
    box = scorer.locator("svg.qr-code").bounding_box()
    assert box is not None and box["width"] >= 200, "big enough to scan from across a table"
    for scheme in ("light", "dark"):
        scorer.emulate_media(color_scheme=scheme)
        scorer.screenshot(path=SHOTS / f"share-qr-{scheme}.png", full_page=True)
    new_link = scorer.locator("#share-link").input_value()
    guest_2 = guest_ctx.new_page()
    guest_2.goto(new_link)
    expect(guest_2.locator("[data-total]")).to_have_text(["665", "−95"])

    # --- withdrawn: the guest's open page says so, and the link is a 404 at once ----------------
    scorer.goto(f"{base}/matches/{match}/share")
    withdraw = scorer.get_by_role("button", name="Withdraw")
    expect(withdraw).to_have_count(2)
    withdraw.first.click()  # the newest link
    withdraw.first.click()  # and the first one
    expect(scorer.get_by_role("button", name="Withdraw")).to_have_count(0)
    expect(guest.locator("[data-live-gone-note]")).to_be_visible(timeout=FOLLOW_MS)
    assert guest.request.get(f"{base}/watch/{match}/{table['token']}").status == 404
    assert guest.goto(new_link).status == 404  # type: ignore[union-attr]

    # --- the big screen at a television's and a laptop's size, light and dark -------------------
    for width, height in ((1920, 1080), (1280, 720)):
        screen.set_viewport_size({"width": width, "height": height})
        assert screen.evaluate("document.documentElement.scrollWidth") <= width
        for scheme in ("light", "dark"):
            screen.emulate_media(color_scheme=scheme)
            screen.screenshot(path=SHOTS / f"big-screen-{width}-{scheme}.png")
    for context in (scorer_ctx, viewer_ctx, guest_ctx):
        context.close()
