"""What the match pages show, gathered from the services: standings, hands, versions.

Nothing here scores anything: totals come from `services.matches.state_of` (the rules
engine's match state) and every hand's lines from what the engine computed when it was saved.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from flask_babel import gettext as _

from scorekeeper.hand_entry import HandEntry, SideEntry
from scorekeeper.models import HandVersion, Match, as_utc
from scorekeeper.rules.cards import Suit, parse_cards
from scorekeeper.rules.formats import Credit
from scorekeeper.rules.points import format_points
from scorekeeper.rules.scoring import Cut
from scorekeeper.services.hands import display_result, display_version
from scorekeeper.services.matches import (
    deal_order_of,
    format_of,
    live_hands,
    names_of,
    state_of,
    variant_of,
)
from scorekeeper.web.game_words import deal_text, pot_of, requirement_text
from scorekeeper.web.house_rules import option_label
from scorekeeper.web.match_forms import win_rule

#: A kózi as stored ("H") → its symbol ("♥"), from the rules engine's suits.
SUIT_SYMBOLS = {suit.value: suit.symbol for suit in Suit}


@dataclass(frozen=True, slots=True)
class StandingRow:
    name: str
    players: str
    total: str
    progress: float  # toward the target, for the bar only (0 … target)
    opening: str
    leading: bool


@dataclass(frozen=True, slots=True)
class SideRow:
    name: str
    score: str
    lines: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class HandRow:
    number: int
    deleted: bool
    kozi: str | None
    sides: list[SideRow]
    problems: list[str]
    accepted_reason: str | None
    totals_after: str
    version: int


@dataclass(frozen=True, slots=True)
class Board:
    title: str
    rules: str
    table: str
    target: int
    win_rule: str
    standings: list[StandingRow]
    openings: bool  # the variant has an opening table, so "next opening" says something
    next_dealer: str | None
    deal_order: str  # which way the deal goes and whom it reaches, from the next dealer
    next_number: int
    finished: bool
    winner: str | None
    winner_total: str | None
    tied: list[str]
    hands: list[HandRow]
    house_rules: list[tuple[str, str]]  # the options the players changed, in words


def points(value: Fraction | int) -> str:
    return format_points(value)


def board(match: Match) -> Board:
    state = state_of(match)
    names = names_of(match)
    variant = variant_of(match)
    fixed = format_of(match).credit is Credit.TEAM
    top = max((s.total for s in state.standings), default=Fraction(0))
    standings = [
        StandingRow(
            name=names.get(s.name, s.name),
            players=_team_players(match, s.name) if fixed else "",
            total=points(s.total),
            progress=float(max(Fraction(0), min(s.total, Fraction(variant.target)))),
            opening=requirement_text(s.opening),
            leading=bool(state.hands_played) and s.total == top,
        )
        for s in state.standings
    ]
    winner_total = None
    if state.winner is not None:
        winner_total = points(state.total(state.winner))
    return Board(
        title=_("Match %(number)d", number=match.id),
        rules=variant.name,
        table=format_of(match).name,
        target=variant.target,
        win_rule=win_rule(variant.target_rule, variant.target),
        standings=standings,
        openings=variant.opening_table is not None,
        next_dealer=None if state.next_dealer is None else names[state.next_dealer],
        deal_order=deal_text(variant.deal_direction, deal_order_of(match)),
        next_number=1 + max((h.number for h in match.hands), default=0),
        finished=state.finished,
        winner=None if state.winner is None else names.get(state.winner, state.winner),
        winner_total=winner_total,
        tied=[names.get(n, n) for n in state.tied_leaders],
        hands=_hand_rows(match, state.history, names),
        house_rules=[
            (option_label(name, variant), _option_value(value))
            for name, value in match.house_rules.items()
        ],
    )


def _option_value(value: Any) -> str:
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return " ".join(map(str, value)) or _("none")
    return str(value).replace("_", " ")


def _team_players(match: Match, team_name: str) -> str:
    """The team's players under its name, unless the name already is just them."""
    team = next(t for t in match.teams if t.name == team_name)
    players = " & ".join(s.player.name for s in match.seats if s.team_id == team.id)
    return "" if players == team_name else players


def _hand_rows(
    match: Match, history: tuple[dict[str, Fraction], ...], names: dict[str, str]
) -> list[HandRow]:
    after = {h.number: totals for h, totals in zip(live_hands(match), history, strict=True)}
    rows = []
    for hand in sorted(match.hands, key=lambda h: -h.number):
        totals = after.get(hand.number, {})
        shown = display_result(match, hand)
        rows.append(
            HandRow(
                number=hand.number,
                deleted=hand.deleted,
                kozi=_kozi_symbol(HandEntry.from_json(hand.entry)),
                sides=side_rows(shown),
                problems=list(shown.get("problems", [])),
                accepted_reason=hand.accepted_reason,
                totals_after=" · ".join(
                    f"{names.get(n, n)} {points(t)}" for n, t in totals.items()
                ),
                version=hand.version,
            )
        )
    return rows


def side_rows(result: dict[str, Any]) -> list[SideRow]:
    return [
        SideRow(
            name=str(team["name"]),
            score=points(team["score"]),
            lines=[{"label": ln["label"], "points": points(ln["points"])} for ln in team["lines"]],
        )
        for team in result.get("teams", [])
    ]


@dataclass(frozen=True, slots=True)
class EntrySide:
    name: str
    melds: list[str]
    details: list[str]


@dataclass(frozen=True, slots=True)
class Shown:
    """One line of a version as the history shows it, and whether it differs from the
    version before (so a correction shows at a glance what it changed)."""

    text: str
    changed: bool = False


@dataclass(frozen=True, slots=True)
class VersionSide:
    name: str
    melds: list[Shown]
    details: list[Shown]
    removed: list[str]  # melds of the version before that this one no longer has
    score: Shown | None
    lines: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class VersionRow:
    version: int
    action: str  # as stored: created, edited, deleted
    action_text: str  # the same in the page's language
    who: str
    when: datetime  # aware, in UTC
    kozi: Shown | None
    sides: list[VersionSide]
    problems: list[str]
    accepted_reason: Shown | None
    compared: bool  # whether an earlier version was there to compare with


def version_rows(match: Match, versions: list[HandVersion]) -> list[VersionRow]:
    """Every version of a hand, newest first, each marked with what changed from the one
    saved before it (`versions` come oldest first)."""
    names = names_of(match)
    pot = pot_of(variant_of(match))
    rows = []
    before: VersionRow | None = None
    for v in versions:
        row = _version_row(match, v, names, pot, before)
        rows.append(row)
        if v.action != "deleted":
            before = row
    return rows[::-1]


def _version_row(
    match: Match, v: HandVersion, names: dict[str, str], pot: str, before: VersionRow | None
) -> VersionRow:
    stored = HandEntry.from_json(v.entry)
    kozi = _kozi_symbol(stored)
    entry = [_entry_side(team, names, pot) for team in stored.teams]
    shown = display_version(match, v)  # in the reader's language
    scored = side_rows(shown)
    compare = before is not None and v.action == "edited"
    old_sides = before.sides if before is not None and compare else []
    sides = []
    for i, side in enumerate(entry):
        old = old_sides[i] if i < len(old_sides) else None
        old_melds = [m.text for m in old.melds] if old else []
        old_details = {d.text for d in old.details} if old else set()
        old_lines = {(ln["label"], ln["points"]) for ln in old.lines} if old else set()
        score = scored[i] if i < len(scored) else None
        # A score line is changed when the version before had no line of that label and
        # points: a new kózi shows in the bonus it changed, not only in the total.
        lines = [
            {**ln, "changed": compare and (ln["label"], ln["points"]) not in old_lines}
            for ln in (score.lines if score else [])
        ]
        sides.append(
            VersionSide(
                name=side.name,
                melds=[Shown(m, compare and m not in old_melds) for m in side.melds],
                details=[Shown(d, compare and d not in old_details) for d in side.details],
                removed=[m for m in old_melds if m not in side.melds] if compare else [],
                score=None
                if score is None
                else Shown(
                    score.score,
                    compare and (old is None or old.score is None or old.score.text != score.score),
                ),
                lines=lines,
            )
        )
    old_kozi = before.kozi.text if before is not None and before.kozi else None
    reason = v.accepted_reason
    old_reason = before.accepted_reason.text if before and before.accepted_reason else None
    return VersionRow(
        version=v.version,
        action=v.action,
        action_text=_action_text(v.action),
        who=v.user.username if v.user is not None else _("a former member"),
        when=as_utc(v.created_at),
        kozi=None if kozi is None else Shown(kozi, compare and kozi != old_kozi),
        sides=sides,
        problems=list(shown.get("problems", [])),
        accepted_reason=None if not reason else Shown(reason, compare and reason != old_reason),
        compared=compare,
    )


def _action_text(action: str) -> str:
    return {"created": _("created"), "edited": _("edited"), "deleted": _("deleted")}.get(
        action, action
    )


def cards_text(text: str) -> str:
    """Card notation with suit symbols (5♠ 6♠ …), or the text as typed if it holds no cards."""
    try:
        return " ".join(c.label for c in parse_cards(text)) or "—"
    except ValueError:
        return text


def _kozi_symbol(entry: HandEntry) -> str | None:
    return None if entry.kozi is None else SUIT_SYMBOLS.get(entry.kozi.value)


def _entry_side(team: SideEntry, names: dict[str, str], pot: str) -> EntrySide:
    players = [names.get(str(p), str(p)) for p in team.players]
    details = []
    if team.went_out:
        details.append(_("went out"))
    if team.took_biribaki:
        details.append(_("took the %(pot)s", pot=pot))
    if team.hand_points is not None:
        details.append(_("points left in hands: %(points)s", points=team.hand_points))
    for player, cards in zip(players, team.hands or (), strict=False):
        held = cards_text(cards) if cards else _("empty")
        details.append(_("%(player)s’s hand: %(cards)s", player=player, cards=held))
    if team.opening:
        details.append(_("opening: %(cards)s", cards=cards_text(team.opening)))
    if team.cut is not None:
        details.append(_("cut exactly") if team.cut is Cut.EXACT else _("cut off by one card"))
    if team.failed_openings:
        details.append(_("failed openings: %(count)s", count=team.failed_openings))
    if team.biribaki_unplayed:
        unplayed = cards_text(team.biribaki_unplayed)
        details.append(_("%(pot)s taken, not played: %(cards)s", pot=pot, cards=unplayed))
    return EntrySide(
        name=team.name or " & ".join(players),
        melds=[cards_text(m) for m in team.melds],
        details=details,
    )
