"""Clubs and their members: a club's players, its members and their roles, invitations,
and leaving; the club pages and the JSON API's clubs and players."""

from scorekeeper.clubs.service import (
    PlayerChoices,
    add_player,
    club_for,
    clubs_of,
    match_and_role,
    match_for,
    member_match,
    no_such_match,
    player_choices,
    player_counts,
    players_named,
    role_in,
)

__all__ = [
    "PlayerChoices",
    "add_player",
    "club_for",
    "clubs_of",
    "match_and_role",
    "match_for",
    "member_match",
    "no_such_match",
    "player_choices",
    "player_counts",
    "players_named",
    "role_in",
]
