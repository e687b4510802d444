"""The worst requests each bounded endpoint still takes (issues 11 and 18), timed over HTTP
against the real app under gunicorn (4 sync workers, as in production): the largest allowed
meld of repeated aces to the meld checker (API and page) and to the hand scorer, the most
teams with the most melds, a hand as large as the decks allow saved into a match and
previewed on its page, the largest body the API reads, the longest match and the largest
club file the web import accepts (every limit of config's MAX_IMPORT_* at once), the
correction or deletion of the first hand of the longest match (every later hand is scored
again), the pages of a club at its most players, and requests just over each bound (which
must be refused at once). Then three of the largest imports at once while another club
saves hands: each import's time and every save's wait.

Goals: every request under 200 ms, except an import (3 s) and another club's save during
imports (0.5 s).

    .venv/bin/python tests/bench/worst_requests.py                  # a temporary SQLite file
    .venv/bin/python tests/bench/worst_requests.py postgresql+psycopg://postgres@127.0.0.1:5432/DB
    .venv/bin/python tests/bench/worst_requests.py --smoke          # tiny sizes, a few seconds

The database named is emptied first (every table dropped) and its tables made by the models
(the server starts with AUTO_UPGRADE off). Each request is sent RUNS times and the median
printed with its status; an import once. The per-account import limit is lifted for the
run. Nothing is asserted about time; `--smoke` only checks that everything runs (CI).
"""

from __future__ import annotations

import argparse
import dataclasses
import http.cookiejar
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ for support.*
sys.path.insert(0, str(Path(__file__).resolve().parent))  # load_server, however it is run

from load_server import Server
from support.club_files import club_file, largest_file, plain_hand

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.config import defaults
from scorekeeper.exchange import club_import
from scorekeeper.exchange.import_limits import ImportLimits
from scorekeeper.extensions import db
from scorekeeper.match import MAX_HANDS, MAX_MELDS, MAX_TEAMS
from scorekeeper.models import Player
from scorekeeper.rules.formats import MOST_CARDS

RUNS = 7
#: Status, seconds and the request body's size.
Answer = tuple[int, float, int]
Send = Callable[[], Answer]
GOAL_MS = 200
IMPORT_GOAL_MS = 3000
SAVE_DURING_IMPORT_GOAL_MS = 500
#: The limits of a smoke run (--smoke): a few hands of everything.
SMOKE_LIMITS = {
    "MAX_CLUB_PLAYERS": 12,
    "MAX_IMPORT_MEMBERS": 3,
    "MAX_IMPORT_SEASONS": 3,
    "MAX_IMPORT_MATCHES": 3,
    "MAX_IMPORT_HANDS": 12,
    "MAX_IMPORT_MELDS": 120,
    "MAX_IMPORT_VERSIONS": 24,
    "MAX_IMPORT_TEXT": 5000,
}
#: The account's imports are not limited in the benchmark: it imports dozens of files.
NO_IMPORT_LIMIT = "100000 per minute"


@dataclasses.dataclass(frozen=True)
class Sizes:
    """How big the benchmark's things are: the app's own limits, or a smoke run's."""

    limits: ImportLimits
    long_match: int  # hands of the longest match
    runs: int
    smoke: bool
    import_length: int  # the largest body the import reads, in bytes

    @classmethod
    def of(cls, smoke: bool) -> Sizes:
        config = defaults(tempfile.gettempdir()) | (SMOKE_LIMITS if smoke else {})
        return cls(
            ImportLimits.of(config),
            10 if smoke else MAX_HANDS,
            1 if smoke else RUNS,
            smoke,
            config["MAX_IMPORT_LENGTH"],
        )


def aces(count: int) -> str:
    return " ".join(["AH"] * count)


#: The worst meld: a run reading with every ace tried low and high, as long as the decks allow.
WORST_MELD = "QH KH " + aces(MOST_CARDS - 2)


def build(url: str, sizes: Sizes) -> dict[str, Any]:
    """The database, emptied and made anew, with the bench account, its club (three players
    and a 3p match, another 3p match that the saves during the imports go into), a club of
    as many players as a club may have, and the longest match imported (by the command
    line's import: no limit). Returns the ids the requests name."""
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        db.drop_all()
        db.create_all()
        owner = accounts.create_user("bench", "bench password")
        club = clubs.create_club(owner, "Bench club")
        players = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cy")]
        specs = [matches.TeamSpec(name, (pid,)) for name, pid in zip("ABC", players, strict=True)]
        match = matches.create_match(club, owner, "pagat", "3p", specs)
        saving = matches.create_match(club, owner, "pagat", "3p", specs, target=1_000_000)
        token = accounts.create_token(owner, "bench")
        crowded = clubs.create_club(owner, "Crowded club")
        for n in range(sizes.limits.players):
            db.session.add(Player(club_id=crowded.id, name=f"Player {n + 1:04d}"))
        db.session.commit()
        started = time.perf_counter()
        imported = club_import.import_club(club_file(sizes.long_match), owner=owner)
        took = time.perf_counter() - started
        print(f"import of a {sizes.long_match}-hand match (command line's): {took:.2f} s")
        ids = {"club": club.id, "match": match.id, "players": players, "token": token}
        ids |= {"long": imported.club.matches[0].id, "saving": saving.id, "crowded": crowded.id}
        db.session.remove()
        db.engine.dispose()
    return ids


#: A small hand of the saving match (3p pagat), accepted as it stands.
SMALL_HAND = {
    "kozi": "H",
    "teams": [
        {"name": "A", "melds": ["3H 4H 5H"], "hands": [""], "went_out": True},
        {"name": "B", "hands": ["AS 9D"]},
        {"name": "C", "hands": ["KD"]},
    ],
    "accepted_reason": "bench",
}


def largest_hand() -> dict[str, Any]:
    """A 3p hand (three decks: 162 cards) with every card in a meld of repeated aces."""
    per_team = MOST_CARDS // 3
    return {
        "kozi": "H",
        "teams": [
            {"name": name, "melds": ["QH KH " + aces(per_team - 2)], "hands": [""]}
            for name in "ABC"
        ],
        "accepted_reason": "bench",
    }


def most_melds() -> dict[str, Any]:
    """The most teams, and between them the most melds the decks allow (3 cards each)."""
    melds_each = min(MAX_MELDS, MOST_CARDS // 3 // MAX_TEAMS)
    return {
        "variant": "pagat",
        "format": "3p",
        "kozi": "H",
        "teams": [{"name": f"T{n}", "melds": ["AH AH AH"] * melds_each} for n in range(MAX_TEAMS)],
    }


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is the answer being timed, not a request to follow."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


class Client:
    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()), _NoRedirect()
        )

    def log_in(self) -> None:
        login = as_form({"username": "bench", "password": "bench password"})
        assert self.send("POST", "/login", *login)[0] == 302

    def send(
        self,
        method: str,
        path: str,
        body: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """Status, seconds and the body's size of one request."""
        request = urllib.request.Request(
            self.base + path, data=body, method=method, headers=headers or {}
        )
        started = time.perf_counter()
        try:
            with self.opener.open(request) as response:
                response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            error.read()
            status = error.code
        return status, time.perf_counter() - started, len(body or b"")


def as_json(value: Any) -> tuple[bytes, dict[str, str]]:
    return json.dumps(value).encode(), {"Content-Type": "application/json"}


def as_form(fields: dict[str, str]) -> tuple[bytes, dict[str, str]]:
    body = urllib.parse.urlencode(fields).encode()
    return body, {"Content-Type": "application/x-www-form-urlencoded"}


def cases(ids: dict[str, Any], client: Client, sizes: Sizes) -> list[tuple[str, Send]]:
    bearer = {"Authorization": f"Bearer {ids['token']}"}
    m = ids["match"]

    def post(path: str, payload: tuple[bytes, dict[str, str]]) -> Send:
        body, headers = payload
        return lambda: client.send("POST", path, body, headers)

    def get(path: str, headers: dict[str, str] | None = None) -> Send:
        return lambda: client.send("GET", path, None, headers)

    pages = -(-sizes.limits.players // 100)
    last_players_page = f"/api/v1/clubs/{ids['crowded']}/players?page={pages}"

    def edit_hand_1() -> Answer:
        """PUT hand 1 again with the largest hand, at the version it has now."""
        etag = current_etag(client, m, bearer)
        body, headers = as_json(largest_hand())
        return client.send(
            "PUT", f"/api/v1/matches/{m}/hands/1", body, headers | bearer | {"If-Match": etag}
        )

    long = ids["long"]
    corrections = iter(range(1, 100))

    def edit_long_hand_1() -> Answer:
        """Hand 1 of the longest match corrected, the other team winning it each time."""
        etag = current_etag(client, long, bearer)
        body, headers = as_json(plain_hand("AB"[next(corrections) % 2]) | {"accepted_reason": "b"})
        return client.send(
            "PUT", f"/api/v1/matches/{long}/hands/1", body, headers | bearer | {"If-Match": etag}
        )

    deletions = iter(range(2, 100))

    def delete_long_hand() -> Answer:
        """The first hand left of the longest match deleted (hand 1 stays)."""
        number = next(deletions)
        etag = current_etag(client, long, bearer, number)
        return client.send(
            "DELETE", f"/api/v1/matches/{long}/hands/{number}", None, bearer | {"If-Match": etag}
        )

    def import_file(document: dict[str, Any]) -> Send:
        content = json.dumps(document).encode()
        return lambda: client.send("POST", "/clubs/import", *multipart(content))

    limits = sizes.limits
    longest = sizes.long_match
    # The largest file the web import takes: every one of its limits at once.
    largest = largest_file(limits)
    # The largest body the import reads, of the longest matches: refused for what it holds.
    one = len(json.dumps(club_file(longest)).encode())
    body_limit = sizes.import_length
    full_body = club_file(longest, matches=max(1, (body_limit - 1024) // one))
    too_many_players = club_file(1, players=limits.players + 1)
    crowded = ids["crowded"]
    padded = {"variant": "pagat", "cards": WORST_MELD}
    padded["pad"] = "x" * (256 * 1024 - len(json.dumps(padded)) - 20)
    many_strings = {"variant": "pagat", "cards": "3H 4H 5H", "pad": ["a"] * 50_000}
    over_teams = {"variant": "pagat", "teams": [{}] * 20_000}
    # Every side's meld as long as a third of the three decks: 162 cards in all.
    page_form = {"kozi": "H"} | {
        f"s{i}-meld": "QH KH " + aces(MOST_CARDS // 3 - 2) for i in range(3)
    }
    return [
        (
            "melds/check, 162-card run of aces",
            post("/api/v1/melds/check", as_json(padded | {"pad": ""})),
        ),
        (
            "melds/check, 162 AH (a set)",
            post("/api/v1/melds/check", as_json({"variant": "pagat", "cards": aces(MOST_CARDS)})),
        ),
        (
            "melds/check, 163 cards (refused)",
            post(
                "/api/v1/melds/check", as_json({"variant": "pagat", "cards": aces(MOST_CARDS + 1)})
            ),
        ),
        (
            "melds/check, 5,000 AH (took 30 s; refused)",
            post("/api/v1/melds/check", as_json({"variant": "pagat", "cards": aces(5000)})),
        ),
        ("melds/check, 256 KB body", post("/api/v1/melds/check", as_json(padded))),
        ("melds/check, 50,000 strings", post("/api/v1/melds/check", as_json(many_strings))),
        (
            "melds/check, 257 KB body (413)",
            post("/api/v1/melds/check", as_json(padded | {"pad": "x" * 257 * 1024})),
        ),
        (
            "hands/score, 162-card run of aces",
            post(
                "/api/v1/hands/score",
                as_json(
                    {
                        "variant": "pagat",
                        "format": "3p",
                        "kozi": "H",
                        "teams": [{"name": "A", "melds": [WORST_MELD]}],
                    }
                ),
            ),
        ),
        ("hands/score, 6 teams, 54 melds", post("/api/v1/hands/score", as_json(most_melds()))),
        ("hands/score, 20,000 teams (refused)", post("/api/v1/hands/score", as_json(over_teams))),
        (
            "referee/meld page, 162-card run",
            post("/referee/meld", as_form({"variant": "pagat", "cards": WORST_MELD})),
        ),
        ("match hand preview page, 162 cards", post(f"/matches/{m}/hands/new", as_form(page_form))),
        ("match hand API, edit hand 1 (162 cards)", edit_hand_1),
        (f"match hand API, edit hand 1 of {longest}", edit_long_hand_1),
        (f"match hand API, delete hand 2.. of {longest}", delete_long_hand),
        (f"club page, {limits.players} players", get(f"/clubs/{crowded}")),
        (f"club page, {limits.players} players, found", get(f"/clubs/{crowded}?find=99")),
        (f"new match form, {limits.players} players", get(f"/clubs/{crowded}/matches/new")),
        (f"head-to-head, {limits.players} players", get(f"/clubs/{crowded}/head-to-head")),
        (f"API club, {limits.players} players", get(f"/api/v1/clubs/{crowded}", bearer)),
        (f"API players, last page of {limits.players}", get(last_players_page, bearer)),
        (f"club import, one {longest}-hand match", import_file(club_file(longest))),
        (f"club import, the largest accepted ({size_of(largest)})", import_file(largest)),
        (
            f"club import, {limits.players + 1} players (refused)",
            import_file(too_many_players),
        ),
        (
            f"club import, {limits.hands + 1} hands (refused)",
            import_file(one_over_hands(limits, longest)),
        ),
        (
            f"club import, {size_of(full_body)} of {len(full_body['matches'])}×{longest} hands"
            " (refused)",
            import_file(full_body),
        ),
        (
            f"club import, {body_limit // 1024 // 1024} MB of spaces (refused)",
            lambda: client.send(
                "POST", "/clubs/import", *multipart(b"[" + b" " * (body_limit - 600) + b"]")
            ),
        ),
    ]


def one_over_hands(limits: ImportLimits, longest: int) -> dict[str, Any]:
    """A file of one hand more than the web import takes, in matches of at most `longest`."""
    hands = limits.hands + 1
    document = club_file(longest, matches=hands // longest)
    document["matches"] += club_file(hands % longest)["matches"] if hands % longest else []
    return document


def size_of(document: dict[str, Any]) -> str:
    size = len(json.dumps(document).encode())
    return f"{size / 1024 / 1024:.1f} MB" if size > 1024 * 1024 else f"{size // 1024} KB"


def current_etag(client: Client, match_id: int, bearer: dict[str, str], number: int = 1) -> str:
    request = urllib.request.Request(
        f"{client.base}/api/v1/matches/{match_id}/hands/{number}", headers=bearer
    )
    with client.opener.open(request) as response:
        return str(response.headers["ETag"])


def multipart(content: bytes) -> tuple[bytes, dict[str, str]]:
    boundary = "benchboundary"
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="c.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    return body, {"Content-Type": f"multipart/form-data; boundary={boundary}"}


def during_imports(
    base: str, ids: dict[str, Any], sizes: Sizes, imports: int = 3
) -> tuple[list[Answer], list[Answer]]:
    """`imports` of the largest accepted file sent at once, each by its own client, while
    another club's match has hands saved one after another (a save every 50 ms) until they
    have all answered; returns the imports' answers and the saves'."""
    content = json.dumps(largest_file(sizes.limits, name="At once")).encode()
    bearer = {"Authorization": f"Bearer {ids['token']}"}
    body, headers = as_json(SMALL_HAND)
    path = f"/api/v1/matches/{ids['saving']}/hands"
    saver = Client(base)
    answers: list[Answer] = []
    saves: list[Answer] = []
    clients = []
    for _n in range(imports):
        client = Client(base)
        client.log_in()
        clients.append(client)

    def send(client: Client) -> None:
        answers.append(client.send("POST", "/clubs/import", *multipart(content)))

    threads = [threading.Thread(target=send, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    while any(thread.is_alive() for thread in threads) and len(saves) < MAX_HANDS - 10:
        saves.append(saver.send("POST", path, body, headers | bearer))
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    return answers, saves


def report(name: str, results: list[Answer], goal_ms: float) -> None:
    times = [t * 1000 for _s, t, _n in results]
    status, size = results[-1][0], results[-1][2]
    median = statistics.median(times)
    flag = "" if max(times) <= goal_ms else "  over the goal"
    print(f"{name:52} {status:>6} {size:>9} {median:>10.1f} {max(times):>8.1f}{flag}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database", nargs="?", help="a database URL (default: temporary SQLite)")
    parser.add_argument(
        "--smoke", action="store_true", help="tiny sizes, a few seconds: does it all still run?"
    )
    args = parser.parse_args()
    sizes = Sizes.of(args.smoke)
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        ids = build(url, sizes)
        server = Server(url, Path(folder), workers=2 if args.smoke else 4)
        server.env |= {
            "SCOREKEEPER_AUTO_UPGRADE": "false",  # the tables are the models' (build)
            "SCOREKEEPER_WTF_CSRF_ENABLED": "false",  # the pages are posted by a script
            "SCOREKEEPER_IMPORT_LIMIT_PER_ACCOUNT": NO_IMPORT_LIMIT,
        }
        if args.smoke:
            server.env |= {f"SCOREKEEPER_{key}": str(value) for key, value in SMOKE_LIMITS.items()}
        server.start()
        try:
            base = f"http://127.0.0.1:{server.port}"
            client = Client(base)
            client.log_in()
            bearer = {"Authorization": f"Bearer {ids['token']}"}
            body, headers = as_json(largest_hand())
            first = client.send(
                "POST", f"/api/v1/matches/{ids['match']}/hands", body, headers | bearer
            )
            assert first[0] == 201, first
            print(f"{'request':52} {'status':>6} {'body':>9} {'median ms':>10} {'max ms':>8}")
            for name, send in cases(ids, client, sizes):
                if sizes.smoke and " MB" in name:
                    continue  # seconds of building and sending; nothing a smoke run needs
                # A whole import takes seconds, not milliseconds: once is enough to see it.
                heavy = name.startswith("club import,") and "refused" not in name
                results = [send() for _ in range(1 if heavy else sizes.runs)]
                report(name, results, IMPORT_GOAL_MS if heavy else GOAL_MS)
            answers, saves = during_imports(base, ids, sizes)
            report("club import, the largest accepted, 3 at once", answers, IMPORT_GOAL_MS)
            report(
                f"another club's save during them ({len(saves)})", saves, SAVE_DURING_IMPORT_GOAL_MS
            )
            waits = sorted(t * 1000 for _s, t, _n in saves)
            print("  the saves' waits, ms: " + " ".join(f"{w:.0f}" for w in waits))
            assert all(status == 302 for status, _t, _n in answers), answers
            assert all(status == 201 for status, _t, _n in saves), saves
        finally:
            server.stop()
        app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": url})
        with app.app_context():
            db.drop_all()
            db.engine.dispose()


if __name__ == "__main__":
    main()
