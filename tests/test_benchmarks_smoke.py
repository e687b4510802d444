"""Every benchmark still runs (issue 18, "benchmarks rot unseen").

OPERATING.md's Benchmarks section lists the command lines that run them, from the repository's
root. This module reads that very block and runs each line as written, with `--smoke` added
(tiny sizes, a few seconds), checking only that it exited 0 and printed its figures: a
benchmark that no longer imports, whose data the app now refuses, or that calls a function
since renamed, fails here instead of on the day someone needs its figures. The timings
themselves are never judged: CI's machine is shared.

A line naming OPERATING.md's PostgreSQL database runs on this test process's own scratch
database instead (that database loses every table); without SCOREKEEPER_TEST_DATABASE_URL it
is skipped. The subprocess gets no PYTHONPATH and no SCOREKEEPER_TEST_DATABASE_URL: a
benchmark must run as OPERATING.md says, and no benchmark may reach the tests' databases.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
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


def case(command: str) -> object:
    name = script_of(command).removesuffix(".py")
    on_postgresql = DOCUMENTED_DATABASE in command
    marks = [pytest.mark.browser] if script_of(command) in IN_A_BROWSER else []
    if on_postgresql and not POSTGRESQL_URL:
        marks.append(pytest.mark.skip(reason="needs SCOREKEEPER_TEST_DATABASE_URL"))
    elif on_postgresql and not EVERY_LINE and script_of(command) not in ALWAYS_ON_POSTGRESQL:
        marks.append(pytest.mark.skip(reason="its SQLite line runs; SCOREKEEPER_BENCH_SMOKE=all"))
    return pytest.param(command, id=f"{name}-postgresql" if on_postgresql else name, marks=marks)


COMMANDS = documented_commands()


@pytest.fixture(scope="module")
def scratch_postgresql() -> str:
    """This test process's own PostgreSQL database for the benchmarks, emptied first."""
    assert POSTGRESQL_URL is not None
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = postgresql_url(POSTGRESQL_URL, f"_{worker}_bench" if worker else "_bench")
    wipe_postgresql(url)
    return url


def test_every_benchmark_is_in_the_operating_document() -> None:
    listed = {script_of(command) for command in COMMANDS}
    found = {path.name for path in BENCH.iterdir() if path.is_file()} - HELPERS
    assert found - listed == set(), "benchmarks OPERATING.md's Benchmarks block does not run"
    assert listed - found == set(), "OPERATING.md lines naming no script in tests/bench/"
    for command in COMMANDS:
        argv = shlex.split(command, comments=True)
        assert argv[:2] == [".venv/bin/python", f"tests/bench/{script_of(command)}"], command


@pytest.mark.parametrize("command", [case(command) for command in COMMANDS])
def test_benchmark_runs_in_smoke_mode(command: str, request: pytest.FixtureRequest) -> None:
    argv = shlex.split(command, comments=True)
    if DOCUMENTED_DATABASE in argv:
        scratch = request.getfixturevalue("scratch_postgresql")
        argv = [scratch if arg == DOCUMENTED_DATABASE else arg for arg in argv]
    assert (ROOT / argv[0]).exists(), f"no {argv[0]}: run `make .venv/test.stamp` first"
    leave_out = {"PYTHONPATH", "SCOREKEEPER_TEST_DATABASE_URL"}
    env = {name: value for name, value in os.environ.items() if name not in leave_out}
    done = subprocess.run(
        [*argv, "--smoke"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    said = (
        f"{command} --smoke\n--- stdout\n{done.stdout[-3000:]}\n--- stderr\n{done.stderr[-3000:]}"
    )
    assert done.returncode == 0, said
    assert FIGURE.search(done.stdout), f"no figure printed\n{said}"
