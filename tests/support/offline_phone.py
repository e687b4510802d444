"""A phone at the table with no network (the offline browser tests): a pagat match for four
with hand 1 saved, its pages and the engine kept by the service worker, and a hand typed into
the hand form as a scorer taps it."""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from flask import Flask
from playwright.sync_api import Page

from scorekeeper import match as matches
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import Club, User
from scorekeeper.referee.service import score_hand_request
from scorekeeper.rules.points import format_points
from support.browser import settled, until
from support.hand_entries import typed
from support.world import pagat_match

#: Hand 1, saved online before the network goes.
FIRST = PAGAT_HANDS[0]


def entry(hand: tuple[str, dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    kozi, a, b = hand
    return {"kozi": kozi, "teams": [{"name": "A", **a}, {"name": "B", **b}]}


def match_with_hand_1(app: Flask) -> tuple[int, list[list[int]], dict[str, str]]:
    """A pagat match for four (A = Ann & Cy, B = Bob & Di) with hand 1 saved: its id, each
    side's players' ids, and each player's name by id."""
    with app.app_context():
        club = db.session.scalars(db.select(Club)).one()
        user = db.session.scalars(db.select(User)).one()
        ids = [p.id for p in sorted(club.players, key=lambda p: p.id)]
        match = pagat_match(club, user, ids)
        matches.record_hand(match, user, typed(match, entry(FIRST)))
        names = {str(p.id): p.name for p in club.players}
        return match.id, [[ids[0], ids[2]], [ids[1], ids[3]]], names


def worker_keeps(page: Page, server: str, match_id: int) -> None:
    """The service worker controls the page and keeps the match's pages and the engine."""
    until(page, "async () => Boolean(await navigator.serviceWorker.ready)")
    page.reload()
    page.wait_for_function("() => Boolean(navigator.serviceWorker.controller)")
    page.goto(f"{server}/matches/{match_id}/hands/new")  # kept, and it keeps the engine
    until(
        page,
        """async () => (await (await caches.open('scorekeeper-runtime')).keys()).length >= 6""",
        seconds=30,
    )
    page.goto(f"{server}/matches/{match_id}")


def enter(page: Page, hand: dict[str, Any], names: list[list[str]]) -> None:
    """Type one hand into the hand form, as a scorer taps it."""
    page.locator(f"label[for='kozi-{hand['kozi']}']").click()
    for side, team in enumerate(hand["teams"]):
        rows = page.locator(f"[data-side='{side}'] [data-meld-row]")
        for i, cards in enumerate(team["melds"]):
            if i >= rows.count() or not rows.nth(i).is_visible():
                page.locator(f"[data-side='{side}'] [data-add-meld]").click()
            rows.nth(i).locator("input").fill(cards)
            settled(page)
        for flag in ("out", "biribaki"):
            if team.get({"out": "went_out", "biribaki": "took_biribaki"}[flag]):
                page.locator(f"input[name='s{side}-{flag}']").check()
        for name, cards in zip(names[side], team["hands"], strict=True):
            if cards:
                page.locator(".hands .field", has_text=name).locator("input").fill(cards)


def scored_from(
    app: Flask,
    hands: Iterable[tuple[str, dict[str, Any], dict[str, Any]]],
    before: Mapping[str, Fraction],
) -> tuple[list[str], list[str]]:
    """The server engine's word (POST /api/v1/hands/score's use case): each of `hands` scored
    from the totals the one before left, starting at `before`; each side's scores
    ("A 665 · B −95") and the totals after it, as the phone's rows show them."""
    totals = dict(before)
    scores, after = [], []
    with app.test_request_context():
        for hand in hands:
            body = {"variant": "pagat", "options": {}, "format": "4p", **copy.deepcopy(entry(hand))}
            for team in body["teams"]:
                team["score_before"] = str(totals[team["name"]])
            answer = score_hand_request(body)
            for team in answer["teams"]:
                totals[team["name"]] += Fraction(team["score"])
            sides = answer["teams"]
            scores.append(" · ".join(f"{t['name']} {format_points(t['score'])}" for t in sides))
            after.append(" · ".join(f"{n} {format_points(t)}" for n, t in totals.items()))
    return scores, after
