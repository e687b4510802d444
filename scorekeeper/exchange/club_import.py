"""A club made anew from an exchange.club_export document, written in short steps: nobody
sees it until its last step is written, and an import that fails removes what it wrote (a
bad file is refused with a message naming the first thing wrong in it).

Why steps (issue 18): the whole import in one transaction held SQLite's one write lock
for as long as the import took, so every other club's hand save waited seconds, or failed.
Now the file is checked whole first (exchange.import_check) and every hand scored with no
write under way; each step then only writes rows already made (the club with its players
and seasons; a match's table; its hands and versions, a few hundred at a time; its derived
rows), each in its own short transaction begun by holding the new club's row, so another
club's save waits for one step at most. The new club is hidden (`Club.importing`) and has
no member until the last step, which sums its players' totals and ratings, gives its
members their roles and shows it.

Every part gets a new id, and the players' ids inside hands are rewritten to match. Each live
hand is scored again by the rules engine from its entry, in order, exactly as the hand
service stores it; versions keep their own results and times, so the history, the order the
matches were played in, the standings and the ratings come back the same.
"""

from __future__ import annotations

import dataclasses
import secrets
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper import records as stats
from scorekeeper.errors import Invalid
from scorekeeper.exchange.import_check import check_club_file
from scorekeeper.exchange.import_limits import ImportLimits, check_limits
from scorekeeper.exchange.import_match import Entries
from scorekeeper.exchange.import_parts import (
    ClubParts,
    club_parts,
    first_played,
    hand_row,
    new_hands,
    new_match,
    new_versions,
)
from scorekeeper.extensions import db
from scorekeeper.locks import lock_row
from scorekeeper.match import Rescoring
from scorekeeper.models import (
    Club,
    ClubImport,
    Hand,
    HandVersion,
    Match,
    Membership,
    Player,
    Season,
    utcnow,
)
from scorekeeper.values import need_list, need_object
from scorekeeper.web.gettext import gettext as _

#: Rows (hands, versions, derived rows) written per step: some milliseconds of inserts.
ROWS_A_STEP = 150
#: Matches whose tables are written in one step (a match, its teams and seats).
MATCHES_A_STEP = 25
#: The longest pause after a step on SQLite (`_let_others_in`).
MOST_PAUSE = 0.05
#: A club still hidden this long after its import began was left by an import that died
#: (a killed worker): the next import removes it.
STALE_IMPORT = timedelta(hours=6)


@dataclasses.dataclass(frozen=True)
class Imported:
    club: Club
    matches: int
    hands: int
    missing_members: list[str]  # usernames in the file with no account here


def import_club(
    data: Any,
    owner: Any = None,
    restore_members: bool = False,
    limits: ImportLimits | None = None,
    attempt: int | None = None,
    step: Callable[[], None] | None = None,
) -> Imported:
    """Make a new club from `data`; `owner` (a User) becomes its owner, and with
    `restore_members` the file's members who have an account here (same username) get their
    roles back. Hands keep their authors only where the author is a member of the new club.

    With `limits` a file over any of them is refused before anything else is read. `attempt`
    is the import's row in `club_import` (exchange.import_rate), noted with the club it
    makes; `step` is called after each step is committed (the tests count them)."""
    if limits is not None:
        check_limits(data, limits)
    remove_stale_imports()
    # The whole file, before anything of it is stored; every hand's entry comes back read.
    entries = check_club_file(data)
    doc = need_object(data, "the file")
    parts = club_parts(doc, owner, restore_members)
    matches = [
        need_object(raw, f"matches[{index}]")
        for index, raw in enumerate(need_list(doc.get("matches"), "matches"))
    ]
    db.session.commit()  # what was read so far ends here: each step begins with its write
    done = step or (lambda: None)
    club_id, players, seasons = _first_step(parts, attempt)
    done()
    writer = _Steps(club_id, done)
    try:
        count = 0
        for start in range(0, len(matches), MATCHES_A_STEP):
            count += _import_matches(
                writer,
                list(enumerate(matches))[start : start + MATCHES_A_STEP],
                (players, seasons, parts.authors),
                entries,
            )
        _last_step(club_id, parts, done)
        done()
    except BaseException:
        db.session.rollback()
        remove_club(club_id)
        raise
    club = db.session.get(Club, club_id)
    assert club is not None
    return Imported(club, len(matches), count, parts.missing)


def _hold(club_id: int) -> float:
    """Begin a step: hold the new club's row (on SQLite, the write lock) before anything is
    read, so the step's reads see every write committed before it. Returns when (see
    `_let_others_in`)."""
    lock_row(Club, club_id, Club.name)
    return time.perf_counter()


def _let_others_in(held_since: float) -> None:
    """After a step's commit on SQLite, wait as long as the step held the write lock (at
    most MOST_PAUSE). SQLite's one lock is not given in turn: a save waiting for it sleeps
    between tries (up to 100 ms apart once it has waited a while), and an import that takes
    it again at once kept winning it, so another club's save waited half a second behind
    three imports. PostgreSQL's row locks queue fairly and need no pause."""
    if db.session.get_bind().dialect.name == "sqlite":
        time.sleep(min(time.perf_counter() - held_since, MOST_PAUSE))


class _Steps:
    """Rows written a step at a time: each step holds the new club's row, inserts at most
    ROWS_A_STEP rows and commits. (Fewer, fuller steps: each commit of SQLite's waits for
    the disk, some milliseconds.)"""

    def __init__(self, club_id: int, done: Callable[[], None]) -> None:
        self.club_id = club_id
        self.done = done
        self.rows: list[tuple[Any, dict[str, Any]]] = []

    def add(self, model: Any, rows: Sequence[dict[str, Any]]) -> None:
        self.rows.extend((model, row) for row in rows)
        while len(self.rows) >= ROWS_A_STEP:
            self.write(self.rows[:ROWS_A_STEP])
            del self.rows[:ROWS_A_STEP]

    def write(self, rows: Sequence[tuple[Any, dict[str, Any]]], then: Any = None) -> None:
        """One step: `rows` inserted (each model's together, in their order), then `then`
        (a callable) run, and committed."""
        held_since = _hold(self.club_id)
        by_model: dict[Any, list[dict[str, Any]]] = {}
        for model, row in rows:
            by_model.setdefault(model, []).append(row)
        for model, values in by_model.items():
            db.session.execute(sa.insert(model), values)
        if then is not None:
            then()
        db.session.commit()
        _let_others_in(held_since)
        self.done()

    def finish(self, then: Any = None) -> None:
        """Write what is left, with `then`."""
        rows, self.rows = self.rows, []
        if rows or then is not None:
            self.write(rows, then)


def _first_step(
    parts: ClubParts, attempt: int | None
) -> tuple[int, dict[int, int], dict[int, int]]:
    """The hidden club with its players and seasons; returns its id and the new ids of its
    players and seasons by their ids in the file."""
    club = Club(
        name=parts.name,
        invite_code=secrets.token_urlsafe(16),
        created_at=parts.created_at,
        min_matches_ranked=parts.min_matches_ranked,
        importing=True,
    )
    players = [Player(name=name) for _key, name in parts.players]
    seasons = [Season(name=n, starts_on=a, ends_on=b) for _k, n, a, b in parts.seasons]
    club.players.extend(players)
    club.seasons.extend(seasons)
    db.session.add(club)
    db.session.flush()
    if attempt is not None:
        db.session.execute(
            sa.update(ClubImport).where(ClubImport.id == attempt).values(club_id=club.id)
        )
    else:  # the command line's: counted by no limit, but it keeps the club from the sweep
        db.session.add(ClubImport(user_id=None, club_id=club.id, started_at=utcnow()))
    ids = (
        club.id,
        {key: p.id for (key, _name), p in zip(parts.players, players, strict=True)},
        {key: s.id for (key, *_rest), s in zip(parts.seasons, seasons, strict=True)},
    )
    db.session.commit()
    return ids


def _import_matches(
    writer: _Steps,
    matches: list[tuple[int, dict[str, Any]]],
    known: tuple[dict[int, int], dict[int, int], dict[str, int]],
    entries: dict[int, Entries],
) -> int:
    """Write some matches in steps (their tables in one, then their hands, versions and
    derived rows); returns how many hands they have."""
    players, seasons, authors = known
    made = [
        new_match(raw, f"matches[{i}]", writer.club_id, players, seasons, authors)
        for i, raw in matches
    ]
    held_since = _hold(writer.club_id)
    db.session.add_all(match for match, _seated in made)
    db.session.flush()
    ids = [match.id for match, _seated in made]
    db.session.commit()
    _let_others_in(held_since)
    writer.done()
    # No write under way: the matches read back, their hands made and scored, their rows
    # summed; then written.
    loaded = {
        match.id: match
        for match in db.session.scalars(
            sa.select(Match)
            .where(Match.id.in_(ids))
            .options(selectinload(Match.seats), selectinload(Match.teams))
        )
    }
    count = 0
    progress: list[tuple[int, Any, dict[Any, list[dict[str, Any]]]]] = []
    written: list[tuple[Any, list[dict[str, Any]]]] = []
    for (index, raw), match_id, (_match, seated) in zip(matches, ids, made, strict=True):
        where = f"matches[{index}]"
        hands = new_hands(match_id, raw.get("hands"), where, seated, authors, entries[index])
        _rescore(loaded[match_id], hands, where)
        versions = new_versions(match_id, raw.get("versions", []), where, seated, authors, hands)
        done, rows = stats.imported_rows(loaded[match_id], hands, first_played(hands, versions))
        progress.append((match_id, done, rows))
        count += len(hands)
        written.append((Hand, [hand_row(hand) for hand in hands]))
        written.append((HandVersion, versions))
    db.session.rollback()  # the reads end before the writes begin
    for model, values in written:
        writer.add(model, values)

    def derived() -> None:
        for match_id, done, rows in progress:
            stats.store_imported_rows(match_id, done, rows)

    writer.finish(then=derived)
    return count


def _rescore(match: Match, hands: Sequence[Hand], where: str) -> None:
    """Score the live hands again, in order, as the match stores them, each once: the
    totals carry from hand to hand. (Their entries were read as the API reads a hand.)"""
    running = Rescoring(match)
    for hand in sorted(hands, key=lambda h: h.number):
        if hand.deleted:
            continue
        try:
            running.rescore(hand)
        except Invalid as error:
            raise Invalid(
                _(
                    "%(where)s, hand %(number)d: %(problem)s",
                    where=where,
                    number=hand.number,
                    problem=error.message,
                )
            ) from None


def _last_step(club_id: int, parts: ClubParts, done: Callable[[], None]) -> None:
    """The players' totals and ratings (a step each), then the members and the club shown."""
    for then in (stats.sum_totals, stats.sum_ratings):
        _hold(club_id)
        then(club_id)
        db.session.commit()
        done()
    _hold(club_id)
    db.session.execute(
        sa.insert(Membership),
        [{"club_id": club_id, "user_id": uid, "role": role} for uid, role in parts.roles.items()],
    )
    db.session.execute(sa.update(Club).where(Club.id == club_id).values(importing=False))
    db.session.commit()


def remove_club(club_id: int) -> None:
    """Remove what an import wrote of club `club_id` (still hidden): its matches first,
    whose seats name its players and whose season is one of its seasons, then the club,
    whose players and the rest go with it (ON DELETE CASCADE; SQLite enforces it too,
    extensions.py)."""
    hidden = sa.select(Club.id).where(Club.id == club_id, Club.importing.is_(True))
    db.session.execute(sa.delete(Match).where(Match.club_id.in_(hidden)))
    db.session.execute(sa.delete(Club).where(Club.id.in_(hidden)))
    db.session.commit()


def remove_stale_imports() -> None:
    """Remove the clubs whose import began long ago and never ended (its worker killed):
    hidden clubs no import is still writing."""
    recent = sa.select(ClubImport.club_id).where(
        ClubImport.club_id == Club.id, ClubImport.started_at > utcnow() - STALE_IMPORT
    )
    stale = list(
        db.session.scalars(sa.select(Club.id).where(Club.importing.is_(True), ~recent.exists()))
    )
    for club_id in stale:
        remove_club(club_id)
