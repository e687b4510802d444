"""Load benchmark: the app under gunicorn (4 workers) on SQLite (WAL) and PostgreSQL, driven by
50 concurrent clients that each start matches and fill them with 40 hands through the JSON API.
One request in ten is sent again with the same Idempotency-Key; one hand in twenty is corrected
and then corrected again from the stale version (PUT with an old If-Match: must be 409).

Afterwards it checks, from the database itself, that every acknowledged hand is stored exactly
once with the entry and version the client last had acknowledged, and that every standing and
every hand's score equals what the rules engine makes of the stored entries. It prints
throughput, p50/p95/p99 latency, hands lost and duplicates (both must be 0).

    .venv/bin/python tests/bench/load.py                      # SQLite
    .venv/bin/python tests/bench/load.py --kill               # SIGKILL mid-load, restart
    .venv/bin/python tests/bench/load.py --postgresql postgresql+psycopg://postgres@127.0.0.1/x

`--smoke` (4 clients, one match of 3 hands each, 2 workers) is what CI runs
(tests/test_benchmarks_smoke.py) to show the benchmark and its checks still work.

--kill SIGKILLs the gunicorn master and its workers when half the hands are in, starts it
again, and the clients retry whatever was not acknowledged (the same Idempotency-Key, the same
If-Match); on SQLite it also runs PRAGMA integrity_check. The PostgreSQL database given loses
every table (as the test database does). Exit status 1 if any check fails. It sends traffic
only to 127.0.0.1 and stops by itself.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import sqlalchemy as sa
from load_check import Acknowledged, check_database
from load_server import Server, Unavailable, prepare_database

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.*
from support.hand_entries import REFERENCE_HAND

from scorekeeper.config import normalize_database_url

#: The hands a client deals from (pagat-style 4p sides A and B); kózi and sides vary.
HANDS = [
    {"teams": REFERENCE_HAND["teams"]},
    {
        "teams": [
            {"name": "A", "melds": ["4D 5D 6D"], "hands": ["", "9C"], "opening": "4D 5D 6D"},
            {
                "name": "B",
                "melds": ["7C 8C 9C 10C JC QC KC", "AH AD AS"],
                "hands": ["", ""],
                "went_out": True,
                "took_biribaki": True,
                "opening": "AH AD AS",
            },
        ]
    },
    {
        "teams": [
            {"name": "A", "melds": ["3S 4S 5S 6S"], "hands": ["KD", "JK"], "took_biribaki": True},
            {"name": "B", "melds": ["9H 9D 9S"], "hands": ["2C", ""], "took_biribaki": True},
        ]
    },
]
KOZI = ["S", "H", "D", "C"]
REASON = "Load test: accepted as played."


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    refused_stale: int = 0
    retried_keys: int = 0
    unacknowledged_retries: int = 0
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def note(self, status: int, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def fail(self, text: str) -> None:
        with self.lock:
            self.failures.append(text[:300])


class Client:
    """One scorer's phone: its club, its matches, and every answer it was given."""

    def __init__(self, n: int, server: Server, token: str, stats: Stats, acked: Acknowledged):
        self.n, self.server, self.token, self.stats, self.acked = n, server, token, stats, acked
        self.random = random.Random(n)

    def call(self, method: str, path: str, body: object = None, **headers: str) -> tuple[int, dict]:
        """Send until answered: a refused connection or a dropped answer (the server was
        killed) is sent again as it was, after the server is back."""
        while True:
            started = time.perf_counter()
            try:
                status, answer = self.server.request(method, path, self.token, body, headers)
            except Unavailable:
                with self.stats.lock:
                    self.stats.unacknowledged_retries += 1
                self.server.wait_until_up(deadline=120)
                continue
            self.stats.note(status, time.perf_counter() - started)
            if status >= 500:
                self.stats.fail(f"{method} {path}: {status} {answer}")
            return status, answer

    def run(self, matches: int, hands: int) -> None:
        status, club = self.call("POST", "clubs", {"name": f"Club {self.n}"})
        assert status == 201, club
        players = []
        for name in ("Ann", "Bo", "Cy", "Di"):
            status, player = self.call("POST", f"clubs/{club['id']}/players", {"name": name})
            assert status == 201, player
            players.append(player["id"])
        for _ in range(matches):
            self.play(club["id"], players, hands)

    def play(self, club: int, players: list[int], hands: int) -> None:
        status, match = self.call(
            "POST",
            "matches",
            {
                "club": club,
                "variant": "wikipedia",  # its opening need follows the totals
                "format": "4p",
                "target": 1_000_000,  # 40 hands never finish it
                "teams": [
                    {"name": "A", "players": players[:2]},
                    {"name": "B", "players": players[2:]},
                ],
            },
        )
        assert status == 201, match
        match_id = match["id"]
        for i in range(hands):
            self.new_hand(match_id, i)
            if self.random.random() < 0.05:
                self.conflicting_edit(match_id)

    def new_hand(self, match_id: int, i: int) -> None:
        key = f"c{self.n}-m{match_id}-h{i}-{self.random.getrandbits(32):08x}"
        body = self.random.choice(HANDS) | {
            "kozi": self.random.choice(KOZI),
            "accepted_reason": REASON,
        }
        path = f"matches/{match_id}/hands"
        status, hand = self.call("POST", path, body, **{"Idempotency-Key": key})
        if status not in (200, 201):  # 200: a retry after a kill found it saved
            self.stats.fail(f"POST {path}: {status} {hand}")
            return
        self.acked.hand(match_id, key, hand["number"], hand["version"], body)
        if self.random.random() < 0.10:  # the phone lost the answer and sends it again
            with self.stats.lock:
                self.stats.retried_keys += 1
            status, again = self.call("POST", path, body, **{"Idempotency-Key": key})
            if status != 200 or again["number"] != hand["number"]:
                self.stats.fail(f"retry of {key}: {status} {again}")

    def conflicting_edit(self, match_id: int) -> None:
        """Correct an earlier hand, then send a correction from the version before: 409."""
        number, version, entry = self.acked.pick(match_id, self.random)
        fixed = entry | {"kozi": self.random.choice(KOZI)}
        sent = fixed | {"accepted_reason": REASON}
        path = f"matches/{match_id}/hands/{number}"
        status, hand = self.call("PUT", path, sent, **{"If-Match": f'"{version}"'})
        if status == 409:  # a retry after a kill: did the first attempt land?
            status, hand = self.call("GET", path)
            if (
                hand.get("version") != version + 1
                or hand.get("entry", {}).get("kozi") != fixed["kozi"]
            ):
                self.stats.fail(f"PUT {path} lost: {hand}")
                return
        elif status != 200:
            self.stats.fail(f"PUT {path}: {status} {hand}")
            return
        self.acked.edit(match_id, number, hand["version"], fixed)
        stale = entry | {"kozi": self.random.choice(KOZI), "accepted_reason": REASON}
        status, answer = self.call("PUT", path, stale, **{"If-Match": f'"{version}"'})
        if status == 409:
            with self.stats.lock:
                self.stats.refused_stale += 1
        else:
            self.stats.fail(f"stale PUT {path}: {status} {answer}")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def run(url: str, label: str, args: argparse.Namespace, workdir: Path) -> bool:
    print(f"\n== {label}{' with SIGKILL mid-load' if args.kill else ''} ==", flush=True)
    token = prepare_database(url, workdir)
    server = Server(url, workdir, args.workers)
    server.start()
    stats, acked = Stats(), Acknowledged()
    clients = [Client(n, server, token, stats, acked) for n in range(args.clients)]
    threads = [
        threading.Thread(target=c.run, args=(args.matches, args.hands), daemon=True)
        for c in clients
    ]
    expected = args.clients * args.matches * args.hands
    downtime = 0.0
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    if args.kill:
        while acked.count() < expected // 2 and any(t.is_alive() for t in threads):
            time.sleep(0.05)
        down = time.perf_counter()
        killed = server.kill()
        time.sleep(0.5)
        server.start()
        downtime = time.perf_counter() - down
        print(
            f"SIGKILLed {killed} gunicorn processes at {acked.count()} hands; "
            f"up again after {downtime:.1f} s",
            flush=True,
        )
    for thread in threads:
        thread.join(timeout=args.timeout)
    elapsed = time.perf_counter() - started
    stuck = sum(t.is_alive() for t in threads)
    shown = {}
    for match_id in list(acked.matches):
        status, answer = server.request("GET", f"matches/{match_id}", token)
        if status == 200:
            shown[match_id] = answer
    server.stop()

    engine = sa.create_engine(normalize_database_url(url))
    report = check_database(engine, acked, shown)
    integrity = "n/a"
    if engine.dialect.name == "sqlite":
        with engine.connect() as connection:
            integrity = connection.exec_driver_sql("PRAGMA integrity_check").scalar() or "?"
            fk = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
        integrity += "" if not fk else f", {len(fk)} foreign key violations"
    engine.dispose()

    requests = len(stats.latencies)
    print(
        f"clients {args.clients}, gunicorn workers {args.workers}, "
        f"{args.matches} matches x {args.hands} hands each"
    )
    print(
        f"requests {requests} in {elapsed:.1f} s: {requests / elapsed:.0f} req/s, "
        f"{acked.count() / elapsed:.0f} hands/s"
    )
    print(
        f"latency p50 {percentile(stats.latencies, 0.50) * 1000:.0f} ms, "
        f"p95 {percentile(stats.latencies, 0.95) * 1000:.0f} ms, "
        f"p99 {percentile(stats.latencies, 0.99) * 1000:.0f} ms"
    )
    print(f"statuses {dict(sorted(stats.statuses.items()))}")
    print(
        f"hands acknowledged {acked.count()} of {expected}, retried with the same key "
        f"{stats.retried_keys}, stale edits refused {stats.refused_stale}, "
        f"requests resent after the kill {stats.unacknowledged_retries}"
    )
    print(
        f"hands stored {report.stored}, hands lost {report.lost}, duplicates {report.duplicates}, "
        f"wrong entry or version {report.changed}, standings checked {report.matches} "
        f"(mismatches {report.mismatches}), integrity_check {integrity}"
    )
    problems = [*stats.failures, *report.problems]
    if stuck:
        problems.append(f"{stuck} clients did not finish within {args.timeout} s")
    if acked.count() != expected:
        problems.append(f"only {acked.count()} of {expected} hands were acknowledged")
    if integrity not in ("ok", "n/a"):
        problems.append(f"integrity_check: {integrity}")
    for text in problems[:20]:
        print("FAILED:", text)
    print("PASS" if not problems else f"FAIL ({len(problems)} problems)", flush=True)
    return not problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--postgresql", metavar="URL", help="run on this PostgreSQL database (it is wiped)"
    )
    parser.add_argument(
        "--sqlite", action="store_true", help="also SQLite when --postgresql is given"
    )
    parser.add_argument(
        "--kill", action="store_true", help="SIGKILL the server mid-load and restart it"
    )
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--matches", type=int, default=2, help="matches per client")
    parser.add_argument("--hands", type=int, default=40, help="hands per match")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--timeout", type=float, default=600, help="seconds before giving up")
    parser.add_argument(
        "--smoke", action="store_true", help="4 clients, a match of 3 hands each, 2 workers"
    )
    args = parser.parse_args()
    if args.smoke:
        args.clients, args.matches, args.hands, args.workers = 4, 1, 3, 2
    workdir = Path(tempfile.mkdtemp(prefix="scorekeeper-load-"))
    ok = True
    try:
        if not args.postgresql or args.sqlite:
            ok &= run(f"sqlite:///{workdir / 'load.sqlite'}", "SQLite (WAL)", args, workdir)
        if args.postgresql:
            ok &= run(args.postgresql, "PostgreSQL", args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
