"""A tournament that does not count in the season, on the player pages, the partnerships and
the head-to-head records (issue 20): they sum what the leaderboard sums (records.counted), so
its tables are listed with a player's matches but add nothing to a line, a pair or a record.

Ann & Bob beat Cy & Di in an ordinary match; then a pairs tournament seats Ann & Cy against
Bob & Di for one deal, every hand through the JSON API. With `counts_in_season` on the table
counts everywhere; with it off every record reads as if only the ordinary match was played.
Through the real app, on SQLite and PostgreSQL.
"""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import typed
from support.world import signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, Player
from scorekeeper.records import pair_records, player_records, seasons

NAMES = ("Ann", "Bob", "Cy", "Di")


def deal(names: tuple[str, str]) -> dict[str, Any]:
    """The demo's first pagat hand for four, its sides named: the first goes out and wins a
    match of one deal, or to 600."""
    kozi, first, second = PAGAT_HANDS[0]
    return {"kozi": kozi, "teams": [{"name": names[0], **first}, {"name": names[1], **second}]}


def lay_club(app: Flask) -> dict[str, Any]:
    with app.app_context():
        owner = accounts.create_user("olga", "correct horse")
        club = clubs.create_club(owner, "Kafeneio")
        players = {n: clubs.add_player(club, n).id for n in NAMES}
        today = datetime.now(UTC).date()
        season = seasons.create_season(
            club, "Autumn", today - timedelta(days=30), today + timedelta(days=30)
        )
        ordinary = matches.create_match(
            club,
            owner,
            "pagat",
            "4p",
            [
                TeamSpec("AB", (players["Ann"], players["Bob"])),
                TeamSpec("CD", (players["Cy"], players["Di"])),
            ],
            target=600,
        )
        matches.record_hand(ordinary, owner, typed(ordinary, deal(("AB", "CD"))))
        return {
            "owner": owner.id,
            "token": accounts.create_token(owner, "night"),
            "club": club.id,
            "season": season.id,
            "players": players,
            "ordinary": ordinary.id,
        }


def play_the_table(client: FlaskClient, laid: dict[str, Any], counts: bool) -> int:
    """Ann & Cy against Bob & Di for one deal, Ann & Cy winning; the table's match id."""
    bearer = {"Authorization": f"Bearer {laid['token']}"}
    ids = laid["players"]
    made = client.post(
        "/api/v1/tournaments",
        json={
            "club": laid["club"],
            "name": "Friendly night",
            "variant": "pagat",
            "format": "4p",
            "movement": "round-robin",
            "rounds": 1,
            "deals_per_round": 1,
            "vp_scale": "win-draw-loss",
            "counts_in_season": counts,
            "entries": [
                {"name": "AC", "players": [ids["Ann"], ids["Cy"]]},
                {"name": "BD", "players": [ids["Bob"], ids["Di"]]},
            ],
        },
        headers=bearer,
    )
    assert made.status_code == 201, made.get_data(as_text=True)
    tournament = made.get_json()["id"]
    names = {e["id"]: e["name"] for e in made.get_json()["entries"]}
    drawn = client.post(f"/api/v1/tournaments/{tournament}/rounds", headers=bearer)
    assert drawn.status_code == 201, drawn.get_data(as_text=True)
    (table,) = drawn.get_json()["tables"]
    sides = (names[table["ns"]], names[table["ew"]])
    # The first side goes out and wins: make it Ann & Cy's wherever they sit.
    hand = deal(sides)
    if sides[0] != "AC":
        hand["teams"].reverse()
    saved = client.post(f"/api/v1/matches/{table['match']}/hands", json=hand, headers=bearer)
    assert saved.status_code == 201, saved.get_data(as_text=True)
    read = client.get(f"/api/v1/tournaments/{tournament}", headers=bearer).get_json()
    assert read["counts_in_season"] is counts
    assert [t["status"] for t in read["rounds_drawn"][0]["tables"]] == ["finished"]
    return int(table["match"])


def records_of(app: Flask, laid: dict[str, Any]) -> dict[str, Any]:
    """Every record the pages sum, for the season and all time."""
    ids = laid["players"]
    with app.app_context():
        club = db.session.get(Club, laid["club"])
        ann = db.session.get(Player, ids["Ann"])
        assert club is not None and ann is not None
        season = seasons.season_in(club, laid["season"])
        lines = {
            (line.season.name if line.season else "all"): (line.row.matches, line.row.wins)
            for line in player_records.season_lines(club, ann)
        }
        partners = {r.names: (r.matches, r.wins) for r in pair_records.partners(club, ann)}
        pairs = {
            when: {r.names: r.matches for r in pair_records.partnerships(club, s).records()}
            for when, s in (("season", season), ("all", None))
        }
        versus = {
            when: pair_records.head_to_head(club, s, [ids["Ann"]], [ids["Bob"]]).matches
            for when, s in (("season", season), ("all", None))
        }
        teams = pair_records.head_to_head(
            club, None, [ids["Ann"], ids["Cy"]], [ids["Bob"], ids["Di"]]
        )
        return {
            "lines": lines,
            "partners": partners,
            "pairs": pairs,
            "versus": versus,
            "teams": (teams.matches, teams.wins_a),
        }


def player_page(client: FlaskClient, laid: dict[str, Any]) -> str:
    signed_in(client, laid["owner"])
    page = client.get(f"/clubs/{laid['club']}/players/{laid['players']['Ann']}")
    assert page.status_code == 200
    return html.unescape(page.get_data(as_text=True))


def listed_matches(text: str) -> set[int]:
    part = text.split('id="matches"', 1)[1].split("</section>", 1)[0]
    return {int(m) for m in re.findall(r'href="/matches/(\d+)"', part)}


def test_a_counted_tournament_table_adds_to_every_record(app: Flask, client: FlaskClient) -> None:
    laid = lay_club(app)
    table = play_the_table(client, laid, True)
    seen = records_of(app, laid)
    assert seen["lines"] == {"Autumn": (2, 2), "all": (2, 2)}
    assert seen["partners"] == {("Ann", "Bob"): (1, 1), ("Ann", "Cy"): (1, 1)}
    for when in ("season", "all"):
        assert seen["pairs"][when] == {
            ("Ann", "Bob"): 1,
            ("Cy", "Di"): 1,
            ("Ann", "Cy"): 1,
            ("Bob", "Di"): 1,
        }
        assert seen["versus"][when] == 1
    assert seen["teams"] == (1, 1)
    text = player_page(client, laid)
    assert listed_matches(text) == {laid["ordinary"], table}
    assert "Not counted" not in text and 'id="uncounted-hint"' not in text


def test_a_table_of_a_tournament_that_does_not_count_adds_to_no_record(
    app: Flask, client: FlaskClient
) -> None:
    laid = lay_club(app)
    before = records_of(app, laid)
    table = play_the_table(client, laid, False)
    seen = records_of(app, laid)
    assert seen == before, "as if the table had never been played"
    assert seen["lines"] == {"Autumn": (1, 1), "all": (1, 1)}
    assert seen["partners"] == {("Ann", "Bob"): (1, 1)}
    assert seen["pairs"]["all"] == {("Ann", "Bob"): 1, ("Cy", "Di"): 1}
    assert seen["versus"]["all"] == 0 and seen["teams"] == (0, 0)
    # The page still lists the table with Ann's matches, marked, and says why her lines
    # leave it out.
    text = player_page(client, laid)
    assert listed_matches(text) == {laid["ordinary"], table}
    assert text.count("Not counted: its tournament does not count in the season") == 1
    assert "1 tournament table is left out of these lines" in text
    assert re.search(r"<dt>Matches</dt><dd>1</dd>", text)
    assert not re.search(r"<dt>Matches</dt><dd>2</dd>", text)
    partners = text.split('id="partners"', 1)[1].split("</section>", 1)[0]
    assert "Bob" in partners and "Cy" not in partners


@pytest.mark.parametrize("counts", [True, False])
def test_the_partnership_and_head_to_head_pages_agree(
    app: Flask, client: FlaskClient, counts: bool
) -> None:
    laid = lay_club(app)
    play_the_table(client, laid, counts)
    signed_in(client, laid["owner"])
    ids = laid["players"]
    for season in (str(laid["season"]), "all"):
        page = client.get(f"/clubs/{laid['club']}/partnerships?season={season}")
        assert page.status_code == 200
        text = html.unescape(page.get_data(as_text=True))
        found = set(
            re.findall(
                r'<span class="pair">\s*<a [^>]+>([^<]+)</a>.*?<a [^>]+>([^<]+)</a>', text, re.S
            )
        )
        assert found >= {("Ann", "Bob"), ("Cy", "Di")}, (season, found)
        assert (("Ann", "Cy") in found) is counts, (season, found)
        versus = client.get(
            f"/clubs/{laid['club']}/head-to-head?a={ids['Ann']}&a2={ids['Cy']}"
            f"&b={ids['Bob']}&b2={ids['Di']}&season={season}"
        )
        assert versus.status_code == 200
        shown = re.sub(r"\s+", " ", versus.get_data(as_text=True))
        met = "<dt>Matches against each other</dt><dd>1</dd>" in shown
        assert met is counts, season
