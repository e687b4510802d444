"""The score with no network, from the same engine: the hand page runs `scorekeeper/rules` in
Chromium through Pyodide (static/js/offline-engine.js, scorekeeper/play/offline_score.py).

* Every golden hand (tests/rules/data), every hand of the bench's evening, and one hand under
  each preset, scored in the page, gives exactly the server's answer (POST /api/v1/hands/score,
  computed here in the test process).
* With the runtime kept by the service worker and the network gone, the live preview shows
  the reference hand's lines and the match totals, marked as scored on the phone.

Skipped where npm did not install Pyodide (`make runtime`): the page then has no such engine.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import Browser, BrowserContext, Page, expect
from support.browser import PHONE, log_in, serve, shoot, until
from support.databases import file_app
from support.world import new_club, pagat_match

from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import Club, User
from scorekeeper.play.engine_files import runtime_version
from scorekeeper.referee.service import InputError, score_hand_request
from scorekeeper.rules.points import points_json
from scorekeeper.rules.presets import PRESETS

pytestmark = [
    pytest.mark.offline_engine,
    pytest.mark.browser,
    pytest.mark.skipif(
        runtime_version() is None,
        reason="Pyodide is not installed (no npm at setup: `make runtime`); no offline engine",
    ),
]

PASSWORD = "correct horse"
TESTS = Path(__file__).parents[1]
SHOTS = TESTS / "screenshots"
GOLDEN = sorted((TESTS / "rules" / "data").glob("*.json"))
EVENING = json.loads((TESTS / "bench" / "match_hands.json").read_text(encoding="utf-8"))
EXAMPLE = TESTS / "rules" / "data" / "pagat_architecture_example.json"
ARCHITECTURE = json.loads(EXAMPLE.read_text(encoding="utf-8"))


def cases() -> list[tuple[str, dict[str, Any]]]:
    """Every request the browser must score as the server does: the golden hands, the bench's
    evening, and the architecture example under every preset."""
    found = [(p.stem, json.loads(p.read_text(encoding="utf-8"))["request"]) for p in GOLDEN]
    for n, hand in enumerate(EVENING["hands"], 1):
        body = {
            "variant": EVENING["variant"],
            "options": {},
            "format": EVENING["format"],
            "kozi": hand["kozi"],
            "teams": [
                {"name": team["name"], **side}
                for team, side in zip(EVENING["teams"], hand["teams"], strict=True)
            ],
        }
        found.append((f"evening-{n}", body))
    for variant_id in PRESETS:
        body = copy.deepcopy(ARCHITECTURE["request"])
        body["variant"] = variant_id
        found.append((f"preset-{variant_id}", body))
    return found


def server_answer(app: Flask, body: dict[str, Any]) -> dict[str, Any] | None:
    """POST /api/v1/hands/score's answer, in the golden files' contract (None if refused)."""
    with app.test_request_context():
        try:
            answer = score_hand_request(copy.deepcopy(body))
        except (InputError, ValueError):
            return None
    return {
        "legal": answer["legal"],
        "problems": [str(p) for p in answer["problems"]],
        "teams": [
            {
                "name": t["name"],
                "score": points_json(t["score"]),
                "lines": [
                    {"label": str(ln["label"]), "points": points_json(ln["points"])}
                    for ln in t["lines"]
                ],
                "problems": [str(p) for p in t["problems"]],
                "opening_required": t["opening_required"],
            }
            for t in answer["teams"]
        ],
    }


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    with file_app(tmp_path_factory.mktemp("engine")) as app:
        with app.app_context():
            user = accounts.create_user("eleni", PASSWORD)
            club, ids = new_club(user)
            pagat_match(club, user, list(ids.values()))
        yield app


@pytest.fixture(scope="module")
def server(app: Flask) -> Iterator[str]:
    with serve(app) as base_url:
        yield base_url


def match_id(app: Flask) -> int:
    with app.app_context():
        club = db.session.scalars(db.select(Club)).one()
        assert db.session.scalars(db.select(User)).one()
        return club.matches[0].id


@pytest.fixture(scope="module")
def phone(browser: Browser, server: str) -> Iterator[tuple[BrowserContext, Page]]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, server, "eleni", PASSWORD)
    yield context, page
    context.close()


def test_every_golden_hand_scores_in_the_browser_as_on_the_server(
    app: Flask, server: str, phone: tuple[BrowserContext, Page]
) -> None:
    _context, page = phone
    page.goto(f"{server}/matches/{match_id(app)}/hands/new")
    expected = {name: server_answer(app, body) for name, body in cases()}
    requests = {name: json.dumps(body) for name, body in cases() if expected[name] is not None}
    assert len(requests) >= len(GOLDEN) + len(EVENING["hands"]) + len(PRESETS) - 2
    answers = page.evaluate(
        """async (requests) => {
            const engine = window.scorekeeperOfflineEngine;
            const out = {};
            for (const [name, body] of Object.entries(requests)) {
                out[name] = JSON.parse(await engine.score(body));
            }
            return out;
        }""",
        requests,
    )
    for name in requests:
        assert answers[name] == expected[name], name


def test_the_live_preview_offline_comes_from_the_engine(
    app: Flask, server: str, phone: tuple[BrowserContext, Page]
) -> None:
    context, page = phone
    page.goto(f"{server}/matches/{match_id(app)}/hands/new")
    until(page, "() => navigator.serviceWorker.controller !== null")
    page.reload()  # controlled now: the page's runtime goes through the worker's cache
    until(
        page,
        """async () => (await (await caches.open('scorekeeper-runtime')).keys()).length >= 6""",
        seconds=30,
    )
    context.set_offline(True)
    try:
        page.locator("label[for='kozi-H']").click()
        rows = page.locator("[data-side='0'] [data-meld-row]")
        for i, cards in enumerate(["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"]):
            if i >= rows.count() or not rows.nth(i).is_visible():
                page.locator("[data-side='0'] [data-add-meld]").click()
            rows.nth(i).locator("input").fill(cards)
        page.locator("input[name='s0-out']").check()
        page.locator("input[name='s0-biribaki']").check()
        rows = page.locator("[data-side='1'] [data-meld-row]")
        for i, cards in enumerate(["3C 4C 5C", "KS KD JK"]):
            if i >= rows.count() or not rows.nth(i).is_visible():
                page.locator("[data-side='1'] [data-add-meld]").click()
            rows.nth(i).locator("input").fill(cards)
        page.locator(".hands .field", has_text="Bob").locator("input").fill("AS 9D")
        page.locator(".hands .field", has_text="Di").locator("input").fill("JK 4H")
        totals = page.locator("[data-preview-total]")
        expect(totals).to_have_text(["665", "−95"], timeout=20_000)
        expect(page.locator("[data-preview-offline]")).to_be_visible()
        expect(page.locator("[data-preview-score]")).to_have_text(["665", "−95"])
        page.locator("[data-preview]").scroll_into_view_if_needed()
        shoot(page, SHOTS, "offline-engine-preview", check=lambda _page: None)
    finally:
        context.set_offline(False)


def test_meld_verdicts_offline_are_the_apis_own(
    app: Flask, server: str, phone: tuple[BrowserContext, Page]
) -> None:
    """With no network each meld's verdict line comes from the engine on the phone, word for
    word what POST /api/v1/melds/check answers for the same cards, in English and Greek."""
    context, page = phone
    melds = ["8H 9H 10H JH QH KH JK", "3H 5S 9D"]  # a dirty kózi biriba; no meld at all
    for lang in ("en", "el"):
        if lang == "el":
            # By now the engine's first start has kept its snapshot (engine-worker.js): the
            # Greek page's engine restores it, and must speak Greek all the same.
            until(
                page,
                """async () => (await (await caches.open('scorekeeper-snapshot')).keys())
                    .some((request) => request.url.endsWith('.snapshot'))""",
                seconds=60,
            )
        context.add_cookies([{"name": "lang", "value": lang, "url": server}])
        page.goto(f"{server}/matches/{match_id(app)}/hands/new")
        page.evaluate("() => localStorage.clear()")  # no draft of an earlier test
        page.reload()
        until(page, "() => navigator.serviceWorker.controller !== null")
        until(
            page,
            """async () => (await (await caches.open('scorekeeper-runtime')).keys()).length >= 6""",
            seconds=30,
        )
        form = page.locator("#hand-form")
        expected = []
        for cards in melds:
            body = {
                "variant": form.get_attribute("data-variant"),
                "options": json.loads(form.get_attribute("data-options") or "{}"),
                "format": form.get_attribute("data-format"),
                "kozi": "H",
                "cards": cards,
            }
            answer = page.request.post(f"{server}/api/v1/melds/check", data=body)
            assert answer.ok
            expected.append(answer.json()["verdict"])
        assert expected[0].endswith("+ 200 bonus") or expected[0].endswith("+ 200 μπόνους")
        context.set_offline(True)
        try:
            page.locator("label[for='kozi-H']").click()
            rows = page.locator("[data-side='0'] [data-meld-row]")
            for i, cards in enumerate(melds):
                if i >= rows.count() or not rows.nth(i).is_visible():
                    page.locator("[data-side='0'] [data-add-meld]").click()
                rows.nth(i).locator("input").fill(cards)
                verdict = rows.nth(i).locator("[data-verdict]")
                expect(verdict).to_have_text(expected[i], timeout=20_000)
                legal = "verdict-ok" if i == 0 else "verdict-bad"
                expect(verdict).to_have_class(re.compile(legal))
            shoot(page, SHOTS, f"offline-verdicts-{lang}", check=lambda _page: None)
        finally:
            context.set_offline(False)
    context.add_cookies([{"name": "lang", "value": "en", "url": server}])
    page.evaluate("() => localStorage.clear()")
