"""What the match pages show: standings, hands, versions, from the match's read model.

Nothing here scores anything or replays a match: the standings come from the match's stored
progress (`match.view_of`), the list of hands from their tallies added up once
(`match.hand_lines`), and the lines of the newest hands from what the engine computed when
each was saved, in the reader's language (`match.shown`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from scorekeeper.match import (
    HandEntry,
    HandLine,
    MatchView,
    ScoredHand,
    SideEntry,
    format_of,
    hand_lines,
    names_of,
    results_of,
    shown_version,
    totals_before,
    variant_of,
    view_of,
)
from scorekeeper.models import HandVersion, Match, as_utc
from scorekeeper.play.house_rules import option_label
from scorekeeper.play.match_forms import win_rule
from scorekeeper.play.pictures import progress_picture
from scorekeeper.rules.cards import Suit, parse_cards
from scorekeeper.rules.points import format_points
from scorekeeper.rules.scoring import Cut
from scorekeeper.web.charts import Picture
from scorekeeper.web.gettext import gettext as _
from scorekeeper.words import deal_text, pot_of, requirement_text

#: A kózi as stored ("H") → its symbol ("♥"), from the rules engine's suits.
SUIT_SYMBOLS = {suit.value: suit.symbol for suit in Suit}
#: The newest hands a scoreboard shows, with their lines; the earlier ones are on the page
#: of all hands (a link under them). A real match has 10 to 30 hands, and the table looks
#: back a few hands at most; a 300-hand match's scoreboard costs little more than one of 12.
DETAILED_HANDS = 12


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
    flagged: bool  # saved with problems, accepted with a reason


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
    hands: list[HandRow]  # the newest, with their lines
    earlier: int  # the hands before them, on the page of all hands
    house_rules: list[tuple[str, str]]  # the options the players changed, in words
    progress: Picture | None  # the score after each hand, drawn (None before the first)


def points(value: Fraction | int) -> str:
    return format_points(value)


def board(match: Match) -> Board:
    """The scoreboard of `match` from its read model and its hands' tallies, each read
    once: the standings from the stored progress, the hands and the score picture from the
    tallies added up in one pass."""
    view, lines = view_of(match), hand_lines(match)
    variant = view.variant
    standings = standing_rows(view)
    winner_total = None
    if view.state.winner is not None:
        winner_total = points(view.standing(view.state.winner).total)
    return Board(
        title=_("Match %(number)d", number=match.id),
        rules=variant.name,
        table=format_of(match).name,
        target=variant.target,
        win_rule=win_rule(variant.target_rule, variant.target, variant.deals),
        standings=standings,
        openings=variant.opening_table is not None,
        next_dealer=view.next_dealer,
        deal_order=deal_text(variant.deal_direction, view.deal_order),
        next_number=view.next_number,
        finished=view.finished,
        winner=view.winner,
        winner_total=winner_total,
        tied=list(view.tied),
        hands=hand_rows(match, lines),
        earlier=max(0, len(lines) - DETAILED_HANDS),
        house_rules=[
            (option_label(name, variant), _option_value(value))
            for name, value in match.house_rules.items()
        ],
        progress=progress_picture(match, view, lines),
    )


def standing_rows(view: MatchView) -> list[StandingRow]:
    """Each competitor's standing as the scoreboard (and the demo) shows it."""
    return [
        StandingRow(
            name=s.name,
            players=s.players,
            total=points(s.total),
            progress=s.toward(view.target),
            opening=requirement_text(s.opening),
            leading=s.leading,
        )
        for s in view.standings
    ]


def _option_value(value: Any) -> str:
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, list):
        return " ".join(map(str, value)) or _("none")
    return str(value).replace("_", " ")


def hand_rows(match: Match, lines: list[HandLine], detailed: int = DETAILED_HANDS) -> list[HandRow]:
    """The newest `detailed` hands of the match, newest first, each with its lines in the
    reader's language and the totals after it."""
    names = names_of(match)
    newest = lines[-detailed:] if detailed else []
    results = results_of(match, newest)
    rows = []
    for line in reversed(newest):
        scored = results[line.number]
        rows.append(_row(line, names, side_rows(scored), list(scored.problems)))
    return rows


def tally_rows(match: Match, lines: list[HandLine]) -> list[HandRow]:
    """Every hand of the match, newest first, as its tally says it: each side's score and
    the totals after it, without its lines (the page of all hands)."""
    names = names_of(match)
    return [
        _row(line, names, [SideRow(s.name, points(s.score), []) for s in line.tally.sides], [])
        for line in reversed(lines)
    ]


def _row(
    line: HandLine, names: dict[str, str], sides: list[SideRow], problems: list[str]
) -> HandRow:
    totals = (
        ""
        if line.deleted
        else " · ".join(f"{names.get(n, n)} {points(t)}" for n, t in line.after.items())
    )
    return HandRow(
        number=line.number,
        deleted=line.deleted,
        kozi=SUIT_SYMBOLS.get(line.tally.kozi or ""),
        sides=sides,
        problems=problems,
        accepted_reason=line.accepted_reason,
        totals_after=totals,
        version=line.version,
        flagged=bool(line.tally.problems),
    )


def side_rows(result: ScoredHand) -> list[SideRow]:
    return [
        SideRow(
            name=side.name,
            score=points(side.score),
            lines=[{"label": ln.label, "points": points(ln.points)} for ln in side.lines],
        )
        for side in result.teams
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
    # Only a result stored before results kept their words is scored again to be worded,
    # against the totals before the hand as they are now.
    totals = totals_before(match, versions[0].number) if versions else None
    for v in versions:
        row = _version_row(match, v, names, pot, before, totals)
        rows.append(row)
        if v.action != "deleted":
            before = row
    return rows[::-1]


def _version_row(
    match: Match,
    v: HandVersion,
    names: dict[str, str],
    pot: str,
    before: VersionRow | None,
    totals: Any,
) -> VersionRow:
    stored = HandEntry.from_json(v.entry)
    kozi = _kozi_symbol(stored)
    entry = [_entry_side(team, names, pot) for team in stored.teams]
    result = shown_version(match, v, totals)  # in the reader's language
    scored = side_rows(result)
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
        problems=list(result.problems),
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
