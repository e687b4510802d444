"""The one reader of a hand's entry where it comes in: the JSON API's body, the hand form
(which builds the same JSON shape from its fields), a club file's hands and the referee's
`POST /api/v1/hands/score`. Strict: every field is checked for what it must be, every card
is read, and every problem is collected (not only the first), each a sentence in the
reader's language naming the side, meld or field at fault.

A stored entry is read by `HandEntry.from_json` instead (lenient: stored rows were checked
when they came in, and old ones are shown as they stand).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scorekeeper.errors import Invalid
from scorekeeper.match.bounds import (
    MAX_CARD_TEXT,
    MAX_FAILED_OPENINGS,
    MAX_HAND_POINTS,
    MAX_MELDS,
    MAX_NAME,
    MAX_POINTS,
    MAX_TEAMS,
)
from scorekeeper.match.entry import HandEntry, SideEntry
from scorekeeper.match.seating import Seating
from scorekeeper.quote import short, show
from scorekeeper.rules.cards import Card, Suit, parse_cards
from scorekeeper.rules.formats import MOST_CARDS
from scorekeeper.rules.points import parse_points
from scorekeeper.rules.scoring import Cut
from scorekeeper.web.gettext import gettext as _

# Labels of what a problem would be about, made for every field and formatted only when a
# problem names one: translating them all at once was a sixth of a 600-hand import.
from scorekeeper.web.gettext import lazy_gettext as _l

#: A hand's fields, and a side's (its "name" and "players" are read with the seating).
HAND_FIELDS = frozenset({"kozi", "teams"})
SIDE_FIELDS = frozenset(
    {
        "name",
        "players",
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


class EntryRefused(Invalid, ValueError):
    """An entry with problems: each names what is wrong; nothing was read. (A ValueError
    too, as every unreadable request is to the referee's callers.)"""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = list(problems)

    def details(self) -> dict[str, object]:
        """Every problem, where there are several ("error" joins them)."""
        return {"errors": self.problems} if len(self.problems) > 1 else {}


def read_hand(data: Any, seating: Seating) -> HandEntry:
    """A hand as JSON gives it (`{"kozi": …, "teams": [{"name": …, "melds": …}, …]}`, the
    body of POST /api/v1/matches/<id>/hands without its reason), its sides seated at the
    table of `seating`; `EntryRefused` lists every problem."""
    reader = _Reader(seating.cards)
    entry = reader.hand(data, seating)
    reader.done()
    assert entry is not None  # no problem: every part was read
    return entry


def read_teams(value: Any, most: int = MOST_CARDS) -> tuple[list[SideEntry], list[Fraction]]:
    """The teams of `POST /api/v1/hands/score`: each side's entry (named by its "name", no
    players) and its score before the hand; at most `most` cards in all."""
    reader = _Reader(most)
    sides: list[SideEntry] = []
    befores: list[Fraction] = []
    if not isinstance(value, list) or not value:
        reader.add(_("'teams' must be a list with one object for each team"))
    elif len(value) > MAX_TEAMS:
        reader.add(reader.too_many_teams(len(value)))
    else:
        for number, item in enumerate(value, start=1):
            if not isinstance(item, Mapping):
                reader.add(_("%(what)s must be a JSON object", what=_team(number)))
                continue
            name = item.get("name", _team(number))
            if not _is_name(name):
                reader.add(_("%(team)s: 'name' must be text", team=_team(number)))
                continue
            fields = {k: v for k, v in item.items() if k not in {"score_before", "players"}}
            side = reader.side(fields, name, number, ())
            before = _points(
                item.get("score_before", 0), _("Team %(name)s: 'score_before'", name=name), reader
            )
            if side is not None and before is not None:
                sides.append(side)
                befores.append(before)
        reader.distinct(sides)
        reader.count_cards()
    reader.done()
    return sides, befores


def read_points(value: Any, what: str) -> Fraction:
    """A score: a whole number, or exact text for a share such as ``"1252½"`` or
    ``"2505/2"``; `EntryRefused` otherwise."""
    reader = _Reader(MOST_CARDS)
    points = _points(value, what, reader)
    reader.done()
    assert points is not None
    return points


def _points(value: Any, what: str, reader: _Reader) -> Fraction | None:
    points: Fraction | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        points = Fraction(value)
    elif isinstance(value, str):
        try:
            points = parse_points(value)
        except (ValueError, ZeroDivisionError):
            points = None
    if points is None or abs(points) > MAX_POINTS:
        problem = _(
            '%(what)s must be a whole number or exact text like "1252½", from -%(most)d '
            "to %(most)d, not %(value)s",
            what=what,
            most=MAX_POINTS,
            value=short(value),
        )
        reader.add(problem)
        return None
    return points


def read_suit(value: Any) -> Suit | None:
    """The kózi suit: a letter or symbol (``"H"``, ``"♥"``), or null/"" for none."""
    reader = _Reader(MOST_CARDS)
    suit = reader.suit(value)
    reader.done()
    return suit


def read_cards(
    value: Any, what: str, required: bool = False, allow_empty: bool = True, most: int = MOST_CARDS
) -> tuple[Card, ...]:
    """Cards as notation text, or as a list of card tokens; never more than `most` (the
    cards at the table), so judging them takes a bounded time."""
    reader = _Reader(most)
    cards = () if value is None and not required else reader.cards(value, what, allow_empty)
    reader.done()
    return cards or ()


def too_many_cards(what: str, count: int, most: int) -> str:
    return _(
        "%(what)s holds %(count)d cards, but the decks at this table hold only %(most)d "
        "(the largest table plays with %(largest)d), so no meld or hand can hold more",
        what=what,
        count=count,
        most=most,
        largest=MOST_CARDS,
    )


def _team(number: int) -> str:
    return _("Team %(number)d", number=number)


def _is_name(name: Any) -> bool:
    return isinstance(name, str) and bool(name.strip())


@dataclass
class _Reader:
    """Reads one entry, collecting every problem."""

    most: int  # the cards at the table
    problems: list[str] = field(default_factory=list)
    total: int = 0  # the cards of the melds, hands and pots read so far

    def add(self, problem: str) -> None:
        self.problems.append(problem)

    def done(self) -> None:
        if self.problems:
            raise EntryRefused(self.problems)

    def too_many_teams(self, count: int) -> str:
        return _(
            "'teams' lists %(count)d teams; a hand has at most %(most)d",
            count=count,
            most=MAX_TEAMS,
        )

    # --- a hand at a match's table ---------------------------------------------------------

    def hand(self, data: Any, seating: Seating) -> HandEntry | None:
        if not isinstance(data, Mapping):
            self.add(_("A hand must be a JSON object with 'kozi' and 'teams'."))
            return None
        for key in sorted(set(data) - HAND_FIELDS, key=str):
            self.add(_("%(field)s is not a field of a hand.", field=show(key)))
        kozi = self.suit(data.get("kozi"))
        teams = data.get("teams")
        if not isinstance(teams, list) or not teams:
            self.add(_("'teams' must list every side of the hand."))
            return None
        if len(teams) > MAX_TEAMS:
            self.add(self.too_many_teams(len(teams)))
            return None
        readable = True
        for i, team in enumerate(teams, 1):
            if not isinstance(team, Mapping):
                self.add(_("Side %(number)d must be an object.", number=i))
                readable = False
            elif "score_before" in team:
                self.add(_("'score_before' comes from the match itself; leave it out."))
        if not readable:
            return None
        seats, problems = seating.seat([(team.get("name"), team.get("players")) for team in teams])
        self.problems.extend(problems)
        sides = []
        for number, team in enumerate(teams, 1):
            if seats:
                name, players = seats[number - 1]
            else:  # not seated (said above): its other fields are still read, by its number
                given = team.get("name")
                name, players = (given if _is_name(given) else str(number)), ()
            if not _is_name(name):
                self.add(_("%(team)s: 'name' must be text", team=_team(number)))
                continue
            # Its name and players are seated; a score before is refused above, once.
            fields = {k: v for k, v in team.items() if k not in {"name", "players", "score_before"}}
            sides.append(self.side(fields, name, number, players))
        read = [side for side in sides if side is not None]
        self.count_cards()
        if self.problems or not seats:
            return None
        return HandEntry(kozi, tuple(read))

    def suit(self, value: Any) -> Suit | None:
        if value is None or value == "":
            return None
        if isinstance(value, str) and len(value) <= 20:  # the entry stores it as it came
            word = value.strip().upper()
            for suit in Suit:
                if word in (suit.value, suit.symbol, suit.name):
                    return suit
        self.add(
            _(
                "'kozi' cannot be %(value)s: use S, H, D or C (or ♠ ♥ ♦ ♣), or null",
                value=short(value),
            )
        )
        return None

    # --- one side -------------------------------------------------------------------------

    def side(
        self, team: Mapping[str, Any], name: str, number: int, players: tuple[int, ...]
    ) -> SideEntry | None:
        """Side `number`'s fields as JSON gives them (its name and players already read),
        each checked for what it must be; its cards stay text, as the players wrote them.

        Each field's label (what a problem would be about) is lazy: it is made for every
        field but translated only when a problem names it (translating them all was a
        sixth of the work of a 600-hand import)."""
        before = len(self.problems)
        if len(name) > MAX_NAME:
            self.add(
                _(
                    "%(team)s: 'name' may hold at most %(most)d characters",
                    team=_team(number),
                    most=MAX_NAME,
                )
            )
            return None
        where = _("Team %(name)s", name=name)
        for key in sorted(set(team) - SIDE_FIELDS, key=str):
            self.add(
                _("%(where)s: %(field)s is not a field of a team", where=where, field=show(key))
            )
        melds = self._melds(team.get("melds", []), where)
        hands = self._hands(team.get("hands"), team.get("hand_points"), where)
        opening = team.get("opening")
        opening_melds = self._opening_melds(team.get("opening_melds"), len(melds), where)
        if opening is not None and opening_melds is not None:
            self.add(
                _(
                    "%(where)s: give the opening as 'opening' cards or as 'opening_melds', "
                    "not both",
                    where=where,
                )
            )
        unplayed = team.get("biribaki_unplayed")
        side = SideEntry(
            name=name,
            players=players,
            melds=melds,
            hands=hands,
            hand_points=self.whole(
                team.get("hand_points"),
                _l("%(where)s: 'hand_points'", where=where),
                MAX_HAND_POINTS,
            ),
            went_out=self.flag(
                team.get("went_out", False), _l("%(where)s: 'went_out'", where=where)
            ),
            took_biribaki=self.flag(
                team.get("took_biribaki", False), _l("%(where)s: 'took_biribaki'", where=where)
            ),
            opening=None
            if opening is None
            else self.card_text(
                opening, _l("%(where)s, opening", where=where), allow_empty=False, counted=False
            ),
            opening_melds=opening_melds,
            cut=self.cut(team.get("cut"), where),
            failed_openings=self.whole(
                team.get("failed_openings"),
                _l("%(where)s: 'failed_openings'", where=where),
                MAX_FAILED_OPENINGS,
            ),
            biribaki_unplayed=None
            if unplayed is None
            else self.card_text(unplayed, _l("%(where)s, biribaki_unplayed", where=where)),
        )
        return None if len(self.problems) > before else side

    def _melds(self, melds: Any, where: str) -> tuple[str, ...]:
        if not isinstance(melds, list):
            self.add(_("%(where)s: 'melds' must be a list of melds, one text each", where=where))
            return ()
        if len(melds) > MAX_MELDS:
            self.add(
                _(
                    "%(where)s: 'melds' lists %(count)d melds; a team has at most %(most)d",
                    where=where,
                    count=len(melds),
                    most=MAX_MELDS,
                )
            )
            return ()
        return tuple(
            self.card_text(m, _l("%(where)s, meld %(number)d", where=where, number=i), False)
            for i, m in enumerate(melds, 1)
        )

    def _hands(self, hands: Any, hand_points: Any, where: str) -> tuple[str, ...] | None:
        if hands is None:
            return None
        if hand_points is not None:
            self.add(_("%(where)s: give either 'hands' or 'hand_points', not both", where=where))
            return None
        if not isinstance(hands, list):
            self.add(
                _(
                    "%(where)s: 'hands' must be a list with the cards of each player's hand",
                    where=where,
                )
            )
            return None
        if len(hands) > MAX_TEAMS:
            self.add(
                _(
                    "%(where)s: 'hands' lists %(count)d hands; a team has at most %(most)d players",
                    where=where,
                    count=len(hands),
                    most=MAX_TEAMS,
                )
            )
            return None
        return tuple(
            self.card_text(h, _l("%(where)s, hand %(number)d", where=where, number=i))
            for i, h in enumerate(hands, 1)
        )

    def _opening_melds(self, value: Any, count: int, where: str) -> tuple[int, ...] | None:
        """Which melds (indexes into 'melds', from 0) were the opening; [] or null: none."""
        if value is None:
            return None
        if not isinstance(value, list) or any(
            isinstance(i, bool) or not isinstance(i, int) for i in value
        ):
            self.add(
                _(
                    "%(where)s: 'opening_melds' must be a list of meld indexes (from 0), "
                    "such as [0, 2], not %(value)s",
                    where=where,
                    value=show(value),
                )
            )
            return None
        for i in value:
            if not 0 <= i < count:
                held = _("indexes 0 to %(last)d", last=count - 1) if count else _("no meld")
                self.add(
                    _(
                        "%(where)s: 'opening_melds' names meld %(index)d, but 'melds' has %(held)s",
                        where=where,
                        index=i,
                        held=held,
                    )
                )
                return None
        if len(set(value)) != len(value):
            self.add(
                _(
                    "%(where)s: 'opening_melds' names a meld twice: %(value)s",
                    where=where,
                    value=show(value),
                )
            )
            return None
        return tuple(value) or None

    # --- values ---------------------------------------------------------------------------

    def card_text(
        self, value: Any, what: str, allow_empty: bool = True, counted: bool = True
    ) -> str:
        """Cards as the players wrote them (text, or a list of card tokens joined into
        text), checked card by card; the text is what is stored and shown back."""
        text = self._text(value, what)
        if text is None:
            return ""
        cards = self._parse(text, what, allow_empty)
        if counted and cards:
            self.total += len(cards)
        return text

    def cards(self, value: Any, what: str, allow_empty: bool = True) -> tuple[Card, ...] | None:
        text = self._text(value, what)
        return None if text is None else self._parse(text, what, allow_empty)

    def _text(self, value: Any, what: str) -> str | None:
        """Cards as text (a list of card tokens joined), no longer than a meld's text."""
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            value = " ".join(value)
        if not isinstance(value, str):
            self.add(
                _(
                    '%(what)s must be cards as text, such as "3H 4H 5H", not %(value)s',
                    what=what,
                    value=short(value),
                )
            )
            return None
        if len(value) > MAX_CARD_TEXT:
            self.add(
                _(
                    "%(what)s may be at most %(most)d characters of cards",
                    what=what,
                    most=MAX_CARD_TEXT,
                )
            )
            return None
        return value

    def _parse(self, text: str, what: str, allow_empty: bool) -> tuple[Card, ...] | None:
        try:
            cards = parse_cards(text)
        except ValueError as error:
            self.add(_("%(what)s: %(problem)s", what=what, problem=str(error)))
            return None
        if not cards and not allow_empty:
            self.add(_("%(what)s holds no card", what=what))
            return None
        if len(cards) > self.most:
            self.add(too_many_cards(what, len(cards), self.most))
            return None
        return cards

    def whole(self, value: Any, what: str, most: int) -> int | None:
        """A whole number from 0 to `most`: larger ones overflow the database's BIGINT."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
            self.add(
                _(
                    "%(what)s must be a whole number from 0 to %(most)d, not %(value)s",
                    what=what,
                    most=most,
                    value=short(value),
                )
            )
            return None
        return value

    def flag(self, value: Any, what: str) -> bool:
        if not isinstance(value, bool):
            self.add(
                _("%(what)s must be true or false, not %(value)s", what=what, value=show(value))
            )
            return False
        return value

    def cut(self, value: Any, where: str) -> Cut | None:
        if value is None:
            return None
        try:
            return Cut(value)
        except ValueError:
            self.add(
                _(
                    '%(where)s: \'cut\' cannot be %(value)s: use "exact", "off_by_one" or null',
                    where=where,
                    value=show(value),
                )
            )
            return None

    # --- the sides together ---------------------------------------------------------------

    def distinct(self, sides: Sequence[SideEntry]) -> None:
        seen: set[str] = set()  # a set: list.count in a loop was quadratic in the teams
        for side in sides:
            if side.name in seen:
                self.add(
                    _(
                        "Two teams are both named %(name)s: give each its own name",
                        name=show(side.name),
                    )
                )
            seen.add(side.name)

    def count_cards(self) -> None:
        """All the cards of the hand together within the cards at the table, counted as they
        were read (the opening is part of the melds, so it is not counted twice)."""
        if self.total > self.most:
            self.add(too_many_cards(_("The hand"), self.total, self.most))
