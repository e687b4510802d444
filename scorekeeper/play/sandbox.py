"""The demo's sandbox hand: a visitor fills in the next hand of the sample match
(sample.py) with the real hand form's fields and sees the live preview, scored by the
match's own scoring (`score_entry`) against the sample's totals. Stored nowhere: no match,
no hand, no draft; nothing but the answer leaves the request.

The sample's players are known by name; the form knows players by id, so they are numbered
here in seat order (1, 2, …), as a stored match's seats would be.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from scorekeeper.match import HandEntry, Preview, Seating, score_entry, view_from
from scorekeeper.play.hand_forms import EntryLayout, HandForm, SeatRow
from scorekeeper.play.live_answer import live_answer
from scorekeeper.play.sample import SampleMatch, sample_match
from scorekeeper.rules.match import credits
from scorekeeper.words import requirement_text


def _ids(sample: SampleMatch) -> dict[str, int]:
    return {name: number for number, name in enumerate(sample.setup.seats, start=1)}


def sandbox_layout() -> EntryLayout:
    """The hand form of the sample's next hand: its teams, players and rules, and where the
    sample stands after its hands (the opening each team needs)."""
    sample = sample_match()
    setup = sample.setup
    teams = dict(setup.teams or {})
    ids = _ids(sample)
    view = view_from(
        setup,
        dict(sample.hands[-1].totals_after),
        len(sample.hands),
        len(sample.hands) + 1,
        {seat: seat for seat in setup.seats},
        {name: "" for name in teams},
    )
    labels = tuple(teams)
    seats = tuple(
        SeatRow(ids[player], player, side)
        for side, players in enumerate(teams.values())
        for player in players
    )
    standings = {s.key: s for s in view.standings}
    seating = Seating.of(
        setup.table_format,
        [(name, tuple(ids[p] for p in players)) for name, players in teams.items()],
        [(ids[name], name) for name in setup.seats],
    )
    return EntryLayout(
        variant=setup.variant,
        format_id=setup.table_format.id,
        table_name=setup.table_format.name,
        shared=False,
        side_labels=labels,
        seats=seats,
        options={},
        openings=tuple(requirement_text(standings[label].opening) for label in labels),
        seating=seating,
        view=view,
        last_kozi=sample.hands[-1].kozi or "",
        opening_needed=tuple(standings[label].opening.least_meeting(5) for label in labels),
    )


def sandbox_preview(layout: EntryLayout, entry: HandEntry) -> Preview:
    """The entry scored as the sample's next hand, and the totals after it: the scoring of
    every real match (`score_entry`, `credits`), against the sample's totals."""
    setup = layout.view.setup
    before = layout.view.totals
    scored = score_entry(setup, entry, before)
    gains = credits(setup, scored.played())
    totals = [(name, total + gains.get(name, Fraction(0))) for name, total in before.items()]
    return Preview(scored.for_reader(), totals)


def sandbox_answer(data: Any) -> tuple[HandForm, dict[str, Any]]:
    """The posted sandbox form and its live preview (the shape of a real hand's)."""
    layout = sandbox_layout()
    form = HandForm.from_request(layout, data)
    return form, live_answer(layout, form, lambda entry: sandbox_preview(layout, entry))
