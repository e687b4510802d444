"""JSON API v1: the stateless referee endpoints (no login needed).

Views only read the request and hand it to `scorekeeper.referee.service`; every score and verdict
comes from the rules engine.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify

from scorekeeper import referee
from scorekeeper.errors import ServiceError
from scorekeeper.extensions import csrf
from scorekeeper.web.json_body import read_json
from scorekeeper.words import api_words

bp = Blueprint("api", __name__, url_prefix="/api/v1")
# The referee endpoints keep no state and read no cookie, so there is nothing to forge.
csrf.exempt(bp)


@bp.get("/variants")
def variants() -> Response:
    return jsonify(referee.list_variants())


@bp.post("/melds/check")
def check_meld() -> Response:
    body = _json_body()
    answer = referee.check_meld(body)
    # Worded here, by the same builders as the pages, so the scripts never rebuild a verdict.
    variant = referee.read_variant(body)
    answer.update(api_words(answer, variant, referee.read_opening(body.get("opening"), variant)))
    return jsonify(answer)


@bp.post("/hands/score")
def score_hand() -> Response:
    return jsonify(referee.score_hand_request(_json_body()))


@bp.errorhandler(ValueError)
def bad_input(error: ValueError) -> tuple[Response, int]:
    # InputError, CardError, OptionError and FormatError all name the value at fault; an
    # entry the match's reader refused lists each of its problems too, as the match API does.
    details = error.details() if isinstance(error, ServiceError) else {}
    return jsonify({"error": str(error), **details}), 400


def _json_body() -> Any:
    return read_json()  # anything but an object is refused, with its reason, by the referee
