"""The score with no network, in Chromium: how soon the hand page's live preview comes from
the rules engine on the phone (Pyodide, static/js/offline-engine.js) once the network drops.

    .venv/bin/python tests/bench/offline_preview.py [--smoke]

With the runtime already kept by the service worker (the hand page opened online once):
the first preview after the network drops (from the browser's "offline" event to the drawn
answer; goal ≤ 2 s), then each later one after a tap (from the tap to the drawn answer; goal
≤ 150 ms). Also the runtime's download (the engine and Pyodide's five files: as served, and
gzip-compressed as a compressing proxy would send them; goal ≤ 15 MB compressed, once) and
that pages which are never offline (home, scoreboard) fetch none of it. `--smoke` taps 3
times instead of 20 and drops the network only as the page opens (tests/test_benchmarks_smoke.py).
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import Response, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for support.*
from support.browser import CHROMIUM, CHROMIUM_ARGS, PHONE, log_in, serve, until

from scorekeeper import create_app
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.play.engine_files import runtime_version

PASSWORD = "correct horse"
MARKS = """() => {
    window.__bench = {offlineAt: null, tapAt: null, previews: []};
    window.addEventListener('offline', () => { window.__bench.offlineAt = performance.now(); });
    document.addEventListener('change', () => { window.__bench.tapAt = performance.now(); }, true);
    document.addEventListener('hand:preview', (event) => {
        if (event.detail.offline) {
            window.__bench.previews.push({at: performance.now(), tap: window.__bench.tapAt});
        }
    });
}"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="3 taps, not 20; one drop")
    args = parser.parse_args()
    taps = 3 if args.smoke else 20
    if runtime_version() is None:
        print("Pyodide is not installed (no npm at setup: `make runtime`): nothing to measure")
        return 1
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {"SECRET_KEY": "bench", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/b.sqlite"}
        )
        with app.app_context():
            db.create_all()
            user = accounts.create_user("bench", PASSWORD)
            club = clubs.create_club(user, "Friday")
            ids = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cat", "Dan")]
            teams = [
                matches.TeamSpec("A", (ids[0], ids[2])),
                matches.TeamSpec("B", (ids[1], ids[3])),
            ]
            match_id = matches.create_match(club, user, "pagat", "4p", teams).id
        with serve(app) as base, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
            page = context.new_page()
            runtime: dict[str, int] = {}

            def seen(response: Response) -> None:
                if "/runtime/" in response.url:
                    runtime[response.url] = 0

            page.on("response", seen)

            log_in(page, base, "bench", PASSWORD)
            for path in ("/", f"/matches/{match_id}"):
                page.goto(base + path)
                page.wait_for_load_state("networkidle")
            never_offline = len(runtime)
            page.goto(f"{base}/matches/{match_id}/hands/new")
            until(page, "() => navigator.serviceWorker.controller !== null")
            page.reload()
            until(
                page,
                "async () => (await (await caches.open('scorekeeper-runtime')).keys()).length >= 6",
                seconds=60,
            )
            # ... and the engine's snapshot, made by its first start (engine-worker.js).
            until(
                page,
                "async () => (await (await caches.open('scorekeeper-snapshot')).keys()).length",
                seconds=60,
            )
            firsts = {}
            # The network drops as the page opens, or 5 s later (a smoke run skips that wait).
            for open_ms in (0,) if args.smoke else (0, 5000):
                context.set_offline(False)
                page.reload()  # a fresh page: the runtime kept, started at idle
                page.evaluate(MARKS)
                page.wait_for_timeout(open_ms)
                context.set_offline(True)
                page.locator("label[for='kozi-H']").click()
                page.locator("[data-side='0'] [data-meld]").first.fill("QD QC QH")
                until(page, "() => window.__bench.previews.length >= 1", seconds=30)
                marks = page.evaluate("window.__bench")
                firsts[open_ms] = marks["previews"][0]["at"] - marks["offlineAt"]
            later = []
            for n in range(taps):
                page.locator("input[name='s0-out']").click()
                until(page, f"() => window.__bench.previews.length >= {n + 2}")
                last = page.evaluate("window.__bench.previews")[-1]
                later.append(last["at"] - last["tap"])
            context.set_offline(False)
            browser.close()
            served = gzipped = 0
            for url in runtime:
                with urllib.request.urlopen(url) as answer:
                    body = answer.read()
                served += len(body)
                gzipped += len(gzip.compress(body, 6))
    later_drop = f"{firsts[5000]:.0f} ms" if 5000 in firsts else "not measured (--smoke)"
    print(
        f"first preview after the network drops as the page opens: {firsts[0]:.0f} ms, "
        f"5 s after it opened: {later_drop} (goal ≤ 2000 ms)"
    )
    print(
        f"each later one after a tap: median {statistics.median(later):.0f} ms, "
        f"max {max(later):.0f} ms over {taps} taps (goal ≤ 150 ms)"
    )
    print(
        f"runtime and engine, downloaded once: {served / 1024:.0f} KiB as served, "
        f"{gzipped / 1024:.0f} KiB gzip-compressed (goal ≤ 15 MB), {len(runtime)} files"
    )
    print(f"runtime files fetched by pages never offline (home, scoreboard): {never_offline}")
    return 0 if never_offline == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
