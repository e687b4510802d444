"""The leaderboard page and its API, with a season whose standings are worked out here.

The reference hand (pagat, kózi ♥) scores 665 for the side that goes out (a clean and a dirty
biriba) and −95 for the other (−70 with one player's cards left); a target of 600 ends the
match in one hand. Spring: M1 Ann+Cy beat Bob+Di, M2 Ann+Bob beat Cy+Di, M3 Bob+Cy beat
Ann+Di (4p), M4 Ann beats Eva (2p). Summer: M5 Ann+Bob beat Cy+Di."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_babel import refresh
from support.hand_entries import LOSERS, REFERENCE_HAND, WINNERS, typed
from support.world import played_on, signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, Match, Membership, Role, User
from scorekeeper.records import ratings, seasons

DUEL = {
    "kozi": "H",
    "teams": [
        {"name": "A", **WINNERS, "hands": [""]},
        {"name": "B", **LOSERS, "hands": ["AS 9D"]},
    ],
}


@dataclass
class League:
    club: Club
    owner: User
    p: dict[str, int]
    spring: int
    summer: int
    app: Flask

    def client(self, username: str | None = "eleni") -> FlaskClient:
        """A browser logged in as `username` (None: nobody)."""
        client = self.app.test_client()
        if username is not None:
            user = accounts.find_user(username)
            assert user is not None
            signed_in(client, user.id)
        return client


def play(league: League, a: tuple[str, ...], b: tuple[str, ...], day: date) -> Match:
    p = league.p
    fmt = "4p" if len(a) == 2 else "2p"
    match = matches.create_match(
        league.club,
        league.owner,
        "pagat",
        fmt,
        [TeamSpec("A", tuple(p[n] for n in a)), TeamSpec("B", tuple(p[n] for n in b))],
        target=600,
    )
    matches.record_hand(match, league.owner, typed(match, REFERENCE_HAND if fmt == "4p" else DUEL))
    played_on(match, day)
    return match


@pytest.fixture
def league(app: Flask, kept_world: Callable[[Callable[[Flask], Laid]], Laid]) -> Iterator[League]:
    """The league, built once and kept while the tests only read it (see tests/conftest.py),
    with its club and owner loaded in the app context the test runs in."""
    laid = kept_world(lay_league)
    with app.app_context():
        club, owner = db.session.get(Club, laid.club), db.session.get(User, laid.owner)
        assert club is not None and owner is not None
        yield League(club, owner, laid.p, laid.spring, laid.summer, app)


@dataclass(frozen=True)
class Laid:
    """The league's ids, kept with its rows between tests."""

    club: int
    owner: int
    p: dict[str, int]
    spring: int
    summer: int


def lay_league(app: Flask) -> Laid:
    with app.app_context():
        owner = accounts.create_user("eleni", "password1")
        viewer = accounts.create_user("vasso", "password1")
        accounts.create_user("stranger", "password1")
        club = clubs.create_club(owner, "Friday")
        db.session.add(Membership(club=club, user=viewer, role=Role.VIEWER))
        db.session.commit()
        p = {n: clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di", "Eva")}
        spring = seasons.create_season(club, "Spring", date(2026, 3, 1), date(2026, 5, 31))
        summer = seasons.create_season(club, "Summer", date(2026, 6, 1), date(2026, 8, 31))
        found = League(club, owner, p, spring.id, summer.id, app)
        play(found, ("Ann", "Cy"), ("Bob", "Di"), date(2026, 3, 5))
        play(found, ("Ann", "Bob"), ("Cy", "Di"), date(2026, 3, 12))
        play(found, ("Bob", "Cy"), ("Ann", "Di"), date(2026, 3, 19))
        play(found, ("Ann",), ("Eva",), date(2026, 4, 2))
        play(found, ("Ann", "Bob"), ("Cy", "Di"), date(2026, 6, 10))
        return Laid(club.id, owner.id, p, spring.id, summer.id)


def page_text(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


# --- the API ----------------------------------------------------------------------------------


def test_the_spring_leaderboard_by_hand(league: League) -> None:
    answer = league.client().get(
        f"/api/v1/clubs/{league.club.id}/leaderboard?season={league.spring}"
    )
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["season"] == {
        "id": league.spring,
        "name": "Spring",
        "starts_on": "2026-03-01",
        "ends_on": "2026-05-31",
    }
    assert (body["min_matches"], body["sort"], body["dir"]) == (3, "win_rate", "desc")
    # Ann: 665 + 665 − 95 + 665 over 4 hands = 475 a hand, 3 of 4 won, went out 3 times.
    # Bob and Cy: −95 + 665 + 665 = 1235 over 3 (411⅔); Di: −95 three times; Eva: one duel.
    rows = [
        (r["name"], r["rank"], r["matches"], r["wins"], r["win_rate"], r["points_per_hand"])
        for r in body["players"]
    ]
    assert rows == [
        ("Ann", 1, 4, 3, 0.75, 475),
        ("Bob", 2, 3, 2, 0.6667, "411⅔"),
        ("Cy", 2, 3, 2, 0.6667, "411⅔"),
        ("Di", 4, 3, 0, 0.0, -95),
        ("Eva", None, 1, 0, 0.0, -70),
    ]
    ann = body["players"][0]
    assert ann["id"] == league.p["Ann"]
    assert (ann["biribas"], ann["biribas_clean"], ann["biribas_dirty"]) == (6, 3, 3)
    assert (ann["went_out"], ann["full_runs"], ann["ranked"]) == (3, 0, True)
    assert body["players"][-1]["ranked"] is False


def test_a_season_shows_the_rating_after_the_players_last_match_in_it(league: League) -> None:
    client = league.client()
    spring = client.get(f"/api/v1/clubs/{league.club.id}/leaderboard?season={league.spring}")
    summer = client.get(f"/api/v1/clubs/{league.club.id}/leaderboard?season={league.summer}")
    every = client.get(f"/api/v1/clubs/{league.club.id}/leaderboard?season=all")
    ann = {
        name: next(r for r in answer.get_json()["players"] if r["name"] == "Ann")
        for name, answer in (("spring", spring), ("summer", summer), ("all", every))
    }
    stored = ratings.club_ratings(league.club)[league.p["Ann"]]
    spring_point, summer_point = stored.history[3], stored.history[4]  # after M4, after M5
    assert ann["spring"]["rating"] == round(spring_point.ordinal, 3)
    assert ann["summer"]["rating"] == round(summer_point.ordinal, 3) == ann["all"]["rating"]
    assert ann["all"]["rating_sigma"] == round(stored.sigma, 3)
    # Five matches or fewer: the trend is the whole climb from a new player's 0; in summer
    # it counts only summer's one match.
    assert ann["all"]["rating_trend"] == pytest.approx(stored.ordinal, abs=1e-3)
    assert ann["summer"]["rating_trend"] == pytest.approx(
        summer_point.ordinal - spring_point.ordinal, abs=1e-3
    )
    assert ann["summer"]["matches"] == 1 and ann["all"]["matches"] == 5


def test_sorted_by_rating_lowest_first(league: League) -> None:
    answer = league.client().get(
        f"/api/v1/clubs/{league.club.id}/leaderboard?season=all&sort=rating&dir=asc"
    )
    body = answer.get_json()
    ranked = [r for r in body["players"] if r["ranked"]]
    assert [r["rating"] for r in ranked] == sorted(r["rating"] for r in ranked)
    assert ranked[0]["name"] == "Di"  # lost every match he played
    assert (body["season"]["id"], body["dir"]) == ("all", "asc")


def test_without_a_season_the_one_running_today_is_shown(league: League) -> None:
    today = datetime.now(UTC).date()
    now = seasons.create_season(league.club, "Now", today, today + timedelta(days=30))
    answer = league.client().get(f"/api/v1/clubs/{league.club.id}/leaderboard")
    assert answer.get_json()["season"]["id"] == now.id
    assert answer.get_json()["players"] == []  # nothing finished in it yet


def test_a_season_to_the_last_day_of_the_calendar_is_a_leaderboard(league: League) -> None:
    """The season form takes 9999-12-31; the day after it used to overflow into a 500."""
    later = seasons.create_season(league.club, "Forever", date(2026, 9, 1), date.max)
    play(league, ("Ann",), ("Eva",), date(2026, 10, 1))
    for path in (
        f"/api/v1/clubs/{league.club.id}/leaderboard?season={later.id}",
        f"/clubs/{league.club.id}/leaderboard?season={later.id}",
        f"/clubs/{league.club.id}/seasons",
        f"/clubs/{league.club.id}/seasons/{later.id}",
        f"/clubs/{league.club.id}/seasons/{later.id}/edit",
    ):
        answer = league.client().get(path)
        assert answer.status_code == 200, path
    body = league.client().get(f"/api/v1/clubs/{league.club.id}/leaderboard?season={later.id}")
    assert {r["name"] for r in body.get_json()["players"]} == {"Ann", "Eva"}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        pytest.param("season=x", "no season x", id="season-not-a-number"),
        pytest.param("season=999999", "no season 999999", id="season-unknown"),
        pytest.param("season=-1", "no season -1", id="season-negative"),
        pytest.param("season=all&sort=luck", "luck is not a column", id="unknown-sort"),
        pytest.param("season=all&dir=sideways", "sideways is not a sort direction", id="bad-dir"),
    ],
)
def test_bad_words_are_a_400_naming_them(league: League, query: str, message: str) -> None:
    answer = league.client().get(f"/api/v1/clubs/{league.club.id}/leaderboard?{query}")
    assert answer.status_code == 400
    assert message in answer.get_json()["error"]


def test_another_clubs_season_is_no_season_here(league: League) -> None:
    other = clubs.create_club(league.owner, "Saturday")
    theirs = seasons.create_season(other, "Theirs", date(2026, 1, 1), date(2026, 1, 31))
    answer = league.client().get(f"/api/v1/clubs/{league.club.id}/leaderboard?season={theirs.id}")
    assert answer.status_code == 400


@pytest.mark.parametrize(
    ("who", "status"),
    [
        pytest.param("eleni", 200, id="owner"),
        pytest.param("vasso", 200, id="viewer"),
        pytest.param("stranger", 404, id="not-a-member"),
        pytest.param(None, 401, id="anonymous"),
    ],
)
def test_only_members_see_the_leaderboard(league: League, who: str | None, status: int) -> None:
    answer = league.client(who).get(f"/api/v1/clubs/{league.club.id}/leaderboard?season=all")
    assert answer.status_code == status
    assert answer.is_json


def test_a_token_reads_it_too(league: League) -> None:
    token = accounts.create_token(league.owner, "script")
    answer = league.app.test_client().get(
        f"/api/v1/clubs/{league.club.id}/leaderboard?season=all",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code == 200
    assert {"id", "name", "matches", "wins", "win_rate", "points_per_hand", "biribas"} <= set(
        answer.get_json()["players"][0]
    )


# --- the page ---------------------------------------------------------------------------------


def test_the_page_ranks_and_lists_the_rest_apart(league: League) -> None:
    response = league.client().get(f"/clubs/{league.club.id}/leaderboard?season={league.spring}")
    assert response.status_code == 200
    text = page_text(response)
    ranked, _, unranked = text.partition("Not ranked yet")
    names = re.findall(
        r'<th scope="row" class="board-name">(?:<span class="board-rank">(\d)</span> )?'
        r'<a href="[^"]+">(\w+)</a></th>',
        ranked,
    )
    assert names == [("1", "Ann"), ("2", "Bob"), ("2", "Cy"), ("4", "Di")]
    assert "Eva" in unranked and "Eva" not in ranked
    assert "Fewer than 3 finished matches" in unranked
    # Win rate is the column sorted on: first after the names, marked for screen readers.
    assert re.search(
        r'<th scope="col" class="board-sorted" aria-sort="descending">\s*<a [^>]*title="Win rate"',
        text,
    )
    assert "75%" in ranked and "475.0" in ranked and "411.7" in ranked
    assert f'<option value="{league.spring}" selected>Spring</option>' in text


def test_a_header_turns_the_order_round(league: League) -> None:
    client = league.client()
    text = page_text(client.get(f"/clubs/{league.club.id}/leaderboard?season=all&sort=wins"))
    link = re.search(r'href="([^"]*sort=wins[^"]*)"', text)
    assert link and "dir=asc" in link.group(1)
    turned = page_text(client.get(link.group(1)))
    order = re.findall(r'class="board-rank">\d</span> <a href="[^"]+">(\w+)<', turned)
    assert order[0] == "Di"  # the fewest wins first


def test_the_club_page_leads_to_the_leaderboard(league: League) -> None:
    text = page_text(league.client("vasso").get(f"/clubs/{league.club.id}"))
    assert f'href="/clubs/{league.club.id}/leaderboard"' in text


@pytest.mark.parametrize(
    ("who", "status"),
    [
        pytest.param("stranger", 404, id="not-a-member"),
        pytest.param(None, 302, id="anonymous-goes-to-log-in"),
    ],
)
def test_strangers_see_no_page(league: League, who: str | None, status: int) -> None:
    response = league.client(who).get(f"/clubs/{league.club.id}/leaderboard")
    assert response.status_code == status


def test_a_bad_season_on_the_page_is_a_400_saying_so(league: League) -> None:
    response = league.client().get(f"/clubs/{league.club.id}/leaderboard?season=nope")
    assert response.status_code == 400
    assert "This club has no season nope" in page_text(response)


def test_the_owner_sets_the_minimum(league: League) -> None:
    client = league.client()
    url = f"/clubs/{league.club.id}/leaderboard/minimum?season={league.spring}"
    response = client.post(url, data={"minimum": "1"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"season={league.spring}")
    text = page_text(client.get(response.headers["Location"]))
    assert "need 1 finished match in a season to be ranked" in text
    assert "Not ranked yet" not in text
    # Eva is level with Di: no wins.
    assert re.search(
        r'class="board-rank">4</span> <a href="[^"]+">Eva<', text
    )  # level with Di: no wins


@pytest.mark.parametrize(
    "value",
    [
        pytest.param("", id="empty"),
        pytest.param("three", id="words"),
        pytest.param("-1", id="negative"),
        pytest.param("1001", id="too-many"),
    ],
)
def test_a_bad_minimum_is_refused_with_its_reason(league: League, value: str) -> None:
    response = league.client().post(
        f"/clubs/{league.club.id}/leaderboard/minimum", data={"minimum": value}
    )
    assert response.status_code == 400
    assert "a whole number from 0 to 1000" in page_text(response)
    db.session.expire_all()
    assert db.session.get(Club, league.club.id).min_matches_ranked == 3


def test_only_the_owner_sets_the_minimum(league: League) -> None:
    viewer = league.client("vasso")
    page = page_text(viewer.get(f"/clubs/{league.club.id}/leaderboard"))
    assert "Save the minimum" not in page and "Backup and import" not in page
    response = viewer.post(f"/clubs/{league.club.id}/leaderboard/minimum", data={"minimum": "1"})
    assert response.status_code == 403


def test_the_page_speaks_greek(league: League) -> None:
    response = league.client().get(
        f"/clubs/{league.club.id}/leaderboard?season={league.spring}",
        headers={"Accept-Language": "el"},
    )
    text = page_text(response)
    assert "Κατάταξη" in text and "Εκτός κατάταξης ακόμη" in text
    assert "Not ranked yet" not in text and "Points per hand" not in text
    assert "411,7" in text  # the Greek decimal comma


# --- on a phone: fewer columns, a rating a casual player reads, names that lead on -------------


def test_one_column_of_points_per_hand_in_decimals(league: League) -> None:
    """Points per hand and the side's average hand score are the same in the team formats:
    the page shows one, by its full name, in decimals (the API keeps both, exact)."""
    text = page_text(
        league.client().get(f"/clubs/{league.club.id}/leaderboard?season={league.spring}")
    )
    assert "Avg hand" not in text and "Average hand score" not in text
    assert text.count('title="Points per hand"') == 2  # the ranked and unranked tables
    assert 'data-label="Pts/hand">411.7<' in text
    assert not re.search(r"\d [0-9]+/[0-9]+|[⅓⅔¼¾½]", text.partition("<main")[2])
    api = league.client().get(f"/api/v1/clubs/{league.club.id}/leaderboard?season={league.spring}")
    bob = next(p for p in api.get_json()["players"] if p["name"] == "Bob")
    assert bob["average_hand_score"] == bob["points_per_hand"]  # still in the API
    # Sorting by it still works, though it is no column of the page.
    sorted_page = league.client().get(
        f"/clubs/{league.club.id}/leaderboard?season=all&sort=average_hand_score"
    )
    assert sorted_page.status_code == 200


def test_the_rating_is_a_whole_number_with_its_explanation(league: League) -> None:
    greek = page_text(
        league.client().get(
            f"/clubs/{league.club.id}/leaderboard?season=all", headers={"Accept-Language": "el"}
        )
    )
    assert "Τι είναι η βαθμολογία;" in greek and "What is the rating?" not in greek  # noqa: RUF001
    refresh()  # the test's app context kept the Greek request's language
    text = page_text(
        league.client().get(f"/clubs/{league.club.id}/leaderboard?season={league.spring}")
    )
    ratings = re.findall(r'<span class="rating-value">([^<]+)</span>', text)
    assert ratings and all(re.fullmatch(r"−?\d+", r) for r in ratings), ratings
    assert 'class="rating-sigma"' not in text  # the uncertainty is in the cell's title
    assert "<summary>What is the rating?</summary>" in text
    assert "Everyone starts at 0" in text


def test_player_names_lead_to_their_pages(league: League) -> None:
    client = league.client()
    text = page_text(client.get(f"/clubs/{league.club.id}/leaderboard?season=all"))
    url = f"/clubs/{league.club.id}/players/{league.p['Bob']}"
    assert f'<a href="{url}">Bob</a>' in text
    assert client.get(url).status_code == 200


def test_the_player_page_gives_points_per_hand_in_decimals(league: League) -> None:
    """Bob's 1235 points over 3 spring hands are 411⅔ exactly: the page says 411.7."""
    text = page_text(league.client().get(f"/clubs/{league.club.id}/players/{league.p['Bob']}"))
    facts = re.findall(r"<dt>Points per hand</dt><dd>([^<]+)</dd>", text)
    assert facts and "411.7" in facts and all("/" not in f and "⅔" not in f for f in facts)
