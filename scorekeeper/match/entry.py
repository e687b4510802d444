"""A hand's entry: what the players said happened in one hand, read once where it comes in
(the hand form, the JSON API, a club file: match.reader, strict) and taken as it is by the
match's writes and the referee, which read its cards for the rules engine.

Cards stay the text the players wrote (a meld, a hand): that text is stored with the hand and
shown back, and the engine reads it when it scores. `to_json` gives the entry as it is stored
(`Hand.entry`, `HandVersion.entry`, export.json); `from_json` reads a stored entry back
(lenient: it never refuses a stored row).
Standard library and the engine's own types only, so every layer can hold one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from scorekeeper.rules.cards import Suit
from scorekeeper.rules.scoring import Cut

#: What a stored cut or kózi may say, and what it means (every page reads them: a lookup).
_CUTS: dict[str, Cut] = {c.value: c for c in Cut}
_SUITS: dict[str, Suit] = {
    word: suit for suit in Suit for word in (suit.value, suit.symbol, suit.name)
}


@dataclass(frozen=True, slots=True)
class SideEntry:
    """One side of a hand (a fixed team, or the players together this hand) as entered."""

    name: str
    players: tuple[int, ...]  # the ids of its players, in seat order
    melds: tuple[str, ...] = ()  # each meld's cards as text
    hands: tuple[str, ...] | None = None  # the cards left in each player's hand, as text
    hand_points: int | None = None  # or their point total
    went_out: bool = False
    took_biribaki: bool = False
    opening: str | None = None  # the cards of the side's first meld this hand
    opening_melds: tuple[int, ...] | None = None  # or which melds (from 0) made it
    cut: Cut | None = None
    failed_openings: int | None = None
    biribaki_unplayed: str | None = None

    @property
    def named_opening(self) -> bool:
        """Whether the side says which cards opened (by cards or by marked melds)."""
        return self.opening is not None or bool(self.opening_melds)

    def to_json(self) -> dict[str, Any]:
        side: dict[str, Any] = {
            "name": self.name,
            "players": list(self.players),
            "melds": list(self.melds),
            "went_out": self.went_out,
            "took_biribaki": self.took_biribaki,
        }
        optional: dict[str, Any] = {
            "hands": None if self.hands is None else list(self.hands),
            "hand_points": self.hand_points,
            "opening": self.opening,
            "opening_melds": None if self.opening_melds is None else list(self.opening_melds),
            "cut": None if self.cut is None else self.cut.value,
            "failed_openings": self.failed_openings,
            "biribaki_unplayed": self.biribaki_unplayed,
        }
        return side | {key: value for key, value in optional.items() if value is not None}

    @classmethod
    def from_json(cls, side: Mapping[str, Any]) -> SideEntry:
        """A side as stored. Stored sides were checked when they were saved (or imported);
        older rows may lack a field, which then reads as not given. It never refuses a row:
        the history shows old versions as they stand."""
        hands = side.get("hands")
        marked = tuple(i for i in _listed(side.get("opening_melds")) if _whole(i) is not None)
        return cls(
            name=str(side.get("name") or ""),
            players=tuple(p for p in _listed(side.get("players")) if _whole(p) is not None),
            melds=tuple(_text(m) for m in _listed(side.get("melds"))),
            hands=None if not isinstance(hands, list) else tuple(_text(h) for h in hands),
            hand_points=_whole(side.get("hand_points")),
            went_out=side.get("went_out") is True,
            took_biribaki=side.get("took_biribaki") is True,
            opening=_optional_text(side.get("opening")),
            opening_melds=marked or None,
            cut=_CUTS.get(cut) if isinstance(cut := side.get("cut"), str) else None,
            failed_openings=_whole(side.get("failed_openings")),
            biribaki_unplayed=_optional_text(side.get("biribaki_unplayed")),
        )


@dataclass(frozen=True, slots=True)
class HandEntry:
    """A whole hand as entered: its kózi (None: no kózi, or not chosen) and its sides."""

    kozi: Suit | None
    teams: tuple[SideEntry, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kozi": None if self.kozi is None else self.kozi.value,
            "teams": [side.to_json() for side in self.teams],
        }

    def renumbered(self, ids: Mapping[int, int]) -> HandEntry:
        """The entry with its players' ids replaced by `ids` (a club file's → the new)."""
        return HandEntry(
            self.kozi,
            tuple(replace(s, players=tuple(ids[p] for p in s.players)) for s in self.teams),
        )

    @classmethod
    def from_json(cls, entry: Mapping[str, Any]) -> HandEntry:
        """An entry as stored (see `SideEntry.from_json`)."""
        return cls(
            kozi=stored_suit(entry.get("kozi")),
            teams=tuple(
                SideEntry.from_json(side)
                for side in _listed(entry.get("teams"))
                if isinstance(side, Mapping)
            ),
        )


def stored_suit(value: Any) -> Suit | None:
    """A stored kózi: a suit's letter; older rows may hold it as it was typed (♥, h)."""
    if not isinstance(value, str):
        return None
    return _SUITS.get(value) or _SUITS.get(value.strip().upper())


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(cards: Any) -> str:
    """Cards as text; an old row may hold a list of card tokens."""
    if isinstance(cards, list):
        return " ".join(str(card) for card in cards)
    return str(cards)


def _optional_text(cards: Any) -> str | None:
    return None if cards is None else _text(cards)
