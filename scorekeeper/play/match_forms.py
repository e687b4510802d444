"""The new-match form: preset, table format, target, teams and seats, first dealer and house
rules. The form reads plain request data (it must work as a GET reload without JavaScript,
and its house-rule fields depend on the preset), and gives the service its arguments."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.match import TeamSpec
from scorekeeper.models import Player
from scorekeeper.numbers import row_id, short, whole_number
from scorekeeper.play.house_rules import (
    OptionGroup,
    OptionInputError,
    changed_options,
    option_groups,
)
from scorekeeper.rules.formats import FORMATS, Credit, TableFormat
from scorekeeper.rules.match import deal_order, seat_order
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.variants import TargetRule, Variant, option_most
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import ngettext
from scorekeeper.words import deal_text

DEFAULT_PRESET = "pagat"
DEFAULT_FORMAT = "4p"
TEAM_LETTERS = "ABCDEF"


@dataclass(frozen=True, slots=True)
class MatchRequest:
    """What `match.create_match` needs, read from the form."""

    variant_id: str
    format_id: str
    teams: list[TeamSpec]
    house_rules: dict[str, Any]
    target: int | None
    first_dealer: int | None


@dataclass
class TeamFields:
    letter: str
    name: str
    seats: list[str]  # chosen player ids as text ("" for none yet)


@dataclass
class NewMatchForm:
    preset: Variant
    table_format: TableFormat
    target: str
    teams: list[TeamFields]  # fixed formats: the teams; share formats: one row of seats
    first_dealer: str
    house_rules: list[OptionGroup]
    players: Sequence[Player]
    errors: list[str] = field(default_factory=list)
    # The submitted data the house rules are read from (empty when the preset just changed).
    data: Mapping[str, Any] = field(default_factory=dict)

    @property
    def shared(self) -> bool:
        return self.table_format.credit is Credit.SHARES

    @property
    def optional_seats(self) -> int:
        """Seats at the end of a share format's table that may stay empty (solo-vs-rest)."""
        counts = self.table_format.player_counts
        return max(counts) - min(counts)

    @property
    def win_rule(self) -> str:
        return win_rule(self.preset.target_rule, self.target or str(self.preset.target))

    @property
    def deal_order(self) -> str | None:
        """Which way the deal will go and whom it reaches, first dealer first, once every
        seat has its player (None before); the rules engine says how the table goes round."""
        by_id = {str(p.id): p.name for p in self.players}
        if self.shared:
            seats = tuple(s for s in self.teams[0].seats if s)
            if len(seats) not in self.table_format.player_counts:
                return None
        else:
            seats = seat_order([team.seats for team in self.teams])
        if not seats or any(s not in by_id for s in seats):
            return None
        first = seats.index(self.first_dealer) if self.first_dealer in seats else 0
        direction = self._rules().deal_direction
        order = deal_order(seats, first, direction)
        return deal_text(direction, [by_id[s] for s in order])

    def _rules(self) -> Variant:
        """The preset with the house rules as sent, or the bare preset while they are wrong."""
        try:
            return self.preset.with_options(**changed_options(self.preset, self.data))
        except (OptionInputError, ValueError):
            return self.preset

    def request(self) -> MatchRequest | None:
        """The service's arguments, or None with `errors` saying what to fix."""
        try:
            house_rules = changed_options(self.preset, self.data)
        except OptionInputError as error:
            self.errors.append(str(error))
            house_rules = {}
        target = None
        text = self.target.strip()
        most = option_most("target")
        chosen = whole_number(text, most)
        if not chosen:
            self.errors.append(
                _(
                    "The target must be a whole number of points from 1 to %(most)d, "
                    "not “%(text)s”.",
                    most=most,
                    text=short(text),
                )
            )
        elif chosen != self.preset.target:
            target = chosen
        teams = self._teams()
        dealer = row_id(self.first_dealer)
        if self.errors:
            return None
        return MatchRequest(
            self.preset.id, self.table_format.id, teams, house_rules, target, dealer
        )

    def _teams(self) -> list[TeamSpec]:
        by_id = {str(p.id): p for p in self.players}
        specs = []
        for team in self.teams:
            chosen = [s for s in team.seats if s]
            unknown = [s for s in chosen if s not in by_id]
            if unknown:
                self.errors.append(
                    _("Player %(player)s does not play in this club.", player=unknown[0])
                )
                continue
            if not self.shared and len(chosen) < len(team.seats):
                self.errors.append(
                    _("Choose a player for every seat of team %(team)s.", team=team.letter)
                )
            name = team.name.strip() or " & ".join(by_id[s].name for s in chosen)
            specs.append(TeamSpec(name, tuple(int(s) for s in chosen)))
        return specs


def win_rule(rule: TargetRule, target: object, deals: int | None = None) -> str:
    """How the target is reached, in words: "above 5000" or "at least 2500"; with fixed
    deals, "the higher total after 3 hands"."""
    if deals is not None:
        return ngettext(
            "the higher total after %(num)d hand", "the higher total after %(num)d hands", deals
        )
    if rule is TargetRule.ABOVE:
        return _("above %(target)s", target=target)
    return _("at least %(target)s", target=target)


def new_match_form(
    data: Mapping[str, Any], players: Sequence[Player], submitted: bool
) -> NewMatchForm:
    """The form for `data` (request args or form). On a first visit the seats are filled with
    the club's players in order; after a reload or a POST every field keeps what was sent.
    House-rule values are kept only while the preset stays the one they were shown for."""
    preset = PRESETS.get(str(data.get("preset", "")), PRESETS[DEFAULT_PRESET])
    table_format = FORMATS.get(str(data.get("format", "")), FORMATS[DEFAULT_FORMAT])
    same_preset = submitted and data.get("shown_preset") == preset.id
    target = str(data.get("target", "")).strip() if same_preset else ""
    form = NewMatchForm(
        preset=preset,
        table_format=table_format,
        target=target or str(preset.target),
        teams=_team_fields(table_format, data, players, submitted),
        first_dealer=str(data.get("first_dealer", "")),
        house_rules=option_groups(preset, data if same_preset else None),
        players=players,
        data=data if same_preset else {},
    )
    return form


def _team_fields(
    fmt: TableFormat, data: Mapping[str, Any], players: Sequence[Player], submitted: bool
) -> list[TeamFields]:
    # The share formats seat everyone in one row; the largest table they allow sets its length.
    sizes = (max(fmt.player_counts),) if fmt.credit is Credit.SHARES else fmt.shapes[0]
    # A first visit seats the club's players in order: partners A1, A2, then B1, B2 …
    ids = [str(p.id) for p in players]
    teams = []
    taken = 0
    for t, size in enumerate(sizes):
        letter = TEAM_LETTERS[t]
        prefix = f"team-{t}"
        seats = []
        for s in range(size):
            if submitted:
                seats.append(str(data.get(f"{prefix}-seat-{s}", "")))
            else:
                required = fmt.credit is Credit.TEAM or taken < min(fmt.player_counts)
                seats.append(ids[taken] if taken < len(ids) and required else "")
            taken += 1
        name = str(data.get(f"{prefix}-name", "")) if submitted else ""
        teams.append(TeamFields(letter, name[:80], seats))
    return teams
