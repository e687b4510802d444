"""The verdict is worded once, on the server: POST /api/v1/melds/check carries the same words,
in the request's language, as the pages draw without JavaScript, so the scripts insert them
instead of building them from parts."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

GREEK = {"Accept-Language": "el-GR,el;q=0.9,en;q=0.5"}
ENGLISH = {"Accept-Language": "en"}
LANGUAGES = pytest.mark.parametrize("headers", [ENGLISH, GREEK], ids=["en", "el"])

# legal with a wild, a kózi biriba, a full biriba, a lone wild meld, not legal, three problems
MELDS = ["3H 4H 2H 6H 7H", "AH-7H", "AD-KD", "2S 2D JK", "QH QD 5S", "3C 5D 9S JK JK"]


def check(client: FlaskClient, headers: dict[str, str], cards: str, **more: Any) -> Any:
    body = {"variant": "pagat", "kozi": "H", "cards": cards} | more
    response = client.post("/api/v1/melds/check", json=body, headers=headers)
    assert response.status_code == 200, response.text
    return response.get_json()


def texts(pattern: str, html: str) -> list[str]:
    return [unescape(found).strip() for found in re.findall(pattern, html, re.S)]


@pytest.mark.stateless
@LANGUAGES
@pytest.mark.parametrize("cards", MELDS)
def test_the_api_words_the_verdict_as_the_meld_checker_page(
    client: FlaskClient, headers: dict[str, str], cards: str
) -> None:
    page = client.get(
        "/referee/meld",
        query_string={"variant": "pagat", "kozi": "H", "cards": cards},
        headers=headers,
    ).text
    section = page.split('id="meld-verdict"', 1)[1].split("</section>", 1)[0]
    said = check(client, headers, cards)["verdict_words"]
    assert texts(r'<h2 class="verdict-title">.*?</span>(.*?)</h2>', section) == [said["title"]]
    assert texts(r'<p class="verdict-name">(.*?)</p>', section) == [said["name"]]
    tags = (
        section.split('<ul class="verdict-tags">', 1)[1].split("</ul>")[0] if said["tags"] else ""
    )
    assert texts(r"<li>(.*?)</li>", tags) == said["tags"]
    bonus = texts(r"<dt>[^<]*</dt><dd>([^<]*)</dd>", section)[1:]  # after the card points
    assert bonus == ([] if said["bonus"] is None else [said["bonus"]])
    assert texts(r'<span class="verdict-wild">(.*?)</span>', section) == said["wilds"]


@pytest.mark.stateless
def test_the_api_verdict_speaks_the_requests_language(client: FlaskClient) -> None:
    english = check(client, ENGLISH, "AH-7H")
    greek = check(client, GREEK, "AH-7H")
    assert english["verdict"] == (
        "Legal: run, clean (2♥ in its own place), biriba, kózi · 50 points + 400 bonus"
    )
    assert greek["verdict"].startswith("Έγκυρος: σειρά")
    assert greek["verdict_words"]["title"] == "Έγκυρος"
    # the fields that were there before are all still there, beside the worded ones
    assert english.keys() == greek.keys() >= {"legal", "kind", "card_points", "bonus", "wilds"}


@LANGUAGES
def test_the_api_verdict_is_the_hand_entry_pages_line(
    client: FlaskClient, match_id: int, headers: dict[str, str]
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = headers["Accept-Language"]
    ours, theirs = MELDS[:3], MELDS[3:]
    form = MultiDict([("kozi", "H"), ("preview", "1")])
    form.setlist("s0-meld", ours)
    form.setlist("s1-meld", theirs)
    response = client.post(f"/matches/{match_id}/hands/new", data=form)
    assert response.status_code == 200, response.text
    page = response.text
    lines = texts(r"<p class=\"meld-verdict[^\"]*\" data-verdict[^>]*>(.*?)</p>", page)
    shown = [line for line in lines if line]  # the empty meld rows have no verdict yet
    said = [check(client, headers, cards, format="4p")["verdict"] for cards in MELDS]
    assert shown == said
    assert len(set(said)) == len(MELDS)


# --- a natural 2: the clean verdict says where it sits ------------------------------------


NATURAL_TWO = {
    "AH 2H 3H": ("clean (2♥ in its own place)", "καθαρή (το 2♥ στη θέση του)"),
    "2S 3S 4S": ("clean (2♠ in its own place)", "καθαρή (το 2♠ στη θέση του)"),
    "3S 4S 5S": ("clean", "καθαρή"),  # no 2: nothing to explain
    "2C 3C 4C JK": ("dirty", "βρόμικη"),  # dirty anyway: the joker is the wild
}


@pytest.mark.stateless
@pytest.mark.parametrize("cards", NATURAL_TWO)
def test_a_clean_run_says_its_2_is_in_its_own_place(client: FlaskClient, cards: str) -> None:
    """One builder words it: the API's line and tags, and the meld checker's page."""
    for headers, said in zip((ENGLISH, GREEK), NATURAL_TWO[cards], strict=True):
        answer = check(client, headers, cards, kozi=None)
        assert answer["verdict_words"]["tags"][1] == said
        assert f", {said} ·" in answer["verdict"] or f": {said} ·" in answer["verdict"]
        page = client.get(
            "/referee/meld", query_string={"variant": "pagat", "cards": cards}, headers=headers
        ).text
        assert f"<li>{said}</li>" in page


@LANGUAGES
def test_the_hand_entry_line_says_the_2_is_in_its_own_place(
    client: FlaskClient, match_id: int, headers: dict[str, str]
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = headers["Accept-Language"]
    form = MultiDict([("kozi", "S"), ("preview", "1"), ("s0-meld", "AH 2H 3H")])
    page = client.post(f"/matches/{match_id}/hands/new", data=form).text
    said = "2♥ in its own place" if headers is ENGLISH else "το 2♥ στη θέση του"
    lines = texts(r"<p class=\"meld-verdict[^\"]*\" data-verdict[^>]*>(.*?)</p>", page)
    assert [line for line in lines if said in line] == [
        check(client, headers, "AH 2H 3H", kozi="S", format="4p")["verdict"]
    ]


# --- the opening line: asked with the meld, worded by the API -------------------------------


@pytest.mark.stateless
@pytest.mark.parametrize(
    ("variant", "cards", "opening", "met", "text"),
    [
        ("pagat", "QH QD QC", {"points": 30}, True, "Opens: 30 card points meet at least 30."),
        (
            "pagat",
            "QH QD QC",
            {"points": 31},
            False,
            "Does not open: 30 card points, at least 31 needed.",
        ),
        ("pagat", "QH QD", {"points": 10}, False, "Cannot open: the meld is not legal."),
        (
            "wikipedia",
            "10S-AS",
            {"score": 3000},
            False,
            "Does not open: 55 card points, more than 120 needed.",
        ),
        (
            "wikipedia",
            "AH AD AC AS AH AD AC AS JK",
            {"score": 3500},
            True,
            "Opens: 145 card points meet more than 120.",
        ),
        ("catsatcards", "3H 4H 5H", {"score": -40}, True, "Opens: there is no minimum."),
    ],
    ids=["meets", "one-short", "illegal", "w1-band", "w1-above", "c1-negative-score"],
)
def test_the_api_words_the_opening_line(
    client: FlaskClient, variant: str, cards: str, opening: Any, met: bool, text: str
) -> None:
    said = check(client, ENGLISH, cards, variant=variant, kozi=None, opening=opening)
    assert said["verdict_words"]["opening"] == {"met": met, "text": text}
    greek = check(client, GREEK, cards, variant=variant, kozi=None, opening=opening)
    assert greek["verdict_words"]["opening"]["met"] is met
    assert greek["verdict_words"]["opening"]["text"] != text  # worded in Greek


@pytest.mark.stateless
@pytest.mark.parametrize(
    ("variant", "opening"), [("pagat", None), ("pagat", {"score": 3000})], ids=["none", "no-table"]
)
def test_no_opening_line_unless_one_is_asked_and_known(
    client: FlaskClient, variant: str, opening: Any
) -> None:
    said = check(client, ENGLISH, "QH QD QC", variant=variant, opening=opening)
    assert said["verdict_words"]["opening"] is None


@pytest.mark.stateless
@pytest.mark.parametrize(
    ("opening", "names"),
    [
        (75, "'opening' must be a JSON object"),
        ({}, "'opening' must be {\"points\": N}"),
        ({"points": 1, "score": 2}, "'opening' must be {\"points\": N}"),
        ({"points": -1}, "'opening.points' must be a whole number from 0 to 10000"),
        ({"points": 10**40}, "'opening.points' must be a whole number from 0 to 10000"),
        ({"points": True}, "'opening.points' must be a whole number from 0 to 10000"),
        ({"score": "lots"}, "'opening.score' must be a whole number"),
        ({"score": 10**12}, "'opening.score' must be a whole number"),
    ],
)
def test_a_bad_opening_is_a_400_naming_it(client: FlaskClient, opening: Any, names: str) -> None:
    body = {"variant": "wikipedia", "cards": "QH QD QC", "opening": opening}
    response = client.post("/api/v1/melds/check", json=body)
    assert response.status_code == 400
    assert response.get_json()["error"].startswith(names)
