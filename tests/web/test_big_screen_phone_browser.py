"""The room's big screen opened on a phone (issue 20): a table corrected after it was
confirmed says so, and the page does not scroll sideways at 360 and 390 px in either
language (the Greek column "Κατάσταση" and "επιβεβαίωση" pushed it to 466 px)."""

from __future__ import annotations

import pytest
from flask import Flask
from playwright.sync_api import Browser, expect
from support.world import signed_in
from web.test_tournament_corrections import (  # noqa: F401 (night: the fixture)
    Night,
    fields,
    night,
    play_table,
    version_of,
)

pytestmark = pytest.mark.browser

WORDS = {"en": "Corrected, to confirm again", "el": "Διορθώθηκε, θέλει νέα επιβεβαίωση"}


def test_a_corrected_table_on_the_big_screen_of_a_phone(
    app: Flask,
    night: Night,  # noqa: F811 (the fixture imported above)
    browser: Browser,
    live_server: str,
) -> None:
    phones = app.test_client()
    director = signed_in(app.test_client(), night.owner)
    one = night.tables[1]
    play_table(phones, night, 1)
    assert phones.post(f"/tables/{one['ew']}/confirm").status_code == 302
    corrected = director.post(
        f"/matches/{one['match']}/hands/1/edit",
        data=fields(night, 1, True, ("version", str(version_of(app, one["match"], 1)))),
    )
    assert corrected.status_code == 302
    cookie = director.get_cookie("session")
    assert cookie is not None
    for width, height in ((360, 640), (390, 844)):
        for lang, words in WORDS.items():
            context = browser.new_context(
                viewport={"width": width, "height": height}, service_workers="block"
            )
            context.add_cookies(
                [
                    {"name": "session", "value": cookie.value, "url": live_server},
                    {"name": "lang", "value": lang, "url": live_server},
                ]
            )
            page = context.new_page()
            try:
                page.goto(f"{live_server}/tournaments/{night.tournament}/live")
                expect(page.locator(".screen-state").first).to_have_text(words)
                scroll = page.evaluate("document.documentElement.scrollWidth")
                assert scroll <= width, f"{lang} at {width}px scrolls sideways ({scroll}px)"
            finally:
                context.close()
