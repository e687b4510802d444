"""A tournament table's scorer links (issue 20), on both databases: a link writes its own
match and no other, dies at once when its round closes or the director withdraws it (pages,
the hands POST, the live preview and the poll alike), the side that did not enter the last
hand countersigns (or the director does, on the API), and a confirmed table takes no more
changes through its links. Also the table cards and the big screen."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import form_fields
from support.tournament_setup import setup_of, singles
from support.world import signed_in
from werkzeug.datastructures import MultiDict

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.demo import PAGAT_HANDS
from scorekeeper.extensions import db
from scorekeeper.models import (
    Hand,
    Match,
    ScreenDrawing,
    Tournament,
    TournamentPenalty,
    TournamentRound,
    TournamentTable,
    User,
    as_utc,
)
from scorekeeper.play import sharing
from scorekeeper.tournaments import directing, live_pages, table_links
from scorekeeper.tournaments import service as tournaments

PASSWORD = "correct horse"


@dataclass(frozen=True)
class Night:
    tournament: int
    owner: int
    viewer: int
    #: table number → its match id, NS player id, EW player id, and each side's link
    tables: dict[int, dict[str, Any]]


def lay_night(app: Flask) -> Night:
    """Four singles, round robin, two deals a round, 30 minutes: round 1 started."""
    with app.app_context():
        owner = accounts.create_user("olga", PASSWORD)
        viewer = accounts.create_user("vic", PASSWORD)
        club = clubs.create_club(owner, "Kafeneio")
        clubs.join_by_invite(viewer, club.invite_code)
        players = [clubs.add_player(club, name).id for name in ("Ann", "Bob", "Cy", "Di")]
        setup = setup_of(singles(players), deals_per_round=2, round_minutes=30)
        made = tournaments.create_tournament(club, owner, setup)
        started = tournaments.start_round(made, owner)
        tables = {}
        for table in started.tables:
            links = table_links.working_links(table)
            assert table.match is not None
            seats = {s.team_id: s.player_id for s in table.match.seats}
            teams = [t.id for t in table.match.teams]
            tables[table.number] = {
                "match": table.match_id,
                "members": [[seats[teams[0]]], [seats[teams[1]]]],
                "ns": table_links.token_of(links["ns"]),
                "ew": table_links.token_of(links["ew"]),
            }
        return Night(made.id, owner.id, viewer.id, tables)


@pytest.fixture
def night(app: Flask) -> Night:
    return lay_night(app)


def hand_fields(night: Night, table: int, choice: int) -> MultiDict[str, str]:
    kozi, first, second = PAGAT_HANDS[choice]
    sides = [{**side, "hands": side["hands"][:1]} for side in (first, second)]
    entry = {"kozi": kozi, "teams": sides}
    return MultiDict([*form_fields(entry, night.tables[table]["members"]), ("save", "1")])


def save_hand(
    client: FlaskClient, token: str, fields: MultiDict[str, str], json: bool = True
) -> Any:
    headers = {"Accept": "application/json"} if json else {}
    return client.post(f"/tables/{token}/hands/new", data=fields, headers=headers)


def hands_of(app: Flask, match_id: int) -> int:
    with app.app_context():
        return db.session.query(Hand).filter_by(match_id=match_id, deleted=False).count()


def table_row(app: Flask, night: Night, number: int) -> dict[str, Any]:
    with app.app_context():
        row = db.session.query(TournamentTable).filter_by(number=number).one()
        return {
            "confirmed": row.confirmed,
            "by": row.confirmed_by,
            "last": row.last_side,
        }


def test_a_link_opens_its_table_and_writes_its_own_match(
    app: Flask, client: FlaskClient, night: Night
) -> None:
    one, two = night.tables[1], night.tables[2]
    page = client.get(f"/tables/{one['ns']}")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Table 1" in text and "Round 1" in text
    assert page.headers["Cache-Control"] == "no-store"
    assert "/clubs/" not in text, "a table link names no club page"
    assert 'data-round-clock data-ends-at="' in text
    form = client.get(f"/tables/{one['ns']}/hands/new")
    assert form.status_code == 200
    assert f"/tables/{one['ns']}/hands/preview" in form.get_data(as_text=True)

    saved = save_hand(client, one["ns"], hand_fields(night, 1, 0))
    assert saved.status_code == 201, saved.get_data(as_text=True)
    assert saved.get_json()["scoreboard"] == f"/tables/{one['ns']}"
    assert hands_of(app, one["match"]) == 1
    assert hands_of(app, two["match"]) == 0
    assert table_row(app, night, 1)["last"] == "ns"
    # Table 1's link cannot reach table 2's match: no route of it takes a match's id, and
    # even table 2's players' cards sent through it land in table 1's match (players who are
    # not at the table are no fields of its form).
    save_hand(client, one["ns"], hand_fields(night, 2, 1))
    assert hands_of(app, two["match"]) == 0
    # The match's own pages still want a member.
    assert client.get(f"/matches/{two['match']}/hands/new").status_code == 302


def test_a_dead_link_is_404_everywhere(app: Flask, client: FlaskClient, night: Night) -> None:
    token = night.tables[1]["ew"]
    fields = hand_fields(night, 1, 0)
    assert client.get(f"/tables/{token}").status_code == 200
    owner = signed_in(app.test_client(), night.owner)
    withdrawn = owner.post(f"/tournaments/{night.tournament}/rounds/1/tables/1/links/ew/withdraw")
    assert withdrawn.status_code == 302
    for path in ("", "/hands/new", "/live.json"):
        assert client.get(f"/tables/{token}{path}").status_code == 404, path
    refused = save_hand(client, token, fields)
    assert refused.status_code == 404
    assert "withdrew it" in refused.get_json()["errors"][0]
    assert client.post(f"/tables/{token}/hands/preview", data=fields).status_code == 404
    assert client.post(f"/tables/{token}/confirm").status_code == 404
    assert hands_of(app, night.tables[1]["match"]) == 0
    # The side's new link works, and the other side's never stopped.
    card = owner.get(f"/tournaments/{night.tournament}/rounds/1/tables/1/card")
    assert card.status_code == 200
    fresh = re.findall(r"/tables/([A-Za-z0-9_-]{32})", card.get_data(as_text=True))
    assert token not in fresh and night.tables[1]["ns"] in fresh
    assert all(client.get(f"/tables/{t}").status_code == 200 for t in fresh)


def test_closing_the_round_ends_its_links(app: Flask, client: FlaskClient, night: Night) -> None:
    for number, table in night.tables.items():
        for choice in range(2):
            saved = save_hand(client, table["ns"], hand_fields(night, number, choice))
            assert saved.status_code == 201, saved.get_data(as_text=True)
    with app.app_context():
        found = tournaments.tournament_for(
            db.session.get(accounts.User, night.owner), night.tournament
        )
        tournaments.close_round(found, 1)
    token = night.tables[1]["ew"]
    assert client.get(f"/tables/{token}").status_code == 404
    assert client.post(f"/tables/{token}/confirm").status_code == 404
    answer = client.post(
        f"/tables/{token}/hands/1/edit",
        data=hand_fields(night, 1, 1),
        headers={"Accept": "application/json"},
    )
    assert answer.status_code == 404 and answer.get_json()["saved"] is False


def test_the_other_side_confirms_with_one_tap(
    app: Flask, client: FlaskClient, night: Night
) -> None:
    table = night.tables[1]
    save_hand(client, table["ns"], hand_fields(night, 1, 0))
    early = client.post(f"/tables/{table['ew']}/confirm")
    assert early.status_code == 409, "not before the deals are in"
    save_hand(client, table["ns"], hand_fields(night, 1, 1))
    assert hands_of(app, table["match"]) == 2
    ns_page = client.get(f"/tables/{table['ns']}").get_data(as_text=True)
    assert "Confirm the result" not in ns_page
    assert "East–West confirms the result on their phone" in ns_page
    assert client.post(f"/tables/{table['ns']}/confirm").status_code == 403
    assert table_row(app, night, 1)["confirmed"] is False
    ew_page = client.get(f"/tables/{table['ew']}").get_data(as_text=True)
    assert "Confirm the result" in ew_page
    confirmed = client.post(f"/tables/{table['ew']}/confirm")
    assert confirmed.status_code == 302
    assert table_row(app, night, 1) == {"confirmed": True, "by": "ew", "last": "ns"}
    # Confirmed: the links change nothing any more.
    for token in (table["ns"], table["ew"]):
        assert client.get(f"/tables/{token}/hands/1/edit").status_code == 409
        answer = client.post(
            f"/tables/{token}/hands/1/edit",
            data=hand_fields(night, 1, 1),
            headers={"Accept": "application/json"},
        )
        assert answer.status_code == 409
        assert "confirmed" in answer.get_json()["errors"][0]
    assert "Result confirmed by East–West" in client.get(f"/tables/{table['ns']}").get_data(
        as_text=True
    )


def test_the_director_confirms_through_the_api(
    app: Flask, client: FlaskClient, night: Night
) -> None:
    table = night.tables[2]
    path = f"/api/v1/tournaments/{night.tournament}/rounds/1/tables/2/confirm"
    with app.app_context():
        owner_token = accounts.create_token(db.session.get(accounts.User, night.owner), "t")
        viewer_token = accounts.create_token(db.session.get(accounts.User, night.viewer), "t")
    bearer = {"Authorization": f"Bearer {owner_token}"}
    assert client.post(path, headers=bearer).status_code == 409  # no deal in yet
    for choice in range(2):
        save_hand(client, table["ew"], hand_fields(night, 2, choice))
    viewer = client.post(path, headers={"Authorization": f"Bearer {viewer_token}"})
    assert viewer.status_code == 403
    answer = client.post(path, headers=bearer)
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.get_json()["status"] == "confirmed"
    assert answer.get_json()["confirmed_by"] == "director"
    assert client.post(f"{path[:-9]}9/confirm", headers=bearer).status_code == 404
    refused = save_hand(client, table["ns"], hand_fields(night, 2, 0))
    assert refused.status_code == 409
    listed = client.get(f"/api/v1/tournaments/{night.tournament}", headers=bearer).get_json()[
        "rounds_drawn"
    ][0]["tables"]
    assert [t["status"] for t in listed] == ["waiting", "confirmed"]


def test_cards_and_big_screen(app: Flask, client: FlaskClient, night: Night) -> None:
    owner = signed_in(app.test_client(), night.owner)
    viewer = signed_in(app.test_client(), night.viewer)
    cards = owner.get(f"/tournaments/{night.tournament}/rounds/1/cards")
    assert cards.status_code == 200
    text = cards.get_data(as_text=True)
    assert text.count('class="qr-code"') == 4
    for table in night.tables.values():
        assert f"/tables/{table['ns']}" in text and f"/tables/{table['ew']}" in text
    assert viewer.get(f"/tournaments/{night.tournament}/rounds/1/cards").status_code == 403
    assert client.get(f"/tournaments/{night.tournament}/rounds/1/cards").status_code == 302
    assert owner.get(f"/tournaments/{night.tournament}/rounds/1/tables/3/card").status_code == 404
    screen = viewer.get(f"/tournaments/{night.tournament}/live")
    assert screen.status_code == 200
    shown = screen.get_data(as_text=True)
    assert "Round 1 of 3" in shown and "Waiting for the first hand" in shown
    assert 'class="site-header"' not in shown
    poll = viewer.get(f"/tournaments/{night.tournament}/live.json")
    etag = poll.headers["ETag"]
    assert (
        viewer.get(
            f"/tournaments/{night.tournament}/live.json", headers={"If-None-Match": etag}
        ).status_code
        == 304
    )
    save_hand(client, night.tables[1]["ns"], hand_fields(night, 1, 0))
    changed = viewer.get(
        f"/tournaments/{night.tournament}/live.json", headers={"If-None-Match": etag}
    )
    assert changed.status_code == 200
    assert "1 of 2 deals" in viewer.get(f"/tournaments/{night.tournament}/live").get_data(
        as_text=True
    )


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry for each time the big screen's changing part is drawn (live_pages.screen)."""
    made: list[int] = []
    real = live_pages.screen

    def counted(*args: Any, **kwargs: Any) -> dict[str, Any]:
        made.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(live_pages, "screen", counted)
    return made


def test_the_big_screen_is_drawn_once_a_revision_with_each_answers_time(
    app: Flask,
    client: FlaskClient,
    night: Night,
    monkeypatch: pytest.MonkeyPatch,
    drawn: list[int],
) -> None:
    """A hundred televisions ask the page again after each hand: its changing part is drawn
    once a revision (and language), each answer putting in its own time for the clock."""
    viewer = signed_in(app.test_client(), night.viewer)
    path = f"/tournaments/{night.tournament}/live"
    with app.app_context():
        started = as_utc(db.session.query(TournamentRound).one().started_at)

    def clock_at(minutes: float) -> tuple[str, int]:
        monkeypatch.setattr(table_links, "utcnow", lambda: started + timedelta(minutes=minutes))
        page = viewer.get(path).get_data(as_text=True)
        left = re.search(r"data-round-clock-time>([^<]+)<", page)
        now = re.search(r'data-server-now="(\d+)"', page)
        assert left is not None and now is not None, page
        return left.group(1), int(now.group(1))

    assert clock_at(1) == ("29:00", int((started + timedelta(minutes=1)).timestamp() * 1000))
    assert clock_at(12.5) == ("17:30", int((started + timedelta(minutes=12.5)).timestamp() * 1000))
    assert len(drawn) == 1
    save_hand(client, night.tables[1]["ns"], hand_fields(night, 1, 0))
    assert "1 of 2 deals" in viewer.get(path).get_data(as_text=True)
    assert len(drawn) == 2
    greek = viewer.get(path, headers={"Accept-Language": "el"}).get_data(as_text=True)
    assert "1 of 2 deals" not in greek and "Round 1 of 3" not in greek
    assert len(drawn) == 3
    assert "1 of 2 deals" in viewer.get(path).get_data(as_text=True)
    assert len(drawn) == 3
    # The room's television, through the club's big-screen link, signed in as nobody: the
    # same drawing, and its poll a 304 until the next change.
    with app.app_context():
        made = db.session.get(Tournament, night.tournament)
        assert made is not None
        secret = sharing.create_link(made.club, None, db.session.get(User, night.owner))
        db.session.remove()
    television = app.test_client()
    shown = television.get(f"{path}/{secret}").get_data(as_text=True)
    assert "1 of 2 deals" in shown and 'class="site-header"' not in shown
    assert len(drawn) == 3
    poll = television.get(f"{path}/{secret}/live.json")
    etag = {"If-None-Match": poll.headers["ETag"]}
    assert television.get(f"{path}/{secret}/live.json", headers=etag).status_code == 304
    save_hand(client, night.tables[1]["ns"], hand_fields(night, 1, 1))
    assert television.get(f"{path}/{secret}/live.json", headers=etag).status_code == 200
    assert "Finished, to confirm" in television.get(f"{path}/{secret}").get_data(as_text=True)
    assert len(drawn) == 4


def test_another_worker_reads_the_big_screen_the_first_one_drew(
    app: Flask,
    client: FlaskClient,
    night: Night,
    monkeypatch: pytest.MonkeyPatch,
    drawn: list[int],
) -> None:
    """The first worker asked draws a revision of the big screen and keeps it in the database
    (play.drawings): a television on another worker is answered from it, with that answer's
    own clock, and only the current revision's drawings stay."""
    viewer = signed_in(app.test_client(), night.viewer)
    path = f"/tournaments/{night.tournament}/live"

    def kept() -> set[str]:
        with app.app_context():
            rows = db.session.scalars(
                sa.select(ScreenDrawing.revision).where(
                    ScreenDrawing.tournament_id == night.tournament
                )
            )
            return set(rows)

    with app.app_context():
        started = as_utc(db.session.query(TournamentRound).one().started_at)
    monkeypatch.setattr(table_links, "utcnow", lambda: started + timedelta(minutes=1))
    live_pages._drawn.clear()  # a fresh worker: nothing drawn in its memory
    first = viewer.get(path).get_data(as_text=True)
    assert "data-round-clock-time>29:00<" in first
    assert len(drawn) == 1 and len(kept()) == 1
    live_pages._drawn.clear()  # another worker: only what the database keeps
    monkeypatch.setattr(table_links, "utcnow", lambda: started + timedelta(minutes=12.5))
    again = viewer.get(path).get_data(as_text=True)
    assert len(drawn) == 1, "drawn again instead of read"
    assert "data-round-clock-time>17:30<" in again
    marks = live_pages._clock_marks(app.secret_key or "")
    assert not any(mark in again for mark in marks), "a clock mark was left in the page"
    save_hand(client, night.tables[1]["ns"], hand_fields(night, 1, 0))
    live_pages._drawn.clear()
    assert "1 of 2 deals" in viewer.get(path).get_data(as_text=True)
    assert len(drawn) == 2
    (now,) = kept()
    live_pages._drawn.clear()
    assert "1 of 2 deals" in viewer.get(path).get_data(as_text=True)
    assert len(drawn) == 2 and kept() == {now}


def test_each_table_gets_a_link_for_each_side(app: Flask, night: Night) -> None:
    with app.app_context():
        rounds = db.session.query(TournamentRound).all()
        assert len(rounds) == 1
        for table in rounds[0].tables:
            assert sorted(link.side for link in table.links) == ["ew", "ns"]
            # Only the digest is stored, never the secret.
            for link in table.links:
                assert table_links.token_of(link) not in (link.digest, link.salt)


def test_the_clock_runs_out_and_nobody_is_stopped(
    app: Flask, client: FlaskClient, night: Night
) -> None:
    """Past the round's time the clock shows how far over it is; hands still go in."""
    with app.app_context():
        played = db.session.query(TournamentRound).one()
        played.started_at = played.started_at - timedelta(minutes=95)
        db.session.commit()
    token = night.tables[1]["ns"]
    page = client.get(f"/tables/{token}").get_data(as_text=True)
    shown = re.search(r"data-round-clock-time>([^<]+)<", page)
    assert shown is not None and shown.group(1).startswith("−65:"), shown
    ends = int(re.search(r'data-ends-at="(\d+)"', page).group(1))  # type: ignore[union-attr]
    now = int(re.search(r'data-server-now="(\d+)"', page).group(1))  # type: ignore[union-attr]
    assert 65 * 60_000 <= now - ends < 66 * 60_000
    saved = save_hand(client, token, hand_fields(night, 1, 0))
    assert saved.status_code == 201


def test_the_live_revision_moves_with_every_change_the_pages_show(
    app: Flask, client: FlaskClient, night: Night
) -> None:
    """table_links.revision is one row of aggregates: each change a live page shows moves
    it (a change of a table's row alone too, as a Core UPDATE makes it), and it stays put
    while nothing changes."""
    seen: list[str] = []

    def moved() -> None:
        with app.app_context():
            now = table_links.revision(night.tournament)
            assert now == table_links.revision(night.tournament)
            db.session.remove()
        assert now not in seen, f"change {len(seen)} left the revision where it was"
        seen.append(now)

    def table_of(number: int) -> TournamentTable:
        return db.session.scalars(
            sa.select(TournamentTable)
            .join(TournamentRound)
            .where(TournamentRound.tournament_id == night.tournament)
            .where(TournamentTable.number == number)
        ).one()

    moved()
    assert save_hand(client, night.tables[1]["ns"], hand_fields(night, 1, 0)).status_code == 201
    moved()  # a hand
    with app.app_context():
        table_links.wrote(table_of(1).id, "ew")
    moved()  # who wrote last, alone
    with app.app_context():
        table_links.withdraw_link(table_of(2), "ns")
    moved()  # a link withdrawn (and its side's new one)
    with app.app_context():
        db.session.execute(
            sa.update(TournamentTable)
            .where(TournamentTable.id == table_of(1).id)
            .values(corrected_at=sa.func.current_timestamp())
        )
        db.session.commit()
    moved()  # a table's row changed by a Core UPDATE (as a correction undoes a confirmation)
    with app.app_context():
        match = db.session.get(Match, night.tables[1]["match"])
        assert match is not None
        matches.delete_hand(match, 1, None, 1)
    moved()  # a hand deleted (as a correction, its table's row is not otherwise changed)
    with app.app_context():
        found = db.session.get(Tournament, night.tournament)
        assert found is not None
        directing.add_penalty(found, found.entries[0].id, 1, 0, 2, "Slow play")
    moved()  # a penalty
    with app.app_context():
        db.session.execute(sa.update(TournamentPenalty).values(vp=3))
        db.session.commit()
    moved()  # a penalty changed in place, as many as before
