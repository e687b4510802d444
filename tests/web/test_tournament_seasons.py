"""A tournament's tables in the club's season leaderboard and ratings (issue 20,
tournaments.md §6: "a setting, on by default"), through the real app on both databases.

Ann and Bob play an ordinary match; then the four of them play round 1 of a singles
tournament, every hand through the JSON API. With `counts_in_season` on (the default) the
tables count like any match; with it off the leaderboard (the season's and all time's, its
page and its API) and the ratings know only the ordinary match, as if the tables had never
been played, and a rebuild of the derived tables or a season's ratings replayed from the
matches agree.
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
from scorekeeper.models import Club, Match
from scorekeeper.records import ratings, seasons, stats

NAMES = ("Ann", "Bob", "Cy", "Di")


def duel(names: tuple[str, str]) -> dict[str, Any]:
    """The demo's first pagat hand for two, its sides named: the first goes out with 665,
    which ends a match to 600 or of one deal."""
    kozi, first, second = PAGAT_HANDS[0]
    sides = [{**side, "hands": side["hands"][:1]} for side in (first, second)]
    return {"kozi": kozi, "teams": [{"name": n, **s} for n, s in zip(names, sides, strict=True)]}


def lay_club(app: Flask) -> dict[str, Any]:
    """The club, a season holding today, and Ann's win over Bob in an ordinary match."""
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
            "2p",
            [TeamSpec("A", (players["Ann"],)), TeamSpec("B", (players["Bob"],))],
            target=600,
        )
        matches.record_hand(ordinary, owner, typed(ordinary, duel(("A", "B"))))
        return {
            "owner": owner.id,
            "token": accounts.create_token(owner, "night"),
            "club": club.id,
            "season": season.id,
            "players": players,
            "ordinary": ordinary.id,
        }


def play_round_one(client: FlaskClient, laid: dict[str, Any], counts: bool | None) -> None:
    """A round robin of the four singles, one deal a round; round 1's two tables played."""
    bearer = {"Authorization": f"Bearer {laid['token']}"}
    body: dict[str, Any] = {
        "club": laid["club"],
        "name": "Friday night",
        "variant": "pagat",
        "format": "2p",
        "movement": "round-robin",
        "rounds": 3,
        "deals_per_round": 1,
        "vp_scale": "win-draw-loss",
        "entries": [{"name": n, "players": [laid["players"][n]]} for n in NAMES],
    }
    if counts is not None:
        body["counts_in_season"] = counts
    made = client.post("/api/v1/tournaments", json=body, headers=bearer)
    assert made.status_code == 201, made.get_data(as_text=True)
    tournament = made.get_json()["id"]
    names = {e["id"]: e["name"] for e in made.get_json()["entries"]}
    drawn = client.post(f"/api/v1/tournaments/{tournament}/rounds", headers=bearer)
    assert drawn.status_code == 201, drawn.get_data(as_text=True)
    for table in drawn.get_json()["tables"]:
        hand = duel((names[table["ns"]], names[table["ew"]]))
        saved = client.post(f"/api/v1/matches/{table['match']}/hands", json=hand, headers=bearer)
        assert saved.status_code == 201, saved.get_data(as_text=True)
    read = client.get(f"/api/v1/tournaments/{tournament}", headers=bearer).get_json()
    assert read["counts_in_season"] is (True if counts is None else counts)
    assert [t["status"] for t in read["rounds_drawn"][0]["tables"]] == ["finished"] * 2


def board(client: FlaskClient, laid: dict[str, Any], season: str) -> dict[str, dict[str, Any]]:
    """The leaderboard's API for `season`, by player name."""
    answer = client.get(
        f"/api/v1/clubs/{laid['club']}/leaderboard?season={season}",
        headers={"Authorization": f"Bearer {laid['token']}"},
    )
    assert answer.status_code == 200, answer.get_data(as_text=True)
    return {p["name"]: p for p in answer.get_json()["players"]}


def page_names(client: FlaskClient, laid: dict[str, Any], season: str) -> set[str]:
    """The players named on the leaderboard page for `season`."""
    signed_in(client, laid["owner"])
    page = client.get(f"/clubs/{laid['club']}/leaderboard?season={season}")
    assert page.status_code == 200
    text = html.unescape(page.get_data(as_text=True))
    return set(re.findall(r'class="board-name">.*?<a href="[^"]+">([^<]+)</a>', text))


def only_ordinary(app: Flask, laid: dict[str, Any]) -> dict[str, float]:
    """Ann's and Bob's ratings from their ordinary match alone, by name."""
    with app.app_context():
        ordinary = db.session.get(Match, laid["ordinary"])
        assert ordinary is not None
        rated = ratings.ratings([ordinary])
        return {r.name: round(r.ordinal, 3) for r in rated.values()}


def season_replay(app: Flask, laid: dict[str, Any]) -> dict[str, float]:
    """The season's ratings replayed from its matches, by name."""
    with app.app_context():
        club = db.session.get(Club, laid["club"])
        assert club is not None
        season = seasons.season_in(club, laid["season"])
        return {r.name: round(r.ordinal, 3) for r in ratings.club_ratings(club, season).values()}


@pytest.mark.parametrize("counts", [None, True])
def test_the_tables_count_in_the_season_by_default(
    app: Flask, client: FlaskClient, counts: bool | None
) -> None:
    laid = lay_club(app)
    alone = only_ordinary(app, laid)
    play_round_one(client, laid, counts)
    for season in (str(laid["season"]), "all"):
        seen = board(client, laid, season)
        assert set(seen) == set(NAMES), season
        assert seen["Ann"]["matches"] == seen["Bob"]["matches"] == 2
        assert seen["Cy"]["matches"] == seen["Di"]["matches"] == 1
        assert seen["Ann"]["rating"] != alone["Ann"], "her table moved her rating"
        assert page_names(client, laid, season) == set(NAMES)
    replayed = season_replay(app, laid)
    assert {n: p["rating"] for n, p in board(client, laid, str(laid["season"])).items()} == (
        replayed
    )


def test_tables_of_a_tournament_that_does_not_count_stay_out(
    app: Flask, client: FlaskClient
) -> None:
    laid = lay_club(app)
    alone = only_ordinary(app, laid)
    before = {s: board(client, laid, s) for s in (str(laid["season"]), "all")}
    play_round_one(client, laid, False)
    for season in (str(laid["season"]), "all"):
        seen = board(client, laid, season)
        assert seen == before[season], "as if the tables had never been played"
        assert set(seen) == {"Ann", "Bob"}
        assert seen["Ann"]["matches"] == seen["Bob"]["matches"] == 1
        assert {n: p["rating"] for n, p in seen.items()} == alone
        assert page_names(client, laid, season) == {"Ann", "Bob"}
    assert season_replay(app, laid) == alone
    # Made again from the stored hands, the derived tables leave the tables out as well.
    with app.app_context():
        stats.rebuild(club_id=laid["club"])
        db.session.commit()
    for season in (str(laid["season"]), "all"):
        assert board(client, laid, season) == before[season]
