"""Take the README's screenshots from the demo club, on a phone (390×844).

    .venv/bin/python docs/screenshots/take.py

Runs `flask --app scorekeeper demo` on a throw-away SQLite database, serves the app on a free
localhost port, logs in as the demo user in Debian's Chromium and saves the scoreboard of the
running pagat match and its hand entry (a meld typed, the card picker open) next to this file.
"""

from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

import sqlalchemy as sa
from playwright.sync_api import expect, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests"))  # for support.*
from support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, log_in, serve

from scorekeeper import create_app
from scorekeeper.demo import DEMO_PASSWORD, DEMO_USER
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.services.matches import state_of

HERE = Path(__file__).parent


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "screenshots",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/demo.sqlite",
            }
        )
        result = app.test_cli_runner().invoke(args=["demo"])
        if result.exit_code:
            print(result.output, file=sys.stderr)
            return 1
        with app.app_context():
            running = [
                m.id
                for m in db.session.scalars(sa.select(Match).order_by(Match.id))
                if m.variant_id == "pagat" and not state_of(m).finished
            ]
        with serve(app) as base:
            shoot(base, running[0])
    return 0


def shoot(base: str, match_id: int) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(
            viewport=PHONE,
            is_mobile=True,
            has_touch=True,
            device_scale_factor=2,
            locale="en-US",
        )
        page = context.new_page()
        log_in(page, base, DEMO_USER, DEMO_PASSWORD)

        page.goto(f"{base}/matches/{match_id}")
        page.locator(".hand-list details").first.locator("summary").click()
        page.screenshot(path=HERE / "scoreboard.png")

        page.goto(f"{base}/matches/{match_id}/hands/new")
        page.locator("label[for='kozi-H']").click()
        first = page.locator("[data-side='0'] [data-meld-row] input").first
        first.click()
        for code in ("QD", "QC", "QH"):
            page.locator(f"[data-card-picker] [data-card='{code}']").click()
        expect(page.locator("[data-side='0'] [data-verdict]").first).to_have_class(
            re.compile(r"\bverdict-ok\b")
        )
        page.locator("[data-side='0'] [data-add-meld]").click()
        # 5S then JS: the picker fills in the run between.
        for code in ("5S", "JS"):
            page.locator(f"[data-card-picker] [data-card='{code}']").click()
        expect(page.locator("[data-side='0'] [data-verdict]").nth(1)).to_contain_text("200")
        # Start the picture at the team's card, so its melds, verdicts and the picker all show.
        page.locator("[data-side='0']").evaluate(
            "side => window.scrollTo(0, side.getBoundingClientRect().top + window.scrollY - 8)"
        )
        page.screenshot(path=HERE / "hand-entry.png")
        browser.close()


if __name__ == "__main__":
    sys.exit(main())
