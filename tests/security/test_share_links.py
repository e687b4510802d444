"""Share links: a link opens its own match (or its club's big screen) and nothing else; a
withdrawn, expired, unknown or misplaced link is a 404 at once; only its digest is stored;
a signed-in holder asks to join and the owner lets them in with one tap."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask import Flask
from security_world import World, client_as, csrf_token, snapshot

from scorekeeper.extensions import db
from scorekeeper.models import Membership, Role, ShareLink, as_utc
from scorekeeper.play import sharing


def watch_urls(match: int, share: str) -> list[str]:
    base = f"/watch/{match}/{share}"
    return [base, f"{base}/live.json", f"{base}/live.html", f"{base}/rules"]


def test_a_link_opens_its_own_match_only(app: Flask, world: World) -> None:
    anyone = app.test_client()
    for url in watch_urls(world.match, world.share):
        assert anyone.get(url).status_code == 200, url
    # Another match's id with a valid link (the stranger's match, or one that does not exist).
    for match in (world.other_match, world.match + 1000, 10**20):
        for url in watch_urls(match, world.share):
            assert anyone.get(url).status_code == 404, url
    # A match's link opens no big screen, and a big-screen link opens no match.
    assert anyone.get(f"/clubs/{world.club}/live/{world.share}").status_code == 404
    assert anyone.get(f"/watch/{world.match}/{world.club_share}").status_code == 404
    assert anyone.get(f"/clubs/{world.other_club}/live/{world.club_share}").status_code == 404
    assert anyone.get(f"/clubs/{world.club}/live/{world.club_share}").status_code == 200
    for bad in ("x", "A" * 30, world.share[:-1] + ("A" if world.share[-1] != "A" else "B")):
        assert anyone.get(f"/watch/{world.match}/{bad}").status_code == 404


def test_the_shared_page_shows_nothing_else_of_the_club(app: Flask, world: World) -> None:
    page = app.test_client().get(f"/watch/{world.match}/{world.share}")
    text = page.get_data(as_text=True)
    assert "Home club" not in text  # not even the club's name
    links = re.findall(r'href="([^"]+)"', text)
    inside = [u for u in links if u.startswith(("/clubs", "/players", "/matches", "/seasons"))]
    assert inside == []
    assert "/history" not in text and "/edit" not in text
    assert page.headers["Cache-Control"] == "no-store"
    assert f"/watch/{world.match}/{world.share}/rules" in links


def test_withdrawing_ends_access_at_once(app: Flask, world: World) -> None:
    anyone = app.test_client()
    scorer = client_as(app, world, "scorer")
    answer = scorer.post(
        f"/matches/{world.match}/share/{world.share_id}/revoke",
        headers={"X-CSRFToken": csrf_token(scorer)},
    )
    assert answer.status_code == 302
    for url in watch_urls(world.match, world.share):
        assert anyone.get(url).status_code == 404, url
    owner = client_as(app, world, "owner")
    owner.post(
        f"/clubs/{world.club}/share/{world.club_share_id}/revoke",
        headers={"X-CSRFToken": csrf_token(owner)},
    )
    assert anyone.get(f"/clubs/{world.club}/live/{world.club_share}").status_code == 404
    assert anyone.get(f"/clubs/{world.club}/live/{world.club_share}/live.json").status_code == 404


def test_an_expired_link_is_gone(app: Flask, world: World) -> None:
    with app.app_context():
        link = db.session.get(ShareLink, world.share_id)
        assert link is not None
        link.expires_at = datetime.now(UTC) + timedelta(seconds=30)
        db.session.commit()
    for url in watch_urls(world.match, world.share):
        assert app.test_client().get(url).status_code == 200, url
    with app.app_context():
        link = db.session.get(ShareLink, world.share_id)
        assert link is not None
        link.expires_at = datetime.now(UTC) - timedelta(seconds=1)
        db.session.commit()
    for url in watch_urls(world.match, world.share):
        assert app.test_client().get(url).status_code == 404, url


def test_only_the_digest_is_stored_and_the_qr_is_drawn_once(app: Flask, world: World) -> None:
    scorer = client_as(app, world, "scorer")
    made = scorer.post(
        f"/matches/{world.match}/share",
        data={"until": "today", "offset": "-120"},
        headers={"X-CSRFToken": csrf_token(scorer)},
    )
    assert made.status_code == 201 and made.headers["Cache-Control"] == "no-store"
    page = made.get_data(as_text=True)
    found = re.search(rf"http://localhost/watch/{world.match}/([A-Za-z0-9_-]+)", page)
    assert found, "the new link is on the page"
    assert '<svg role="img"' in page and 'class="qr-code"' in page and "style=" not in page
    token = found.group(1)
    assert app.test_client().get(f"/watch/{world.match}/{token}").status_code == 200
    rows = str(snapshot(app))
    assert token not in rows and world.share not in rows
    # Shown again, the page lists the link but can no longer show its secret.
    again = scorer.get(f"/matches/{world.match}/share").get_data(as_text=True)
    assert token not in again and "qr-code" not in again
    with app.app_context():
        newest = db.session.scalars(sa.select(ShareLink).order_by(ShareLink.id.desc())).first()
        assert newest is not None and newest.expires_at is not None
        ends = as_utc(newest.expires_at)  # SQLite hands back naive UTC times
        now = datetime.now(UTC)
        assert now < ends <= now + timedelta(days=1)
        assert ends.minute == 0 and ends.hour == 22  # the phone's midnight at UTC+2


@pytest.mark.parametrize(
    ("now", "offset", "midnight"),
    [
        (datetime(2026, 5, 1, 20, 0, tzinfo=UTC), 0, datetime(2026, 5, 2, 0, 0, tzinfo=UTC)),
        # Athens in summer (UTC+3, offset −180): 23:30 local is 20:30 UTC; midnight is 21:00.
        (datetime(2026, 5, 1, 20, 30, tzinfo=UTC), -180, datetime(2026, 5, 1, 21, 0, tzinfo=UTC)),
        # New York (UTC−4, offset 240): 22:00 UTC is 18:00 local; midnight is 04:00 UTC.
        (datetime(2026, 5, 1, 22, 0, tzinfo=UTC), 240, datetime(2026, 5, 2, 4, 0, tzinfo=UTC)),
    ],
)
def test_a_link_for_today_ends_at_the_phones_midnight(
    now: datetime, offset: int, midnight: datetime
) -> None:
    assert sharing.end_of_day(offset, now) == midnight


def test_a_holder_asks_to_join_and_the_owner_lets_them_in(app: Flask, world: World) -> None:
    stranger = client_as(app, world, "stranger")
    page = stranger.get(f"/watch/{world.match}/{world.share}").get_data(as_text=True)
    assert "Ask to join the club" in page
    stranger.post(
        f"/watch/{world.match}/{world.share}/join",
        headers={"X-CSRFToken": csrf_token(stranger)},
    )
    owner = client_as(app, world, "owner")
    club_page = owner.get(f"/clubs/{world.club}").get_data(as_text=True)
    assert f"Let {world.usernames['stranger']} in" in club_page
    with app.app_context():
        asked = [r.id for r in sharing.join_requests(db.session.get(sharing.Club, world.club))]
        db.session.remove()
    assert len(asked) == 2  # the world's own request, and the stranger's
    answer = owner.post(
        f"/clubs/{world.club}/requests/{asked[-1]}",
        data={"answer": "accept"},
        headers={"X-CSRFToken": csrf_token(owner)},
    )
    assert answer.status_code == 302
    with app.app_context():
        role = db.session.scalar(
            sa.select(Membership.role).where(
                Membership.club_id == world.club, Membership.user_id == world.users["stranger"]
            )
        )
    assert role is Role.VIEWER
    assert stranger.get(f"/matches/{world.match}").status_code == 200


def test_the_polls_revision_is_the_matchs(app: Flask, world: World) -> None:
    """The shared poll reads link and revision in one query; it must agree with the page's."""
    from scorekeeper.play import live

    with app.app_context():
        assert sharing.link_revision(world.match, world.share) == live.match_revision(world.match)
        for match, token in ((world.other_match, world.share), (world.match, world.club_share)):
            with pytest.raises(sharing.NotFound):
                sharing.link_revision(match, token)
        db.session.remove()


def test_a_held_etag_opens_nothing_a_dead_link_would_not(app: Flask, world: World) -> None:
    """The shared poll's 304 is answered before Flask (web.poll_shortcut): it must refuse
    exactly what the view refuses, and send the headers the view's answers carry."""
    anyone = app.test_client()
    url = f"/watch/{world.match}/{world.share}/live.json"
    first = anyone.get(url)
    etag = first.headers["ETag"]
    held = {"If-None-Match": etag}
    unchanged = anyone.get(url, headers=held)
    assert unchanged.status_code == 304 and unchanged.headers["ETag"] == etag
    for name in ("Cache-Control", "Vary", "Content-Security-Policy", "X-Frame-Options"):
        assert unchanged.headers[name] == first.headers[name], name
    assert "Set-Cookie" not in unchanged.headers
    for match in (world.other_match, world.match + 1000, 10**20):
        assert (
            anyone.get(f"/watch/{match}/{world.share}/live.json", headers=held).status_code == 404
        )
    assert (
        anyone.get(f"/watch/{world.match}/{world.club_share}/live.json", headers=held).status_code
        == 404
    )

    with app.app_context():
        link = db.session.get(ShareLink, world.share_id)
        assert link is not None
        link.expires_at = datetime.now(UTC) - timedelta(seconds=1)
        db.session.commit()
    assert anyone.get(url, headers=held).status_code == 404
    with app.app_context():
        link = db.session.get(ShareLink, world.share_id)
        assert link is not None
        link.expires_at = None
        db.session.commit()
    assert anyone.get(url, headers=held).status_code == 304

    scorer = client_as(app, world, "scorer")
    scorer.post(
        f"/matches/{world.match}/share/{world.share_id}/revoke",
        headers={"X-CSRFToken": csrf_token(scorer)},
    )
    assert anyone.get(url, headers=held).status_code == 404


def test_an_unchanged_shared_poll_never_reaches_flask(
    app: Flask, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    anyone = app.test_client()
    url = f"/watch/{world.match}/{world.share}/live.json"
    etag = anyone.get(url).headers["ETag"]

    def no_flask(*args: object, **kwargs: object) -> object:
        raise AssertionError("an unchanged shared poll is answered before Flask runs")

    monkeypatch.setattr(app, "full_dispatch_request", no_flask)
    assert anyone.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert (
        anyone.get(url, headers={"If-None-Match": 'W/"' + etag.strip('"') + '"'}).status_code == 304
    )
