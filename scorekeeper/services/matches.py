"""Starting a match and reading where it stands; every number comes from the rules engine."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.models import Club, Hand, Match, MatchTeam, Seat, User, as_utc
from scorekeeper.referee import MAX_NAME, MAX_TEAMS
from scorekeeper.rules.formats import Credit, TableFormat, find_format
from scorekeeper.rules.match import (
    MatchSetup,
    MatchState,
    PlayedHand,
    Side,
    deal_order,
    match_state,
    seat_order,
)
from scorekeeper.rules.points import points_json
from scorekeeper.rules.presets import find_variant
from scorekeeper.rules.variants import Variant
from scorekeeper.services.clubs import player_of
from scorekeeper.services.errors import Invalid


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
) -> Match:
    """Start a match. For fixed-team formats `teams` are the teams; for the share formats the
    players of all `teams` together are the table, in seat order."""
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


def variant_of(match: Match) -> Variant:
    """The match's own frozen rules; options the players changed are no longer assumptions."""
    # Every save and every page asks this, and building a variant checks all its options:
    # one build per distinct set of rules (a Variant is frozen, so it can be shared).
    key = json.dumps([match.variant_id, match.options, sorted(match.house_rules)], sort_keys=True)
    return _variant(key)


@functools.lru_cache(maxsize=256)
def _variant(key: str) -> Variant:
    variant_id, options, house_rules = json.loads(key)
    preset = find_variant(variant_id)
    variant = preset.with_options(**options)
    return dataclasses.replace(variant, assumed=preset.assumed - set(house_rules))


def format_of(match: Match) -> TableFormat:
    return find_format(match.format)


def setup_of(match: Match) -> MatchSetup:
    table_format = format_of(match)
    teams = None
    if table_format.credit is Credit.TEAM:
        teams = {
            team.name: tuple(str(s.player_id) for s in match.seats if s.team_id == team.id)
            for team in match.teams
        }
    return MatchSetup(
        variant=variant_of(match),
        table_format=table_format,
        seats=tuple(str(s.player_id) for s in match.seats),
        teams=teams,
        first_dealer=match.first_dealer,
    )


def deal_order_of(match: Match) -> tuple[str, ...]:
    """The players' names in the order the deal reaches them, from the next hand's dealer."""
    setup = setup_of(match)
    names = names_of(match)
    order = deal_order(
        setup.seats, setup.first_dealer, setup.variant.deal_direction, len(live_hands(match))
    )
    return tuple(names[seat] for seat in order)


def live_hands(match: Match) -> list[Hand]:
    return [h for h in match.hands if not h.deleted]


def played(hand: Hand) -> PlayedHand:
    return played_result(hand.result)


def played_result(result: dict[str, Any]) -> PlayedHand:
    """A scored hand (a stored result, or a preview) as the match engine counts it."""
    return PlayedHand(
        tuple(
            Side(
                players=tuple(str(p) for p in team["players"]),
                score=team["score"],
                team=team.get("team"),
            )
            for team in result["teams"]
        )
    )


def state_of(match: Match, upto: int | None = None) -> MatchState:
    """Where the match stands after its hands (or after the hands numbered below `upto`)."""
    hands = [h for h in live_hands(match) if upto is None or h.number < upto]
    return match_state(setup_of(match), [played(h) for h in hands])


def names_of(match: Match) -> dict[str, str]:
    """Standing names to show: team names stay, player ids become player names."""
    return {str(s.player_id): s.player.name for s in match.seats}


def match_json(match: Match) -> dict[str, Any]:
    state = state_of(match)
    names = names_of(match)
    variant = variant_of(match)
    return {
        "id": match.id,
        "club": match.club_id,
        "variant": match.variant_id,
        "options": match.options,
        "format": match.format,
        "target": variant.target,
        "target_rule": variant.target_rule.value,
        "teams": [
            {
                "name": names.get(s.name, s.name),
                "score": points_json(s.total),
                "opening_required": s.opening.least_meeting(5),
                "opening": s.opening.text,
            }
            for s in state.standings
        ],
        "hands": [hand_json(h) for h in live_hands(match)],
        "next_dealer": None if state.next_dealer is None else names[state.next_dealer],
        "finished": state.finished,
        "winner": None if state.winner is None else names.get(state.winner, state.winner),
        "tied_leaders": [names.get(n, n) for n in state.tied_leaders],
    }


def hand_json(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "version": hand.version,
        # A retried save can meet its hand after someone deleted it; say so plainly.
        "deleted": hand.deleted,
        "kozi": hand.entry.get("kozi"),
        "teams": hand.result["teams"],
        "legal": hand.result["legal"],
        "problems": hand.result["problems"],
        "accepted_reason": hand.accepted_reason,
        "entry": hand.entry,
        "updated_at": as_utc(hand.updated_at).isoformat(),
    }
