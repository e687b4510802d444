"""The derived tables (records.stats) kept up hand by hand equal the same tables rebuilt from
the stored hands, and the leaderboard and ratings read from them equal the pure-Python sums
and replay over the matches themselves."""

from datetime import UTC, date, datetime, timedelta
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskCliRunner
from flask_migrate import upgrade
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import replay
from support.hand_entries import entry_for, typed

from scorekeeper import match as matches
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import Conflict
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import (
    Club,
    ClubImport,
    Hand,
    HandVersion,
    JoinRequest,
    LiveDrawing,
    LoginFailure,
    Match,
    MatchStat,
    PairMatchStat,
    PlayerMatchStat,
    PlayerRating,
    PlayerTotal,
    RatingStep,
    ShareLink,
    User,
)
from scorekeeper.records import (
    leaderboard,
    match_list,
    pair_records,
    player_records,
    ratings,
    seasons,
    standings,
    stats,
)
from scorekeeper.records import lines as records

DERIVED = (MatchStat, PlayerMatchStat, PairMatchStat, PlayerTotal, RatingStep, PlayerRating)


def snapshot(club: Club) -> dict[str, list[tuple[Any, ...]]]:
    """Every derived row of the club, in a fixed order, times as naive UTC."""

    def plain(value: Any) -> Any:
        if isinstance(value, datetime) and value.tzinfo is not None:
            return value.astimezone(UTC).replace(tzinfo=None)
        return value

    found = {}
    for table in DERIVED:
        columns = list(table.__table__.columns)
        rows = db.session.execute(
            sa.select(*columns)
            .where(table.club_id == club.id)
            .order_by(*table.__table__.primary_key.columns)
        )
        found[table.__tablename__] = [tuple(plain(v) for v in row) for row in rows]
    return found


def start(club: Club, user: User, people: list[int], fmt: str, shift: int) -> Match:
    ring = people[shift % len(people) :] + people[: shift % len(people)]
    if fmt == "4p":
        teams = [TeamSpec("A", (ring[0], ring[1])), TeamSpec("B", (ring[2], ring[3]))]
    elif fmt == "2p":
        teams = [TeamSpec("A", (ring[0],)), TeamSpec("B", (ring[1],))]
    else:
        teams = [TeamSpec("table", tuple(ring[:3]))]
    return matches.create_match(club, user, "pagat", fmt, teams, target=900)


operation = st.one_of(
    st.tuples(st.just("start"), st.sampled_from(["4p", "2p", "3p-partnership"]), st.integers(0, 4)),
    st.tuples(
        st.just("hand"), st.integers(0, 9), st.integers(0, 3), st.booleans(), st.integers(0, 2)
    ),
    st.tuples(
        st.just("edit"), st.integers(0, 9), st.integers(0, 5), st.integers(0, 3), st.booleans()
    ),
    st.tuples(st.just("delete"), st.integers(0, 9), st.integers(0, 5)),
    st.tuples(st.just("backdate"), st.integers(0, 9), st.integers(0, 40)),
    st.tuples(st.just("place"), st.integers(0, 9), st.integers(0, 2)),
)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(steps=st.lists(operation, min_size=1, max_size=18))
def test_kept_up_hand_by_hand_equals_a_rebuild(owner: User, steps: list[tuple[Any, ...]]) -> None:
    club = clubs.create_club(owner, f"Club {db.session.scalar(sa.select(sa.func.count(Club.id)))}")
    people = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cy", "Di", "Eva")]
    seasons.create_season(club, "Early", date(2020, 1, 1), date(2020, 12, 31))
    seasons.create_season(club, "Later", date(2021, 1, 1), date(2021, 12, 31))
    played: list[Match] = []
    for step in steps:
        kind, *args = step
        if kind == "start" or not played:
            fmt, shift = args if kind == "start" else ("4p", 0)
            played.append(start(club, owner, people, fmt, shift))
            continue
        match = played[args[0] % len(played)]
        live = replay.live_hands(match)
        try:
            if kind == "hand":
                matches.record_hand(
                    match, owner, typed(match, entry_for(match, *args[1:])), "a test hand"
                )
            elif kind == "edit" and live:
                hand = live[args[1] % len(live)]
                new = entry_for(match, args[2], args[3], args[1])
                matches.edit_hand(
                    match, hand.number, owner, typed(match, new), hand.version, "a test hand"
                )
            elif kind == "delete" and live:
                hand = live[args[1] % len(live)]
                matches.delete_hand(match, hand.number, owner, hand.version)
            elif kind == "backdate" and live:
                # As if the match had been played in 2020: it moves to the front of the
                # ratings' order and into the season "Early".
                when = datetime(2020, 1, 1, tzinfo=UTC) + timedelta(days=args[1])
                db.session.execute(
                    sa.update(HandVersion)
                    .where(HandVersion.match_id == match.id)
                    .values(created_at=when)
                )
                stats.refresh_match(match)
                db.session.commit()
            elif kind == "place":  # the owner's choice of season (None: by its first hand)
                seasons.place_match(match, [None, *seasons.seasons_of(club)][args[1]])
        except Conflict:  # a hand for a finished match: refused, nothing changes
            db.session.rollback()
    kept = snapshot(club)
    assert stats.rebuild(club_id=club.id) == sum(1 for m in played if replay.live_hands(m))
    db.session.commit()
    assert snapshot(club) == kept
    # What the tables say is what the hands say, summed and replayed in Python.
    for season in [None, *seasons.seasons_of(club)]:
        by_sql = leaderboard.ranked(club, season, sort="name", descending=False)
        by_python = standings.rank_rows(
            replay.player_rows(seasons.matches_in(club, season)),
            club.min_matches_ranked,
            sort="name",
            descending=False,
        )
        assert [_sums(r) for r in by_sql] == [_sums(r) for r in by_python]
    assert ratings.club_ratings(club) == ratings.ratings(seasons.matches_in(club, None))
    records_agree(club)


def records_agree(club: Club) -> None:
    """The record pages' readings of the derived tables equal the replays' sums over the
    stored hands themselves (tests/support/replay.py)."""
    everything = seasons.matches_in(club, None)
    for season in [None, *seasons.seasons_of(club)]:
        matches_there = seasons.matches_in(club, season)
        listed = match_list.club_matches(club, season)
        assert [m.match_id for m in listed] == [m.id for m in replay.newest_first(matches_there)]
        assert match_list.lines(listed) == records.match_lines(matches_there)
        assert match_list.count_matches(club, season) == len(matches_there)
        assert match_list.club_matches(club, season, 2) == listed[:2]
        pairs = pair_records.partnerships(club, season).records()
        assert pairs == replay.partnerships(matches_there)
        teams = replay.teams_of(everything)
        sides = [(p.id,) for p in club.players] + [t.players for t in teams]
        for a in sides:
            for b in sides:
                if set(a) & set(b):
                    continue
                assert pair_records.head_to_head(club, season, a, b) == (
                    replay.head_to_head(matches_there, a, b)
                ), (season, a, b)
    listed = match_list.club_matches(club, None)
    assert match_list.season_ids(club, listed) == replay.season_ids(club, everything)
    for player in club.players:
        mine = replay.seated(player, everything)
        theirs = match_list.player_matches(club, player)
        assert match_list.lines(theirs, player) == records.match_lines(mine, player)
        assert player_records.season_lines(club, player) == replay.season_lines(club, player, mine)
        assert pair_records.partners(club, player) == [
            p for p in replay.partnerships(mine) if player.id in p.players
        ]
        for limit in (1, 2, 5):
            assert player_records.best_hands(club, player, limit) == records.best_hands(
                player, mine, limit
            ), (player.name, limit)


def _sums(row: standings.PlayerRow) -> tuple[Any, ...]:
    return (
        row.name,
        row.matches,
        row.wins,
        row.hands,
        row.points,
        row.side_points,
        row.biribas_clean,
        row.biribas_dirty,
        row.full_runs,
        row.went_out,
        row.rank,
    )


def _played_club(owner: User) -> Club:
    club = clubs.create_club(owner, "Friday")
    people = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cy", "Di")]
    for shift, fmt in enumerate(["4p", "3p-partnership", "4p", "2p"]):
        match = start(club, owner, people, fmt, shift)
        for number in range(4):
            try:
                matches.record_hand(
                    match,
                    owner,
                    typed(match, entry_for(match, number, number == 2, number)),
                    "test",
                )
            except Conflict:
                db.session.rollback()
                break
    return club


def test_rebuild_stats_command_makes_the_tables_again(owner: User, runner: FlaskCliRunner) -> None:
    club = _played_club(owner)
    kept = snapshot(club)
    assert kept["rating_step"] and kept["player_match_stat"]
    for table in DERIVED:
        db.session.execute(sa.delete(table))
    db.session.commit()
    assert snapshot(club) == {t.__tablename__: [] for t in DERIVED}
    result = runner.invoke(args=["rebuild-stats"])
    assert result.exit_code == 0, result.output
    assert "4 matches" in result.output
    db.session.expire_all()
    assert snapshot(club) == kept


def test_rebuild_stats_of_an_unknown_club_is_a_clear_error(
    owner: User, runner: FlaskCliRunner
) -> None:
    result = runner.invoke(args=["rebuild-stats", "--club", "999"])
    assert result.exit_code != 0
    assert "no club 999" in result.output


def test_the_migration_fills_the_tables_for_matches_already_played(owner: User, app: Flask) -> None:
    club = _played_club(owner)
    kept = snapshot(club)
    # Back to the schema of 0002: no derived tables, no new indexes, stamped 0002.
    db.session.commit()
    new_indexes = {
        "ix_hand_version_match_number",
        "ix_match_club_id",
        "ix_match_season_id",
        "ix_match_team_match_id",
        "ix_seat_match_id",
        "ix_seat_player_id",
        "ix_hand_revision",  # 0016
    }
    with db.engine.begin() as connection:
        for table in reversed(DERIVED):
            table.__table__.drop(connection)
        for table in db.metadata.tables.values():
            for index in table.indexes:
                if index.name in new_indexes:
                    index.drop(connection)
        # 0012 added the tournaments' tables, 0015 their big screens' drawings; 0002 had none.
        for table in reversed(db.metadata.sorted_tables):
            if table.name.startswith("tournament") or table.name == "screen_drawing":
                table.drop(connection)
        # 0006 added share links and join requests, 0008 live drawings, 0011 the imports
        # counted; 0002 had none.
        # 0010 the failed logins counted.
        for model in (LiveDrawing, JoinRequest, ShareLink, ClubImport, LoginFailure):
            model.__table__.drop(connection)
        # 0005 added each user's session secret; 0002 had none.
        connection.execute(sa.text('ALTER TABLE "user" DROP COLUMN session_secret'))
        # 0007 added each match's progress; 0002 had none.
        connection.execute(sa.text('ALTER TABLE "match" DROP COLUMN progress'))
        # 0009 added each hand's tally; 0002 had none.
        connection.execute(sa.text("ALTER TABLE hand DROP COLUMN tally"))
        # 0010 added each user's name and look-alike keys, indexed; 0002 had none.
        for column in ("name_key", "look_key"):
            connection.execute(sa.text(f"DROP INDEX ix_user_{column}"))
            connection.execute(sa.text(f'ALTER TABLE "user" DROP COLUMN {column}'))
        # 0011 added the imports counted and each club's "importing" mark; 0002 had none.
        connection.execute(sa.text("ALTER TABLE club DROP COLUMN importing"))
        connection.execute(sa.text("CREATE TABLE alembic_version (version_num VARCHAR(32))"))
        connection.execute(sa.text("INSERT INTO alembic_version VALUES ('0002')"))
    try:
        upgrade()
        db.session.expire_all()
        assert snapshot(club) == kept
        # Every hand's tally made from its entry and result, as a save makes it.
        rows = db.session.execute(sa.select(Hand.entry, Hand.result, Hand.tally)).all()
        assert rows and all(tally == matches.tally_of(e, r) for e, r, tally in rows)
    finally:
        db.session.remove()
        with db.engine.begin() as connection:
            connection.execute(sa.text("DROP TABLE alembic_version"))
