"""Drawings of the live pages' changed parts, kept in the database for every worker.

Right after a save every viewer of the match asks for the new scores within two seconds, and
gunicorn spreads them over its workers: a drawing kept in one worker's memory spares only
that worker. Kept here, the first worker to draw a revision spares all the others, which read
one row instead of replaying the match and rendering its hands.

A drawing is found only under everything it depends on: the match, the match's revision
(play.live: it moves with every save, correction and deletion), this code's build (a
hash of the package, templates and static files, so a deploy never serves a drawing of the
old code) and `what` the caller says it drew (the kind of answer, the reader's language and
kind of page). Whether the reader may see the match at all is the caller's to check first,
on every request: a drawing holds no access. Each match keeps only the drawings of the
revision last stored, and nothing stays longer than a day, so the table stays small.
"""

from __future__ import annotations

import functools
import hashlib
import logging
from datetime import timedelta
from pathlib import Path

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from scorekeeper.extensions import db
from scorekeeper.models import LiveDrawing, utcnow

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


def kept(match_id: int, revision: str, what: str) -> str | None:
    """The drawing stored under this key, if any (one indexed read)."""
    return db.session.scalar(
        sa.select(LiveDrawing.body).where(
            LiveDrawing.match_id == match_id,
            LiveDrawing.revision == revision,
            LiveDrawing.build == build_id(),
            LiveDrawing.what == what,
        )
    )


def keep(match_id: int, revision: str, what: str, body: str) -> None:
    """Store a drawing of `revision` (its content must be of that very revision) and drop
    the match's drawings of any other revision or build, and any older than KEEP_FOR.

    Another worker may have stored the same drawing a moment before: then this one is left
    out. Storing is a saving, never needed: if it fails (the match deleted meanwhile, a busy
    database) the answer goes out all the same, and the next asker draws again."""
    build = build_id()
    values = {
        "match_id": match_id,
        "revision": revision,
        "build": build,
        "what": what,
        "body": body,
        "created_at": utcnow(),
    }
    insert = (
        postgresql.insert(LiveDrawing)
        if db.engine.dialect.name == "postgresql"
        else sqlite.insert(LiveDrawing)
    )
    try:
        db.session.execute(insert.values(values).on_conflict_do_nothing())
        db.session.execute(
            sa.delete(LiveDrawing).where(
                LiveDrawing.match_id == match_id,
                sa.or_(LiveDrawing.revision != revision, LiveDrawing.build != build),
            )
        )
        db.session.execute(
            sa.delete(LiveDrawing).where(LiveDrawing.created_at < utcnow() - KEEP_FOR)
        )
        db.session.commit()
    except sa.exc.SQLAlchemyError:
        db.session.rollback()
        log.warning("live drawing of match %s not stored", match_id, exc_info=True)
