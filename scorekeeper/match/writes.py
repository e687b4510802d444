"""Recording, correcting and deleting hands, and deleting a whole match. Every score comes
from the rules engine, once per write, in its canonical form (`scoring.score_entry`); a hand
with problems is saved only with a written reason, and every earlier version is kept (as
long as its match is)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import make_transient_to_detached
from sqlalchemy.orm.attributes import set_committed_value

from scorekeeper.errors import Conflict, Invalid, NotFound, ServiceError
from scorekeeper.extensions import db
from scorekeeper.match import progress
from scorekeeper.match.bounds import MAX_HANDS, MAX_REASON
from scorekeeper.match.entry import HandEntry
from scorekeeper.match.locks import hold_match, lock_match
from scorekeeper.match.reader import read_hand
from scorekeeper.match.scored import ScoredHand, Tally
from scorekeeper.match.scoring import befores, score_entry
from scorekeeper.match.setup import names_of, seating_of, setup_of, variant_of
from scorekeeper.match.view import totals_before
from scorekeeper.models import Hand, HandVersion, Match, User, rows_changed, table_of, utcnow
from scorekeeper.numbers import is_row_id
from scorekeeper.rules.match import (
    MatchSetup,
    PlayedHand,
    carry,
    carry_back,
    credits,
    start_totals,
)
from scorekeeper.rules.scoring import kozi_missing, scores_alike
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import ngettext

#: A live hand as the stats count it: its number, entry and scored result.
HandData = tuple[int, HandEntry, ScoredHand]


class HandRefused(ServiceError):
    """A hand with problems and no accepted reason: nothing was saved. `preview` is the hand
    as it would have been scored, in the reader's language."""

    status = 422

    def __init__(self, message: str, preview: ScoredHand) -> None:
        super().__init__(message)
        self.preview = preview
        self.problems = list(preview.problems)

    def details(self) -> dict[str, Any]:
        return {"problems": self.problems, "preview": self.preview.api_json()}


@dataclasses.dataclass(frozen=True, slots=True)
class Changes:
    """What one write did to a match's live hands, for whatever keeps sums of them (the
    stats tables) in the same transaction."""

    match: Match
    setup: MatchSetup
    after: progress.Progress
    removed: Sequence[HandData] = ()  # live hands as they were, now changed or gone
    added: Sequence[HandData] = ()  # live hands as they are now
    saved_at: datetime | None = None  # a new hand's time
    start_moved: bool = False  # the match's first live hand changed


#: Called with every write's `Changes` before it commits (records.stats registers).
listeners: list[Callable[[Changes], None]] = []


def _tell(changes: Changes) -> None:
    for listener in listeners:
        listener(changes)


@dataclasses.dataclass(frozen=True, slots=True)
class Preview:
    """An entry scored as it would be saved, in the reader's language, and each side's match
    total once it counts."""

    hand: ScoredHand
    totals: list[tuple[str, Fraction]]


def preview(
    match: Match,
    entry: HandEntry,
    number: int | None = None,
    require_kozi: bool = True,
    before: Mapping[str, Fraction] | None = None,
) -> Preview:
    """Score an entry as it would be saved (as hand `number`, or as the next hand), against
    the totals `before` it (read here unless the caller holds them: the form's read model).
    `require_kozi=False` scores a hand without its kózi (for the opening line of a form still
    being filled in); its bonuses may then be short, so never show its totals as final."""
    if require_kozi:
        _require_kozi(match, entry.kozi)
    setup = setup_of(match)
    before = _before(match, setup, number) if before is None else before
    scored = _score(setup, entry, before)
    return Preview(scored.for_reader(), totals_after(match, setup, before, scored))


def totals_after(
    match: Match, setup: MatchSetup, before: Mapping[str, Fraction], hand: ScoredHand
) -> list[tuple[str, Fraction]]:
    """Each side's match total once `hand` counts: the totals `before` it plus what it
    gives, as the engine credits them."""
    gains = credits(setup, hand.played())
    names = names_of(match)
    return [
        (names.get(name, name), total + gains.get(name, Fraction(0)))
        for name, total in before.items()
    ]


def _before(match: Match, setup: MatchSetup, number: int | None) -> dict[str, Fraction]:
    """The totals before hand `number` (before the next hand if None: the match's progress,
    without reading a hand; else taken back over the later hands' tallies)."""
    if number is None:
        return progress.progress_of(match, setup).totals
    hand_of(match, number)  # a hand of this match, live (else 404)
    return totals_before(match, number)  # from the tallies: no later hand read whole


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
            entry=plan.entry.to_json(),
            result=plan.result.to_json(),
            tally=Tally.of(plan.entry, plan.result).to_json(),
            accepted_reason=plan.reason,
            deleted=False,
            idempotency_key=idempotency_key or None,
            updated_at=saved_at,
            updated_by_id=by,
        )
        _add_version(hand, "created", by, saved_at)
        # Leaderboard and ratings, in this same transaction.
        added = (plan.number, plan.entry, plan.result)
        _tell(Changes(match, plan.setup, plan.after, added=[added], saved_at=saved_at))
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
    entry: HandEntry
    result: ScoredHand
    reason: str | None
    after: progress.Progress


def _plan(match: Match, entry: HandEntry, accepted_reason: str | None) -> _Plan:
    """The next hand as it would be stored: its number, entry, result and accepted reason,
    scored against the totals after the previous hand (the match's progress)."""
    setup = setup_of(match)
    now = progress.progress_of(match, setup)
    state = now.state(setup)
    if state.finished and state.winner is None:
        raise Conflict(
            ngettext(
                "The match is over after its %(num)d hand, level. Correct an earlier hand instead.",
                "The match is over after its %(num)d hands, level. "
                "Correct an earlier hand instead.",
                state.hands_played,
            )
        )
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
    result = _score(setup, entry, now.totals)
    reason = _check_problems(result, accepted_reason)
    totals = carry(setup, now.totals, result.played(), number)
    after = progress.Progress(number + 1, now.played + 1, totals)
    return _Plan(setup, number, entry, result, reason, after)


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
    before = _totals_before(setup, now, [hand, *later])
    result = _score(setup, entry, before)
    reason = _check_problems(result, accepted_reason)
    old = _data(hand)
    _swap(
        hand,
        expected_version,
        entry=entry.to_json(),
        result=result.to_json(),
        tally=Tally.of(entry, result).to_json(),
        accepted_reason=reason,
        user=user,
    )
    _add_version(hand, "edited", None if user is None else user.id)
    new = (number, entry, result)
    totals, removed, added = _rescore_after(match, setup, before, old, new, later)
    after = progress.Progress(now.next_number, now.played, now.totals if totals is None else totals)
    progress.store(match, after)
    # Leaderboard and ratings, in this same transaction.
    _tell(Changes(match, setup, after, removed=[old, *removed], added=[new, *added]))
    db.session.commit()
    return hand


def delete_hand(match: Match, number: int, user: User | None, expected_version: int) -> None:
    lock_match(match)
    hand = hand_of(match, number)
    setup = setup_of(match)
    now = progress.progress_of(match, setup)
    later = _later(match, number)
    before = _totals_before(setup, now, [hand, *later])
    old = _data(hand)
    _swap(hand, expected_version, deleted=True, user=user)
    _add_version(hand, "deleted", None if user is None else user.id)
    totals, removed, added = _rescore_after(match, setup, before, old, None, later)
    after = progress.Progress(
        now.next_number, now.played - 1, now.totals if totals is None else totals
    )
    progress.store(match, after)
    # Leaderboard and ratings, in this same transaction; the match's place in time moves
    # with its first live hand.
    first = not _live_below(match, number)
    _tell(Changes(match, setup, after, removed=[old, *removed], added=added, start_moved=first))
    db.session.commit()


def delete_match(match: Match) -> None:
    """Delete the match with its hands and their history, for good; standings and ratings
    recompute without it. (The web page and the API leave this to the club's owner.)"""
    lock_match(match)
    for forget in match_forgetters:  # the stats take it out of their sums (and delete it)
        forget(match)
    state = sa.inspect(match)
    if not (state.deleted or state.was_deleted):
        db.session.delete(match)
    db.session.commit()


#: Called before a match is deleted, in the same transaction (records.stats registers).
match_forgetters: list[Callable[[Match], None]] = []


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
    match's rescoring quadratic, issue 11)."""

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

    def keep(self, hand: Hand, result: ScoredHand | None = None) -> None:
        """Count a hand as it is stored (one before the first that can change)."""
        played = _played(hand) if result is None else result.played()
        self.totals = carry(self.setup, self.totals, played, hand.number)

    def rescore(
        self, hand: Hand, was: Mapping[str, Fraction] | None = None
    ) -> tuple[HandData, HandData] | None:
        """Score `hand` again from its entry against the totals before it, and count it;
        if its stored result changed, its data as they were and as they are now. It is
        scored as it was entered: old hands may lack a kózi that today's form asks for, and
        they are history, so they are scored as they stand. `was` holds the totals its
        stored result was scored against: where the engine says each side scores alike with
        either, the stored result stands (and is not even read: its tally counts it)."""
        entry = HandEntry.from_json(hand.entry)
        if any(not side.players for side in entry.teams):
            # One an import stored as the file had it (sides by name), before imports
            # stored entries as the match does.
            entry = read_hand(hand.entry, seating_of(self.match))
        if was is not None and self._alike(entry, was):
            self.keep(hand)
            return None
        result = score_entry(self.setup, entry, self.totals)
        stored = result.to_json()
        self.keep(hand, result)
        if stored == hand.result:
            return None
        before = (hand.number, entry, ScoredHand.from_json(hand.result))
        hand.result = stored
        hand.tally = Tally.of(entry, result).to_json()
        return before, (hand.number, entry, result)

    def _alike(self, entry: HandEntry, was: Mapping[str, Fraction]) -> bool:
        """Whether every side of the (stored, well-formed) entry scores alike with the totals
        before it now and with `was`; anything unexpected says no, and is scored in full."""
        try:
            now = befores(self.setup, self.totals, entry)
            then = befores(self.setup, was, entry)
        except (KeyError, TypeError, ValueError):
            return False
        for side, before, old in zip(entry.teams, now, then, strict=True):
            failed, named = side.failed_openings or 0, side.named_opening
            if not scores_alike(self.setup.variant, before, old, named, failed):
                return False
        return True


def _data(hand: Hand) -> HandData:
    return (hand.number, HandEntry.from_json(hand.entry), ScoredHand.from_json(hand.result))


def _played(hand: Hand) -> PlayedHand:
    """The hand as the match engine counts it, from its tally where that was loaded with it
    (the later hands of a correction: a few numbers each, where the result is all of its
    melds), else from its stored result."""
    tally = None if "tally" in sa.inspect(hand).unloaded else hand.tally
    if tally is not None:
        return Tally.from_json(tally).played()
    return ScoredHand.from_json(hand.result).played()


def _later(match: Match, number: int) -> list[Hand]:
    """The live hands after hand `number`, in order: all a correction may rescore. Each
    with its tally and without its result, which is read only for a hand whose score
    changes: a correction of hand 1 of 500 read and decoded every later result (issue 18)."""
    return list(
        db.session.scalars(
            sa.select(Hand)
            .options(sa.orm.undefer(Hand.tally), sa.orm.defer(Hand.result))
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
        totals = carry_back(setup, totals, _played(hand), hand.number)
    return totals


def _rescore_after(
    match: Match,
    setup: MatchSetup,
    before: Mapping[str, Fraction],
    old: HandData,
    new: HandData | None,
    later: Sequence[Hand],
) -> tuple[dict[str, Fraction] | None, list[HandData], list[HandData]]:
    """Rescore the live hands after a corrected (`new`) or deleted (None) hand whose stored
    data were `old`, the totals before it being `before`: its score moved the totals
    before them, and so their opening needs. Once the totals before a later hand are what
    they were when it was scored, neither it nor any hand after it can change. Returns the
    totals after the last hand (None: as they were, nothing after moved) and the data of
    the rescored hands as they were and as they are now."""
    running = Rescoring(match, setup=setup, totals=before)
    if new is not None:
        running.totals = carry(setup, running.totals, new[2].played(), new[0])
    # The totals the stored results of the later hands were scored against.
    was = carry(setup, before, old[2].played(), old[0])
    removed: list[HandData] = []
    added: list[HandData] = []
    for hand in later:
        if running.totals == was:
            return None, removed, added
        stored_against = was
        was = carry(setup, was, _played(hand), hand.number)
        changed = running.rescore(hand, stored_against)
        if changed is not None:
            removed.append(changed[0])
            added.append(changed[1])
    db.session.flush()
    return running.totals, removed, added


# --- internals ------------------------------------------------------------------------------


def _by_key(match: Match, key: str) -> Hand | None:
    return db.session.scalar(
        sa.select(Hand).where(Hand.match_id == match.id, Hand.idempotency_key == key)
    )


def _require_kozi(match: Match, kozi: Any) -> None:
    """A new or corrected hand in a variant that deals a kózi every hand must name it."""
    missing = kozi_missing(variant_of(match), kozi)
    if missing:
        raise Invalid(missing)


def _score(setup: MatchSetup, entry: HandEntry, totals: Mapping[str, Fraction]) -> ScoredHand:
    return score_entry(setup, entry, totals)


def _check_problems(result: ScoredHand, accepted_reason: str | None) -> str | None:
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
    if result.problems and not reason:
        raise HandRefused(
            _("This hand has problems; fix them, or accept them with a written reason."),
            result.for_reader(),
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
