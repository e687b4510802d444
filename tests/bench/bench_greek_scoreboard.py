"""How long a scoreboard of many hands takes in English and in Greek (issue 12, "one catalog").

A Greek page words each stored hand from its message ids and values; a result stored before
it had them is scored again, which is what every Greek page did before. Run:

    .venv/bin/python tests/bench/bench_greek_scoreboard.py [HANDS] [--smoke]

It prints figures and asserts nothing about time. `--smoke` (3 hands, 2 requests each) is what
CI runs (tests/test_benchmarks_smoke.py) to show it still works.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

from flask import Flask

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.*
from support.hand_entries import REFERENCE_HAND, typed
from support.world import signed_in

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match.scored import WORDS
from scorekeeper.models import Hand

GREEK = {"Accept-Language": "el"}


def seed(app: Flask, count: int) -> tuple[int, int]:
    with app.app_context():
        db.create_all()
        user = accounts.create_user("bench", "bench-password")
        club = clubs.create_club(user, "Bench")
        ids = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cat", "Dan")]
        teams = [matches.TeamSpec("A", (ids[0], ids[2])), matches.TeamSpec("B", (ids[1], ids[3]))]
        match = matches.create_match(club, user, "pagat", "4p", teams, target=1_000_000)
        for _ in range(count):
            matches.record_hand(match, user, typed(match, REFERENCE_HAND))
        return match.id, user.id


def timed(app: Flask, user_id: int, url: str, headers: dict[str, str], rounds: int) -> float:
    client = signed_in(app.test_client(), user_id)
    assert client.get(url, headers=headers).status_code == 200
    start = time.perf_counter()
    for _ in range(rounds):
        client.get(url, headers=headers)
    return (time.perf_counter() - start) / rounds * 1000


def main(count: int, rounds: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bench.sqlite'}",
            }
        )
        match_id, user_id = seed(app, count)
        url = f"/matches/{match_id}"
        english = timed(app, user_id, url, {}, rounds)
        greek = timed(app, user_id, url, GREEK, rounds)
        with app.app_context():
            for hand in db.session.scalars(db.select(Hand)):
                hand.result = {k: v for k, v in hand.result.items() if k != WORDS}
            db.session.commit()
        rescored = timed(app, user_id, url, GREEK, rounds)
    print(f"scoreboard of {count} hands: English {english:.0f} ms, Greek {greek:.0f} ms")
    print(f"Greek with results stored without words (scored again): {rescored:.0f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("hands", nargs="?", type=int, default=60, help="hands in the match")
    parser.add_argument("--smoke", action="store_true", help="3 hands: does it still run?")
    args = parser.parse_args()
    main(3, 2) if args.smoke else main(args.hands, 10)
