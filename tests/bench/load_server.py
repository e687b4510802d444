"""The server side of the load benchmark (load.py): a fresh database with a user and a token,
and gunicorn started, killed with SIGKILL and started again on one port of 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.accounts import service as accounts
from scorekeeper.config import normalize_database_url
from scorekeeper.extensions import db

BIN = Path(sys.executable).parent
#: The checkout this file is in: the server runs its code, not whatever copy the venv names.
ROOT = Path(__file__).resolve().parents[2]


class Unavailable(Exception):
    """No answer: the server is down, or died while answering."""


def prepare_database(url: str, workdir: Path) -> str:
    """Empty the database, bring it to the newest schema, and return a new user's API token.

    The app is made here, in this process, as `flask create-user` and `create-token` would
    make it (its start-up migrates the database): two more processes each loading the app
    took most of a short run's time."""
    url = normalize_database_url(url)
    if url.startswith("sqlite"):
        path = Path(sa.make_url(url).database or "")
        for extra in ("", "-wal", "-shm", ".migrate-lock"):
            Path(f"{path}{extra}").unlink(missing_ok=True)
    else:
        engine = sa.create_engine(url)
        meta = sa.MetaData()
        meta.reflect(engine)
        meta.drop_all(engine)
        engine.dispose()
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": secrets.token_hex(32)})
    with app.app_context():
        user = accounts.create_user("load", "quiet-table-7391")
        token = accounts.create_token(user, "load")
        db.session.remove()
        db.engine.dispose()
    return token


def environment(url: str) -> dict[str, str]:
    # The server runs in a scratch directory, where a relative PYTHONPATH (".") finds nothing
    # and the venv's own install (another checkout's, from a worktree) would be served.
    path = [str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    return os.environ | {
        "PYTHONPATH": os.pathsep.join(path),
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": secrets.token_hex(32),
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Server:
    """gunicorn with `workers` sync workers on a free port of 127.0.0.1."""

    def __init__(self, url: str, workdir: Path, workers: int) -> None:
        self.env = environment(normalize_database_url(url))
        self.workdir = workdir
        self.workers = workers
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        log = open(self.workdir / "gunicorn.log", "ab")  # noqa: SIM115 - the child keeps it
        self.process = subprocess.Popen(
            [
                str(BIN / "gunicorn"),
                "--workers",
                str(self.workers),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--timeout",
                "60",
                "scorekeeper:create_app()",
            ],
            env=self.env,
            cwd=self.workdir,
            stdout=log,
            stderr=log,
            start_new_session=True,  # its own process group: the kill reaches every worker
        )
        log.close()
        self.wait_until_up(deadline=60)

    def group(self) -> list[int]:
        """The gunicorn master and its workers (one process group)."""
        assert self.process is not None
        pids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[2]) == self.process.pid:  # fields: state, ppid, pgrp, …
                pids.append(int(stat.parent.name))
        return pids

    def kill(self) -> int:
        """SIGKILL the master and every worker at once, as a power cut would."""
        assert self.process is not None
        count = len(self.group())
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        deadline = time.monotonic() + 10
        while self.group() and time.monotonic() < deadline:
            time.sleep(0.05)
        return count

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            # gunicorn's quick shutdown: nothing is in flight when a benchmark stops it, and
            # the graceful one (SIGTERM) waits out each sync worker's poll of its socket.
            self.process.send_signal(signal.SIGQUIT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()

    def wait_until_up(self, deadline: float) -> None:
        give_up = time.monotonic() + deadline
        while time.monotonic() < give_up:
            try:
                status, _ = self.request("GET", "/healthz")
                if status == 200:
                    return
            except Unavailable:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"gunicorn did not answer within {deadline} s (see gunicorn.log)")

    def request(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, Any]:
        """One request on a new connection (gunicorn's sync workers close each one)."""
        sent = dict(headers or {})
        if token:
            sent["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if not path.startswith("/"):
            path = f"/api/v1/{path}"
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=90)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            raw = response.read()
        except (ConnectionError, http.client.HTTPException, TimeoutError) as error:
            raise Unavailable(str(error)) from None
        finally:
            connection.close()
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:
            answer = {"raw": raw[:200].decode(errors="replace")}
        return response.status, answer
