"""How the phone's own pages grow with the match (issue 17, "the phone's path flat").

Two matches in one club, one of 5 hands and one of 300, both far from their target. For
each, median of 15 requests made as a phone makes them (one request a page, signed in with a
session cookie, CSRF on as in production):

- the scoreboard (`GET /matches/<id>`);
- the hand form of the next hand (`GET /matches/<id>/hands/new`);
- the live preview the form sends 300 ms after every tap (`POST …/hands/preview`);
- a save through the form as the Save button sends it (`POST …/hands/new`, Accept JSON);
- the same save through the JSON API (`POST /api/v1/matches/<id>/hands`, bearer token,
  with its Idempotency-Key as the form sends its key).

It prints each median, the ratio from 5 to 300 hands (goals: hand form, live preview and form
save at most 1.5×, the scoreboard at most 3×) and the form save against the API save at each
size (goal: at most 1.5×). Run:

    .venv/bin/python tests/bench/bench_pages.py [--rounds N] [--hands N] [--postgresql URL]

It uses a temporary SQLite file, or the PostgreSQL database given with --postgresql (that
database loses every table). It asserts nothing about time; the load average is printed
because other jobs on the machine move the figures. `--smoke` (matches of 5 and 8 hands, 2
requests each) is what CI runs (tests/test_benchmarks_smoke.py) to show it still works.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.*
from support.hand_entries import REFERENCE_HAND, form_fields
from support.world import signed_in
from werkzeug.datastructures import MultiDict

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db

SMALL, LARGE = 5, 300
GOALS = {"scoreboard": 3.0, "hand form": 1.5, "live preview": 1.5, "form save": 1.5}
FORM_VS_API = 1.5

#: The reference hand of rules/presets.md (A 665, B −95 under pagat, kózi ♥).
HAND = REFERENCE_HAND


def form_fields_of(players: list[int]) -> list[tuple[str, str]]:
    """The reference hand as the hand form posts it (team A: players 0 and 2)."""
    return form_fields(HAND, [(players[0], players[2]), (players[1], players[3])])


def seed(app: Flask, sizes: tuple[int, ...]) -> tuple[int, str, list[int], list[int]]:
    """The owner's id and API token, the players, and a match of each size in `sizes`."""
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.create_all()
        user = accounts.create_user("bench", "bench-password")
        club = clubs.create_club(user, "Bench")
        ids = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cat", "Dan")]
        token = accounts.create_token(user, "bench")
        teams = [matches.TeamSpec("A", (ids[0], ids[2])), matches.TeamSpec("B", (ids[1], ids[3]))]
        made = []
        for size in sizes:
            match = matches.create_match(club, user, "pagat", "4p", teams, target=1_000_000)
            entry = matches.read_hand(HAND, matches.seating_of(match))
            for _ in range(size):
                matches.record_hand(match, user, entry)
            made.append(match.id)
        return user.id, token, ids, made


def median_ms(rounds: int, request: Callable[[], Any]) -> float:
    request()  # warm: templates compiled, caches filled, as on a page already visited
    times = []
    for _ in range(rounds):
        began = time.perf_counter()
        request()
        times.append((time.perf_counter() - began) * 1000)
    return statistics.median(times)


def csrf_of(client: FlaskClient, path: str) -> str:
    page = client.get(path).get_data(as_text=True)
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, f"no CSRF token on {path}"
    return found.group(1)


def expect(status: int, response: Any) -> None:
    assert response.status_code == status, (response.status_code, response.get_data()[:500])


def run(label: str, url: str, rounds: int, large: int) -> list[str]:
    app = create_app({"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": url})
    user_id, token, players, made = seed(app, (SMALL, large))
    client = signed_in(app.test_client(), user_id)
    api = app.test_client()
    auth = {"Authorization": f"Bearer {token}"}
    fields = form_fields_of(players)
    json_accept = {"Accept": "application/json"}
    figures: dict[str, dict[int, float]] = {}
    for size, match_id in zip((SMALL, large), made, strict=True):
        base = f"/matches/{match_id}"
        token_ = csrf_of(client, f"{base}/hands/new")
        preview = [*fields, ("csrf_token", token_)]
        saved = [*fields, ("csrf_token", token_), ("save", "1")]

        def form_save(
            body: list[tuple[str, str]] = saved, at: str = base, accept: Any = json_accept
        ) -> None:
            # Each save is a new hand: a key of its own, as the form gives each new hand.
            key = os.urandom(8).hex()
            response = client.post(
                f"{at}/hands/new", data=MultiDict([*body, ("key", key)]), headers=accept
            )
            expect(201, response)

        def api_save(at: int = match_id) -> None:
            # The same save: the form sends each new hand's key, the outbox its Idempotency-Key.
            keyed = {**auth, "Idempotency-Key": os.urandom(8).hex()}
            expect(201, api.post(f"/api/v1/matches/{at}/hands", json=HAND, headers=keyed))

        steps: dict[str, Callable[[], Any]] = {
            "scoreboard": lambda b=base: expect(200, client.get(b)),
            "hand form": lambda b=base: expect(200, client.get(f"{b}/hands/new")),
            "live preview": lambda b=base, p=preview: expect(
                200, client.post(f"{b}/hands/preview", data=MultiDict(p))
            ),
            "form save": form_save,
            "api save": api_save,
        }
        for name, step in steps.items():
            figures.setdefault(name, {})[size] = median_ms(rounds, step)
    with app.app_context():
        db.session.remove()
        db.drop_all()
    lines = [f"{label}: median ms of {rounds} requests, {SMALL} and {large} hands"]
    lines.append(f"  {'page':<14}{SMALL:>8}{large:>8}   ratio  goal")
    for name, at in figures.items():
        ratio = at[large] / at[SMALL]
        goal = GOALS.get(name)
        mark = "" if goal is None else f"≤{goal}  {'ok' if ratio <= goal else 'OVER'}"
        lines.append(f"  {name:<14}{at[SMALL]:5.1f} ms{at[large]:5.1f} ms{ratio:8.2f}  {mark}")
    for size in (SMALL, large):
        ratio = figures["form save"][size] / figures["api save"][size]
        ok = "ok" if ratio <= FORM_VS_API else "OVER"
        lines.append(f"  form save / api save at {size} hands: {ratio:.2f} (≤{FORM_VS_API} {ok})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--hands", type=int, default=LARGE, help="the long match's hands")
    parser.add_argument("--postgresql", metavar="URL", help="this database instead (wiped)")
    parser.add_argument("--smoke", action="store_true", help="8 hands, 2 requests each")
    args = parser.parse_args()
    rounds, hands = (2, 8) if args.smoke else (args.rounds, args.hands)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.postgresql:
        print("\n".join(run("PostgreSQL", args.postgresql, rounds, hands)))
    else:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'bench.sqlite'}"
            print("\n".join(run("SQLite", url, rounds, hands)))


if __name__ == "__main__":
    main()
