"""Look-alike usernames (issue 18): a new name whose confusable skeleton (Unicode UTS #39)
is an existing account's is refused with a sentence; the owner's club page marks a member or
someone asking to join whose name looks like a member's, in English and Greek."""

from __future__ import annotations

import html
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from playwright.sync_api import Page, expect
from support.browser import log_in, shoot
from support.world import signed_in
from werkzeug.security import generate_password_hash

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import Invalid
from scorekeeper.extensions import db
from scorekeeper.models import JoinRequest, Membership, Role, User
from scorekeeper.usernames import look_key, username_key

PASSWORD = "correct horse"

#: The probe's names (issue 18, item 3): each registered and showed as "Let аӏісе in".
LOOK_ALIKES = [
    ("аӏісе", "alice"),  # all Cyrillic, the palochka for l
    ("ԁаѵе", "dave"),  # all Cyrillic
    ("ɑlice", "alice"),  # Latin alpha
    ("aIice", "alice"),  # capital I for l
    ("AIice", "alice"),
    ("dаve", "dave"),  # one Cyrillic а (also refused as two alphabets)
]


@pytest.mark.stateless
@pytest.mark.parametrize(("name", "existing"), LOOK_ALIKES)
def test_a_look_alike_has_the_skeleton_of_the_name_it_copies(name: str, existing: str) -> None:
    assert look_key(name) == look_key(existing)
    assert username_key(name) != username_key(existing), "another account, not the same name"


@pytest.mark.stateless
@pytest.mark.parametrize(
    ("name", "other"),
    [("alice", "alicia"), ("olga", "όλγα"), ("Νίκος", "Νίκη"), ("ann", "anne"), ("dave", "dove")],
)
def test_names_that_merely_share_letters_do_not_look_alike(name: str, other: str) -> None:
    assert look_key(name) != look_key(other)


@pytest.mark.stateless
@pytest.mark.parametrize(
    "spelling",
    ["carol\u200b", "ｃａｒｏｌ", "car\u00adol", "caro\u2060l", "carol\ufe0f", " CAROL "],
)
def test_one_key_for_every_spelling_of_a_name(spelling: str) -> None:
    """The one normalisation that registering, the login and its limit share."""
    assert username_key(spelling) == "carol"


def register(client: FlaskClient, username: str) -> str:
    data = {"username": username, "password": PASSWORD, "repeat": PASSWORD}
    response = client.post("/register", data=data)
    assert response.status_code in (302, 400), response.status_code
    return html.unescape(response.get_data(as_text=True)) if response.status_code == 400 else ""


@pytest.mark.parametrize(("name", "existing"), [*LOOK_ALIKES[:5], ("0lga", "olga")])
def test_registering_a_look_alike_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient, name: str, existing: str
) -> None:
    with app.app_context():
        accounts.create_user(existing, PASSWORD)
    page = register(client, name)
    assert f"That name looks like an existing account's ({existing}); choose another." in page
    assert 'id="username-errors"' in page, "beside the username field"
    with app.app_context():
        assert db.session.query(User).count() == 1


def test_a_name_that_only_looks_like_itself_registers(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        accounts.create_user("alice", PASSWORD)
    assert register(client, "alicia") == ""


def test_the_command_line_refuses_a_look_alike_too(app: Flask) -> None:
    with app.app_context():
        accounts.create_user("alice", PASSWORD)
        with pytest.raises(accounts.LooksLikeAnother):
            accounts.create_user("аӏісе", PASSWORD)
        with pytest.raises(Invalid, match="taken"):
            accounts.create_user("ａｌｉｃｅ\u200b", PASSWORD)


def _club_with_look_alikes(app: Flask) -> tuple[int, int]:
    """alice's club with dave a member; then accounts made before the check (straight into
    the table): dave in Cyrillic, a member, and alice in Cyrillic, asking to join. The
    club's id and alice's."""
    with app.app_context():
        alice = accounts.create_user("alice", PASSWORD)
        dave = accounts.create_user("dave", PASSWORD)
        club = clubs.create_club(alice, "Friday")
        clubs.join_by_invite(dave, club.invite_code)
        hash_ = generate_password_hash(PASSWORD, "pbkdf2:sha256:1")
        fake_dave = User(username="ԁаѵе", password_hash=hash_)
        fake_alice = User(username="аӏісе", password_hash=hash_)
        db.session.add_all([fake_dave, fake_alice])
        db.session.flush()
        db.session.add(Membership(club_id=club.id, user_id=fake_dave.id, role=Role.VIEWER))
        db.session.add(JoinRequest(club_id=club.id, user_id=fake_alice.id))
        db.session.commit()
        return club.id, alice.id


def test_the_owner_sees_which_names_look_like_a_members(app: Flask, client: FlaskClient) -> None:
    club_id, alice_id = _club_with_look_alikes(app)
    page = html.unescape(signed_in(client, alice_id).get(f"/clubs/{club_id}").get_data(True))
    requests = page.split('id="requests-title"', 1)[1]
    assert "Let аӏісе in" in requests
    assert requests.count('class="look-alike"') == 1 and "looks like alice" in requests
    members = page.split('id="members-title"', 1)[1].split('id="requests-title"', 1)[0]
    assert members.count('class="look-alike"') == 1, "the newer account only"
    assert "looks like dave" in members


def test_the_mark_speaks_greek(app: Flask, client: FlaskClient) -> None:
    club_id, alice_id = _club_with_look_alikes(app)
    client.set_cookie("lang", "el")
    page = html.unescape(signed_in(client, alice_id).get(f"/clubs/{club_id}").get_data(True))
    assert "μοιάζει με alice" in page and "μοιάζει με dave" in page


def test_members_see_the_mark_too(app: Flask, client: FlaskClient) -> None:
    club_id, _ = _club_with_look_alikes(app)
    with app.app_context():
        dave = accounts.find_user("dave")
        assert dave is not None
        dave_id = dave.id
    page = html.unescape(signed_in(client, dave_id).get(f"/clubs/{club_id}").get_data(True))
    assert "looks like dave" in page
    assert "аӏісе" not in page, "only owners see who asks to join"


def test_the_owner_sees_the_mark_on_a_phone(
    app: Flask, page: Page, live_server: str, screenshots: Path
) -> None:
    club_id, _ = _club_with_look_alikes(app)
    log_in(page, live_server, "alice", PASSWORD)
    page.goto(f"{live_server}/clubs/{club_id}#members")
    asking = page.locator(".join-requests .member")
    expect(asking.locator(".look-alike")).to_have_text("looks like alice")
    expect(asking.get_by_role("button", name="Let аӏісе in")).to_be_visible()
    expect(page.locator("#members .member-list .look-alike").first).to_have_text("looks like dave")
    page.locator("#members").scroll_into_view_if_needed()
    shoot(page, screenshots, "club-look-alikes")
    page.context.add_cookies([{"name": "lang", "value": "el", "url": live_server}])
    page.reload()
    shoot(page, screenshots, "club-look-alikes-el", schemes=("light",))
