"""The live poll: a scoreboard's small JSON view answers 304 while nothing changed (without
replaying the match), and a new ETag after every save, correction and deletion; the club's
big screen the same over its running matches."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import REFERENCE_HAND, typed
from support.world import new_club, pagat_match, signed_in

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.models import Club, Match, User
from scorekeeper.play import live


@pytest.fixture
def table(app: Flask, owner: User, client: FlaskClient) -> tuple[Club, Match, FlaskClient]:
    club, ids = new_club(owner)
    match = pagat_match(club, owner, [ids[n] for n in ("Ann", "Bob", "Cy", "Di")])
    return club, match, signed_in(client, owner.id)


def poll(client: FlaskClient, url: str, etag: str | None = None) -> tuple[int, str, object]:
    headers = {"If-None-Match": etag} if etag else {}
    response = client.get(url, headers=headers)
    return response.status_code, response.headers.get("ETag", ""), response.get_json(silent=True)


def test_the_poll_follows_every_save_correction_and_deletion(
    table: tuple[Club, Match, FlaskClient], owner: User
) -> None:
    _club, match, client = table
    url = f"/matches/{match.id}/live.json"
    status, etag, body = poll(client, url)
    assert status == 200 and etag
    assert body == {**body, "id": match.id, "hands_played": 0, "last_hand": None}  # type: ignore[dict-item]
    assert poll(client, url, etag)[:2] == (304, etag)
    # A weakened tag (a compressing proxy) is the same revision.
    assert poll(client, url, "W/" + etag)[0] == 304

    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    status, saved, body = poll(client, url, etag)
    assert status == 200 and saved != etag
    assert body["last_hand"] == 1  # type: ignore[index]
    assert [t["total"] for t in body["teams"]] == ["665", "−95"]  # type: ignore[index]
    assert poll(client, url, saved)[0] == 304

    matches.edit_hand(match, 1, owner, typed(match, {**REFERENCE_HAND, "kozi": "S"}), 1, None)
    status, corrected, _ = poll(client, url, saved)
    assert status == 200 and corrected not in (etag, saved)

    matches.delete_hand(match, 1, owner, 2)
    status, deleted, body = poll(client, url, corrected)
    assert status == 200 and deleted not in (etag, saved, corrected)
    assert body["hands_played"] == 0  # type: ignore[index]


def test_a_304_reads_no_hand_and_replays_nothing(
    table: tuple[Club, Match, FlaskClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    _club, match, client = table
    url = f"/matches/{match.id}/live.json"
    etag = poll(client, url)[1]

    def no_replay(*args: object) -> object:
        raise AssertionError("a 304 must not work out the match's state")

    monkeypatch.setattr(live, "live_match", no_replay)
    assert poll(client, url, etag)[0] == 304


def test_the_scoreboard_carries_its_poll_and_revision(
    table: tuple[Club, Match, FlaskClient],
) -> None:
    _club, match, client = table
    page = client.get(f"/matches/{match.id}").get_data(as_text=True)
    assert f'data-live-poll="/matches/{match.id}/live.json"' in page
    assert f'data-live-etag="&#34;{live.match_revision(match.id)}&#34;"' in page or (
        f'data-live-etag="&quot;{live.match_revision(match.id)}&quot;"' in page
    )
    assert re.search(r'src="/static/js/live\.[0-9a-f]{12}\.js"', page)  # content-hashed
    assert 'data-live-region="hands"' in page


def test_strangers_learn_nothing(app: Flask, table: tuple[Club, Match, FlaskClient]) -> None:
    club, match, _client = table
    stranger = accounts.create_user("xena", "password1")
    other = signed_in(app.test_client(), stranger.id)
    assert other.get(f"/matches/{match.id}/live.json").status_code == 404
    assert other.get(f"/matches/{match.id + 1000}/live.json").status_code == 404
    assert other.get(f"/clubs/{club.id}/live").status_code == 404
    assert other.get(f"/clubs/{club.id}/live.json").status_code == 404


def test_the_big_screen_follows_its_running_matches(
    table: tuple[Club, Match, FlaskClient], owner: User
) -> None:
    club, match, client = table
    page = client.get(f"/clubs/{club.id}/live")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f'data-live-poll="/clubs/{club.id}/live.json"' in text
    assert f'id="live-match-{match.id}"' in text
    url = f"/clubs/{club.id}/live.json"
    status, etag, body = poll(client, url)
    assert status == 200 and [m["id"] for m in body["matches"]] == [match.id]  # type: ignore[index]
    assert poll(client, url, etag)[0] == 304
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    status, after, body = poll(client, url, etag)
    assert status == 200 and after != etag
    assert body["matches"][0]["last_hand"] == 1  # type: ignore[index]
    assert "665" in client.get(f"/clubs/{club.id}/live").get_data(as_text=True)


def test_the_changed_parts_are_drawn_once_per_revision(
    app: Flask, table: tuple[Club, Match, FlaskClient], owner: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    from scorekeeper.play import live_pages

    _club, match, client = table
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    drawn = []
    real_board = live_pages.board
    monkeypatch.setattr(live_pages, "board", lambda m: drawn.append(m.id) or real_board(m))
    live_pages._drawings.clear()
    url = f"/matches/{match.id}/live.html"
    first = client.get(url)
    assert first.status_code == 200
    text = first.get_data(as_text=True)
    assert 'data-live-region="hands"' in text and 'id="hand-1"' in text and "/edit" in text
    assert f"&#34;{live.match_revision(match.id)}&#34;" in text or (
        f"&quot;{live.match_revision(match.id)}&quot;" in text
    )
    assert client.get(url).get_data(as_text=True) == text
    assert drawn == [match.id], "the second asker got the kept drawing"
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    assert 'id="hand-2"' in client.get(url).get_data(as_text=True)
    assert drawn == [match.id, match.id]


def test_the_members_poll_reads_the_same_revision(
    app: Flask, table: tuple[Club, Match, FlaskClient], owner: User
) -> None:
    _club, match, _client = table
    assert live.member_revision(match.id, owner.id) == live.match_revision(match.id)
    matches.record_hand(match, owner, typed(match, REFERENCE_HAND))
    assert live.member_revision(match.id, owner.id) == live.match_revision(match.id)
    stranger = accounts.create_user("xena", "password1")
    assert live.member_revision(match.id, stranger.id) is None
