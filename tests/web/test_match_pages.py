"""Match pages through the Flask test client, with JavaScript off: every form is posted as the
page draws it (read back with the standard library's HTML parser), as a phone without
scripts would send it."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.hand_entries import typed
from support.world import signed_in
from werkzeug.datastructures import MultiDict

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.extensions import db
from scorekeeper.models import Hand, HandVersion, Match, Role
from scorekeeper.rules.presets import PRESETS
from scorekeeper.rules.variants import option_names

# --- reading a page's form, as a browser without JavaScript would send it ---------------------


class _FormReader(HTMLParser):
    """The successful controls of one <form> (its fields, not its buttons)."""

    def __init__(self, form_id: str | None) -> None:
        super().__init__()
        self.form_id = form_id
        self.inside = False
        self.fields: list[tuple[str, str]] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._textarea: str | None = None
        self._text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.inside = self.form_id is None or a.get("id") == self.form_id
            return
        if not self.inside:
            return
        name = a.get("name")
        if tag == "input" and name:
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.fields.append((name, a.get("value") or "on"))
            elif kind not in ("submit", "button"):
                self.fields.append((name, a.get("value", "")))
        elif tag == "select" and name:
            self._select, self._options = name, []
        elif tag == "option" and self._select is not None:
            self._options.append((a.get("value", ""), "selected" in a))
        elif tag == "textarea" and name:
            self._textarea, self._text = name, ""

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select" and self._select is not None:
            chosen = [v for v, selected in self._options if selected] or [
                v for v, _ in self._options[:1]
            ]
            self.fields.extend((self._select, v) for v in chosen)
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields.append((self._textarea, self._text))
            self._textarea = None


def form_of(html: str, form_id: str | None = None) -> MultiDict[str, str]:
    reader = _FormReader(form_id)
    reader.feed(html)
    return MultiDict(reader.fields)


def with_values(data: MultiDict[str, str], **values: Any) -> MultiDict[str, str]:
    """The form with fields replaced (a list fills a repeated field; False unticks a box)."""
    data = data.copy()
    for key, value in values.items():
        name = key.replace("__", "-")
        data.poplist(name)
        if value is False or value is None:
            continue
        for item in value if isinstance(value, list) else [value]:
            data.add(name, "on" if item is True else str(item))
    return data


# --- people and a club -----------------------------------------------------------------------


@dataclass(frozen=True)
class Table:
    """A club with its owner and five players, by id (tests run outside the app context)."""

    club_id: int
    owner_id: int
    invite_code: str
    players: dict[str, int]


@pytest.fixture
def table(kept_world: Callable[[Callable[[Flask], Table]], Table]) -> Table:
    """The club, built once and kept while the tests only read it (tests/conftest.py)."""
    return kept_world(lay_table)


def lay_table(app: Flask) -> Table:
    with app.app_context():
        owner = accounts.create_user("ann", "password1")
        club = clubs.create_club(owner, "Thursday table")
        players = {n: clubs.add_player(club, n).id for n in ("Ann", "Bob", "Cy", "Di", "Eve")}
        return Table(club.id, owner.id, club.invite_code, players)


def member(app: Flask, table: Table, name: str, role: Role | None) -> int:
    """A new user: a member with `role`, or a stranger to the club (None)."""
    with app.app_context():
        user = accounts.create_user(name, "password1")
        if role is not None:
            club = clubs.join_by_invite(user, table.invite_code)
            if role is not Role.VIEWER:
                clubs.set_role(club, user.id, role)
        return user.id


@pytest.fixture
def owner(client: FlaskClient, table: Table) -> FlaskClient:
    return signed_in(client, table.owner_id)


def pid(table: Table, name: str) -> str:
    return str(table.players[name])


def start_match(
    client: FlaskClient, table: Table, preset: str = "pagat", fmt: str = "4p", **values: Any
) -> int:
    """Start a match through the form: A = Ann & Cy, B = Bob & Di unless told otherwise."""
    page = client.get(f"/clubs/{table.club_id}/matches/new?preset={preset}&format={fmt}")
    seats = {}
    if fmt == "4p":
        seats = {
            "team__0__name": "A",
            "team__0__seat__0": pid(table, "Ann"),
            "team__0__seat__1": pid(table, "Cy"),
            "team__1__name": "B",
            "team__1__seat__0": pid(table, "Bob"),
            "team__1__seat__1": pid(table, "Di"),
        }
    data = with_values(form_of(page.text, "new-match"), **(seats | values))
    response = client.post(f"/clubs/{table.club_id}/matches/new", data=data)
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rsplit("/", 1)[1])


REFERENCE_A = {
    "s0__meld": ["5S-JS", "QD QC QH", "8H 9H 10H JH QH KH JK"],
    "s0__out": True,
    "s0__biribaki": True,
}


def reference_hand(table: Table) -> dict[str, Any]:
    """presets.md's example hand: kózi ♥; A went out with two biribas → 665, B → −95."""
    return REFERENCE_A | {
        "kozi": "H",
        "s1__meld": ["3C 4C 5C", "KS KD JK"],
        f"p{pid(table, 'Bob')}__hand": "AS 9D",
        f"p{pid(table, 'Di')}__hand": "JK 4H",
    }


def post_hand(
    client: FlaskClient, match_id: int, path: str = "hands/new", button: str = "save", **values: Any
) -> Any:
    page = client.get(f"/matches/{match_id}/{path}")
    assert page.status_code == 200, page.text
    data = with_values(form_of(page.text, "hand-form"), **values)
    data[button] = "1"
    return client.post(f"/matches/{match_id}/{path}", data=data)


def hands_of(app: Flask, match_id: int) -> list[Hand]:
    with app.app_context():
        hands = list(db.session.scalars(db.select(Hand).where(Hand.match_id == match_id)))
        db.session.expunge_all()
        return hands


# --- new match ----------------------------------------------------------------------------------


def test_new_match_form_lists_every_house_rule_of_the_preset(
    owner: FlaskClient, table: Table
) -> None:
    page = owner.get(f"/clubs/{table.club_id}/matches/new")
    assert page.status_code == 200
    fields = form_of(page.text, "new-match")
    assert fields["preset"] == "pagat" and fields["format"] == "4p"
    assert fields["target"] == "5000"
    assert "To win, a score above 5000" in page.text
    shown = {chunk.split('"', 1)[0] for chunk in page.text.split('name="opt-')[1:]}
    assert shown == {n for n in option_names() if n != "target"}
    # pagat's two assumptions are marked, and only those
    assumed = re.findall(r'<label for="opt-(\w+)">[^<]*<span class="assumed">', page.text)
    assert set(assumed) == {"going_out_bonus", "penalty_no_biribaki"}
    assert fields["opt-going_out_bonus"] == "100"
    # the club's players fill the seats on a first visit
    assert fields["team-0-seat-0"] == pid(table, "Ann")


def test_change_preset_reloads_the_form_with_that_presets_values(
    owner: FlaskClient, table: Table
) -> None:
    query = (
        f"preset=wikipedia&format=4p&shown_preset=pagat&target=5000&opt-going_out_bonus=150"
        f"&team-0-seat-0={pid(table, 'Eve')}"
    )
    page = owner.get(f"/clubs/{table.club_id}/matches/new?{query}")
    fields = form_of(page.text, "new-match")
    assert fields["shown_preset"] == "wikipedia"
    assert fields["target"] == "3000"  # the new preset's own values, not the old form's
    assert fields["opt-opening_table"] == "W1"
    assert fields["opt-going_out_bonus"] == "100"
    assert fields["team-0-seat-0"] == pid(table, "Eve")  # the seats chosen are kept


def test_start_a_match_with_a_house_rule(app: Flask, owner: FlaskClient, table: Table) -> None:
    match_id = start_match(owner, table, opt__going_out_bonus="150", first_dealer=pid(table, "Bob"))
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None
        assert match.house_rules == {"going_out_bonus": 150}
        assert match.options["going_out_bonus"] == 150
        assert [t.name for t in match.teams] == ["A", "B"]
        # partners sit opposite: Ann, Bob, Cy, Di round the table
        assert [s.player.name for s in match.seats] == ["Ann", "Bob", "Cy", "Di"]
        assert match.seats[match.first_dealer].player.name == "Bob"
    board = owner.get(f"/matches/{match_id}")
    assert f"Match {match_id} started: Bob deals." in board.text
    assert "Bonus for going out: <strong>150</strong>" in board.text


def test_team_names_default_to_the_players_names(owner: FlaskClient, table: Table) -> None:
    match_id = start_match(owner, table, team__0__name="", team__1__name="")
    board = owner.get(f"/matches/{match_id}").text
    assert "Ann &amp; Cy" in board and "Bob &amp; Di" in board


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"team__1__seat__1": ""}, "Choose a player for every seat of team B."),
        ({"team__1__seat__1": "ANN"}, "is seated twice; every player takes one seat."),
        ({"opt__going_out_bonus": "lots"}, "“Bonus for going out” needs a whole number"),
        ({"opt__min_size": "1"}, "Option 'min_size' must be at least 2, not 1"),
        (
            {"target": "0"},
            "The target must be a whole number of points from 1 to 1000000, not “0”.",
        ),
        ({"team__0__name": "Same", "team__1__name": "Same"}, "Two teams have the same name"),
    ],
    ids=["empty-seat", "seated-twice", "not-a-number", "inconsistent-rule", "target", "names"],
)
def test_a_refused_match_is_shown_on_the_form_and_nothing_is_saved(
    app: Flask, owner: FlaskClient, table: Table, values: dict[str, str], message: str
) -> None:
    page = owner.get(f"/clubs/{table.club_id}/matches/new")
    values = {k: pid(table, "Ann") if v == "ANN" else v for k, v in values.items()}
    data = with_values(form_of(page.text, "new-match"), **values)
    response = owner.post(f"/clubs/{table.club_id}/matches/new", data=data)
    assert response.status_code == 400
    assert message in response.text.replace("&#39;", "'")
    assert form_of(response.text, "new-match")["team-0-seat-0"] == pid(table, "Ann")
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count()).select_from(Match)) == 0


def test_a_share_format_with_too_few_players_is_refused(owner: FlaskClient, table: Table) -> None:
    page = owner.get(f"/clubs/{table.club_id}/matches/new?format=solo-vs-rest")
    data = with_values(form_of(page.text, "new-match"), team__0__seat__2="", team__0__seat__3="")
    response = owner.post(f"/clubs/{table.club_id}/matches/new", data=data)
    assert response.status_code == 400
    assert "The solo-vs-rest format is for 3 or 4 players, not 2." in response.text


def test_a_refused_table_shape_is_told_in_greek(owner: FlaskClient, table: Table) -> None:
    """The format's seat count used to reach the Greek form as an English sentence."""
    page = owner.get(f"/clubs/{table.club_id}/matches/new?format=solo-vs-rest")
    data = with_values(form_of(page.text, "new-match"), team__0__seat__2="", team__0__seat__3="")
    response = owner.post(
        f"/clubs/{table.club_id}/matches/new",
        data=data,
        headers={"Accept-Language": "el-GR,el;q=0.9"},
    )
    assert response.status_code == 400
    assert "Η μορφή solo-vs-rest είναι για 3 ή 4 παίκτες, όχι 2." in response.text  # noqa: RUF001


# --- scoreboard --------------------------------------------------------------------------------


def test_scoreboard_shows_totals_opening_needs_and_the_dealer(
    owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, preset="wikipedia", first_dealer=pid(table, "Cy"))
    page = owner.get(f"/matches/{match_id}")
    assert page.status_code == 200
    text = page.text
    assert "to win: <strong>above 3000</strong>" in text
    assert text.count("data-total>0</span>") == 2
    assert text.count("Next opening: <strong>at least 75</strong>") == 2
    assert "Next to deal: <strong>Cy</strong>" in text
    assert "Enter hand 1" in text


def test_hand_entry_without_javascript_saves_the_reference_hand(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    response = post_hand(owner, match_id, **reference_hand(table))
    assert response.status_code == 302
    assert response.headers["Location"] == f"/matches/{match_id}"
    board = owner.get(f"/matches/{match_id}").text
    assert "Hand 1 saved." in board
    assert "data-total>665</span>" in board
    assert "data-total>−95</span>" in board
    assert "Clean biriba 5♠–J♠" in board  # the itemised lines, under the hand
    assert 'Dirty kózi biriba <span class="red">8♥–A♥</span>' in board  # red suits in red
    assert "Next to deal: <strong>Di</strong>" in board  # anticlockwise from Ann
    assert "Enter hand 2" in board
    (hand,) = hands_of(app, match_id)
    assert hand.entry["kozi"] == "H"
    assert hand.entry["teams"][1]["hands"] == ["AS 9D", "JK 4H"]
    assert [t["score"] for t in hand.result["teams"]] == [665, -95]


def test_points_instead_of_cards_and_form_mistakes(owner: FlaskClient, table: Table) -> None:
    match_id = start_match(owner, table)
    both = post_hand(owner, match_id, **reference_hand(table), s1__points="50")
    assert both.status_code == 400
    assert "Give the cards left in the hands of B as cards or as a point total" in both.text
    word = post_hand(owner, match_id, s1__points="fifty")
    assert word.status_code == 400
    assert "must be a whole number from 0 to 200000, not “fifty”" in word.text
    bad_card = post_hand(owner, match_id, s0__meld=["5S 6S ZZ"])
    assert bad_card.status_code == 400
    assert "ZZ" in bad_card.text
    values = reference_hand(table) | {f"p{pid(table, n)}__hand": "" for n in ("Bob", "Di")}
    saved = post_hand(owner, match_id, **values, s1__points="50")
    assert saved.status_code == 302
    assert "data-total>−95</span>" in owner.get(f"/matches/{match_id}").text


def test_preview_shows_the_scores_and_saves_nothing(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    response = post_hand(owner, match_id, button="preview", **reference_hand(table))
    assert response.status_code == 200
    assert "Preview: not saved yet" in response.text
    assert "data-preview-score>665</strong>" in response.text
    assert "data-preview-score>−95</strong>" in response.text
    assert "Legal: run, clean, biriba · 55 points + 200 bonus" in response.text
    assert hands_of(app, match_id) == []
    # the form comes back as it was sent, with the same idempotency key
    fields = form_of(response.text, "hand-form")
    assert fields.getlist("s0-meld")[:3] == REFERENCE_A["s0__meld"]
    assert fields["kozi"] == "H" and fields["s0-out"] == "on"


def test_a_hand_with_an_illegal_meld_is_refused_then_accepted_with_a_reason(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    values = reference_hand(table) | {"s1__meld": ["3C 4C 6C", "KS KD JK"]}
    refused = post_hand(owner, match_id, **values)
    assert refused.status_code == 422
    assert "This hand has problems; fix them, or accept them with a written reason." in (
        refused.text
    )
    assert "The meld 3♣ 4♣ 6♣ of B is not legal." in refused.text
    assert "Accept anyway, because…" in refused.text
    assert hands_of(app, match_id) == []
    data = with_values(
        form_of(refused.text, "hand-form"), accepted_reason="The table agreed: 5♣ was under it."
    )
    data["save"] = "1"
    saved = owner.post(f"/matches/{match_id}/hands/new", data=data)
    assert saved.status_code == 302
    board = owner.get(f"/matches/{match_id}").text
    assert "Because: “The table agreed: 5♣ was under it.”" in board
    assert "The meld 3♣ 4♣ 6♣ of B is not legal." in board
    (hand,) = hands_of(app, match_id)
    assert hand.accepted_reason == "The table agreed: 5♣ was under it."


def test_the_same_form_posted_twice_stores_one_hand(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    page = owner.get(f"/matches/{match_id}/hands/new")
    data = with_values(form_of(page.text, "hand-form"), **reference_hand(table))
    data["save"] = "1"
    first = owner.post(f"/matches/{match_id}/hands/new", data=data)
    again = owner.post(f"/matches/{match_id}/hands/new", data=data)
    assert first.status_code == again.status_code == 302
    assert first.headers["Location"] == again.headers["Location"] == f"/matches/{match_id}"
    assert len(hands_of(app, match_id)) == 1
    assert "data-total>665</span>" in owner.get(f"/matches/{match_id}").text


# --- correcting, deleting, history ------------------------------------------------------------


def test_edit_a_hand_changes_the_totals(app: Flask, owner: FlaskClient, table: Table) -> None:
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))
    page = owner.get(f"/matches/{match_id}/hands/1/edit")
    fields = form_of(page.text, "hand-form")
    assert fields["version"] == "1" and "key" not in fields
    assert fields.getlist("s0-meld")[:3] == REFERENCE_A["s0__meld"]
    assert fields[f"p{pid(table, 'Bob')}-hand"] == "AS 9D"
    # kózi spades: the heart run is no longer kózi, 200 → 100
    response = post_hand(owner, match_id, "hands/1/edit", kozi="S")
    assert response.status_code == 302
    board = owner.get(f"/matches/{match_id}").text
    assert "Hand 1 corrected." in board
    assert "data-total>765</span>" in board  # the spade run is now a clean kózi biriba: +400
    (hand,) = hands_of(app, match_id)
    assert hand.version == 2


def test_a_stale_edit_is_refused_with_409_and_changes_nothing(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))
    stale = form_of(owner.get(f"/matches/{match_id}/hands/1/edit").text, "hand-form")
    assert post_hand(owner, match_id, "hands/1/edit", kozi="S").status_code == 302
    data = with_values(stale, kozi="D")
    data["save"] = "1"
    response = owner.post(f"/matches/{match_id}/hands/1/edit", data=data)
    assert response.status_code == 409
    assert "Hand 1 was changed by someone else since you opened it" in response.text
    assert "Open hand 1 as it is now" in response.text
    (hand,) = hands_of(app, match_id)
    assert hand.version == 2 and hand.entry["kozi"] == "S"


def test_delete_a_hand_after_confirming(app: Flask, owner: FlaskClient, table: Table) -> None:
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))
    confirm = owner.get(f"/matches/{match_id}/hands/1/delete")
    assert confirm.status_code == 200
    assert "Delete hand 1?" in confirm.text
    response = owner.post(
        f"/matches/{match_id}/hands/1/delete", data=form_of(confirm.text, "delete-hand")
    )
    assert response.status_code == 302
    board = owner.get(f"/matches/{match_id}").text
    assert "Hand 1 deleted; its history is kept." in board
    assert board.count("data-total>0</span>") == 2
    assert "Enter hand 2" in board  # numbers never shift
    again = owner.post(
        f"/matches/{match_id}/hands/1/delete", data=form_of(confirm.text, "delete-hand")
    )
    assert again.status_code == 404


def test_history_lists_every_version(owner: FlaskClient, table: Table) -> None:
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))
    post_hand(owner, match_id, "hands/1/edit", kozi="S")
    page = owner.get(f"/matches/{match_id}/hands/1/history")
    assert page.status_code == 200
    text = page.text
    assert text.index("Version 2: edited") < text.index("Version 1: created")
    assert text.count("by ann,") == 2
    assert "5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠" in text  # the entry, in card symbols
    assert 'Bob’s hand: A♠ <span class="red">9♦</span>' in text  # red suits in red
    assert "Clean kózi biriba 5♠–J♠" in text and "Clean biriba 5♠–J♠" in text


# --- who may do what ---------------------------------------------------------------------------


def test_a_viewer_reads_the_scoreboard_but_cannot_enter_edit_or_delete(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    owner = signed_in(app.test_client(), table.owner_id)
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))
    viewer = signed_in(client, member(app, table, "vic", Role.VIEWER))
    board = viewer.get(f"/matches/{match_id}")
    assert board.status_code == 200
    assert "Enter hand" not in board.text and "/hands/1/edit" not in board.text
    for path in ("hands/new", "hands/1/edit", "hands/1/delete"):
        assert viewer.get(f"/matches/{match_id}/{path}").status_code == 403
        assert viewer.post(f"/matches/{match_id}/{path}", data={"save": "1"}).status_code == 403
    assert viewer.get(f"/matches/{match_id}/hands/1/history").status_code == 200
    assert viewer.get(f"/clubs/{table.club_id}/matches/new").status_code == 403
    assert len(hands_of(app, match_id)) == 1


def test_a_stranger_finds_no_match(app: Flask, client: FlaskClient, table: Table) -> None:
    owner = signed_in(app.test_client(), table.owner_id)
    match_id = start_match(owner, table)
    stranger = signed_in(client, member(app, table, "sam", None))
    for path in ("", "/hands/new", "/hands/1/edit", "/hands/1/history"):
        assert stranger.get(f"/matches/{match_id}{path}").status_code == 404
    assert stranger.get("/matches/99999999999").status_code == 404
    assert stranger.get(f"/clubs/{table.club_id}/matches/new").status_code == 404


def test_a_scorer_enters_hands(app: Flask, client: FlaskClient, table: Table) -> None:
    owner = signed_in(app.test_client(), table.owner_id)
    match_id = start_match(owner, table)
    scorer = signed_in(client, member(app, table, "sue", Role.SCORER))
    assert post_hand(scorer, match_id, **reference_hand(table)).status_code == 302


def test_logging_in_comes_first(client: FlaskClient, table: Table) -> None:
    response = client.get("/matches/1")
    assert response.status_code == 302
    assert "/login" in response.headers["Location"]


# --- the end of a match, and the other table formats -----------------------------------------


def test_a_short_match_ends_with_its_winner_on_the_scoreboard(
    owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, target="500")
    post_hand(owner, match_id, **reference_hand(table))
    board = owner.get(f"/matches/{match_id}").text
    assert "A won" in board
    assert "with 665 points, above 500." in board
    assert "Enter hand" not in board
    late = owner.post(
        f"/matches/{match_id}/hands/new",
        data=with_values(MultiDict(), save="1", **reference_hand(table)),
    )
    assert late.status_code == 409
    assert "The match is over: A won." in late.text


def test_leaders_level_past_the_target_play_another_hand(owner: FlaskClient, table: Table) -> None:
    page = owner.get(f"/clubs/{table.club_id}/matches/new?format=2p")
    data = with_values(
        form_of(page.text, "new-match"),
        target="20",
        team__0__seat__0=pid(table, "Ann"),
        team__1__seat__0=pid(table, "Bob"),
    )
    response = owner.post(f"/clubs/{table.club_id}/matches/new", data=data)
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    level = {"kozi": "D", "s0__meld": ["8S 9S 10S"], "s1__meld": ["8S 9S 10S"]}
    post_hand(owner, match_id, **level, s0__biribaki=True, s1__biribaki=True)
    board = owner.get(f"/matches/{match_id}").text
    assert "Tied: another hand" in board
    assert "Ann and Bob are level past the target" in board
    assert "Enter hand 2" in board


def test_share_format_sides_are_chosen_with_each_hand(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    page = owner.get(f"/clubs/{table.club_id}/matches/new?format=3p-partnership")
    fields = form_of(page.text, "new-match")
    assert [fields[f"team-0-seat-{i}"] for i in range(3)] == [
        pid(table, n) for n in ("Ann", "Bob", "Cy")
    ]
    response = owner.post(f"/clubs/{table.club_id}/matches/new", data=fields)
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    board = owner.get(f"/matches/{match_id}").text
    assert board.count("data-total>0</span>") == 3  # one total per player
    entry = owner.get(f"/matches/{match_id}/hands/new").text
    sides = form_of(entry, "hand-form")
    assert [sides[f"p{pid(table, n)}-side"] for n in ("Ann", "Bob", "Cy")] == ["0", "1", "1"]
    # Ann alone melds 8S 9S 10S (30) and takes the biribaki; Bob & Cy meld 3C 4C 5C (15),
    # take nothing (−100) and hold 4H: 15 − 5 − 100 = −90, −45 each.
    response = post_hand(
        owner,
        match_id,
        kozi="D",
        s0__meld=["8S 9S 10S"],
        s0__biribaki=True,
        s1__meld=["3C 4C 5C"],
        **{f"p{pid(table, 'Cy')}__hand": "4H"},
    )
    assert response.status_code == 302, response.text
    board = owner.get(f"/matches/{match_id}").text
    assert "data-total>30</span>" in board
    assert board.count("data-total>−45</span>") == 2
    assert "Bob &amp; Cy" in board


def test_a_share_side_without_players_is_a_form_mistake(owner: FlaskClient, table: Table) -> None:
    page = owner.get(f"/clubs/{table.club_id}/matches/new?format=3p-partnership")
    response = owner.post(
        f"/clubs/{table.club_id}/matches/new", data=form_of(page.text, "new-match")
    )
    match_id = int(response.headers["Location"].rsplit("/", 1)[1])
    values = {f"p{pid(table, n)}__side": "1" for n in ("Ann", "Bob", "Cy")}
    response = post_hand(owner, match_id, **values)
    assert response.status_code == 400
    assert "Nobody is on the side “Alone”: choose a side for each player." in response.text


@pytest.mark.parametrize(
    ("preset", "present", "absent"),
    [
        ("pagat", {"kozi", "s0-biribaki"}, {"s0-cut", "s0-open", "s0-failed"}),
        ("wikipedia", {"kozi", "s0-open"}, {"s0-cut", "s0-failed", "s0-opening"}),
        ("venezuelan", {"s0-cut"}, {"kozi", "s0-open", "s0-failed"}),
        ("buraco-us", {"s0-cut", "s0-open", "s0-failed"}, {"kozi"}),
    ],
)
def test_the_hand_form_asks_only_what_the_variant_uses(
    owner: FlaskClient, table: Table, preset: str, present: set[str], absent: set[str]
) -> None:
    match_id = start_match(owner, table, preset=preset)
    page = owner.get(f"/matches/{match_id}/hands/new").text
    for name in present:
        assert f'name="{name}"' in page
    for name in absent:
        assert f'name="{name}"' not in page
    if "s0-cut" in present:
        assert "Exact cut (+100)" in page


def test_every_preset_starts_a_match(owner: FlaskClient, table: Table) -> None:
    for preset in PRESETS:
        match_id = start_match(owner, table, preset=preset)
        assert owner.get(f"/matches/{match_id}").status_code == 200
        assert owner.get(f"/matches/{match_id}/hands/new").status_code == 200


def test_versions_are_kept_in_the_database(app: Flask, owner: FlaskClient, table: Table) -> None:
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))
    post_hand(owner, match_id, "hands/1/edit", kozi="S")
    with app.app_context():
        actions = db.session.scalars(
            db.select(HandVersion.action).where(HandVersion.match_id == match_id)
        )
        assert sorted(actions) == ["created", "edited"]


# --- issue 10: never a silently wrong score ----------------------------------------------------


KOZI_SENTENCE = "Choose this hand&#39;s kózi: Greek Biriba (pagat.com) has one every hand."


def kozi_values(page: str) -> list[str]:
    return re.findall(r'name="kozi" id="[^"]*" value="([^"]*)"', page)


def test_no_kozi_is_preselected_and_none_is_not_offered_where_every_hand_has_one(
    owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    page = owner.get(f"/matches/{match_id}/hands/new").text
    assert kozi_values(page) == ["S", "H", "D", "C"]
    assert "kozi" not in form_of(page, "hand-form")
    assert "data-kozi-required" in page and "data-kozi-hint" in page


@pytest.mark.parametrize("button", ["save", "preview"])
def test_a_hand_without_its_kozi_is_neither_saved_nor_previewed(
    app: Flask, owner: FlaskClient, table: Table, button: str
) -> None:
    match_id = start_match(owner, table)
    values = reference_hand(table) | {"kozi": None}
    response = post_hand(owner, match_id, button=button, **values)
    assert response.status_code == 400
    assert KOZI_SENTENCE in response.text
    assert "Preview: not saved yet</h2>" in response.text  # the panel is there, still empty
    assert "data-preview-score" not in response.text
    assert hands_of(app, match_id) == []


def test_where_a_hand_may_have_no_kozi_none_is_offered_not_chosen(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, opt__kozi_optional=True)
    page = owner.get(f"/matches/{match_id}/hands/new").text
    assert kozi_values(page) == ["S", "H", "D", "C", "none"]
    assert "kozi" not in form_of(page, "hand-form") and "data-kozi-required" not in page
    values = reference_hand(table) | {"kozi": "none"}
    assert post_hand(owner, match_id, **values).status_code == 302
    (hand,) = hands_of(app, match_id)
    assert hand.entry["kozi"] is None
    fields = form_of(owner.get(f"/matches/{match_id}/hands/1/edit").text, "hand-form")
    assert fields["kozi"] == "none"


def last_hand_mark(page: str) -> list[str]:
    """The kózi buttons marked as last hand's, by the value of their radio."""
    return re.findall(r'value="([^"]*)"[^>]*data-kozi>\s*<label[^>]*was-last', page)


def test_the_kozi_buttons_keep_the_picker_order_and_mark_the_last_hands_kozi(
    owner: FlaskClient, table: Table
) -> None:
    """Issue 19: the buttons moved the last hand's suit first, so a tap from habit chose the
    wrong kózi. They keep the card picker's order (♠ ♥ ♦ ♣) hand after hand; the last
    hand's kózi is marked, never moved and never chosen."""
    match_id = start_match(owner, table)
    page = owner.get(f"/matches/{match_id}/hands/new").text
    assert kozi_values(page) == ["S", "H", "D", "C"]
    assert last_hand_mark(page) == [] and "data-last-kozi" not in page
    for kozi in ("D", "C", "H"):
        post_hand(owner, match_id, **reference_hand(table) | {"kozi": kozi})
        page = owner.get(f"/matches/{match_id}/hands/new").text
        assert kozi_values(page) == ["S", "H", "D", "C"]
        assert last_hand_mark(page) == [kozi]
        assert page.count("data-last-kozi>last hand</span>") == 1
        assert "kozi" not in form_of(page, "hand-form")  # marked, not chosen
    # Correcting hand 2 marks the kózi of hand 1, the hand before it.
    page = owner.get(f"/matches/{match_id}/hands/2/edit").text
    assert kozi_values(page) == ["S", "H", "D", "C"] and last_hand_mark(page) == ["D"]


@pytest.mark.parametrize(("preset", "rule"), [("pagat", "low_or_high"), ("buraco-us", "both_ends")])
def test_the_hand_form_tells_the_card_picker_the_ace_rule(
    owner: FlaskClient, table: Table, preset: str, rule: str
) -> None:
    """The picker fills a run up to an ace low or high as the variant lets it (issue 19)."""
    match_id = start_match(owner, table, preset=preset)
    assert f'data-ace="{rule}"' in owner.get(f"/matches/{match_id}/hands/new").text


def test_going_out_ticks_the_biribaki_where_the_variant_ties_them(
    owner: FlaskClient, table: Table
) -> None:
    tied = owner.get(f"/matches/{start_match(owner, table)}/hands/new").text
    assert 'name="s0-out" data-implies="s0-biribaki"' in tied
    assert 'name="s1-out" data-implies="s1-biribaki"' in tied
    match_id = start_match(owner, table, opt__going_out_needs_biribaki=False)
    free = owner.get(f"/matches/{match_id}/hands/new").text
    assert "data-implies" not in free


WIKI_MELDS = {"s0__meld": ["AS AH AD", "", "KC KD KS"], "s0__biribaki": True}


def test_a_lone_15_point_meld_against_75_is_refused_by_the_form(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, preset="wikipedia")
    values = WIKI_MELDS | {"kozi": "S", "s0__open": ["0", "2"], "s1__meld": ["3H 4H 5H"]}
    response = post_hand(owner, match_id, **values)
    assert response.status_code == 422
    assert "B needs at least 75 to open, but all its melds together hold 15 points." in (
        response.text
    )
    assert hands_of(app, match_id) == []


def test_opening_marks_are_row_positions_stored_as_meld_indexes(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, preset="wikipedia")
    # rows 0 and 2 are marked; row 1 is empty, so they are melds 0 and 1
    values = WIKI_MELDS | {"kozi": "S", "s0__open": ["0", "2"]}
    # B marks its jacks alone: 30 < 75
    b_marked = {"s1__meld": ["QS QH QD", "JS JH JD"], "s1__open": ["1"]}
    response = post_hand(owner, match_id, **values | b_marked)
    assert response.status_code == 422
    assert "The opening of B (J♠ J♥ J♦) is worth 30 points" in response.text
    # B marks nothing; its melds together (105) could have opened: saved with a note
    values["s1__meld"] = ["QS QH QD", "JS JH JD", "AC AC AS"]
    response = post_hand(owner, match_id, **values)
    assert response.status_code == 302, response.text
    (hand,) = hands_of(app, match_id)
    a, b = hand.entry["teams"]
    assert a["opening_melds"] == [0, 1]
    assert "opening_melds" not in b
    assert hand.result["teams"][0]["opening_points"] == 75
    assert {"label": "Opening not checked (needed at least 75)", "points": 0} in hand.result[
        "teams"
    ][1]["lines"]
    page = owner.get(f"/matches/{match_id}/hands/1/edit").text
    assert form_of(page, "hand-form").getlist("s0-open") == ["0", "1"]
    assert "needs at least 75 · opening so far 75" in page


def test_an_opening_mark_on_a_filled_row_of_the_other_side(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, preset="wikipedia")
    values = WIKI_MELDS | {"kozi": "S", "s0__open": ["0", "2"]}
    values |= {"s1__meld": ["", "AC AC AS", "QS QH QD"], "s1__open": ["1", "2"]}
    assert post_hand(owner, match_id, **values).status_code == 302
    (hand,) = hands_of(app, match_id)
    assert hand.entry["teams"][1]["opening_melds"] == [0, 1]


def preview_json(
    client: FlaskClient, match_id: int, path: str = "hands/new", **values: Any
) -> tuple[int, Any]:
    page = client.get(f"/matches/{match_id}/{path}")
    data = with_values(form_of(page.text, "hand-form"), **values)
    target = path.replace("/edit", "").replace("/new", "") + "/preview"
    response = client.post(f"/matches/{match_id}/{target}", data=data)
    assert response.is_json, response.text
    return response.status_code, response.get_json()


def test_the_live_preview_answers_lines_opening_lines_problems_and_totals(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, preset="wikipedia")
    values = WIKI_MELDS | {"kozi": "S", "s0__open": ["0"], "s1__meld": ["3H 4H 5H"]}
    status, answer = preview_json(owner, match_id, **values)
    assert status == 200
    assert answer["errors"] == []
    assert answer["problems"] == [
        "The opening of A (A♠ A♥ A♦) is worth 45 points, but with 0 before the hand it needed "
        "at least 75.",
        "B needs at least 75 to open, but all its melds together hold 15 points.",
    ]
    a, b = answer["teams"]
    assert a["name"] == "A" and a["score"] == "75"
    assert a["lines"] == [{"label": "Cards melded", "points": "75"}]
    assert a["opening_line"] == "needs at least 75 · opening so far 45"
    assert b["opening_line"] == "needs at least 75 · no opening marked yet"
    assert b["score"] == "−85"  # 15 − no biribaki 100
    assert answer["totals"] == [{"name": "A", "total": "75"}, {"name": "B", "total": "−85"}]
    assert hands_of(app, match_id) == []  # a preview stores nothing


def test_the_live_preview_without_a_kozi_shows_openings_but_no_totals(
    owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table, preset="wikipedia")
    status, answer = preview_json(owner, match_id, **WIKI_MELDS | {"s0__open": ["0", "2"]})
    assert status == 200
    assert answer["errors"] == [
        "Choose this hand's kózi: Greek Biriba (Wikipedia) has one every hand."
    ]
    assert answer["teams"][0]["opening_line"] == "needs at least 75 · opening so far 75"
    assert answer["totals"] == []


def test_the_live_preview_of_a_correction_gives_the_totals_after_that_hand(
    owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))  # 665 / −95
    post_hand(owner, match_id, **reference_hand(table))  # 1330 / −190
    empty = {f"p{pid(table, name)}__hand": "" for name in ("Bob", "Di")}
    status, answer = preview_json(owner, match_id, "hands/1/edit", **empty)
    assert status == 200, answer
    assert answer["teams"][1]["score"] == "−45"  # −95 without the 50 left in hand
    assert answer["totals"] == [{"name": "A", "total": "665"}, {"name": "B", "total": "−45"}]
    assert answer["teams"][0]["opening_line"] is None  # pagat has no opening table


def test_the_live_preview_is_json_for_a_stranger_and_a_missing_hand(
    client: FlaskClient, owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    page = owner.get(f"/matches/{match_id}/hands/new").text
    data = form_of(page, "hand-form")
    response = owner.post(f"/matches/{match_id}/hands/7/preview", data=data)
    assert response.status_code == 404 and response.is_json
    assert response.get_json()["errors"] == ["Hand 7 is not part of this match."]


def test_preview_without_javascript_shows_the_match_totals_after_the_hand(
    owner: FlaskClient, table: Table
) -> None:
    match_id = start_match(owner, table)
    post_hand(owner, match_id, **reference_hand(table))
    page = post_hand(owner, match_id, button="preview", **reference_hand(table)).text
    assert "Match total after this hand" in page
    assert "data-preview-total>1330</strong>" in page
    assert "data-preview-total>−190</strong>" in page


def test_a_hand_sent_with_cards_as_token_lists_shows_on_every_page(
    app: Flask, owner: FlaskClient, table: Table
) -> None:
    """The JSON API takes a meld as a list of card tokens; stored as sent, such a list once
    reached the card parser of the scoreboard and the history and made them answer 500."""
    from scorekeeper import match as matches

    match_id = start_match(owner, table)
    entry = {
        "kozi": "H",
        "teams": [
            {
                "name": "A",
                "melds": [["5S", "6S", "7S", "8S", "9S", "10S", "JS"], ["QD", "QC", "QH"]],
                "hands": [[], []],
                "went_out": True,
                "took_biribaki": True,
            },
            {"name": "B", "melds": [["3C", "4C", "5C"]], "hands": [["AS", "9D"], ["JK"]]},
        ],
    }
    with app.app_context():
        matches.record_hand(
            db.session.get(Match, match_id), None, typed(db.session.get(Match, match_id), entry)
        )
    for path in ("", "/hands/1/edit", "/hands/1/history", "/export.json", "/rules"):
        response = owner.get(f"/matches/{match_id}{path}")
        assert response.status_code in (200, 404), (path, response.status_code)
    board = owner.get(f"/matches/{match_id}").text
    assert "Clean biriba 5♠–J♠" in board, board[board.find("Hand 1") :][:3000]
