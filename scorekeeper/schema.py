"""Making sure a database has its tables before a command writes to it."""

from __future__ import annotations

import sqlalchemy as sa
from flask import current_app

from scorekeeper.extensions import db


def ensure_schema() -> None:
    """Give a fresh database its tables. Start-up has normally migrated it already; where it
    has not (AUTO_UPGRADE off), the migrations run here, so later upgrades find the database
    stamped. A test app builds its own schema (as in the factory), so it gets create_all."""
    if sa.inspect(db.engine).has_table("user"):
        return
    if current_app.testing:
        db.create_all()
    else:
        from flask_migrate import upgrade

        upgrade()
