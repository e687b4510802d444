"""Who sits where at a match's table, and so which sides a hand can have: the fixed teams
(each side one of them, once), or in the share formats the players, each on one side, in
the shapes the format plays. Every edge seats a hand's sides here, through the one entry
reader (the JSON API, the hand form, a club file), so all refuse the same sides in the same
words."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorekeeper.quote import show
from scorekeeper.rules.formats import MOST_CARDS, Credit, TableFormat
from scorekeeper.web.gettext import gettext as _

#: A side's name and players as seated, or None where it could not be.
Seated = list[tuple[str, tuple[int, ...]]]


@dataclass(frozen=True, slots=True)
class Seating:
    """What a match's table says about the sides of a hand."""

    format_id: str
    shapes: frozenset[tuple[int, ...]]  # the sizes of the sides a hand may have, sorted
    teams: tuple[tuple[str, tuple[int, ...]], ...]  # fixed teams, each name and players
    seated: tuple[tuple[int, str], ...]  # every seated player's id and name, in seat order
    cards: int = MOST_CARDS  # the cards at the table: no hand holds more

    @classmethod
    def of(
        cls,
        table_format: TableFormat,
        teams: Sequence[tuple[str, tuple[int, ...]]],
        seated: Sequence[tuple[int, str]],
    ) -> Seating:
        return cls(
            format_id=table_format.id,
            shapes=frozenset(tuple(sorted(shape)) for shape in table_format.shapes),
            teams=tuple(teams) if table_format.credit is Credit.TEAM else (),
            seated=tuple(seated),
            cards=table_format.cards,
        )

    @property
    def fixed(self) -> bool:
        """Whether the sides are the match's teams (else the players form them each hand)."""
        return bool(self.teams)

    def seat(self, sides: Sequence[tuple[Any, Any]]) -> tuple[Seated | None, list[str]]:
        """Each side's name and players, from the name and players it was given (None where
        not given): a fixed team's players are its own; in the share formats the players
        say who played alone and who together this hand. None and every problem where the
        sides do not fit the table."""
        problems: list[str] = []
        seated = self._fixed(sides, problems) if self.fixed else self._shared(sides, problems)
        return (None if problems else seated), problems

    def _fixed(self, sides: Sequence[tuple[Any, Any]], problems: list[str]) -> Seated:
        by_name = dict(self.teams)
        if len(sides) != len(self.teams):
            problems.append(
                _(
                    "This match has %(count)d teams; enter each of them once.",
                    count=len(self.teams),
                )
            )
            return []
        seated = []
        seats = dict(self.seated)
        for position, (given, players) in enumerate(sides):
            # A fixed team's players are its own, whatever the side says; but a side that
            # names players names seated ones.
            for pid in players if isinstance(players, list | tuple) else ():
                if isinstance(pid, bool) or not isinstance(pid, int) or pid not in seats:
                    problems.append(
                        _("Player %(player)s has no seat at this table.", player=show(pid))
                    )
            name = self.teams[position][0] if given is None else given
            if not isinstance(name, str) or name not in by_name:
                problems.append(
                    _(
                        "%(name)s is not a team of this match (%(teams)s).",
                        name=show(name),
                        teams=", ".join(by_name),
                    )
                )
                continue
            seated.append((name, by_name[name]))
        names = [name for name, _players in seated]
        if len(set(names)) != len(names):
            problems.append(_("A team is entered twice; enter each team once."))
        return seated

    def _shared(self, sides: Sequence[tuple[Any, Any]], problems: list[str]) -> Seated:
        seated = dict(self.seated)
        seen: list[int] = []
        named = []
        for i, (given, players) in enumerate(sides, 1):
            if not isinstance(players, list | tuple) or not players:
                problems.append(_("Side %(number)d must list its players by id.", number=i))
                continue
            fits = True
            for pid in players:
                # Only whole numbers name players: true is not player 1, and a list is no key.
                if isinstance(pid, bool) or not isinstance(pid, int) or pid not in seated:
                    problems.append(
                        _("Player %(player)s has no seat at this table.", player=show(pid))
                    )
                    fits = False
                elif pid in seen:
                    problems.append(
                        _(
                            "%(player)s is on two sides; each player plays on one.",
                            player=seated[pid],
                        )
                    )
                    fits = False
                else:
                    seen.append(pid)
            if fits:
                name = given or " & ".join(seated[p] for p in players)
                named.append((name, tuple(players)))
        if problems:
            return named
        missing = [name for pid, name in seated.items() if pid not in seen]
        if missing:
            problems.append(
                _(
                    "%(players)s must be on a side too; everyone at the table plays.",
                    players=", ".join(missing),
                )
            )
        elif tuple(sorted(len(players) for _name, players in named)) not in self.shapes:
            problems.append(
                _(
                    "The %(format)s format plays one player alone against the others "
                    "(in pairs, or all together); these sides do not fit it.",
                    format=self.format_id,
                )
            )
        return named
