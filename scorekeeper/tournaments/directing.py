"""What the director does during a tournament besides starting and closing rounds (issue 20,
tournaments.md §5): give a penalty with its reason, withdraw an entry or add one between
rounds, and confirm a finished table instead of the other entry. A correction of a confirmed
table's hands (the director's, on the match's own pages) undoes its confirmation
(`follow_matches`).

Each refusal is the service's `Refused` (400) or `Busy` (409) with every sentence named, and
nothing stored, as in `service`.
"""

from __future__ import annotations

import sqlalchemy as sa

from scorekeeper import match as matches
from scorekeeper.extensions import db
from scorekeeper.locks import lock_row
from scorekeeper.models import (
    Tournament,
    TournamentEntry,
    TournamentEntryPlayer,
    TournamentPenalty,
    TournamentTable,
    utcnow,
)
from scorekeeper.quote import show
from scorekeeper.tournaments import movements, service, table_links
from scorekeeper.tournaments.service import Busy, Refused
from scorekeeper.web.gettext import gettext as _

#: The most MP or VP one penalty takes away; more is a typing slip, not a penalty.
MAX_PENALTY_MP = 10_000
MAX_PENALTY_VP = 100


def add_penalty(
    tournament: Tournament,
    entry_id: object,
    round_number: object,
    mp: object,
    vp: object,
    reason: object,
) -> TournamentPenalty:
    """Take `mp` and/or `vp` from an entry, for the round `round_number` (one drawn so far)
    or for the tournament as a whole (None), with its written reason."""
    problems: list[str] = []
    entry = _entry(tournament, entry_id, problems)
    if round_number is not None and (
        isinstance(round_number, bool)
        or not isinstance(round_number, int)
        or round_number not in {r.number for r in tournament.round_rows}
    ):
        problems.append(
            _(
                "A penalty is for a round that has been drawn, or for the whole tournament; "
                "there is no round %(value)s.",
                value=show(round_number),
            )
        )
    taken_mp = _amount(mp, _("MP"), MAX_PENALTY_MP, problems)
    taken_vp = _amount(vp, _("VP"), MAX_PENALTY_VP, problems)
    if taken_mp == 0 and taken_vp == 0:
        problems.append(_("A penalty takes away some MP or some VP; both are 0."))
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        problems.append(_("Write the penalty's reason: the ranking shows it beside the totals."))
    elif len(text) > service.MAX_REASON:
        problems.append(
            _("A penalty's reason has at most %(most)d characters.", most=service.MAX_REASON)
        )
    if problems:
        raise Refused(problems)
    assert entry is not None and taken_mp is not None and taken_vp is not None
    penalty = TournamentPenalty(
        entry_id=entry.id,
        round_number=round_number,
        mp=taken_mp,
        vp=taken_vp,
        reason=text,
    )
    tournament.penalties.append(penalty)
    db.session.commit()
    return penalty


def _entry(tournament: Tournament, entry_id: object, problems: list[str]) -> TournamentEntry | None:
    found = next((e for e in tournament.entries if e.id == entry_id), None)
    if found is None:
        problems.append(
            _("The tournament has no entry %(value)s.", value=show(entry_id)),
        )
    return found


def _amount(value: object, unit: str, most: int, problems: list[str]) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        problems.append(
            _(
                "A penalty's %(unit)s must be a whole number from 0 to %(most)d, not %(value)s.",
                unit=unit,
                most=most,
                value=show(value),
            )
        )
        return None
    return value


def _between_rounds(tournament: Tournament, still_open_says: str) -> None:
    """Busy while a round is open (`still_open_says`, with its number) or once the last
    round was drawn: entries change only before a draw, so no table of a round loses or
    gains an entry."""
    still_open = [r.number for r in tournament.round_rows if r.status == service.OPEN]
    if still_open:
        raise Busy([still_open_says % {"number": still_open[0]}])
    if len(tournament.round_rows) >= tournament.rounds:
        raise Busy([_("Every round of the tournament has been drawn; its entries are final.")])


def _check_count(tournament: Tournament, count: int) -> None:
    """Refused when the movement cannot draw the rounds still to come for `count` entries."""
    problems = movements.check_setup(tournament.movement, count, tournament.rounds)
    if problems:
        raise Busy(problems)


def withdraw_entry(tournament: Tournament, entry_id: object) -> TournamentEntry:
    """Leave an entry out of the rounds still to be drawn; its results so far stay in the
    ranking."""
    lock_row(Tournament, tournament.id, Tournament.name)
    problems: list[str] = []
    entry = _entry(tournament, entry_id, problems)
    if problems:
        raise Refused(problems)
    assert entry is not None
    if entry.withdrawn:
        raise Busy([_("%(entry)s is already withdrawn.", entry=entry.name)])
    _between_rounds(
        tournament, _("Round %(number)d is still open; withdraw an entry once it is closed.")
    )
    _check_count(tournament, sum(1 for e in tournament.entries if not e.withdrawn) - 1)
    entry.withdrawn = True
    db.session.commit()
    return entry


def add_entry(tournament: Tournament, name: object, players: object) -> TournamentEntry:
    """A new entry, seeded last, in the rounds still to be drawn; checked as the setup checks
    its entries (the club's players, each in one entry, names told apart)."""
    lock_row(Tournament, tournament.id, Tournament.name)
    _between_rounds(
        tournament, _("Round %(number)d is still open; add an entry once it is closed.")
    )
    given = [
        {"name": e.name, "players": [p.player_id for p in e.players]} for e in tournament.entries
    ]
    problems: list[str] = []
    checked = service._entries(  # the setup's own checks, so the two never disagree
        tournament.club,
        [*given, {"name": name, "players": players}],
        tournament.format,
        problems,
    )
    if problems or checked is None:
        raise Refused(problems)
    _check_count(tournament, sum(1 for e in tournament.entries if not e.withdrawn) + 1)
    spec = checked[-1]
    entry = TournamentEntry(
        position=max((e.position for e in tournament.entries), default=0) + 1, name=spec.name
    )
    for place, player_id in enumerate(spec.players):
        entry.players.append(TournamentEntryPlayer(position=place, player_id=player_id))
    tournament.entries.append(entry)
    db.session.commit()
    return entry


def confirm_table(tournament: Tournament, round_number: object, table_number: object) -> None:
    """The director confirms a finished table's result, as the other entry would."""
    table = _table(tournament, round_number, table_number)
    if not service.table_result(table).finished:
        raise Busy(
            [
                _(
                    "Table %(table)d has not finished; a result is confirmed once it is in.",
                    table=table.number,
                )
            ]
        )
    table.confirmed = True
    table.confirmed_by = table_links.DIRECTOR
    table.confirmed_at = utcnow()
    table.corrected_at = None
    db.session.commit()


def _unconfirm(changes: matches.Changes) -> None:
    """A hand of a table's match corrected or deleted: if the table's result was confirmed,
    it is no longer, so the other entry (or the director) confirms the corrected result;
    `corrected_at` tells the console it was corrected after it was confirmed. Runs in the
    write's own transaction (match.writes tells it before committing). A new hand undoes
    nothing: a confirmed table's match is finished and takes none."""
    table = TournamentTable
    if changes.removed:
        db.session.execute(
            sa.update(table)
            .where(table.match_id == changes.match.id, table.confirmed.is_(True))
            .values(confirmed=False, confirmed_by=None, confirmed_at=None, corrected_at=utcnow())
        )
    # Every write of the match's hands raises its table's version (an UPDATE raises it
    # once more, which is no matter): the tournament's live revision and the results a
    # worker keeps of closed rounds then follow the tables' rows alone, and never read
    # every hand of the night (table_links.revision, kept_results).
    db.session.execute(
        sa.update(table).where(table.match_id == changes.match.id).values(version=table.version + 1)
    )


def follow_matches() -> None:
    """Undo a table's confirmation whenever its match's hands are corrected, from now on.
    Called by create_app; calling it again changes nothing."""
    if _unconfirm not in matches.listeners:
        matches.listeners.append(_unconfirm)


def _table(tournament: Tournament, round_number: object, table_number: object) -> TournamentTable:
    for played in tournament.round_rows:
        if played.number == round_number:
            for table in played.tables:
                if table.number == table_number:
                    return table
    raise Refused(
        [
            _(
                "Round %(round)s has no table %(table)s.",
                round=show(round_number),
                table=show(table_number),
            )
        ]
    )
