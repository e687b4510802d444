"""Recording, correcting and deleting hands, and deleting a whole match. Every score comes
from the rules engine; a hand with problems is saved only with a written reason, and every
earlier version is kept (as long as its match is)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper import referee
from scorekeeper.extensions import db
from scorekeeper.hand_entry import HandEntry
from scorekeeper.models import Hand, HandVersion, Match, User, rows_changed, table_of, utcnow
from scorekeeper.rules.cards import Suit
from scorekeeper.rules.formats import Credit
from scorekeeper.rules.i18n import translating, using
from scorekeeper.rules.match import (
    MatchSetup,
    carry,
    carry_back,
    credits,
    side_total_before,
    start_totals,
)
from scorekeeper.rules.scoring import TeamHand, kozi_missing, score_hand, scores_alike
from scorekeeper.services import progress, stats
from scorekeeper.services.clubs import is_row_id
from scorekeeper.services.errors import Conflict, HandRefused, Invalid, NotFound, ServiceError
from scorekeeper.services.hand_input import read_entry, seating_of
from scorekeeper.services.hand_words import with_words, worded
from scorekeeper.services.locks import hold_match, lock_match
from scorekeeper.services.match_summary import HandData
from scorekeeper.services.matches import (
    live_hands,
    names_of,
    played,
    played_result,
    setup_of,
    state_of,
    variant_of,
)

#: A reason is a sentence or two; every viewer's scoreboard and history carries it.
MAX_REASON = 1000
#: The most live hands one match holds, saved at the table or imported (issue 11). A hand
#: takes ten minutes or more to deal, play and count, so 500 hands are three and a half days
#: of play without sleep, far beyond any real match (a game to 5,000 takes 10 to 30 hands);
#: it bounds what a correction of an early hand rescores.
MAX_HANDS = 500


def preview(
    match: Match, entry: HandEntry, number: int | None = None, require_kozi: bool = True
) -> dict[str, Any]:
    """Score an entry as it would be saved (as hand `number`, or as the next hand).
    `require_kozi=False` scores a hand without its kózi (for the opening line of a form still
    being filled in); its bonuses may then be short, so never show its totals as final."""
    if require_kozi:
        _require_kozi(match, entry.kozi)
    return _score(match, entry, number)[1]


def totals_after(
    match: Match, result: dict[str, Any], number: int | None = None
) -> list[tuple[str, Fraction]]:
    """Each side's match total once the scored hand `result` (as hand `number`, or as the next
    hand) counts: the totals before it plus what it gives, as the engine credits them."""
    setup = setup_of(match)
    if number is None:  # the next hand: after the previous one, as the match stands
        before = progress.progress_of(match, setup).state(setup)
    else:
        before = state_of(match, upto=number)
    gains = credits(setup, played_result(result))
    names = names_of(match)
    return [
        (names.get(s.name, s.name), s.total + gains.get(s.name, Fraction(0)))
        for s in before.standings
    ]


def record_hand(
    match: Match,
    user: User | None,
    entry: HandEntry,
    accepted_reason: str | None = None,
    idempotency_key: str | None = None,
) -> tuple[Hand, bool]:
    """Save the next hand; returns it and whether it is new. A retried request with the same
    idempotency key gets the hand its first attempt saved, and nothing is stored twice."""
    if idempotency_key:
        earlier = _by_key(match, idempotency_key)
        if earlier is not None:
            return earlier, False
    # Scored before the lock, so saves to other matches go on meanwhile (SQLite has one write
    # lock for the whole database); under it, scored again only if the match moved on since.
    # The next hand is scored against the match's stored progress (the previous hand's
    # totals), so a save reads none of the hands before it.
    by = None if user is None else user.id  # read before the lock expires the user
    try:
        seen, plan = match.progress, _plan(match, entry, accepted_reason)
    except ServiceError:
        seen, plan = None, None  # refused against old hands? decide on the newest
    # The next hand's score follows from the progress alone (its number, the live hands'
    # count, the totals before it): the same progress under the lock is the same plan, and
    # nothing read before the lock needs reading again. Most saves race nobody: one
    # statement locks the match and moves its progress on if it is still what the plan saw.
    # (A retry with this key that saved meanwhile moved the progress too.)
    if plan is None or seen is None or not progress.move_on(match, seen, plan.after):
        now = hold_match(match)
        if idempotency_key:
            earlier = _by_key(match, idempotency_key)
            if earlier is not None:
                return earlier, False
        if plan is None or seen is None or now != seen:
            db.session.expire_all()  # another hand came first: read the match as it is now
            plan = _plan(match, entry, accepted_reason)
        progress.store(match, plan.after)
    saved_at = utcnow()
    try:
        hand = _add_hand(
            match_id=match.id,  # not `match=`: that would load every hand of the match again
            number=plan.number,
            version=1,
            entry=plan.entry,
            result=plan.result,
            accepted_reason=plan.reason,
            deleted=False,
            idempotency_key=idempotency_key or None,
            updated_at=saved_at,
            updated_by_id=by,
        )
        _add_version(hand, "created", by, saved_at)
        # Leaderboard and ratings, in this same transaction.
        stats.count_changes(
            match,
            plan.setup,
            plan.after,
            added=[(plan.number, plan.entry, plan.result)],
            saved_at=saved_at,
        )
        _commit_keeping(hand)
    except IntegrityError:
        # Another request saved first: the same key (a double tap) or the same hand number.
        db.session.rollback()
        earlier = _by_key(match, idempotency_key) if idempotency_key else None
        if earlier is not None:
            return earlier, False
        raise Conflict(
            _("Another hand was saved at the same moment; reload and try again.")
        ) from None
    return hand, True


def _add_hand(**values: Any) -> Hand:
    """Insert a hand with every column given, and return it as a persistent object of the
    session, as the database now holds it: one INSERT … RETURNING, without the unit of
    work's round of the session (every save inserts one hand)."""
    hand = Hand(id=db.session.execute(_ADD_HAND, values).scalar_one(), **values)
    make_transient_to_detached(hand)  # known to the database: add() inserts nothing
    db.session.add(hand)
    return hand


_ADD_HAND = sa.insert(table_of(Hand)).returning(table_of(Hand).c.id)


def _commit_keeping(hand: Hand) -> None:
    """Commit, keeping `hand` as it was just written instead of reading it back for the
    answer (a query per save): nothing else wrote it, since its match was held."""
    written = {key: hand.__dict__[key] for key in _HAND_COLUMNS if key in hand.__dict__}
    db.session.commit()
    for key, value in written.items():
        set_committed_value(hand, key, value)


_HAND_COLUMNS = tuple(column.key for column in sa.inspect(Hand).column_attrs)


@dataclasses.dataclass(frozen=True)
class _Plan:
    """The next hand as it would be stored, and where the match stands after it."""

    setup: MatchSetup
    number: int
    entry: dict[str, Any]
    result: dict[str, Any]
    reason: str | None
    after: progress.Progress


def _plan(match: Match, entry: HandEntry, accepted_reason: str | None) -> _Plan:
    """The next hand as it would be stored: its number, entry, result and accepted reason,
    scored against the totals after the previous hand (the match's progress)."""
    setup = setup_of(match)
    now = progress.progress_of(match, setup)
    state = now.state(setup)
    if state.finished:
        winner = names_of(match).get(state.winner or "", state.winner)
        raise Conflict(
            _("The match is over: %(winner)s won. Correct an earlier hand instead.", winner=winner)
        )
    if state.hands_played >= MAX_HANDS:
        raise Conflict(
            _(
                "This match has %(most)d hands, the most one match holds; "
                "start a new match to play on.",
                most=MAX_HANDS,
            )
        )
    _require_kozi(match, entry.kozi)
    number = now.next_number
    table = _Table(setup, now.totals)
    entry, shown = _score(match, entry, number, table)
    reason = _check_problems(shown, accepted_reason)
    result = _stored(match, entry, number, shown, table)
    totals = carry(setup, now.totals, played_result(result), number)
    after = progress.Progress(number + 1, now.played + 1, totals)
    return _Plan(setup, number, entry.to_json(), result, reason, after)


def edit_hand(
    match: Match,
    number: int,
    user: User | None,
    entry: HandEntry,
    expected_version: int,
    accepted_reason: str | None = None,
) -> Hand:
    """Replace a hand's entry. Only the version the editor saw may be replaced, so of two
    phones editing one hand the second is refused instead of overwriting the first."""
    lock_match(match)
    hand = hand_of(match, number)
    _check_version(hand, expected_version)  # a stale edit is a conflict, whatever it holds
    _require_kozi(match, entry.kozi)
    setup = setup_of(match)
    now = progress.progress_of(match, setup)
    later = _later(match, number)
    table = _Table(setup, _totals_before(setup, now, [hand, *later]))
    entry, shown = _score(match, entry, number, table)
    reason = _check_problems(shown, accepted_reason)
    result = _stored(match, entry, number, shown, table)
    old = (number, hand.entry, hand.result)
    stored = entry.to_json()
    _swap(
        hand,
        expected_version,
        entry=stored,
        result=result,
        accepted_reason=reason,
        user=user,
    )
    _add_version(hand, "edited", None if user is None else user.id)
    totals, removed, added = _rescore_after(match, table, old, (number, stored, result), later)
    after = progress.Progress(now.next_number, now.played, now.totals if totals is None else totals)
    progress.store(match, after)
    # Leaderboard and ratings, in this same transaction.
    stats.count_changes(match, setup, after, [old, *removed], [hand_data(hand), *added])
    db.session.commit()
    return hand


def delete_hand(match: Match, number: int, user: User | None, expected_version: int) -> None:
    lock_match(match)
    hand = hand_of(match, number)
    setup = setup_of(match)
    now = progress.progress_of(match, setup)
    later = _later(match, number)
    table = _Table(setup, _totals_before(setup, now, [hand, *later]))
    old = (number, hand.entry, hand.result)
    _swap(hand, expected_version, deleted=True, user=user)
    _add_version(hand, "deleted", None if user is None else user.id)
    totals, removed, added = _rescore_after(match, table, old, None, later)
    after = progress.Progress(
        now.next_number, now.played - 1, now.totals if totals is None else totals
    )
    progress.store(match, after)
    # Leaderboard and ratings, in this same transaction; the match's place in time moves
    # with its first live hand.
    first = not _live_below(match, number)
    stats.count_changes(match, setup, after, [old, *removed], added, start_moved=first)
    db.session.commit()


def delete_match(match: Match) -> None:
    """Delete the match with its hands and their history, for good; standings and ratings
    recompute without it. (The web page and the API leave this to the club's owner.)"""
    lock_match(match)
    stats.forget_match(match)
    db.session.commit()


def hand_of(match: Match, number: int) -> Hand:
    """Live hand `number` of the match, read by its key (not by loading every hand)."""
    hand = None
    if is_row_id(number):  # 2**63 from a URL overflows the query's integer (a 500)
        hand = db.session.scalar(
            sa.select(Hand).where(
                Hand.match_id == match.id, Hand.number == number, Hand.deleted.is_(False)
            )
        )
    if hand is None:
        raise NotFound(_("Hand %(number)d is not part of this match.", number=number))
    return hand


def check_version(match: Match, number: int, expected_version: int) -> None:
    """Refuse an edit of a hand that is not, or no longer, at the version its editor saw,
    before its body is read: a stale edit is a conflict, whatever it holds."""
    _check_version(hand_of(match, number), expected_version)


def history(match: Match, number: int) -> list[HandVersion]:
    if not is_row_id(number):  # 2**63 from a URL overflows the query's integer (a 500)
        return []
    return list(
        db.session.scalars(
            sa.select(HandVersion)
            .where(HandVersion.match_id == match.id, HandVersion.number == number)
            .order_by(HandVersion.version)
        )
    )


class Rescoring:
    """Scores a match's live hands again in order, carrying the totals from each hand to the
    next: each hand is scored once (replaying every earlier hand for each one made a long
    match's rescoring quadratic, issue 11). Results are stored in English, as `_stored`."""

    def __init__(
        self,
        match: Match,
        setup: MatchSetup | None = None,
        totals: Mapping[str, Fraction] | None = None,
    ) -> None:
        """From the first hand, or from `totals` (those before the first hand rescored)."""
        self.match = match
        self.setup = setup or setup_of(match)
        self.totals = dict(totals) if totals is not None else start_totals(self.setup)

    def keep(self, hand: Hand) -> None:
        """Count a hand as it is stored (one before the first that can change)."""
        self.totals = carry(self.setup, self.totals, played(hand), hand.number)

    def rescore(self, hand: Hand, was: Mapping[str, Fraction] | None = None) -> None:
        """Score `hand` again from its entry against the totals before it, and count it. It
        is scored as it was entered: old hands may lack a kózi that today's form asks for,
        and they are history, so they are scored as they stand. `was` holds the totals its
        stored result was scored against: where the engine says each side scores alike with
        either, the stored result stands as it is."""
        stored = hand.entry
        if any("players" not in side for side in stored["teams"]):
            # One an import stored as the file had it (sides by name), before imports
            # stored entries as the service does.
            entry = read_entry(stored, seating_of(self.match))
        else:
            entry = HandEntry.from_json(stored)
        if was is not None and self._alike(entry, was):
            self.keep(hand)
            return
        with using(None):
            _entry, result = _score(self.match, entry, hand.number, self._table())
            result = with_words(result)
        if result != hand.result:
            hand.result = result
        self.keep(hand)

    def _table(self) -> _Table:
        return _Table(self.setup, self.totals)

    def _alike(self, entry: HandEntry, was: Mapping[str, Fraction]) -> bool:
        """Whether every side of the (stored, well-formed) entry scores alike with the totals
        before it now and with `was`; anything unexpected says no, and is scored in full."""
        try:
            now = _befores(self._table(), entry)
            then = _befores(_Table(self.setup, was), entry)
        except (KeyError, TypeError, ValueError):
            return False
        for side, before, old in zip(entry.teams, now, then, strict=True):
            failed, named = side.failed_openings or 0, side.named_opening
            if not scores_alike(self.setup.variant, before, old, named, failed):
                return False
        return True


def hand_data(hand: Hand) -> HandData:
    return (hand.number, hand.entry, hand.result)


def _later(match: Match, number: int) -> list[Hand]:
    """The live hands after hand `number`, in order: all a correction may rescore."""
    return list(
        db.session.scalars(
            sa.select(Hand)
            .where(Hand.match_id == match.id, Hand.number > number, Hand.deleted.is_(False))
            .order_by(Hand.number)
        )
    )


def _live_below(match: Match, number: int) -> bool:
    """Whether a live hand comes before hand `number`."""
    found = db.session.scalar(
        sa.select(Hand.id)
        .where(Hand.match_id == match.id, Hand.number < number, Hand.deleted.is_(False))
        .limit(1)
    )
    return found is not None


def _totals_before(
    setup: MatchSetup, now: progress.Progress, hands: Sequence[Hand]
) -> dict[str, Fraction]:
    """The totals before the first of `hands` (the live hands from one on, in order), taken
    back from the match's totals after its last hand: the hands before it are not read."""
    totals = now.totals
    for hand in reversed(hands):
        totals = carry_back(setup, totals, played(hand), hand.number)
    return totals


def _rescore_after(
    match: Match,
    before: _Table,
    old: HandData,
    new: HandData | None,
    later: Sequence[Hand],
) -> tuple[dict[str, Fraction] | None, list[HandData], list[HandData]]:
    """Rescore the live hands after a corrected (`new`) or deleted (None) hand whose stored
    data were `old`, the totals before it being `before`'s: its score moved the totals
    before them, and so their opening needs. Once the totals before a later hand are what
    they were when it was scored, neither it nor any hand after it can change. Returns the
    totals after the last hand (None: as they were, nothing after moved) and the data of
    the rescored hands as they were and as they are now."""
    running = Rescoring(match, setup=before.setup, totals=before.totals)
    if new is not None:
        running.totals = carry(running.setup, running.totals, played_result(new[2]), new[0])
    # The totals the stored results of the later hands were scored against.
    was = carry(running.setup, before.totals, played_result(old[2]), old[0])
    removed: list[HandData] = []
    added: list[HandData] = []
    for hand in later:
        if running.totals == was:
            return None, removed, added
        stored_against = was
        was = carry(running.setup, was, played(hand), hand.number)
        kept = hand.result
        running.rescore(hand, stored_against)
        if hand.result is not kept:
            removed.append((hand.number, hand.entry, kept))
            added.append(hand_data(hand))
    db.session.flush()
    return running.totals, removed, added


# --- internals ------------------------------------------------------------------------------


def _by_key(match: Match, key: str) -> Hand | None:
    return db.session.scalar(
        sa.select(Hand).where(Hand.match_id == match.id, Hand.idempotency_key == key)
    )


def _require_kozi(match: Match, kozi: Suit | None) -> None:
    """A new or corrected hand in a variant that deals a kózi every hand must name it."""
    missing = kozi_missing(variant_of(match), kozi)
    if missing:
        raise Invalid(missing)


def _check_problems(result: dict[str, Any], accepted_reason: str | None) -> str | None:
    reason = (accepted_reason or "").strip()
    if len(reason) > MAX_REASON:
        raise Invalid(
            _(
                "The reason for accepting the hand may hold at most %(most)d characters; "
                "this one has %(count)d.",
                most=MAX_REASON,
                count=len(reason),
            )
        )
    if result["problems"] and not reason:
        raise HandRefused(
            _("This hand has problems; fix them, or accept them with a written reason."),
            result["problems"],
            result,
        )
    return reason or None


def _swap(hand: Hand, expected_version: int, user: User | None, **values: Any) -> None:
    changed = db.session.execute(
        sa.update(Hand)
        .where(Hand.id == hand.id, Hand.version == expected_version)
        .values(
            version=Hand.version + 1,
            updated_at=utcnow(),
            updated_by_id=None if user is None else user.id,
            **values,
        )
        .execution_options(synchronize_session=False)
    )
    if rows_changed(changed) != 1:
        db.session.rollback()
        raise _stale(hand)
    db.session.refresh(hand)


def _check_version(hand: Hand, expected_version: int) -> None:
    if hand.version != expected_version:
        raise _stale(hand)


def _stale(hand: Hand) -> Conflict:
    return Conflict(
        _(
            "Hand %(number)d was changed by someone else since you opened it "
            "(it is now at a newer version). Reload it to see their change; nothing was saved.",
            number=hand.number,
        )
    )


def _add_version(hand: Hand, action: str, user_id: int | None, at: datetime | None = None) -> None:
    """Keep `hand` as it is now in its history. Written at once, without a HandVersion
    object: nothing reads it back in this request, and every save writes one."""
    db.session.execute(
        _ADD_VERSION,
        {
            "match_id": hand.match_id,
            "number": hand.number,
            "version": hand.version,
            "action": action,
            "entry": hand.entry,
            "result": hand.result,
            "accepted_reason": hand.accepted_reason,
            "user_id": user_id,
            "created_at": at or utcnow(),
        },
    )


_ADD_VERSION = sa.insert(table_of(HandVersion))


def display_result(match: Match, hand: Hand) -> dict[str, Any]:
    """A saved hand's lines and problems in the reader's language. Results are stored in
    English (one canonical text for the API and the history) with their message ids and
    values, which word them in any language; a result stored before it had them is scored
    again, which gives the same numbers with words in the language of this request."""
    if not translating() or hand.deleted:
        return hand.result
    shown = worded(hand.result)
    if shown is not None:
        return shown
    return _score(match, HandEntry.from_json(hand.entry), hand.number)[1]


def display_version(match: Match, version: HandVersion) -> dict[str, Any]:
    """A saved version's lines in the reader's language, as `display_result` does for the
    live hand; the stored (English) result if the old entry no longer scores."""
    if not translating() or version.action == "deleted":
        return version.result
    shown = worded(version.result)
    if shown is not None:
        return shown
    try:
        return _score(match, HandEntry.from_json(version.entry), version.number)[1]
    except ServiceError:
        return version.result


def _stored(
    match: Match,
    entry: HandEntry,
    number: int,
    shown: dict[str, Any],
    table: _Table | None = None,
) -> dict[str, Any]:
    """The result to store (in English, with the message data of its words): `shown`, the
    entry scored for the reader, when it is in English already, else the entry scored again
    in English."""
    if not translating():
        return with_words(shown)
    with using(None):
        return with_words(_score(match, entry, number, table)[1])


@dataclasses.dataclass(frozen=True)
class _Table:
    """What scoring a hand needs of its match: the rules and seats, and the totals before it."""

    setup: MatchSetup
    totals: Mapping[str, Fraction]


def _table_before(match: Match, number: int | None) -> _Table:
    """The match's totals before hand `number` (before the next hand if None: the match's
    progress), counted once from the stored results of the live hands below it."""
    setup = setup_of(match)
    if number is None:
        return _Table(setup, progress.progress_of(match, setup).totals)
    totals = start_totals(setup)
    for hand in sorted(live_hands(match), key=lambda h: h.number):
        if number is None or hand.number < number:
            totals = carry(setup, totals, played(hand), hand.number)
    return _Table(setup, totals)


def _befores(table: _Table, entry: HandEntry) -> list[Fraction]:
    """Each side's score before the hand, which sets its opening requirement."""
    if table.setup.table_format.credit is Credit.TEAM:
        return [table.totals[side.name] for side in entry.teams]
    return [side_total_before(table.totals, [str(p) for p in side.players]) for side in entry.teams]


def _read_teams(table: _Table, entry: HandEntry) -> Sequence[TeamHand]:
    """The entry's sides as the engine reads them, each with its score before the hand."""
    return referee.team_hands(entry.teams, _befores(table, entry), table.setup.table_format)


def _score(
    match: Match, entry: HandEntry, number: int | None, table: _Table | None = None
) -> tuple[HandEntry, dict[str, Any]]:
    """Score `entry` as hand `number`, against the totals before it (`table`, when the caller
    carries them forward; else counted from the stored hands)."""
    table = table or _table_before(match, number)
    table_format = table.setup.table_format
    credit = table_format.credit
    try:
        teams = _read_teams(table, entry)
    except ValueError as error:
        raise Invalid(str(error)) from None
    result = referee.hand_json(score_hand(table.setup.variant, teams, entry.kozi, table_format))
    for side, scored in zip(entry.teams, result["teams"], strict=True):
        scored["players"] = list(side.players)
        if credit is Credit.TEAM:
            scored["team"] = side.name
    return entry, result
