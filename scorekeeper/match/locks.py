"""One writer at a time per match.

A hand's score depends on the totals before it (opening needs, the target), and a correction
rescores every later hand. Two requests writing hands of one match at once, each from what it
read before the other committed, could store a hand scored against totals that are no longer
true, or both pick the same next number. So every hand write locks its match and trusts only
what holds under the lock: an edit or a deletion reads the hands after taking it; a new hand
is scored before (other matches' saves go on meanwhile) and kept only if the match's stored
progress (match.progress: every hand write moves it) is the same under the lock, else
scored again there. (A save nobody raced takes the lock with progress.move_on, the UPDATE
that moves the progress on only if it is still the one the hand was scored from.)
"""

from __future__ import annotations

from typing import Any

from scorekeeper.locks import hold_row, lock_row
from scorekeeper.models import Match


def lock_match(match: Match) -> None:
    """Hold `match` for this transaction: what was read before the lock is either read anew
    or, for a new hand, checked against the progress it was scored from."""
    lock_row(Match, match.id, Match.first_dealer)


def hold_match(match: Match) -> Any:
    """Hold `match` for this transaction and return its progress as stored under the lock
    (see `hold_row`): a new hand scored from the same progress is still right."""
    return hold_row(Match, match.id, Match.first_dealer, Match.progress)
