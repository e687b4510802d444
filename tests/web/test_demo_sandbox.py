"""The demo's sandbox hand: anyone fills in the sample match's next hand and sees the live
preview, scored by the match's own scoring against the sample's totals; nothing is stored.

Everything here runs with a database (the sandbox must not write to it), once per kind."""

from __future__ import annotations

import re
from fractions import Fraction

import sqlalchemy as sa
from flask.testing import FlaskClient
from support.databases import writes
from werkzeug.datastructures import MultiDict

from scorekeeper.extensions import db
from scorekeeper.match import HandEntry, read_hand, score_entry
from scorekeeper.models import Hand, HandVersion, Match
from scorekeeper.play.sample import sample_match
from scorekeeper.play.sandbox import sandbox_layout
from scorekeeper.rules.points import format_points

#: The sample's teams and players, numbered in seat order (Eleni 1, Kostas 2, Maria 3,
#: Giorgos 4): Eleni & Maria go out with a clean 7-card run; Kostas & Giorgos keep cards.
HAND = [
    ("kozi", "S"),
    ("s0-meld", "3H 4H 5H 6H 7H 8H 9H"),
    ("s0-meld", "QD QC QH"),
    ("s0-out", "on"),
    ("s0-biribaki", "on"),
    ("p1-hand", ""),
    ("p3-hand", ""),
    ("s1-meld", "4C 5C 6C"),
    ("s1-biribaki", "on"),
    ("p2-hand", "AS 9D"),
    ("p4-hand", "KH"),
]


def _rows(client: FlaskClient) -> tuple[int, ...]:
    with client.application.app_context():
        return tuple(
            db.session.scalar(sa.select(sa.func.count()).select_from(t)) or 0
            for t in (Match, Hand, HandVersion)
        )


def _engine_says(client: FlaskClient) -> tuple[dict[str, Fraction], dict[str, Fraction]]:
    """Each team's score for HAND and the sample's totals before it, as the engine gives
    them (in the test's request context, in English)."""
    with client.application.test_request_context():
        layout = sandbox_layout()
        teams = [
            {
                "name": layout.side_labels[0],
                "players": [1, 3],
                "melds": ["3H 4H 5H 6H 7H 8H 9H", "QD QC QH"],
                "went_out": True,
                "took_biribaki": True,
                "hands": ["", ""],
            },
            {
                "name": layout.side_labels[1],
                "players": [2, 4],
                "melds": ["4C 5C 6C"],
                "took_biribaki": True,
                "hands": ["AS 9D", "KH"],
            },
        ]
        entry: HandEntry = read_hand({"kozi": "S", "teams": teams}, layout.seating)
        scored = score_entry(layout.view.setup, entry, layout.view.totals)
        return {t.name: Fraction(t.score) for t in scored.teams}, dict(layout.view.totals)


def test_anyone_opens_the_sandbox_from_the_demo(client: FlaskClient) -> None:
    demo = client.get("/demo").get_data(as_text=True)
    assert 'href="/demo/hand"' in demo and "Try entering hand 6" in demo
    page = client.get("/demo/hand")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert 'data-preview-url="/demo/hand/preview"' in text
    assert "Eleni &amp; Maria" in text and "Kostas &amp; Giorgos" in text
    assert 'name="s0-meld"' in text and 'name="p2-hand"' in text
    assert "Nothing you enter here is saved." in text
    assert "csrf_token" not in text and "data-draft" not in text  # no draft, nothing to save
    assert 'name="save"' not in text


def test_the_live_preview_scores_the_next_hand_and_stores_nothing(client: FlaskClient) -> None:
    rows, written = _rows(client), writes()
    answer = client.post("/demo/hand/preview", data=MultiDict(HAND))
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["errors"] == [] and body["problems"] == []
    scores, before = _engine_says(client)
    assert {t["name"]: t["score"] for t in body["teams"]} == {
        name: format_points(score) for name, score in scores.items()
    }
    assert {t["name"]: t["total"] for t in body["totals"]} == {
        name: format_points(before[name] + scores[name]) for name in before
    }
    # The sample's totals are those the demo page shows after its five hands.
    last = sample_match().hands[-1].totals_after
    assert before == dict(last)
    assert _rows(client) == rows == (0, 0, 0)
    assert writes() == written, "the sandbox sent a write to the database"


def test_without_javascript_the_preview_button_draws_the_answer(client: FlaskClient) -> None:
    rows = _rows(client)
    page = client.post("/demo/hand", data=MultiDict([*HAND, ("preview", "1")]))
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    scores, before = _engine_says(client)
    for name, score in scores.items():
        total = format_points(before[name] + score)
        assert re.search(rf"<strong data-preview-total>{re.escape(total)}</strong>", text)
    assert 'value="QD QC QH"' in text  # the form keeps what was entered
    assert _rows(client) == rows


def test_a_bad_card_is_named_and_refused(client: FlaskClient) -> None:
    fields = [(k, "3H 4H ZZ" if k == "s0-meld" else v) for k, v in HAND]
    body = client.post("/demo/hand/preview", data=MultiDict(fields)).get_json()
    assert any("ZZ" in error for error in body["errors"]) and body["totals"] == []
    page = client.post("/demo/hand", data=MultiDict(fields))
    assert page.status_code == 400
    assert "ZZ" in page.get_data(as_text=True)


def test_input_is_bounded_like_every_other_endpoint(client: FlaskClient) -> None:
    many = client.post(
        "/demo/hand/preview", data=MultiDict([*HAND, *[("s1-meld", "4C 5C 6C")] * 60])
    )
    assert many.status_code == 200
    assert many.get_json()["errors"] and many.get_json()["totals"] == []
    long = client.post(
        "/demo/hand/preview", data=MultiDict([("kozi", "S"), ("s0-meld", "3H " * 400)])
    )
    assert long.status_code == 200 and long.get_json()["errors"]
    huge = client.post("/demo/hand/preview", data={"s0-meld": "3H " * 200_000})
    assert huge.status_code == 413
    assert _rows(client) == (0, 0, 0)
