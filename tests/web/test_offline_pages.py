"""The server's side of working offline, through the Flask test client: the hand form's JSON
answers (what the phone's outbox sends), the manifest, the service worker and the offline
page. The browser's side is in test_offline_browser.py."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from security_world import form_of
from support.static_names import plain
from support.world import new_club, pagat_match, signed_in

from scorekeeper import create_app
from scorekeeper.accounts import service as accounts
from scorekeeper.extensions import db
from scorekeeper.models import Club, Hand, User
from scorekeeper.web import static_files

JSON = {"Accept": "application/json"}


@dataclass(frozen=True)
class Table:
    owner_id: int
    club_id: int
    players: dict[str, int]


@pytest.fixture
def table(app: Flask) -> Table:
    """Ann's club of four, who play pagat: A = Ann & Cy, B = Bob & Di."""
    with app.app_context():
        user = accounts.create_user("ann", "password1")
        club, players = new_club(user)
        return Table(user.id, club.id, players)


@pytest.fixture
def owner(client: FlaskClient, table: Table) -> FlaskClient:
    return signed_in(client, table.owner_id)


def start_match(app: Flask, table: Table) -> int:
    with app.app_context():
        club = db.session.get(Club, table.club_id)
        user = db.session.get(User, table.owner_id)
        assert club is not None and user is not None
        seats = [table.players[n] for n in ("Ann", "Bob", "Cy", "Di")]
        return pagat_match(club, user, seats).id


def hand_form(client: FlaskClient, match_id: int, path: str = "hands/new", **values: Any) -> Any:
    """The hand form as the page draws it, with `values` put in ("s0__meld": a list)."""
    data = form_of(client.get(f"/matches/{match_id}/{path}").text, "hand-form")
    for key, value in values.items():
        name = key.replace("__", "-")
        data.poplist(name)
        for item in value if isinstance(value, list) else [value]:
            if item is not False:
                data.add(name, "on" if item is True else str(item))
    data["save"] = "1"
    return data


def reference_hand(table: Table) -> dict[str, Any]:
    """presets.md's example hand: kózi ♥; A went out with two biribas → 665, B → −95."""
    return {
        "kozi": "H",
        "s0__meld": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"],
        "s0__out": True,
        "s0__biribaki": True,
        "s1__meld": ["3C 4C 5C", "KS KD JK"],
        f"p{table.players['Bob']}__hand": "AS 9D",
        f"p{table.players['Di']}__hand": "JK 4H",
    }


def hands_of(app: Flask, match_id: int) -> list[Hand]:
    with app.app_context():
        hands = list(db.session.scalars(db.select(Hand).where(Hand.match_id == match_id)))
        db.session.expunge_all()
        return hands


def test_a_new_hand_answers_json_and_a_retry_is_the_same_hand(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(app, table)
    data = hand_form(owner, match_id, **reference_hand(table))
    first = owner.post(f"/matches/{match_id}/hands/new", data=data, headers=JSON)
    assert first.status_code == 201
    assert first.json == {"saved": True, "number": 1, "scoreboard": f"/matches/{match_id}"}
    # The outbox sends again when it never heard the answer: one hand, the same answer.
    again = owner.post(f"/matches/{match_id}/hands/new", data=data, headers=JSON)
    assert again.status_code == 200 and again.json == first.json
    assert len(hands_of(app, match_id)) == 1
    teams = owner.get(f"/api/v1/matches/{match_id}").json["teams"]
    assert [t["score"] for t in teams] == [665, -95]


def test_a_refused_hand_answers_json_with_its_errors_and_problems(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(app, table)
    illegal = reference_hand(table) | {"s1__meld": ["3C 4C 6C", "KS KD JK"]}
    refused = owner.post(
        f"/matches/{match_id}/hands/new", data=hand_form(owner, match_id, **illegal), headers=JSON
    )
    assert refused.status_code == 422
    assert refused.json["saved"] is False
    assert "The meld 3♣ 4♣ 6♣ of B is not legal." in " ".join(refused.json["problems"])
    assert refused.json["errors"]
    bad = hand_form(owner, match_id, **reference_hand(table), s1__points="9")
    answer = owner.post(f"/matches/{match_id}/hands/new", data=bad, headers=JSON)
    assert answer.status_code == 400
    assert answer.json == {
        "saved": False,
        "errors": ["Give the cards left in the hands of B as cards or as a point total, not both."],
        "problems": [],
    }
    assert hands_of(app, match_id) == []


def test_a_correction_answers_json_and_a_stale_one_409(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(app, table)
    owner.post(
        f"/matches/{match_id}/hands/new",
        data=hand_form(owner, match_id, **reference_hand(table)),
        headers=JSON,
    )
    stale = hand_form(owner, match_id, "hands/1/edit", kozi="D")
    fresh = hand_form(owner, match_id, "hands/1/edit", kozi="S")
    saved = owner.post(f"/matches/{match_id}/hands/1/edit", data=fresh, headers=JSON)
    assert saved.status_code == 200 and saved.json["number"] == 1
    conflict = owner.post(f"/matches/{match_id}/hands/1/edit", data=stale, headers=JSON)
    assert conflict.status_code == 409
    assert "changed by someone else" in conflict.json["errors"][0]
    (hand,) = hands_of(app, match_id)
    assert hand.version == 2 and hand.entry["kozi"] == "S"


def test_without_json_the_form_answers_html_as_ever(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(app, table)
    browser = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
    data = hand_form(owner, match_id, **reference_hand(table))
    saved = owner.post(f"/matches/{match_id}/hands/new", data=data, headers=browser)
    assert saved.status_code == 302
    illegal = hand_form(owner, match_id, s0__meld=["3H 5S 9D"], kozi="H")
    refused = owner.post(f"/matches/{match_id}/hands/new", data=illegal, headers=browser)
    assert refused.status_code == 422 and refused.mimetype == "text/html"


def test_the_hand_page_carries_its_draft_key(app: Flask, owner: FlaskClient, table: Table) -> None:
    match_id = start_match(app, table)
    page = owner.get(f"/matches/{match_id}/hands/new").text
    assert f'data-draft="scorekeeper:draft:{table.owner_id}:{match_id}:new"' in page
    assert f'data-user="{table.owner_id}"' in page
    assert "Restored your unsaved entry." in page
    # draft.js comes before hand-entry.js: it restores rows before they are folded.
    assert page.index("js/draft.") < page.index("js/hand-entry.")
    board = owner.get(f"/matches/{match_id}").text
    assert "data-outbox-board" in board and "js/outbox." in board
    words = json.loads(re.search(r"data-words='([^']*)'", board.split("data-outbox-board")[1])[1])  # type: ignore[index]
    assert words["waiting"] == "waiting to send"


@pytest.mark.stateless
def test_the_manifest_names_the_app_and_its_icons(client: FlaskClient) -> None:
    answer = client.get("/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.data)
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b6e4f"
    for icon in manifest["icons"]:
        png = client.get(icon["src"])
        assert png.status_code == 200 and png.data[:8] == b"\x89PNG\r\n\x1a\n"
        size = int.from_bytes(png.data[16:20], "big")
        assert icon["sizes"] == f"{size}x{size}"
    assert sorted(i["sizes"] for i in manifest["icons"]) == ["192x192", "512x512"]
    assert '<link rel="manifest" href="/manifest.webmanifest">' in client.get("/login").text


@pytest.mark.stateless
def test_the_service_worker_is_served_from_the_root_with_its_shell(client: FlaskClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and answer.mimetype == "text/javascript"
    assert answer.headers["Service-Worker-Allowed"] == "/"
    assert answer.headers["Cache-Control"] == "no-cache"
    text = answer.text
    version = re.match(r'var VERSION = "([0-9a-f]{12})";', text)
    assert version is not None
    shell = json.loads(re.search(r"var SHELL = (\[.*\]);", text)[1])  # type: ignore[index]
    for url in shell:
        assert client.get(url).status_code == 200, url
    assert all(re.fullmatch(r"/static/.+\.[0-9a-f]{12}\.\w+", url) for url in shell[:-3])
    assert shell[-3:] == ["/offline", "/offline/expired", "/manifest.webmanifest"]
    plain_shell = {plain(url) for url in shell}
    assert {"/static/style.css", "/static/js/draft.js", "/static/js/outbox.js"} <= plain_shell


def test_a_changed_shell_file_is_a_new_worker_version(tmp_path: Path) -> None:
    """The shell's files are hashed when the app starts: a file changed by a deploy is a new
    worker once the server runs it (rescan stands in for the restart)."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    static = tmp_path / "static"
    (static / "js").mkdir(parents=True)
    for name in ("sw.js", "style.css", "js/a.js"):
        (static / name).write_text("one")
    app.static_folder = str(static)
    static_files.rescan(app)
    with app.test_client() as client:
        before = client.get("/sw.js").text.split("\n")[0]
        (static / "js/a.js").write_text("two")
        static_files.rescan(app)
        after = client.get("/sw.js").text.split("\n")[0]
    assert before != after


def test_the_offline_page_names_nobody(owner: FlaskClient, table: Table) -> None:
    page = owner.get("/offline")
    assert page.status_code == 200
    assert "data-offline-fallback" in page.text
    assert "ann" not in page.text.lower().split("<body>")[1]


def test_an_expired_csrf_token_leaves_a_queued_hand_queued(tmp_path: Path) -> None:
    """The outbox hears "csrf": the hand is fine, only the token is not; it tries again."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'csrf.sqlite'}",
        }
    )
    client = app.test_client()
    answer = client.post("/matches/1/hands/new", data={"csrf_token": "old"}, headers=JSON)
    assert answer.status_code == 400
    assert answer.json is not None and answer.json["csrf"] is True
    page = client.post("/matches/1/hands/new", data={"csrf_token": "old"})
    assert page.status_code == 400 and page.mimetype == "text/html"
