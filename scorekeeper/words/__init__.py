"""The game in words, in the page's language: each preset's words, cards, suits and opening
minimums (`game_words`), a meld's verdict (`verdict_words`) and a rule set described
(`rule_words`). Every feature that shows the game says it with these."""

from scorekeeper.words.game_words import (
    SUIT_CHOICES,
    SUIT_FACES,
    deal_text,
    dock_words,
    opening_line,
    picker_words,
    pot_of,
    red_suit,
    requirement_text,
    word_of,
)
from scorekeeper.words.page_marks import red_cards
from scorekeeper.words.rule_words import ASSUMED_NOTE, band_lines, describe_rules, summary
from scorekeeper.words.verdict_words import api_words, script_words, verdict_text, verdict_words

__all__ = [
    "ASSUMED_NOTE",
    "SUIT_CHOICES",
    "SUIT_FACES",
    "api_words",
    "band_lines",
    "deal_text",
    "describe_rules",
    "dock_words",
    "opening_line",
    "picker_words",
    "pot_of",
    "red_cards",
    "red_suit",
    "requirement_text",
    "script_words",
    "summary",
    "verdict_text",
    "verdict_words",
    "word_of",
]
