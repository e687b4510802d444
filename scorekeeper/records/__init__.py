"""Seasons, leaderboards and records: the derived tables every write of a match's hands
keeps in step (`stats`), the ratings, the seasons, and the leaderboard, player,
partnership and head-to-head pages read from them. Other features ask it which season a
match is in, rebuild its tables, and what the scoreboard adds from it."""

from scorekeeper.records.leaderboard import MAX_MINIMUM, in_season, pick_season
from scorekeeper.records.season_pages import scoreboard_extras
from scorekeeper.records.seasons import season_on, seasons_of
from scorekeeper.records.stats import (
    imported_rows,
    rebuild,
    store_imported_rows,
    sum_ratings,
    sum_totals,
)

__all__ = [
    "MAX_MINIMUM",
    "imported_rows",
    "in_season",
    "pick_season",
    "rebuild",
    "scoreboard_extras",
    "season_on",
    "seasons_of",
    "store_imported_rows",
    "sum_ratings",
    "sum_totals",
]
