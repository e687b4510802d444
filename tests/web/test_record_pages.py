"""Season, player, partnership and head-to-head pages: who may see and change what, refusals
that name the problem, and the numbers they show, worked out by hand here.

The reference hand (pagat, kózi hearts) scores 665 for the side that goes out (a clean and a
dirty biriba) and −95 for the other (−70 for a lone player holding AS 9D); with a target of
600 one hand ends a match. The club "Friday":

    M1  3 Mar  Ann+Cy beat Bob+Di      spring
    M2 12 Mar  Ann+Bob beat Cy+Di      spring
    M3 19 Mar  Bob+Cy beat Ann+Di      spring
    M4 10 Jun  Ann beats Eva (2p)      summer
    M5  3 Jun  Eva+Di v Bob+Cy, one hand of a 5000 match: unfinished, summer
"""

# Greek letters are meant here: the pages are checked in Greek too.
# ruff: noqa: RUF001

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, date, datetime

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.databases import TEST_CONFIG
from support.hand_entries import typed
from werkzeug.security import generate_password_hash
from werkzeug.test import TestResponse

from scorekeeper import match as matches
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, HandVersion, Match, Membership, Role, Season, User
from scorekeeper.records import player_pages, ratings, season_pages, seasons, stats

PASSWORD = "correct horse"
Login = Callable[[str], FlaskClient]
# Hashed as the test app hashes (TEST_CONFIG): a login then finds nothing to upgrade and
# writes nothing, so the world stays kept between the tests that only read it.
HASH_METHOD = TEST_CONFIG["PASSWORD_HASH_METHOD"]
WINNERS = {
    "melds": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"],
    "hands": ["", ""],
    "went_out": True,
    "took_biribaki": True,
}
LOSERS = {"melds": ["3C 4C 5C", "KS KD JK"], "hands": ["AS 9D", "JK 4H"]}
REFERENCE = {"kozi": "H", "teams": [{"name": "A", **WINNERS}, {"name": "B", **LOSERS}]}
DUEL = {
    "kozi": "H",
    "teams": [{"name": "A", **WINNERS, "hands": [""]}, {"name": "B", **LOSERS, "hands": ["AS 9D"]}],
}


def text(response: TestResponse) -> str:
    return html.unescape(response.get_data(as_text=True))


def words(response: TestResponse) -> str:
    """The page as read: tags dropped, white space collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", text(response)).split())


@dataclass
class World:
    club: int
    p: dict[str, int]  # player ids by name
    m: list[int]  # match ids M1 … M5
    spring: int
    summer: int
    other_club: int
    other_player: int
    other_season: int


def played_on(match: Match, day: date) -> None:
    when = datetime(day.year, day.month, day.day, 12, tzinfo=UTC)
    db.session.execute(
        sa.update(HandVersion).where(HandVersion.match_id == match.id).values(created_at=when)
    )
    stats.refresh_match(match)  # the derived tables follow the stored times
    db.session.commit()


def one_hand(club: Club, user: User, fmt: str, teams: list[TeamSpec], day: date) -> Match:
    match = matches.create_match(club, user, "pagat", fmt, teams, target=600)
    matches.record_hand(match, user, typed(match, REFERENCE if fmt == "4p" else DUEL))
    played_on(match, day)
    return match


def person(username: str) -> User:
    """An account whose password hash is real but cheap to check: the logins of these tests
    are not what they test, and scrypt's cost times a few hundred logins is minutes."""
    user = User(username=username, password_hash=generate_password_hash(PASSWORD, HASH_METHOD))
    db.session.add(user)
    db.session.commit()
    return user


@pytest.fixture
def world(kept_world: Callable[[Callable[[Flask], World]], World]) -> World:
    """Friday and Elsewhere, built once and kept while the tests only read them."""
    return kept_world(build_world)


def build_world(app: Flask) -> World:
    # Built in an app context that is closed again before the test: requests made inside
    # one would share its `g`, and with it the first request's logged-in user.
    with app.app_context():
        eleni = person("eleni")  # the owner
        friday = clubs.create_club(eleni, "Friday")
        for name, role in (("sam", Role.SCORER), ("vic", Role.VIEWER)):
            db.session.add(Membership(club=friday, user=person(name), role=role))
        db.session.commit()
        p = {n: clubs.add_player(friday, n).id for n in ("Ann", "Bob", "Cy", "Di", "Eva")}
        spring = seasons.create_season(friday, "Spring", date(2026, 3, 1), date(2026, 5, 31))
        summer = seasons.create_season(friday, "Summer", date(2026, 6, 1), date(2026, 8, 31))

        def team(*names: str) -> tuple[int, ...]:
            return tuple(p[n] for n in names)

        m1 = one_hand(
            friday,
            eleni,
            "4p",
            [TeamSpec("A", team("Ann", "Cy")), TeamSpec("B", team("Bob", "Di"))],
            date(2026, 3, 3),
        )
        m2 = one_hand(
            friday,
            eleni,
            "4p",
            [TeamSpec("A", team("Ann", "Bob")), TeamSpec("B", team("Cy", "Di"))],
            date(2026, 3, 12),
        )
        m3 = one_hand(
            friday,
            eleni,
            "4p",
            [TeamSpec("A", team("Bob", "Cy")), TeamSpec("B", team("Ann", "Di"))],
            date(2026, 3, 19),
        )
        m4 = one_hand(
            friday,
            eleni,
            "2p",
            [TeamSpec("A", team("Ann")), TeamSpec("B", team("Eva"))],
            date(2026, 6, 10),
        )
        m5 = matches.create_match(
            friday,
            eleni,
            "pagat",
            "4p",
            [TeamSpec("A", team("Eva", "Di")), TeamSpec("B", team("Bob", "Cy"))],
            target=5000,
        )
        matches.record_hand(m5, eleni, typed(m5, REFERENCE))
        played_on(m5, date(2026, 6, 3))

        olga = person("olga")  # a stranger to Friday, owner elsewhere
        elsewhere = clubs.create_club(olga, "Elsewhere")
        return World(
            club=friday.id,
            p=p,
            m=[m.id for m in (m1, m2, m3, m4, m5)],
            spring=spring.id,
            summer=summer.id,
            other_club=elsewhere.id,
            other_player=clubs.add_player(elsewhere, "Zed").id,
            other_season=seasons.create_season(
                elsewhere, "Spring", date(2026, 3, 1), date(2026, 5, 31)
            ).id,
        )


@pytest.fixture
def login(app: Flask) -> Iterator[Login]:
    def client_of(username: str) -> FlaskClient:
        client = app.test_client()
        response = client.post("/login", data={"username": username, "password": PASSWORD})
        assert response.status_code == 302, text(response)
        return client

    yield client_of


def path_id(path: str) -> str:
    """A readable test id: the path with its placeholders' braces dropped."""
    return path.replace("{", "").replace("}", "")


def url(path: str, w: World) -> str:
    return path.format(
        club=w.club,
        ann=w.p["Ann"],
        bob=w.p["Bob"],
        m1=w.m[0],
        spring=w.spring,
        other_club=w.other_club,
        other_player=w.other_player,
        other_season=w.other_season,
    )


# --- who may do what ------------------------------------------------------------------------

READ = [
    "/clubs/{club}/seasons",
    "/clubs/{club}/seasons/{spring}",
    "/clubs/{club}/seasons/all",
    "/clubs/{club}/players/{ann}",
    "/clubs/{club}/partnerships",
    "/clubs/{club}/partnerships?season={spring}",
    "/clubs/{club}/head-to-head",
    "/clubs/{club}/head-to-head?a={ann}&b={bob}",
]


@pytest.mark.parametrize("path", READ, ids=path_id)
def test_members_read_strangers_find_nothing(world: World, login: Login, path: str) -> None:
    for who, status in (("vic", 200), ("sam", 200), ("eleni", 200), ("olga", 404)):
        response = login(who).get(url(path, world))
        assert response.status_code == status, who
        page = text(response)
        if status == 404:
            assert "There is no such club, or you are not one of its members." in page
            assert "Ann" not in page
        else:
            # Nothing the Content-Security-Policy would block.
            assert 'style="' not in page and "<script>" not in page, who
            assert " on" + "click=" not in page, who


@pytest.mark.parametrize("path", ["/clubs/{club}/seasons", "/clubs/{club}/players/{ann}"])
def test_anonymous_people_are_sent_to_log_in(world: World, client: FlaskClient, path: str) -> None:
    response = client.get(url(path, world))
    assert response.status_code == 302
    assert response.headers["Location"].startswith("/login")


OWNER_ONLY = [
    ("GET", "/clubs/{club}/seasons/{spring}/edit", {}),
    ("GET", "/clubs/{club}/seasons/{spring}/delete", {}),
    ("GET", "/matches/{m1}/season", {}),
    (
        "POST",
        "/clubs/{club}/seasons",
        {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-11-30"},
    ),
    (
        "POST",
        "/clubs/{club}/seasons/{spring}/edit",
        {"name": "Early", "starts_on": "2026-03-01", "ends_on": "2026-05-31"},
    ),
    ("POST", "/clubs/{club}/seasons/{spring}/delete", {}),
    ("POST", "/matches/{m1}/season", {"season": ""}),
]


@pytest.mark.parametrize(
    ("method", "path", "data"),
    OWNER_ONLY,
    ids=[f"{m} {path_id(p)}" for m, p, _ in OWNER_ONLY],
)
def test_only_owners_change_seasons(
    app: Flask, world: World, login: Login, method: str, path: str, data: dict[str, str]
) -> None:
    def seasons_now() -> list[str]:
        with app.app_context():
            found = db.session.scalars(sa.select(Season).filter_by(club_id=world.club))
            return sorted(s.name for s in found)

    for who, status in (("sam", 403), ("vic", 403), ("olga", 404)):
        response = login(who).open(url(path, world), method=method, data=data)
        assert response.status_code == status, who
        if status == 403:
            assert "This needs the owner role; you are a " in text(response)
        assert seasons_now() == ["Spring", "Summer"], "a refusal changes nothing"
    response = login("eleni").open(url(path, world), method=method, data=data)
    assert response.status_code == (200 if method == "GET" else 302), text(response)[:400]


@pytest.mark.parametrize(
    "path",
    [
        "/clubs/{club}/seasons/{other_season}",
        "/clubs/{club}/seasons/{other_season}/edit",
        "/clubs/{club}/players/{other_player}",
        "/clubs/{club}/players/99999999999",
        "/clubs/{club}/partnerships?season={other_season}",
        "/clubs/{other_club}/players/{ann}",
        "/matches/99999/season",
    ],
    ids=path_id,
)
def test_another_clubs_ids_are_not_found(world: World, login: Login, path: str) -> None:
    response = login("eleni").get(url(path, world))
    assert response.status_code == 404
    assert re.search(r"no such (season|player|club|match)", text(response))


# --- seasons ---------------------------------------------------------------------------------


def test_the_owner_adds_a_season_and_it_is_listed(world: World, login: Login) -> None:
    eleni = login("eleni")
    page = text(eleni.get(f"/clubs/{world.club}/seasons"))
    assert re.findall(r'<span class="card-title">([^<]+)</span>', page) == [
        "Summer",
        "Spring",
        "All time",
    ]
    assert "New season" in page
    response = eleni.post(
        f"/clubs/{world.club}/seasons",
        data={"name": " Autumn 2026 ", "starts_on": "2026-09-01", "ends_on": "2026-11-30"},
    )
    assert response.status_code == 302
    page = text(eleni.get(response.headers["Location"]))
    assert "The season Autumn 2026 is ready." in page
    assert "1 Sept 2026 to 30 Nov 2026" in page or "1 Sep 2026 to 30 Nov 2026" in page
    assert "No match falls in this season yet." in page
    assert "New season" not in text(login("vic").get(f"/clubs/{world.club}/seasons"))


@pytest.mark.parametrize(
    ("name", "starts", "ends", "message"),
    [
        (
            "Late spring",
            "2026-05-01",
            "2026-06-15",
            "These days overlap the season Spring (2026-03-01 to 2026-05-31)",
        ),
        ("Spring", "2026-09-01", "2026-09-30", "The club already has a season called Spring."),
        (
            "Backwards",
            "2026-09-10",
            "2026-09-01",
            "The season starts on 2026-09-10, after its last day 2026-09-01.",
        ),
        (
            "Autumn",
            "2026-02-30",
            "2026-11-30",
            "The first day is not a date; pick one, or write it as 2026-03-01.",
        ),
        ("Autumn", "2026-09-01", "", "Give the season's last day."),
        ("", "2026-09-01", "2026-09-30", "Give the season a name."),
        ("x" * 81, "2026-09-01", "2026-09-30", "A season's name has at most 80 characters."),
    ],
    ids=["overlap", "same-name", "backwards", "no-such-day", "no-last-day", "no-name", "long-name"],
)
def test_a_season_that_cannot_be_is_refused_with_its_reason(
    app: Flask, world: World, login: Login, name: str, starts: str, ends: str, message: str
) -> None:
    response = login("eleni").post(
        f"/clubs/{world.club}/seasons", data={"name": name, "starts_on": starts, "ends_on": ends}
    )
    assert response.status_code == 400
    assert message in text(response)
    assert f'value="{starts}"' in text(response), "what was typed is kept"
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Season)) == 3


def test_the_owner_renames_and_moves_the_days_of_a_season(world: World, login: Login) -> None:
    eleni = login("eleni")
    form = text(eleni.get(f"/clubs/{world.club}/seasons/{world.spring}/edit"))
    assert 'value="Spring"' in form and 'value="2026-03-01"' in form
    edit = f"/clubs/{world.club}/seasons/{world.spring}/edit"
    clash = eleni.post(
        edit, data={"name": "Spring", "starts_on": "2026-03-01", "ends_on": "2026-06-02"}
    )
    assert clash.status_code == 400
    assert "These days overlap the season Summer" in text(clash)
    # Shortened to the first fortnight of March, M1 (3 Mar) stays and M2, M3 fall out.
    done = eleni.post(
        edit, data={"name": "Early spring", "starts_on": "2026-03-01", "ends_on": "2026-03-14"}
    )
    assert done.status_code == 302
    page = text(eleni.get(done.headers["Location"]))
    assert "The season Early spring is saved." in page
    assert re.findall(r"Match (\d+) ·", page) == [str(world.m[1]), str(world.m[0])]


def test_deleting_a_season_keeps_its_matches(app: Flask, world: World, login: Login) -> None:
    eleni = login("eleni")
    eleni.post(f"/matches/{world.m[0]}/season", data={"season": str(world.summer)})
    assert "Delete Summer?" in text(eleni.get(f"/clubs/{world.club}/seasons/{world.summer}/delete"))
    response = eleni.post(f"/clubs/{world.club}/seasons/{world.summer}/delete")
    assert response.status_code == 302
    page = text(eleni.get(response.headers["Location"]))
    assert "The season Summer is deleted; its matches are kept." in page
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 5
    # M1, placed in summer by hand, is back in spring by its first hand.
    spring = text(eleni.get(f"/clubs/{world.club}/seasons/{world.spring}"))
    assert re.findall(r"Match (\d+) ·", spring) == [str(m) for m in world.m[2::-1]]


def test_a_season_page_lists_its_matches_and_all_time_lists_every_match(
    world: World, login: Login
) -> None:
    vic = login("vic")
    spring_url = f"/clubs/{world.club}/seasons/{world.spring}"
    spring = text(vic.get(spring_url))
    assert "3 matches" in spring
    assert re.findall(r"Match (\d+) ·", spring) == [str(m) for m in world.m[2::-1]]
    assert "Bob & Cy won Bob & Cy 665 · Ann & Di −95" in words(vic.get(spring_url))
    assert "Rename or change days" not in spring, "only the owner sees the owner's buttons"
    everything = text(vic.get(f"/clubs/{world.club}/seasons/all"))
    assert "5 matches" in everything
    # Newest first by the day played: M4 (10 Jun), M5 (3 Jun), M3, M2, M1.
    numbers = [world.m[3], world.m[4], world.m[2], world.m[1], world.m[0]]
    assert re.findall(r"Match (\d+) ·", everything) == [str(m) for m in numbers]
    assert everything.count("Season: Summer") == 2 and everything.count("Season: Spring") == 3
    assert "In progress" in everything


def test_long_lists_come_in_pages(
    world: World, login: Login, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(season_pages, "PAGE_SIZE", 2)
    vic = login("vic")
    pages = [words(vic.get(f"/clubs/{world.club}/seasons/all?page={n}")) for n in (1, 2, 3)]
    m1, m2, m3, m4, m5 = world.m
    listed = [re.findall(r"Match (\d+) ·", page) for page in pages]
    assert listed == [[str(m4), str(m5)], [str(m3), str(m2)], [str(m1)]]
    assert "5 matches" in pages[1] and "Newer Page 2 of 3 Older" in pages[1]
    assert "Newer" not in pages[0] and "Older" not in pages[2]


@pytest.mark.parametrize("page", ["0", "2", "x"])
def test_a_page_past_the_end_is_refused(world: World, login: Login, page: str) -> None:
    response = login("vic").get(f"/clubs/{world.club}/seasons/all?page={page}")
    assert response.status_code == 400
    assert f"There is no page {page}: the pages go from 1 to 1." in text(response)


def test_the_owner_moves_a_match_to_another_season_and_back(world: World, login: Login) -> None:
    eleni = login("eleni")
    m2 = world.m[1]
    page = text(eleni.get(f"/matches/{m2}/season"))
    assert "It is in Spring, the season of its first hand." in page
    moved = eleni.post(f"/matches/{m2}/season", data={"season": str(world.summer)})
    assert moved.status_code == 302 and moved.headers["Location"] == f"/matches/{m2}"
    board = words(eleni.get(moved.headers["Location"]))
    assert f"Match {m2} is now in Summer." in board
    assert "Season: Summer" in board and "Change season" in board
    summer = text(eleni.get(f"/clubs/{world.club}/seasons/{world.summer}"))
    assert f"Match {m2} ·" in summer and "placed by the owner" in summer
    assert "It is in Summer, placed there by an owner." in text(eleni.get(f"/matches/{m2}/season"))
    # Back to its first hand, and a `next` that leaves the site is ignored.
    back = eleni.post(f"/matches/{m2}/season", data={"season": "", "next": "https://evil.example/"})
    assert back.headers["Location"] == f"/matches/{m2}"
    assert f"Match {m2} follows its first hand again: it is in Spring." in text(
        eleni.get(f"/matches/{m2}")
    )
    to_list = eleni.post(
        f"/matches/{m2}/season", data={"season": "", "next": f"/clubs/{world.club}/seasons/all"}
    )
    assert to_list.headers["Location"] == f"/clubs/{world.club}/seasons/all"


@pytest.mark.parametrize("choice", ["999999", "spring", "1.5"])
def test_a_season_not_on_the_list_is_refused(world: World, login: Login, choice: str) -> None:
    response = login("eleni").post(f"/matches/{world.m[0]}/season", data={"season": choice})
    assert response.status_code == 400
    assert "Choose one of the club's seasons, or “By its first hand”." in text(response)


def test_the_scoreboard_names_the_season_and_only_owners_may_change_it(
    world: World, login: Login
) -> None:
    viewer = words(login("vic").get(f"/matches/{world.m[0]}"))
    assert "Season: Spring Players: Ann · Bob · Cy · Di" in viewer
    assert "Change season" not in viewer
    owner = text(login("eleni").get(f"/matches/{world.m[0]}"))
    assert f'href="/matches/{world.m[0]}/season"' in owner
    assert f'<a href="/clubs/{world.club}/players/{world.p["Di"]}">Di</a>' in owner


def test_forms_need_their_csrf_token(app: Flask, world: World, login: Login) -> None:
    eleni = login("eleni")
    app.config["WTF_CSRF_ENABLED"] = True
    form = {"name": "Autumn", "starts_on": "2026-09-01", "ends_on": "2026-11-30"}
    assert eleni.post(f"/clubs/{world.club}/seasons", data=form).status_code == 400
    assert eleni.post(f"/clubs/{world.club}/seasons/{world.spring}/delete").status_code == 400
    page = text(eleni.get(f"/clubs/{world.club}/seasons"))
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page)
    assert token, "the form carries its token"
    assert (
        eleni.post(
            f"/clubs/{world.club}/seasons", data={**form, "csrf_token": token.group(1)}
        ).status_code
        == 302
    )
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Season)) == 4


# --- players ---------------------------------------------------------------------------------


def rows_of(page: str, table: str = "") -> list[list[str]]:
    """Each table row's cells as read (hidden words for screen readers dropped)."""
    page = re.sub(r'<span class="visually-hidden">.*?</span>', "", page)
    if table:
        page = page[page.index(table) :]
        page = page[: page.index("</table>")]
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    return [
        [
            " ".join(re.sub(r"<[^>]+>", " ", c).split())
            for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)
        ]
        for r in rows
    ]


def test_a_player_page_has_each_season_line_matches_partners_and_best_hands(
    world: World, login: Login
) -> None:
    ann = world.p["Ann"]
    page = words(login("vic").get(f"/clubs/{world.club}/players/{ann}"))
    # Summer: M4 (665). Spring: M1 665, M2 665, M3 −95 → 1235 / 3; a clean and a dirty
    # biriba in each win. All time: 1900 over 4 hands.
    assert (
        "Seasons Summer Matches 1 Wins 1 (100%) Points per hand 665.0 Biribas 2 (1 clean, 1 dirty) "
        "Spring Matches 3 Wins 2 (67%) Points per hand 411.7 Biribas 4 (2 clean, 2 dirty) "
        "All time Matches 4 Wins 3 (75%) Points per hand 475.0 Biribas 6 (3 clean, 3 dirty)"
    ) in page
    m1, m2, m3, m4, _ = world.m
    assert re.findall(r"Match (\d+) · \d+ \w+ 2026 (Won|Lost|In progress)", page) == [
        (str(m4), "Won"),
        (str(m3), "Lost"),
        (str(m2), "Won"),
        (str(m1), "Won"),
    ]
    assert f"Match {m3} · 19 Mar 2026 Lost Bob & Cy 665 · Ann & Di −95" in page
    assert (
        "Partners Bob 1 match together · 1 won (100%) · 1 hand on one side "
        "Cy 1 match together · 1 won (100%) · 1 hand on one side "
        "Di 1 match together · 0 won (0%) · 1 hand on one side"
    ) in page
    best = re.findall(r"(−?\d+) Match (\d+), hand 1", page)
    assert best == [("665", str(m1)), ("665", str(m2)), ("665", str(m4)), ("−95", str(m3))]
    assert f"665 Match {m1}, hand 1 Ann & Cy · 3 Mar 2026" in page
    assert "5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♦ Q♣ Q♥ 8♥ 9♥ 10♥ J♥ Q♥ K♥ ★ joker" in page
    assert "3♣ 4♣ 5♣ K♠ K♦ ★ joker" in page  # M3: Ann's side's melds as the losers


def test_a_player_page_shows_the_rating_its_trend_and_its_picture(
    app: Flask, world: World, login: Login
) -> None:
    ann = world.p["Ann"]
    with app.app_context():
        rating = ratings.club_ratings(db.session.get(Club, world.club))[ann]
    response = login("vic").get(f"/clubs/{world.club}/players/{ann}")
    page, read = text(response), words(response)
    ordinal = f"{rating.ordinal:.1f}".replace("-", "−")
    # Four rated matches, fewer than the trend's span: the trend runs from the start, 0.
    assert rating.ordinal > 0, "three wins in four matches"
    trend = "▲ +" + ordinal
    assert (
        f"Rating {ordinal} Uncertainty ± {rating.sigma:.1f} Trend {trend} Rated matches 4" in read
    )
    svg = 'viewBox="0 0 340 210" role="img" aria-labelledby="{0}-title {0}-desc"'
    assert svg.format(f"rating-{ann}") in page
    assert f'<title id="rating-{ann}-title">Ann\'s rating after each match</title>' in page
    assert "after each of 4 rated matches; it is now " + ordinal in page
    assert page.count('class="chart-line chart-line-0"') == 1  # one line, no legend
    assert [r[1] for r in rows_of(page)[1:]] == [
        f"{p.ordinal:.1f}".replace("-", "−") for p in rating.history
    ]
    assert [f"/matches/{p.match_id}" for p in rating.history] == re.findall(
        r'<th scope="row"><a href="(/matches/\d+)">', page
    )


def test_a_player_without_matches(app: Flask, world: World, login: Login) -> None:
    with app.app_context():
        zoe = clubs.add_player(db.session.get(Club, world.club), "Zoe").id
    page = text(login("vic").get(f"/clubs/{world.club}/players/{zoe}"))
    assert "No rating yet: Zoe has not finished a match." in page
    assert "Zoe has not played a match yet." in page
    assert "No hand played yet." in page and "<svg" not in page


def test_partnerships_of_all_time_and_of_a_season(world: World, login: Login) -> None:
    vic = login("vic")
    page = text(vic.get(f"/clubs/{world.club}/partnerships"))
    # M5 is unfinished and M4 a duel, so the pairs are the three spring matches' teams.
    assert rows_of(page) == [
        ["Pair", "Matches", "Wins", "Hands"],
        ["Ann & Bob", "1", "1 100%", "1"],
        ["Ann & Cy", "1", "1 100%", "1"],
        ["Ann & Di", "1", "0 0%", "1"],
        ["Bob & Cy", "1", "1 100%", "1"],
        ["Bob & Di", "1", "0 0%", "1"],
        ["Cy & Di", "1", "0 0%", "1"],
    ]
    assert f'href="/clubs/{world.club}/players/{world.p["Cy"]}">Cy</a>' in page
    assert (
        rows_of(text(vic.get(f"/clubs/{world.club}/partnerships?season={world.spring}")))[1:]
        == rows_of(page)[1:]
    )
    summer = text(vic.get(f"/clubs/{world.club}/partnerships?season={world.summer}"))
    assert "No two players have finished a match on one side yet." in summer


def test_many_partnerships_come_in_pages(
    world: World, login: Login, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(player_pages, "PAIRS_PAGE", 4)
    vic = login("vic")
    base = f"/clubs/{world.club}/partnerships?season={world.spring}"
    first, second = (text(vic.get(f"{base}&page={n}")) for n in (1, 2))
    assert [r[0] for r in rows_of(first)[1:]] == ["Ann & Bob", "Ann & Cy", "Ann & Di", "Bob & Cy"]
    assert [r[0] for r in rows_of(second)[1:]] == ["Bob & Di", "Cy & Di"]
    assert "Page 1 of 2" in first and "Previous" not in first
    assert f'href="/clubs/{world.club}/partnerships?season={world.spring}&page=2">Next' in first
    assert "Page 2 of 2" in second and "Next" not in second
    assert f'href="/clubs/{world.club}/partnerships?season={world.spring}&page=1">Prev' in second
    refused = vic.get(f"{base}&page=3")
    assert refused.status_code == 400
    assert "There is no page 3: the pages go from 1 to 2." in text(refused)
    greek = words(vic.get(f"{base}&page=2", headers={"Accept-Language": "el"}))
    assert "Προηγούμενη Σελίδα 2 από 2" in greek


@pytest.mark.parametrize(
    ("query", "record"),
    [
        (
            "a={Ann}&b={Bob}",
            "Ann against Bob All time Wins: Ann 1 – 1 Bob "
            "Matches against each other 2 Finished ahead 1 – 1",
        ),
        (
            "a={Ann}&b={Eva}",
            "Ann against Eva All time Wins: Ann 1 – 0 Eva "
            "Matches against each other 1 Finished ahead 1 – 0",
        ),
        (
            "a={Ann}-{Cy}&b={Bob}-{Di}",
            "Ann & Cy against Bob & Di All time Wins: Ann & Cy 1 – 0 Bob & Di "
            "Matches against each other 1",
        ),
        (
            "a={Di}-{Bob}&b={Cy}",
            "Bob & Di against Cy All time Wins: Bob & Di 0 – 1 Cy Matches against each other 1",
        ),
        (
            "a={Ann}&b={Bob}&season={summer}",
            "Ann against Bob Summer They have not finished a match on opposite sides.",
        ),
    ],
    ids=["players", "a-duel", "teams", "team-and-player", "in-a-season"],
)
def test_head_to_head_records(world: World, login: Login, query: str, record: str) -> None:
    response = login("vic").get(
        f"/clubs/{world.club}/head-to-head?" + query.format(**world.p, summer=world.summer)
    )
    assert response.status_code == 200
    assert record in words(response)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("a={Ann}", "Choose both sides to compare: a player or a team each."),
        ("a={Ann}&b={Ann}", "Name two different players or teams to compare."),
        ("a={Ann}&b={Ann}-{Bob}", "Name two different players or teams to compare."),
        ("a=999999&b={Ann}", "“999999” names no player or team of this club."),
        ("a={zed}&b={Ann}", "“{zed}” names no player or team of this club."),
        ("a=abc&b={Ann}", "“abc” names no player or team of this club."),
        ("a={Ann}-{Ann}&b={Bob}", "A team names each of its players once."),
        ("a={Ann}&a2={Ann}&b={Bob}", "A team names each of its players once."),
        ("a2={Ann}&b={Bob}", "Choose a side's player as well as its partner."),
        ("a={Ann}&b2={Bob}", "Choose a side's player as well as its partner."),
        ("a={Ann}&b={Bob}&season=x", "Choose one of the club's seasons, or all time."),
    ],
    ids=[
        "one-side",
        "same-player",
        "inside-the-team",
        "no-such-id",
        "another-clubs",
        "not-an-id",
        "twice",
        "picked-twice",
        "partner-alone",
        "a-partner-against-a-player",
        "bad-season",
    ],
)
def test_head_to_head_refuses_what_it_cannot_compare(
    world: World, login: Login, query: str, message: str
) -> None:
    ids = {**world.p, "zed": world.other_player}
    response = login("vic").get(f"/clubs/{world.club}/head-to-head?" + query.format(**ids))
    assert response.status_code == 400
    assert message.format(**ids) in text(response)


def test_the_picker_offers_players_and_partners_and_keeps_the_choice(
    world: World, login: Login
) -> None:
    p = world.p
    client = login("vic")
    url = f"/clubs/{world.club}/head-to-head?"
    # The pickers send each side as a player and a partner; a link names a team "12-15".
    picked = client.get(url + "a={Ann}&a2={Cy}&b={Bob}&b2={Di}".format(**p))
    linked = client.get(url + "a={Ann}-{Cy}&b={Bob}-{Di}".format(**p))
    assert picked.status_code == linked.status_code == 200
    assert "Ann & Cy against Bob & Di" in words(picked)
    assert _record(text(picked)) == _record(text(linked))
    page = text(linked)
    for select, chosen in [("h2h-a", "Ann"), ("h2h-a-partner", "Cy"), ("h2h-b", "Bob")]:
        options = _select(page, select)
        assert f'<option value="{p[chosen]}" selected>{chosen}</option>' in options, select
        assert options.count(" selected") == 1, select
    # Every player once per select, by name, and no list of teams.
    names = re.findall(r'<option value="\d+"[^>]*>([^<]+)</option>', _select(page, "h2h-b-partner"))
    assert names == sorted(p, key=str.casefold)
    assert " & " not in _select(page, "h2h-a") + _select(page, "h2h-a-partner")
    player_page = text(client.get(f"/clubs/{world.club}/players/{p['Ann']}"))
    for select in ("compare-b", "compare-b-partner"):
        offered = _select(player_page, select)
        assert f'value="{p["Ann"]}"' not in offered, "no side with Ann herself"
        assert f'<option value="{p["Bob"]}">Bob</option>' in offered


def _select(page: str, select_id: str) -> str:
    """The options of the select with that id."""
    start = page.index(f'id="{select_id}"')
    return page[start : page.index("</select>", start)]


def _record(page: str) -> str:
    start = page.index('class="panel h2h"')
    return page[start : page.index("</section>", start)]


def test_the_club_page_leads_to_the_records(world: World, login: Login) -> None:
    page = text(login("vic").get(f"/clubs/{world.club}"))
    for href in ("seasons", "partnerships", "head-to-head", f"players/{world.p['Eva']}"):
        assert f'href="/clubs/{world.club}/{href}"' in page


def test_the_record_pages_speak_greek(world: World, login: Login) -> None:
    greek = {"Accept-Language": "el"}
    vic = login("vic")
    page = words(vic.get(f"/clubs/{world.club}/players/{world.p['Ann']}", headers=greek))
    for phrase in ("Βαθμολογία", "Οι καλύτεροι γύροι", "Συμπαίκτες", "Όλες οι σεζόν", "Νίκη"):
        assert phrase in page
    refused = login("eleni").post(
        f"/clubs/{world.club}/seasons",
        data={"name": "Άνοιξη", "starts_on": "2026-09-31", "ends_on": "2026-10-30"},
        headers=greek,
    )
    assert "Η πρώτη μέρα δεν είναι ημερομηνία" in text(refused)
    board = text(vic.get(f"/matches/{world.m[1]}", headers=greek))
    assert "Η πορεία του σκορ" in board and "στόχος 600" in board


# --- the score picture on the scoreboard ---------------------------------------------------


def test_the_scoreboard_draws_the_score_after_each_hand(
    app: Flask, world: World, login: Login
) -> None:
    m5 = world.m[4]
    with app.app_context():
        match = db.session.get(Match, m5)
        eleni = db.session.scalar(sa.select(User).filter_by(username="eleni"))
        matches.record_hand(match, eleni, typed(match, REFERENCE))  # hand 2
        matches.delete_hand(match, 1, eleni, 1)  # numbers stay: hands 2 and 3 are left
        matches.record_hand(match, eleni, typed(match, REFERENCE))  # hand 3
    response = login("vic").get(f"/matches/{m5}")
    page = text(response)
    assert f'aria-labelledby="progress-{m5}-title progress-{m5}-desc"' in page
    assert f'<title id="progress-{m5}-title">Score after each hand, match {m5}</title>' in page
    assert "the dashed line is the target, 5000. Now: A 1330, B −190." in page
    assert page.count('<path class="chart-line chart-line-') == 2
    assert 'class="chart-guide chart-guide-target"' in page and ">target 5000</text>" in page
    # The x axis: the start and the hand numbers as the scoreboard shows them.
    assert re.findall(r'class="chart-label chart-label-x"[^>]*>([^<]+)<', page) == ["0", "2", "3"]
    assert rows_of(page, 'class="chart-numbers"') == [
        ["Hand", "A", "B"],
        ["2", "665", "−95"],
        ["3", "1330", "−190"],
    ]
    assert "A B" in words(response)[words(response).index("target 5000") :], (
        "a legend for two lines"
    )


def test_no_picture_before_the_first_hand(app: Flask, world: World, login: Login) -> None:
    with app.app_context():
        club = db.session.get(Club, world.club)
        eleni = db.session.scalar(sa.select(User).filter_by(username="eleni"))
        p = world.p
        fresh = matches.create_match(
            club, eleni, "pagat", "2p", [TeamSpec("A", (p["Ann"],)), TeamSpec("B", (p["Bob"],))]
        ).id
    page = text(login("vic").get(f"/matches/{fresh}"))
    assert "<svg" not in page and "Score progression" not in page
    assert "In no season." in page
