"""JSON API v1: a club's leaderboard, for its members (a session or a bearer token).

GET /api/v1/clubs/<club_id>/leaderboard?season=<id|all>&sort=<column>&dir=asc|desc
→ {"season": {...}, "min_matches", "sort", "dir", "players": [{"id", "name", "rank",
"ranked", "matches", "wins", "win_rate", "points_per_hand", "biribas", "rating",
"rating_sigma", …}]}; ranked players first. Without `season`, the season running today (else
all time). 400 names a bad season, sort or direction; 401 anonymous; 404 outside the club.
"""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, request

from scorekeeper import clubs
from scorekeeper.accounts import api_login_required, me
from scorekeeper.extensions import csrf
from scorekeeper.records import leaderboard

bp = Blueprint("api_leaderboard", __name__, url_prefix="/api/v1")
csrf.exempt(bp)  # GET only, and nothing to forge


bp.before_request(api_login_required)  # GET only: no write to guard from CSRF


@bp.get("/clubs/<int:club_id>/leaderboard")
def club_leaderboard(club_id: int) -> Response:
    club = clubs.club_for(me(), club_id)
    found = leaderboard.board(
        club, request.args.get("season"), request.args.get("sort"), request.args.get("dir")
    )
    return jsonify(found.json())
