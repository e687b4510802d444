# ruff: noqa: RUF001  (Greek words are Greek letters, not look-alikes)
"""Whose a page kept offline is, as the server tells the service worker: the tags on a match
page (web/kept_pages.py) and /offline/session (play/offline.py), for the anonymous, a member,
a member removed from the club and a session ended by "log out everywhere"; and the offline
page that says a kept copy expired. The worker's side is in test_kept_pages_browser.py."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.world import new_club, pagat_match, signed_in

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Club, Membership, Role, User


@dataclass(frozen=True)
class Clubs:
    owner_id: int
    member_id: int
    club_id: int
    other_club_id: int
    match_id: int


@pytest.fixture
def world(app: Flask) -> Clubs:
    """Ann owns Friday (with a match) and Sunday; Bob scores at Friday only."""
    with app.app_context():
        ann = accounts.create_user("ann", "password1")
        bob = accounts.create_user("bob", "password1")
        club, players = new_club(ann)
        other, _ = new_club(ann, "Sunday")
        club.memberships.append(Membership(user=bob, role=Role.SCORER))
        db.session.commit()
        match = pagat_match(club, ann, [players[n] for n in ("Ann", "Bob", "Cy", "Di")])
        return Clubs(ann.id, bob.id, club.id, other.id, match.id)


def session_of(client: FlaskClient) -> dict[str, object]:
    answer = client.get("/offline/session")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert answer.headers["Cache-Control"] == "no-store"
    body: dict[str, object] = answer.json
    return body


def test_the_anonymous_hold_no_session_and_no_club(client: FlaskClient, world: Clubs) -> None:
    assert session_of(client) == {"session": None, "clubs": []}


def test_a_member_holds_their_session_and_their_clubs(
    app: Flask, client: FlaskClient, world: Clubs
) -> None:
    ann = session_of(signed_in(client, world.owner_id))
    assert re.fullmatch(r"[0-9a-f]{32}", str(ann["session"]))
    assert ann["clubs"] == sorted([world.club_id, world.other_club_id])
    # Opaque: neither the user's id nor the session secret shows through.
    with app.app_context():
        user = db.session.get(User, world.owner_id)
        assert user is not None
        assert user.session_secret not in str(ann["session"])
    bob = session_of(signed_in(app.test_client(), world.member_id))
    assert bob["clubs"] == [world.club_id]
    assert bob["session"] != ann["session"]


def test_a_match_page_names_its_session_club_and_max_age(client: FlaskClient, world: Clubs) -> None:
    bob = signed_in(client, world.member_id)
    session = session_of(bob)["session"]
    for path in ("", "/hands/new"):
        page = bob.get(f"/matches/{world.match_id}{path}")
        assert page.status_code == 200
        assert page.headers["X-Offline-Session"] == session
        assert page.headers["X-Offline-Club"] == str(world.club_id)
        assert page.headers["X-Offline-Max-Age"] == str(24 * 60 * 60)
    # Pages the worker does not keep carry no tags.
    assert "X-Offline-Session" not in bob.get("/").headers
    assert "X-Offline-Session" not in bob.get(f"/api/v1/matches/{world.match_id}").headers


def test_a_removed_member_holds_the_same_session_without_the_club(
    app: Flask, client: FlaskClient, world: Clubs
) -> None:
    bob = signed_in(client, world.member_id)
    before = session_of(bob)
    with app.app_context():
        club = db.session.get(Club, world.club_id)
        assert club is not None
        clubs.remove_member(club, world.member_id)
    after = session_of(bob)
    assert after == {"session": before["session"], "clubs": []}
    assert bob.get(f"/matches/{world.match_id}").status_code == 404


def test_log_out_everywhere_ends_the_session_the_kept_pages_name(
    app: Flask, client: FlaskClient, world: Clubs
) -> None:
    phone = signed_in(client, world.owner_id)
    kept_for = session_of(phone)["session"]
    laptop = signed_in(app.test_client(), world.owner_id)
    assert session_of(laptop)["session"] == kept_for  # one session generation, one tag
    assert laptop.post("/account/logout-everywhere").status_code == 302
    assert session_of(phone) == {"session": None, "clubs": []}
    again = session_of(signed_in(app.test_client(), world.owner_id))
    assert again["session"] not in (None, kept_for)


def test_the_max_age_is_a_setting(
    client: FlaskClient, world: Clubs, monkeypatch: pytest.MonkeyPatch, app: Flask
) -> None:
    monkeypatch.setitem(app.config, "OFFLINE_PAGES_MAX_AGE", 12 * 60 * 60)
    page = signed_in(client, world.owner_id).get(f"/matches/{world.match_id}")
    assert page.headers["X-Offline-Max-Age"] == "43200"
    assert "for 12 hours after you last opened it online" in client.get("/offline").text


@pytest.mark.stateless
@pytest.mark.parametrize(
    ("lang", "expired", "kept"),
    [
        (
            "en",
            "The copy of this page kept on this phone is more than 1 day old, so it is no "
            "longer shown",
            "A kept page is shown for 1 day after you last opened it online",
        ),
        (
            "el",
            "Το αντίγραφο αυτής της σελίδας που κρατήθηκε σε αυτό το κινητό είναι παλαιότερο "
            "από 1 ημέρα",
            "Μια σελίδα που κρατήθηκε εμφανίζεται για 1 ημέρα",
        ),
    ],
    ids=["en", "el"],
)
def test_the_offline_page_says_when_a_kept_copy_expired(
    client: FlaskClient, lang: str, expired: str, kept: str
) -> None:
    client.set_cookie("lang", lang)
    page = client.get("/offline/expired")
    assert page.status_code == 200 and "data-offline-fallback" in page.text
    assert expired in page.text and kept in page.text
    plain = client.get("/offline").text
    assert expired not in plain and kept in plain
