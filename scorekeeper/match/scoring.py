"""A hand's entry scored by the rules engine, once, in its one canonical form: English texts
that keep their message data (`ScoredHand.words`), so any reader gets them in its own
language (`ScoredHand.worded`) without the hand being scored again.

What scoring needs of the match is its setup (rules, table, seats) and each competitor's
total before the hand, which sets every side's opening requirement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from scorekeeper.errors import Invalid
from scorekeeper.match.entry import HandEntry, SideEntry
from scorekeeper.match.reader import read_cards, too_many_cards
from scorekeeper.match.scored import ScoredHand
from scorekeeper.rules.cards import Card
from scorekeeper.rules.formats import MOST_CARDS, Credit, TableFormat
from scorekeeper.rules.i18n import using
from scorekeeper.rules.match import MatchSetup, side_total_before
from scorekeeper.rules.scoring import TeamHand, score_hand
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import lazy_gettext as _l  # labels, formatted only for a problem


def score_entry(setup: MatchSetup, entry: HandEntry, totals: Mapping[str, Fraction]) -> ScoredHand:
    """Score `entry` against the match's `totals` before it. An entry the engine cannot read
    (a stored one, from before a bound existed) is an `Invalid` naming what is wrong."""
    team_credit = setup.table_format.credit is Credit.TEAM
    teams = team_hands(entry.teams, befores(setup, totals, entry), setup.table_format)
    with using(None):  # canonical: English, with the message data every language words
        score = score_hand(setup.variant, teams, entry.kozi, setup.table_format)
        return ScoredHand.of(score, entry, team_credit)


def befores(setup: MatchSetup, totals: Mapping[str, Fraction], entry: HandEntry) -> list[Fraction]:
    """Each side's score before the hand, which sets its opening requirement: a fixed
    team's total, or the highest of its players' totals where sides form each hand."""
    if setup.table_format.credit is Credit.TEAM:
        return [totals[side.name] for side in entry.teams]
    return [side_total_before(totals, [str(p) for p in side.players]) for side in entry.teams]


def team_hands(
    sides: Sequence[SideEntry], scores_before: Sequence[Fraction], table_format: TableFormat | None
) -> list[TeamHand]:
    """The sides of one hand as the engine reads them, each with its score before the hand:
    their cards read from the text the players wrote (checked where the entry came in; a
    stored entry may be older than a check, so this refuses what it cannot read)."""
    most = MOST_CARDS if table_format is None else table_format.cards
    teams = [
        _team_hand(side, before, most) for side, before in zip(sides, scores_before, strict=True)
    ]
    # The opening is part of the melds, so it is not counted twice.
    total = sum(
        len(group)
        for t in teams
        for group in (*t.melds, *(t.hands or ()), t.biribaki_unplayed or ())
    )
    if total > most:
        raise Invalid(too_many_cards(_("The hand"), total, most))
    return teams


def _team_hand(side: SideEntry, score_before: Fraction, most: int) -> TeamHand:
    where = _("Team %(name)s", name=side.name)

    def cards(text: str | None, what: str, allow_empty: bool = True) -> tuple[Card, ...]:
        return read_cards(text, what, required=True, allow_empty=allow_empty, most=most)

    return TeamHand(
        name=side.name,
        melds=tuple(
            cards(m, _l("%(where)s, meld %(number)d", where=where, number=i), False)
            for i, m in enumerate(side.melds, 1)
        ),
        hands=None
        if side.hands is None
        else tuple(
            cards(h, _l("%(where)s, hand %(number)d", where=where, number=i))
            for i, h in enumerate(side.hands, 1)
        ),
        hand_points=side.hand_points,
        went_out=side.went_out,
        took_biribaki=side.took_biribaki,
        score_before=score_before,
        opening=None
        if side.opening is None
        else cards(side.opening, _("%(where)s, opening", where=where), False),
        opening_melds=side.opening_melds,
        cut=side.cut,
        failed_openings=side.failed_openings or 0,
        biribaki_unplayed=None
        if side.biribaki_unplayed is None
        else cards(side.biribaki_unplayed, _("%(where)s, biribaki_unplayed", where=where)),
    )
