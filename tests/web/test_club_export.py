"""Export and backup: a season's CSV, and a whole club as JSON that, imported into an empty
instance (or as a new club beside the old), gives back the same matches, hands, versions,
standings and ratings; a bad file is refused whole."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask, current_app, g
from flask.testing import FlaskClient, FlaskCliRunner
from support.hand_entries import A_WINS, B_WINS, LOSERS, WINNERS, typed
from support.hand_entries import ILLEGAL_HAND as ILLEGAL
from support.world import played_on, signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import Invalid
from scorekeeper.exchange.club_export import export_club
from scorekeeper.exchange.club_import import import_club
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, HandVersion, Match, Membership, Role, User
from scorekeeper.records import leaderboard, ratings, seasons


def lived_in_club(owner: User) -> Club:
    """Two seasons; team and share formats, house rules, a first dealer, an edited hand, a
    deleted one, an accepted illegal one, an idempotency key, and a match placed by hand."""
    club = clubs.create_club(owner, "Friday")
    scorer = accounts.create_user("nikos", "password1")
    db.session.add(Membership(club=club, user=scorer, role=Role.SCORER))
    club.min_matches_ranked = 1
    db.session.commit()
    p = {n: clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di", "=Eve")}
    spring = seasons.create_season(club, "Spring", date(2026, 3, 1), date(2026, 5, 31))
    summer = seasons.create_season(club, "Summer", date(2026, 6, 1), date(2026, 8, 31))

    def four(a: tuple[str, str], b: tuple[str, str], target: int, **more: Any) -> Match:
        teams = [TeamSpec("A", (p[a[0]], p[a[1]])), TeamSpec("B", (p[b[0]], p[b[1]]))]
        return matches.create_match(club, owner, "pagat", "4p", teams, target=target, **more)

    m1 = four(("Ann", "Cy"), ("Bob", "Di"), 600, house_rules={"penalty_no_biribaki": 50})
    matches.record_hand(m1, owner, typed(m1, A_WINS), idempotency_key="tap-1")
    matches.edit_hand(
        m1, 1, scorer, typed(m1, B_WINS), expected_version=1
    )  # entered the wrong way round
    played_on(m1, date(2026, 3, 5), hour=20)
    trio = (p["Ann"], p["Bob"], p["=Eve"])
    m2 = matches.create_match(
        club, owner, "pagat", "3p-partnership", [TeamSpec("t", trio)], target=600
    )
    for pair, alone in (((p["Bob"], p["=Eve"]), p["Ann"]), ((p["Ann"], p["=Eve"]), p["Bob"])):
        share = {
            "kozi": "H",
            "teams": [
                {**WINNERS, "players": list(pair)},
                {**LOSERS, "hands": ["AS 9D"], "players": [alone]},
            ],
        }
        matches.record_hand(m2, scorer, typed(m2, share))
    played_on(m2, date(2026, 4, 1), hour=20)
    m3 = four(("Ann", "Bob"), ("Cy", "Di"), 5000, first_dealer=p["Di"])
    matches.record_hand(m3, owner, typed(m3, A_WINS))
    matches.record_hand(m3, owner, typed(m3, ILLEGAL), accepted_reason="The table allowed it")
    matches.record_hand(m3, owner, typed(m3, B_WINS))
    matches.delete_hand(m3, 2, owner, expected_version=1)
    played_on(m3, date(2026, 4, 20), hour=20)
    m4 = four(("Cy", "Di"), ("Ann", "Bob"), 600)
    matches.record_hand(m4, owner, typed(m4, A_WINS))
    played_on(m4, date(2026, 5, 2), hour=20)
    seasons.place_match(m4, summer)
    assert spring.id
    return club


def describe(club: Club) -> dict[str, Any]:
    """Everything the round trip must keep, with players and users by name, not by id."""
    db.session.expire_all()
    names = {p.id: p.name for p in club.players}

    def named(value: dict[str, Any]) -> dict[str, Any]:
        sides = [
            {**s, "players": [names[i] for i in s["players"]]} if "players" in s else s
            for s in value.get("teams", [])
        ]
        return {**value, "teams": sides} if "teams" in value else value

    def when(moment: datetime) -> str:
        aware = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment
        return aware.astimezone(UTC).isoformat()

    every = seasons.matches_in(club, None)
    described = []
    for match in sorted(every, key=lambda m: m.created_at.replace(tzinfo=None)):
        versions = db.session.scalars(
            sa.select(HandVersion)
            .where(HandVersion.match_id == match.id)
            .order_by(HandVersion.number, HandVersion.version)
        )
        described.append(
            {
                "rules": (match.variant_id, match.options, match.house_rules, match.format),
                "first_dealer": match.first_dealer,
                "season": match.season.name if match.season else None,
                "created": when(match.created_at),
                "table": [(s.player.name, s.team.name if s.team else None) for s in match.seats],
                "hands": [
                    (
                        *(h.number, h.version, h.deleted, h.accepted_reason, h.idempotency_key),
                        *(when(h.updated_at), named(h.entry), named(h.result)),
                    )
                    for h in match.hands
                ],
                "versions": [
                    (
                        *(v.number, v.version, v.action, v.accepted_reason, when(v.created_at)),
                        *(v.user.username if v.user else None, named(v.entry), named(v.result)),
                    )
                    for v in versions
                ],
            }
        )
    boards = {
        season.name if season else "all": [
            (
                *(r.name, r.rank, r.matches, r.wins, r.hands, r.points, r.side_points),
                *(r.biribas_clean, r.biribas_dirty, r.went_out, r.rating, r.rating_trend),
            )
            for r in leaderboard.ranked(club, season, sort="name", descending=False)
        ]
        for season in [None, *seasons.seasons_of(club)]
    }
    rated = {
        r.name: (r.mu, r.sigma, r.matches, [p.ordinal for p in r.history])
        for r in ratings.club_ratings(club).values()
    }
    return {
        "club": (club.name, club.min_matches_ranked, when(club.created_at)),
        "seasons": [(s.name, s.starts_on, s.ends_on) for s in seasons.seasons_of(club)],
        "players": sorted(names.values()),
        "matches": described,
        "boards": boards,
        "ratings": rated,
    }


def wipe() -> None:
    """An empty instance: every table dropped and made again."""
    db.session.remove()
    db.drop_all()
    db.create_all()


def current_app_client() -> FlaskClient:
    g.pop("_login_user", None)
    return current_app.test_client()


def logged_in(app: Flask, username: str) -> FlaskClient:
    # Requests run in this test's app context, where Flask-Login keeps the last user it
    # loaded (g._login_user): forget it, or the next client would act as the previous one.
    g.pop("_login_user", None)
    client = app.test_client()
    user = accounts.find_user(username)
    assert user is not None
    return signed_in(client, user.id)


# --- JSON round trips ---------------------------------------------------------------------


def test_an_export_imported_into_an_empty_instance_gives_everything_back(owner: User) -> None:
    club = lived_in_club(owner)
    before = describe(club)
    assert before["ratings"] and before["boards"]["Summer"]  # the placed match counts there
    text = json.dumps(export_club(club), ensure_ascii=False)
    wipe()
    eleni = accounts.create_user("eleni", "another-password")
    nikos = accounts.create_user("nikos", "another-password")
    imported = import_club(json.loads(text), restore_members=True)
    assert (imported.matches, imported.hands, imported.missing_members) == (4, 7, [])
    assert describe(imported.club) == before
    roles = {m.user_id: m.role for m in imported.club.memberships}
    assert roles == {eleni.id: Role.OWNER, nikos.id: Role.SCORER}


def test_the_commands_export_and_import_a_club(
    owner: User, runner: FlaskCliRunner, tmp_path: Path
) -> None:
    club = lived_in_club(owner)
    before = describe(club)
    by_id = runner.invoke(args=["export", str(club.id)])
    by_name = runner.invoke(args=["export", "Friday"])
    assert by_id.exit_code == 0 and by_name.exit_code == 0, by_id.output
    assert json.loads(by_id.output)["matches"] == json.loads(by_name.output)["matches"]
    path = tmp_path / "club.json"
    path.write_text(by_name.output, encoding="utf-8")
    wipe()
    refused = runner.invoke(args=["import", str(path)])
    assert refused.exit_code != 0
    assert "None of the club's owners has an account here" in refused.output
    assert db.session.scalar(sa.select(sa.func.count(Club.id))) == 0
    accounts.create_user("admin", "password1")
    done = runner.invoke(args=["import", str(path), "--owner", "admin"])
    assert done.exit_code == 0, done.output
    assert "4 matches, 7 hands" in done.output
    assert "eleni, nikos" in done.output  # members with no account here
    imported = db.session.scalar(sa.select(Club))
    assert imported is not None
    # Everything comes back; who saved each version is unknown here, as they have no account.
    for match in before["matches"]:
        match["versions"] = [(*v[:5], None, *v[6:]) for v in match["versions"]]
    assert describe(imported) == before


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["export", "Nowhere"], "There is no club Nowhere", id="unknown-club"),
        pytest.param(["import", "/nonexistent.json"], "No such file", id="missing-file"),
        pytest.param(["import", "-", "--owner", "ghost"], "There is no user 'ghost'", id="no-user"),
    ],
)
def test_the_commands_say_what_is_wrong(
    owner: User, runner: FlaskCliRunner, args: list[str], message: str
) -> None:
    result = runner.invoke(args=args, input="{}")
    assert result.exit_code != 0
    assert message in result.output


def test_a_club_file_uploaded_becomes_a_new_club_of_the_uploader(owner: User, app: Flask) -> None:
    club = lived_in_club(owner)
    before = describe(club)
    client = logged_in(app, "eleni")
    download = client.get(f"/clubs/{club.id}/export.json")
    assert download.status_code == 200
    assert download.headers["Content-Disposition"].startswith("attachment;")
    accounts.create_user("maria", "password1")
    uploaded = logged_in(app, "maria").post(
        "/clubs/import",
        data={"file": (io.BytesIO(download.data), "club.json")},
        content_type="multipart/form-data",
    )
    assert uploaded.status_code == 302
    new_id = int(uploaded.headers["Location"].rsplit("/", 1)[1])
    assert new_id != club.id
    copy = db.session.get(Club, new_id)
    assert copy is not None
    # New ids everywhere, the same club; eleni and nikos have accounts here but are not
    # members of maria's copy, so its history names no account for what they did.
    for match in before["matches"]:
        match["versions"] = [(*v[:5], None, *v[6:]) for v in match["versions"]]
    assert describe(copy) == before
    maria = accounts.find_user("maria")
    assert [(m.user_id, m.role) for m in copy.memberships] == [(maria.id, Role.OWNER)]


def test_an_import_credits_no_hand_to_an_account_outside_the_new_club(owner: User) -> None:
    """Issue 11 item 12: a file naming "nikos" as a hand's author must not credit the nikos
    who happens to have an account here: authors map to members of the new club only."""
    club = lived_in_club(owner)
    data = export_club(club)
    wipe()
    admin = accounts.create_user("admin", "password1")
    nikos = accounts.create_user("nikos", "password1")  # same name, a stranger to the club
    imported = import_club(data, owner=admin).club
    match_ids = [m.id for m in imported.matches]
    authors = set(
        db.session.scalars(
            sa.select(HandVersion.user_id).where(HandVersion.match_id.in_(match_ids))
        )
    )
    authors |= {h.updated_by_id for m in imported.matches for h in m.hands}
    authors |= {m.created_by_id for m in imported.matches}
    assert nikos.id not in authors
    assert authors == {None}  # eleni has no account here either: every author is former


def test_an_import_keeps_the_authors_who_are_members_of_the_new_club(owner: User) -> None:
    """Restoring members, the authors who get their membership back keep their hands."""
    club = lived_in_club(owner)
    data = export_club(club)
    wipe()
    eleni = accounts.create_user("eleni", "password1")
    nikos = accounts.create_user("nikos", "password1")
    imported = import_club(data, restore_members=True).club
    match_ids = [m.id for m in imported.matches]
    authors = set(
        db.session.scalars(
            sa.select(HandVersion.user_id).where(HandVersion.match_id.in_(match_ids))
        )
    )
    assert authors == {eleni.id, nikos.id}
    # Uploaded by someone else, only the uploader is a member: nikos is a former member,
    # and the history page says so.
    wipe()
    maria = accounts.create_user("maria", "password1")
    accounts.create_user("nikos", "password1")
    copy = import_club(data, owner=maria).club
    edited = next(m for m in copy.matches if any(h.number == 1 and h.version == 2 for h in m.hands))
    client = signed_in(current_app_client(), maria.id)
    page = client.get(f"/matches/{edited.id}/hands/1/history").get_data(as_text=True)
    assert "by a former member" in page
    assert "nikos" not in page


def _file(body: bytes | str) -> dict[str, Any]:
    raw = body.encode() if isinstance(body, str) else body
    return {"file": (io.BytesIO(raw), "club.json")}


def _broken(change: str) -> str:
    """A small real export with one thing broken by `change`."""
    doc = {
        "format": "scorekeeper-club",
        "version": 1,
        "club": {
            "name": "Broken",
            "created_at": "2026-03-01T20:00:00+00:00",
            "min_matches_ranked": 3,
        },
        "members": [],
        "players": [{"id": 7, "name": "Ann"}, {"id": 8, "name": "Bob"}],
        "seasons": [],
        "matches": [
            {
                "id": 1,
                "variant": "pagat",
                "options": {"target": 600},
                "format": "2p",
                "first_dealer": 0,
                "season": None,
                "created_at": "2026-03-01T20:00:00+00:00",
                "teams": [{"name": "A"}, {"name": "B"}],
                "seats": [{"player": 7, "team": 0}, {"player": 8, "team": 1}],
                "hands": [
                    {
                        "number": 1,
                        "version": 1,
                        "entry": {
                            "kozi": "H",
                            "teams": [
                                {"name": "A", **WINNERS, "hands": [""], "players": [7]},
                                {"name": "B", **LOSERS, "hands": ["AS 9D"], "players": [8]},
                            ],
                        },
                        "deleted": False,
                        "updated_at": "2026-03-01T20:10:00+00:00",
                    }
                ],
                "versions": [],
            }
        ],
    }
    if change == "bad card":
        doc["matches"][0]["hands"][0]["entry"]["teams"][0]["melds"] = ["5S-JS", "QQ QC QH"]
    elif change == "unknown player":
        doc["matches"][0]["hands"][0]["entry"]["teams"][1]["players"] = [99]
    elif change == "unknown variant":
        doc["matches"][0]["variant"] = "poker"
    elif change == "three players in 2p":
        doc["players"].append({"id": 9, "name": "Cy"})
        doc["matches"][0]["seats"].append({"player": 9, "team": 1})
    elif change == "bad time":
        doc["matches"][0]["created_at"] = "yesterday"
    elif change == "not an export":
        doc["format"] = "spreadsheet"
    elif change == "no kozi":
        doc["matches"][0]["hands"][0]["entry"]["kozi"] = None
    return json.dumps(doc)


def test_a_good_small_file_imports(owner: User, app: Flask) -> None:
    uploaded = logged_in(app, "eleni").post(
        "/clubs/import", data=_file(_broken("nothing")), content_type="multipart/form-data"
    )
    assert uploaded.status_code == 302
    club = db.session.scalar(sa.select(Club).where(Club.name == "Broken"))
    assert club is not None
    rows = leaderboard.ranked(club, None)
    assert [(r.name, r.matches, r.wins, r.points) for r in rows] == [
        ("Ann", 1, 1, 665),
        ("Bob", 1, 0, -70),
    ]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        pytest.param("{not json", "not valid JSON (line 1, column 2)", id="not-json"),
        pytest.param(b"\xff\xfe\x00", "not text in UTF-8", id="not-text"),
        pytest.param("[" * 100_000 + "]" * 100_000, "nests too deeply", id="too-deep"),
        pytest.param("[1, 2]", "the file must be a JSON object", id="a-list"),
        pytest.param(_broken("not an export"), "not a Scorekeeper club export", id="not-an-export"),
        # A live hand's entry is read as the API reads a hand, its problems in the same words.
        pytest.param(
            _broken("bad card"), "matches[0].hands[0].entry: Team A, meld 2", id="bad-card"
        ),
        pytest.param(
            _broken("unknown player"),
            "matches[0].hands[0].entry: Player 99 has no seat at this table.",
            id="unknown-player",
        ),
        pytest.param(_broken("unknown variant"), "poker", id="unknown-variant"),
        pytest.param(_broken("three players in 2p"), "does not seat its players", id="bad-table"),
        pytest.param(_broken("bad time"), "matches[0].created_at must be a time", id="bad-time"),
    ],
)
def test_a_bad_file_is_a_400_and_nothing_is_imported(
    owner: User, app: Flask, body: str | bytes, message: str
) -> None:
    response = logged_in(app, "eleni").post(
        "/clubs/import", data=_file(body), content_type="multipart/form-data"
    )
    assert response.status_code == 400
    assert message in response.get_data(as_text=True).replace("&#39;", "'")
    db.session.rollback()
    assert db.session.scalar(sa.select(sa.func.count(Club.id))) == 0
    assert db.session.scalar(sa.select(sa.func.count(Match.id))) == 0


def test_no_file_is_a_400_asking_for_one(owner: User, app: Flask) -> None:
    response = logged_in(app, "eleni").post(
        "/clubs/import", data={}, content_type="multipart/form-data"
    )
    assert response.status_code == 400
    assert "Choose the club's file to import." in response.get_data(as_text=True).replace(
        "&#39;", "'"
    )


def test_an_imported_hand_is_read_and_stored_as_the_hand_service_stores_it(
    owner: User,
) -> None:
    """A file's hand is read as the API reads one (the kózi as its letter, the players by
    their new ids) and stored as the hand service stores a hand."""
    doc = json.loads(_broken("nothing"))
    entry = doc["matches"][0]["hands"][0]["entry"]
    entry["kozi"] = "♥"
    imported = import_club(doc, owner=owner)
    match = db.session.scalar(sa.select(Match).where(Match.club_id == imported.club.id))
    assert match is not None
    hand = match.hands[0]
    ann, bob = (s.player_id for s in sorted(match.seats, key=lambda s: s.team_id or 0))
    assert hand.entry["kozi"] == "H"
    assert hand.entry["teams"][0]["melds"] == WINNERS["melds"]
    assert [side["players"] for side in hand.entry["teams"]] == [[ann], [bob]]
    assert hand.entry == typed(match, hand.entry).to_json()  # as the service would store it
    assert [side["score"] for side in hand.result["teams"]] == [665, -70]


def test_the_service_refuses_a_bad_file_with_invalid(owner: User) -> None:
    with pytest.raises(Invalid, match=r"club\.name must be text"):
        import_club(json.loads(_broken("nothing").replace('"Broken"', '""')), owner=owner)


@pytest.mark.parametrize(
    ("who", "path", "status"),
    [
        pytest.param("nikos", "/clubs/{id}/export.json", 403, id="scorer-no-json"),
        pytest.param("nikos", "/clubs/{id}/backup", 403, id="scorer-no-backup-page"),
        pytest.param("nikos", "/clubs/{id}/export.csv?season=all", 200, id="scorer-csv"),
        pytest.param("stranger", "/clubs/{id}/export.csv?season=all", 404, id="stranger-csv"),
        pytest.param("eleni", "/clubs/{id}/backup", 200, id="owner-backup-page"),
    ],
)
def test_who_may_download(owner: User, app: Flask, who: str, path: str, status: int) -> None:
    club = lived_in_club(owner)
    accounts.create_user("stranger", "password1")
    response = logged_in(app, who).get(path.format(id=club.id))
    assert response.status_code == status


# --- CSV ------------------------------------------------------------------------------------


def test_a_seasons_csv_lists_every_side_of_every_hand(owner: User, app: Flask) -> None:
    club = lived_in_club(owner)
    spring = seasons.seasons_of(club)[0]
    response = logged_in(app, "eleni").get(f"/clubs/{club.id}/export.csv?season={spring.id}")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    # Spring: M1 (one edited hand), M2 (two hands), M3 (hands 1 and 3; 2 was deleted).
    # M4 was played in spring but placed in summer.
    assert [(r["match"], r["hand"], r["side"]) for r in rows][:2] == [
        (rows[0]["match"], "1", "A"),
        (rows[0]["match"], "1", "B"),
    ]
    assert len(rows) == 2 + 4 + 4
    first = rows[1]
    assert (first["season"], first["players"], first["score"], first["went_out"]) == (
        "Spring",
        "Bob, Di",
        "665",
        "yes",
    )
    assert (first["biribas_clean"], first["biribas_dirty"], first["finished"], first["winner"]) == (
        "1",
        "1",
        "yes",
        "B",
    )
    assert first["first_hand_utc"] == "2026-03-05 20:00:00"
    shares = [r for r in rows if r["format"] == "3p-partnership"]
    assert shares[0]["players"] == "Bob, =Eve"
    assert shares[0]["winner"] == "'=Eve"  # never a formula in a spreadsheet
    assert {r["hand"] for r in rows if r["target"] == "5000"} == {"1", "3"}


def test_the_all_time_csv_and_its_header(owner: User, app: Flask) -> None:
    club = lived_in_club(owner)
    text = (
        logged_in(app, "nikos")
        .get(f"/clubs/{club.id}/export.csv?season=all")
        .get_data(as_text=True)
    )
    header, *lines = text.splitlines()
    assert header.startswith("season,match,first_hand_utc,variant,format,target,finished")
    assert len(lines) == 2 + 4 + 4 + 2
    assert lines[-1].startswith("Summer,")  # placed in summer by hand


def test_an_old_hand_without_its_kozi_still_imports(owner: User, app: Flask) -> None:
    """Exports from before the form asked for the kózi hold hands without one: they are
    history and are scored as they stand (the kózi run 8♥–A♥ is then a plain one)."""
    uploaded = logged_in(app, "eleni").post(
        "/clubs/import", data=_file(_broken("no kozi")), content_type="multipart/form-data"
    )
    assert uploaded.status_code == 302
    club = db.session.scalar(sa.select(Club).where(Club.name == "Broken"))
    assert club is not None
    (match,) = club.matches
    (hand,) = match.hands
    assert hand.entry["kozi"] is None
    # A: 665 with ♥ as kózi; without it the dirty 8♥–A♥ run earns 100, not 200
    assert [t["score"] for t in hand.result["teams"]] == [565, -70]
