"""Issue 11 item 11: an imported club file is checked whole (every string, number, house
rule, deleted hand's result and history version) before anything is stored. A crafted file
is one 400 naming what is wrong, with the database left as it was; whatever is accepted is
stored in a form the scoreboard, the hand history and export.json render."""

from __future__ import annotations

import copy
import html
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, g
from flask.testing import FlaskClient, FlaskCliRunner
from support.hand_entries import A_WINS, B_WINS, typed
from support.hand_entries import ILLEGAL_HAND as ILLEGAL
from support.world import new_club, pagat_match, signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.exchange.club_export import export_club
from scorekeeper.extensions import db
from scorekeeper.models import (
    Club,
    Hand,
    HandVersion,
    Match,
    MatchTeam,
    Membership,
    Player,
    Season,
    Seat,
    User,
)
from scorekeeper.rules.presets import find_variant

_EXPORTED: list[dict[str, Any]] = []


def exported(owner: User) -> dict[str, Any]:
    """A copy of `exported_now`, made once: the file refers to no row of the database."""
    if not _EXPORTED:
        _EXPORTED.append(exported_now(owner))
    return copy.deepcopy(_EXPORTED[0])


def exported_now(owner: User) -> dict[str, Any]:
    """A small real export: one pagat match with a house rule; hand 1 edited, hand 2
    deleted, hand 3 accepted with problems. Its versions, in order: hand 1 created and
    edited, hand 2 created and deleted, hand 3 created."""
    club, p = new_club(owner)
    match = pagat_match(
        club, owner, [p["Ann"], p["Bob"], p["Cy"], p["Di"]], house_rules={"penalty_no_biribaki": 50}
    )
    matches.record_hand(match, owner, typed(match, A_WINS))
    matches.edit_hand(match, 1, owner, typed(match, B_WINS), expected_version=1)
    matches.record_hand(match, owner, typed(match, A_WINS))
    matches.delete_hand(match, 2, owner, expected_version=1)
    matches.record_hand(match, owner, typed(match, ILLEGAL), accepted_reason="The table allowed it")
    return copy.deepcopy(export_club(club))


def put(doc: Any, path: str, value: Any) -> None:
    """Set the value at a dotted path (list indexes as numbers)."""
    *parents, last = path.split(".")
    for part in parents:
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    if isinstance(doc, list):
        doc[int(last)] = value
    else:
        doc[last] = value


def stored() -> dict[str, int]:
    """How many rows each table the import writes holds."""
    db.session.rollback()
    tables = (Club, Player, Season, Membership, Match, MatchTeam, Seat, Hand, HandVersion)
    return {
        t.__name__: db.session.scalar(sa.select(sa.func.count()).select_from(t)) or 0
        for t in tables
    }


def client_of(app: Flask, username: str) -> FlaskClient:
    g.pop("_login_user", None)  # see test_club_export.logged_in
    user = accounts.find_user(username) or accounts.create_user(username, "password1")
    return signed_in(app.test_client(), user.id)


def upload(client: FlaskClient, doc: Any) -> tuple[int, str]:
    # json.dumps writes a lone surrogate as the escape "\ud800", as a crafted file would.
    body = json.dumps(doc).encode()
    response = client.post(
        "/clubs/import",
        data={"file": (io.BytesIO(body), "club.json")},
        content_type="multipart/form-data",
    )
    return response.status_code, html.unescape(response.get_data(as_text=True))


H = "matches.0.hands"
V = "matches.0.versions"

CRAFTED = [
    # A deleted hand keeps its own result: it must have the shape the pages read.
    (f"{H}.1.result.teams.0.score", "lots", "hands[1].result.teams[0].score must be a whole"),
    (f"{H}.1.result.teams.0.score", 10**40, "hands[1].result.teams[0].score must be a whole"),
    (f"{H}.1.result.teams.0.score", 1.5, "hands[1].result.teams[0].score must be a whole"),
    (f"{H}.1.result.teams.0.lines.0", {"label": 5, "points": 1}, ".lines[0].label must be text"),
    (f"{H}.1.result.teams.0.lines.0", {"points": 1}, ".lines[0].label must be text"),
    (f"{H}.1.result.teams.0.lines", "many", "hands[1].result.teams[0].lines must be a list"),
    (f"{H}.1.result.teams.0.name", ["A"], "hands[1].result.teams[0].name must be text"),
    (f"{H}.1.result.teams.0.players", [99], "hands[1].result names a player with no seat"),
    (f"{H}.1.result.problems", [None], "hands[1].result.problems[0] must be text"),
    (f"{H}.1.result.problems", "bad", "hands[1].result.problems must be a list"),
    (f"{H}.1.result.teams", [1], "hands[1].result.teams[0] must be a JSON object"),
    (f"{H}.1.result.legal", "yes", "hands[1].result.legal must be true or false"),
    (f"{H}.1.result", {"legal": True, "problems": []}, "hands[1].result.teams must be a list"),
    (f"{H}.1.result", None, "hands[1].result must be a JSON object"),
    (f"{H}.1.entry.kozi", ["H"], "hands[1].entry.kozi must be"),
    (f"{H}.1.entry.teams.0.melds", "5S-JS", "hands[1].entry.teams[0].melds must be a list"),
    (f"{H}.1.entry.teams.0.name", "Z", "hands[1].entry.teams[0].name names no team"),
    # Every version of the history, its entry and its result.
    (f"{V}.0.result.teams.0.lines.0.points", "1/0", ".lines[0].points must be a whole"),
    (f"{V}.0.result.teams.0.lines.0.points", 10**40, ".lines[0].points must be a whole"),
    (f"{V}.1.result.teams", {"A": 1}, "versions[1].result.teams must be a list"),
    (f"{V}.0.entry.teams.0.melds.0", 5, "versions[0].entry.teams[0].melds[0] must be cards"),
    (f"{V}.0.entry.teams.0.melds.0", "5S" * 600, "versions[0].entry.teams[0].melds[0] must"),
    (f"{V}.0.entry.teams.0.hands", ["AS"] * 7, "versions[0].entry.teams[0].hands must be"),
    (f"{V}.0.entry.teams.0.hand_points", "x", "versions[0].entry.teams[0].hand_points must"),
    (f"{V}.0.entry.teams.0.went_out", "yes", "versions[0].entry.teams[0].went_out must be"),
    (f"{V}.0.entry.teams.0.cut", "deep", "versions[0].entry.teams[0].cut must be"),
    (f"{V}.0.entry.teams.0.failed_openings", 10**9, "teams[0].failed_openings must be"),
    (f"{V}.0.entry.teams.0.opening_melds", [9], "teams[0].opening_melds must"),
    (f"{V}.0.entry.teams.0.trumps", 1, "versions[0].entry.teams[0].trumps is not a field"),
    (f"{V}.0.entry.teams", [], "versions[0].entry.teams must list"),
    (f"{V}.0.entry.teams.0", "A", "versions[0].entry.teams[0] must be a JSON object"),
    (f"{V}.0.entry.teams.0.players", "Ann", "versions[0].entry names a player with no seat"),
    (f"{V}.0.entry.kozi", "hearts and spades", "versions[0].entry.kozi must be"),
    (f"{V}.0.entry", [1], "versions[0].entry must be a JSON object"),
    (f"{V}.0.action", "exploded", "versions[0].action must be created, edited or deleted"),
    (f"{V}.0.number", 9, "versions[0].number names a hand the match does not have"),
    (f"{V}.1.version", 1, "versions[1] repeats a version of its hand"),
    (f"{V}.0.version", 2**31 - 1, "versions[0].version must be a whole number from 1 to"),
    (f"{V}.0.created_at", "9999-12-31T23:59:59-14:00", "versions[0].created_at must be a time"),
    # House rules: the same option checks as the new-match form, and the match's own values.
    ("matches.0.house_rules", {"bogus": 1}, "'bogus' is not an option of variant pagat"),
    ("matches.0.house_rules", [1], "matches[0].house_rules must be a JSON object"),
    ("matches.0.house_rules.penalty_no_biribaki", 10**9, "must be a whole number from 0 to"),
    ("matches.0.house_rules.penalty_no_biribaki", 7, "house_rules.penalty_no_biribaki is 7"),
    ("matches.0.options.ace", "sideways", "Option 'ace' cannot be"),
    # Strings: no unpaired surrogate or NUL anywhere, names on one line, every length capped.
    ("club.name", "Fri\ud800day", "club.name holds an unpaired surrogate"),
    ("players.0.name", "A\udfff", "players[0].name holds an unpaired surrogate"),
    ("members.0.username", "\ud800", "members[0].username holds an unpaired surrogate"),
    (f"{H}.2.accepted_reason", "ok\ud800", "hands[2].accepted_reason holds an unpaired"),
    (f"{H}.2.accepted_reason", "ok\x00", "hands[2].accepted_reason holds the NUL character"),
    (f"{H}.2.accepted_reason", "x" * 1001, "hands[2].accepted_reason must be text of 1 to 1000"),
    (f"{H}.2.idempotency_key", "k\ud800", "hands[2].idempotency_key holds an unpaired"),
    (f"{V}.0.accepted_reason", "x" * 1001, "versions[0].accepted_reason must be text of 1 to"),
    (f"{V}.0.result.teams.0.lines.0.label", "\ud800", ".lines[0].label holds an unpaired"),
    (f"{V}.0.result.teams.0.lines.0.label", "a\x00", ".lines[0].label holds the NUL"),
    (f"{V}.0.result.teams.0.lines.0.label", "x" * 1001, ".lines[0].label must be text of 1"),
    (f"{V}.0.result.problems", ["\ud800"], "versions[0].result.problems[0] holds an unpaired"),
    (f"{V}.0.entry.teams.0.\ud800", 1, "versions[0].entry.teams[0] holds an unpaired"),
    ("players.0.name", "Ann\x07", "players[0].name must be text of 1 to 80 characters"),
    ("players.0.name", "Ann\nLee", "players[0].name must be text of 1 to 80 characters"),
    (
        "seasons",
        [{"id": 1, "name": "S\x1b", "starts_on": "2026-01-01", "ends_on": "2026-02-01"}],
        "seasons[0].name must be text",
    ),
    ("matches.0.teams.0.name", "A" * 81, "matches[0].teams[0].name must be text of 1 to 80"),
    # Wrong types and numbers out of range.
    ("club.min_matches_ranked", "3", "club.min_matches_ranked must be a whole number from 0"),
    ("club.min_matches_ranked", 10**6, "club.min_matches_ranked must be a whole number from 0"),
    ("matches.0.first_dealer", True, "matches[0].first_dealer must be a whole number"),
    ("matches.0.seats.0.player", "7", "matches[0].seats[0].player must be a whole number"),
    ("matches.0.seats.0.team", 0.0, "matches[0].seats[0].team names a team the match does not"),
    ("matches.0.season", 1.0, "matches[0].season names a season the file does not have"),
    (f"{H}.0.number", 1.0, "hands[0].number must be a whole number"),
    (f"{H}.1.deleted", "yes", "hands[1].deleted must be true or false"),
    (f"{H}.0.version", 2**31 - 1, "hands[0].version must be a whole number from 1 to"),
    (f"{H}.2.number", 2**31 - 1, "matches[0].hands must number its 3 hands 1 to 3, each"),
    (f"{H}.2.number", 7, "matches[0].hands must number its 3 hands 1 to 3, each once; there"),
    (f"{H}.2.number", 1, "matches[0].hands[2] repeats a hand number"),
    ("matches.0.created_at", "0001-01-01T00:00:00+14:00", "matches[0].created_at must be a time"),
    ("matches.0.hands", {"1": {}}, "matches[0].hands must be a list"),
    (
        "seasons",
        [{"id": 1, "name": "All", "starts_on": "2026-01-01", "ends_on": "9999-12-31"}],
        "seasons[0].ends_on must be a day from 1900-01-01 to 9998-12-31.",
    ),
    (f"{H}.0.updated_at", "1800-01-01T00:00:00+00:00", "updated_at must be a time from 1900"),
    ("matches.0.created_by", 5, "matches[0].created_by must be"),
    (f"{H}.0.updated_by", ["eleni"], "matches[0].hands[0].updated_by must be"),
]


@pytest.mark.parametrize(
    ("path", "value", "message"), [pytest.param(*case, id=case[0]) for case in CRAFTED]
)
def test_a_crafted_file_is_one_400_and_nothing_is_stored(
    owner: User, app: Flask, path: str, value: Any, message: str
) -> None:
    doc = exported(owner)
    uploader = client_of(app, "maria")
    before = stored()
    put(doc, path, value)
    status, page = upload(uploader, doc)
    assert status == 400, page[:2000]
    # One sentence naming what is wrong, under the file field.
    (errors,) = re.findall(r'<ul class="field-errors"[^>]*>(.*?)</ul>', page, re.S)
    assert errors.count("<li>") == 1
    assert message in errors
    assert stored() == before


def assert_pages_render(app: Flask, username: str, club: Club) -> None:
    """The scoreboard, every hand's history, the rules, the club page and export.json,
    in English and in Greek."""
    client = client_of(app, username)
    for language in ("en", "el"):
        client.set_cookie("lang", language)
        for match in club.matches:
            paths = [f"/matches/{match.id}", f"/matches/{match.id}/rules"]
            paths += [f"/matches/{match.id}/hands/{h.number}/history" for h in match.hands]
            paths += [f"/api/v1/matches/{match.id}"]
            for path in paths:
                assert client.get(path).status_code == 200, (language, path)
        for path in (f"/clubs/{club.id}", f"/clubs/{club.id}/export.json"):
            assert client.get(path).status_code == 200, (language, path)


def imported_club(name: str) -> Club:
    db.session.rollback()
    club = db.session.scalars(sa.select(Club).where(Club.name == name).order_by(Club.id)).all()
    return club[-1]


def test_a_real_export_imports_and_every_page_of_it_renders(owner: User, app: Flask) -> None:
    doc = exported(owner)
    status, page = upload(client_of(app, "maria"), doc)
    assert status == 302, page[:2000]
    club = imported_club("Friday")
    assert_pages_render(app, "maria", club)
    (match,) = club.matches
    assert match.house_rules == {"penalty_no_biribaki": 50}


def test_what_a_file_may_leave_short_is_stored_in_full(owner: User, app: Flask) -> None:
    """A hand-made file may give only the options it changes and leave out the versions:
    the match stores every option (frozen, as a new match does) and a version per hand."""
    doc = exported(owner)
    (match,) = doc["matches"]
    match["options"] = {"target": 600, "penalty_no_biribaki": 50}
    match["house_rules"] = {"penalty_no_biribaki": 50}
    match["versions"] = []
    status, page = upload(client_of(app, "maria"), doc)
    assert status == 302, page[:2000]
    club = imported_club("Friday")
    (stored_match,) = club.matches
    assert stored_match.options["target"] == 600
    # Pagat's own value of every option not given, frozen with the match.
    assert stored_match.options == find_variant("pagat").with_options(target=600).options() | {
        "penalty_no_biribaki": 50
    }
    assert_pages_render(app, "maria", club)


def test_the_command_refuses_a_crafted_file_and_stores_nothing(
    owner: User, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    doc = exported(owner)
    put(doc, f"{H}.1.result.teams.0.score", "lots")
    path = tmp_path / "club.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    before = stored()
    result = runner.invoke(args=["import", str(path), "--owner", "eleni"])
    assert result.exit_code != 0
    assert "Nothing was imported: matches[0].hands[1].result.teams[0].score must be" in (
        result.output
    )
    assert stored() == before
    put(doc, "club.name", "Fri\ud800day")
    path.write_text(json.dumps(doc), encoding="utf-8")
    result = runner.invoke(args=["import", str(path), "--owner", "eleni"])
    assert result.exit_code != 0
    assert "club.name holds an unpaired surrogate" in result.output
    assert stored() == before
    path.write_text('{"club": ' + "9" * 5000 + "}", encoding="utf-8")
    result = runner.invoke(args=["import", str(path), "--owner", "eleni"])
    assert result.exit_code != 0
    assert "is not a JSON file" in result.output
    assert stored() == before


def test_history_that_no_longer_scores_is_kept_and_shown(owner: User, app: Flask) -> None:
    """A version is history: an entry today's engine would refuse (cards it cannot read,
    both the cards left and their points, no kózi) is kept as it was, and its page shows
    it in either language (the Greek page scores versions again, and falls back to the
    stored result)."""
    doc = exported(owner)
    side = doc["matches"][0]["versions"][0]["entry"]["teams"][0]
    side["melds"] = ["5S-JS", "a meld of 9Z"]
    side["hand_points"] = 30
    doc["matches"][0]["versions"][0]["entry"]["kozi"] = None
    status, page = upload(client_of(app, "maria"), doc)
    assert status == 302, page[:2000]
    club = imported_club("Friday")
    assert_pages_render(app, "maria", club)
    (match,) = club.matches
    history = client_of(app, "maria").get(f"/matches/{match.id}/hands/1/history")
    assert "a meld of 9Z" in history.get_data(as_text=True)


def test_the_refusal_is_in_the_readers_language(owner: User, app: Flask) -> None:
    doc = exported(owner)
    put(doc, f"{H}.1.result.teams.0.lines.0.label", "a\ud800")
    uploader = client_of(app, "maria")
    uploader.set_cookie("lang", "el")
    status, page = upload(uploader, doc)
    assert status == 400
    greek = "Το matches[0].hands[1].result.teams[0].lines[0].label περιέχει μονό"  # noqa: RUF001
    assert greek + " υποκατάστατο" in page


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param(
            '"melds": [{"bonus": NaN}]',
            "hands[1].result.teams[0].melds[0].bonus is not a",
            id="nan",
        ),
        pytest.param(
            '"melds": [{"bonus": 1e999}]', "teams[0].melds[0].bonus is not a finite", id="inf"
        ),
        pytest.param('"melds": [{"bonus": ' + "9" * 5000 + "}]", "a number too long", id="long"),
    ],
)
def test_a_number_json_cannot_hold_is_refused(
    owner: User, app: Flask, body: str, message: str
) -> None:
    """Python reads NaN, Infinity and 1e999 as JSON, but no database or export takes them
    back; a number of thousands of digits Python does not read at all."""
    doc = exported(owner)
    put(doc, f"{H}.1.result.teams.0.melds", "MELDS")
    text = json.dumps(doc).replace('"melds": "MELDS"', body)
    before = stored()
    response = client_of(app, "maria").post(
        "/clubs/import",
        data={"file": (io.BytesIO(text.encode()), "club.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 400
    assert message in html.unescape(response.get_data(as_text=True))
    assert stored() == before


def test_the_web_import_takes_a_bounded_number_of_hands(owner: User, app: Flask) -> None:
    """Each hand is scored at the import: a file of many thousands held a worker for minutes
    (issue 11). Deleted hands are not scored, so they do not count."""
    doc = exported(owner)  # three hands, one of them deleted
    uploader = client_of(app, "maria")
    before = stored()
    app.config["MAX_IMPORT_HANDS"] = 1
    status, page = upload(uploader, doc)
    assert status == 413  # too large, as a body over its size is (issue 18)
    assert "The file holds 2 hands; an import here takes at most 1." in page
    assert stored() == before
    app.config["MAX_IMPORT_HANDS"] = 2
    status, page = upload(uploader, doc)
    assert status == 302, page[:2000]
