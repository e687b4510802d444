"""The referee use cases behind JSON API v1 and the command line: read a request's JSON into
cards and options, ask the rules engine, and give its answer back as JSON-ready data.

Every way a request can be wrong raises `InputError` (or another ValueError from the engine)
whose message names the offending value; the API turns those into 400 answers.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .hand_entry import SideEntry
from .rules.cards import Card, Suit, parse_cards
from .rules.formats import FORMATS, MOST_CARDS, TableFormat, find_format
from .rules.melds import MeldVerdict, judge_meld
from .rules.opening import Requirement, requirement
from .rules.points import parse_points
from .rules.presets import PRESETS, find_variant
from .rules.scoring import Cut, HandScore, TeamHand, deck_problems, kozi_missing, score_hand
from .rules.variants import Variant, options_from_json

#: No real match comes near this; anything beyond is a typing slip, not a score.
_MAX_POINTS = 10_000_000
#: Bounds of one request, so no request can hold a worker for long (issue 11): no format
#: seats more than 6 teams or players, and every preset's meld has 3 cards or more (162 / 3).
MAX_TEAMS = 6
MAX_MELDS = MOST_CARDS // 3
MAX_NAME = 80  # a team's name, as the database stores it
MAX_CARD_TEXT = 1000  # one meld or hand as text: 162 cards written "10H, " fit in 810
MAX_HAND_POINTS = 200_000  # 162 cards at the dearest card a house rule allows (1,000)
MAX_FAILED_OPENINGS = 100
MAX_OPENING = 10_000  # a typed opening minimum, as the meld checker's form bounds it


def show(value: Any) -> str:
    """A value as the client sent it, in JSON (null, true, "x"), for error messages."""
    return json.dumps(value, ensure_ascii=False)


class InputError(ValueError):
    """A request the referee cannot read; the message names what is wrong."""


#: A side's fields in a request; "name" is read before them.
_SIDE_FIELDS = frozenset(
    {
        "name",
        "melds",
        "hands",
        "hand_points",
        "went_out",
        "took_biribaki",
        "opening",
        "opening_melds",
        "cut",
        "failed_openings",
        "biribaki_unplayed",
    }
)


def list_variants() -> dict[str, Any]:
    return {
        "variants": [
            {
                "id": v.id,
                "name": v.name,
                "options": v.options(),
                "assumed": sorted(v.assumed),
                "sources": list(v.sources),
            }
            for v in PRESETS.values()
        ],
        "formats": [
            {"id": f.id, "name": f.name, "decks": f.decks, "jokers": f.jokers}
            for f in FORMATS.values()
        ],
    }


def check_meld(data: Any) -> dict[str, Any]:
    """``POST /api/v1/melds/check``: the verdict on one meld."""
    body = _object(data, "The request body")
    variant = read_variant(body)
    kozi = read_suit(body.get("kozi"))
    table_format = None if body.get("format") is None else read_format(body.get("format"))
    most = MOST_CARDS if table_format is None else table_format.cards
    cards = read_cards(body.get("cards"), "'cards'", required=True, allow_empty=False, most=most)
    verdict = judge_meld(cards, variant, kozi)
    answer = verdict_json(verdict)
    if table_format is not None:
        extra = deck_problems([TeamHand("", melds=(cards,))], table_format)
        answer["problems"] += extra
        answer["legal"] = answer["legal"] and not extra
    return answer


def score_hand_request(data: Any) -> dict[str, Any]:
    """``POST /api/v1/hands/score``: every team's itemised score and every problem."""
    body = _object(data, "The request body")
    variant = read_variant(body)
    kozi = read_suit(body.get("kozi"))
    table_format = read_format(body.get("format") or "4p")
    teams = read_teams(body.get("teams"), table_format)
    require_kozi(variant, kozi)
    return hand_json(score_hand(variant, teams, kozi, table_format))


# --- reading ---------------------------------------------------------------------------------


def read_variant(body: Mapping[str, Any]) -> Variant:
    variant_id = body.get("variant")
    if not isinstance(variant_id, str) or not variant_id.strip():
        raise InputError("'variant' must name a variant, such as \"pagat\"")
    variant = find_variant(variant_id)
    options = options_from_json(body.get("options"))
    return variant.with_options(**options)


def read_opening(value: Any, variant: Variant) -> Requirement | None:
    """The opening a meld is checked against: ``{"points": N}``, a minimum of N card points,
    or ``{"score": N}``, the row of the variant's opening table for a team at score N; null
    for none. A score under a variant without a table asks for nothing to check."""
    if value is None:
        return None
    body = _object(value, "'opening'")
    if set(body) not in ({"points"}, {"score"}):
        raise InputError(
            "'opening' must be {\"points\": N} (a minimum of card points) or "
            f'{{"score": N}} (the team\'s score before the hand), not {_short(value)}'
        )
    if "points" in body:
        points = _whole(body["points"], "'opening.points'", MAX_OPENING)
        if points is None:
            raise InputError(f"'opening.points' must be a whole number from 0 to {MAX_OPENING}")
        return Requirement(points)
    score = read_points(body["score"], "'opening.score'")
    if variant.opening_table is None:
        return None
    return requirement(variant.opening_table, score, variant.opening_comparison)


def read_format(value: Any) -> TableFormat:
    if not isinstance(value, str):
        raise InputError(f"'format' must name a table format, not {show(value)}")
    return find_format(value)


def read_suit(value: Any) -> Suit | None:
    """The kózi suit: a letter or symbol (``"H"``, ``"♥"``), or null/"" for none."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and len(value) <= 20:  # the entry stores it as it came
        word = value.strip().upper()
        for suit in Suit:
            if word in (suit.value, suit.symbol, suit.name):
                return suit
    raise InputError(f"'kozi' cannot be {_short(value)}: use S, H, D or C (or ♠ ♥ ♦ ♣), or null")


def require_kozi(variant: Variant, kozi: Suit | None) -> None:
    """Refuse a hand without a kózi where the variant deals one every hand."""
    missing = kozi_missing(variant, kozi)
    if missing:
        raise InputError(missing)


def read_cards(
    value: Any, what: str, required: bool = False, allow_empty: bool = True, most: int = MOST_CARDS
) -> tuple[Card, ...]:
    """Cards as notation text, or as a list of card tokens; never more than `most` (the
    cards at the table), so judging them takes a bounded time."""
    if value is None and not required:
        return ()
    text = _card_text(value, what)
    try:
        cards = parse_cards(text)
    except ValueError as error:
        raise InputError(f"{what}: {error}") from None
    if not cards and not allow_empty:
        raise InputError(f"{what} holds no card")
    if len(cards) > most:
        raise InputError(too_many_cards(what, len(cards), most))
    return cards


def too_many_cards(what: str, count: int, most: int) -> str:
    return (
        f"{what} holds {count} cards, but the decks at this table hold only {most} "
        f"(the largest table plays with {MOST_CARDS}), so no meld or hand can hold more"
    )


def read_teams(value: Any, table_format: TableFormat | None = None) -> list[TeamHand]:
    """The teams of one hand (``POST /api/v1/hands/score``), each with its score before it;
    every meld and hand, and all their cards together, within the cards of `table_format`
    (of the largest table when not known)."""
    if not isinstance(value, list) or not value:
        raise InputError("'teams' must be a list with one object for each team")
    _count_teams(len(value))
    sides, befores = [], []
    for number, item in enumerate(value, start=1):
        team = _object(item, f"Team {number}")
        name = team.get("name", f"Team {number}")
        if not isinstance(name, str) or not name.strip():
            raise InputError(f"Team {number}: 'name' must be text")
        fields = {k: v for k, v in team.items() if k != "score_before"}
        sides.append(read_side(fields, name, number))
        before = team.get("score_before", 0)
        befores.append(read_points(before, f"Team {name}: 'score_before'"))
    return team_hands(sides, befores, table_format)


def team_hands(
    sides: Sequence[SideEntry], befores: Sequence[Fraction], table_format: TableFormat | None
) -> list[TeamHand]:
    """The sides of one hand as the engine reads them, each with its score before the hand:
    their cards read from the text the players wrote."""
    _count_teams(len(sides))
    most = MOST_CARDS if table_format is None else table_format.cards
    teams = [_team_hand(side, before, most) for side, before in zip(sides, befores, strict=True)]
    seen: set[str] = set()  # a set: list.count in a loop was quadratic in the teams
    for team in teams:
        if team.name in seen:
            raise InputError(f"Two teams are both named {show(team.name)}: give each its own name")
        seen.add(team.name)
    # The opening is part of the melds, so it is not counted twice.
    total = sum(
        len(group)
        for t in teams
        for group in (*t.melds, *(t.hands or ()), t.biribaki_unplayed or ())
    )
    if total > most:
        raise InputError(too_many_cards("The hand", total, most))
    return teams


def _count_teams(count: int) -> None:
    if count > MAX_TEAMS:
        raise InputError(f"'teams' lists {count} teams; a hand has at most {MAX_TEAMS}")


def read_side(
    team: Mapping[str, Any], name: str, number: int, players: tuple[int, ...] = ()
) -> SideEntry:
    """Side `number`'s fields as JSON gives them (its `name` and `players` already read),
    each checked for what it must be; its cards stay text, read when the hand is scored."""
    if len(name) > MAX_NAME:
        raise InputError(f"Team {number}: 'name' may hold at most {MAX_NAME} characters")
    where = f"Team {name}"
    unknown = sorted(set(team) - _SIDE_FIELDS)
    if unknown:
        raise InputError(f"{where}: {show(unknown[0])} is not a field of a team")
    melds = team.get("melds", [])
    if not isinstance(melds, list):
        raise InputError(f"{where}: 'melds' must be a list of melds, one text each")
    if len(melds) > MAX_MELDS:
        raise InputError(
            f"{where}: 'melds' lists {len(melds)} melds; a team has at most {MAX_MELDS}"
        )
    hands = team.get("hands")
    hand_points = team.get("hand_points")
    if hands is not None and hand_points is not None:
        raise InputError(f"{where}: give either 'hands' or 'hand_points', not both")
    if hands is not None and not isinstance(hands, list):
        raise InputError(f"{where}: 'hands' must be a list with the cards of each player's hand")
    if hands is not None and len(hands) > MAX_TEAMS:
        raise InputError(
            f"{where}: 'hands' lists {len(hands)} hands; a team has at most {MAX_TEAMS} players"
        )
    opening = team.get("opening")
    opening_melds = _opening_melds(team.get("opening_melds"), len(melds), where)
    if opening is not None and opening_melds is not None:
        raise InputError(
            f"{where}: give the opening as 'opening' cards or as 'opening_melds', not both"
        )
    unplayed = team.get("biribaki_unplayed")
    return SideEntry(
        name=name,
        players=players,
        melds=tuple(_card_text(m, f"{where}, meld {i}") for i, m in enumerate(melds, 1)),
        hands=None
        if hands is None
        else tuple(_card_text(h, f"{where}, hand {i}") for i, h in enumerate(hands, 1)),
        hand_points=_whole(hand_points, f"{where}: 'hand_points'", MAX_HAND_POINTS),
        went_out=_flag(team.get("went_out", False), f"{where}: 'went_out'"),
        took_biribaki=_flag(team.get("took_biribaki", False), f"{where}: 'took_biribaki'"),
        opening=None if opening is None else _card_text(opening, f"{where}, opening"),
        opening_melds=opening_melds,
        cut=_cut(team.get("cut"), where),
        failed_openings=_whole(
            team.get("failed_openings"), f"{where}: 'failed_openings'", MAX_FAILED_OPENINGS
        ),
        biribaki_unplayed=None
        if unplayed is None
        else _card_text(unplayed, f"{where}, biribaki_unplayed"),
    )


def _card_text(value: Any, what: str) -> str:
    """Cards as the players wrote them: text, or a list of card tokens (joined into text)."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, list) and all(isinstance(item, str) for item in value):
        text = " ".join(value)
    else:
        raise InputError(f'{what} must be cards as text, such as "3H 4H 5H", not {_short(value)}')
    if len(text) > MAX_CARD_TEXT:  # the text is stored with the hand as it was written
        raise InputError(f"{what} may be at most {MAX_CARD_TEXT} characters of cards")
    return text


def _team_hand(side: SideEntry, score_before: Fraction, most: int) -> TeamHand:
    where = f"Team {side.name}"
    return TeamHand(
        name=side.name,
        melds=tuple(
            read_cards(m, f"{where}, meld {i}", required=True, allow_empty=False, most=most)
            for i, m in enumerate(side.melds, 1)
        ),
        hands=None
        if side.hands is None
        else tuple(
            read_cards(h, f"{where}, hand {i}", True, most=most)
            for i, h in enumerate(side.hands, 1)
        ),
        hand_points=side.hand_points,
        went_out=side.went_out,
        took_biribaki=side.took_biribaki,
        score_before=score_before,
        opening=None
        if side.opening is None
        else read_cards(side.opening, f"{where}, opening", True, allow_empty=False, most=most),
        opening_melds=side.opening_melds,
        cut=side.cut,
        failed_openings=side.failed_openings or 0,
        biribaki_unplayed=None
        if side.biribaki_unplayed is None
        else read_cards(side.biribaki_unplayed, f"{where}, biribaki_unplayed", True, most=most),
    )


def _opening_melds(value: Any, count: int, where: str) -> tuple[int, ...] | None:
    """Which melds (indexes into 'melds', from 0) were the opening; [] or null: not marked."""
    if value is None:
        return None
    if not isinstance(value, list) or any(
        isinstance(i, bool) or not isinstance(i, int) for i in value
    ):
        raise InputError(
            f"{where}: 'opening_melds' must be a list of meld indexes (from 0), "
            f"such as [0, 2], not {show(value)}"
        )
    for i in value:
        if not 0 <= i < count:
            held = f"indexes 0 to {count - 1}" if count else "no meld"
            raise InputError(f"{where}: 'opening_melds' names meld {i}, but 'melds' has {held}")
    if len(set(value)) != len(value):
        raise InputError(f"{where}: 'opening_melds' names a meld twice: {show(value)}")
    return tuple(value) or None


def read_points(value: Any, what: str) -> Fraction:
    """A score: a whole number, or exact text for a share such as ``"1252½"`` or ``"2505/2"``."""
    points: Fraction | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        points = Fraction(value)
    elif isinstance(value, str):
        try:
            points = parse_points(value)
        except (ValueError, ZeroDivisionError):
            points = None
    if points is None or abs(points) > _MAX_POINTS:
        raise InputError(
            f'{what} must be a whole number or exact text like "1252½", from -{_MAX_POINTS} '
            f"to {_MAX_POINTS}, not {_short(value)}"
        )
    return points


def _whole(value: Any, what: str, most: int) -> int | None:
    """A whole number from 0 to `most`: larger ones overflow the database's BIGINT."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise InputError(f"{what} must be a whole number from 0 to {most}, not {_short(value)}")
    return value


def _short(value: Any) -> str:
    """A value for a message, cut short: a number of 4,000 digits is no message."""
    text = show(value) if not isinstance(value, int) or abs(value) < 10**30 else "a huge number"
    return text if len(text) <= 40 else text[:39] + "…"


def _flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{what} must be true or false, not {show(value)}")
    return value


def _cut(value: Any, where: str) -> Cut | None:
    if value is None:
        return None
    try:
        return Cut(value)
    except ValueError:
        raise InputError(
            f'{where}: \'cut\' cannot be {show(value)}: use "exact", "off_by_one" or null'
        ) from None


def _object(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InputError(f"{what} must be a JSON object")
    return value


# --- answering -------------------------------------------------------------------------------


def verdict_json(verdict: MeldVerdict) -> dict[str, Any]:
    return {
        "legal": verdict.legal,
        "kind": None if verdict.kind is None else verdict.kind.value,
        "clean": verdict.clean,
        "biriba": verdict.biriba,
        "size": verdict.size,
        "card_points": verdict.card_points,
        "bonus": verdict.bonus,
        "problems": list(verdict.problems),
        "semiclean": verdict.semiclean,
        "full": verdict.full,
        "kozi": verdict.kozi,
        "suit": None if verdict.suit is None else verdict.suit.value,
        "bonus_label": verdict.bonus_label,
        "name": verdict.name,
        "cards": " ".join(c.code for c in verdict.cards),
        "wilds": [
            {
                "card": p.card.code,
                "stands_for": _stands_for(verdict, p),
            }
            for p in verdict.layout
            if p.wild
        ],
    }


def _stands_for(verdict: MeldVerdict, placed: Any) -> str | None:
    card = verdict.stands_for(placed)
    if card is not None:
        return card.code
    return None if placed.as_rank is None else placed.as_rank.value


def hand_json(hand: HandScore) -> dict[str, Any]:
    return {
        "legal": hand.legal,
        "problems": list(hand.problems),
        "teams": [
            {
                "name": team.name,
                "score": team.score,
                "lines": [{"label": line.label, "points": line.points} for line in team.lines],
                "problems": list(team.problems),
                "opening_required": team.opening_required,
                "opening": team.opening_text,
                "opening_points": team.opening_points,
                "melds": [verdict_json(v) for v in team.melds],
            }
            for team in hand.teams
        ],
    }
