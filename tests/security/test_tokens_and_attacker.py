"""API tokens are stored hashed, listed and revoked by their owner alone; and the attacker's
test: a logged-in person who is not a member tries to read, change and delete another club's
match by its id, through the pages and the API, with valid CSRF tokens and with their own
bearer token. Every attempt is refused as if the match did not exist, and nothing changes."""

from __future__ import annotations

import hashlib
import re

import pytest
from flask import Flask
from security_world import World, client_as, csrf_token, snapshot

# --- API tokens --------------------------------------------------------------------------------


def test_only_a_digest_of_a_token_is_stored(app: Flask, world: World) -> None:
    stored = repr(snapshot(app))
    assert world.token not in stored and world.stranger_token not in stored
    assert hashlib.sha256(world.token.encode()).hexdigest() in stored


def test_the_owner_lists_tokens_without_seeing_them_again(app: Flask, world: World) -> None:
    page = client_as(app, world, "owner").get("/account/tokens").get_data(as_text=True)
    assert "laptop" in page and "active" in page
    assert world.token not in page
    assert "xena&#39;s" not in page, "another person's tokens are not listed"


def test_a_revoked_token_gets_401(app: Flask, world: World) -> None:
    bearer = {"Authorization": f"Bearer {world.token}"}
    script = app.test_client()
    assert script.get("/api/v1/clubs", headers=bearer).status_code == 200
    owner = client_as(app, world, "owner")
    revoked = owner.post(
        f"/account/tokens/{world.token_id}/revoke", headers={"X-CSRFToken": csrf_token(owner)}
    )
    assert revoked.status_code == 302
    response = script.get("/api/v1/clubs", headers=bearer)
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"] == 'Bearer realm="scorekeeper"'
    page = owner.get("/account/tokens").get_data(as_text=True)
    assert "revoked" in page


@pytest.mark.parametrize("role", ["stranger", "viewer", "scorer"])
def test_nobody_else_can_revoke_your_token(app: Flask, world: World, role: str) -> None:
    other = client_as(app, world, role)
    before = snapshot(app)
    response = other.post(
        f"/account/tokens/{world.token_id}/revoke", headers={"X-CSRFToken": csrf_token(other)}
    )
    assert response.status_code == 404
    assert "No such token." in response.get_data(as_text=True)
    assert snapshot(app) == before
    bearer = {"Authorization": f"Bearer {world.token}"}
    assert app.test_client().get("/api/v1/clubs", headers=bearer).status_code == 200


# --- the attacker -----------------------------------------------------------------------------


def page_attempts(world: World) -> list[tuple[str, str, dict[str, object]]]:
    m, p = world.match, world.players
    hand = {"kozi": "H", "s0-meld": "5S-JS", "s0-out": "on", "save": "1"}
    return [
        ("GET", f"/matches/{m}", {}),
        ("GET", f"/matches/{m}/rules", {}),
        ("GET", f"/matches/{m}/hands/1/history", {}),
        ("GET", f"/matches/{m}/hands/new", {}),
        ("GET", f"/matches/{m}/hands/1/edit", {}),
        ("GET", f"/matches/{m}/hands/1/delete", {}),
        ("POST", f"/matches/{m}/hands/new", hand),
        ("POST", f"/matches/{m}/hands/1/edit", hand | {"version": str(world.hand_version)}),
        ("POST", f"/matches/{m}/hands/1/delete", {"version": str(world.hand_version)}),
        ("POST", f"/matches/{m}/hands/2/delete", {"version": "1"}),
        ("GET", f"/matches/{m}/delete", {}),
        ("POST", f"/matches/{m}/delete", {}),
        ("GET", f"/clubs/{world.club}", {}),
        ("GET", f"/clubs/{world.club}/matches/new", {}),
        ("POST", f"/clubs/{world.club}/players", {"name": "Mallory"}),
        ("POST", f"/clubs/{world.club}/members/{world.users['stranger']}/role", {}),
        ("GET", f"/api/v1/matches/{m}", {}),
        ("GET", f"/api/v1/matches/{m}/hands/1", {}),
        ("GET", f"/api/v1/clubs/{world.club}/players/{p['Ann']}", {}),
    ]


API_WRITES = [
    ("POST", "/api/v1/matches/{m}/hands", {}),
    ("PUT", "/api/v1/matches/{m}/hands/1", {"If-Match": '"2"'}),
    ("DELETE", "/api/v1/matches/{m}/hands/1", {"If-Match": '"2"'}),
    ("DELETE", "/api/v1/matches/{m}/hands/2", {"If-Match": '"1"'}),
    ("DELETE", "/api/v1/matches/{m}", {}),
]


def test_a_stranger_cannot_touch_another_clubs_match(app: Flask, world: World) -> None:
    stranger = client_as(app, world, "stranger")
    token = csrf_token(stranger)
    before = snapshot(app)
    for method, path, data in page_attempts(world):
        sent = {"data": data} if method == "POST" else {}
        response = stranger.open(path, method=method, headers={"X-CSRFToken": token}, **sent)
        assert response.status_code == 404, (method, path, response.status_code)
    body = {
        "kozi": "H",
        "accepted_reason": "mine now",
        "teams": [
            {"name": "A", "melds": ["5S-JS"], "hands": ["", ""], "went_out": True},
            {"name": "B", "melds": [], "hands": ["AS", "4H"]},
        ],
    }
    script = app.test_client()
    bearer = {"Authorization": f"Bearer {world.stranger_token}"}
    for method, path, headers in API_WRITES:
        url = path.format(m=world.match)
        for client, sent in ((stranger, {"X-CSRFToken": token}), (script, bearer)):
            json_body = body if method != "DELETE" else None
            response = client.open(url, method=method, headers=sent | headers, json=json_body)
            assert response.status_code == 404, (method, url, response.get_data(as_text=True))
            assert response.json == {
                "error": f"There is no match {world.match}, or you are not a member of its club."
            }
    assert snapshot(app) == before, "the attacker changed stored data"


def test_another_clubs_match_looks_like_no_match_at_all(app: Flask, world: World) -> None:
    """The answer for a match of another club is word for word the answer for an id that
    names nothing, so ids tell a stranger nothing."""
    stranger = client_as(app, world, "stranger")
    for path in (
        "/matches/{}",
        "/matches/{}/rules",
        "/matches/{}/hands/1/history",
        "/matches/{}/hands/1/edit",
        "/api/v1/matches/{}",
    ):
        theirs = stranger.get(path.format(world.match))
        nothing = stranger.get(path.format(999_999))
        assert theirs.status_code == nothing.status_code == 404
        # The answers differ only where they repeat the id asked for.
        assert same_but_id(theirs.get_data(as_text=True), world.match) == same_but_id(
            nothing.get_data(as_text=True), 999_999
        )


def same_but_id(text: str, match_id: int) -> str:
    # A CSRF token carries the second it was made: two answers a second apart differ there.
    text = re.sub(r'(name="csrf_token"[^>]*value=")[^"]*', r"\1TOKEN", text)
    for form in ("matches/{}", "match {}"):
        text = text.replace(form.format(match_id), form.format("N"))
    return text


def test_the_meld_checker_does_not_reveal_another_clubs_house_rules(
    app: Flask, world: World
) -> None:
    stranger = client_as(app, world, "stranger")
    plain = _tokenless(stranger.get("/referee/meld?match=999999").get_data(as_text=True))
    theirs = _tokenless(stranger.get(f"/referee/meld?match={world.match}").get_data(as_text=True))
    assert theirs.replace(f"match={world.match}", "match=N") == plain.replace(
        "match=999999", "match=N"
    )
    owner = client_as(app, world, "owner")
    assert owner.get(f"/referee/meld?match={world.match}").get_data(as_text=True) != theirs


def _tokenless(page: str) -> str:
    """A page without its CSRF tokens, which carry the second they were made in: two pages
    asked across a second's turn differ there and nowhere else."""
    return re.sub(r'(name="csrf_token" value=")[^"]*"', r'\1"', page)


# --- bearer tokens open the API only, and never stand in for CSRF (issue 11) ----------------


def test_a_bearer_token_opens_no_page(app: Flask, world: World) -> None:
    """A leaked token could open /account/tokens and mint another, outliving its revocation."""
    script = app.test_client()
    bearer = {"Authorization": f"Bearer {world.token}"}
    before = snapshot(app)
    for path in ("/account/tokens", f"/clubs/{world.club}", f"/matches/{world.match}"):
        response = script.get(path, headers=bearer)
        assert response.status_code == 302, path
        assert "/login" in response.headers["Location"]
    minted = script.post("/account/tokens", data={"label": "mine now"}, headers=bearer)
    assert minted.status_code in (302, 400), minted.status_code
    assert "sk_" not in minted.get_data(as_text=True)
    assert snapshot(app) == before
    assert script.get("/api/v1/clubs", headers=bearer).status_code == 200


def test_a_cookie_with_someone_elses_token_still_needs_csrf(app: Flask, world: World) -> None:
    """The session's user wins over the token, so the token must not waive the CSRF check:
    a cross-site page could otherwise ride the cookie with any token it holds."""
    scorer = client_as(app, world, "scorer")
    bearer = {"Authorization": f"Bearer {world.stranger_token}"}
    before = snapshot(app)
    response = scorer.post(
        f"/api/v1/clubs/{world.club}/players", json={"name": "Mallory"}, headers=bearer
    )
    assert response.status_code == 400, response.get_data(as_text=True)
    assert "X-CSRFToken" in response.json["error"]
    assert snapshot(app) == before
    # With its CSRF token the same write is the scorer's own.
    sent = bearer | {"X-CSRFToken": csrf_token(scorer)}
    response = scorer.post(
        f"/api/v1/clubs/{world.club}/players", json={"name": "Zoe"}, headers=sent
    )
    assert response.status_code == 201
