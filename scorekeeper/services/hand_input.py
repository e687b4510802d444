"""A hand's entry read from JSON (the API's body, a club file's hand) against the table of its
match: who sits where says which sides a hand can have. The hand form builds its entry from
its own fields, and seats its sides here too (`Seating.seat`), so every edge refuses the same
sides in the same words."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask_babel import gettext as _

from scorekeeper import referee
from scorekeeper.hand_entry import HandEntry, SideEntry
from scorekeeper.models import Match
from scorekeeper.rules.formats import Credit
from scorekeeper.services.errors import Invalid
from scorekeeper.services.matches import format_of

#: A hand's fields; a side's are the referee's (`referee.read_side`) and its players.
_ENTRY_FIELDS = frozenset({"kozi", "teams"})


@dataclass(frozen=True, slots=True)
class Seating:
    """What a match's table says about the sides of a hand."""

    format_id: str
    shapes: frozenset[tuple[int, ...]]  # the sizes of the sides a hand may have, sorted
    teams: tuple[tuple[str, tuple[int, ...]], ...]  # fixed teams, each name and players
    seated: tuple[tuple[int, str], ...]  # every seated player's id and name, in seat order

    @property
    def fixed(self) -> bool:
        """Whether the sides are the match's teams (else the players form them each hand)."""
        return bool(self.teams)

    def seat(self, sides: Sequence[tuple[Any, Any]]) -> list[tuple[str, tuple[int, ...]]]:
        """Each side's name and players, from the name and players it was given (None where
        not given): a fixed team's players are its own; in the share formats the players
        say who played alone and who together this hand."""
        return self._fixed(sides) if self.fixed else self._shared(sides)

    def _fixed(self, sides: Sequence[tuple[Any, Any]]) -> list[tuple[str, tuple[int, ...]]]:
        by_name = dict(self.teams)
        if len(sides) != len(self.teams):
            raise Invalid(f"This match has {len(self.teams)} teams; enter each of them once.")
        seated = []
        for position, (given, _players) in enumerate(sides):
            name = self.teams[position][0] if given is None else given
            if not isinstance(name, str) or name not in by_name:
                known = ", ".join(by_name)
                raise Invalid(f"{referee.show(name)} is not a team of this match ({known}).")
            seated.append((name, by_name[name]))
        names = [name for name, _players in seated]
        if len(set(names)) != len(names):
            raise Invalid("A team is entered twice; enter each team once.")
        return seated

    def _shared(self, sides: Sequence[tuple[Any, Any]]) -> list[tuple[str, tuple[int, ...]]]:
        seated = dict(self.seated)
        seen: list[int] = []
        named = []
        for i, (given, players) in enumerate(sides, 1):
            if not isinstance(players, list | tuple) or not players:
                raise Invalid(f"Side {i} must list its players by id.")
            for pid in players:
                # Only whole numbers name players: true is not player 1, and a list is no key.
                if isinstance(pid, bool) or not isinstance(pid, int) or pid not in seated:
                    raise Invalid(f"Player {referee.show(pid)} has no seat at this table.")
                if pid in seen:
                    raise Invalid(
                        _(
                            "%(player)s is on two sides; each player plays on one.",
                            player=seated[pid],
                        )
                    )
                seen.append(pid)
            name = given or " & ".join(seated[p] for p in players)
            named.append((name, tuple(players)))
        missing = [name for pid, name in seated.items() if pid not in seen]
        if missing:
            raise Invalid(
                _(
                    "%(players)s must be on a side too; everyone at the table plays.",
                    players=", ".join(missing),
                )
            )
        if tuple(sorted(len(players) for _name, players in named)) not in self.shapes:
            raise Invalid(
                _(
                    "The %(format)s format plays one player alone against the others "
                    "(in pairs, or all together); these sides do not fit it.",
                    format=self.format_id,
                )
            )
        return named


def seating_of(match: Match) -> Seating:
    fmt = format_of(match)
    teams: tuple[tuple[str, tuple[int, ...]], ...] = ()
    if fmt.credit is Credit.TEAM:
        teams = tuple(
            (t.name, tuple(s.player_id for s in match.seats if s.team_id == t.id))
            for t in match.teams
        )
    return Seating(
        format_id=fmt.id,
        shapes=frozenset(tuple(sorted(shape)) for shape in fmt.shapes),
        teams=teams,
        seated=tuple((s.player_id, s.player.name) for s in match.seats),
    )


def read_entry(data: Any, seating: Seating) -> HandEntry:
    """A hand as JSON gives it (`{"kozi": …, "teams": [{"name": …, "melds": …}, …]}`, the
    body of POST /api/v1/matches/<id>/hands without its reason), every field checked; each
    refusal is an `Invalid` naming the value at fault."""
    if not isinstance(data, Mapping):
        raise Invalid("A hand must be a JSON object with 'kozi' and 'teams'.")
    unknown = sorted(set(data) - _ENTRY_FIELDS)
    if unknown:
        raise Invalid(f"{referee.show(unknown[0])} is not a field of a hand.")
    teams = data.get("teams")
    if not isinstance(teams, list) or not teams:
        raise Invalid("'teams' must list every side of the hand.")
    for i, team in enumerate(teams, 1):
        if not isinstance(team, Mapping):
            raise Invalid(f"Side {i} must be an object.")
        if "score_before" in team:
            raise Invalid("'score_before' comes from the match itself; leave it out.")
    seats = seating.seat([(team.get("name"), team.get("players")) for team in teams])
    try:
        kozi = referee.read_suit(data.get("kozi"))
        sides = [
            referee.read_side(_fields(team), _name(name, number), number, players)
            for number, (team, (name, players)) in enumerate(zip(teams, seats, strict=True), 1)
        ]
    except ValueError as error:
        raise Invalid(str(error)) from None
    return HandEntry(kozi, tuple(sides))


def _name(name: Any, number: int) -> str:
    if not isinstance(name, str) or not name.strip():
        raise referee.InputError(f"Team {number}: 'name' must be text")
    return name


def _fields(team: Mapping[str, Any]) -> dict[str, Any]:
    """A side's fields but its name and players, which the seating has read."""
    return {k: v for k, v in team.items() if k not in {"name", "players"}}


def seated_sides(seating: Seating, sides: Sequence[SideEntry]) -> tuple[SideEntry, ...]:
    """Sides built by the hand form, named and given their players by the seating."""
    seats = seating.seat(
        [(None, list(side.players)) if not seating.fixed else (side.name, None) for side in sides]
    )
    return tuple(
        replace(side, name=name, players=players)
        for side, (name, players) in zip(sides, seats, strict=True)
    )
