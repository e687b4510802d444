"""A refused Save opens at its problem (issue 19), as the server draws the page, so it holds
without JavaScript: the banner names each problem with a link to the field it is about, and
that field (and the line that failed with it: a meld's verdict, a team's opening line) is
marked with aria-invalid and aria-describedby naming the line and the problem."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.world import new_club, signed_in
from werkzeug.datastructures import MultiDict

from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.match import TeamSpec


@dataclass(frozen=True)
class Table:
    match_id: int
    players: dict[str, int]


@pytest.fixture
def table(app: Flask, client: FlaskClient) -> Table:
    """A wikipedia match for four (a first meld needs 75 points at the start): A = Ann & Cy,
    B = Bob & Di, with eleni signed in on `client`."""
    with app.app_context():
        user = accounts.create_user("eleni", "password1")
        club, players = new_club(user)
        teams = [
            TeamSpec("A", (players["Ann"], players["Cy"])),
            TeamSpec("B", (players["Bob"], players["Di"])),
        ]
        match = matches.create_match(club, user, "wikipedia", "4p", teams)
        match_id, user_id = match.id, user.id
    signed_in(client, user_id)
    return Table(match_id, players)


def save(client: FlaskClient, table: Table, button: str = "save", **fields: Any) -> Any:
    """Save a new hand as the form posts it (`s0__meld` for s0-meld; a list repeats it)."""
    data: list[tuple[str, str]] = [("key", "k" * 32), (button, "1")]
    for name, value in fields.items():
        for one in value if isinstance(value, list) else [value]:
            data.append((name.replace("__", "-"), one))
    return client.post(f"/matches/{table.match_id}/hands/new", data=MultiDict(data))


def links(page: str) -> list[tuple[str, str]]:
    """The banner's links: (the id they lead to, their words)."""
    banner = page[page.index('id="hand-errors"') : page.index('<form method="post"')]
    found = re.findall(r'<a href="#([^"]+)" data-problem-link>(.*?)</a>', banner, re.S)
    return [(target, html.unescape(words)) for target, words in found]


def tag_of(page: str, element_id: str) -> str:
    """The start tag of the element with id `element_id`."""
    match = re.search(rf'<[a-z]+ [^>]*\bid="{re.escape(element_id)}"[^>]*>', page)
    assert match, f"no element #{element_id}"
    return match.group(0)


def marked(page: str, element_id: str) -> list[str]:
    """What the field `element_id` is described by, if it is marked as at fault."""
    tag = tag_of(page, element_id)
    if 'aria-invalid="true"' not in tag:
        return []
    described = re.search(r'aria-describedby="([^"]*)"', tag)
    assert described, tag
    return described.group(1).split()


A_OPENS = {"s0__meld": ["AS AH AD", "KC KD KS"], "s0__open": ["0", "1"], "s0__biribaki": "on"}


def test_an_opening_short_of_its_need_is_linked_and_its_line_marked(
    client: FlaskClient, table: Table
) -> None:
    response = save(client, table, kozi="S", s1__meld=["3H 4H 5H"], **A_OPENS)
    assert response.status_code == 422
    page = response.text
    problem = "B needs at least 75 to open, but all its melds together hold 15 points."
    assert links(page) == [("s1-meld-1", problem)]
    # The line under B that said "needs at least 75" in grey is marked as failed, and the
    # field the link leads to says why.
    assert 'class="opening-line is-failed" id="side-1-opening"' in page
    assert 'class="opening-line" id="side-0-opening"' in page
    assert marked(page, "s1-meld-1") == ["side-1-opening", "hand-problem-1"]
    assert tag_of(page, "hand-problem-1").startswith("<li")
    assert marked(page, "s0-meld-1") == [] and marked(page, "s1-meld-2") == []
    assert 'data-first-problem="s1-meld-1"' in page


def test_every_problem_is_named_with_a_link_to_its_own_field(
    client: FlaskClient, table: Table
) -> None:
    response = save(
        client,
        table,
        kozi="S",
        s0__meld=["AS AH AD", "5S 6S 8S", "KC KD KS"],
        s0__open=["0", "2"],
        s0__biribaki="on",
        s0__out="on",
        s1__meld=["QH QD QC", "QS QH QD", "QH JK JK"],
        s1__open=["0", "1"],
        s1__biribaki="on",
        s1__out="on",
    )
    assert response.status_code == 422
    page = response.text
    found = links(page)
    targets = [target for target, _words in found]
    # Both sides gone out (the second is the one to untick), a queen of hearts once too
    # often (where it is one too many), A's broken run, A going out without a biriba.
    assert targets[0] == "s1-out" and "Only one side can go out" in found[0][1]
    assert ("s1-meld-3", "Q♥ appears 3 times, but two decks hold only 2.") in found
    run = next(words for target, words in found if target == "s0-meld-2")
    assert run.startswith("The meld 5♠ 6♠ 8♠ of A is not legal.")
    assert any(t == "s0-out" and "went out without" in w for t, w in found)
    # Each link leads to a field the page has, marked with the problem it is linked from;
    # a meld's own verdict line is named too.
    for n, target in enumerate(targets, 1):
        assert f"hand-problem-{n}" in marked(page, target)
    assert marked(page, "s0-meld-2")[0] == "s0-meld-2-verdict"
    assert 'id="s0-meld-2-verdict"' in page and "verdict-bad" in tag_of(page, "s0-meld-2-verdict")
    assert 'data-first-problem="s1-out"' in page


def test_a_form_the_reader_refuses_links_each_error_to_its_field(
    client: FlaskClient, table: Table
) -> None:
    bob = table.players["Bob"]
    response = save(
        client, table, s0__meld=["AS AH AD"], s1__points="12", **{f"p{bob}__hand": "9D"}
    )
    assert response.status_code == 400
    ((target, words),) = links(response.text)
    assert target == "s1-points" and "as cards or as a point total, not both" in words
    assert marked(response.text, "s1-points") == ["hand-error-1"]
    # A card the reader cannot read: found by reading each field again.
    response = save(client, table, s0__meld=["AS AH AD"], s1__meld=["3H 4H 5H", "5X 6H"])
    assert response.status_code == 400
    ((target, words),) = links(response.text)
    assert target == "s1-meld-2" and "5X" in words
    assert marked(response.text, "s1-meld-2") == ["hand-error-1"]
    assert marked(response.text, "s1-meld-1") == []
    # The kózi, once the rest can be read.
    response = save(client, table, s0__meld=["AS AH AD"])
    assert response.status_code == 400
    assert [target for target, _words in links(response.text)] == ["kozi"]
    assert marked(response.text, "kozi") == ["hand-error-1"]
    assert 'data-first-problem="kozi"' in response.text


def test_a_saved_or_previewed_hand_marks_nothing(client: FlaskClient, table: Table) -> None:
    response = save(client, table, "preview", kozi="S", s1__meld=["3H 4H 5H"], **A_OPENS)
    assert response.status_code == 200
    assert "data-problem-mark" not in response.text and "is-failed" not in response.text
    assert 'id="hand-errors"' not in response.text
