"""Issue 10's calmer screens through the Flask test client: the home page for players, the
read-only demo match, the order of the deal, a finished match's scoreboard, team names,
the new-match form's refresh and the hand history's marks."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import REFERENCE_HAND, typed
from support.world import new_club, pagat_match, signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Hand, HandVersion, Match, Role, User


@dataclass(frozen=True)
class Table:
    user_id: int
    club_id: int
    match_id: int
    players: dict[str, int]


@pytest.fixture
def table(app: Flask) -> Table:
    """A club of Ann, Bob, Cy and Di, and a pagat match: A = Ann & Cy, B = Bob & Di, seated
    Ann, Bob, Cy, Di clockwise, Ann dealing first. (No app context stays open: each request
    then reads the database afresh.)"""
    with app.app_context():
        user = accounts.create_user("eleni", "password1")
        club, players = new_club(user)
        match = pagat_match(club, user, [players[n] for n in ("Ann", "Bob", "Cy", "Di")])
        return Table(user.id, club.id, match.id, players)


def text_of(html: str) -> str:
    """The page's words without tags, spaces squeezed, for reading sentences."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace(" .", ".")


# --- home page -------------------------------------------------------------------------------


@pytest.mark.stateless
def test_signed_out_home_says_what_the_app_does_and_offers_register_and_demo(
    client: FlaskClient,
) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'href="/register"' in page and "Register</a>" in page
    assert 'href="/demo"' in page and "Try the demo</a>" in page
    picture = re.search(
        r'<img src="(/static/img/scoreboard\.[0-9a-f]{12}\.png)"[^>]*alt="([^"]+)"', page
    )
    assert picture is not None and len(picture.group(2)) > 40, "the picture says what it shows"
    shown = client.get(picture.group(1))
    assert shown.status_code == 200 and shown.mimetype == "image/png"
    assert len(shown.data) < 100_000, "a small picture for a phone"
    assert "Coming next" not in page
    assert "/api/v1/hands/score" not in page, "the API examples live on /api now"
    assert '<a href="/api">JSON API</a>' not in page, "no player's link (issue 19)"


def test_signed_in_home_lists_running_matches_and_clubs(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    with app.app_context():
        user = db.session.get(User, table.user_id)
        match = db.session.get(Match, table.match_id)
        assert user is not None and match is not None
        matches.record_hand(match, user, typed(match, REFERENCE_HAND))
        # a second match that is already won is not "running"
        won = pagat_match(match.club, user, list(table.players.values()), target=100)
        matches.record_hand(won, user, typed(won, REFERENCE_HAND))
        won_id = won.id
    page = signed_in(client, table.user_id).get("/").get_data(as_text=True)
    words = text_of(page)
    assert "Running matches" in words
    assert f'href="/matches/{table.match_id}"' in page
    assert f'href="/matches/{won_id}"' not in page
    assert "A 665" in words and "B −95" in words
    # pagat deals anticlockwise: after Ann, the player on her right, Di
    assert "Next to deal: Di" in words
    assert f'href="/matches/{table.match_id}/hands/new"' in page and "New hand" in page
    assert f'href="/clubs/{table.club_id}"' in page and "Friday" in words


def test_a_viewer_sees_the_running_match_without_a_new_hand_button(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    with app.app_context():
        viewer = accounts.create_user("vic", "password1")
        club = clubs.club_for(db.session.get(User, table.user_id), table.club_id)
        clubs.join_by_invite(viewer, club.invite_code)
        viewer_id = viewer.id
        assert clubs.role_in(viewer, club) is Role.VIEWER
    page = signed_in(client, viewer_id).get("/").get_data(as_text=True)
    assert f'href="/matches/{table.match_id}"' in page
    assert "/hands/new" not in page


# --- the demo match --------------------------------------------------------------------------


def test_the_demo_is_a_read_only_scored_match_for_anyone(app: Flask, client: FlaskClient) -> None:
    response = client.get("/demo")
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    words = text_of(page)
    # presets.md's reference hand opens the sample: 665 and −95, itemised by the engine
    assert "Eleni &amp; Maria 665" in text_of(page.split('id="hand-1"')[1]) or (
        "Eleni & Maria 665" in text_of(page.split('id="hand-1"')[1])
    )
    assert "Clean kózi biriba 3♥–9♥" in words
    assert "1885" in words and "1345" in words  # the totals after five hands
    assert "Next to deal: Giorgos" in words
    assert "The deal passes to the right: Giorgos → Maria → Kostas → Eleni" in words
    assert 'href="/referee/meld"' in page and 'href="/rules/pagat"' in page
    assert "Register to keep your own scores" in words
    assert "Enter hand" not in words and "Edit" not in words
    with app.app_context():
        for model in (User, Match, Hand, HandVersion):
            assert db.session.scalar(sa.select(sa.func.count()).select_from(model)) == 0


@pytest.mark.stateless
def test_the_demo_speaks_greek(client: FlaskClient) -> None:
    client.set_cookie("lang", "el")
    words = text_of(client.get("/demo").get_data(as_text=True))
    assert "Καθαρή" in words and "Το μοίρασμα πάει προς τα δεξιά: Giorgos" in words


# --- the scoreboard --------------------------------------------------------------------------


def test_the_scoreboard_says_which_way_the_deal_goes(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    signed_in(client, table.user_id)
    words = text_of(client.get(f"/matches/{table.match_id}").get_data(as_text=True))
    assert "The deal passes to the right: Ann → Di → Cy → Bob" in words
    with app.app_context():
        match = db.session.get(Match, table.match_id)
        user = db.session.get(User, table.user_id)
        assert match is not None and user is not None
        matches.record_hand(match, user, typed(match, REFERENCE_HAND))
    words = text_of(client.get(f"/matches/{table.match_id}").get_data(as_text=True))
    assert "Next to deal: Di" in words
    assert "The deal passes to the right: Di → Cy → Bob → Ann" in words


def test_a_clockwise_house_rule_deals_to_the_left(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    with app.app_context():
        user = db.session.get(User, table.user_id)
        match = db.session.get(Match, table.match_id)
        assert user is not None and match is not None
        ids = [table.players[n] for n in ("Ann", "Bob", "Cy", "Di")]
        left = pagat_match(
            match.club, user, ids, house_rules={"deal_direction": "clockwise"}, first_dealer=ids[2]
        )
        left_id = left.id
    words = text_of(signed_in(client, table.user_id).get(f"/matches/{left_id}").text)
    assert "The deal passes to the left: Cy → Di → Ann → Bob" in words


def test_a_finished_match_shows_no_running_only_lines(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    with app.app_context():
        user = db.session.get(User, table.user_id)
        match = db.session.get(Match, table.match_id)
        assert user is not None and match is not None
        won = pagat_match(match.club, user, list(table.players.values()), target=100)
        matches.record_hand(won, user, typed(won, REFERENCE_HAND))
        won_id = won.id
    page = signed_in(client, table.user_id).get(f"/matches/{won_id}").get_data(as_text=True)
    assert "A won" in text_of(page)
    for running_only in ("Next opening", "Next to deal", "The deal passes", "Enter hand"):
        assert running_only not in page


def test_a_team_without_a_name_of_its_own_is_named_once(client: FlaskClient, table: Table) -> None:
    signed_in(client, table.user_id)
    p = table.players
    data = {
        "preset": "pagat",
        "format": "4p",
        "shown_preset": "pagat",
        "target": "5000",
        "team-0-name": "",  # the form then names the team after its players
        "team-0-seat-0": str(p["Ann"]),
        "team-0-seat-1": str(p["Cy"]),
        "team-1-name": "Them",
        "team-1-seat-0": str(p["Bob"]),
        "team-1-seat-1": str(p["Di"]),
    }
    created = client.post(f"/clubs/{table.club_id}/matches/new", data=data)
    assert created.status_code == 302, created.text
    page = client.get(created.headers["Location"]).get_data(as_text=True)
    names = re.findall(r'class="standing-(?:name|players)">([^<]*)<', page)
    assert names == ["Ann &amp; Cy", "Them", "Bob &amp; Di"], "named once; Them's players shown"
    # The hand form heads each side the same way.
    form = client.get(created.headers["Location"] + "/hands/new").get_data(as_text=True)
    heads = re.findall(r'<h2 id="side-\d-title">(.*?)</h2>', form)
    assert heads == ["Ann &amp; Cy", 'Them <span class="side-players">Bob &amp; Di</span>']


# --- the new-match form ----------------------------------------------------------------------


def test_the_preset_refresh_is_a_post_that_creates_nothing(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    signed_in(client, table.user_id)
    form = client.get(f"/clubs/{table.club_id}/matches/new").get_data(as_text=True)
    assert 'formmethod="get"' not in form, "a GET refresh would put every field in the URL"
    assert re.search(r'<button type="submit"[^>]*name="refresh"', form)
    p = table.players
    data = {
        "preset": "buraco-us",
        "format": "4p",
        "shown_preset": "pagat",
        "target": "5000",
        "team-0-seat-0": str(p["Ann"]),
        "team-0-seat-1": str(p["Cy"]),
        "team-1-seat-0": str(p["Bob"]),
        "team-1-seat-1": str(p["Di"]),
        "first_dealer": str(p["Bob"]),
        "refresh": "1",
    }
    response = client.post(f"/clubs/{table.club_id}/matches/new", data=data)
    assert response.status_code == 200
    page = response.get_data(as_text=True)
    assert 'name="shown_preset" value="buraco-us"' in page
    # buraco deals clockwise, to the left, from the first dealer chosen: Bob
    assert "The deal passes to the left: Bob → Cy → Di → Ann" in text_of(page)
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Match)) == 1


def test_the_new_match_form_shows_the_order_of_the_deal(client: FlaskClient, table: Table) -> None:
    signed_in(client, table.user_id)
    words = text_of(client.get(f"/clubs/{table.club_id}/matches/new").get_data(as_text=True))
    # a first visit seats A = Ann & Bob, B = Cy & Di: round the table Ann, Cy, Bob, Di
    assert "The deal passes to the right: Ann → Di → Bob → Cy" in words
    p = table.players
    half = {"team-0-seat-0": str(p["Ann"]), "team-0-seat-1": "", "shown_preset": "pagat"}
    response = client.post(f"/clubs/{table.club_id}/matches/new", data=half | {"refresh": "1"})
    assert "Choose the players to see the order of the deal." in text_of(response.text)


# --- hand history ----------------------------------------------------------------------------


def test_history_marks_what_a_correction_changed_and_gives_the_time_in_utc(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    with app.app_context():
        user = db.session.get(User, table.user_id)
        match = db.session.get(Match, table.match_id)
        assert user is not None and match is not None
        matches.record_hand(match, user, typed(match, REFERENCE_HAND))
        corrected = {
            "kozi": "S",
            "teams": [
                {**REFERENCE_HAND["teams"][0], "melds": ["5S-JS", "QD QC QH", "8H 9H 10H"]},
                REFERENCE_HAND["teams"][1],
            ],
        }
        matches.edit_hand(match, 1, user, typed(match, corrected), expected_version=1)
    page = signed_in(client, table.user_id).get(f"/matches/{table.match_id}/hands/1/history").text
    newest, oldest = page.split('class="panel version version-')[1:3]

    # the marks' and deletions' text, without the spans that draw red suits in red
    def text(html: str) -> str:
        return re.sub(r"<[^>]+>", "", re.sub(r'<span class="visually-hidden">.*?</span>', "", html))

    marked = [text(mark) for mark in re.findall('<mark class="changed-mark">(.*?)</mark>', newest)]
    removed = [text(gone) for gone in re.findall("<del>(.*?)</del>", newest)]
    assert "♠" in marked, "the new kózi"
    assert "8♥ 9♥ 10♥" in marked, "the meld that came in"
    assert "5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠" not in marked, "a meld that stayed is not marked"
    assert removed == ["8♥ 9♥ 10♥ J♥ Q♥ K♥ joker"], "the meld that went"
    assert "Clean kózi biriba 5♠–J♠" in marked, "the bonus the new kózi changed"
    assert "Went out" not in marked, "a score line that stayed is not marked"
    assert "changed-mark" not in oldest, "the first version has nothing to compare with"
    stamps = re.findall(r'<time datetime="([^"]+)" data-local-time>([^<]+)</time>', page)
    assert len(stamps) == 2
    for iso, text in stamps:
        assert iso.endswith("+00:00"), "the script needs the zone to show local time"
        assert text.endswith(" UTC"), "without JavaScript the time says it is UTC"
    assert re.search(r"/static/js/local-time\.[0-9a-f]{12}\.js", page)


def test_history_lines_speak_the_readers_language(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    with app.app_context():
        user = db.session.get(User, table.user_id)
        match = db.session.get(Match, table.match_id)
        assert user is not None and match is not None
        matches.record_hand(match, user, typed(match, REFERENCE_HAND))
        matches.edit_hand(
            match, 1, user, typed(match, {**REFERENCE_HAND, "kozi": "S"}), expected_version=1
        )
    signed_in(client, table.user_id).set_cookie("lang", "el")
    page = client.get(f"/matches/{table.match_id}/hands/1/history").get_data(as_text=True)
    assert "Cards melded" not in page and "Went out" not in page
    assert page.count("Κλείσιμο") == 2, "both versions' lines are in Greek"


def test_a_variant_without_an_opening_table_shows_no_next_opening(
    client: FlaskClient, table: Table
) -> None:
    """pagat has no opening minimum: "Next opening: no minimum" on every team was noise."""
    assert "Next opening" not in client.get("/demo").get_data(as_text=True)
    signed_in(client, table.user_id)
    board = client.get(f"/matches/{table.match_id}").get_data(as_text=True)
    assert "Next to deal" in board
    assert "Next opening" not in board
