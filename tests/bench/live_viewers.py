"""Live viewers benchmark: the app under gunicorn (4 sync workers), 20 scorers saving hands
into 20 matches through the JSON API, first alone, then with 200 viewers (10 a match) on the
matches' share links polling `live.json` every 2 s with If-None-Match, as static/js/live.js
does (and, on a changed answer, fetching the shared page's live parts, live.html).

It prints the share of polls answered 304, p50/p95 latency of the polls (all, then the 200s
and 304s apart) and of the saves (with and without viewers), and the delay from a save's
acknowledgement to each viewer's poll that shows it; then whether each goal is met. Goals:
p95 poll <= 20 ms, p95 save no more than 20 % worse with viewers, every viewer sees every
hand within 3 s. For each phase it also prints the CPU the server's processes and this
client used and the load average: on a shared machine the latencies follow the load.

The client is one asyncio loop (a coroutine a phone, a new connection a request, as the sync
workers close each one); it half-closes each connection once its request is sent, as a proxy
in front would close at once (gunicorn 27's sync worker waits for the client's close).

    .venv/bin/python tests/bench/live_viewers.py                       # SQLite (a temp file)
    .venv/bin/python tests/bench/live_viewers.py --postgresql postgresql+psycopg://…/DB

`--smoke` (1 worker, 2 scorers of 2 hands half a second apart, 4 viewers) is what CI runs
(tests/test_benchmarks_smoke.py) to show the benchmark still works: its figures say nothing.
The PostgreSQL database given loses every table. Traffic goes only to 127.0.0.1. The server
runs the code of the checkout this file is in.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from load_server import ROOT, Server, Unavailable, prepare_database

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.*
from support.hand_entries import REFERENCE_HAND

from scorekeeper import create_app
from scorekeeper.config import normalize_database_url
from scorekeeper.extensions import db
from scorekeeper.models import Club, Match, User
from scorekeeper.play import sharing
from scorekeeper.play.live import POLL_EVERY_MS

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


@dataclass
class Polls:
    latencies: list[float] = field(default_factory=list)
    by_status: dict[int, list[float]] = field(default_factory=dict)
    pages: list[float] = field(default_factory=list)  # live.html after a changed answer
    # (match id, hand number, when a viewer's poll showed it): a poll may show a hand before
    # its save's answer reaches the scorer, so the delays are worked out at the end.
    sightings: list[tuple[int, int, float]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    @property
    def statuses(self) -> dict[int, int]:
        return {status: len(times) for status, times in sorted(self.by_status.items())}

    def delays(self, acked: dict[tuple[int, int], float]) -> list[float]:
        """From each save's answer to each viewer's poll that showed it (0 when the poll
        came first); sightings of a hand whose save got no answer are left out."""
        return [
            max(0.0, seen - acked[(match_id, number)])
            for match_id, number, seen in self.sightings
            if (match_id, number) in acked
        ]


@dataclass
class Costs:
    """What a phase cost: CPU seconds of the server's processes (gunicorn's master and
    workers) and of this client, wall time, requests sent, and the load average around it."""

    server_cpu: float = 0.0
    client_cpu: float = 0.0
    wall: float = 0.0
    requests: int = 0
    load: tuple[float, float] = (0.0, 0.0)

    def line(self) -> str:
        per = max(self.requests, 1)
        return (
            f"{self.requests} requests in {self.wall:.0f} s; server CPU {self.server_cpu:.1f} s "
            f"({self.server_cpu / per * 1000:.2f} ms a request, "
            f"{self.server_cpu / max(self.wall, 1e-9):.0%} of a core); client CPU "
            f"{self.client_cpu:.1f} s ({self.client_cpu / max(self.wall, 1e-9):.0%} of a core); "
            f"load average {self.load[0]:.2f} -> {self.load[1]:.2f}"
        )


def cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time of these processes so far (those still running)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (after state, ppid, ...)
    return total / os.sysconf("SC_CLK_TCK")


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


class Client:
    """A small HTTP/1.1 client on asyncio: every simulated phone is a coroutine of one event
    loop, so the client spends little CPU beside the server it measures (a thread a viewer
    costs more on two cores, and its GIL waits would count as the server's latency). Each
    request opens its own connection, as gunicorn's sync workers close every one."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sent = 0

    async def request(
        self, method: str, path: str, headers: dict[str, str], body: bytes = b""
    ) -> tuple[int, dict[str, str], bytes]:
        self.sent += 1
        try:
            return await asyncio.wait_for(self._exchange(method, path, headers, body), 90)
        except (
            OSError,
            TimeoutError,
            asyncio.IncompleteReadError,
            asyncio.LimitOverrunError,
            ValueError,
        ) as error:
            raise Unavailable(f"{method} {path}: {error!r}") from None

    async def _exchange(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, dict[str, str], bytes]:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        try:
            head = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
            head += [f"{name}: {value}" for name, value in headers.items()]
            head += [f"Content-Length: {len(body)}", "Connection: close", "", ""]
            writer.write("\r\n".join(head).encode("latin-1") + body)
            # Nothing more to send: say so now. gunicorn's sync worker (27) lingers after
            # each answer until the client's side is closed; a proxy in front closes at once,
            # while this client, descheduled on a busy machine, would hold the worker.
            writer.write_eof()
            top = await reader.readuntil(b"\r\n\r\n")
            lines = top.decode("latin-1").rstrip("\r\n").split("\r\n")
            status = int(lines[0].split(" ", 2)[1])
            got = {}
            for line in lines[1:]:
                name, _, value = line.partition(":")
                got[name.strip().lower()] = value.strip()
            # Done when the body is in, as a browser is: not when the server closes.
            if status == 304:
                content = b""
            elif "content-length" in got:
                content = await reader.readexactly(int(got["content-length"]))
            else:
                content = await reader.read()
        finally:
            writer.close()
        return status, got, content


async def scorer(
    client: Client, token: str, match_id: int, args: argparse.Namespace, saves: Saves, n: int
) -> None:
    every = args.every
    await asyncio.sleep(random.uniform(0, every))
    body = json.dumps(REFERENCE_HAND).encode()
    for number in range(1, args.hands + 1):
        headers = {
            "Authorization": f"Bearer {token}",
            "Content-Type": "application/json",
            "Idempotency-Key": f"live-{n}-{match_id}-{number}",
        }
        started = time.perf_counter()
        try:
            status, _, answer = await client.request(
                "POST", f"/api/v1/matches/{match_id}/hands", headers, body
            )
        except Unavailable as error:
            saves.failures.append(f"match {match_id} hand {number}: {error}")
            continue
        done = time.perf_counter()
        saves.latencies.append(done - started)
        if status in (200, 201):
            saves.acked[(match_id, number)] = done
        else:
            saves.failures.append(f"match {match_id} hand {number}: {status} {answer[:200]!r}")
        await asyncio.sleep(max(0.0, every - (done - started)))


async def viewer(
    client: Client, match_id: int, share: str, until: float, saves: Saves, polls: Polls
) -> None:
    """Polls as live.js does: If-None-Match, the next ask POLL_S after this one began (at
    least half that after its answer); on a new revision it fetches the changed parts of the
    page (live.html) before waiting."""
    path = f"/watch/{match_id}/{share}"
    etag, seen = "", 0
    await asyncio.sleep(random.uniform(0, POLL_S))
    while time.perf_counter() < until:
        started = time.perf_counter()
        headers = {"If-None-Match": etag} if etag else {}
        try:
            status, got, answer = await client.request("GET", f"{path}/live.json", headers)
        except Unavailable as error:
            polls.failures.append(str(error))
            await asyncio.sleep(POLL_S)
            continue
        done = time.perf_counter()
        polls.latencies.append(done - started)
        polls.by_status.setdefault(status, []).append(done - started)
        if status == 200:
            etag = got.get("etag", etag)
            now_seen = int(json.loads(answer).get("hands_played", 0))
            polls.sightings.extend((match_id, n, done) for n in range(seen + 1, now_seen + 1))
            seen = max(seen, now_seen)
            fetched = time.perf_counter()
            try:
                await client.request("GET", f"{path}/live.html", {})
            except Unavailable as error:
                polls.failures.append(str(error))
            polls.pages.append(time.perf_counter() - fetched)
        elif status != 304:
            polls.failures.append(f"{path}/live.json: {status} {answer[:200]!r}")
        await asyncio.sleep(max(POLL_S / 2, POLL_S - (time.perf_counter() - started)))


async def phase_tasks(
    client: Client,
    token: str,
    links: list[tuple[int, str]],
    args: argparse.Namespace,
    watched: bool,
    saves: Saves,
    polls: Polls,
) -> None:
    duration = args.hands * args.every + 2 * args.every
    until = time.perf_counter() + duration + 3  # viewers keep polling a little past the saves
    tasks = [scorer(client, token, m, args, saves, int(watched)) for m, _ in links]
    if watched:
        per_match = args.viewers // len(links)
        tasks += [
            viewer(client, m, s, until, saves, polls) for m, s in links for _ in range(per_match)
        ]
    await asyncio.gather(*tasks)


def phase(
    server: Server,
    token: str,
    links: list[tuple[int, str]],
    args: argparse.Namespace,
    watched: bool,
) -> tuple[Saves, Polls, Costs]:
    saves, polls, costs = Saves(), Polls(), Costs()
    client = Client(server.port)
    pids = server.group()
    load_before = os.getloadavg()[0]
    server_before, client_before = cpu_seconds(pids), time.process_time()
    started = time.perf_counter()
    asyncio.run(phase_tasks(client, token, links, args, watched, saves, polls))
    costs.wall = time.perf_counter() - started
    costs.server_cpu = cpu_seconds(pids) - server_before
    costs.client_cpu = time.process_time() - client_before
    costs.requests = client.sent
    costs.load = (load_before, os.getloadavg()[0])
    return saves, polls, costs


def ms(value: float) -> str:
    return f"{value * 1000:.1f} ms"


def run(url: str, args: argparse.Namespace, workdir: Path) -> bool:
    token = prepare_database(url, workdir)
    server = Server(url, workdir, args.workers)
    server.start()
    try:
        links = setup(server, token, url, args.matches * 2)
        alone_links, watched_links = links[: args.matches], links[args.matches :]
        alone, _, alone_costs = phase(server, token, alone_links, args, watched=False)
        saves, polls, costs = phase(server, token, watched_links, args, watched=True)
    finally:
        server.stop()
    total = sum(polls.statuses.values())
    unchanged = polls.statuses.get(304, 0)
    expected_delays = len(saves.acked) * (args.viewers // args.matches)
    delays = polls.delays(saves.acked)
    late = sum(d > 3.0 for d in delays)
    print(
        f"gunicorn workers {args.workers}, {args.matches} scorers x {args.hands} hands "
        f"(one every {args.every:.1f} s), {args.viewers} viewers polling every {POLL_S:.1f} s, "
        f"{os.cpu_count()} CPUs"
    )
    print(f"without viewers: {alone_costs.line()}")
    print(f"with viewers:    {costs.line()}")
    print(f"polls {total}: 304 share {unchanged / max(total, 1):.1%}, statuses {polls.statuses}")
    print(
        f"poll latency p50 {ms(percentile(polls.latencies, 0.5))}, "
        f"p95 {ms(percentile(polls.latencies, 0.95))}, "
        f"p99 {ms(percentile(polls.latencies, 0.99))} (goal: p95 <= 20 ms)"
    )
    for status, times in sorted(polls.by_status.items()):
        p50, p95 = ms(percentile(times, 0.5)), ms(percentile(times, 0.95))
        print(f"  answered {status}: p50 {p50}, p95 {p95}")
    print(
        f"  live.html after a change: p50 {ms(percentile(polls.pages, 0.5))}, "
        f"p95 {ms(percentile(polls.pages, 0.95))}"
    )
    base95, with95 = percentile(alone.latencies, 0.95), percentile(saves.latencies, 0.95)
    print(
        f"save latency without viewers p50 {ms(percentile(alone.latencies, 0.5))}, "
        f"p95 {ms(base95)}; with viewers p50 {ms(percentile(saves.latencies, 0.5))}, "
        f"p95 {ms(with95)} ({(with95 / base95 - 1):+.0%}; goal: at most +20%)"
    )
    print(
        f"save to viewer: {len(delays)} of {expected_delays} sightings, "
        f"p50 {percentile(delays, 0.5):.2f} s, p95 {percentile(delays, 0.95):.2f} s, "
        f"max {max(delays, default=float('nan')):.2f} s, later than 3 s: {late} "
        "(goal: none)"
    )
    goals = {
        "p95 poll <= 20 ms": percentile(polls.latencies, 0.95) <= 0.020,
        "p95 save within +20%": with95 <= 1.2 * base95,
        "every hand seen within 3 s": late == 0 and len(delays) >= expected_delays,
    }
    verdicts = (f"{name} {'met' if ok else 'MISSED'}" for name, ok in goals.items())
    print("goals: " + ", ".join(verdicts))
    problems = [*alone.failures, *saves.failures, *polls.failures]
    if len(delays) < expected_delays:
        problems.append(f"only {len(delays)} of {expected_delays} sightings")
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
    parser.add_argument("--smoke", action="store_true", help="2 scorers, 4 viewers, 2 hands")
    args = parser.parse_args()
    if args.smoke:
        args.workers, args.matches, args.viewers, args.hands, args.every = 1, 2, 4, 2, 0.5
    workdir = Path(tempfile.mkdtemp(prefix="live-viewers-"))
    try:
        url = args.postgresql or f"sqlite:///{workdir}/live.sqlite"
        print(
            f"== {'PostgreSQL' if args.postgresql else 'SQLite'}, the code of {ROOT} ==", flush=True
        )
        ok = run(url, args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
