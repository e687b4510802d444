"""Where a refused hand's problems are on its form: each problem with the id of the field to
fix it in, so the page's banner links every problem to its field, the page opens at the
first one, and each field at fault (and the line that failed under it: a meld's verdict, a
team's opening line) is marked for the eye and for a screen reader.

The engine words its problems for people; which field one is about is read from the message
it keeps beside its words (its message id and values, `ScoredHand.words`), from the form's
own record of its errors (`HandForm.error_fields`), or, for a card the reader could not
read, by reading each card field again. A problem that is about no one field (the table
format's count of sides) is named in the banner without a link.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from markupsafe import Markup, escape

from scorekeeper.match import ScoredHand
from scorekeeper.play.hand_forms import HandForm
from scorekeeper.rules.cards import JOKER, Card, format_cards, parse_cards

#: The engine's messages by the field they are about, by the start of their message id.
_MELD = "The meld {cards} of {team} is not legal."
_LOCKOUT = "The meld {cards} of {team} uses the wild card"
_GONE_OUT = ("{team} went out without", "Only one side can go out")
_CUT = ("{team} claims ", "Only the side that cut")
_FAILED = "{team} lists failed opening attempts"
_OPENING = (
    "The opening of {team}",
    "The first meld of {team}",
    "{team} needs {needed} to open",
    "An opening meld is given for {team}",
)
_DECK = ("{card} appears {times} times", "jokers appear {times} times")


@dataclass(frozen=True, slots=True)
class Pointed:
    """One problem as the banner names it: its words, the id of its field (None: no one
    field), the id of the line that failed with it, and its own id in the banner."""

    text: str
    field: str | None
    line: str | None
    id: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused hand's problems, pointed at their fields (empty when nothing was refused)."""

    said: tuple[Pointed, ...] = ()  # the form's errors: sentences of their own in the banner
    problems: tuple[Pointed, ...] = ()  # the engine's problems: the banner's list
    failed_lines: frozenset[str] = frozenset()  # ids of the lines marked as failed
    _marks: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    @property
    def first(self) -> str | None:
        """The field the page opens at: the first problem's that has one."""
        return next((p.field for p in (*self.said, *self.problems) if p.field), None)

    def attrs(self, field_id: str) -> Markup:
        """The attributes that mark the field `field_id` as at fault ("" if it is not):
        aria-invalid, and aria-describedby naming the line that failed and each problem."""
        described = self._marks.get(field_id)
        if not described:
            return Markup("")
        ids = " ".join(described)
        return Markup(' aria-invalid="true" aria-describedby="{}" data-problem-mark').format(
            escape(ids)
        )

    def failed(self, line_id: str) -> bool:
        return line_id in self.failed_lines


def refusal(form: HandForm, preview: ScoredHand | None) -> Refusal:
    """Where the problems of a refused `form` are: its errors, and the engine's problems of
    the hand as it would have been scored (`preview`, None where it could not be)."""
    fields = _Fields(form)
    said = [
        Pointed(text, fields.of_error(text), None, f"hand-error-{n}")
        for n, text in enumerate(form.errors, 1)
    ]
    problems = []
    if preview is not None:
        for n, (text, where) in enumerate(_problems(preview, fields), 1):
            problems.append(Pointed(text, where[0], where[1], f"hand-problem-{n}"))
    marks: dict[str, list[str]] = {}
    for one in (*said, *problems):
        if one.field:
            ids = marks.setdefault(one.field, [])
            ids += [i for i in (one.line, one.id) if i and i not in ids]
    lines = frozenset(p.line for p in problems if p.line)
    return Refusal(tuple(said), tuple(problems), lines, {k: tuple(v) for k, v in marks.items()})


# --- the form's fields ------------------------------------------------------------------------


class _Fields:
    """The hand form's fields as the page draws them: each side's melds (those with cards
    first, as `SideFields.meld_rows` lists them), and every card field in the order of the
    entry (each side's melds, its players' hands, its unplayed biribaki)."""

    def __init__(self, form: HandForm) -> None:
        self.form = form
        self.melds = [[m for m in side.melds if m.strip()] for side in form.sides]

    def meld(self, side: int, index: int) -> str:
        return f"s{side}-meld-{index + 1}"

    def first_meld(self, side: int) -> str:
        return self.meld(side, 0)

    def cards(self) -> Iterator[tuple[str, str]]:
        form = self.form
        for i, side in enumerate(form.sides):
            for k, meld in enumerate(self.melds[i]):
                yield self.meld(i, k), meld
            for seat in form.members(i):
                yield f"p{seat.id}-hand", form.hand_of.get(seat.id, "")
            if side.opening.strip():
                yield f"s{i}-opening", side.opening
            yield f"s{i}-unplayed", side.unplayed

    def of_error(self, error: str) -> str | None:
        """The field one of the form's errors is about: as the form recorded it, or the card
        field the reader could not read."""
        return self.form.error_fields.get(error) or self.unreadable(error)

    def unreadable(self, problem: str) -> str | None:
        """The card field whose cards cannot be read for the reason `problem` gives."""
        for field_id, text in self.cards():
            try:
                parse_cards(text)
            except ValueError as error:
                if str(error) and str(error) in problem:
                    return field_id
        return None

    def too_many(self, card: Card, limit: int) -> str | None:
        """The field where `card` is entered once more than the decks hold."""
        seen = 0
        for field_id, text in self.cards():
            try:
                seen += Counter(parse_cards(text))[card]
            except ValueError:
                continue
            if seen > limit:
                return field_id
        return None

    def opening(self, side: int) -> str:
        """The field an opening's problem is fixed in: its first marked meld, its cards, or
        the side's first meld."""
        fields = self.form.sides[side]
        if fields.opening_melds and fields.opening_melds[0] < len(self.melds[side]):
            return self.meld(side, fields.opening_melds[0])
        if fields.opening.strip():
            return f"s{side}-opening"
        return self.first_meld(side)


# --- the engine's problems --------------------------------------------------------------------


def _problems(
    hand: ScoredHand, fields: _Fields
) -> Iterator[tuple[str, tuple[str | None, str | None]]]:
    """Each problem of `hand`, in its order, with its field and failed line."""
    words: Mapping[str, Any] = hand.words or {}
    said_teams: Sequence[Any] = words.get("teams") or [{} for _team in hand.teams]
    own = len(hand.problems) - sum(len(team.problems) for team in hand.teams)
    hand_words = list(words.get("problems") or [])[:own]
    for n, text in enumerate(hand.problems[:own]):
        data = hand_words[n] if n < len(hand_words) else None
        yield text, _hand_field(hand, data, fields)
    for i, team in enumerate(hand.teams):
        said = said_teams[i] if i < len(said_teams) else {}
        team_words = list(said.get("problems") or []) if isinstance(said, Mapping) else []
        illegal = iter(k for k, meld in enumerate(team.melds) if not meld.legal)
        for n, text in enumerate(team.problems):
            data = team_words[n] if n < len(team_words) else None
            yield text, _side_field(hand, i, _msg(data), data, illegal, fields)


def _msg(data: Any) -> str:
    """A message's id, from its data (a joined message: its first part's)."""
    if isinstance(data, Mapping) and "join" in data:
        parts = data.get("parts") or [None]
        return _msg(parts[0])
    if isinstance(data, Mapping):
        return str(data.get("msg", ""))
    return ""


def _values(data: Any) -> Mapping[str, Any]:
    values = data.get("values") if isinstance(data, Mapping) else None
    return values if isinstance(values, Mapping) else {}


def _side_field(
    hand: ScoredHand,
    i: int,
    msg: str,
    data: Any,
    illegal: Iterator[int],
    fields: _Fields,
) -> tuple[str | None, str | None]:
    if msg.startswith(_MELD):
        k = next(illegal, None)
        field_id = fields.meld(i, k) if k is not None else fields.first_meld(i)
        return field_id, f"{field_id}-verdict" if k is not None else None
    if msg.startswith(_LOCKOUT):
        cards = str(_values(data).get("cards", ""))
        for k, meld in enumerate(hand.teams[i].melds):
            if format_cards(parse_cards(str(meld.verdict.get("cards", "")))) == cards:
                return fields.meld(i, k), None
        return fields.first_meld(i), None
    if msg.startswith(_GONE_OUT):
        return f"s{i}-out", None
    if msg.startswith(_CUT):
        return f"s{i}-cut", None
    if msg.startswith(_FAILED):
        return (f"s{i}-failed" if fields.form.layout.failed else fields.first_meld(i)), None
    if msg.startswith(_OPENING):
        return fields.opening(i), f"side-{i}-opening"
    return fields.first_meld(i), None


def _hand_field(hand: ScoredHand, data: Any, fields: _Fields) -> tuple[str | None, str | None]:
    """The field of one of the hand's own problems (two sides gone out, two cuts, a card
    entered too often); None for the table's count of sides."""
    msg = _msg(data)
    sides = fields.form.sides
    if msg.startswith(_GONE_OUT):
        gone = [i for i, side in enumerate(sides) if side.went_out]
        return (f"s{gone[-1]}-out" if gone else None), None
    if msg.startswith(_CUT):
        cut = [i for i, side in enumerate(sides) if side.cut]
        return (f"s{cut[-1]}-cut" if cut else None), None
    if msg.startswith(_DECK):
        values = _values(data)
        limit = values.get("limit")
        card = JOKER if msg.startswith("jokers") else _card(values.get("card"))
        if card is not None and isinstance(limit, int):
            return fields.too_many(card, limit), None
    return None, None


def _card(label: Any) -> Card | None:
    try:
        cards = parse_cards(str(label or ""))
    except ValueError:
        return None
    return cards[0] if len(cards) == 1 else None
