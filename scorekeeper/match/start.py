"""Starting a match: its rules frozen (a preset with house rules), its players seated (partners
opposite), its first dealer, and its progress counted from the start."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorekeeper.errors import Invalid
from scorekeeper.extensions import db
from scorekeeper.match.bounds import MAX_NAME, MAX_TEAMS
from scorekeeper.match.setup import setup_of
from scorekeeper.models import Club, Match, MatchTeam, Player, Seat, User
from scorekeeper.numbers import is_row_id
from scorekeeper.rules.formats import Credit, TableFormat, find_format
from scorekeeper.rules.match import seat_order
from scorekeeper.rules.presets import find_variant
from scorekeeper.web.gettext import gettext as _


@dataclasses.dataclass(frozen=True)
class TeamSpec:
    name: str
    player_ids: tuple[int, ...]


def create_match(
    club: Club,
    user: User | None,
    variant_id: str,
    format_id: str,
    teams: Sequence[TeamSpec],
    house_rules: Mapping[str, Any] | None = None,
    target: int | None = None,
    first_dealer: int | None = None,
    commit: bool = True,
) -> Match:
    """Start a match. For fixed-team formats `teams` are the teams; for the share formats the
    players of all `teams` together are the table, in seat order. With `commit` False the
    match is only flushed, for a caller that starts several in one transaction (a
    tournament's round: all its tables or none)."""
    try:
        preset = find_variant(variant_id)
        rules = dict(house_rules or {})
        if target is not None:
            rules["target"] = target
        variant = preset.with_options(**rules)
        table_format = find_format(format_id)
    except ValueError as error:
        raise Invalid(str(error)) from None
    # Bounded before any player is looked up: one query a seat (issue 11).
    seats = sum(len(team.player_ids) for team in teams)
    if len(teams) > MAX_TEAMS or seats > MAX_TEAMS:
        raise Invalid(
            _(
                "A match seats at most %(most)d teams and %(most)d players; "
                "this one has %(teams)d teams and %(players)d players.",
                most=MAX_TEAMS,
                teams=len(teams),
                players=seats,
            )
        )
    if any(len(team.name.strip()) > MAX_NAME for team in teams):
        raise Invalid(_("A team's name has at most %(most)d characters.", most=MAX_NAME))
    players = [player_of(club, pid) for team in teams for pid in team.player_ids]
    seen: set[int] = set()
    for player in players:
        if player.id in seen:
            raise Invalid(
                _("%(player)s is seated twice; every player takes one seat.", player=player.name)
            )
        seen.add(player.id)
    match = Match(
        club=club,
        variant_id=preset.id,
        options=variant.options(),
        house_rules={k: variant.options()[k] for k in rules},
        format=table_format.id,
        created_by_id=None if user is None else user.id,
    )
    if table_format.credit is Credit.TEAM:
        _seat_teams(match, table_format, teams, players)
    else:
        _seat_table(match, table_format, players)
    if first_dealer is not None:
        # Seats are not flushed yet, so their player_id is still unset: compare the players.
        seat = next(
            (s for s in match.seats if _same_id(s.player.id, first_dealer)),
            None,
        )
        if seat is None:
            raise Invalid(
                _(
                    "The first dealer (player %(player)s) has no seat at this table.",
                    player=first_dealer,
                )
            )
        match.first_dealer = seat.position
    db.session.add(match)
    db.session.flush()  # the seats' player ids, which name the competitors of share formats
    # Counted from the start, so the first save need not look for hands.
    match.progress = {
        "next": 1,
        "played": 0,
        "totals": {name: "0" for name in setup_of(match).competitors},
    }
    if commit:
        db.session.commit()
    return match


def _same_id(player_id: int, given: object) -> bool:
    return not isinstance(given, bool) and isinstance(given, int) and given == player_id


def _seat_teams(
    match: Match, fmt: TableFormat, teams: Sequence[TeamSpec], players: list[Any]
) -> None:
    sizes = tuple(len(t.player_ids) for t in teams)
    if sizes not in fmt.shapes:
        raise Invalid(
            _(
                "The %(format)s format seats teams of %(shapes)s players, "
                "but the teams given have %(sizes)s.",
                format=fmt.id,
                shapes=_either(" + ".join(map(str, s)) for s in fmt.shapes),
                sizes=" + ".join(map(str, sizes)) or _("none"),
            )
        )
    names = [t.name.strip() or f"Team {i}" for i, t in enumerate(teams, 1)]
    if len(set(names)) != len(names):
        raise Invalid(_("Two teams have the same name; give each its own."))
    by_id = {p.id: p for p in players}
    rows = []
    for position, (spec, name) in enumerate(zip(teams, names, strict=True)):
        team = MatchTeam(position=position, name=name[:80])
        match.teams.append(team)
        rows.append([(by_id[pid], team) for pid in spec.player_ids])
    # Partners sit opposite: the rules engine says how the table goes round.
    for position, (player, team) in enumerate(seat_order(rows)):
        match.seats.append(Seat(position=position, player=player, team=team))


def _either(choices: Iterable[str]) -> str:
    """Choices joined as a sentence says them: "2 + 2 or 3 + 3" ("2 + 2 ή 3 + 3")."""
    return _(" or ").join(choices)


def _seat_table(match: Match, fmt: TableFormat, players: list[Any]) -> None:
    if len(players) not in fmt.player_counts:
        raise Invalid(
            _(
                "The %(format)s format is for %(counts)s players, not %(count)d.",
                format=fmt.id,
                counts=_either(str(n) for n in sorted(fmt.player_counts)),
                count=len(players),
            )
        )
    for position, player in enumerate(players):
        match.seats.append(Seat(position=position, player=player))


def player_of(club: Club, player_id: object) -> Player:
    """The club's player `player_id`, to seat at a match."""
    if isinstance(player_id, bool) or not isinstance(player_id, int):
        raise Invalid(
            _(
                "A player is named by its id, a whole number, not %(given)s.",
                given=repr(player_id)[:40],
            )
        )
    player = db.session.get(Player, player_id) if is_row_id(player_id) else None
    if player is None or player.club_id != club.id:
        raise Invalid(_("Player %(player)s does not play in this club.", player=player_id))
    return player
