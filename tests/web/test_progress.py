"""A save, a correction or a deletion moves the match's stored progress and its summary rows
from where the previous hand left them (match.progress, stats.count_changes) instead of
replaying the match. After every step of a random sequence they must equal what a full
replay of the stored hands makes: the progress counted from the hands, the rows a whole
refresh writes, the state `state_of` replays, and every hand's score as scored afresh."""

from typing import Any

import sqlalchemy as sa
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.hand_entries import entry_for, typed
from support.replay import live_hands, scored_afresh, state_of

from scorekeeper import match as matches
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import Conflict
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec, progress
from scorekeeper.models import Hand, Match, MatchStat, PairMatchStat, PlayerMatchStat, User
from scorekeeper.records import stats
from scorekeeper.rules.i18n import using

FORMATS = ("4p", "2p", "3p-partnership")


def rows_of(match: Match) -> dict[str, list[tuple[Any, ...]]]:
    """The match's summary rows, in a fixed order."""
    found = {}
    for table in (MatchStat, PlayerMatchStat, PairMatchStat):
        columns = list(table.__table__.columns)
        rows = db.session.execute(
            sa.select(*columns)
            .where(table.match_id == match.id)
            .order_by(*table.__table__.primary_key.columns)
        )
        found[table.__tablename__] = [tuple(row) for row in rows]
    return found


def assert_as_replayed(match: Match) -> None:
    db.session.expire_all()
    setup = matches.setup_of(match)
    kept = progress.stored(match, setup)
    assert kept is not None
    assert kept == progress.counted(match, setup)
    replayed = state_of(match)
    assert kept.state(setup).standings == replayed.standings
    assert kept.state(setup).next_dealer == replayed.next_dealer
    assert kept.state(setup).finished == replayed.finished
    # Every stored score is the one the hand gets scored afresh against a full replay, and
    # every stored tally the one its entry and result make.
    with using(None):
        for hand in live_hands(match):
            fresh = scored_afresh(match, hand)
            assert [t["score"] for t in hand.result["teams"]] == [t.score for t in fresh.teams], (
                hand.number
            )
    tallies = db.session.execute(
        sa.select(Hand.entry, Hand.result, Hand.tally).where(Hand.match_id == match.id)
    )
    for entry, result, tally in tallies:
        assert tally == matches.tally_of(entry, result)
    rows = rows_of(match)
    stats.refresh_match(match)  # the whole match summed again
    db.session.commit()
    assert rows_of(match) == rows


step = st.one_of(
    st.tuples(st.just("hand"), st.integers(0, 9), st.booleans(), st.integers(0, 2)),
    st.tuples(
        st.just("edit"), st.integers(0, 20), st.integers(0, 9), st.booleans(), st.integers(0, 2)
    ),
    st.tuples(st.just("delete"), st.integers(0, 20)),
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    fmt=st.sampled_from(FORMATS),
    target=st.sampled_from([900, 3000]),
    steps=st.lists(step, min_size=1, max_size=14),
)
def test_each_step_equals_a_full_replay(
    owner: User, fmt: str, target: int, steps: list[tuple[Any, ...]]
) -> None:
    club = clubs.create_club(owner, f"Club {fmt} {target} {len(steps)} {id(steps)}")
    people = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cy", "Di")]
    if fmt == "4p":
        teams = [TeamSpec("A", (people[0], people[1])), TeamSpec("B", (people[2], people[3]))]
    elif fmt == "2p":
        teams = [TeamSpec("A", (people[0],)), TeamSpec("B", (people[1],))]
    else:
        teams = [TeamSpec("table", tuple(people[:3]))]
    match = matches.create_match(club, owner, "pagat", fmt, teams, target=target)
    for kind, *args in steps:
        live = live_hands(match)
        try:
            if kind == "hand":
                matches.record_hand(
                    match, owner, typed(match, entry_for(match, *args)), "a test hand"
                )
            elif kind == "edit" and live:
                hand = live[args[0] % len(live)]
                new = typed(match, entry_for(match, *args[1:]))
                matches.edit_hand(match, hand.number, owner, new, hand.version, "a test hand")
            elif kind == "delete" and live:
                hand = live[args[0] % len(live)]
                matches.delete_hand(match, hand.number, owner, hand.version)
            else:
                continue
        except Conflict:  # a hand for a finished match: refused, nothing changes
            db.session.rollback()
            continue
        assert_as_replayed(match)


def test_a_match_counted_before_the_column_is_counted_by_its_next_save(owner: User) -> None:
    """Matches saved before migration 0007 have no progress: the next save counts it."""
    club = clubs.create_club(owner, "Old")
    people = [clubs.add_player(club, name).id for name in ("Ann", "Bob")]
    teams = [TeamSpec("A", (people[0],)), TeamSpec("B", (people[1],))]
    match = matches.create_match(club, owner, "pagat", "2p", teams, target=100_000)
    for choice in range(3):
        matches.record_hand(
            match, owner, typed(match, entry_for(match, choice, False, 0)), "a test hand"
        )
    first = live_hands(match)[0]
    matches.delete_hand(match, first.number, owner, first.version)
    db.session.execute(sa.update(Match).where(Match.id == match.id).values(progress=None))
    db.session.commit()
    matches.record_hand(match, owner, typed(match, entry_for(match, 4, True, 0)), "a test hand")
    assert [h.number for h in live_hands(match)] == [2, 3, 4]
    assert_as_replayed(match)
