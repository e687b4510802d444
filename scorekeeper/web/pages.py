"""HTML pages a person opens on a phone."""

from flask import Blueprint, render_template

bp = Blueprint("pages", __name__)


@bp.get("/")
def home() -> str:
    return render_template("index.html")
