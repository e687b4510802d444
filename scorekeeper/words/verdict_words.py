"""A meld verdict of the referee API in the words the meld checker and the hand entry show.

These are the only builders of those words: POST /api/v1/melds/check carries them too
(`api_words`), and static/js/meld-check.js and hand-entry.js insert them as they come. The
scripts get only their own labels and messages, in the page's language, from `script_words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.rules.cards import Rank, parse_card
from scorekeeper.rules.opening import Requirement
from scorekeeper.rules.variants import Variant
from scorekeeper.words.game_words import card_label, requirement_text, word_of

_RANKS = frozenset(rank.value for rank in Rank)


def kind_words() -> dict[str, str]:
    return {"run": _("run"), "set": _("set"), "wild": _("wild meld")}


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
        title=_("Legal") if legal else _("Not legal"),
        name=ngettext(
            "%(name)s · %(num)d card", "%(name)s · %(num)d cards", size, name=answer["name"]
        ),
        tags=_tags(answer, variant) if legal else (),
        problems=tuple(answer["problems"]),
        card_points=int(answer["card_points"]),
        bonus=_bonus(answer, variant) if legal else None,
        wilds=tuple(_wild(w) for w in answer["wilds"]) if legal else (),
        opening=None if needs is None else opening_words(legal, answer["card_points"], needs),
    )


def verdict_text(answer: Mapping[str, Any], variant: Variant) -> str:
    """One line on a meld, as the hand entry shows it: "Legal: run, clean, biriba · 55 points
    + 200 bonus", or "Not legal: " and every reason."""
    words = verdict_words(answer, variant, None)
    if not words.legal:
        return _("Not legal: %(problems)s", problems=" ".join(words.problems))
    text = _(
        "Legal: %(tags)s · %(points)d points", tags=", ".join(words.tags), points=words.card_points
    )
    if answer.get("biriba") and answer.get("bonus"):
        text += _(" + %(bonus)s bonus", bonus=answer["bonus"])
    return text


def api_words(
    answer: Mapping[str, Any], variant: Variant, needs: Requirement | None = None
) -> dict[str, Any]:
    """The worded fields the meld-check API adds to an answer, in the request's language:
    the hand entry's line, and the meld checker's parts, with its opening line when the
    request asked about an opening."""
    words = verdict_words(answer, variant, needs)
    return {
        "verdict": verdict_text(answer, variant),
        "verdict_words": {
            "title": words.title,
            "name": words.name,
            "tags": list(words.tags),
            "bonus": words.bonus,
            "wilds": list(words.wilds),
            "opening": None
            if words.opening is None
            else {"met": words.opening.met, "text": words.opening.text},
        },
    }


def opening_words(legal: bool, card_points: int, needs: Requirement) -> OpeningWords:
    """Would this meld alone open? A meld counts its card points only, never its bonus."""
    if not legal:
        return OpeningWords(False, _("Cannot open: the meld is not legal."))
    if needs.points == 0 and needs.is_met_by(0):
        return OpeningWords(True, _("Opens: there is no minimum."))
    text = requirement_text(needs)
    if needs.is_met_by(card_points):
        return OpeningWords(
            True, _("Opens: %(points)d card points meet %(needs)s.", points=card_points, needs=text)
        )
    return OpeningWords(
        False,
        _(
            "Does not open: %(points)d card points, %(needs)s needed.",
            points=card_points,
            needs=text,
        ),
    )


def _tags(answer: Mapping[str, Any], variant: Variant) -> tuple[str, ...]:
    tags = [kind_words().get(answer["kind"], answer["kind"])]
    if answer["clean"] is True:
        tags.append(_clean(answer))
    elif answer["semiclean"]:
        tags.append(_("semi-clean"))
    elif answer["clean"] is False:
        tags.append(_("dirty"))
    word = word_of(variant)
    if answer["full"]:
        tags.append(_("full %(word)s", word=word))
    elif answer["biriba"]:
        tags.append(word)
    if answer["kozi"]:
        tags.append(_("kózi"))
    return tuple(tags)


def _clean(answer: Mapping[str, Any]) -> str:
    """ "clean", or "clean (2♥ in its own place)" when a 2 in the run is natural: the one
    place the words say so, for the meld checker, the hand entry and the API alike. A
    verdict stored before the engine named its natural 2s has none, and says "clean"."""
    twos = [card_label(parse_card(code)) for code in answer.get("natural_twos") or ()]
    if not twos:
        return _("clean")
    return _("clean (%(card)s in its own place)", card=" ".join(twos))


def _bonus(answer: Mapping[str, Any], variant: Variant) -> str:
    if answer["biriba"]:
        return f"{answer['bonus']}: {answer['bonus_label']}"
    return _(
        "None: a %(word)s needs %(size)d cards or more.",
        word=word_of(variant),
        size=variant.biriba_size,
    )


def _wild(wild: Mapping[str, Any]) -> str:
    card = card_label(parse_card(wild["card"]))
    stands_for = wild["stands_for"]
    if stands_for is None:
        return _("%(card)s is wild and stands for no card in particular", card=card)
    if stands_for in _RANKS:  # a wild in a set stands for a rank, not one card
        if stands_for in ("A", "8"):
            return _("%(card)s stands for an %(rank)s", card=card, rank=stands_for)
        return _("%(card)s stands for a %(rank)s", card=card, rank=stands_for)
    return _("%(card)s stands for %(target)s", card=card, target=card_label(parse_card(stands_for)))


def script_words() -> dict[str, Any]:
    """Labels and messages for static/js/meld-check.js and hand-entry.js (templates with
    %(name)s fields, filled in by the script); the verdict itself comes worded by the API."""
    return {
        "card_points": _("Card points"),
        "bonus": _("Bonus"),
        "wild_cards": _("Wild cards"),
        "opening": _("Opening"),
        # the meld checker's page
        "every_rule": _("Every rule of %(rules)s"),
        "no_table_row": _("No table row"),
        "add_cards": _("Add cards to see the verdict."),
        "unreadable": _("The referee could not read the cards."),
        "fix_cards": _("Fix the cards above to see the verdict."),
        "unreachable": _("The referee could not be reached; check the connection and try again."),
        # the hand-entry page
        "line_unreadable": _("This meld cannot be read."),
    }
