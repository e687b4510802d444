"""The worst requests each bounded endpoint still takes (issue 11), timed over HTTP against the
real app: the largest allowed meld of repeated aces to the meld checker (API and page) and to
the hand scorer, the most teams with the most melds, a hand as large as the decks allow saved
into a match and previewed on its page, the largest body the API reads, the longest match a
club may import and the correction or deletion of its first hand (every later hand is scored
again), and requests just over each bound (which must be refused at once). Goal: every one
under 200 ms on these machines.

    .venv/bin/python tests/bench/worst_requests.py                  # a temporary SQLite file
    .venv/bin/python tests/bench/worst_requests.py postgresql+psycopg://postgres@127.0.0.1:5432/DB

The database named is emptied first (every table dropped). The app is served by werkzeug in a
thread (tests/support/browser.py `serve`), as the browser tests do; each request is sent
RUNS times and the median printed with its status. Nothing is asserted about time.
"""

from __future__ import annotations

import argparse
import http.cookiejar
import json
import logging
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ for support.*

from support.browser import serve

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.config import defaults
from scorekeeper.exchange import club_import
from scorekeeper.exchange.club_export import FORMAT, VERSION
from scorekeeper.extensions import db
from scorekeeper.match import MAX_HANDS, MAX_MELDS, MAX_TEAMS
from scorekeeper.rules.formats import MOST_CARDS

RUNS = 7
#: Status, seconds and the request body's size.
Answer = tuple[int, float, int]
Send = Callable[[], Answer]
GOAL_MS = 200
IMPORT_HANDS: int = defaults(tempfile.gettempdir())["MAX_IMPORT_HANDS"]


def aces(count: int) -> str:
    return " ".join(["AH"] * count)


#: The worst meld: a run reading with every ace tried low and high, as long as the decks allow.
WORST_MELD = "QH KH " + aces(MOST_CARDS - 2)


def build(url: str) -> tuple[Any, dict[str, Any]]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "WTF_CSRF_ENABLED": False,  # the page is posted by a script, not a browser
        }
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
        owner = accounts.create_user("bench", "bench password")
        club = clubs.create_club(owner, "Bench club")
        players = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cy")]
        specs = [matches.TeamSpec(name, (pid,)) for name, pid in zip("ABC", players, strict=True)]
        match = matches.create_match(club, owner, "pagat", "3p", specs)
        token = accounts.create_token(owner, "bench")
        started = time.perf_counter()
        imported = club_import.import_club(club_file(MAX_HANDS), owner=owner)
        print(
            f"import of a {MAX_HANDS}-hand match (service): {time.perf_counter() - started:.2f} s"
        )
        long = imported.club.matches[0].id
        ids = {"club": club.id, "match": match.id, "players": players, "token": token}
        ids |= {"long": long}
    return app, ids


#: Under wikipedia every side's opening need follows its total and is named in its result, so
#: a correction of the first hand changes every later hand's stored result.
WINNERS = {"melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"], "hands": ["", ""]}
WINNERS |= {"went_out": True, "took_biribaki": True}
LOSERS = {"melds": ["3C 4C 5C", "KS KD JK"], "hands": ["AS 9D", "JK 4H"]}


def long_hand(winner: str) -> dict[str, Any]:
    return {
        "kozi": "H",
        "teams": [{"name": name, **(WINNERS if name == winner else LOSERS)} for name in ("A", "B")],
    }


def club_file(hands: int, matches: int = 1) -> dict[str, Any]:
    """A club export with `matches` wikipedia matches for four of `hands` hands each, the
    teams taking turns to win (the first at 10:00 on 1 March 2026, a minute apart)."""
    table = [{"player": p, "team": (p - 1) % 2} for p in (1, 2, 3, 4)]
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {
            "name": "Long",
            "created_at": "2026-03-01T09:00:00+00:00",
            "min_matches_ranked": 1,
        },
        "members": [],
        "players": [{"id": p, "name": name} for p, name in enumerate(("An", "Bo", "Cy", "Di"), 1)],
        "seasons": [],
        "matches": [
            {
                "variant": "wikipedia",
                "options": {"target": 1_000_000},
                "format": "4p",
                "created_at": "2026-03-01T10:00:00+00:00",
                "teams": [{"name": "A"}, {"name": "B"}],
                "seats": table,
                "hands": [
                    {
                        "number": n,
                        "entry": long_hand("AB"[n % 2]),
                        "accepted_reason": "bench",
                        "updated_at": f"2026-03-{1 + n // 1440:02d}T{n // 60 % 24:02d}:"
                        f"{n % 60:02d}:00+00:00",
                    }
                    for n in range(1, hands + 1)
                ],
            }
            for _m in range(matches)
        ],
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


def cases(ids: dict[str, Any], client: Client) -> list[tuple[str, Send]]:
    bearer = {"Authorization": f"Bearer {ids['token']}"}
    m = ids["match"]

    def post(path: str, payload: tuple[bytes, dict[str, str]]) -> Send:
        body, headers = payload
        return lambda: client.send("POST", path, body, headers)

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
        body, headers = as_json(long_hand("AB"[next(corrections) % 2]) | {"accepted_reason": "b"})
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

    # As many longest matches as the largest file holds.
    one = len(json.dumps(club_file(MAX_HANDS)).encode())
    # The web import takes at most MAX_IMPORT_HANDS hands; a 5 MB file holds many more.
    fullest = club_file(MAX_HANDS, matches=IMPORT_HANDS // MAX_HANDS)
    largest = club_file(MAX_HANDS, matches=(5 * 1024 * 1024 - 1024) // one)
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
        (f"match hand API, edit hand 1 of {MAX_HANDS}", edit_long_hand_1),
        (f"match hand API, delete hand 2.. of {MAX_HANDS}", delete_long_hand),
        (f"club import, one {MAX_HANDS}-hand match", import_file(club_file(MAX_HANDS))),
        (
            f"club import, {len(fullest['matches'])}×{MAX_HANDS} hands",
            import_file(fullest),
        ),
        (f"club import, {MAX_HANDS + 1} hands (refused)", import_file(club_file(MAX_HANDS + 1))),
        (
            f"club import, 5 MB of {len(largest['matches'])}×{MAX_HANDS} hands (refused)",
            import_file(largest),
        ),
        (
            "club import, 5 MB file (refused)",
            lambda: client.send(
                "POST", "/clubs/import", *multipart(b"[" + b" " * (5 * 1024 * 1024 - 600) + b"]")
            ),
        ),
    ]


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("database", nargs="?", help="a database URL (default: temporary SQLite)")
    args = parser.parse_args()
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'bench.sqlite'}"
        app, ids = build(url)
        with serve(app) as base:
            client = Client(base)
            login = as_form({"username": "bench", "password": "bench password"})
            assert client.send("POST", "/login", *login)[0] == 302
            bearer = {"Authorization": f"Bearer {ids['token']}"}
            body, headers = as_json(largest_hand())
            first = client.send(
                "POST", f"/api/v1/matches/{ids['match']}/hands", body, headers | bearer
            )
            assert first[0] == 201, first
            print(f"{'request':44} {'status':>6} {'body':>9} {'median ms':>10} {'max ms':>8}")
            for name, send in cases(ids, client):
                # A whole import takes seconds, not milliseconds: once is enough to see it.
                heavy = name.startswith("club import,") and "refused" not in name
                results = [send() for _ in range(1 if heavy else RUNS)]
                times = [t * 1000 for _s, t, _n in results]
                status, size = results[-1][0], results[-1][2]
                median = statistics.median(times)
                flag = "" if median < GOAL_MS else "  over the goal"
                print(f"{name:44} {status:>6} {size:>9} {median:>10.1f} {max(times):>8.1f}{flag}")
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()


if __name__ == "__main__":
    main()
