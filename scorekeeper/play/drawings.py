"""Drawings of the live pages' changed parts, kept in the database for every worker.

Right after a save every viewer of the match asks for the new scores within two seconds, and
gunicorn spreads them over its workers: a drawing kept in one worker's memory spares only
that worker. Kept here, the first worker to draw a revision spares all the others, which read
one row instead of replaying the match and rendering its hands.

A drawing is found only under everything it depends on: the match, the match's revision
(play.live: it moves with every save, correction and deletion), this code's build (a
hash of the package, templates and static files, so a deploy never serves a drawing of the
old code) and `what` the caller says it drew (the kind of answer, the reader's language and
kind of page), each from a fixed set, so a match has at most a handful of rows. Whether
the reader may see the match at all is the caller's to check first, on every request: a
drawing holds no access.

Nothing of the request is in a drawing or its key. Its links are drawn under a placeholder
root (`root_free`) and the asker's own root, which a proxy may pass on as SCRIPT_NAME, is
filled in as it is answered (`with_root`): a header must not make a new row per value
(issue 18). The placeholder is derived from the secret key, so no text a user typed can
hold it, and it is part of the key's build, so a new secret never meets an old drawing.
Each match keeps only the drawings of the revision last stored, and nothing stays longer
than a day, so the table stays small. A tournament's big screen is kept the same way, under
the tournament (`screen_kept`, `screen_keep`; tournaments/live_pages.py).
"""

from __future__ import annotations

import copy
import functools
import hashlib
import hmac
import logging
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import current_app
from flask.globals import request_ctx
from markupsafe import escape
from sqlalchemy import event
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.pool import Pool

from scorekeeper.extensions import db
from scorekeeper.models import LiveDrawing, ScreenDrawing, utcnow

#: How long any drawing stays at most: a match nobody has saved into since is long over.
KEEP_FOR = timedelta(days=1)
#: What the build's hash covers: every file that can change a drawing.
BUILD_FOLDERS = ("scorekeeper", "templates", "static")
ROOT = Path(__file__).resolve().parents[2]

log = logging.getLogger(__name__)


@functools.cache
def build_id(root: Path = ROOT) -> str:
    """A hash of the code that draws (names and contents), worked out once per process."""
    digest = hashlib.sha256()
    for folder in BUILD_FOLDERS:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(root)).encode() + b"\0")
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=4)
def _placeholder_of(secret: str | bytes) -> str:
    key = secret.encode() if isinstance(secret, str) else secret
    # Letters and digits only: the same after URL building and HTML escaping.
    return "root" + hmac.new(key, b"live drawing root", hashlib.sha256).hexdigest()[:24]


def root_placeholder() -> str:
    """What stands for the app's root in a stored drawing's links: known to the app alone."""
    return _placeholder_of(current_app.secret_key or "")


def stored_build() -> str:
    """The build a drawing is stored under: the code's, and the placeholder it holds."""
    return hashlib.sha256(f"{build_id()}:{root_placeholder()}".encode()).hexdigest()[:16]


@contextmanager
def root_free() -> Iterator[None]:
    """Inside, `url_for` builds this request's links under the placeholder root instead of
    the request's own (SCRIPT_NAME): what is drawn here holds nothing of the request."""
    own = request_ctx.url_adapter
    if own is None:
        yield
        return
    placeheld = copy.copy(own)
    placeheld.script_name = root_placeholder() + "/"
    request_ctx.url_adapter = placeheld
    try:
        yield
    finally:
        request_ctx.url_adapter = own


def with_root(text: str) -> str:
    """A drawing made under `root_free` with this request's root in its links, as `url_for`
    would have built them (an HTML drawing: the root is escaped as the page escapes it)."""
    adapter = request_ctx.url_adapter
    root = "" if adapter is None else adapter.script_name.rstrip("/")
    return text.replace(root_placeholder(), str(escape(root)))


def kept(match_id: int, revision: str, what: str) -> str | None:
    """The drawing stored under this key, if any (one indexed read)."""
    return _kept(LiveDrawing, match_id, revision, what)


def keep(match_id: int, revision: str, what: str, body: str) -> None:
    """Store a drawing of `revision` (its content must be of that very revision) and drop
    the match's drawings of any other revision or build, and any older than KEEP_FOR.

    Every write waits for, and holds up, every other writer (on SQLite: each hand saved in
    any club; tests/bench/live_viewers.py), so a drawing is written at most once: when
    another worker stored it while this one drew it (right after a save every viewer's
    worker draws at once), nothing is written. On SQLite the write does not wait for the
    disk either (`_not_waiting_for_the_disk`). Storing is a saving, never needed: if it fails
    (the match deleted meanwhile, a busy database) the answer goes out all the same, and the
    next asker draws again."""
    _keep(LiveDrawing, match_id, revision, what, body)


def screen_kept(tournament_id: int, revision: str, what: str) -> str | None:
    """A tournament's big screen as `kept` finds a match's drawing (models.ScreenDrawing)."""
    return _kept(ScreenDrawing, tournament_id, revision, what)


def screen_keep(tournament_id: int, revision: str, what: str, body: str) -> None:
    """A tournament's big screen stored as `keep` stores a match's drawing."""
    _keep(ScreenDrawing, tournament_id, revision, what, body)


#: A kind of drawing: a match's (LiveDrawing) or a tournament's big screen (ScreenDrawing).
Drawing = type[LiveDrawing] | type[ScreenDrawing]


def _kept(model: Drawing, owner: int, revision: str, what: str) -> str | None:
    return db.session.scalar(
        sa.select(model.body).where(
            getattr(model, model.owner) == owner,
            model.revision == revision,
            model.build == stored_build(),
            model.what == what,
        )
    )


def _keep(model: Drawing, owner: int, revision: str, what: str, body: str) -> None:
    if _kept(model, owner, revision, what) is not None:
        return
    build = stored_build()
    values = {
        model.owner: owner,
        "revision": revision,
        "build": build,
        "what": what,
        "body": body,
        "created_at": utcnow(),
    }
    insert = (
        postgresql.insert(model) if db.engine.dialect.name == "postgresql" else sqlite.insert(model)
    )
    try:
        _not_waiting_for_the_disk()
        db.session.execute(insert.values(values).on_conflict_do_nothing())
        db.session.execute(
            sa.delete(model).where(
                getattr(model, model.owner) == owner,
                sa.or_(model.revision != revision, model.build != build),
            )
        )
        db.session.execute(sa.delete(model).where(model.created_at < utcnow() - KEEP_FOR))
        db.session.commit()
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        log.warning("live drawing of %s %s not stored", model.__name__, owner, exc_info=True)


#: Where a SQLite connection notes the `synchronous` level to go back to when it is returned.
_RESTORE = "scorekeeper.drawings.synchronous"


def _not_waiting_for_the_disk() -> None:
    """On SQLite (WAL), let this connection's next commit return before the disk has it
    (`synchronous=NORMAL`): it then holds the database's one write lock for the statements
    alone, not for an fsync as well. A power cut may lose such a commit, never corrupt the
    file, and a lost drawing is drawn again. The connection goes back to its own level when
    it returns to the pool (`_restore_synchronous`), before any hand is written on it. Only
    outside a transaction (SQLite refuses the change inside one): else nothing changes."""
    connection = db.session.connection().connection
    raw = connection.dbapi_connection
    if not isinstance(raw, sqlite3.Connection) or raw.in_transaction:
        return
    if _RESTORE not in connection.info:
        connection.info[_RESTORE] = raw.execute("PRAGMA synchronous").fetchone()[0]
    raw.execute("PRAGMA synchronous=NORMAL")


@event.listens_for(Pool, "checkin")
def _restore_synchronous(raw: Any, record: Any) -> None:
    # The pool rolled the connection back before this: no transaction is open.
    if raw is not None and _RESTORE in record.info:
        raw.execute(f"PRAGMA synchronous={int(record.info.pop(_RESTORE))}")
