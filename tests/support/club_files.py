"""Club export documents made to measure, for the import's tests and benchmarks: a club of
`players` players and `matches` matches of `hands` hands each, plain (a 4p wikipedia match,
a few melds a hand) or heavy (a 6p table laying the 54 melds three decks make every hand,
the shape that took the longest to score)."""

from __future__ import annotations

import copy
from typing import Any

from scorekeeper.exchange.club_export import FORMAT, VERSION

#: Under wikipedia every side's opening need follows its total and is named in its result,
#: so a correction of the first hand changes every later hand's stored result.
WINNERS = {"melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"], "hands": ["", ""]}
WINNERS |= {"went_out": True, "took_biribaki": True}
LOSERS = {"melds": ["3C 4C 5C", "KS KD JK"], "hands": ["AS 9D", "JK 4H"]}
#: Eighteen sets of three a team: the three decks' 162 cards laid as 54 melds in one hand.
_RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3"]
_SUITS = "SHDC"


def plain_hand(winner: str) -> dict[str, Any]:
    """A 4p hand of teams A and B, `winner` going out."""
    return {
        "kozi": "H",
        "teams": [{"name": name, **(WINNERS if name == winner else LOSERS)} for name in ("A", "B")],
    }


def heavy_hand() -> dict[str, Any]:
    """A 6p hand (teams A, B, C) with 18 three-card sets each: every card of three decks."""
    sets = [f"{r}{s} {r}{s} {r}{s}" for r in _RANKS for s in _SUITS][:54]
    return {
        "kozi": "H",
        "teams": [
            {"name": name, "melds": sets[18 * i : 18 * (i + 1)], "hands": ["", ""]}
            for i, name in enumerate("ABC")
        ],
    }


def _time(n: int) -> str:
    """Hand `n`'s time: a minute after hand n − 1, from 10:01 on 1 March 2026."""
    return f"2026-03-{1 + n // 1440:02d}T{n // 60 % 24:02d}:{n % 60:02d}:00+00:00"


def club_file(
    hands: int,
    matches: int = 1,
    players: int = 4,
    heavy: bool = False,
    name: str = "Long",
    reason: str = "bench",
) -> dict[str, Any]:
    """A club export of `matches` matches of `hands` hands each (4p wikipedia, the teams
    taking turns to win; or, `heavy`, 6p pagat with 54 melds a hand) among the first four
    or six of `players` players."""
    seated = 6 if heavy else 4
    table = [{"player": p, "team": (p - 1) % (3 if heavy else 2)} for p in range(1, seated + 1)]
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {
            "name": name,
            "created_at": "2026-03-01T09:00:00+00:00",
            "min_matches_ranked": 1,
        },
        "members": [],
        "players": [{"id": p, "name": f"Player {p}"} for p in range(1, max(players, seated) + 1)],
        "seasons": [],
        "matches": [
            {
                "variant": "pagat" if heavy else "wikipedia",
                "options": {"target": 1_000_000},
                "format": "6p" if heavy else "4p",
                "created_at": "2026-03-01T10:00:00+00:00",
                "teams": [{"name": t} for t in ("ABC" if heavy else "AB")],
                "seats": table,
                "hands": [
                    {
                        "number": n,
                        "entry": heavy_hand() if heavy else plain_hand("AB"[n % 2]),
                        "accepted_reason": reason,
                        "updated_at": _time(n),
                    }
                    for n in range(1, hands + 1)
                ],
            }
            for _m in range(matches)
        ],
    }


#: A 4p hand of ten melds (five a side), team A going out.
TEN_MELDS = {
    "kozi": "H",
    "teams": [
        {
            "name": "A",
            "melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK", "3D 4D 5D", "AS AD AC"],
            "hands": ["", ""],
            "went_out": True,
            "took_biribaki": True,
        },
        {
            "name": "B",
            "melds": ["3C 4C 5C", "KS KD JK", "6H 7H 8H", "9C 10C JC", "7S 7D 7C"],
            "hands": ["AS 9D", "JK 4H"],
        },
    ],
}
#: Where team A stands after each TEN_MELDS hand under wikipedia: a match to this target
#: ends with its fourth hand.
FOURTH_HAND_TARGET = 2500


def largest_file(limits: Any, name: str = "Largest") -> dict[str, Any]:
    """A club file at every one of `limits` (an exchange.import_limits.ImportLimits) at once:
    its players, members and seasons, its matches sharing out its live hands, each hand of
    ten melds (as many as the limit on melds allows), two versions a hand, and its names
    and reasons as long as the limit on text allows. Its matches end (so the import rates
    them), each at its last hand, and seat the players in turn."""
    per_match = max(1, -(-limits.hands // limits.matches))  # no more matches than allowed
    matches = limits.hands // per_match
    hands = matches * per_match
    melds_each = min(10, limits.melds // hands)
    doc = club_file(0, matches=0, players=limits.players, name=name)
    doc["members"] = [
        {"username": f"member-{n}", "role": "viewer"} for n in range(1, limits.members + 1)
    ]
    doc["seasons"] = [
        {
            "id": n,
            "name": f"Week {n}",
            "starts_on": f"{2000 + n // 50}-{1 + n % 50 // 5:02d}-{1 + n % 5 * 5:02d}",
            "ends_on": f"{2000 + n // 50}-{1 + n % 50 // 5:02d}-{5 + n % 5 * 5:02d}",
        }
        for n in range(1, limits.seasons + 1)
    ]
    names = len(name) + sum(len(p["name"]) for p in doc["players"])
    names += sum(len(s["name"]) for s in doc["seasons"]) + 2 * matches
    reasons = hands * 3  # a hand's reason and its two versions'
    reason = "r" * max(1, min(1000, (limits.text - names) // reasons))
    entry = copy.deepcopy(TEN_MELDS)
    entry["teams"][0]["melds"] = entry["teams"][0]["melds"][: (melds_each + 1) // 2]
    entry["teams"][1]["melds"] = entry["teams"][1]["melds"][: melds_each // 2]
    for m in range(matches):
        seats = [(4 * m + s) % limits.players + 1 for s in range(4)]
        history = copy.deepcopy(entry)
        history["teams"][0]["players"] = [seats[0], seats[2]]
        history["teams"][1]["players"] = [seats[1], seats[3]]
        result = {
            "legal": True,
            "problems": [],
            "teams": [{"name": t, "score": 0, "lines": []} for t in "AB"],
        }
        doc["matches"].append(
            {
                "variant": "wikipedia",
                "options": {"target": FOURTH_HAND_TARGET} if per_match == 4 else {},
                "format": "4p",
                "created_at": "2026-03-01T10:00:00+00:00",
                "teams": [{"name": "A"}, {"name": "B"}],
                "seats": [{"player": p, "team": i % 2} for i, p in enumerate(seats)],
                "hands": [
                    {
                        "number": n,
                        "version": 2,
                        "entry": entry,
                        "accepted_reason": reason,
                        "updated_at": _time(m * per_match + n),
                    }
                    for n in range(1, per_match + 1)
                ],
                "versions": [
                    {
                        "number": n,
                        "version": v,
                        "action": action,
                        "entry": history,
                        "result": result,
                        "accepted_reason": reason,
                        "created_at": _time(m * per_match + n),
                        "user": None,
                    }
                    for n in range(1, per_match + 1)
                    for v, action in ((1, "created"), (2, "edited"))
                ],
            }
        )
    return doc
