"""Hand entries, as JSON (what the API takes), that many tests send; `typed` reads one for a
match as the API does, into the `HandEntry` match.writes takes.

The reference hand under pagat with kózi ♥ scores 665 for A, who went out with a clean and a
dirty biriba, and −95 for B. Each test that relies on those figures works them out itself.
Treat these as read-only: copy before changing (`copy.deepcopy`, or `{**hand, ...}`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.match import HandEntry, read_hand, seating_of
from scorekeeper.models import Match


def typed(match: Match, raw: Mapping[str, Any]) -> HandEntry:
    """`raw` (a hand as the API's body gives it) read for `match` as the API reads it."""
    return read_hand(raw, seating_of(match))


def form_fields(
    entry: Mapping[str, Any], members: Sequence[Sequence[int]]
) -> list[tuple[str, str]]:
    """`entry` (a hand as the API's body gives it) as the hand form posts it: `members` are
    each side's players' ids, in the order of its hands."""
    fields: list[tuple[str, str]] = [("kozi", entry["kozi"])]
    for i, side in enumerate(entry["teams"]):
        fields += [(f"s{i}-meld", meld) for meld in side.get("melds", [])]
        fields += [(f"s{i}-out", "on")] if side.get("went_out") else []
        fields += [(f"s{i}-biribaki", "on")] if side.get("took_biribaki") else []
        if "biribaki_unplayed" in side:
            fields.append((f"s{i}-unplayed", side["biribaki_unplayed"]))
        for player, cards in zip(members[i], side.get("hands", []), strict=False):
            fields.append((f"p{player}-hand", cards))
    return fields


def entry_for(match: Match, choice: int, swap: bool, alone: int) -> dict[str, Any]:
    """One of the demo's real pagat hands (`choice`, its sides swapped or not), fitted to the
    match's table; in a shared format, seat number `alone` plays by itself."""
    kozi, first, second = PAGAT_HANDS[choice % len(PAGAT_HANDS)]
    if swap:
        first, second = second, first
    if match.format == "4p":
        return {"kozi": kozi, "teams": [{"name": "A", **first}, {"name": "B", **second}]}
    if match.format == "2p":
        sides = [{**first, "hands": first["hands"][:1]}, {**second, "hands": second["hands"][:1]}]
        return {"kozi": kozi, "teams": [{"name": "A", **sides[0]}, {"name": "B", **sides[1]}]}
    seated = [s.player_id for s in match.seats]
    single = seated[alone % len(seated)]
    return {
        "kozi": kozi,
        "teams": [
            {**first, "players": [p for p in seated if p != single]},
            {**second, "hands": second["hands"][:1], "players": [single]},
        ],
    }


#: The side that goes out: 5S-JS (clean), QD QC QH, 8H-KH JK (dirty kózi run), biribaki.
WINNERS: dict[str, Any] = {
    "melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"],
    "hands": ["", ""],
    "went_out": True,
    "took_biribaki": True,
}
#: The other side: two melds, AS 9D and JK 4H left in its players' hands, no biribaki.
LOSERS: dict[str, Any] = {"melds": ["3C 4C 5C", "KS KD JK"], "hands": ["AS 9D", "JK 4H"]}
#: presets.md's reference hand for four in two teams: A 665, B −95 under pagat, kózi ♥.
REFERENCE_HAND: dict[str, Any] = {
    "kozi": "H",
    "teams": [{"name": "A", **WINNERS}, {"name": "B", **LOSERS}],
}
#: The reference hand, named for who wins it; and the same hand with the sides' cards swapped.
A_WINS: dict[str, Any] = REFERENCE_HAND
B_WINS: dict[str, Any] = {
    "kozi": "H",
    "teams": [{"name": "A", **LOSERS}, {"name": "B", **WINNERS}],
}
#: A hand saved only with a reason: A's meld 3H 5H 9H is no run (kózi ♠).
ILLEGAL_HAND: dict[str, Any] = {
    "kozi": "S",
    "teams": [
        {"name": "A", "melds": ["3H 5H 9H"], "hands": ["4C", "5C"]},
        {"name": "B", "melds": ["3C 4C 5C"], "hands": ["6D", "7D"]},
    ],
}
#: A hand whose only fault is A's meld 3H 5S 9D (neither a run nor a set).
ILLEGAL_MELD_HAND: dict[str, Any] = {
    "kozi": "H",
    "teams": [
        {
            "name": "A",
            "melds": ["3H 5S 9D", "5S-JS"],
            "hands": ["", ""],
            "went_out": True,
            "took_biribaki": True,
        },
        {"name": "B", "melds": [], "hands": ["AS", "4H"]},
    ],
}
#: architecture.md's example body for POST /api/v1/hands/score, word for word: one team.
EXAMPLE_SCORE_BODY: dict[str, Any] = {
    "variant": "pagat",
    "options": {},
    "kozi": "H",
    "format": "4p",
    "teams": [
        {
            "name": "A",
            "melds": ["5S 6S 7S 8S 9S 10S JS", "QD QC QH"],
            "hands": ["AS 9D", "JK 4H"],
            "went_out": True,
            "took_biribaki": True,
            "score_before": 0,
            "opening": "QD QC QH",
            "cut": None,
        }
    ],
}
