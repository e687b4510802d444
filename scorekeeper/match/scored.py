"""A scored hand, typed: what the rules engine made of one entry (each side's score, its
itemised lines, its problems, its meld verdicts), and the one codec for it as it is stored
(`Hand.result`, `HandVersion.result`, a club file) and as the JSON API gives it.

A result is stored in English (one canonical text for the API, the history and the export);
beside it, under "words", each of its sentences and labels keeps the engine's message data
(`scorekeeper.rules.i18n.Message.data`), so `worded` puts it into any language without
scoring the hand again. This is the only module that reads a stored result by its keys.

Each hand also keeps its tally (`Hand.tally`): the kózi and each side's name, players and
score, the little the scoreboard, its picture and the match totals need of every hand, so
a long match's pages read a few bytes a hand instead of every line and meld verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

from scorekeeper.errors import Invalid
from scorekeeper.match.bounds import MAX_MELDS, MAX_NAME, MAX_TEAMS
from scorekeeper.match.entry import HandEntry
from scorekeeper.rules.i18n import data_of, render, translating
from scorekeeper.rules.match import PlayedHand, Side
from scorekeeper.rules.melds import verdict_json
from scorekeeper.rules.points import parse_points
from scorekeeper.rules.scoring import HandScore
from scorekeeper.values import (
    need_between,
    need_flag,
    need_list,
    need_object,
    need_text,
)
from scorekeeper.web.gettext import gettext as _

#: A result's texts under "words": the same shape as the result, the texts only.
WORDS = "words"
#: A score or a line of one hand in a file: far above what any house rule gives, far below
#: BIGINT.
MOST_POINTS = 10**9
#: A score line's label or a problem, as the engine words them (a sentence or two).
MOST_WORDS = 1000


@dataclass(frozen=True, slots=True)
class ScoredLine:
    label: str
    points: int


@dataclass(frozen=True, slots=True)
class ScoredMeld:
    """One meld's verdict, as the referee API gives it (`verdict_json`): the pages word it
    as the meld checker does, the stats count its biribas."""

    verdict: Mapping[str, Any]

    @property
    def legal(self) -> bool:
        return bool(self.verdict.get("legal"))

    @property
    def biriba(self) -> bool:
        return bool(self.verdict.get("biriba"))

    @property
    def clean(self) -> bool:
        return bool(self.verdict.get("clean"))

    @property
    def full_run(self) -> bool:
        return bool(self.verdict.get("full")) and self.verdict.get("kind") == "run"


@dataclass(frozen=True, slots=True)
class ScoredSide:
    name: str
    score: int
    players: tuple[int, ...]  # in seat order
    team: str | None  # the match team, in the formats with fixed teams
    lines: tuple[ScoredLine, ...]
    problems: tuple[str, ...]
    opening_required: int | None
    opening: str | None  # what its opening needed, in words
    opening_points: int | None  # the card points of the opening it gave (None: not given)
    melds: tuple[ScoredMeld, ...]


@dataclass(frozen=True, slots=True)
class ScoredHand:
    teams: tuple[ScoredSide, ...]
    problems: tuple[str, ...]  # the hand's own, then each side's (every one names its side)
    words: Mapping[str, Any] | None = None  # the message data of every text (see above)

    @property
    def legal(self) -> bool:
        return not self.problems

    @classmethod
    def of(cls, score: HandScore, entry: HandEntry, team_credit: bool) -> ScoredHand:
        """The engine's score of `entry` (its texts still the engine's messages, which keep
        their data as words)."""
        teams = tuple(
            ScoredSide(
                name=team.name,
                score=team.score,
                players=side.players,
                team=side.name if team_credit else None,
                lines=tuple(ScoredLine(line.label, line.points) for line in team.lines),
                problems=team.problems,
                opening_required=team.opening_required,
                opening=team.opening_text,
                opening_points=team.opening_points,
                melds=tuple(ScoredMeld(verdict_json(v)) for v in team.melds),
            )
            for team, side in zip(score.teams, entry.teams, strict=True)
        )
        hand = cls(teams, score.problems)
        return replace(hand, words=_words_of(hand))

    # --- the stored JSON ------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The result as it is stored: the API's shape, with its words beside."""
        stored = self.api_json()
        if self.words is not None:
            stored[WORDS] = self.words
        return stored

    def api_json(self) -> dict[str, Any]:
        """The result as the JSON API gives it: legal, problems and each side."""
        return {"legal": self.legal, "problems": list(self.problems), "teams": self.teams_json()}

    def teams_json(self) -> list[dict[str, Any]]:
        teams = []
        for side in self.teams:
            team: dict[str, Any] = {
                "name": side.name,
                "score": side.score,
                "lines": [{"label": ln.label, "points": ln.points} for ln in side.lines],
                "problems": list(side.problems),
                "opening_required": side.opening_required,
                "opening": side.opening,
                "opening_points": side.opening_points,
                "melds": [dict(m.verdict) for m in side.melds],
                "players": list(side.players),
            }
            if side.team is not None:
                team["team"] = side.team
            teams.append(team)
        return teams

    @classmethod
    def from_json(cls, stored: Mapping[str, Any]) -> ScoredHand:
        """A stored result. Stored results were checked when they were saved (or imported);
        older rows may lack a field, which reads as not given."""
        teams = tuple(_side(team) for team in _listed(stored.get("teams")) if _is_map(team))
        words = stored.get(WORDS)
        return cls(
            teams=teams,
            problems=tuple(str(p) for p in _listed(stored.get("problems"))),
            words=words if isinstance(words, Mapping) else None,
        )

    # --- words ----------------------------------------------------------------------------

    def for_reader(self) -> ScoredHand:
        """This hand in the reader's language: as it is in English, else worded from its
        words (as it is where it has none that fit)."""
        if not translating():
            return self
        return self.worded() or self

    def worded(self) -> ScoredHand | None:
        """This hand with its texts in the current language, from its words alone; None if
        it has none that fit (a result stored before it had them, an edited file)."""
        if self.words is None:
            return None
        try:
            return _worded(self, self.words)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return None

    # --- what the match counts ------------------------------------------------------------

    def played(self) -> PlayedHand:
        """The hand as the match engine counts it."""
        return PlayedHand(
            tuple(Side(tuple(str(p) for p in s.players), s.score, s.team) for s in self.teams)
        )


class TallySide(NamedTuple):
    """One side of a tally (a named tuple: a long match's pages read hundreds of them)."""

    name: str
    players: tuple[int, ...]
    team: str | None
    score: int


@dataclass(frozen=True, slots=True)
class Tally:
    """The little of a hand that a scoreboard line, the match totals and the score picture
    need: its kózi, each side's name, players and score, and how many problems it had."""

    kozi: str | None
    sides: tuple[TallySide, ...]
    problems: int

    @classmethod
    def of(cls, entry: HandEntry, hand: ScoredHand) -> Tally:
        return cls(
            kozi=None if entry.kozi is None else entry.kozi.value,
            sides=tuple(TallySide(s.name, s.players, s.team, s.score) for s in hand.teams),
            problems=len(hand.problems),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kozi": self.kozi,
            "sides": [
                {"name": s.name, "players": list(s.players), "team": s.team, "score": s.score}
                for s in self.sides
            ],
            "problems": self.problems,
        }

    @classmethod
    def from_json(cls, stored: Mapping[str, Any]) -> Tally:
        """A stored tally. Tallies are written by this module (and migration 0009) in one
        shape, read as it is; anything else is read field by field."""
        try:
            return cls(
                stored["kozi"],
                tuple(
                    TallySide(s["name"], tuple(s["players"]), s["team"], s["score"])
                    for s in stored["sides"]
                ),
                stored["problems"],
            )
        except (KeyError, TypeError):
            return cls._read(stored)

    @classmethod
    def _read(cls, stored: Mapping[str, Any]) -> Tally:
        return cls(
            kozi=stored.get("kozi") if isinstance(stored.get("kozi"), str) else None,
            sides=tuple(
                TallySide(
                    name=str(s.get("name") or ""),
                    players=_ids(s.get("players")),
                    team=s.get("team") if isinstance(s.get("team"), str) else None,
                    score=_score(s.get("score")),
                )
                for s in _listed(stored.get("sides"))
                if _is_map(s)
            ),
            problems=_score(stored.get("problems")),
        )

    def played(self) -> PlayedHand:
        return PlayedHand(
            tuple(Side(tuple(str(p) for p in s.players), s.score, s.team) for s in self.sides)
        )


def tally_of(entry: Mapping[str, Any], result: Mapping[str, Any]) -> dict[str, Any]:
    """The tally of a hand stored as `entry` and `result` (rows made before tallies were)."""
    return Tally.of(HandEntry.from_json(entry), ScoredHand.from_json(result)).to_json()


# --- a stored result from a file -----------------------------------------------------------


def check_result(value: Any, where: str, seats: set[int], teams: set[str] | None) -> None:
    """A stored result: whether the hand was legal, its problems, and each side's name,
    score and score lines (the rest of what the engine said is kept as it is)."""
    result = need_object(value, where)
    need_flag(result.get("legal"), f"{where}.legal")
    _check_texts(result.get("problems"), f"{where}.problems")
    sides = need_list(result.get("teams"), f"{where}.teams")
    if len(sides) > MAX_TEAMS:
        raise Invalid(
            _(
                "%(where)s may list at most %(most)d sides.",
                where=f"{where}.teams",
                most=MAX_TEAMS,
            )
        )
    for index, item in enumerate(sides):
        at = f"{where}.teams[{index}]"
        side = need_object(item, at)
        check_side_name(side, at, None)
        if side.get("team") is not None:
            check_side_name({"name": side["team"]}, f"{at}.team", teams)
        need_between(side.get("score"), f"{at}.score", -MOST_POINTS, MOST_POINTS)
        for number, line in enumerate(need_list(side.get("lines"), f"{at}.lines")):
            row = need_object(line, f"{at}.lines[{number}]")
            need_text(row.get("label"), f"{at}.lines[{number}].label", MOST_WORDS, lines=True)
            need_between(
                row.get("points"), f"{at}.lines[{number}].points", -MOST_POINTS, MOST_POINTS
            )
        if "problems" in side:
            _check_texts(side["problems"], f"{at}.problems")
        for key in ("opening_required", "opening_points"):
            if side.get(key) is not None:
                need_between(side[key], f"{at}.{key}", -MOST_POINTS, MOST_POINTS)
        if side.get("opening") is not None:
            need_text(side["opening"], f"{at}.opening", MOST_WORDS, lines=True)
        melds = need_list(side.get("melds", []), f"{at}.melds")
        if len(melds) > MAX_MELDS:
            raise Invalid(too_many_melds(f"{at}.melds"))
        for number, meld in enumerate(melds):
            need_object(meld, f"{at}.melds[{number}]")
    check_seated(sides, where, seats, required=False)


def remap_players(stored: Mapping[str, Any], ids: Mapping[int, int]) -> dict[str, Any]:
    """A stored result or entry (from a checked file) with its sides' players' ids replaced
    by `ids`; every other field as it was."""
    teams = [
        {**team, "players": [ids[p] for p in team["players"]]} if "players" in team else team
        for team in stored.get("teams", [])
    ]
    return {**stored, "teams": teams}


def check_side_name(side: dict[str, Any], where: str, teams: set[str] | None) -> None:
    """A stored side's name (a file's): text, and where teams are fixed one of them."""
    name = need_text(side.get("name"), f"{where}.name", MAX_NAME)
    if teams is not None and name not in teams:
        raise Invalid(_("%(where)s names no team of its match.", where=f"{where}.name"))


def _check_texts(value: Any, where: str) -> None:
    for index, text in enumerate(need_list(value, where)):
        need_text(text, f"{where}[{index}]", MOST_WORDS, lines=True)


def too_many_melds(where: str) -> str:
    """The refusal of a stored side's melds past the most one side lays."""
    return _("%(where)s must be a list of at most %(most)d melds.", where=where, most=MAX_MELDS)


def check_seated(sides: list[Any], where: str, seats: set[int], required: bool) -> None:
    """Every stored side's players (a file's, entry or result) are seated in the match, and
    no one plays on two sides; `required`: every side names its players."""
    seen: set[int] = set()
    for side in sides:
        if "players" not in side and not required:
            continue
        ids = side.get("players")
        if (
            not isinstance(ids, list)
            or not ids
            or any(isinstance(p, bool) or not isinstance(p, int) or p not in seats for p in ids)
        ):
            raise Invalid(_("%(where)s names a player with no seat in its match.", where=where))
        if seen & set(ids) or len(set(ids)) != len(ids):
            raise Invalid(_("%(where)s names a player twice; each plays on one side.", where=where))
        seen.update(ids)


# --- internals ------------------------------------------------------------------------------


def _words_of(hand: ScoredHand) -> dict[str, Any]:
    """The message data of every text of a hand just scored."""
    return {
        "problems": [data_of(p) for p in hand.problems],
        "teams": [
            {
                "lines": [data_of(line.label) for line in side.lines],
                "problems": [data_of(p) for p in side.problems],
                "opening": None if side.opening is None else data_of(side.opening),
                "melds": [
                    {
                        "problems": [data_of(p) for p in meld.verdict["problems"]],
                        "bonus_label": data_of(meld.verdict["bonus_label"]),
                        "name": data_of(meld.verdict["name"]),
                    }
                    for meld in side.melds
                ],
            }
            for side in hand.teams
        ],
    }


def _worded(hand: ScoredHand, words: Mapping[str, Any]) -> ScoredHand:
    said_teams = words["teams"]
    if len(said_teams) != len(hand.teams):
        raise ValueError("the words do not match the result")
    teams = []
    for side, said in zip(hand.teams, said_teams, strict=True):
        labels = _texts(said["lines"], len(side.lines))
        if len(said["melds"]) != len(side.melds):
            raise ValueError("the words do not match the result")
        melds = tuple(
            ScoredMeld(
                {
                    **meld.verdict,
                    "problems": _texts(told["problems"], len(meld.verdict["problems"])),
                    "bonus_label": render(told["bonus_label"]),
                    "name": render(told["name"]),
                }
            )
            for meld, told in zip(side.melds, said["melds"], strict=True)
        )
        teams.append(
            replace(
                side,
                lines=tuple(
                    ScoredLine(label, ln.points)
                    for ln, label in zip(side.lines, labels, strict=True)
                ),
                problems=tuple(_texts(said["problems"], len(side.problems))),
                opening=side.opening if said.get("opening") is None else render(said["opening"]),
                melds=melds,
            )
        )
    return replace(
        hand, teams=tuple(teams), problems=tuple(_texts(words["problems"], len(hand.problems)))
    )


def _texts(data: Sequence[Any], count: int) -> list[str]:
    if len(data) != count:
        raise ValueError("the words do not match the result")
    return [render(item) for item in data]


def _side(team: Mapping[str, Any]) -> ScoredSide:
    required, points = team.get("opening_required"), team.get("opening_points")
    opening = team.get("opening")
    return ScoredSide(
        name=str(team.get("name") or ""),
        score=_score(team.get("score")),
        players=_ids(team.get("players")),
        team=team.get("team") if isinstance(team.get("team"), str) else None,
        lines=tuple(
            ScoredLine(str(line.get("label") or ""), _score(line.get("points")))
            for line in _listed(team.get("lines"))
            if _is_map(line)
        ),
        problems=tuple(str(p) for p in _listed(team.get("problems"))),
        opening_required=required if _whole(required) else None,
        opening=opening if isinstance(opening, str) else None,
        opening_points=points if _whole(points) else None,
        melds=tuple(ScoredMeld(m) for m in _listed(team.get("melds")) if _is_map(m)),
    )


def _score(value: Any) -> int:
    """A stored score: a whole number (older rows may hold exact text such as "−12")."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            points = parse_points(value)
        except (ValueError, ZeroDivisionError):
            return 0
        return int(points) if points == int(points) else int(Fraction(points))
    return 0


def _ids(value: Any) -> tuple[int, ...]:
    return tuple(p for p in _listed(value) if _whole(p))


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _is_map(value: Any) -> bool:
    return isinstance(value, Mapping)
