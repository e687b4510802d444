"""Seasons: named date ranges; a match belongs to the season of its first live hand unless
the owner placed it elsewhere."""

from datetime import UTC, date, datetime

import pytest
import sqlalchemy as sa
from support.hand_entries import REFERENCE_HAND, typed
from support.world import new_club, pagat_match

from scorekeeper import match as matches
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.models import Club, HandVersion, Match, User
from scorekeeper.records import seasons, stats


@pytest.fixture
def club(owner: User) -> tuple[Club, User, list[int]]:
    friday, ids = new_club(owner)
    return friday, owner, list(ids.values())


def played_on(match: Match, number: int, day: date) -> None:
    """Pretend hand `number` was first saved at noon UTC on `day`."""
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    db.session.execute(
        sa.update(HandVersion)
        .where(HandVersion.match_id == match.id, HandVersion.number == number)
        .values(created_at=when)
    )
    stats.refresh_match(match)  # the derived tables follow the stored times
    db.session.commit()


def test_seasons_are_listed_in_date_order(club: tuple[Club, User, list[int]]) -> None:
    friday, _, _ = club
    summer = seasons.create_season(friday, " Summer 2026 ", date(2026, 6, 1), date(2026, 8, 31))
    spring = seasons.create_season(friday, "Spring 2026", date(2026, 3, 1), date(2026, 5, 31))
    assert summer.name == "Summer 2026"
    assert [s.name for s in seasons.seasons_of(friday)] == ["Spring 2026", "Summer 2026"]
    assert seasons.season_in(friday, spring.id) is spring
    assert friday.min_matches_ranked == 3


@pytest.mark.parametrize(
    ("name", "starts_on", "ends_on", "message"),
    [
        ("", date(2026, 9, 1), date(2026, 9, 30), "1 to 80 characters"),
        ("x" * 81, date(2026, 9, 1), date(2026, 9, 30), "1 to 80 characters"),
        ("Autumn", date(2026, 9, 30), date(2026, 9, 1), "after its last day"),
        ("Spring 2026", date(2027, 3, 1), date(2027, 5, 31), "already has a season"),
        ("Late spring", date(2026, 5, 15), date(2026, 6, 10), "overlap the season Spring 2026"),
        ("Inside", date(2026, 4, 1), date(2026, 4, 2), "overlap the season Spring 2026"),
        ("Around", date(2026, 1, 1), date(2026, 12, 31), "overlap the season Spring 2026"),
        ("Last day", date(2026, 5, 31), date(2026, 5, 31), "overlap the season Spring 2026"),
    ],
)
def test_a_season_is_refused_with_a_reason(
    club: tuple[Club, User, list[int]], name: str, starts_on: date, ends_on: date, message: str
) -> None:
    friday, _, _ = club
    seasons.create_season(friday, "Spring 2026", date(2026, 3, 1), date(2026, 5, 31))
    with pytest.raises(Invalid, match=message):
        seasons.create_season(friday, name, starts_on, ends_on)
    assert len(seasons.seasons_of(friday)) == 1


def test_seasons_may_touch_and_other_clubs_may_overlap(
    club: tuple[Club, User, list[int]],
) -> None:
    friday, user, _ = club
    seasons.create_season(friday, "Spring 2026", date(2026, 3, 1), date(2026, 5, 31))
    seasons.create_season(friday, "Summer 2026", date(2026, 6, 1), date(2026, 8, 31))
    other = clubs.create_club(user, "Sunday")
    seasons.create_season(other, "Spring 2026", date(2026, 3, 1), date(2026, 5, 31))
    assert len(seasons.seasons_of(other)) == 1


def test_a_match_belongs_to_the_season_of_its_first_hand_unless_placed(
    club: tuple[Club, User, list[int]],
) -> None:
    friday, user, ids = club
    spring = seasons.create_season(friday, "Spring", date(2026, 3, 1), date(2026, 5, 31))
    summer = seasons.create_season(friday, "Summer", date(2026, 6, 1), date(2026, 8, 31))
    april, june_first, december, empty = (
        pagat_match(friday, user, ids, target=600) for _ in range(4)
    )
    for match, day in (
        (april, date(2026, 4, 10)),
        (june_first, date(2026, 6, 1)),
        (december, date(2026, 12, 1)),
    ):
        matches.record_hand(match, user, typed(match, REFERENCE_HAND))
        played_on(match, 1, day)
    assert seasons.season_of(april) is spring
    assert seasons.season_of(june_first) is summer  # the first day belongs to the season
    assert seasons.season_of(december) is None  # between seasons: only in the all-time view
    assert seasons.season_of(empty) is None  # no hand yet
    assert seasons.matches_in(friday, spring) == [april]
    # The owner's override wins over the date of the first hand.
    seasons.place_match(april, summer)
    assert seasons.season_of(april) is summer
    assert seasons.matches_in(friday, spring) == []
    assert seasons.matches_in(friday, summer) == [april, june_first]
    # All time: every match, in the order played; matches without a hand last.
    assert seasons.matches_in(friday, None) == [april, june_first, december, empty]
    # Deleting the season drops the override: the first hand decides again.
    seasons.delete_season(summer)
    assert seasons.season_of(april) is spring
    assert seasons.season_of(june_first) is None
    seasons.place_match(april, None)
    assert april.season_id is None


def test_a_deleted_first_hand_hands_the_choice_to_the_next(
    club: tuple[Club, User, list[int]],
) -> None:
    friday, user, ids = club
    spring = seasons.create_season(friday, "Spring", date(2026, 3, 1), date(2026, 5, 31))
    summer = seasons.create_season(friday, "Summer", date(2026, 6, 1), date(2026, 8, 31))
    match = pagat_match(friday, user, ids, target=5000)
    matches.record_hand(match, user, typed(match, REFERENCE_HAND))
    matches.record_hand(match, user, typed(match, REFERENCE_HAND))
    played_on(match, 1, date(2026, 5, 31))
    played_on(match, 2, date(2026, 6, 2))
    assert seasons.season_of(match) is spring
    matches.delete_hand(match, 1, user, expected_version=1)
    assert seasons.season_of(match) is summer


def test_a_season_of_another_club_cannot_be_used(club: tuple[Club, User, list[int]]) -> None:
    friday, user, ids = club
    other = clubs.create_club(user, "Sunday")
    theirs = seasons.create_season(other, "Theirs", date(2026, 1, 1), date(2026, 12, 31))
    with pytest.raises(NotFound):
        seasons.season_in(friday, theirs.id)
    with pytest.raises(NotFound):
        seasons.place_match(pagat_match(friday, user, ids, target=600), theirs)
    with pytest.raises(NotFound):
        seasons.season_in(friday, "1")
