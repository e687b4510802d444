"""A tournament as a test sets it up: by default a pagat round robin of singles, one deal a
round, win/draw/loss VP, no clock, counted in the season; a test names only what it changes
(`setup_of(singles(ids), rounds=5)`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorekeeper.tournaments.service import Setup

DEFAULTS: dict[str, Any] = {
    "name": "Friday night",
    "variant": "pagat",
    "options": {},
    "format": "2p",
    "movement": "round-robin",
    "rounds": 3,
    "deals_per_round": 1,
    "vp_scale": "win-draw-loss",
    "bye_vp": 12,
    "round_minutes": None,
    "counts_in_season": True,
}


def singles(players: Iterable[int]) -> list[dict[str, Any]]:
    """An entry of each player, named after them."""
    return [{"name": None, "players": [player]} for player in players]


def pairs(partners: Iterable[Iterable[int]]) -> list[dict[str, Any]]:
    """An entry of each pair, named after its players (a `4p` tournament)."""
    return [{"name": None, "players": list(pair)} for pair in partners]


def setup_of(entries: list[dict[str, Any]], **changes: Any) -> Setup:
    """The default tournament (DEFAULTS) of `entries`, with `changes`."""
    unknown = set(changes) - set(DEFAULTS)
    assert not unknown, f"no such setting: {unknown}"
    return Setup(**(DEFAULTS | changes), entries=entries)
