"""How long saving a hand takes as a match grows (issue 12, "hand saves flat in match length").

Each run plays a few matches of 200 hands through the real API (`POST /api/v1/matches/<id>/hands`
with a bearer token, the Flask test client, the target set far out of reach) and prints the
median time of the save of hands 1, 10, 40 and 200, and how many SQL statements it ran (a
figure the machine's load does not move). In the same run and on the same database,
after each API save, a bare Flask + Flask-SQLAlchemy app of one table inserts the same JSON
body, and its median at the same hands is printed beside it with the ratio (goal: at most 3×
at every point, on SQLite and PostgreSQL). Run:

    .venv/bin/python tests/bench/bench_hand_save.py [--matches N] [--postgresql URL] [--smoke]

It uses a temporary SQLite file, or the PostgreSQL database given with --postgresql (that
database loses every table). It asserts nothing about time; the load average is printed
because other jobs on the machine move the figures. `--smoke` plays one match of 3 hands: what
CI runs (tests/test_benchmarks_smoke.py) to show the benchmark still works.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from flask import Flask, request
from flask.testing import FlaskClient
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import event
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from scorekeeper import create_app
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db

POINTS = (1, 10, 40, 200)
SMOKE_POINTS = (1, 3)
GOAL = 3.0

#: The reference hand of rules/presets.md (A 665, B −95 under pagat, kózi ♥), as tests send it.
HAND: dict[str, Any] = {
    "kozi": "H",
    "teams": [
        {
            "name": "A",
            "melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"],
            "hands": ["", ""],
            "went_out": True,
            "took_biribaki": True,
        },
        {"name": "B", "melds": ["3C 4C 5C", "KS KD JK"], "hands": ["AS 9D", "JK 4H"]},
    ],
}


def bare_app(url: str) -> tuple[Flask, SQLAlchemy]:
    """The least a Flask app can do to store a hand: one table, the JSON body, a commit."""

    class Base(DeclarativeBase):  # one per app: each run defines the table afresh
        pass

    bare_db = SQLAlchemy(model_class=Base)

    class BareHand(bare_db.Model):  # type: ignore[name-defined,misc]
        __tablename__ = "bench_bare_hand"
        id: Mapped[int] = mapped_column(primary_key=True)
        match_id: Mapped[int]
        body: Mapped[dict[str, Any]] = mapped_column(bare_db.JSON)

    app = Flask("bare")
    app.config["SQLALCHEMY_DATABASE_URI"] = url
    bare_db.init_app(app)

    @app.post("/matches/<int:match_id>/hands")
    def save(match_id: int) -> tuple[dict[str, Any], int]:
        hand = BareHand(match_id=match_id, body=request.get_json())
        bare_db.session.add(hand)
        bare_db.session.commit()
        return {"id": hand.id}, 201

    with app.app_context():
        bare_db.drop_all()
        bare_db.create_all()
    return app, bare_db


def seed(app: Flask) -> tuple[str, dict[str, Any]]:
    """A club of four players and an API token for its owner; the body that starts a match."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
        user = accounts.create_user("bench", "bench-password")
        club = clubs.create_club(user, "Bench")
        ids = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cat", "Dan")]
        token = accounts.create_token(user, "bench")
        body = {
            "club": club.id,
            "variant": "pagat",
            "format": "4p",
            "target": 1_000_000,
            "teams": [
                {"name": "A", "players": [ids[0], ids[2]]},
                {"name": "B", "players": [ids[1], ids[3]]},
            ],
        }
    return token, body


def timed_post(client: FlaskClient, path: str, body: Any, **headers: str) -> float:
    began = time.perf_counter()
    response = client.post(path, json=body, headers=headers)
    took = (time.perf_counter() - began) * 1000
    assert response.status_code == 201, (response.status_code, response.get_data(as_text=True))
    return took


def run(label: str, url: str, matches: int, points: tuple[int, ...] = POINTS) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    bare, bare_db = bare_app(url)
    token, match_body = seed(app)
    auth = {"Authorization": f"Bearer {token}"}
    client, bare_client = app.test_client(), bare.test_client()
    api_ms: dict[int, list[float]] = {n: [] for n in points}
    statements: dict[int, list[int]] = {n: [] for n in points}
    ran = [0]
    with app.app_context():
        engine = db.engine

    @event.listens_for(engine, "before_cursor_execute")
    def count(*_args: Any) -> None:
        ran[0] += 1

    bare_ms: dict[int, list[float]] = {n: [] for n in points}
    began = time.perf_counter()
    for _ in range(matches):
        response = client.post("/api/v1/matches", json=match_body, headers=auth)
        assert response.status_code == 201, response.get_json()
        match_id = response.get_json()["id"]
        for number in range(1, max(points) + 1):
            ran[0] = 0
            api = timed_post(client, f"/api/v1/matches/{match_id}/hands", HAND, **auth)
            sql = ran[0]
            plain = timed_post(bare_client, f"/matches/{match_id}/hands", HAND)
            if number in api_ms:
                api_ms[number].append(api)
                bare_ms[number].append(plain)
                statements[number].append(sql)
    elapsed = time.perf_counter() - began
    print(f"\n{label}: {matches} matches of {max(points)} hands in {elapsed:.1f} s")
    print(f"{'hand':>6} {'API':>11} {'bare':>11} {'ratio':>6} {'SQL':>4}")
    for number in points:
        api, plain = statistics.median(api_ms[number]), statistics.median(bare_ms[number])
        sql = statistics.median(statements[number])
        mark = "" if api <= GOAL * plain else "  over the goal"
        print(f"{number:>6} {api:>8.1f} ms {plain:>8.1f} ms {api / plain:>6.1f} {sql:>4.0f}{mark}")
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()
    with bare.app_context():
        bare_db.drop_all()
        bare_db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=5, help="matches played per database")
    parser.add_argument("--postgresql", metavar="URL", help="this database instead (wiped)")
    parser.add_argument("--smoke", action="store_true", help="one match of 3 hands")
    args = parser.parse_args()
    matches, points = (1, SMOKE_POINTS) if args.smoke else (args.matches, POINTS)
    print("load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.postgresql:
        run("PostgreSQL", args.postgresql, matches, points)
    else:
        with tempfile.TemporaryDirectory() as folder:
            run("SQLite", f"sqlite:///{Path(folder) / 'bench.sqlite'}", matches, points)
    print("load average (1, 5, 15 min): " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
