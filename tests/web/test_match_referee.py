"""The referee tools reached from a match judge by that match's own rules."""

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from support.world import new_club, pagat_match, signed_in_as

from scorekeeper.accounts import service as accounts


@pytest.fixture
def runs_only_match(app: Flask) -> Iterator[int]:
    """A pagat match whose players banned sets (a house rule)."""
    with app.app_context():
        owner = accounts.create_user("eleni", "password1")
        accounts.create_user("stranger", "password1")
        club, ids = new_club(owner)
        match = pagat_match(club, owner, list(ids.values()), house_rules={"set_ranks": []})
        yield match.id


def test_the_checker_opened_from_a_match_uses_its_house_rules(
    app: Flask, client: FlaskClient, runs_only_match: int
) -> None:
    signed_in_as(client, "eleni")
    plain = client.get("/referee/meld?cards=QH+QD+QC").get_data(as_text=True)
    assert "runs only" not in plain
    page = client.get(f"/referee/meld?match={runs_only_match}&cards=QH+QD+QC")
    text = page.get_data(as_text=True)
    assert "This variant allows no sets, only runs" in text
    assert "The house rules of this match apply" in text


def test_a_stranger_gets_the_plain_checker_and_no_match_rules(
    app: Flask, client: FlaskClient, runs_only_match: int
) -> None:
    signed_in_as(client, "stranger")
    text = client.get(f"/referee/meld?match={runs_only_match}&cards=QH+QD+QC").get_data(
        as_text=True
    )
    assert "This variant allows no sets, only runs" not in text
    assert client.get(f"/matches/{runs_only_match}/rules").status_code == 404


def test_the_match_rules_page_and_the_scoreboard_links(
    app: Flask, client: FlaskClient, runs_only_match: int
) -> None:
    signed_in_as(client, "eleni")
    board = client.get(f"/matches/{runs_only_match}").get_data(as_text=True)
    assert f'href="/referee/meld?match={runs_only_match}"' in board
    assert f'href="/matches/{runs_only_match}/rules"' in board
    page = client.get(f"/matches/{runs_only_match}/rules")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert f"Rules of match {runs_only_match}" in text
    assert "with the players' house rules" in text.replace("&#39;", "'")
