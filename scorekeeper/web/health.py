"""Liveness check for load balancers and for CI: is the app up and the database reachable?"""

from flask import Blueprint
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from scorekeeper.extensions import db

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz() -> tuple[dict[str, str], int]:
    dialect = db.engine.dialect.name
    try:
        db.session.execute(text("SELECT 1"))
    except SQLAlchemyError:
        db.session.rollback()
        return {"status": "error", "database": dialect}, 503
    return {"status": "ok", "database": dialect}, 200
