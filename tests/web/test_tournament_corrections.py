"""A director's correction of a confirmed table, and a round's penalties beside the table
results in the console (issue 20, tournaments.md §2), on both databases.

A table's result confirmed (countersigned) and then corrected on the match's own pages, or
through the API, is no longer confirmed: the other entry or the director confirms the
corrected result, the console says "finished" with its Confirm button again, and the ranking
follows the corrected hand. A penalty given for a round shows beside the entry's table result
(or its bye) in the console, and the ranking counts it.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import form_fields
from support.tournament_setup import setup_of, singles
from support.world import signed_in
from werkzeug.datastructures import MultiDict

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import Hand, Tournament, TournamentTable
from scorekeeper.tournaments import service as tournaments
from scorekeeper.tournaments import table_links

NAMES = ("Ann", "Bob", "Cy", "Di", "Eve")


@dataclass(frozen=True)
class Night:
    tournament: int
    owner: int
    #: the entries' ids by name (a single's name is its player's)
    entries: dict[str, int]
    #: table number → its match, its players' ids (NS, EW), names and links
    tables: dict[int, dict[str, Any]]
    bye: str


@pytest.fixture
def night(app: Flask) -> Night:
    """Five singles, round robin, one deal a round on the win-draw-loss scale: round 1 drawn
    (two tables and a bye)."""
    with app.app_context():
        owner = accounts.create_user("olga", "correct horse")
        club = clubs.create_club(owner, "Kafeneio")
        players = [clubs.add_player(club, name).id for name in NAMES]
        made = tournaments.create_tournament(
            club,
            owner,
            setup_of(singles(players), rounds=5, bye_vp=1),
        )
        started = tournaments.start_round(made, owner)
        names = {e.id: e.name for e in made.entries}
        tables = {}
        for table in started.tables:
            links = table_links.working_links(table)
            assert table.match is not None
            seats = {s.team_id: s.player_id for s in table.match.seats}
            teams = [t.id for t in table.match.teams]
            tables[table.number] = {
                "match": table.match_id,
                "members": [[seats[teams[0]]], [seats[teams[1]]]],
                "names": (names[table.ns_entry_id], names[table.ew_entry_id]),
                "ns": table_links.token_of(links["ns"]),
                "ew": table_links.token_of(links["ew"]),
            }
        return Night(
            made.id,
            owner.id,
            {name: entry for entry, name in names.items()},
            tables,
            names[started.byes[0].entry_id],
        )


def entry_of(swap: bool) -> dict[str, Any]:
    """The demo's first pagat hand for two (one side goes out, the other is caught), its
    sides swapped or not."""
    kozi, first, second = PAGAT_HANDS[0]
    sides = [{**side, "hands": side["hands"][:1]} for side in (first, second)]
    if swap:
        sides.reverse()
    return {"kozi": kozi, "teams": sides}


def fields(night: Night, table: int, swap: bool, *extra: tuple[str, str]) -> MultiDict[str, str]:
    members = night.tables[table]["members"]
    return MultiDict([*form_fields(entry_of(swap), members), ("save", "1"), *extra])


def play_table(client: FlaskClient, night: Night, table: int) -> None:
    """NS enters the table's one deal on its phone: NS goes out."""
    saved = client.post(
        f"/tables/{night.tables[table]['ns']}/hands/new",
        data=fields(night, table, swap=False),
        headers={"Accept": "application/json"},
    )
    assert saved.status_code == 201, saved.get_data(as_text=True)


def table_row(app: Flask, number: int) -> tuple[bool, str | None, object]:
    with app.app_context():
        row = db.session.query(TournamentTable).filter_by(number=number).one()
        return row.confirmed, row.confirmed_by, row.confirmed_at


def corrected_since(app: Flask, number: int) -> bool:
    """Whether the table holds a correction made after its result was confirmed."""
    with app.app_context():
        row = db.session.query(TournamentTable).filter_by(number=number).one()
        return row.corrected_at is not None


def vp_by_name(app: Flask, night: Night) -> dict[str, int]:
    with app.app_context():
        found = db.session.get(Tournament, night.tournament)
        assert found is not None
        names = {e.id: e.name for e in found.entries}
        return {names[s.entry]: s.vp for s in tournaments.standings_of(found)}


def version_of(app: Flask, match_id: int, number: int) -> int:
    with app.app_context():
        hand = db.session.query(Hand).filter_by(match_id=match_id, number=number).one()
        return hand.version


def console_row(page: str, table: int) -> str:
    """The console's row of `table` in round 1, its HTML unescaped."""
    found = re.search(
        rf'<tr class="table-[a-z]+[^"]*">\s*<th scope="row"><a href="[^"]+">{table}</a></th>'
        r".*?</tr>",
        page,
        re.S,
    )
    assert found is not None, page[:3000]
    return found.group(0)


def state_of(row: str) -> str:
    found = re.search(r'<span class="table-state">([^<]+)</span>', row)
    assert found is not None, row
    return found.group(1)


def screen_state(page: str, table: int) -> str:
    """What the big screen says of `table`'s state, its HTML unescaped."""
    found = re.search(
        rf'<th scope="row">{table}</th>.*?<td class="screen-state">([^<]*)</td>',
        html.unescape(page),
        re.S,
    )
    assert found is not None, page[:3000]
    return found.group(1).strip()


def test_a_correction_after_the_countersignature_undoes_it(app: Flask, night: Night) -> None:
    phones = app.test_client()
    director = signed_in(app.test_client(), night.owner)
    one = night.tables[1]
    ns, ew = one["names"]
    play_table(phones, night, 1)
    assert phones.post(f"/tables/{one['ew']}/confirm").status_code == 302
    assert table_row(app, 1)[:2] == (True, "ew")
    won = vp_by_name(app, night)
    assert (won[ns], won[ew]) == (2, 0)
    console = html.unescape(director.get(f"/tournaments/{night.tournament}").get_data(True))
    assert state_of(console_row(console, 1)) == "confirmed"
    assert not corrected_since(app, 1)

    # The director corrects the hand on the match's own page: the other side went out.
    corrected = director.post(
        f"/matches/{one['match']}/hands/1/edit",
        data=fields(night, 1, True, ("version", str(version_of(app, one["match"], 1)))),
    )
    assert corrected.status_code == 302, corrected.get_data(as_text=True)[:2000]
    assert table_row(app, 1) == (False, None, None)
    after = vp_by_name(app, night)
    assert (after[ns], after[ew]) == (0, 2), "the ranking follows the corrected hand"
    console = html.unescape(director.get(f"/tournaments/{night.tournament}").get_data(True))
    row = console_row(console, 1)
    # Not plain "finished": the room saw this result confirmed, and it has changed since.
    assert state_of(row) == "corrected, to be confirmed again"
    assert 'class="table-finished table-corrected"' in row
    assert ">Confirm</button>" in row
    assert corrected_since(app, 1)
    greek = signed_in(app.test_client(), night.owner)
    greek.set_cookie("lang", "el")
    in_greek = html.unescape(greek.get(f"/tournaments/{night.tournament}").get_data(True))
    assert state_of(console_row(in_greek, 1)) == "διορθώθηκε, θέλει νέα επιβεβαίωση"
    # The room's big screen says so too, in both languages.
    screen = f"/tournaments/{night.tournament}/live"
    assert screen_state(director.get(screen).get_data(True), 1) == "Corrected, to confirm again"
    greek_screen = screen_state(greek.get(screen).get_data(True), 1)
    assert greek_screen == "Διορθώθηκε, θέλει νέα επιβεβαίωση"
    # The table's phones: the side that did not enter the last hand confirms again.
    assert "Confirm the result" in phones.get(f"/tables/{one['ew']}").get_data(True)
    assert phones.post(f"/tables/{one['ns']}/confirm").status_code == 403
    assert phones.post(f"/tables/{one['ew']}/confirm").status_code == 302
    assert table_row(app, 1)[:2] == (True, "ew")
    assert not corrected_since(app, 1)
    assert vp_by_name(app, night) == after
    console = html.unescape(director.get(f"/tournaments/{night.tournament}").get_data(True))
    row = console_row(console, 1)
    assert state_of(row) == "confirmed" and "corrected" not in row
    assert screen_state(director.get(screen).get_data(True), 1) == "Confirmed"


def test_a_correction_through_the_api_undoes_the_directors_confirmation(
    app: Flask, night: Night
) -> None:
    phones = app.test_client()
    director = signed_in(app.test_client(), night.owner)
    two = night.tables[2]
    ns, ew = two["names"]
    play_table(phones, night, 2)
    confirmed = director.post(
        f"/tournaments/{night.tournament}/confirm", data={"round": "1", "table": "2"}
    )
    assert confirmed.status_code == 302
    assert table_row(app, 2)[:2] == (True, "director")
    with app.app_context():
        user = db.session.get(accounts.User, night.owner)
        assert user is not None
        bearer = {"Authorization": f"Bearer {accounts.create_token(user, 't')}"}
    body = entry_of(swap=True)
    body["teams"] = [
        {"name": name, **side} for name, side in zip(two["names"], body["teams"], strict=True)
    ]
    put = director.put(
        f"/api/v1/matches/{two['match']}/hands/1",
        json=body,
        headers={**bearer, "If-Match": str(version_of(app, two["match"], 1))},
    )
    assert put.status_code == 200, put.get_data(as_text=True)
    assert table_row(app, 2) == (False, None, None)
    assert corrected_since(app, 2)
    console = html.unescape(director.get(f"/tournaments/{night.tournament}").get_data(True))
    assert state_of(console_row(console, 2)) == "corrected, to be confirmed again"
    after = vp_by_name(app, night)
    assert (after[ns], after[ew]) == (0, 2)
    listed = director.get(f"/api/v1/tournaments/{night.tournament}", headers=bearer).get_json()
    assert [t["status"] for t in listed["rounds_drawn"][0]["tables"]] == ["waiting", "finished"]
    # The API says so too, for the table corrected after its confirmation only.
    assert [t["corrected"] for t in listed["rounds_drawn"][0]["tables"]] == [False, True]

    # Confirmed again by the director, then its one hand deleted: no result, nothing confirmed.
    director.post(f"/tournaments/{night.tournament}/confirm", data={"round": "1", "table": "2"})
    assert table_row(app, 2)[:2] == (True, "director")
    assert not corrected_since(app, 2)
    listed = director.get(f"/api/v1/tournaments/{night.tournament}", headers=bearer).get_json()
    assert [t["corrected"] for t in listed["rounds_drawn"][0]["tables"]] == [False, False]
    gone = director.delete(
        f"/api/v1/matches/{two['match']}/hands/1",
        headers={**bearer, "If-Match": str(version_of(app, two["match"], 1))},
    )
    assert gone.status_code == 204
    assert table_row(app, 2) == (False, None, None)
    console = html.unescape(director.get(f"/tournaments/{night.tournament}").get_data(True))
    row = console_row(console, 2)
    assert state_of(row) == "waiting"
    assert "corrected since it was confirmed" in row, "until a result is in and confirmed"
    # An unconfirmed table's correction leaves the other table as it was.
    assert table_row(app, 1) == (False, None, None)
    assert not corrected_since(app, 1)


def test_a_rounds_penalty_shows_beside_the_entrys_table_result(app: Flask, night: Night) -> None:
    phones = app.test_client()
    director = signed_in(app.test_client(), night.owner)
    play_table(phones, night, 1)
    ns, ew = night.tables[1]["names"]
    before = vp_by_name(app, night)
    given = [
        (ew, "1", "", "1", "Slow play"),
        (ns, "1", "30", "", "Wrong card shown"),
        (night.bye, "1", "", "1", "Late for the draw"),
        (ns, "", "", "1", "Phone at the table"),  # the whole tournament's: no table's
    ]
    for name, number, mp, vp, reason in given:
        answer = director.post(
            f"/tournaments/{night.tournament}/penalties",
            data={
                "entry": str(night.entries[name]),
                "round": number,
                "mp": mp,
                "vp": vp,
                "reason": reason,
            },
        )
        assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
    console = html.unescape(director.get(f"/tournaments/{night.tournament}").get_data(True))
    row = console_row(console, 1)
    assert f"Penalty to {ew}: −1 VP: Slow play" in row
    assert f"Penalty to {ns}: −30 MP: Wrong card shown" in row
    assert "Phone at the table" not in row
    assert "Penalty to" not in console_row(console, 2)
    bye = re.search(r'<p class="bye">.*?</p>', console, re.S)
    assert bye is not None
    assert f"Penalty to {night.bye}: −1 VP: Late for the draw" in bye.group(0)
    # The ranking counts what the console shows.
    after = vp_by_name(app, night)
    assert after[ew] == before[ew] - 1
    assert after[ns] == before[ns] - 1
    assert after[night.bye] == before[night.bye] - 1
