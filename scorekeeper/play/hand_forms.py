"""The hand-entry form: what the players say happened in one hand, read from a plain form post
(it works without JavaScript) into the entry the match scores and stores.

The form holds text as typed. `HandForm.entry()` turns its fields into the JSON shape of a
hand (the API's body) and reads it with the match's one entry reader, which seats its sides
and checks every card as for the API and a club file; it lists every problem to fix. Only
what is the form's own (a number typed as text, a side nobody is on) is checked here.
Scoring is never done here: the match asks the rules engine.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from scorekeeper.match import (
    MAX_HAND_POINTS,
    EntryRefused,
    HandEntry,
    MatchView,
    Seating,
    SideEntry,
    format_of,
    last_entry,
    last_tally,
    read_hand,
    seating_of,
    view_of,
)
from scorekeeper.models import Match
from scorekeeper.numbers import short, whole_number
from scorekeeper.play.offline_score import marked_melds
from scorekeeper.rules.cards import Suit
from scorekeeper.rules.formats import Credit
from scorekeeper.rules.scoring import kozi_missing
from scorekeeper.rules.variants import Variant
from scorekeeper.web.gettext import gettext as _
from scorekeeper.words import SUIT_CHOICES, requirement_text

#: The value of the "none" kózi button.
NO_KOZI = "none"
#: Meld rows shown for a side without JavaScript: its melds and at least this many in all.
MELD_ROWS = 5


@dataclass(frozen=True, slots=True)
class SeatRow:
    id: int
    name: str
    team: int | None  # the side index of a fixed team; None where sides form each hand


@dataclass(frozen=True, slots=True)
class EntryLayout:
    """Which fields a match's hand form has, from its variant options and table format."""

    variant: Variant
    format_id: str
    table_name: str
    shared: bool
    side_labels: tuple[str, ...]
    seats: tuple[SeatRow, ...]
    options: dict[str, Any]
    openings: tuple[str, ...]  # each fixed team's opening need this hand (none where shared)
    seating: Seating  # who may sit on which side, as every edge reads a hand's sides
    view: MatchView  # where the match stood before this hand (its progress, no replay)
    number: int | None = None  # the hand corrected (None: the next hand)
    last_kozi: str = ""  # the kózi of the hand before: marked on its button, never chosen
    opening_needed: tuple[int, ...] = ()  # each fixed team's need in card points (0: none)

    @classmethod
    def of(cls, match: Match, number: int | None = None) -> EntryLayout:
        """The form of hand `number` (or of the next hand), as a post reads it: what only
        a page shows (`for_page`) is read when a page is drawn."""
        fmt = format_of(match)
        view = view_of(match, before=number)
        openings: tuple[str, ...] = ()
        needed: tuple[int, ...] = ()
        shared = fmt.credit is Credit.SHARES
        if shared:
            count = len(fmt.shapes[0])
            labels = (_("Alone"), *(_("Pair %(number)d", number=i) for i in range(1, count)))
            labels = (_("Alone"), _("Together")) if count == 2 else labels
            seats = tuple(SeatRow(s.player_id, s.player.name, None) for s in match.seats)
        else:
            labels = tuple(t.name for t in match.teams)
            # Each team's players together, in seat order: the form lists them per team.
            rows = [
                SeatRow(s.player_id, s.player.name, s.team.position)
                for s in match.seats
                if s.team is not None
            ]
            seats = tuple(sorted(rows, key=lambda row: row.team or 0))
            standings = {s.key: s for s in view.standings}
            openings = tuple(requirement_text(standings[label].opening) for label in labels)
            needed = tuple(standings[label].opening.least_meeting(5) for label in labels)
        return cls(
            view.variant,
            fmt.id,
            fmt.name,
            shared,
            labels,
            seats,
            dict(match.options),
            openings,
            seating_of(match),
            view,
            number,
            opening_needed=needed,
        )

    def for_page(self, match: Match) -> EntryLayout:
        """The layout with what the page shows besides: the kózi of the hand before."""
        before = last_tally(match, before=self.number)
        return replace(self, last_kozi="" if before is None else before[1].kozi or "")

    @property
    def kozi(self) -> bool:
        return self.variant.kozi

    @property
    def kozi_required(self) -> bool:
        """Every hand has a kózi: no "none" button, and no save or preview until one is
        chosen (a kózi biriba scored as a plain one would be a silently wrong score)."""
        return self.variant.kozi and not self.variant.kozi_optional

    @property
    def suits(self) -> tuple[tuple[str, str, Any, bool], ...]:
        """The kózi buttons, "none" only where a hand may have no kózi: always in the order of
        the card picker's rows (♠ ♥ ♦ ♣), hand after hand, so a thumb that knows where hearts
        are never taps clubs. Last hand's kózi is marked on its button (`last_kozi`), never
        moved and never chosen for you."""
        # "none" is sent as "none", so a blank form (kozi "") has no button chosen.
        return tuple(
            (code or NO_KOZI, symbol, name, red)
            for code, symbol, name, red in SUIT_CHOICES
            if code or not self.kozi_required
        )

    @property
    def out_needs_biribaki(self) -> bool:
        """Going out implies having taken the biribaki: the form ticks one with the other."""
        return self.biribaki and self.variant.going_out_needs_biribaki

    @property
    def biribaki(self) -> bool:
        v = self.variant
        return bool(v.penalty_no_biribaki) or v.going_out_needs_biribaki

    @property
    def cuts(self) -> tuple[tuple[str, str], ...]:
        v = self.variant
        cuts = []
        if v.cut_exact_bonus:
            cuts.append(("exact", _("Exact cut (+%(bonus)d)", bonus=v.cut_exact_bonus)))
        if v.cut_off_by_one_bonus:
            bonus = v.cut_off_by_one_bonus
            cuts.append(("off_by_one", _("Off by one card (+%(bonus)d)", bonus=bonus)))
        return tuple(cuts)

    @property
    def opening(self) -> bool:
        return self.variant.opening_table is not None

    @property
    def failed(self) -> bool:
        return self.variant.opening_failed_increment > 0

    def members(self, side: int, sides_of: Mapping[int, int]) -> list[SeatRow]:
        return [s for s in self.seats if sides_of.get(s.id, s.team) == side]


@dataclass
class SideFields:
    melds: list[str] = field(default_factory=list)
    went_out: bool = False
    took_biribaki: bool = False
    cut: str = ""
    failed: str = ""
    opening: str = ""
    opening_melds: list[int] = field(default_factory=list)  # indexes into the filled melds
    unplayed: str = ""
    points: str = ""

    def meld_rows(self) -> list[str]:
        filled = [m for m in self.melds if m.strip()]
        return filled + [""] * max(2, MELD_ROWS - len(filled))


@dataclass
class HandForm:
    layout: EntryLayout
    sides: list[SideFields]
    kozi: str = ""
    side_of: dict[int, int] = field(default_factory=dict)  # share formats: player → side
    hand_of: dict[int, str] = field(default_factory=dict)  # cards left, per player
    key: str = ""
    version: str = ""
    reason: str = ""
    errors: list[str] = field(default_factory=list)
    # The id of the field each of the form's own errors is about (hand_refusals.py links
    # the banner to it); the reader's card errors are found there by reading each field.
    error_fields: dict[str, str] = field(default_factory=dict)

    @classmethod
    def blank(cls, layout: EntryLayout, match: Match) -> HandForm:
        """A new hand; in the share formats the sides start as in the last hand."""
        form = cls(layout, [SideFields() for _label in layout.side_labels], key=uuid.uuid4().hex)
        if layout.shared:
            last = last_entry(match)
            form.side_of = _default_sides(layout, None if last is None else last.teams)
        return form

    @classmethod
    def from_entry(cls, layout: EntryLayout, entry: HandEntry) -> HandForm:
        """A stored hand, to correct it."""
        # A stored hand without a kózi shows "none" where a hand may have none; where every
        # hand has one (an old hand, from before the form asked), nothing is chosen.
        none = NO_KOZI if layout.kozi and not layout.kozi_required else ""
        form = cls(layout, [], kozi=none if entry.kozi is None else entry.kozi.value)
        for i, team in enumerate(entry.teams):
            hands = team.hands or ()
            for k, pid in enumerate(team.players):
                if layout.shared:
                    form.side_of[pid] = i
                form.hand_of[pid] = hands[k] if k < len(hands) else ""
            points, failed = team.hand_points, team.failed_openings
            form.sides.append(
                SideFields(
                    melds=list(team.melds),
                    went_out=team.went_out,
                    took_biribaki=team.took_biribaki,
                    cut="" if team.cut is None else team.cut.value,
                    failed=str(failed) if failed else "",
                    opening=team.opening or "",
                    opening_melds=list(team.opening_melds or ()),
                    unplayed=team.biribaki_unplayed or "",
                    points="" if points is None else str(points),
                )
            )
        return form

    @classmethod
    def from_request(cls, layout: EntryLayout, data: Any) -> HandForm:
        """A posted form (`data` is request.form: a MultiDict with one list per meld field)."""
        form = cls(
            layout,
            [],
            kozi=str(data.get("kozi", "")),
            key=str(data.get("key", ""))[:100] or uuid.uuid4().hex,
            version=str(data.get("version", "")),
            reason=str(data.get("accepted_reason", "")),
        )
        for i in range(len(layout.side_labels)):
            melds = [str(m) for m in data.getlist(f"s{i}-meld")]
            form.sides.append(
                SideFields(
                    melds=melds,
                    opening_melds=list(marked_melds(melds, data.getlist(f"s{i}-open"))),
                    went_out=f"s{i}-out" in data,
                    took_biribaki=f"s{i}-biribaki" in data,
                    cut=str(data.get(f"s{i}-cut", "")),
                    failed=str(data.get(f"s{i}-failed", "")),
                    opening=str(data.get(f"s{i}-opening", "")),
                    unplayed=str(data.get(f"s{i}-unplayed", "")),
                    points=str(data.get(f"s{i}-points", "")),
                )
            )
        for seat in layout.seats:
            form.hand_of[seat.id] = str(data.get(f"p{seat.id}-hand", ""))
            side = str(data.get(f"p{seat.id}-side", ""))
            chosen = whole_number(side, len(layout.side_labels) - 1)
            if layout.shared and chosen is not None:
                form.side_of[seat.id] = chosen
        return form

    def members(self, side: int) -> list[SeatRow]:
        return self.layout.members(side, self.side_of)

    def entry(self) -> HandEntry | None:
        """The entry for the match, or None with `errors` naming each problem to fix."""
        entry = self._read()
        if entry is not None and self.layout.kozi and entry.kozi is None:
            missing = kozi_missing(self.layout.variant, None)
            if missing:
                self.errors.insert(0, missing)
                self.error_fields[missing] = "kozi"
                return None
        return entry

    def entry_without_kozi(self) -> HandEntry | None:
        """The entry even while the kózi is still to be chosen (None on any other error):
        the live preview shows the openings meanwhile, never a total."""
        entry = self._read()
        missing = kozi_missing(self.layout.variant, None)
        if entry is not None and entry.kozi is None and missing:
            self.errors.insert(0, missing)
        return entry

    def _error(self, message: str, field_id: str) -> None:
        self.errors.append(message)
        self.error_fields[message] = field_id

    def _read(self) -> HandEntry | None:
        """The form's fields as the JSON of a hand, read by the match's entry reader (every
        card checked, the sides seated at the table); None with `errors` saying why."""
        layout = self.layout
        teams = [self._side(i, label) for i, label in enumerate(layout.side_labels)]
        if self.errors:
            return None
        kozi = next((s.value for s in Suit if layout.kozi and self.kozi == s.value), None)
        try:
            return read_hand({"kozi": kozi, "teams": teams}, layout.seating)
        except EntryRefused as refused:
            self.errors.extend(refused.problems)
            return None

    def _side(self, i: int, label: str) -> dict[str, Any]:
        """Side `i` as the JSON of a hand gives it: its fields as the players filled them in
        (a number typed as text read here, where the form knows what was typed)."""
        layout, side = self.layout, self.sides[i]
        members = self.members(i)
        who = label if not layout.shared else " & ".join(s.name for s in members) or label
        team: dict[str, Any] = {
            "name": None if layout.shared else label,
            "players": [s.id for s in members],
            "melds": [m.strip() for m in side.melds if m.strip()],
            "went_out": side.went_out,
            "took_biribaki": layout.biribaki and side.took_biribaki,
        }
        if layout.shared and not members:
            message = _("Nobody is on the side “%(side)s”: choose a side for each player.")
            self._error(message % {"side": label}, f"p{layout.seats[0].id}-side")
        hands = [self.hand_of.get(s.id, "").strip() for s in members]
        points = side.points.strip()
        if points and any(hands):
            self._error(
                _(
                    "Give the cards left in the hands of %(who)s as cards or as a point total, "
                    "not both.",
                    who=who,
                ),
                f"s{i}-points",
            )
        elif points and whole_number(points, MAX_HAND_POINTS) is None:
            self._error(
                _(
                    "The points left in the hands of %(who)s must be a whole number from 0 "
                    "to %(most)d, not “%(text)s”.",
                    who=who,
                    most=MAX_HAND_POINTS,
                    text=short(points),
                ),
                f"s{i}-points",
            )
        elif points:
            team["hand_points"] = whole_number(points)
        else:
            team["hands"] = hands
        if side.cut and side.cut in {c for c, _ in layout.cuts}:
            team["cut"] = side.cut
        if layout.opening and side.opening.strip() and side.opening_melds:
            self._error(
                _(
                    "Give the opening of %(who)s by marking its melds or by its cards, not both.",
                    who=who,
                ),
                f"s{i}-opening",
            )
        elif layout.opening and side.opening.strip():
            team["opening"] = side.opening.strip()
        elif layout.opening and side.opening_melds:
            team["opening_melds"] = sorted(set(side.opening_melds))
        failed = side.failed.strip()
        if layout.failed and failed:
            # A number too large is the reader's to refuse, as from any edge.
            if whole_number(failed) is not None:
                team["failed_openings"] = whole_number(failed)
            else:
                self._error(
                    _(
                        "The failed openings of %(who)s must be a whole number, not “%(text)s”.",
                        who=who,
                        text=short(failed),
                    ),
                    f"s{i}-failed",
                )
        if side.unplayed.strip():
            team["biribaki_unplayed"] = side.unplayed.strip()
        return team


def _default_sides(layout: EntryLayout, last: tuple[SideEntry, ...] | None) -> dict[int, int]:
    if last and len(last) == len(layout.side_labels):
        sides = {pid: i for i, team in enumerate(last) for pid in team.players}
        if all(s.id in sides for s in layout.seats):
            return sides
    # The first player alone; the others in pairs (or all together), in seat order.
    count = len(layout.side_labels)
    sides = {}
    for n, seat in enumerate(layout.seats):
        if n == 0:
            sides[seat.id] = 0
        elif count == 2:
            sides[seat.id] = 1
        else:
            sides[seat.id] = min(1 + (n - 1) // 2, count - 1)
    return sides
