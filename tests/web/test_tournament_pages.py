"""The director's pages of a tournament (issue 20): the setup form, the console (start and close
rounds, penalties, entries withdrawn and added, tables confirmed) and the ranking with its CSV
and JSON, through the test client on both databases. The numbers the pages show are checked
against the service's own standings, and the draw against the stored tables."""

from __future__ import annotations

import csv
import html
import io
import re
from datetime import timedelta
from html.parser import HTMLParser
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.world import signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import (
    Match,
    Membership,
    Player,
    Role,
    Tournament,
    TournamentPenalty,
    TournamentRound,
    utcnow,
)
from scorekeeper.tournaments import directing
from scorekeeper.tournaments import service as tournaments

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo")
GOOD = {
    "name": "Friday night",
    "preset": "pagat",
    "format": "4p",
    "movement": "mitchell",
    "rounds": "2",
    "deals": "1",
    "scale": "burraco-3-deals",
    "custom_scale": "",
    "bye_vp": "12",
    "minutes": "",
    "entries": "Eagles: Ann, Bob\nCy, Di\nOwls: Eve, Fay\nGus & Hal",
    "seeding": "given",
    "counts_in_season": "y",
}


@pytest.fixture
def night(app: Flask) -> dict[str, Any]:
    """A club (owner, a scorer, a viewer; a stranger outside) with ten players."""
    with app.app_context():
        owner = accounts.create_user("eleni", "password1")
        scorer = accounts.create_user("nikos", "password1")
        viewer = accounts.create_user("maria", "password1")
        stranger = accounts.create_user("kostas", "password1")
        club = clubs.create_club(owner, "Friday Biriba")
        db.session.add(Membership(club=club, user=scorer, role=Role.SCORER))
        db.session.add(Membership(club=club, user=viewer, role=Role.VIEWER))
        db.session.commit()
        players = {n: clubs.add_player(club, n).id for n in NAMES}
        return {
            "club": club.id,
            "players": players,
            "owner": owner.id,
            "scorer": scorer.id,
            "viewer": viewer.id,
            "stranger": stranger.id,
        }


def _as(app: Flask, night: dict[str, Any], role: str) -> FlaskClient:
    return signed_in(app.test_client(), night[role])


def _count(app: Flask, model: Any) -> int:
    with app.app_context():
        return db.session.scalar(sa.select(sa.func.count()).select_from(model)) or 0


def _text(response: Any) -> str:
    return html.unescape(response.get_data(as_text=True))


def _set_up(app: Flask, night: dict[str, Any], **changes: str) -> int:
    client = _as(app, night, "owner")
    response = client.post(f"/clubs/{night['club']}/tournaments/new", data={**GOOD, **changes})
    assert response.status_code == 302, _text(response)[:2000]
    return int(response.headers["Location"].rsplit("/", 1)[1])


def _play_round(app: Flask, tournament_id: int, number: int) -> None:
    """Every table of round `number` plays its one deal: NS scores the demo's first side."""
    with app.app_context():
        found = db.session.get(Tournament, tournament_id)
        assert found is not None
        played = tournaments.round_of(found, number)
        owner = accounts.find_user("eleni")
        for table in played.tables:
            match = db.session.get(Match, table.match_id)
            assert match is not None
            kozi, first, second = PAGAT_HANDS[0]
            hand = {
                "kozi": kozi,
                "teams": [
                    {"name": t.name, **side}
                    for t, side in zip(match.teams, (first, second), strict=True)
                ],
            }
            matches.record_hand(
                match, owner, matches.read_hand(hand, matches.seating_of(match)), "night"
            )


# --- the club's page and the list ---------------------------------------------------------------


def test_the_club_page_links_to_the_tournaments_and_scorers_may_start_one(
    app: Flask, night: dict[str, Any]
) -> None:
    club = night["club"]
    page = _text(_as(app, night, "owner").get(f"/clubs/{club}"))
    assert f'href="/clubs/{club}/tournaments"' in page
    listing = _text(_as(app, night, "scorer").get(f"/clubs/{club}/tournaments"))
    assert "New tournament" in listing
    seen = _as(app, night, "viewer").get(f"/clubs/{club}/tournaments")
    assert seen.status_code == 200
    assert "New tournament" not in _text(seen)
    assert _as(app, night, "stranger").get(f"/clubs/{club}/tournaments").status_code == 404
    assert _as(app, night, "viewer").get(f"/clubs/{club}/tournaments/new").status_code == 403


def test_the_list_says_where_each_tournament_stands(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(app, night)
    client = _as(app, night, "owner")
    assert "Not started yet" in _text(client.get(f"/clubs/{night['club']}/tournaments"))
    client.post(f"/tournaments/{made}/rounds")
    assert "Round 1 of 2" in _text(client.get(f"/clubs/{night['club']}/tournaments"))
    _play_round(app, made, 1)
    client.post(f"/tournaments/{made}/rounds/1/close")
    client.post(f"/tournaments/{made}/rounds")
    _play_round(app, made, 2)
    client.post(f"/tournaments/{made}/rounds/2/close")
    assert "Finished" in _text(client.get(f"/clubs/{night['club']}/tournaments"))


# --- the setup form -----------------------------------------------------------------------------


def test_the_setup_form_stores_the_tournament_as_typed(app: Flask, night: dict[str, Any]) -> None:
    form = _text(_as(app, night, "owner").get(f"/clubs/{night['club']}/tournaments/new"))
    for label in ("Mitchell", "Modified Danish", "Pure Danish", "Round robin"):
        assert label in form
    assert "a Biriba tournament wants a custom scale or win, draw or loss" in form
    made = _set_up(app, night, minutes="45")
    p = night["players"]
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        assert (found.name, found.format, found.movement, found.rounds) == (
            "Friday night",
            "4p",
            "mitchell",
            2,
        )
        assert (found.deals_per_round, found.vp_scale, found.bye_vp, found.round_minutes) == (
            1,
            "burraco-3-deals",
            12,
            45,
        )
        assert [(e.position, e.name, [x.player_id for x in e.players]) for e in found.entries] == [
            (1, "Eagles", [p["Ann"], p["Bob"]]),
            (2, "Cy & Di", [p["Cy"], p["Di"]]),
            (3, "Owls", [p["Eve"], p["Fay"]]),
            (4, "Gus & Hal", [p["Gus"], p["Hal"]]),
        ]


def test_a_custom_scale_and_singles_drawn_at_random(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(
        app,
        night,
        format="2p",
        movement="round-robin",
        rounds="3",
        deals="",
        scale="custom",
        custom_scale="0 10 10\n200 12 8\n20 0",
        entries="Ann\nBob\nCy\nDi",
        seeding="drawn",
    )
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        assert found.vp_scale == "custom"
        assert found.vp_rows == [
            {"up_to": 0, "winner": 10, "loser": 10},
            {"up_to": 200, "winner": 12, "loser": 8},
            {"up_to": None, "winner": 20, "loser": 0},
        ]
        assert found.deals_per_round is None
        assert sorted(e.name for e in found.entries) == ["Ann", "Bob", "Cy", "Di"]


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"name": ""}, "'name' must be the tournament's name"),
        ({"rounds": "two"}, "Rounds must be a whole number, not “two”."),
        ({"rounds": "9"}, "Mitchell"),
        ({"deals": "12"}, "'deals_per_round' must be a whole number from 1 to 8"),
        ({"bye_vp": "-3"}, "'bye_vp' must be a whole number from 0 to 100"),
        ({"movement": "swiss"}, "'movement' must be one of"),
        ({"format": "3p"}, '\'format\' must be "4p" (pairs) or "2p" (singles)'),
        ({"preset": "poker"}, "poker"),
        ({"entries": "Ann, Bob\nAnn, Cy"}, "already in entry 1"),
        ({"entries": "Ann, Bob\nAnn & Bob: Cy, Di"}, "are both called"),
        ({"entries": "Ann, Bob, Cy\nDi, Eve"}, "Entry 1 has 3 players"),
        ({"entries": "Ann, Bob"}, "at least"),
        ({"entries": "Ann, Bob\nCy, Zoe"}, "The club has no player called “Zoe”"),
        ({"scale": "custom", "custom_scale": ""}, "Write the custom scale's rows"),
        ({"scale": "custom", "custom_scale": "10 x 10\n20 0"}, "Row 1 of the custom scale"),
        ({"scale": "custom", "custom_scale": "100 10 10\n50 12 8\n20 0"}, "must be above row 1's"),
        ({"scale": "custom", "custom_scale": "0 10 10\n20 1"}, "20"),
    ],
)
def test_every_refusal_is_said_beside_the_form_and_nothing_is_stored(
    app: Flask, night: dict[str, Any], changes: dict[str, str], said: str
) -> None:
    client = _as(app, night, "owner")
    players = _count(app, Player)
    response = client.post(f"/clubs/{night['club']}/tournaments/new", data={**GOOD, **changes})
    assert response.status_code == 400
    page = _text(response)
    errors = re.search(
        r'<div class="form-errors" role="alert" id="setup-errors">(.*?)</div>', page, re.S
    )
    assert errors is not None
    assert said in errors.group(1)
    assert _count(app, Tournament) == 0
    assert _count(app, Player) == players
    # What was typed comes back to be corrected.
    assert html.escape(changes.get("entries", GOOD["entries"]), quote=False) in response.get_data(
        as_text=True
    )


def test_a_new_name_is_added_to_the_club_on_the_spot(app: Flask, night: dict[str, Any]) -> None:
    client = _as(app, night, "owner")
    entries = "Ann, Bob\nCy, Zoe"
    url = f"/clubs/{night['club']}/tournaments/new"
    refused = _text(client.post(url, data={**GOOD, "entries": entries}))
    assert 'name="add_players"' in refused
    added = client.post(url, data={**GOOD, "entries": entries, "add_players": "1", "rounds": "1"})
    assert added.status_code == 200
    assert _count(app, Tournament) == 0
    with app.app_context():
        assert db.session.scalar(sa.select(Player.id).where(Player.name == "Zoe")) is not None
    assert "Cy, Zoe" in _text(added)
    done = client.post(url, data={**GOOD, "entries": entries, "rounds": "1"})
    assert done.status_code == 302


# --- the console --------------------------------------------------------------------------------


def test_starting_a_round_shows_the_draw_as_the_service_stored_it(
    app: Flask, night: dict[str, Any]
) -> None:
    made = _set_up(app, night)
    client = _as(app, night, "scorer")
    started = client.post(f"/tournaments/{made}/rounds")
    assert started.status_code == 302
    page = _text(client.get(f"/tournaments/{made}"))
    assert "Round 1" in page
    assert "Start round" not in page  # round 1 is open
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        names = {e.id: e.name for e in found.entries}
        drawn = [
            (t.number, names[t.ns_entry_id], names[t.ew_entry_id], t.match_id)
            for t in found.round_rows[0].tables
        ]
    assert len(drawn) == 2
    for number, ns, ew, match_id in drawn:
        cells = r"\s*<td[^>]*>(.*?)</td>\s*<td[^>]*>(.*?)</td>"
        state = r'\s*<td[^>]*><span class="table-state">(.*?)</span>'
        row = re.search(rf'<a href="/matches/{match_id}">{number}</a></th>{cells}{state}', page)
        assert row is not None, (number, page)
        assert (row.group(1), row.group(2), row.group(3)) == (ns, ew, "waiting")
    # A second start while round 1 is open: the service's 409, said on the console.
    again = client.post(f"/tournaments/{made}/rounds")
    assert again.status_code == 409
    assert "Round 1 is still open; close it before the next one starts." in _text(again)


def test_closing_a_round_names_the_tables_not_finished(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(app, night)
    client = _as(app, night, "owner")
    client.post(f"/tournaments/{made}/rounds")
    refused = client.post(f"/tournaments/{made}/rounds/1/close")
    assert refused.status_code == 409
    text = _text(refused)
    assert "Table 1 is not finished: 0 of its 1 deal is in." in text
    assert "Table 2 is not finished" in text
    _play_round(app, made, 1)
    page = _text(client.get(f"/tournaments/{made}"))
    assert page.count('<span class="table-state">finished</span>') == 2
    assert client.post(f"/tournaments/{made}/rounds/1/close").status_code == 302
    page = _text(client.get(f"/tournaments/{made}"))
    assert "Start round 2" in page
    assert client.post(f"/tournaments/{made}/rounds/7/close").status_code == 404


def test_the_director_confirms_a_finished_table(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(app, night)
    client = _as(app, night, "owner")
    client.post(f"/tournaments/{made}/rounds")
    early = client.post(f"/tournaments/{made}/confirm", data={"round": "1", "table": "1"})
    assert early.status_code == 409
    assert "Table 1 has not finished" in _text(early)
    _play_round(app, made, 1)
    assert (
        client.post(f"/tournaments/{made}/confirm", data={"round": "1", "table": "1"}).status_code
        == 302
    )
    assert (
        client.post(f"/tournaments/{made}/confirm", data={"round": "1", "table": "9"}).status_code
        == 400
    )
    page = _text(client.get(f"/tournaments/{made}"))
    assert page.count('<span class="table-state">confirmed</span>') == 1
    assert page.count('<span class="table-state">finished</span>') == 1


def test_a_penalty_shows_on_the_ranking_with_its_reason(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(app, night)
    client = _as(app, night, "owner")
    client.post(f"/tournaments/{made}/rounds")
    _play_round(app, made, 1)
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        owls = next(e.id for e in found.entries if e.name == "Owls")
        before = {s.entry: s.vp for s in tournaments.standings_of(found)}
    refused = client.post(
        f"/tournaments/{made}/penalties",
        data={"entry": str(owls), "round": "1", "mp": "", "vp": "", "reason": ""},
    )
    assert refused.status_code == 400
    text = _text(refused)
    assert "A penalty takes away some MP or some VP; both are 0." in text
    assert "Write the penalty's reason" in text
    assert _count(app, TournamentPenalty) == 0
    given = client.post(
        f"/tournaments/{made}/penalties",
        data={"entry": str(owls), "round": "1", "vp": "3", "reason": "Slow play at table 2"},
    )
    assert given.status_code == 302
    ranking = _text(client.get(f"/tournaments/{made}/ranking"))
    assert "Penalty: −3 VP (round 1): Slow play at table 2" in ranking
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        after = {s.entry: s.vp for s in tournaments.standings_of(found)}
    assert after[owls] == before[owls] - 3
    row = re.search(r'class="entry-name">Owls.*?<strong>(\d+)</strong>', ranking, re.S)
    assert row is not None and int(row.group(1)) == after[owls]


def test_an_entry_withdrawn_sits_out_the_next_draw_and_one_added_plays(
    app: Flask, night: dict[str, Any]
) -> None:
    made = _set_up(app, night, movement="danish", rounds="3")
    client = _as(app, night, "owner")
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        owls = next(e.id for e in found.entries if e.name == "Owls")
    client.post(f"/tournaments/{made}/rounds")
    during = client.post(f"/tournaments/{made}/withdraw", data={"entry": str(owls)})
    assert during.status_code == 409
    assert "Round 1 is still open" in _text(during)
    _play_round(app, made, 1)
    client.post(f"/tournaments/{made}/rounds/1/close")
    assert (
        client.post(f"/tournaments/{made}/withdraw", data={"entry": str(owls)}).status_code == 302
    )
    again = client.post(f"/tournaments/{made}/withdraw", data={"entry": str(owls)})
    assert again.status_code == 409
    taken = client.post(f"/tournaments/{made}/entries", data={"entry": "Late: Ann, Ida"})
    assert taken.status_code == 400
    assert "already in entry 1" in _text(taken)
    unknown = client.post(f"/tournaments/{made}/entries", data={"entry": "Late: Ida, Zoe"})
    assert unknown.status_code == 400
    assert "“Zoe”" in _text(unknown)
    assert (
        client.post(f"/tournaments/{made}/entries", data={"entry": "Late: Ida, Jo"}).status_code
        == 302
    )
    client.post(f"/tournaments/{made}/rounds")
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        late = next(e for e in found.entries if e.name == "Late")
        seated = {e for t in found.round_rows[1].tables for e in (t.ns_entry_id, t.ew_entry_id)}
        byes = {b.entry_id for b in found.round_rows[1].byes}
        assert owls not in seated | byes
        assert late.id in seated
        assert late.position == 5
    ranking = _text(client.get(f"/tournaments/{made}/ranking"))
    assert "withdrawn" in ranking


def test_a_withdrawal_the_movement_cannot_draw_is_refused(
    app: Flask, night: dict[str, Any]
) -> None:
    made = _set_up(app, night, entries="Ann, Bob\nCy, Di", rounds="1")
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        first = found.entries[0].id
    refused = _as(app, night, "owner").post(
        f"/tournaments/{made}/withdraw", data={"entry": str(first)}
    )
    assert refused.status_code == 409
    assert "at least" in _text(refused)
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None and not any(e.withdrawn for e in found.entries)


def test_the_service_refuses_bad_penalties(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(app, night)
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        entry = found.entries[0].id
        for args, said in [
            ((999, None, 0, 2, "x"), "no entry 999"),
            ((entry, 1, 0, 2, "x"), "there is no round 1"),
            ((entry, None, -1, 2, "x"), "MP must be a whole number from 0"),
            ((entry, None, 0, 101, "x"), "VP must be a whole number from 0 to 100"),
            ((entry, None, 0, 2, "x" * 201), "at most 200 characters"),
        ]:
            with pytest.raises(tournaments.Refused) as refused:
                directing.add_penalty(found, *args)
            assert said in refused.value.message
        given = directing.add_penalty(found, entry, None, 20, 0, "  Late arrival ")
        assert (given.mp, given.vp, given.reason, given.round_number) == (
            20,
            0,
            "Late arrival",
            None,
        )


# --- the ranking, its CSV and JSON --------------------------------------------------------------


def test_csv_and_json_match_the_services_standings(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(app, night, entries=GOOD["entries"] + "\nIda, Jo", rounds="3")
    client = _as(app, night, "viewer")
    owner = _as(app, night, "owner")
    owner.post(f"/tournaments/{made}/rounds")
    _play_round(app, made, 1)
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        fined = found.entries[1].id
        directing.add_penalty(found, fined, None, 10, 1, "=Wrong card, shown")
        standings = tournaments.standings_of(found)
        names = {e.id: e.name for e in found.entries}
    body = client.get(f"/tournaments/{made}/ranking.json")
    assert body.status_code == 200
    data = body.get_json()
    assert [
        (
            s["rank"],
            s["entry"],
            s["name"],
            s["vp"],
            s["mp_for"],
            s["mp_against"],
            s["played"],
            s["byes"],
        )
        for s in data["standings"]
    ] == [
        (s.rank, s.entry, names[s.entry], s.vp, s.mp_for, s.mp_against, s.played, s.byes)
        for s in standings
    ]
    penalised = next(s for s in data["standings"] if s["entry"] == fined)
    assert penalised["penalties"] == [
        {"round": None, "mp": 10, "vp": 1, "reason": "=Wrong card, shown"}
    ]
    assert any(r["opponent"] is None for s in data["standings"] for r in s["rounds"])  # a bye
    sheet = client.get(f"/tournaments/{made}/ranking.csv")
    assert sheet.mimetype == "text/csv"
    rows = list(csv.DictReader(io.StringIO(sheet.get_data(as_text=True))))
    assert [
        (
            int(r["rank"]),
            int(r["entry"]),
            r["name"],
            int(r["vp"]),
            int(r["mp_for"]),
            int(r["mp_against"]),
        )
        for r in rows
    ] == [(s.rank, s.entry, names[s.entry], s.vp, s.mp_for, s.mp_against) for s in standings]
    reasons = [r["penalty_reasons"] for r in rows if r["penalty_reasons"]]
    assert reasons == ["'=Wrong card, shown"]  # never read as a formula
    assert any(r["round_1"].startswith("bye ") for r in rows)
    # The page: every entry in the service's order, with its VP.
    page = _text(client.get(f"/tournaments/{made}/ranking"))
    shown = re.findall(r'<th scope="row" class="entry-name">([^<]+?)\s*(?:<|\n)', page)
    assert [n.strip() for n in shown] == [names[s.entry] for s in standings]


def test_the_ranking_prints_without_the_sites_furniture(app: Flask, night: dict[str, Any]) -> None:
    made = _set_up(app, night)
    page = _text(_as(app, night, "viewer").get(f"/tournaments/{made}/ranking"))
    sheet = re.search(r'href="(/static/[^"]*tournaments[^"]*\.css)"', page)
    assert sheet is not None
    css = _as(app, night, "viewer").get(sheet.group(1)).get_data(as_text=True)
    printed = css[css.index("@media print") :]
    for hidden in (".site-header", ".site-footer", ".site-nav", ".no-print"):
        assert hidden in printed.split("display: none")[0]


def test_the_ranking_refreshes_itself_while_a_round_is_open(
    app: Flask, night: dict[str, Any]
) -> None:
    made = _set_up(app, night)
    client = _as(app, night, "viewer")
    assert "Refresh" not in client.get(f"/tournaments/{made}/ranking").headers
    _as(app, night, "owner").post(f"/tournaments/{made}/rounds")
    assert client.get(f"/tournaments/{made}/ranking").headers.get("Refresh") == "20"


# --- access -------------------------------------------------------------------------------------


def test_members_read_directors_act_strangers_see_nothing(
    app: Flask, night: dict[str, Any]
) -> None:
    made = _set_up(app, night)
    viewer, stranger = _as(app, night, "viewer"), _as(app, night, "stranger")
    for path in ("", "/ranking", "/ranking.csv", "/ranking.json"):
        assert viewer.get(f"/tournaments/{made}{path}").status_code == 200
        assert stranger.get(f"/tournaments/{made}{path}").status_code == 404
    console = _text(viewer.get(f"/tournaments/{made}"))
    assert "Start round 1" not in console
    assert 'id="penalty-form"' not in console
    for path, data in [
        ("/rounds", {}),
        ("/rounds/1/close", {}),
        ("/penalties", {"entry": "1", "vp": "1", "reason": "x"}),
        ("/withdraw", {"entry": "1"}),
        ("/entries", {"entry": "Ida, Jo"}),
        ("/confirm", {"round": "1", "table": "1"}),
    ]:
        assert viewer.post(f"/tournaments/{made}{path}", data=data).status_code == 403
        assert stranger.post(f"/tournaments/{made}{path}", data=data).status_code == 404
    assert app.test_client().get(f"/tournaments/{made}").status_code == 302
    assert stranger.get("/tournaments/abc").status_code == 404
    with app.app_context():
        found = db.session.get(Tournament, made)
        assert found is not None
        assert not found.round_rows and not found.penalties


def test_tables_still_playing_when_the_clock_runs_out_are_late(
    app: Flask, night: dict[str, Any]
) -> None:
    made = _set_up(app, night, minutes="30")
    client = _as(app, night, "owner")
    client.post(f"/tournaments/{made}/rounds")
    assert '<span class="late">' not in _text(client.get(f"/tournaments/{made}"))
    with app.app_context():
        db.session.execute(
            sa.update(TournamentRound).values(started_at=utcnow() - timedelta(minutes=31))
        )
        db.session.commit()
    assert _text(client.get(f"/tournaments/{made}")).count('<span class="late">') == 2
    _play_round(app, made, 1)
    assert '<span class="late">' not in _text(client.get(f"/tournaments/{made}"))


class _Fields(HTMLParser):
    """The house-rule fields of a page as a browser sends them (checked boxes, values, the
    selected option of each select)."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name", "")
        if tag == "input" and name.startswith("opt-"):
            if a.get("type") != "checkbox" or "checked" in a:
                self.fields[name] = a.get("value", "on")
        elif tag == "select" and name.startswith("opt-"):
            self._select = name
        elif (
            tag == "option"
            and self._select is not None
            and ("selected" in a or self._select not in self.fields)
        ):
            self.fields[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def test_a_house_rule_changed_on_the_form_is_the_tournaments(
    app: Flask, night: dict[str, Any]
) -> None:
    client = _as(app, night, "owner")
    url = f"/clubs/{night['club']}/tournaments/new"
    shown = client.post(url, data={**GOOD, "preset": "pagat", "refresh": "1"})
    assert shown.status_code == 200
    assert _count(app, Tournament) == 0
    reader = _Fields()
    reader.feed(shown.get_data(as_text=True))
    assert "opt-points_joker" in reader.fields
    assert "opt-deals" not in reader.fields  # a round's deals have their own field
    data = {**GOOD, **reader.fields, "shown_preset": "pagat", "opt-points_joker": "45"}
    assert client.post(url, data=data).status_code == 302
    with app.app_context():
        found = db.session.scalars(sa.select(Tournament)).one()
        assert found.house_rules == {"points_joker": 45, "deals": 1}
        assert found.options["points_joker"] == 45
    refused = client.post(url, data={**data, "opt-points_joker": "lots"})
    assert refused.status_code == 400
    assert "lots" in _text(refused)
