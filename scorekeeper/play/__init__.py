"""The match's pages, at the table: starting a match, the scoreboard, entering and correcting
hands, the live pages and the big screen, share links, the home page and the demo, and the
JSON API's matches and hands. Every one goes through the match's front door
(`scorekeeper.match`). Other features ask it how often live pages poll, a club's live
revision and who asked to join; the tournaments' setup form draws and reads the house rules
as the new-match form does."""

from scorekeeper.play.house_rules import (
    OptionGroup,
    OptionInputError,
    changed_options,
    option_groups,
)
from scorekeeper.play.live import POLL_EVERY_MS, club_revision
from scorekeeper.play.sharing import join_requests

__all__ = [
    "POLL_EVERY_MS",
    "OptionGroup",
    "OptionInputError",
    "changed_options",
    "club_revision",
    "join_requests",
    "option_groups",
]
