"""The game's words as a page marks them up: each card of a red suit in red.

Apart from game_words.py, which stays plain text (and free of markupsafe) so the rules engine
on the phone carries it for its verdicts and deal (play/engine_files.py)."""

from __future__ import annotations

import re
from typing import Any

from markupsafe import Markup, escape

from scorekeeper.rules.cards import Suit

#: A card of a red suit as a page writes it, its rank and ♥ or ♦, or a run of them by its ends
#: (8♥–A♥): one red stretch.
_RED = "(?:10|[2-9AJQK])?[" + "".join(suit.symbol for suit in Suit if suit.red) + "]"
_RED_CARD = re.compile(f"{_RED}(?:–{_RED})?")


def red_cards(text: Any) -> Markup:
    """`text` (a meld, a score line: "Dirty kózi biriba 8♥–A♥") for a page, each card of a
    red suit in red, as card faces and the kózi are drawn everywhere else."""
    return Markup(_RED_CARD.sub(lambda card: f'<span class="red">{card[0]}</span>', escape(text)))
