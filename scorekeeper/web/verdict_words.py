"""A meld verdict of the referee API in the words the meld checker shows.

static/js/meld-check.js says the same things when it updates the verdict live; keep the two
in step (the page tests read the server's words, the browser tests the script's).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.cards import Rank, parse_card
from scorekeeper.rules.opening import Requirement
from scorekeeper.rules.variants import Variant

_RANKS = frozenset(rank.value for rank in Rank)
_KIND_WORDS = {"run": "run", "set": "set", "wild": "wild meld"}


@dataclass(frozen=True, slots=True)
class OpeningWords:
    met: bool
    text: str


@dataclass(frozen=True, slots=True)
class VerdictWords:
    legal: bool
    title: str
    name: str
    tags: tuple[str, ...]
    problems: tuple[str, ...]
    card_points: int
    bonus: str | None  # None for an illegal meld: it scores nothing
    wilds: tuple[str, ...]
    opening: OpeningWords | None


def verdict_words(
    answer: Mapping[str, Any], variant: Variant, needs: Requirement | None
) -> VerdictWords:
    """Words for an answer of ``referee.check_meld`` under `variant`."""
    legal = bool(answer["legal"])
    size = int(answer["size"])
    return VerdictWords(
        legal=legal,
        title="Legal" if legal else "Not legal",
        name=f"{answer['name']} · {size} card{'' if size == 1 else 's'}",
        tags=_tags(answer, variant) if legal else (),
        problems=tuple(answer["problems"]),
        card_points=int(answer["card_points"]),
        bonus=_bonus(answer, variant) if legal else None,
        wilds=tuple(_wild(w) for w in answer["wilds"]) if legal else (),
        opening=None if needs is None else opening_words(legal, answer["card_points"], needs),
    )


def opening_words(legal: bool, card_points: int, needs: Requirement) -> OpeningWords:
    """Would this meld alone open? A meld counts its card points only, never its bonus."""
    if not legal:
        return OpeningWords(False, "Cannot open: the meld is not legal.")
    if needs.points == 0 and needs.is_met_by(0):
        return OpeningWords(True, "Opens: there is no minimum.")
    if needs.is_met_by(card_points):
        return OpeningWords(True, f"Opens: {card_points} card points meet {needs.text}.")
    return OpeningWords(False, f"Does not open: {card_points} card points, {needs.text} needed.")


def _tags(answer: Mapping[str, Any], variant: Variant) -> tuple[str, ...]:
    tags = [_KIND_WORDS.get(answer["kind"], answer["kind"])]
    if answer["clean"] is True:
        tags.append("clean")
    elif answer["semiclean"]:
        tags.append("semi-clean")
    elif answer["clean"] is False:
        tags.append("dirty")
    if answer["full"]:
        tags.append(f"full {variant.biriba_word}")
    elif answer["biriba"]:
        tags.append(variant.biriba_word)
    if answer["kozi"]:
        tags.append("kózi")
    return tuple(tags)


def _bonus(answer: Mapping[str, Any], variant: Variant) -> str:
    if answer["biriba"]:
        return f"{answer['bonus']}: {answer['bonus_label']}"
    return f"None: a {variant.biriba_word} needs {variant.biriba_size} cards or more."


def _wild(wild: Mapping[str, Any]) -> str:
    card = parse_card(wild["card"]).label
    stands_for = wild["stands_for"]
    if stands_for is None:
        return f"{card} is wild and stands for no card in particular"
    if stands_for in _RANKS:  # a wild in a set stands for a rank, not one card
        article = "an" if stands_for in ("A", "8") else "a"
        return f"{card} stands for {article} {stands_for}"
    return f"{card} stands for {parse_card(stands_for).label}"
