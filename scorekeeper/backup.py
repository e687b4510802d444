"""flask --app scorekeeper backup [PATH]: a consistent copy of the SQLite database, taken while
the app runs. PostgreSQL has pg_dump for that; the command says how to call it."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext
from sqlalchemy.engine import URL

from scorekeeper.extensions import SQLITE_BUSY_TIMEOUT_MS, db


@click.command("backup")
@click.argument("path", required=False, type=click.Path(dir_okay=False, path_type=Path))
@with_appcontext
def backup_command(path: Path | None) -> None:
    """Copy the SQLite database to PATH (default instance/backups/scorekeeper-<UTC>.sqlite)."""
    url = db.engine.url
    if url.get_backend_name() != "sqlite":
        raise click.ClickException(pg_dump_advice(url))
    if not url.database or url.database == ":memory:":
        raise click.ClickException("The database is in memory; there is no file to back up.")
    if path is None:
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        path = Path(current_app.instance_path) / "backups" / f"scorekeeper-{stamp}.sqlite"
    if path.exists():
        raise click.ClickException(f"{path} exists already; name a new file.")
    path.parent.mkdir(parents=True, exist_ok=True)
    copy_sqlite(Path(url.database), path)
    click.echo(f"Backed up {url.database} to {path}")


def copy_sqlite(source: Path, target: Path) -> None:
    """Copy with SQLite's online backup API: one read transaction, so the copy is the database
    as it was at one instant, whatever other processes write meanwhile (WAL lets them)."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    timeout = SQLITE_BUSY_TIMEOUT_MS / 1000
    # uri: open read-only, so a mistyped path is an error instead of a new empty database.
    with sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=timeout) as src:
        copy = sqlite3.connect(partial)
        try:
            src.backup(copy)  # every page in one step (pages=-1): never a mix of two moments
            # The copy is one self-contained file, not a database waiting for its -wal file.
            copy.execute("PRAGMA journal_mode=DELETE")
            (verdict,) = copy.execute("PRAGMA integrity_check").fetchone()
        finally:
            copy.close()
    src.close()
    if verdict != "ok":
        partial.unlink()
        raise click.ClickException(f"The copy failed its integrity check: {verdict}")
    partial.rename(target)


def pg_dump_advice(url: URL) -> str:
    """How to back up a PostgreSQL database with its own tool (the password is never shown)."""
    parts = [
        "pg_dump",
        f"--host={url.host or 'localhost'}",
        f"--port={url.port or 5432}",
    ]
    if url.username:
        parts.append(f"--username={url.username}")
    parts += ["--format=custom", "--file=scorekeeper-$(date -u +%Y%m%dT%H%M%SZ).dump"]
    parts.append(url.database or "DATABASE")
    password = " (the password from PGPASSWORD or ~/.pgpass)" if url.password else ""
    return (
        f"The database is {url.get_backend_name()}, not SQLite: back it up with pg_dump"
        f"{password}, which takes a consistent copy while the app runs:\n  " + " ".join(parts)
    )
