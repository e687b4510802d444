"""Benchmark of the leaderboard at scale: a club of 500 players, 10,000 matches and 100,000
hands, then the median time to render the season leaderboard page and its API answer, and
the record pages: a busy player's page, the partnerships of a season and of all time, the
head-to-head of the two busiest players, a season's matches and all matches (page 1).
Goal: under 150 ms each, on SQLite and on PostgreSQL.

    .venv/bin/python tests/bench/bench_leaderboard.py                  # a temporary SQLite file
    .venv/bin/python tests/bench/bench_leaderboard.py postgresql+psycopg://postgres@127.0.0.1:5432/DB

`--smoke` builds a club of 12 players and 60 matches and times each request twice: what CI runs
(tests/test_benchmarks_smoke.py) to show the benchmark still works, not a figure to compare.

The database named is emptied first (every table dropped). The club is built fast but real:
a pool of varied hands (the demo's real pagat hands, each side of each, for 4p, 2p and
3p-partnership tables) is scored once by the rules engine through the hand service's own
preview, and each match reuses them with its own players, bulk-inserted with a "created"
version per hand; each match's target is set so it ends exactly on its tenth hand (the last
20 matches are still being played). The matches spread over four years of quarterly seasons.
The derived tables are then made by `stats.rebuild` (timed too), as `flask rebuild-stats`
would. Requests go through the real app (Flask test client, logged in as an owner), warm,
and the median of several runs is printed; nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import copy
import math
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec, read_hand, seating_of
from scorekeeper.models import (
    Club,
    Hand,
    HandVersion,
    Match,
    MatchTeam,
    Membership,
    Player,
    Role,
    Season,
    Seat,
    User,
)
from scorekeeper.records import stats
from scorekeeper.rules.presets import find_variant

GOAL_MS = 150
CLUB = "Bench club"
HANDS_PER_MATCH = 10


@dataclass(frozen=True)
class Scale:
    """How big the club is: its players, its matches, and how many are still being played."""

    players: int = 500
    matches: int = 10_000
    running: int = 20


#: A hand as it is stored: its entry, result and tally.
Stored = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]
SMOKE = Scale(players=12, matches=60, running=3)
FORMATS = (("4p", 0.7), ("2p", 0.15), ("3p-partnership", 0.15))
START = datetime(2023, 1, 2, 19, tzinfo=UTC)
SPAN = timedelta(days=4 * 365 - 45)  # up to about the middle of November 2026


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database_url", nargs="?", help="default: a temporary SQLite file")
    parser.add_argument("--runs", type=int, default=15, help="timed requests per figure")
    parser.add_argument(
        "--keep", action="store_true", help="keep the club afterwards, and reuse a kept one"
    )
    parser.add_argument("--smoke", action="store_true", help="a small club, 2 runs a figure")
    args = parser.parse_args()
    scale, runs = (SMOKE, 2) if args.smoke else (Scale(), args.runs)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            kept = args.keep and sa.inspect(db.engine).has_table("player_match_stat")
            club = db.session.scalar(sa.select(Club).where(Club.name == CLUB)) if kept else None
            if club is None:
                db.session.remove()
                db.drop_all()
                db.create_all()
                ids = build(scale)
            else:
                user = db.session.scalar(sa.select(User).where(User.username == "bench"))
                season = db.session.scalar(sa.select(Season).where(Season.name == "Summer 2026"))
                assert user is not None and season is not None
                ids = club.id, user.id, season.id
            report(app, *ids, runs)
            db.session.remove()
            if not args.keep:
                db.drop_all()
            db.engine.dispose()


def build(scale: Scale) -> tuple[int, int, int]:
    began = time.perf_counter()
    user = accounts.create_user("bench", "bench-password")
    club = Club(name=CLUB, invite_code="bench-invite")
    db.session.add(club)
    db.session.flush()
    db.session.add(Membership(club_id=club.id, user_id=user.id, role=Role.OWNER))
    db.session.execute(
        sa.insert(Player),
        [{"club_id": club.id, "name": f"Player {n:03d}"} for n in range(scale.players)],
    )
    seasons = []
    for year in (2023, 2024, 2025, 2026):
        for quarter, name in enumerate(("Winter", "Spring", "Summer", "Autumn")):
            first = date(year, 3 * quarter + 1, 1)
            last = date(year + (quarter == 3), (3 * quarter + 4) % 12 or 12, 1) - timedelta(days=1)
            seasons.append(
                Season(club_id=club.id, name=f"{name} {year}", starts_on=first, ends_on=last)
            )
    db.session.add_all(seasons)
    db.session.commit()
    player_ids = list(db.session.scalars(sa.select(Player.id).where(Player.club_id == club.id)))
    pools = {
        fmt: hand_pool(club, user, player_ids[: 3 if fmt == "3p-partnership" else 4], fmt)
        for fmt, _ in FORMATS
    }
    generated = time.perf_counter()
    insert_matches(club, user, player_ids, pools, scale)
    inserted = time.perf_counter()
    summed = stats.rebuild(club_id=club.id)
    db.session.commit()
    rebuilt = time.perf_counter()
    if db.engine.dialect.name == "postgresql":  # what autovacuum would soon do
        db.session.execute(sa.text("ANALYZE"))
        db.session.commit()
    hand_count = db.session.scalar(sa.select(sa.func.count()).select_from(Hand))
    print(
        f"built {scale.players} players, {summed} matches, {hand_count} hands "
        f"on {db.engine.dialect.name}: pool {generated - began:.1f} s, "
        f"inserts {inserted - generated:.1f} s, rebuild-stats {rebuilt - inserted:.1f} s"
    )
    # The season that ended last before the newest one: a full season of matches.
    season = seasons[-2]
    return club.id, user.id, season.id


def hand_pool(club: Club, user: User, seated: list[int], fmt: str) -> list[Stored]:
    """Real hands for `fmt`, scored once by the engine as a first hand: (entry, result,
    tally) as a hand stores them, with the players written as their seat numbers (0, 1, …),
    to be given each match's own players."""
    if fmt == "4p":
        teams = [TeamSpec("A", (seated[0], seated[2])), TeamSpec("B", (seated[1], seated[3]))]
    elif fmt == "2p":
        teams = [TeamSpec("A", (seated[0],)), TeamSpec("B", (seated[1],))]
    else:
        teams = [TeamSpec("table", tuple(seated))]
    scratch = matches.create_match(club, user, "pagat", fmt, teams, target=100_000)
    seat_of = {s.player_id: s.position for s in scratch.seats}
    pool = []
    for kozi, first, second in PAGAT_HANDS:
        for a, b in ((first, second), (second, first)):
            if fmt == "4p":
                sides = [
                    {"name": "A", **a, "players": [seated[0], seated[2]]},
                    {"name": "B", **b, "players": [seated[1], seated[3]]},
                ]
            elif fmt == "2p":
                sides = [
                    {"name": "A", **a, "hands": a["hands"][:1], "players": [seated[0]]},
                    {"name": "B", **b, "hands": b["hands"][:1], "players": [seated[1]]},
                ]
            else:
                sides = []
                for single in range(3):  # each player alone in turn
                    pair = [p for i, p in enumerate(seated) if i != single]
                    sides.append(
                        [
                            {**a, "name": "pair", "players": pair},
                            {
                                **b,
                                "name": "alone",
                                "hands": b["hands"][:1],
                                "players": [seated[single]],
                            },
                        ]
                    )
            for teams in sides if fmt == "3p-partnership" else [sides]:
                read = read_hand({"kozi": kozi, "teams": teams}, seating_of(scratch))
                scored = matches.preview(scratch, read).hand  # as the match's next hand: 1
                entry, result = read.to_json(), scored.to_json()
                tally = matches.Tally.of(read, scored).to_json()
                for side in [*entry["teams"], *result["teams"], *tally["sides"]]:
                    side["players"] = [seat_of[p] for p in side["players"]]
                pool.append((entry, result, tally))
    db.session.delete(scratch)
    db.session.commit()
    return pool


def insert_matches(
    club: Club, user: User, players: list[int], pools: dict[str, Any], scale: Scale
) -> None:
    rng = random.Random(4)
    pagat = find_variant("pagat")
    next_id = {
        table: (db.session.scalar(sa.select(sa.func.max(table.id))) or 0) + 1
        for table in (Match, MatchTeam)
    }
    rows: dict[Any, list[dict[str, Any]]] = {
        Match: [],
        MatchTeam: [],
        Seat: [],
        Hand: [],
        HandVersion: [],
    }
    formats, weights = zip(*FORMATS, strict=True)
    for number in range(scale.matches):
        fmt = rng.choices(formats, weights)[0]
        size = {"4p": 4, "2p": 2, "3p-partnership": 3}[fmt]
        seated = rng.sample(players, size)
        running = number >= scale.matches - scale.running
        picks, target = hands_and_target(rng, pools[fmt], fmt, running)
        match_id = next_id[Match]
        next_id[Match] += 1
        started = START + SPAN * number / scale.matches
        rows[Match].append(
            {
                "id": match_id,
                "club_id": club.id,
                "variant_id": "pagat",
                "options": pagat.with_options(target=target).options(),
                "house_rules": {"target": target},
                "format": fmt,
                "first_dealer": 0,
                "created_at": started,
                "created_by_id": user.id,
            }
        )
        team_ids = []
        if fmt != "3p-partnership":
            for position, name in enumerate(("A", "B")):
                team_ids.append(next_id[MatchTeam])
                rows[MatchTeam].append(
                    {
                        "id": next_id[MatchTeam],
                        "match_id": match_id,
                        "position": position,
                        "name": name,
                    }
                )
                next_id[MatchTeam] += 1
        for position, player in enumerate(seated):
            team = team_ids[position % 2] if team_ids else None
            rows[Seat].append(
                {"match_id": match_id, "position": position, "player_id": player, "team_id": team}
            )
        for hand_number, (entry, result, tally) in enumerate(picks, start=1):
            when = started + timedelta(minutes=12 * hand_number)
            entry, result = with_players(entry, seated), with_players(result, seated)
            tally = with_players(tally, seated, "sides")
            common = {
                "match_id": match_id,
                "number": hand_number,
                "version": 1,
                "entry": entry,
                "result": result,
                "accepted_reason": None,
            }
            rows[Hand].append(
                {
                    **common,
                    "tally": tally,
                    "deleted": False,
                    "updated_at": when,
                    "updated_by_id": user.id,
                }
            )
            rows[HandVersion].append(
                {**common, "action": "created", "created_at": when, "user_id": user.id}
            )
        if len(rows[Hand]) >= 5000 or number == scale.matches - 1:
            for table in (Match, MatchTeam, Seat, Hand, HandVersion):
                if rows[table]:
                    db.session.execute(sa.insert(table), rows[table])
                rows[table] = []
    db.session.commit()
    if db.engine.dialect.name == "postgresql":  # ids were given, so move the sequences on
        for table in (Match, MatchTeam):
            name = table.__tablename__
            sequence = f"pg_get_serial_sequence('\"{name}\"', 'id')"
            db.session.execute(
                sa.text(f'SELECT setval({sequence}, (SELECT max(id) FROM "{name}"))')
            )
        db.session.execute(sa.text("ANALYZE"))
        db.session.commit()


def hands_and_target(
    rng: random.Random, pool: list[Any], fmt: str, running: bool
) -> tuple[list[Any], int]:
    """Ten hands of the pool and a target the match passes on its tenth hand, not before."""
    while True:
        picks = [rng.choice(pool) for _ in range(HANDS_PER_MATCH)]
        totals: dict[str, Fraction] = {}
        highs = []
        for _entry, result, _tally in picks:
            for side in result["teams"]:
                if fmt == "3p-partnership":
                    for seat in side["players"]:
                        key = str(seat)
                        totals[key] = totals.get(key, Fraction(0)) + Fraction(
                            side["score"], len(side["players"])
                        )
                else:
                    totals[side["team"]] = totals.get(side["team"], Fraction(0)) + side["score"]
            highs.append(sorted(totals.values(), reverse=True))
        if running:
            return picks, 100_000
        target = math.ceil(max(h[0] for h in highs[:-1]))  # nobody passed it before
        last = highs[-1]
        if last[0] > target and last[0] > last[1] and target >= 500:  # one passes it now
            return picks, target


def with_players(value: dict[str, Any], seated: list[int], key: str = "teams") -> dict[str, Any]:
    out = copy.copy(value)
    out[key] = [{**side, "players": [seated[s] for s in side["players"]]} for side in value[key]]
    return out


def report(app: Flask, club_id: int, user_id: int, season_id: int, runs: int) -> None:
    client = app.test_client()
    user = db.session.get(User, user_id)
    assert user is not None
    with client.session_transaction() as session:
        session["_user_id"] = user.get_id()  # its id and session secret
        session["_fresh"] = True
    season = db.session.get(Season, season_id)
    assert season is not None
    dialect = db.engine.dialect.name
    print(f"{dialect}: median of {runs} warm runs (goal {GOAL_MS} ms each)")
    for label, path in (
        (f"season page ({season.name})", f"/clubs/{club_id}/leaderboard?season={season_id}"),
        (f"season API  ({season.name})", f"/api/v1/clubs/{club_id}/leaderboard?season={season_id}"),
        ("all-time page", f"/clubs/{club_id}/leaderboard?season=all&sort=rating"),
        ("all-time API", f"/api/v1/clubs/{club_id}/leaderboard?season=all"),
    ):
        figure(client, label, path, runs)
    busy = busiest_players(club_id)
    for label, path in (
        ("player page (busiest player)", f"/clubs/{club_id}/players/{busy[0]}"),
        (f"partnerships ({season.name})", f"/clubs/{club_id}/partnerships?season={season_id}"),
        ("partnerships (all time)", f"/clubs/{club_id}/partnerships?season=all"),
        ("head-to-head (two busiest)", f"/clubs/{club_id}/head-to-head?a={busy[0]}&b={busy[1]}"),
        (f"season matches ({season.name})", f"/clubs/{club_id}/seasons/{season_id}"),
        ("all matches, page 1", f"/clubs/{club_id}/seasons/all"),
    ):
        figure(client, label, path, runs)
    running = db.session.scalar(sa.select(sa.func.max(Match.id)).where(Match.club_id == club_id))
    print(f"  {'a hand saved (derived rows kept)':<32} {hand_save_ms(running):7.1f} ms")


def figure(client: FlaskClient, label: str, path: str, runs: int) -> None:
    """Print the median warm time of GET `path`; a page that takes seconds is timed fewer
    times, so the figures before a speed-up come in minutes, not hours."""
    began = time.perf_counter()
    body = get(client, path)
    if time.perf_counter() - began > 1:
        runs = min(runs, 3)
    ms = median_ms(lambda: get(client, path), runs)
    over = "" if ms < GOAL_MS else "  over the goal"
    print(f"  {label:<32} {ms:7.1f} ms  ({len(body) // 1024} KiB, {runs} runs){over}", flush=True)


def busiest_players(club_id: int) -> list[int]:
    """The club's two players with the most matches (then the lower id)."""
    seat = Seat
    count = sa.func.count()
    return list(
        db.session.scalars(
            sa.select(seat.player_id)
            .join(Match, Match.id == seat.match_id)
            .where(Match.club_id == club_id)
            .group_by(seat.player_id)
            .order_by(count.desc(), seat.player_id)
            .limit(2)
        )
    )


def get(client: FlaskClient, path: str) -> bytes:
    response = client.get(path)
    if response.status_code != 200:
        raise SystemExit(f"{path} answered {response.status_code}")
    return response.data


def median_ms(call: Callable[[], object], runs: int) -> float:
    call()  # one more warm-up (`figure` made the first)
    times = []
    for _ in range(runs):
        began = time.perf_counter()
        call()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def hand_save_ms(match_id: int) -> float:
    """One more hand on a match still being played, through the hand service."""
    match = db.session.get(Match, match_id)
    assert match is not None
    entry = copy.deepcopy(match.hands[0].entry)
    began = time.perf_counter()
    matches.record_hand(
        match, None, read_hand({"kozi": entry["kozi"], "teams": entry["teams"]}, seating_of(match))
    )
    return (time.perf_counter() - began) * 1000


if __name__ == "__main__":
    main()
