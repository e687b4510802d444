"""What a match is set up with: its frozen rules (the variant with its house rules), its
table format, its seats and fixed teams, and so the `MatchSetup` the rules engine counts a
match's hands with, and the `Seating` every edge seats a hand's sides with."""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterable, Sequence
from typing import Any

from scorekeeper.match.seating import Seating
from scorekeeper.models import Match
from scorekeeper.rules.formats import Credit, TableFormat, find_format
from scorekeeper.rules.match import MatchSetup
from scorekeeper.rules.presets import find_variant
from scorekeeper.rules.variants import Variant


def variant_of(match: Match) -> Variant:
    """The match's own frozen rules; options the players changed are no longer assumptions."""
    # Every save and every page asks this, and building a variant checks all its options:
    # one build per distinct set of rules (a Variant is frozen, so it can be shared).
    return variant_for(match.variant_id, match.options, match.house_rules)


def variant_for(variant_id: str, options: dict[str, Any], house_rules: Iterable[str]) -> Variant:
    """`variant_of` from a match's columns, for a reader that holds them without the match."""
    key = json.dumps([variant_id, options, sorted(house_rules)], sort_keys=True)
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
    return setup_from(
        variant_of(match),
        match.format,
        [(s.player_id, s.team_id) for s in match.seats],
        [(t.id, t.name) for t in match.teams],
        match.first_dealer,
    )


def setup_from(
    variant: Variant,
    format_id: str,
    seats: Sequence[tuple[int, int | None]],
    teams: Sequence[tuple[int, str]],
    first_dealer: int,
) -> MatchSetup:
    """`setup_of` from a match's columns: its seats (player, team) in seat order and its
    teams (id, name) in team order, for a reader of many matches at once."""
    table_format = find_format(format_id)
    by_team = None
    if table_format.credit is Credit.TEAM:
        by_team = {
            name: tuple(str(player) for player, team in seats if team == team_id)
            for team_id, name in teams
        }
    return MatchSetup(
        variant=variant,
        table_format=table_format,
        seats=tuple(str(player) for player, _team in seats),
        teams=by_team,
        first_dealer=first_dealer,
    )


def names_of(match: Match) -> dict[str, str]:
    """Standing names to show: team names stay, player ids become player names."""
    return {str(s.player_id): s.player.name for s in match.seats}


def seating_of(match: Match) -> Seating:
    """Who may sit on which side of a hand of `match`."""
    return Seating.of(
        format_of(match),
        [
            (t.name, tuple(s.player_id for s in match.seats if s.team_id == t.id))
            for t in match.teams
        ],
        [(s.player_id, s.player.name) for s in match.seats],
    )
