"""Issue 18 item 1: the club import is bounded and fair. A file over any of the limits is
refused at once (413, a sentence naming the limit, nothing stored); an account's imports are
counted in the database (429 with Retry-After past the limit); a club is written in short
steps, hidden until its last one, and removed when the import fails, so another club's save
goes on during an import; the command line takes any size; and a club's players are
bounded however they are added."""

from __future__ import annotations

import copy
import html
import io
import json
import threading
from datetime import UTC, datetime
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, g
from flask.testing import FlaskClient, FlaskCliRunner
from support.club_files import club_file
from support.hand_entries import A_WINS, typed
from support.world import new_club, pagat_match, signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import Invalid
from scorekeeper.exchange import club_import, import_club
from scorekeeper.extensions import db
from scorekeeper.models import (
    Club,
    ClubImport,
    Hand,
    HandVersion,
    Match,
    Membership,
    Player,
    PlayerMatchStat,
    Season,
    User,
)


def stored() -> dict[str, int]:
    """How many rows each table an import writes holds."""
    db.session.rollback()
    tables = (Club, Player, Season, Membership, Match, Hand, HandVersion, PlayerMatchStat)
    return {
        t.__name__: db.session.scalar(sa.select(sa.func.count()).select_from(t)) or 0
        for t in tables
    }


def client_of(app: Flask, username: str) -> FlaskClient:
    g.pop("_login_user", None)
    user = accounts.find_user(username) or accounts.create_user(username, "password1")
    return signed_in(app.test_client(), user.id)


def upload(client: FlaskClient, doc: Any) -> tuple[int, str, dict[str, str]]:
    response = client.post(
        "/clubs/import",
        data={"file": (io.BytesIO(json.dumps(doc).encode()), "club.json")},
        content_type="multipart/form-data",
    )
    return (
        response.status_code,
        html.unescape(response.get_data(as_text=True)),
        dict(response.headers),
    )


def small_file(hands: int = 2, matches: int = 2, players: int = 4) -> dict[str, Any]:
    return club_file(hands, matches=matches, players=players, name="Imported")


def _with(doc: dict[str, Any], **parts: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    doc.update(parts)
    return doc


def _reasons(doc: dict[str, Any], length: int) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    for hand in doc["matches"][0]["hands"]:
        hand["accepted_reason"] = "r" * length
    return doc


def _melds(doc: dict[str, Any]) -> int:
    return sum(
        len(side.get("melds", []))
        for m in doc["matches"]
        for h in m["hands"]
        for side in h["entry"]["teams"]
    )


BASE = small_file()
MEMBERS = [{"username": f"m{n}", "role": "viewer"} for n in range(3)]
SEASONS = [
    {"id": n, "name": f"S{n}", "starts_on": f"202{n}-01-01", "ends_on": f"202{n}-12-31"}
    for n in range(3)
]
VERSIONS = [
    {
        "number": number,
        "version": 1,
        "action": "created",
        "entry": {
            "kozi": "H",
            "teams": [{"name": "A", "players": [1, 3]}, {"name": "B", "players": [2, 4]}],
        },
        "result": {"legal": True, "problems": [], "teams": []},
        "created_at": "2026-03-01T10:01:00+00:00",
    }
    for number in (1, 2)
]


#: (limit, its value for the test, a file just over it, the sentence naming it)
OVER = [
    ("MAX_CLUB_PLAYERS", 3, BASE, "The file lists 4 players; a club may have at most 3."),
    (
        "MAX_IMPORT_MEMBERS",
        2,
        _with(BASE, members=MEMBERS),
        "The file lists 3 members; an import here takes at most 2.",
    ),
    (
        "MAX_IMPORT_SEASONS",
        2,
        _with(BASE, seasons=SEASONS),
        "The file lists 3 seasons; an import here takes at most 2.",
    ),
    ("MAX_IMPORT_MATCHES", 1, BASE, "The file holds 2 matches; an import here takes at most 1."),
    ("MAX_IMPORT_HANDS", 3, BASE, "The file holds 4 hands; an import here takes at most 3."),
    (
        "MAX_IMPORT_MELDS",
        _melds(BASE) - 1,
        BASE,
        f"The file's hands hold {_melds(BASE)} melds; an import here takes at most "
        f"{_melds(BASE) - 1}.",
    ),
    (
        "MAX_IMPORT_VERSIONS",
        2,
        _with(
            BASE,
            matches=[m | {"versions": VERSIONS[: 1 + i]} for i, m in enumerate(BASE["matches"])],
        ),
        "The file holds 3 earlier versions and deleted hands; an import here takes at most 2.",
    ),
    (
        "MAX_IMPORT_TEXT",
        1000,
        _reasons(BASE, 600),
        "names and reasons run to 1",
    ),
]


@pytest.mark.parametrize(
    ("limit", "most", "doc", "sentence"), OVER, ids=[limit for limit, *_rest in OVER]
)
def test_a_file_over_a_limit_is_refused_at_once_naming_it(
    app: Flask, owner: User, limit: str, most: int, doc: dict[str, Any], sentence: str
) -> None:
    uploader = client_of(app, "maria")
    before = stored()
    app.config[limit] = most
    status, page, _headers = upload(uploader, doc)
    assert status == 413, page[:3000]
    assert sentence in page
    assert stored() == before
    # Refused before it was counted: a refusal costs no import of the account's.
    assert db.session.scalar(sa.select(sa.func.count()).select_from(ClubImport)) == 0
    app.config[limit] = most + 1000
    status, page, _headers = upload(uploader, doc)
    assert status == 302, page[:3000]


def test_a_match_over_the_most_hands_a_match_holds_is_refused_before_it_is_read(
    app: Flask, owner: User
) -> None:
    app.config["MAX_IMPORT_HANDS"] = 10_000
    status, page, _headers = upload(client_of(app, "maria"), club_file(501))
    assert status == 413
    assert "A match of the file has 501 hands; a match holds at most 500." in page


def test_the_nth_import_in_the_window_is_429_with_retry_after(app: Flask, owner: User) -> None:
    app.config["IMPORT_LIMIT_PER_ACCOUNT"] = "2 per hour"
    uploader = client_of(app, "maria")
    for _n in range(2):
        status, page, _headers = upload(uploader, small_file())
        assert status == 302, page[:3000]
    before = stored()
    status, page, headers = upload(uploader, small_file())
    assert status == 429
    assert "You have imported as many club files as an account may for now" in page
    assert 3000 < int(headers["Retry-After"]) <= 3600
    assert stored() == before
    # Another account has its own count; a refused import is not counted.
    assert upload(client_of(app, "nikos"), small_file())[0] == 302
    counted = db.session.scalar(
        sa.select(sa.func.count())
        .select_from(ClubImport)
        .join(User)
        .where(User.username == "maria")
    )
    assert counted == 2


def _other_club(owner: User) -> tuple[int, int]:
    """Another club with a match ready for hands: (club id, match id)."""
    club, p = new_club(owner)
    match = pagat_match(club, owner, [p["Ann"], p["Bob"], p["Cy"], p["Di"]], target=1_000_000)
    return club.id, match.id


def test_an_import_writes_in_steps_hidden_until_its_last_and_others_save_meanwhile(
    app: Flask, owner: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between the import's steps another request saves a hand into another club (on SQLite
    it would wait for the whole import if the import were one transaction); the new club's
    rows are already committed, yet no page or list shows the club until the last step."""
    _club_id, match_id = _other_club(owner)
    seen: list[tuple[int, bool, int]] = []
    failed: list[BaseException] = []

    def save_elsewhere() -> None:
        with app.app_context():
            match = db.session.get(Match, match_id)
            user = db.session.get(User, owner.id)
            assert match is not None and user is not None
            try:
                matches.record_hand(match, user, typed(match, A_WINS))
            except BaseException as error:
                failed.append(error)
            db.session.remove()

    def between_steps() -> None:
        # What another connection sees now: the new club's hands so far, and whether it
        # is listed for its owner or opens for anyone.
        with db.engine.connect() as other:
            hands = other.scalar(
                sa.select(sa.func.count())
                .select_from(Hand)
                .join(Match)
                .join(Club)
                .where(Club.name == "Imported")
            )
        listed = any(club.name == "Imported" for club, _role in clubs.clubs_of(owner))
        imported = db.session.scalar(sa.select(Club.id).where(Club.name == "Imported"))
        opens = True
        try:
            clubs.club_for(owner, imported or 0)
        except Exception:
            opens = False
        db.session.rollback()
        saver = threading.Thread(target=save_elsewhere)
        saver.start()
        saver.join(timeout=5)
        assert not saver.is_alive(), "a save into another club waited for the import"
        assert not failed
        seen.append((hands or 0, listed or opens, 0))

    # Small steps, so that a small file takes several (a real one's are 500 rows).
    monkeypatch.setattr(club_import, "ROWS_A_STEP", 4)
    monkeypatch.setattr(club_import, "MATCHES_A_STEP", 2)
    imported = import_club(small_file(hands=3, matches=3), owner=owner, step=between_steps)
    # The club; per two matches, their tables, their hands and versions four rows a step,
    # their derived rows; the last step.
    assert len(seen) >= 8
    assert all(not shown for _hands, shown, _n in seen[:-1])
    assert any(0 < hands < 9 for hands, _shown, _n in seen)  # committed in parts
    assert seen[-1][1]  # shown once its last step is written
    assert clubs.club_for(owner, imported.club.id).name == "Imported"
    saved = db.session.scalar(
        sa.select(sa.func.count()).select_from(Hand).where(Hand.match_id == match_id)
    )
    assert saved == len(seen)


def test_a_failed_import_removes_what_it_wrote(app: Flask, owner: User) -> None:
    before = stored()
    steps = []

    def fail_midway() -> None:
        steps.append(1)
        if len(steps) == 3:
            raise RuntimeError("the worker died")

    with pytest.raises(RuntimeError):
        import_club(small_file(hands=3, matches=3), owner=owner, step=fail_midway)
    assert stored() == before


def test_a_club_left_hidden_by_a_dead_import_is_removed_by_the_next(
    app: Flask, owner: User
) -> None:
    """A worker killed mid-import leaves a hidden club no one can see: the next import, long
    after, removes it."""
    club = Club(name="Half", invite_code="half", importing=True)
    db.session.add(club)
    db.session.flush()
    db.session.add(
        ClubImport(user_id=owner.id, club_id=club.id, started_at=datetime(2020, 1, 1, tzinfo=UTC))
    )
    db.session.commit()
    assert clubs.clubs_of(owner) == []
    import_club(small_file(), owner=owner)
    assert db.session.scalar(sa.select(Club.id).where(Club.name == "Half")) is None


def test_the_command_line_imports_beyond_the_web_limits_in_steps(
    app: Flask, owner: User, runner: FlaskCliRunner, tmp_path: Any
) -> None:
    for key in ("MAX_IMPORT_HANDS", "MAX_CLUB_PLAYERS", "MAX_IMPORT_MATCHES"):
        app.config[key] = 1
    doc = small_file(hands=3, matches=2, players=5)
    assert upload(client_of(app, "maria"), doc)[0] == 413
    path = tmp_path / "club.json"
    path.write_text(json.dumps(doc))
    result = runner.invoke(args=["import", str(path), "--owner", owner.username])
    assert result.exit_code == 0, result.output
    assert "2 matches, 6 hands" in result.output
    club = db.session.scalar(sa.select(Club).where(Club.name == "Imported"))
    assert club is not None and not club.importing
    assert len(club.players) == 5


def test_no_player_is_added_past_the_clubs_limit(app: Flask, owner: User) -> None:
    app.config["MAX_CLUB_PLAYERS"] = 4
    club, _p = new_club(owner)  # four players
    web = signed_in(app.test_client(), owner.id)
    response = web.post(f"/clubs/{club.id}/players", data={"name": "Eve"})
    assert response.status_code == 400
    page = html.unescape(response.get_data(as_text=True))
    assert f"{club.name} has 4 players, as many as a club may have." in page
    token = accounts.create_token(owner, "t")
    answer = app.test_client().post(
        f"/api/v1/clubs/{club.id}/players",
        json={"name": "Eve"},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 400
    assert "as many as a club may have" in answer.get_json()["error"]
    with pytest.raises(Invalid):
        clubs.add_player(club, "Eve")
    assert db.session.scalar(sa.select(sa.func.count()).select_from(Player)) == 4
