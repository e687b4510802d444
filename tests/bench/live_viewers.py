"""Live viewers benchmark: the app under gunicorn (4 sync workers), 20 scorers saving hands
into 20 matches through the JSON API, first alone, then with 200 viewers (10 a match) on the
matches' share links polling `live.json` every 2 s with If-None-Match, as static/js/live.js
does (and, on a changed answer, fetching the shared page again).

It prints the share of polls answered 304, p50/p95 latency of the polls and of the saves
(with and without viewers), and the delay from a save's acknowledgement to each viewer's
poll that shows it. Goals: p95 poll <= 20 ms, p95 save no more than 20 % worse with viewers,
every viewer sees every hand within 3 s.

    .venv/bin/python tests/bench/live_viewers.py                       # SQLite (a temp file)
    .venv/bin/python tests/bench/live_viewers.py --postgresql postgresql+psycopg://…/DB

The PostgreSQL database given loses every table. Traffic goes only to 127.0.0.1.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from load_server import Server, Unavailable, prepare_database

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.*
from support.hand_entries import REFERENCE_HAND

from scorekeeper import create_app
from scorekeeper.config import normalize_database_url
from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, User
from scorekeeper.services import sharing
from scorekeeper.services.live import POLL_EVERY_MS

POLL_S = POLL_EVERY_MS / 1000


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


@dataclass
class Saves:
    latencies: list[float] = field(default_factory=list)
    # (match id, hands saved) -> when the save was acknowledged
    acked: dict[tuple[int, int], float] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


@dataclass
class Polls:
    latencies: list[float] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    delays: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def setup(server: Server, token: str, url: str, matches: int) -> list[tuple[int, str]]:
    """A club of four players, `matches` matches to a target no hand count reaches, and a
    share link to each: [(match id, link secret)]."""
    status, club = server.request("POST", "clubs", token, {"name": "Club night"})
    assert status == 201, club
    players = []
    for name in ("Ann", "Bob", "Cy", "Di"):
        status, player = server.request(
            "POST", f"clubs/{club['id']}/players", token, {"name": name}
        )
        players.append(player["id"])
    made = []
    for _ in range(matches):
        body = {
            "club": club["id"],
            "variant": "pagat",
            "format": "4p",
            "target": 1_000_000,
            "teams": [
                {"name": "A", "players": [players[0], players[2]]},
                {"name": "B", "players": [players[1], players[3]]},
            ],
        }
        status, match = server.request("POST", "matches", token, body)
        assert status == 201, match
        made.append(match["id"])
    app = create_app({"SQLALCHEMY_DATABASE_URI": normalize_database_url(url)})
    with app.app_context():
        home = db.session.get(Club, club["id"])
        user = db.session.scalars(db.select(User)).first()
        links = [(m, sharing.create_link(home, db.session.get(Match, m), user)) for m in made]
        db.session.remove()
        db.engine.dispose()
    return links


def scorer(
    server: Server, token: str, match_id: int, hands: int, every: float, saves: Saves, n: int
) -> None:
    time.sleep(random.uniform(0, every))
    for number in range(1, hands + 1):
        started = time.perf_counter()
        try:
            status, answer = server.request(
                "POST",
                f"matches/{match_id}/hands",
                token,
                REFERENCE_HAND,
                {"Idempotency-Key": f"live-{n}-{match_id}-{number}"},
            )
        except Unavailable as error:
            with saves.lock:
                saves.failures.append(f"match {match_id} hand {number}: {error}")
            continue
        done = time.perf_counter()
        with saves.lock:
            saves.latencies.append(done - started)
            if status in (200, 201):
                saves.acked[(match_id, number)] = done
            else:
                saves.failures.append(f"match {match_id} hand {number}: {status} {answer}")
        time.sleep(max(0.0, every - (done - started)))


def viewer(
    server: Server, match_id: int, share: str, until: float, saves: Saves, polls: Polls
) -> None:
    """Polls as live.js does: If-None-Match, then wait POLL_S after each answer."""
    path = f"/watch/{match_id}/{share}"
    etag, seen = "", 0
    time.sleep(random.uniform(0, POLL_S))
    while time.perf_counter() < until:
        started = time.perf_counter()
        headers = {"If-None-Match": etag} if etag else {}
        try:
            status, answer, tag = request_with_etag(server, f"{path}/live.json", headers)
        except Unavailable as error:
            with polls.lock:
                polls.failures.append(str(error))
            time.sleep(POLL_S)
            continue
        done = time.perf_counter()
        with polls.lock:
            polls.latencies.append(done - started)
            polls.statuses[status] = polls.statuses.get(status, 0) + 1
        if status == 200:
            etag = tag or etag
            now_seen = int(answer.get("hands_played", 0))
            with saves.lock:
                acked = [saves.acked.get((match_id, n)) for n in range(seen + 1, now_seen + 1)]
            with polls.lock:
                polls.delays.extend(done - t for t in acked if t is not None)
            seen = max(seen, now_seen)
            server.request("GET", f"{path}/live.html")  # the changed parts, as live.js asks
        time.sleep(max(0.0, POLL_S - (time.perf_counter() - done)))


def request_with_etag(server: Server, path: str, headers: dict[str, str]) -> tuple[int, Any, str]:
    import http.client
    import json

    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=90)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        tag = response.getheader("ETag") or ""
    except (ConnectionError, http.client.HTTPException, TimeoutError) as error:
        raise Unavailable(str(error)) from None
    finally:
        connection.close()
    return response.status, (json.loads(raw) if raw else {}), tag


def phase(
    server: Server,
    token: str,
    links: list[tuple[int, str]],
    args: argparse.Namespace,
    watched: bool,
) -> tuple[Saves, Polls]:
    saves, polls = Saves(), Polls()
    duration = args.hands * args.every + 2 * args.every
    until = time.perf_counter() + duration + 3  # viewers keep polling a little past the saves
    threads = [
        threading.Thread(
            target=scorer,
            args=(server, token, m, args.hands, args.every, saves, int(watched)),
            daemon=True,
        )
        for m, _ in links
    ]
    if watched:
        per_match = args.viewers // len(links)
        threads += [
            threading.Thread(target=viewer, args=(server, m, s, until, saves, polls), daemon=True)
            for m, s in links
            for _ in range(per_match)
        ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=duration + 120)
    return saves, polls


def ms(value: float) -> str:
    return f"{value * 1000:.1f} ms"


def run(url: str, args: argparse.Namespace, workdir: Path) -> bool:
    token = prepare_database(url, workdir)
    server = Server(url, workdir, args.workers)
    server.start()
    try:
        links = setup(server, token, url, args.matches * 2)
        alone_links, watched_links = links[: args.matches], links[args.matches :]
        alone, _ = phase(server, token, alone_links, args, watched=False)
        saves, polls = phase(server, token, watched_links, args, watched=True)
    finally:
        server.stop()
    total = sum(polls.statuses.values())
    unchanged = polls.statuses.get(304, 0)
    expected_delays = len(saves.acked) * (args.viewers // args.matches)
    late = sum(d > 3.0 for d in polls.delays)
    print(
        f"gunicorn workers {args.workers}, {args.matches} scorers x {args.hands} hands "
        f"(one every {args.every:.1f} s), {args.viewers} viewers polling every {POLL_S:.1f} s"
    )
    print(f"polls {total}: 304 share {unchanged / max(total, 1):.1%}, statuses {polls.statuses}")
    print(
        f"poll latency p50 {ms(percentile(polls.latencies, 0.5))}, "
        f"p95 {ms(percentile(polls.latencies, 0.95))}, "
        f"p99 {ms(percentile(polls.latencies, 0.99))}"
    )
    base95, with95 = percentile(alone.latencies, 0.95), percentile(saves.latencies, 0.95)
    print(
        f"save latency without viewers p50 {ms(percentile(alone.latencies, 0.5))}, "
        f"p95 {ms(base95)}; with viewers p50 {ms(percentile(saves.latencies, 0.5))}, "
        f"p95 {ms(with95)} ({(with95 / base95 - 1):+.0%})"
    )
    print(
        f"save to viewer: {len(polls.delays)} of {expected_delays} sightings, "
        f"p50 {percentile(polls.delays, 0.5):.2f} s, p95 {percentile(polls.delays, 0.95):.2f} s, "
        f"max {max(polls.delays, default=float('nan')):.2f} s, later than 3 s: {late}"
    )
    problems = [*alone.failures, *saves.failures, *polls.failures]
    if len(polls.delays) < expected_delays:
        problems.append(f"only {len(polls.delays)} of {expected_delays} sightings")
    for text in problems[:10]:
        print("FAILED:", text)
    print("PASS" if not problems else f"FAIL ({len(problems)} problems)", flush=True)
    return not problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--postgresql", metavar="URL", help="this PostgreSQL database (wiped)")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--hands", type=int, default=6, help="hands each scorer saves")
    parser.add_argument("--every", type=float, default=10.0, help="seconds between saves")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="live-viewers-"))
    try:
        url = args.postgresql or f"sqlite:///{workdir}/live.sqlite"
        print(f"== {'PostgreSQL' if args.postgresql else 'SQLite'} ==", flush=True)
        ok = run(url, args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
