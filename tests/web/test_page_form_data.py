"""What a page form reads from a request that is not a plain form post (web/page_form.py):
a JSON body (Flask-WTF reads one as the form) and files. Each was a 500 that
tests/web/test_fuzz_web.py found; each is now read as text, or refused with a sentence."""

from __future__ import annotations

import html
from io import BytesIO

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.world import new_club, signed_in

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, Club, User


@pytest.fixture
def eleni(app: Flask, owner: User) -> FlaskClient:
    return signed_in(app.test_client(), owner.id)


def _page(response: object) -> str:
    return html.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def _club_names() -> list[str]:
    return list(db.session.scalars(sa.select(Club.name).order_by(Club.id)))


def test_json_numbers_and_lists_are_read_as_text(eleni: FlaskClient, owner: User) -> None:
    """{"name": 7} failed on len(7) in the Length check; {"minimum": 7} on 7.strip()."""
    assert eleni.post("/clubs", json={"name": 7}).status_code == 302
    assert eleni.post("/clubs", json={"name": ["Kafeneio", "ignored"]}).status_code == 302
    assert _club_names() == ["7", "Kafeneio"]
    assert eleni.post("/account/tokens", json={"label": 12.5}).status_code == 201
    assert db.session.scalars(sa.select(ApiToken.label)).one() == "12.5"
    club, _players = new_club(owner)
    response = eleni.post(f"/clubs/{club.id}/leaderboard/minimum", json={"minimum": 7})
    assert response.status_code == 302
    db.session.refresh(club)
    assert club.min_matches_ranked == 7


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b'["name", "Kafeneio"]', "A form sent as JSON must be one JSON object of its fields."),
        (b'{"name": {"x": 1}}', "The field \u201cname\u201d must be text or a list of text."),
        (b'{"name": [["Kafeneio"]]}', "The field \u201cname\u201d must be text or a list"),
        (b'{"name": "\\ud800"}', "may not hold the NUL character or an unpaired surrogate"),
        (b'{"\\udfff": {"x": 1}}', "may not hold the NUL character or an unpaired surrogate"),
        (b'{"name": "a\\u0000b"}', "may not hold the NUL character"),
        (b"[" * 100_000, "A form sent as JSON must be one JSON object of its fields."),
    ],
    ids=["list", "object", "nested-list", "surrogate", "surrogate-name", "nul", "deep"],
)
def test_json_a_form_cannot_read_is_a_400_saying_why(
    eleni: FlaskClient, body: bytes, words: str
) -> None:
    response = eleni.post("/clubs", data=body, content_type="application/json")
    assert response.status_code == 400
    assert words in _page(response)
    assert _club_names() == []


def test_a_file_sent_as_a_text_field_is_not_read(eleni: FlaskClient) -> None:
    """A file under "name" reached the name's Length check (len() of a file: a 500)."""
    response = eleni.post("/clubs", data={"name": (BytesIO(b"Kafeneio"), "name.txt")})
    assert response.status_code == 400
    assert "Give the club a name." in _page(response)
    assert _club_names() == []


def test_a_json_login_still_works(app: Flask, owner: User) -> None:
    """Scripts may log in with a JSON body, as before (test_login_limits counts them)."""
    # Wrong first: the owner fixture's app context would keep the login in flask.g.
    client = app.test_client()
    wrong = client.post("/login", json={"username": "eleni", "password": 1})
    assert wrong.status_code == 400
    assert "do not match an account" in _page(wrong)
    response = client.post("/login", json={"username": "eleni", "password": "password1"})
    assert response.status_code == 302
