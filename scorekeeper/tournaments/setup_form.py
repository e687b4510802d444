"""The director's setup form, read into the service's `Setup` (issue 20).

The form is plain request data (CSRF-protected by the app's CSRFProtect, as the new-match
form is). Its two free-text parts are read here and every other check is the service's:

* the entries, one a line: ``Name: Ann, Bob`` (or just ``Ann, Bob``: the service names the
  entry after its players), each player by their name in the club;
* a custom VP scale, one row a line: ``50 10 10`` is "up to 50 MP: 10 VP to the winner, 10
  to the loser"; a last line of two numbers, ``20 0``, is any larger difference.
"""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.models import Club, Player
from scorekeeper.numbers import short
from scorekeeper.play import (
    OptionGroup,
    OptionInputError,
    changed_options,
    option_groups,
)
from scorekeeper.rules.presets import PRESETS
from scorekeeper.tournaments import scales, service
from scorekeeper.web.gettext import gettext as _

CUSTOM = "custom"
DEFAULT_PRESET = "pagat"
#: A line of the entries box: at most this many characters are read (names are short).
MAX_LINE = 300
MAX_LINES = 200
_NUMBER = re.compile(r"-?[0-9]{1,6}")


@dataclass
class SetupForm:
    """The fields as the director typed them (shown again after a refusal)."""

    name: str = ""
    preset: str = DEFAULT_PRESET
    format: str = "4p"
    movement: str = "danish"
    rounds: str = "5"
    deals: str = "3"
    scale: str = "win-draw-loss"
    custom_scale: str = ""
    bye_vp: str = str(service.DEFAULT_BYE_VP)
    minutes: str = ""
    entries: str = ""
    seeding: str = "given"
    counts_in_season: bool = True
    errors: list[str] = field(default_factory=list)
    #: Names in the entries box the club has no player for (the "add them" button's list).
    unknown: list[str] = field(default_factory=list)
    #: The submitted data the house rules are read from, while the preset stays the one
    #: their fields were shown for (empty otherwise: the preset's own values).
    data: Mapping[str, Any] = field(default_factory=dict)

    def house_rules(self) -> list[OptionGroup]:
        """The house-rule fields of the chosen preset, as the new-match form draws them; a
        round's deals have their own field above, so they are not among them."""
        preset = PRESETS.get(self.preset)
        if preset is None:
            return []
        groups = option_groups(preset, self.data or None)
        return [
            OptionGroup(
                g.title,
                tuple(
                    dataclasses.replace(r, fields=tuple(f for f in r.fields if f.name != "deals"))
                    for r in g.rules
                ),
            )
            for g in groups
        ]

    def _options(self) -> dict[str, Any]:
        preset = PRESETS.get(self.preset)
        if preset is None or not self.data:
            return {}
        try:
            chosen = changed_options(preset, self.data)
        except OptionInputError as error:
            self.errors.append(str(error))
            return {}
        chosen.pop("deals", None)
        return chosen

    @classmethod
    def read(cls, data: Mapping[str, Any]) -> SetupForm:
        def text(key: str, default: str = "") -> str:
            return str(data.get(key, default))[:4000]

        return cls(
            name=text("name").strip(),
            preset=text("preset", DEFAULT_PRESET),
            format=text("format", "4p"),
            movement=text("movement", "danish"),
            rounds=text("rounds").strip(),
            deals=text("deals").strip(),
            scale=text("scale", "win-draw-loss"),
            custom_scale=text("custom_scale"),
            bye_vp=text("bye_vp").strip(),
            minutes=text("minutes").strip(),
            entries=text("entries"),
            seeding=text("seeding", "given"),
            counts_in_season="counts_in_season" in data,
            data=data if data.get("shown_preset") == data.get("preset") else {},
        )

    def entry_lines(self) -> list[tuple[str | None, list[str]]]:
        """(name or None, player names) for each non-empty line of the entries box."""
        lines = [line.strip() for line in self.entries.splitlines() if line.strip()]
        read = []
        for line in lines[:MAX_LINES]:
            line = line[:MAX_LINE]
            name: str | None = None
            if ":" in line:
                before, line = line.split(":", 1)
                name = before.strip() or None
            players = [" ".join(p.split()) for p in re.split(r"[,&+]", line)]
            read.append((name, [p for p in players if p]))
        if len(lines) > MAX_LINES:
            self.errors.append(_("The entries box takes at most %(most)d lines.", most=MAX_LINES))
        return read

    def setup(self, club: Club) -> service.Setup | None:
        """The service's Setup, or None with `errors` naming what the service cannot be asked
        (a name the club does not know, a number that is not one)."""
        lines = self.entry_lines()
        named = players_by_name(club, {p for _, players in lines for p in players})
        self.unknown = sorted(
            {p for _, players in lines for p in players if p not in named}, key=str.casefold
        )
        if self.unknown:
            self.errors.append(unknown_players(self.unknown))
        entries: list[dict[str, Any]] = [
            {"name": name, "players": [named.get(p, 0) for p in players]} for name, players in lines
        ]
        if self.seeding == "drawn":
            random.SystemRandom().shuffle(entries)
        rows = self._custom_rows() if self.scale == CUSTOM else None
        rounds = self._number(self.rounds, _("Rounds"))
        bye_vp = self._number(self.bye_vp or str(service.DEFAULT_BYE_VP), _("Bye VP"))
        deals = self._number(self.deals, _("Deals per round")) if self.deals else None
        minutes = self._number(self.minutes, _("Round length")) if self.minutes else None
        options = self._options()
        if self.errors:
            return None
        return service.Setup(
            name=self.name,
            variant=self.preset,
            options=options,
            format=self.format,
            movement=self.movement,
            rounds=rounds,
            deals_per_round=deals,
            vp_scale=rows if rows is not None else self.scale,
            bye_vp=bye_vp,
            round_minutes=minutes,
            counts_in_season=self.counts_in_season,
            entries=entries,
        )

    def _number(self, text: str, label: str) -> int | None:
        if not _NUMBER.fullmatch(text):
            self.errors.append(
                _(
                    "%(field)s must be a whole number, not “%(text)s”.",
                    field=label,
                    text=short(text),
                )
            )
            return None
        return int(text)

    def _custom_rows(self) -> list[dict[str, int | None]]:
        rows: list[dict[str, int | None]] = []
        lines = [line for line in self.custom_scale.splitlines() if line.strip()]
        if not lines:
            self.errors.append(
                _("Write the custom scale's rows, one a line: up to, winner's VP, loser's VP.")
            )
        for number, line in enumerate(lines[: scales.MAX_ROWS + 1], start=1):
            parts = re.split(r"[\s,;/]+", line.strip())
            if len(parts) not in (2, 3) or not all(_NUMBER.fullmatch(p) for p in parts):
                self.errors.append(
                    _(
                        "Row %(number)d of the custom scale must be three whole numbers (up to, "
                        "winner, loser), or two (winner, loser) for any larger difference, not "
                        "“%(text)s”.",
                        number=number,
                        text=short(line.strip()),
                    )
                )
                continue
            values = [int(p) for p in parts]
            up_to = values[0] if len(values) == 3 else None
            rows.append({"up_to": up_to, "winner": values[-2], "loser": values[-1]})
        return rows


def players_by_name(club: Club, names: set[str]) -> dict[str, int]:
    """Of `names`, those of the club's players, by name: one query."""
    if not names:
        return {}
    rows = db.session.execute(
        sa.select(Player.name, Player.id).where(Player.club_id == club.id, Player.name.in_(names))
    )
    return {name: player_id for name, player_id in rows}


def unknown_players(names: list[str]) -> str:
    return _(
        "The club has no player called %(names)s: check the spelling, or add them to the "
        "club first.",
        names=", ".join(f"“{short(n)}”" for n in names),
    )
