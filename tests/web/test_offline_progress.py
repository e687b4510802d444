"""The phone's score of the hands waiting in its outbox (scorekeeper/play/offline_score.py,
run in Pyodide by the scoreboard and the hand page): each queued hand scored on from the
totals the one before left, as the server will score them one after the other, numbered
after the server's last hand, and who deals once they are played. Held here against the
referee's own answer for each hand (`score_json`, the golden hands' contract) and the
engine's deal, without a browser."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from support.hand_entries import form_fields

from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.play.engine_files import engine_zip
from scorekeeper.play.offline_score import preview_json, progress_json, score_json
from scorekeeper.rules.formats import find_format
from scorekeeper.rules.match import MatchSetup, dealer_for
from scorekeeper.rules.points import format_points
from scorekeeper.rules.presets import find_variant

pytestmark = pytest.mark.stateless

MEMBERS = [[1, 3], [2, 4]]  # A = Ann & Cy, B = Bob & Di, partners opposite
NAMES = {"1": "Ann", "2": "Bob", "3": "Cy", "4": "Di"}
#: What offline_setup() keeps of a pagat match for four after one hand (A 665, B −95).
SETUP: dict[str, Any] = {
    "variant": "pagat",
    "options": {},
    "format": "4p",
    "shared": False,
    "opening": False,
    "failed": False,
    "biribaki": True,
    "cuts": [],
    "sides": [
        {"name": "A", "before": "665", "players": MEMBERS[0]},
        {"name": "B", "before": "-95", "players": MEMBERS[1]},
    ],
    "seats": ["1", "2", "3", "4"],
    "names": NAMES,
    "first_dealer": 0,
    "played": 1,
    "next": 2,
}
EVENING = PAGAT_HANDS[1:4]


def entry(hand: tuple[str, dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    kozi, a, b = hand
    return {"kozi": kozi, "teams": [{"name": "A", **a}, {"name": "B", **b}]}


def fields(hand: tuple[str, dict[str, Any], dict[str, Any]]) -> dict[str, list[str]]:
    posted: dict[str, list[str]] = {}
    for name, value in form_fields(entry(hand), MEMBERS):
        posted.setdefault(name, []).append(value)
    return posted


def new(hand: tuple[str, dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    """A new hand as the outbox hands it to the engine."""
    return {"hand": "new", "fields": fields(hand), "base": None}


def referee_totals() -> list[dict[str, Fraction]]:
    """The totals after each hand of the evening, each hand scored by the referee's contract
    from the totals before it."""
    totals = {"A": Fraction(665), "B": Fraction(-95)}
    after = []
    for hand in EVENING:
        body = {"variant": "pagat", "options": {}, "format": "4p", **entry(hand)}
        for team in body["teams"]:
            team["score_before"] = str(totals[team["name"]])
        for team in json.loads(score_json(json.dumps(body)))["teams"]:
            totals[team["name"]] += Fraction(team["score"])
        after.append(dict(totals))
    return after


def test_queued_hands_are_numbered_and_scored_on_from_the_last_one() -> None:
    answer = json.loads(progress_json(json.dumps(SETUP), json.dumps([new(h) for h in EVENING])))
    assert [h["number"] for h in answer["hands"]] == [2, 3, 4]
    assert [h["kozi"] for h in answer["hands"]] == ["♦", "♠", "♣"]
    assert [h["red"] for h in answer["hands"]] == [True, False, False]
    expected = [
        [{"name": n, "total": format_points(t)} for n, t in totals.items()]
        for totals in referee_totals()
    ]
    assert [h["totals"] for h in answer["hands"]] == expected
    setup = MatchSetup(find_variant("pagat"), find_format("4p"), ("1", "2", "3", "4"), None, 0)
    assert answer["next_dealer"] == NAMES[dealer_for(setup, 4) or ""]
    assert answer["next_dealer"] in answer["deal_order"]
    assert answer["winner"] is None


def test_the_hand_typed_next_follows_the_queued_ones() -> None:
    queued = [new(h) for h in EVENING[:2]]
    typed = fields(EVENING[2])
    alone = json.loads(preview_json(json.dumps(SETUP), json.dumps(typed)))
    after = json.loads(preview_json(json.dumps(SETUP), json.dumps(typed), json.dumps(queued)))
    assert alone["teams"] == after["teams"]  # no opening table: the same score either way
    last = referee_totals()[-1]
    assert after["totals"] == [{"name": n, "total": format_points(t)} for n, t in last.items()]
    assert alone["totals"] != after["totals"]


def test_an_unreadable_queued_hand_leaves_the_totals_after_it_unknown() -> None:
    broken = {**fields(EVENING[0]), "s0-meld": ["ZZ 9Q"]}
    queued = [{"hand": "new", "fields": broken}, new(EVENING[1])]
    answer = json.loads(progress_json(json.dumps(SETUP), json.dumps(queued)))
    assert answer["hands"][0]["errors"] and answer["hands"][0]["totals"] == []
    assert answer["hands"][1]["totals"] == [] and answer["hands"][1]["number"] == 3
    assert answer["winner"] is None and answer["next_dealer"]  # the deal needs no totals


def referee_score(hand: tuple[str, dict[str, Any], dict[str, Any]]) -> dict[str, Fraction]:
    """Each side's score of one hand by the referee's contract (no opening table in pagat:
    the totals before it do not count)."""
    body = {"variant": "pagat", "options": {}, "format": "4p", **entry(hand)}
    answer = json.loads(score_json(json.dumps(body)))
    return {team["name"]: Fraction(team["score"]) for team in answer["teams"]}


def test_a_queued_correction_moves_every_total_after_its_hand() -> None:
    """Hand 1 (A 665, B −95 on the server) corrected on the phone, then hand 2 typed: the
    correction scores its new hand 1 from the totals before it, and hand 2 and the standings
    count it, as the server will once both are sent."""
    was = referee_score(PAGAT_HANDS[0])
    assert {n: format_points(t) for n, t in was.items()} == {"A": "665", "B": "−95"}
    fix = {
        "hand": 1,
        "fields": fields(EVENING[0]),
        "base": {"number": 1, "before": {"A": "0", "B": "0"}, "was": {"A": "665", "B": "-95"}},
    }
    answer = json.loads(progress_json(json.dumps(SETUP), json.dumps([fix, new(EVENING[1])])))
    one, two = answer["hands"]
    corrected, second = referee_score(EVENING[0]), referee_score(EVENING[1])
    assert [(h["number"], h["correction"]) for h in (one, two)] == [(1, True), (2, False)]
    assert one["scores"] == [{"name": n, "score": format_points(t)} for n, t in corrected.items()]
    assert one["totals"] == [{"name": n, "total": format_points(t)} for n, t in corrected.items()]
    final = {n: corrected[n] + second[n] for n in ("A", "B")}
    assert two["totals"] == [{"name": n, "total": format_points(t)} for n, t in final.items()]
    assert [(s["name"], s["total"]) for s in answer["standings"]] == [
        (n, format_points(t)) for n, t in final.items()
    ]
    # The hand typed next follows both.
    typed = json.loads(
        preview_json(json.dumps(SETUP), json.dumps(fields(EVENING[2])), json.dumps([fix]))
    )
    third = referee_score(EVENING[2])
    assert typed["totals"] == [
        {"name": n, "total": format_points(corrected[n] + third[n])} for n in ("A", "B")
    ]
    # A correction queued without its base (an older page): its totals wait for the server.
    blind = json.loads(
        progress_json(json.dumps(SETUP), json.dumps([{**fix, "base": None}, new(EVENING[1])]))
    )
    assert blind["hands"][0]["scores"] == [] and blind["hands"][1]["totals"] == []
    assert blind["standings"] == []


#: What the phone's Pyodide has not: the engine's zip must import none of it.
PHONE_LACKS = ("flask", "markupsafe", "jinja2", "werkzeug", "babel", "sqlalchemy", "wtforms")
IN_THE_ZIP = """
import importlib.abc, json, sys
LACKS = set(sys.argv[2].split(","))

class Lacking(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in LACKS:
            raise ModuleNotFoundError(f"the phone has no {name}")
        return None

sys.meta_path.insert(0, Lacking())
sys.path.insert(0, sys.argv[1])
from scorekeeper.play import offline_score
import flask_babel
assert flask_babel.__file__.startswith(sys.argv[1]), flask_babel.__file__
body = {"variant": "pagat", "kozi": "H", "format": "4p", "cards": "8H 9H 10H JH QH KH JK"}
print(json.loads(offline_score.meld_check_json(json.dumps(body)))["verdict"])
"""


def test_the_engines_zip_imports_nothing_the_phone_lacks(tmp_path: Path) -> None:
    """The zip the phone runs (engine_files.engine_zip) imports only the standard library and
    what it carries: a module of words/ that took up markupsafe or Flask would break every
    score on the phone, which only the browser tests would otherwise see."""
    with zipfile.ZipFile(io.BytesIO(engine_zip()[0])) as archive:
        archive.extractall(tmp_path)
    ran = subprocess.run(
        [sys.executable, "-c", IN_THE_ZIP, str(tmp_path), ",".join(PHONE_LACKS)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("Legal: run, dirty")
