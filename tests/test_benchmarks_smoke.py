"""Every benchmark still runs (issue 18, "benchmarks rot unseen").

OPERATING.md's Benchmarks section lists the command lines that run them, from the repository's
root. This module reads that very block and runs each line as written, with `--smoke` added
(tiny sizes, a few seconds), checking only that it exited 0 and printed its figures: a
benchmark that no longer imports, whose data the app now refuses, or that calls a function
since renamed, fails here instead of on the day someone needs its figures. The timings
themselves are never judged: CI's machine is shared.

The lines run at the same time (most of a smoke run is waiting). A line naming OPERATING.md's
PostgreSQL database runs on a scratch database of its own instead (which loses every table);
without SCOREKEEPER_TEST_DATABASE_URL it is left out. The subprocess gets no PYTHONPATH and
no SCOREKEEPER_TEST_DATABASE_URL: a benchmark must run as OPERATING.md says, and no benchmark
may reach the tests' databases.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support.databases import postgresql_url, wipe_postgresql

ROOT = Path(__file__).resolve().parents[1]
#: The operators' document, where the Benchmarks block lives (README.md is the players').
OPERATING = ROOT / "OPERATING.md"
BENCH = ROOT / "tests" / "bench"
#: What the block's lines name as their PostgreSQL database.
DOCUMENTED_DATABASE = "postgresql+psycopg://postgres@127.0.0.1:5432/bench"
#: In tests/bench/ but not benchmarks: what the benchmarks share (the server and checks of
#: load.py and live_viewers.py, the match entry_taps.py enters). Anything else must be listed.
HELPERS = {"load_server.py", "load_check.py", "match_hands.json"}
#: Benchmarks that drive Chromium (the `browser` mark: `make check` leaves them out).
IN_A_BROWSER = {"entry_taps.py", "offline_preview.py"}
#: A figure: a number and its unit ("12.3 ms", "21 taps", "82.5%").
FIGURE = re.compile(r"\d(?:\.\d+)?\s?(?:ms|µs|s|%|taps|req/s|hands/s|KiB)(?![A-Za-z])")
#: Seconds a smoke run may take at most, on a busy machine, before it counts as hanging.
TIMEOUT = 240
POSTGRESQL_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")
#: The benchmarks whose PostgreSQL line runs in every suite: the load test's (the only line
#: with --kill, and the gunicorn server on PostgreSQL) and the hand save's (the cheapest). The
#: other PostgreSQL lines run the same script as their SQLite line with another URL; they
#: cost a minute of the suite between them, so they run when SCOREKEEPER_BENCH_SMOKE=all.
ALWAYS_ON_POSTGRESQL = {"load.py", "bench_hand_save.py"}
EVERY_LINE = os.environ.get("SCOREKEEPER_BENCH_SMOKE") == "all"


def documented_commands() -> list[str]:
    """The command lines of OPERATING.md's Benchmarks section (its first `sh` block)."""
    section = OPERATING.read_text(encoding="utf-8").split("\n## Benchmarks\n", 1)[1]
    block = section.split("```sh\n", 1)[1].split("\n```", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def script_of(command: str) -> str:
    return Path(shlex.split(command, comments=True)[1]).name


def runs_here(command: str) -> bool:
    """Whether this suite runs the line: a PostgreSQL line only with a test database, and
    only those of ALWAYS_ON_POSTGRESQL unless SCOREKEEPER_BENCH_SMOKE=all."""
    if DOCUMENTED_DATABASE not in command:
        return True
    return POSTGRESQL_URL is not None and (EVERY_LINE or script_of(command) in ALWAYS_ON_POSTGRESQL)


COMMANDS = documented_commands()
IN_A_BROWSER_LINES = [c for c in COMMANDS if runs_here(c) and script_of(c) in IN_A_BROWSER]
OTHER_LINES = [c for c in COMMANDS if runs_here(c) and script_of(c) not in IN_A_BROWSER]


def test_every_benchmark_is_in_the_operating_document() -> None:
    listed = {script_of(command) for command in COMMANDS}
    found = {path.name for path in BENCH.iterdir() if path.is_file()} - HELPERS
    assert found - listed == set(), "benchmarks OPERATING.md's Benchmarks block does not run"
    assert listed - found == set(), "OPERATING.md lines naming no script in tests/bench/"
    for command in COMMANDS:
        argv = shlex.split(command, comments=True)
        assert argv[:2] == [".venv/bin/python", f"tests/bench/{script_of(command)}"], command


def scratch_postgresql(number: int) -> str:
    """A PostgreSQL database of this test process's own for the `number`th line, emptied
    first: the lines run at once, and each empties and fills its database."""
    assert POSTGRESQL_URL is not None
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = postgresql_url(POSTGRESQL_URL, f"_{worker}_bench{number}")
    wipe_postgresql(url)
    return url


def smoke_run(number: int, command: str) -> str | None:
    """Run the line as written with `--smoke`; None if it exited 0 and printed a figure,
    else what went wrong with the end of its output."""
    argv = shlex.split(command, comments=True)
    if DOCUMENTED_DATABASE in argv:
        scratch = scratch_postgresql(number)
        argv = [scratch if arg == DOCUMENTED_DATABASE else arg for arg in argv]
    leave_out = {"PYTHONPATH", "SCOREKEEPER_TEST_DATABASE_URL"}
    env = {name: value for name, value in os.environ.items() if name not in leave_out}
    try:
        done = subprocess.run(
            [*argv, "--smoke"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return f"{command} --smoke did not finish within {TIMEOUT} s"
    said = (
        f"{command} --smoke\n--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
    )
    if done.returncode != 0:
        return f"exited {done.returncode}: {said}"
    if not FIGURE.search(done.stdout):
        return f"no figure printed: {said}"
    return None


def run_at_once(commands: list[str]) -> None:
    """Every line at the same time, each in its own process, and every failure told. Most of a
    smoke run is waiting (a server starting, viewers polling on a clock): one after another
    they held a test process for a minute and a half while the machine had CPU to spare."""
    assert (ROOT / ".venv/bin/python").exists(), "no .venv: run `make .venv/test.stamp` first"
    with ThreadPoolExecutor(max_workers=len(commands)) as pool:
        failures = [f for f in pool.map(smoke_run, range(len(commands)), commands) if f]
    assert not failures, "\n\n".join(failures)


def test_the_benchmarks_run_in_smoke_mode() -> None:
    assert len(OTHER_LINES) >= 10
    run_at_once(OTHER_LINES)


@pytest.mark.browser
def test_the_browser_benchmarks_run_in_smoke_mode() -> None:
    assert {script_of(c) for c in IN_A_BROWSER_LINES} == IN_A_BROWSER
    run_at_once(IN_A_BROWSER_LINES)
