"""Club pages: creating a club, players, invitations, roles, and who may see and do what."""

from __future__ import annotations

import html
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy.orm import Session
from support.hand_entries import LOSERS, WINNERS, typed
from werkzeug.test import TestResponse

from scorekeeper import match as matches
from scorekeeper.clubs import service as clubs
from scorekeeper.errors import Invalid
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Club, Match, Membership, Player, Role, User

PASSWORD = "correct horse"


def text(response: TestResponse) -> str:
    return html.unescape(response.get_data(as_text=True))


@dataclass
class Person:
    """A browser of its own (a test client with its own cookies), logged in as `username`."""

    username: str
    client: FlaskClient
    id: int


@pytest.fixture
def person(app: Flask) -> Callable[[str], Person]:
    def make(username: str) -> Person:
        client = app.test_client()
        response = client.post(
            "/register", data={"username": username, "password": PASSWORD, "repeat": PASSWORD}
        )
        assert response.status_code == 302, text(response)
        with app.app_context():
            user_id = db.session.query(User).filter_by(username=username).one().id
        return Person(username, client, user_id)

    return make


def start_club(owner: Person, name: str = "Friday table") -> int:
    response = owner.client.post("/clubs", data={"name": name})
    assert response.status_code == 302
    return int(response.headers["Location"].rsplit("/", 1)[1])


def invite_code(owner: Person, club_id: int) -> str:
    page = text(owner.client.get(f"/clubs/{club_id}/invite"))
    match = re.search(r">http://localhost/join/([^<]+)</textarea>", page)
    assert match, "the invite page shows the link"
    return match.group(1)


def join(someone: Person, owner: Person, club_id: int, role: Role = Role.VIEWER) -> None:
    response = someone.client.post(f"/join/{invite_code(owner, club_id)}")
    assert response.status_code == 302
    if role is not Role.VIEWER:
        set_role(owner, club_id, someone, role)


def set_role(owner: Person, club_id: int, member: Person, role: Role | str) -> TestResponse:
    return owner.client.post(
        f"/clubs/{club_id}/members/{member.id}/role",
        data={f"member-{member.id}-role": str(role)},
    )


def role_of(app: Flask, club_id: int, member: Person) -> Role | None:
    with app.app_context():
        return db.session.scalar(
            db.select(Membership.role).filter_by(club_id=club_id, user_id=member.id)
        )


# Clubs


def test_a_new_club_makes_its_creator_owner(person: Callable[[str], Person], app: Flask) -> None:
    ann = person("ann")
    assert "You are in no club yet." in text(ann.client.get("/clubs"))
    club_id = start_club(ann, "Friday Biriba at Eleni's")
    page = text(ann.client.get(f"/clubs/{club_id}"))
    assert "<h1>Friday Biriba at Eleni's</h1>" in page
    assert "is ready, and you are its owner." in page
    assert role_of(app, club_id, ann) is Role.OWNER

    page = text(ann.client.get("/clubs"))
    assert f'href="/clubs/{club_id}"' in page
    assert 'class="role role-owner">owner<' in page


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "Give the club a name."),
        ("  ", "Give the club a name."),
        ("x" * 121, "A club's name has at most 120 characters."),
    ],
    ids=["empty", "blank", "long"],
)
def test_a_club_needs_a_name(person: Callable[[str], Person], name: str, message: str) -> None:
    ann = person("ann")
    response = ann.client.post("/clubs", data={"name": name})
    assert response.status_code == 400
    assert message in text(response)
    assert "You are in no club yet." in text(response)


def test_my_clubs_lists_only_mine_with_my_role(person: Callable[[str], Person]) -> None:
    ann, bob = person("ann"), person("bob")
    annes = start_club(ann, "Ann's table")
    start_club(bob, "Bob's table")
    join(bob, ann, annes, Role.SCORER)
    page = text(bob.client.get("/clubs"))
    assert "Ann's table" in page and "Bob's table" in page
    assert 'role-scorer">scorer<' in page and 'role-owner">owner<' in page
    assert "Bob's table" not in text(ann.client.get("/clubs"))


# Players


def test_add_players_and_refuse_a_duplicate(person: Callable[[str], Person], app: Flask) -> None:
    ann = person("ann")
    club_id = start_club(ann)
    assert "No players yet." in text(ann.client.get(f"/clubs/{club_id}"))
    for name in ("Ann", "Bob", "  Cat  "):
        response = ann.client.post(f"/clubs/{club_id}/players", data={"name": name})
        assert response.status_code == 302
        assert response.headers["Location"] == f"/clubs/{club_id}#players"
    page = text(ann.client.get(f"/clubs/{club_id}"))
    assert "Cat now plays in Friday table." in page
    # Each name leads to the player's page.
    names = re.findall(r'<li><a href="/clubs/\d+/players/\d+">(\w+)</a></li>', page)
    assert names == ["Ann", "Bob", "Cat"]

    response = ann.client.post(f"/clubs/{club_id}/players", data={"name": "bob"})
    assert response.status_code == 400
    page = text(response)
    assert "Bob already plays in this club." in page
    assert 'id="name-errors"' in page
    with app.app_context():
        assert db.session.query(Player).count() == 3


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "Type the player's name."), ("x" * 81, "A player's name has at most 80 characters.")],
    ids=["empty", "long"],
)
def test_a_player_needs_a_name(person: Callable[[str], Person], name: str, message: str) -> None:
    ann = person("ann")
    club_id = start_club(ann)
    response = ann.client.post(f"/clubs/{club_id}/players", data={"name": name})
    assert response.status_code == 400
    assert message in text(response)


# Matches on the club page


def test_the_club_page_links_its_matches(person: Callable[[str], Person], app: Flask) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id)
    with app.app_context():
        club = db.session.get(Club, club_id)
        assert club is not None
        db.session.add(
            Match(club=club, variant_id="pagat", options={}, format="4p", created_by_id=ann.id)
        )
        db.session.commit()
        match_id = db.session.query(Match).one().id

    page = text(ann.client.get(f"/clubs/{club_id}"))
    assert f'href="/matches/{match_id}"' in page
    assert "Greek Biriba (pagat.com)" in page
    assert f'href="/clubs/{club_id}/matches/new"' in page

    page = text(bob.client.get(f"/clubs/{club_id}"))
    assert f'href="/matches/{match_id}"' in page
    assert "/matches/new" not in page, "a viewer starts no match"
    assert "Add the player" not in page
    assert 'class="member-form"' not in page


# Invitations


def test_an_invitation_makes_a_viewer(person: Callable[[str], Person], app: Flask) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    code = invite_code(ann, club_id)

    page = text(bob.client.get(f"/join/{code}"))
    assert "<h1>Friday table</h1>" in page
    assert f'action="/join/{code}"' in page
    assert role_of(app, club_id, bob) is None, "looking at the invitation joins nobody"

    response = bob.client.post(f"/join/{code}")
    assert response.headers["Location"] == f"/clubs/{club_id}"
    assert role_of(app, club_id, bob) is Role.VIEWER
    assert "Welcome to Friday table" in text(bob.client.get(f"/clubs/{club_id}"))

    assert "You are already a member" in text(bob.client.get(f"/join/{code}"))
    bob.client.post(f"/join/{code}")
    assert "You are already a member of Friday table." in text(bob.client.get("/clubs"))
    assert role_of(app, club_id, bob) is Role.VIEWER


def test_an_owner_who_follows_the_link_stays_owner(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann = person("ann")
    club_id = start_club(ann)
    ann.client.post(f"/join/{invite_code(ann, club_id)}")
    assert role_of(app, club_id, ann) is Role.OWNER


def test_an_invitation_reached_logged_out_leads_through_login_and_back(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    code = invite_code(ann, club_id)
    bob.client.post("/logout")

    response = bob.client.get(f"/join/{code}")
    assert response.status_code == 200
    page = text(response)
    assert "You are invited to join this club" in page
    assert f'href="/login?next=/join/{code}"' in page
    assert f'href="/register?next=/join/{code}"' in page

    response = bob.client.post(f"/join/{code}")
    assert urlsplit(response.headers["Location"]).path == "/login", "joining needs a login"

    response = bob.client.post(
        f"/login?next=/join/{code}", data={"username": "bob", "password": PASSWORD}
    )
    assert response.headers["Location"] == f"/join/{code}"
    bob.client.post(f"/join/{code}")
    assert role_of(app, club_id, bob) is Role.VIEWER


def test_a_newcomer_registers_from_the_invitation(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann = person("ann")
    club_id = start_club(ann)
    code = invite_code(ann, club_id)
    cat = app.test_client()
    response = cat.post(
        f"/register?next=/join/{code}",
        data={"username": "cat", "password": PASSWORD, "repeat": PASSWORD},
    )
    assert response.headers["Location"] == f"/join/{code}"
    assert cat.post(f"/join/{code}").status_code == 302
    assert "Friday table" in text(cat.get("/clubs"))


def test_a_new_link_retires_the_old_one(person: Callable[[str], Person], app: Flask) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    old = invite_code(ann, club_id)
    response = ann.client.post(f"/clubs/{club_id}/invite")
    assert response.headers["Location"] == f"/clubs/{club_id}/invite"
    new = invite_code(ann, club_id)
    assert new != old

    response = bob.client.get(f"/join/{old}")
    assert response.status_code == 404
    assert "This invitation link is not valid (any more); ask for a new one." in text(response)
    assert bob.client.post(f"/join/{old}").status_code == 404
    assert role_of(app, club_id, bob) is None
    bob.client.post(f"/join/{new}")
    assert role_of(app, club_id, bob) is Role.VIEWER


def test_the_invite_page_shows_an_absolute_link_and_a_copy_button(
    person: Callable[[str], Person],
) -> None:
    ann = person("ann")
    club_id = start_club(ann)
    page = text(ann.client.get(f"/clubs/{club_id}/invite"))
    assert re.search(r"<textarea[^>]+readonly[^>]*>http://localhost/join/[\w-]+</textarea>", page)
    assert 'data-copy="invite-link"' in page
    assert re.search(r'<script src="/static/js/copy\.[0-9a-f]{12}\.js" defer></script>', page)
    assert "<script>" not in page and " onclick=" not in page and " style=" not in page


# Roles


def test_the_owner_changes_roles(person: Callable[[str], Person], app: Flask) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id)

    response = set_role(ann, club_id, bob, Role.SCORER)
    assert response.status_code == 302
    assert response.headers["Location"] == f"/clubs/{club_id}#members"
    assert role_of(app, club_id, bob) is Role.SCORER
    assert bob.client.post(f"/clubs/{club_id}/players", data={"name": "Dan"}).status_code == 302

    set_role(ann, club_id, bob, Role.OWNER)
    assert role_of(app, club_id, bob) is Role.OWNER
    # With a second owner, the first may step down.
    assert set_role(ann, club_id, ann, Role.VIEWER).status_code == 302
    assert role_of(app, club_id, ann) is Role.VIEWER
    assert set_role(ann, club_id, bob, Role.VIEWER).status_code == 403


def test_the_last_owner_cannot_step_down(person: Callable[[str], Person], app: Flask) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.SCORER)
    for role in (Role.SCORER, Role.VIEWER):
        response = set_role(ann, club_id, ann, role)
        assert response.status_code == 400
        assert "A club needs an owner: make someone else owner first." in text(response)
        assert role_of(app, club_id, ann) is Role.OWNER


@pytest.mark.parametrize("value", ["admin", "", "OWNER"])
def test_a_role_must_be_one_of_three(
    person: Callable[[str], Person], app: Flask, value: str
) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id)
    response = set_role(ann, club_id, bob, value)
    assert response.status_code == 400
    assert "Choose viewer, scorer or owner." in text(response)
    assert role_of(app, club_id, bob) is Role.VIEWER


def test_only_members_get_a_role(person: Callable[[str], Person]) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    response = set_role(ann, club_id, bob, Role.SCORER)
    assert response.status_code == 404
    assert "That person is not a member of this club." in text(response)
    response = ann.client.post(
        f"/clubs/{club_id}/members/99999999999/role", data={"member-99999999999-role": "scorer"}
    )
    assert response.status_code == 404


def test_the_owner_sees_a_role_form_per_member(person: Callable[[str], Person]) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.SCORER)
    page = text(ann.client.get(f"/clubs/{club_id}"))
    assert f'<label for="member-{ann.id}-role">ann (you)</label>' in page
    assert f'<label for="member-{bob.id}-role">bob</label>' in page
    assert re.search(r'<option selected value="scorer">Scorer</option>', page)
    assert f'href="/clubs/{club_id}/invite"' in page
    bobs_view = text(bob.client.get(f"/clubs/{club_id}"))
    assert f'href="/clubs/{club_id}/invite"' not in bobs_view
    assert '<span class="member-name">ann</span>' in bobs_view


# Who may see and do what


URLS = [
    ("get", "/clubs/{club}"),
    ("post", "/clubs/{club}/players"),
    ("get", "/clubs/{club}/invite"),
    ("post", "/clubs/{club}/invite"),
    ("post", "/clubs/{club}/members/{member}/role"),
]
WRITES = URLS[1:]

# What each role gets from each URL: 2xx/3xx means allowed.
ALLOWED = {
    Role.VIEWER: {"/clubs/{club}"},
    Role.SCORER: {"/clubs/{club}", "/clubs/{club}/players"},
    Role.OWNER: {path for _, path in URLS},
}


def _call(
    client: FlaskClient, method: str, path: str, club_id: int, member: Person
) -> TestResponse:
    url = path.format(club=club_id, member=member.id)
    data = {"name": "Zoe", f"member-{member.id}-role": "viewer"}
    return client.get(url) if method == "get" else client.post(url, data=data)


@pytest.mark.parametrize(("method", "path"), URLS, ids=[p for _, p in URLS])
def test_anonymous_people_are_sent_to_log_in(
    person: Callable[[str], Person], app: Flask, method: str, path: str
) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id)
    response = _call(app.test_client(), method, path, club_id, bob)
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert location.path == "/login"
    assert parse_qs(location.query)["next"] == [path.format(club=club_id, member=bob.id)]


@pytest.mark.parametrize(("method", "path"), URLS, ids=[p for _, p in URLS])
def test_strangers_find_no_club(person: Callable[[str], Person], method: str, path: str) -> None:
    ann, bob, eve = person("ann"), person("bob"), person("eve")
    club_id = start_club(ann)
    join(bob, ann, club_id)
    for club in (club_id, 999, 99999999999):
        response = _call(eve.client, method, path, club, bob)
        assert response.status_code == 404
        page = text(response)
        assert "There is no such club, or you are not one of its members." in page
        assert "Friday table" not in page


@pytest.mark.parametrize("role", [Role.VIEWER, Role.SCORER, Role.OWNER])
@pytest.mark.parametrize(("method", "path"), URLS, ids=[p for _, p in URLS])
def test_members_may_do_what_their_role_allows(
    person: Callable[[str], Person], app: Flask, role: Role, method: str, path: str
) -> None:
    ann, bob, cat = person("ann"), person("bob"), person("cat")
    club_id = start_club(ann)
    join(bob, ann, club_id, role)
    join(cat, ann, club_id)
    response = _call(bob.client, method, path, club_id, cat)
    if path in ALLOWED[role]:
        assert response.status_code in (200, 302), text(response)
    else:
        assert response.status_code == 403
        assert f"This needs the {'owner' if 'players' not in path else 'scorer'} role" in text(
            response
        )
        assert role_of(app, club_id, cat) is Role.VIEWER
        with app.app_context():
            assert db.session.query(Player).count() == 0


@pytest.mark.stateless
def test_the_clubs_list_needs_a_login(client: FlaskClient) -> None:
    for response in (client.get("/clubs"), client.post("/clubs", data={"name": "X"})):
        assert response.status_code == 302
        assert urlsplit(response.headers["Location"]).path == "/login"


def test_an_unknown_invitation_is_not_found(client: FlaskClient) -> None:
    response = client.get("/join/not-a-code")
    assert response.status_code == 404
    assert "This invitation link is not valid" in text(response)


def test_a_nul_character_in_a_form_is_a_400_and_nothing_is_saved(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann = person("ann")
    response = ann.client.post("/clubs", data={"name": "Friday\x00club"})
    assert response.status_code == 400
    assert "NUL character" in text(response)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Club)) == 0


# Two owners demoting each other at once (issue 11 item 13)


def _owners(app: Flask, club_id: int) -> int:
    with app.app_context():
        return len(
            db.session.scalars(
                db.select(Membership).filter_by(club_id=club_id, role=Role.OWNER)
            ).all()
        )


def test_two_owners_demoting_each_other_at_once_leave_one_owner(
    person: Callable[[str], Person], app: Flask
) -> None:
    """One owner's demotion of the other is under way (its transaction holds the club, as the
    service's lock does, and has counted two owners); the other owner demotes the first
    meanwhile. Counted under the lock, the second demotion waits, then sees one owner left
    and is refused; counted before (the bug), both went through and nobody owned the club."""
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.OWNER)
    outcome: list[object] = []

    def demote_ann() -> None:  # bob's request
        with app.app_context():
            club = db.session.get(Club, club_id)
            assert club is not None
            try:
                clubs.set_role(club, ann.id, Role.VIEWER)
                outcome.append("demoted")
            except Invalid as error:
                outcome.append(error.message)
            finally:
                db.session.remove()

    with app.app_context():
        # ann's request, by hand: hold the club, count, demote bob, and commit only after
        # bob's request has had every chance to run.
        with Session(db.engine) as first:
            if db.engine.dialect.name == "sqlite":
                first.execute(sa.update(Club).where(Club.id == club_id).values(name=Club.name))
            else:
                first.execute(sa.select(Club.id).where(Club.id == club_id).with_for_update())
            counted = first.scalar(
                sa.select(sa.func.count()).where(
                    Membership.club_id == club_id, Membership.role == Role.OWNER
                )
            )
            assert counted == 2
            bob_membership = first.scalar(
                sa.select(Membership).filter_by(club_id=club_id, user_id=bob.id)
            )
            assert bob_membership is not None
            bob_membership.role = Role.VIEWER
            first.flush()
            worker = threading.Thread(target=demote_ann)
            worker.start()
            worker.join(timeout=1.0)
            first.commit()
        worker.join(timeout=30)
        db.engine.dispose()
    assert not worker.is_alive()
    assert outcome == ["A club needs an owner: make someone else owner first."]
    assert _owners(app, club_id) == 1
    assert role_of(app, club_id, ann) is Role.OWNER


def test_two_owners_removing_each_other_at_once_leave_the_second_a_clear_404(
    person: Callable[[str], Person], app: Flask
) -> None:
    """bob's removal of ann holds the club; ann's removal of bob, sent meanwhile, passed its
    owner check before the lock and waits. Once bob's commits, ann is no member: her request
    is refused as from a stranger (404), not answered with the club page for nobody (a 500
    on `role_badge(None)`, issue 18), and bob stays the owner."""
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.OWNER)
    answers: list[TestResponse] = []

    def remove_bob() -> None:  # ann's request
        answers.append(ann.client.post(f"/clubs/{club_id}/members/{bob.id}/remove"))

    with app.app_context():
        with Session(db.engine) as first:  # bob's request, by hand
            if db.engine.dialect.name == "sqlite":
                first.execute(sa.update(Club).where(Club.id == club_id).values(name=Club.name))
            else:
                first.execute(sa.select(Club.id).where(Club.id == club_id).with_for_update())
            first.execute(
                sa.delete(Membership).where(
                    Membership.club_id == club_id, Membership.user_id == ann.id
                )
            )
            worker = threading.Thread(target=remove_bob)
            worker.start()
            worker.join(timeout=1.0)
            first.commit()
        worker.join(timeout=30)
        db.engine.dispose()
    assert not worker.is_alive()
    assert [answer.status_code for answer in answers] == [404]
    assert "not one of its members" in text(answers[0])
    assert role_of(app, club_id, bob) is Role.OWNER
    assert role_of(app, club_id, ann) is None


# Removing a member, leaving a club (issue 11 item 14)


def test_the_owner_removes_a_member_after_confirming(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.SCORER)
    club_page = text(ann.client.get(f"/clubs/{club_id}"))
    assert f'href="/clubs/{club_id}/members/{bob.id}/remove"' in club_page
    assert f'href="/clubs/{club_id}/members/{ann.id}/remove"' not in club_page  # not oneself

    confirm = ann.client.get(f"/clubs/{club_id}/members/{bob.id}/remove")
    assert confirm.status_code == 200
    assert "Remove bob from Friday table?" in text(confirm)
    assert role_of(app, club_id, bob) is Role.SCORER  # asking changes nothing

    done = ann.client.post(f"/clubs/{club_id}/members/{bob.id}/remove")
    assert done.status_code == 302
    assert done.headers["Location"] == f"/clubs/{club_id}#members"
    assert role_of(app, club_id, bob) is None
    assert bob.client.get(f"/clubs/{club_id}").status_code == 404
    assert "bob no longer has access" in text(ann.client.get(f"/clubs/{club_id}"))


def test_only_an_owner_removes_and_only_members(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann, bob, cy = person("ann"), person("bob"), person("cy")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.SCORER)
    assert bob.client.post(f"/clubs/{club_id}/members/{ann.id}/remove").status_code == 403
    assert cy.client.post(f"/clubs/{club_id}/members/{bob.id}/remove").status_code == 404
    assert ann.client.post(f"/clubs/{club_id}/members/{cy.id}/remove").status_code == 404
    assert ann.client.get(f"/clubs/{club_id}/members/99999999999/remove").status_code == 404
    assert role_of(app, club_id, ann) is Role.OWNER
    assert role_of(app, club_id, bob) is Role.SCORER


def test_the_last_owner_cannot_be_removed_but_one_of_two_can(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.OWNER)
    assert ann.client.post(f"/clubs/{club_id}/members/{bob.id}/remove").status_code == 302
    assert role_of(app, club_id, bob) is None
    # ann is now the only owner; removing herself by URL is refused with the reason.
    confirm = text(ann.client.get(f"/clubs/{club_id}/members/{ann.id}/remove"))
    assert "ann is the club's only owner, and a club needs one" in confirm
    assert 'id="remove-member"' not in confirm
    refused = ann.client.post(f"/clubs/{club_id}/members/{ann.id}/remove")
    assert refused.status_code == 400
    assert "ann is the club's only owner, and a club needs one" in text(refused)
    assert role_of(app, club_id, ann) is Role.OWNER


def test_a_member_leaves_after_confirming(person: Callable[[str], Person], app: Flask) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id)
    assert f'href="/clubs/{club_id}/leave"' in text(bob.client.get(f"/clubs/{club_id}"))
    confirm = bob.client.get(f"/clubs/{club_id}/leave")
    assert confirm.status_code == 200 and "Leave Friday table?" in text(confirm)
    assert role_of(app, club_id, bob) is Role.VIEWER
    done = bob.client.post(f"/clubs/{club_id}/leave")
    assert done.status_code == 302 and done.headers["Location"] == "/clubs"
    assert role_of(app, club_id, bob) is None
    assert "You left Friday table." in text(bob.client.get("/clubs"))
    assert bob.client.post(f"/clubs/{club_id}/leave").status_code == 404


def test_the_last_owner_cannot_leave(person: Callable[[str], Person], app: Flask) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.SCORER)
    message = "You are the club's only owner, and a club needs one"
    confirm = text(ann.client.get(f"/clubs/{club_id}/leave"))
    assert message in confirm and 'id="leave-club"' not in confirm
    refused = ann.client.post(f"/clubs/{club_id}/leave")
    assert refused.status_code == 400 and message in text(refused)
    assert role_of(app, club_id, ann) is Role.OWNER
    # With a second owner she may go.
    set_role(ann, club_id, bob, Role.OWNER)
    assert ann.client.post(f"/clubs/{club_id}/leave").status_code == 302
    assert role_of(app, club_id, ann) is None and _owners(app, club_id) == 1


def test_a_removed_members_hands_keep_their_name(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.SCORER)
    with app.app_context():
        club = db.session.get(Club, club_id)
        assert club is not None
        ids = [clubs.add_player(club, n).id for n in ("P1", "P2", "P3", "P4")]
        creator = db.session.get(User, ann.id)
        match = matches.create_match(
            club,
            creator,
            "pagat",
            "4p",
            [TeamSpec("A", (ids[0], ids[1])), TeamSpec("B", (ids[2], ids[3]))],
            target=600,
        )
        scorer = db.session.get(User, bob.id)
        matches.record_hand(
            match,
            scorer,
            typed(
                match, {"kozi": "H", "teams": [{"name": "A", **WINNERS}, {"name": "B", **LOSERS}]}
            ),
        )
        match_id = match.id
    assert ann.client.post(f"/clubs/{club_id}/members/{bob.id}/remove").status_code == 302
    history = text(ann.client.get(f"/matches/{match_id}/hands/1/history"))
    assert "by bob" in history
    assert ann.client.get(f"/matches/{match_id}").status_code == 200


def test_one_of_two_owners_removing_herself_has_left(
    person: Callable[[str], Person], app: Flask
) -> None:
    ann, bob = person("ann"), person("bob")
    club_id = start_club(ann)
    join(bob, ann, club_id, Role.OWNER)
    done = ann.client.post(f"/clubs/{club_id}/members/{ann.id}/remove")
    assert done.status_code == 302 and done.headers["Location"] == "/clubs"
    assert role_of(app, club_id, ann) is None and role_of(app, club_id, bob) is Role.OWNER
    assert ann.client.get(f"/clubs/{club_id}").status_code == 404
