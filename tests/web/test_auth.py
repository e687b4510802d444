"""Registering, logging in and out, the `next` redirect, and API tokens."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.extensions import db
from scorekeeper.models import ApiToken, User
from scorekeeper.web.security import safe_next

PASSWORD = "correct horse"


def text(response: TestResponse) -> str:
    """The page as a person reads it: entities such as &#39; decoded."""
    return html.unescape(response.get_data(as_text=True))


def found(pattern: str, page: str) -> str:
    match = re.search(pattern, page)
    assert match, f"{pattern} is on the page"
    return match.group(1)


def register(
    client: FlaskClient, username: str = "ann", password: str = PASSWORD, **extra: str
) -> TestResponse:
    data = {"username": username, "password": password, "repeat": password, **extra}
    return client.post("/register", data=data)


def login(
    client: FlaskClient, username: str = "ann", password: str = PASSWORD, query: str = ""
) -> TestResponse:
    return client.post(f"/login{query}", data={"username": username, "password": password})


def logged_in_as(client: FlaskClient) -> str | None:
    """The username shown in the header, or None when the header offers to log in."""
    page = text(client.get("/clubs", follow_redirects=True))
    found = re.search(r'class="nav-user"[^>]*>([^<]+)<', page)
    return found.group(1) if found else None


# Registering


@pytest.mark.stateless
def test_register_page_has_labelled_fields(client: FlaskClient) -> None:
    response = client.get("/register")
    assert response.status_code == 200
    page = text(response)
    for field_id, label in [
        ("username", "Username"),
        ("password", "Password"),
        ("repeat", "Repeat the password"),
    ]:
        assert f'<label for="{field_id}">{label}</label>' in page
    assert 'autocomplete="new-password"' in page
    assert 'autocapitalize="none"' in page


def test_register_logs_in_and_goes_to_my_clubs(client: FlaskClient, app: Flask) -> None:
    response = register(client)
    assert response.status_code == 302
    assert response.headers["Location"] == "/clubs"
    assert logged_in_as(client) == "ann"
    with app.app_context():
        user = db.session.query(User).filter_by(username="ann").one()
        assert PASSWORD not in user.password_hash, "only a hash is stored"
        assert user.password_hash.startswith(("scrypt:", "pbkdf2:"))


@pytest.mark.parametrize(
    ("username", "password", "repeat", "message"),
    [
        ("", PASSWORD, PASSWORD, "Choose a username."),
        ("   ", PASSWORD, PASSWORD, "Choose a username."),
        ("a" * 81, PASSWORD, PASSWORD, "A username has at most 80 characters."),
        ("ann", "", "", "Choose a password."),
        ("ann", "short", "short", "A password needs 8 to 200 characters."),
        ("ann", "x" * 201, "x" * 201, "A password needs 8 to 200 characters."),
        ("ann", PASSWORD, "", "Type the password a second time."),
        ("ann", PASSWORD, PASSWORD + "!", "The two passwords differ; type the same one twice."),
    ],
    ids=[
        "no-username",
        "blank-username",
        "long-username",
        "no-password",
        "short-password",
        "long-password",
        "no-repeat",
        "repeat-differs",
    ],
)
@pytest.mark.stateless
def test_register_refuses_bad_input_with_a_message(
    client: FlaskClient, username: str, password: str, repeat: str, message: str
) -> None:
    response = client.post(
        "/register", data={"username": username, "password": password, "repeat": repeat}
    )
    assert response.status_code == 400
    page = text(response)
    assert message in page
    assert 'aria-invalid="true"' in page
    assert logged_in_as(client) is None


def test_register_refuses_a_taken_username_beside_the_field(client: FlaskClient) -> None:
    register(client)
    client.post("/logout")
    response = register(client, username=" ann ")
    assert response.status_code == 400
    page = text(response)
    assert "The username 'ann' is taken; choose another." in page
    assert 'id="username-errors"' in page
    assert 'value="ann"' in page, "what was typed comes back, trimmed"


@pytest.mark.stateless
def test_register_never_echoes_the_password(client: FlaskClient) -> None:
    response = client.post(
        "/register", data={"username": "", "password": "s3cret-pass", "repeat": "s3cret-pass"}
    )
    assert response.status_code == 400
    assert "s3cret-pass" not in text(response)


# Logging in and out


def test_login_and_logout(client: FlaskClient) -> None:
    register(client)
    client.post("/logout")
    assert logged_in_as(client) is None

    response = login(client)
    assert response.status_code == 302
    assert response.headers["Location"] == "/clubs"
    assert logged_in_as(client) == "ann"

    response = client.post("/logout")
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert "You are logged out." in text(client.get("/"))
    assert logged_in_as(client) is None


def test_logout_needs_a_post(client: FlaskClient) -> None:
    register(client)
    assert client.get("/logout").status_code == 405
    assert logged_in_as(client) == "ann"


@pytest.mark.parametrize(
    ("username", "password"),
    [("ann", "wrong password"), ("nobody", PASSWORD), ("ANN", "wrong password")],
    ids=["wrong-password", "unknown-user", "other-case"],
)
def test_login_refuses_wrong_credentials_alike(
    client: FlaskClient, username: str, password: str
) -> None:
    register(client)
    client.post("/logout")
    response = login(client, username, password)
    assert response.status_code == 400
    assert "That username and password do not match an account" in text(response)
    assert logged_in_as(client) is None


@pytest.mark.stateless
def test_login_with_empty_fields_names_both(client: FlaskClient) -> None:
    response = client.post("/login", data={"username": "", "password": ""})
    assert response.status_code == 400
    page = text(response)
    assert "Enter your username." in page
    assert "Enter your password." in page


def test_remember_me_sets_a_lasting_cookie_only_when_asked(client: FlaskClient) -> None:
    register(client)
    client.post("/logout")
    client.post("/login", data={"username": "ann", "password": PASSWORD})
    assert client.get_cookie("remember_token") is None
    client.post("/logout")
    client.post("/login", data={"username": "ann", "password": PASSWORD, "remember": "y"})
    assert client.get_cookie("remember_token") is not None


def test_logged_in_people_skip_the_login_and_register_pages(client: FlaskClient) -> None:
    register(client)
    for path in ("/login", "/register", "/login?next=/account/tokens"):
        response = client.get(path)
        assert response.status_code == 302
    assert client.get("/login?next=/account/tokens").headers["Location"] == "/account/tokens"


def test_a_login_required_page_sends_to_login_and_back(client: FlaskClient) -> None:
    register(client)
    client.post("/logout")
    response = client.get("/account/tokens")
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert location.path == "/login"
    next_url = parse_qs(location.query)["next"][0]
    assert next_url == "/account/tokens"

    page = text(client.get(f"/login?next={next_url}"))
    assert 'action="/login?next=/account/tokens"' in page
    assert 'href="/register?next=/account/tokens"' in page
    response = login(client, query="?next=%2Faccount%2Ftokens")
    assert response.headers["Location"] == "/account/tokens"


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "http:evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "/\t/evil.example",
        "/\n/evil.example",
        "javascript:alert(1)",
        "evil.example",
        " //evil.example",
        "",
    ],
)
def test_next_never_leaves_the_site(client: FlaskClient, target: str) -> None:
    register(client)
    client.post("/logout")
    response = client.post(
        "/login", query_string={"next": target}, data={"username": "ann", "password": PASSWORD}
    )
    assert response.status_code == 302
    assert response.headers["Location"] == "/clubs"


@pytest.mark.parametrize(
    ("target", "expected"),
    [
        ("/clubs/3", "/clubs/3"),
        ("/join/abc-DEF_1?x=1#top", "/join/abc-DEF_1?x=1#top"),
        ("/", "/"),
        (None, None),
        ("//evil.example", None),
        ("///evil.example", None),
        ("/\\/evil.example", None),
        ("https://localhost/clubs", None),
        ("clubs", None),
    ],
)
def test_safe_next(target: str | None, expected: str | None) -> None:
    assert safe_next(target) == expected


def test_register_follows_a_safe_next(client: FlaskClient) -> None:
    response = client.post(
        "/register?next=/account/tokens",
        data={"username": "ann", "password": PASSWORD, "repeat": PASSWORD},
    )
    assert response.headers["Location"] == "/account/tokens"


# With CSRF protection on, as in production


@pytest.fixture
def csrf_client(app: Flask) -> FlaskClient:
    app.config["WTF_CSRF_ENABLED"] = True  # the shared app puts it back after the test
    return app.test_client()


def _token_in(page: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', page
    )
    assert found, "the form carries a CSRF token"
    return found.group(1)


def test_forms_carry_a_csrf_token_and_need_it(csrf_client: FlaskClient) -> None:
    data = {"username": "ann", "password": PASSWORD, "repeat": PASSWORD}
    assert csrf_client.post("/register", data=data).status_code == 400

    token = _token_in(text(csrf_client.get("/register")))
    response = csrf_client.post("/register", data={**data, "csrf_token": token})
    assert response.status_code == 302

    clubs_page = text(csrf_client.get("/clubs"))
    assert csrf_client.post("/logout").status_code == 400, "logging out needs the token too"
    response = csrf_client.post("/logout", data={"csrf_token": _token_in(clubs_page)})
    assert response.status_code == 302
    assert logged_in_as(csrf_client) is None


# API tokens


def test_tokens_are_shown_once_listed_and_revoked(client: FlaskClient, app: Flask) -> None:
    register(client)
    assert "You have no tokens yet." in text(client.get("/account/tokens"))

    response = client.post("/account/tokens", data={"label": "scoring script"})
    assert response.status_code == 201
    assert response.headers["Cache-Control"] == "no-store"
    page = text(response)
    token = found(r'id="new-token"[^>]*>(sk_[^<]+)</textarea>', page)
    assert "it is shown this once only" in page

    page = text(client.get("/account/tokens"))
    assert "scoring script" in page
    assert "active" in page
    assert token not in page, "the token itself is never shown again"

    with app.app_context():
        token_id = db.session.query(ApiToken).one().id
    response = client.post(f"/account/tokens/{token_id}/revoke")
    assert response.status_code == 302
    page = text(client.get("/account/tokens"))
    assert "The token is revoked" in page
    assert "revoked" in page
    assert f"/account/tokens/{token_id}/revoke" not in page, "no revoke button any more"


def test_a_token_logs_a_request_in_until_revoked(client: FlaskClient, app: Flask) -> None:
    register(client)
    page = text(client.post("/account/tokens", data={"label": ""}))
    token = found(r">(sk_[^<]+)</textarea>", page)
    assert "Token without a label" in page

    script = app.test_client()
    bearer = {"Authorization": f"Bearer {token}"}
    assert script.get("/api/v1/clubs", headers=bearer).status_code == 200
    assert script.get("/api/v1/clubs").status_code == 401, "a token opens no session"
    wrong = {"Authorization": "Bearer sk_wrong"}
    assert script.get("/api/v1/clubs", headers=wrong).status_code == 401
    # A token is for the API only: it opens no page (issue 11).
    assert script.get("/clubs", headers=bearer).status_code == 302

    with app.app_context():
        token_id = db.session.query(ApiToken).one().id
    client.post(f"/account/tokens/{token_id}/revoke")
    assert script.get("/api/v1/clubs", headers=bearer).status_code == 401


def test_nobody_revokes_another_persons_token(client: FlaskClient, app: Flask) -> None:
    register(client)
    client.post("/account/tokens", data={"label": "ann's"})
    client.post("/logout")
    register(client, username="bob")
    with app.app_context():
        token_id = db.session.query(ApiToken).one().id
    response = client.post(f"/account/tokens/{token_id}/revoke")
    assert response.status_code == 404, "another person's token is as unknown as none at all"
    assert "No such token." in text(response)
    assert "ann&#39;s" not in response.get_data(as_text=True)
    assert client.post("/account/tokens/99999999999/revoke").status_code == 404
    with app.app_context():
        assert db.session.query(ApiToken).one().revoked_at is None


def test_a_token_label_has_a_limit(client: FlaskClient) -> None:
    register(client)
    response = client.post("/account/tokens", data={"label": "x" * 81})
    assert response.status_code == 400
    assert "A label has at most 80 characters." in text(response)
    assert "sk_" not in text(response)


@pytest.mark.stateless
def test_account_pages_need_a_login(client: FlaskClient) -> None:
    for method, path in [
        ("get", "/account/tokens"),
        ("post", "/account/tokens"),
        ("post", "/account/tokens/1/revoke"),
    ]:
        response = getattr(client, method)(path)
        assert response.status_code == 302
        assert urlsplit(response.headers["Location"]).path == "/login"


# Easy passwords and look-alike usernames (issue 11, item 16)


@pytest.mark.parametrize(
    ("password", "why"),
    [
        ("password", "one of the most common ones"),
        ("Password1!", "one of the most common ones"),
        ("qwertyuiop", "one of the most common ones"),
        ("12345678", "a simple run of characters"),
        ("abcdefgh", "a simple run of characters"),
        ("87654321", "a simple run of characters"),
        ("zzzzzzzz", "a simple run of characters"),
        ("abcabcabc", "a simple run of characters"),
        ("annabelle", "must not contain your username"),
        ("my name is ANN!", "must not contain your username"),
    ],
)
def test_easy_passwords_are_refused_with_the_reason(
    app: Flask, client: FlaskClient, password: str, why: str
) -> None:
    response = register(client, "ann", password)
    assert response.status_code == 400
    assert why in text(response)
    with app.app_context():
        assert db.session.scalar(db.select(User).where(User.username == "ann")) is None


@pytest.mark.stateless
def test_a_password_that_is_the_whole_username_is_refused(client: FlaskClient) -> None:
    response = register(client, "annabelle1", "annabelle1")
    assert response.status_code == 400
    assert "must not contain your username" in text(response)


@pytest.mark.stateless
def test_the_reason_is_said_in_greek(client: FlaskClient) -> None:
    client.set_cookie("lang", "el")
    response = register(client, "ann", "password1")
    assert response.status_code == 400
    assert "Αυτός ο κωδικός είναι από τους πιο συνηθισμένους" in text(response)  # noqa: RUF001 - Greek text


def test_an_uncommon_password_is_accepted(client: FlaskClient) -> None:
    assert register(client, "ann", "tulips in the rain").status_code == 302


@pytest.mark.parametrize(
    "lookalike",
    ["OLGA", " Olga ", "ol\u200bga", "\uff4f\uff4c\uff47\uff41", "olg\u00ad" + "a"],
    ids=["upper-case", "spaces", "zero-width-space", "full-width", "soft-hyphen"],
)
def test_a_username_spelt_another_way_is_taken(
    app: Flask, client: FlaskClient, lookalike: str
) -> None:
    assert register(client, "olga").status_code == 302
    client.post("/logout")
    response = register(client, lookalike, "another fine password")
    assert response.status_code == 400
    assert "is taken" in text(response)
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(User)) == 1


@pytest.mark.parametrize(
    "name",
    ["olg\u0430", "\u043elga", "ol\x07ga", "ann\nbob"],
    ids=["cyrillic-a", "cyrillic-o", "bell", "newline"],
)
def test_mixed_scripts_and_controls_are_refused(app: Flask, client: FlaskClient, name: str) -> None:
    response = register(client, name, "another fine password")
    assert response.status_code == 400
    page = text(response)
    assert "one alphabet only" in page or "control" in page, page
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(User)) == 0


def test_a_greek_username_is_fine(client: FlaskClient) -> None:
    assert register(client, "Ελένη_7", "tulips in the rain").status_code == 302


def test_login_finds_the_account_however_its_name_is_spelt(client: FlaskClient) -> None:
    register(client, "olga")
    client.post("/logout")
    assert login(client, "OLGA").status_code == 302
    assert logged_in_as(client) == "olga"
    client.post("/logout")
    assert login(client, "ol\u200bga").status_code == 302


def test_accounts_made_before_normalizing_keep_working(app: Flask, client: FlaskClient) -> None:
    """Two old accounts that differ only by case each still log in by their own name."""
    from scorekeeper.accounts import service as accounts

    with app.app_context():
        for name in ("Olga", "olga"):
            db.session.add(User(username=name, password_hash=accounts.hash_password(name * 3)))
        db.session.commit()
    for name in ("Olga", "olga"):
        assert login(client, name, name * 3).status_code == 302
        assert logged_in_as(client) == name
        client.post("/logout")


def test_registering_is_limited_per_address(app: Flask) -> None:
    """Ten accounts asked for an hour from one address (made or refused), then 429 with the
    form and the reason; another address registers as usual."""
    for number in range(10):
        client = app.test_client()
        assert register(client, f"user{number}", "tulips in the rain").status_code == 302
    response = register(app.test_client(), "user10", "tulips in the rain")
    assert response.status_code == 429
    assert "Too many accounts were asked for from this address" in text(response)
    assert 'name="password"' in text(response)
    elsewhere = app.test_client().post(
        "/register",
        data={
            "username": "user11",
            "password": "tulips in the rain",
            "repeat": "tulips in the rain",
        },
        environ_base={"REMOTE_ADDR": "198.51.100.7"},
    )
    assert elsewhere.status_code == 302
