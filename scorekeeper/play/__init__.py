"""Playing a match: starting one, the hand pages, the scoreboard, corrections, deleting
hands, the live pages and the big screen, share links, the home page and the demo, and the
JSON API's matches and hands. Every one goes through the match's front door
(`scorekeeper.match`). Other features ask it how often live pages poll, a club's live
revision and who asked to join; the tournaments' setup form draws and reads the house rules
as the new-match form does; a tournament's table pages (no account) use its hand page with
their own links (`HandLinks`), its live preview and polls, and its share links' QR codes and
headers; a tournament's big screen keeps its drawing as the live pages keep theirs."""

from scorekeeper.play.drawings import root_free, screen_keep, screen_kept, with_root
from scorekeeper.play.hand_forms import EntryLayout, HandForm
from scorekeeper.play.hand_links import HandLinks
from scorekeeper.play.house_rules import (
    OptionGroup,
    OptionInputError,
    changed_options,
    option_groups,
)
from scorekeeper.play.live import POLL_EVERY_MS, club_revision
from scorekeeper.play.live_answer import live_answer
from scorekeeper.play.live_pages import conditional_json
from scorekeeper.play.scoreboard import board
from scorekeeper.play.share_pages import SHARED_HEADERS, qr_code
from scorekeeper.play.sharing import club_for_link, dead_link, join_requests
from scorekeeper.play.views import (
    asks_for_json,
    hand_page,
    live_preview_of,
    previewed_hand,
    refused_hand,
    saved_hand_page,
)

__all__ = [
    "POLL_EVERY_MS",
    "SHARED_HEADERS",
    "EntryLayout",
    "HandForm",
    "HandLinks",
    "OptionGroup",
    "OptionInputError",
    "asks_for_json",
    "board",
    "changed_options",
    "club_for_link",
    "club_revision",
    "conditional_json",
    "dead_link",
    "hand_page",
    "join_requests",
    "live_answer",
    "live_preview_of",
    "option_groups",
    "previewed_hand",
    "qr_code",
    "refused_hand",
    "root_free",
    "saved_hand_page",
    "screen_keep",
    "screen_kept",
    "with_root",
]
