"""Referee pages through the Flask test client: the meld checker without a script, the rules
of each preset in plain words, and `describe_rules` on house rules."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.presets import PRESETS, find_variant
from scorekeeper.rules.variants import option_names
from scorekeeper.words.rule_words import ASSUMED_NOTE, band_lines, describe_rules

MELD = "/referee/meld"


def text_of(html: str) -> str:
    """The page as a reader sees it: tags gone, entities decoded, spaces collapsed."""
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def verdict(html: str) -> str:
    start = html.rindex("<section", 0, html.index('id="meld-verdict"'))
    return text_of(html[start : html.index("</section>", start)])


def post_meld(client: FlaskClient, **fields: str) -> tuple[int, str]:
    response = client.post(MELD, data={"variant": "pagat", **fields})
    return response.status_code, response.get_data(as_text=True)


# --- the meld checker ---------------------------------------------------------------------------


@pytest.mark.stateless
def test_meld_checker_page_offers_presets_kozi_and_a_hidden_picker(client: FlaskClient) -> None:
    response = client.get(MELD)
    html = response.get_data(as_text=True)

    assert response.status_code == 200
    for variant in PRESETS.values():
        assert f'value="{variant.id}"' in html
    assert re.search(r'<option[^>]*selected[^>]*value="pagat"', html)
    for suit in ("S", "H", "D", "C", "none"):
        assert f'id="kozi-{suit}"' in html
    assert re.search(r'<div class="card-picker" data-card-picker="cards"[^>]*hidden>', html)
    assert "Add cards to see the verdict." in html
    assert "<script>" not in html and " onclick=" not in html and " style=" not in html


@pytest.mark.stateless
def test_variant_in_the_address_preselects_it(client: FlaskClient) -> None:
    html = client.get(MELD + "?variant=wikipedia").get_data(as_text=True)

    assert re.search(r'<option[^>]*selected[^>]*value="wikipedia"', html)
    assert "Score 3000 and over: more than 120" in html  # its opening table is offered


@pytest.mark.stateless
def test_posted_meld_gets_the_whole_verdict(client: FlaskClient) -> None:
    status, html = post_meld(client, kozi="H", cards="3H 4H 2H 6H 7H")

    assert status == 200
    shown = verdict(html)
    assert shown.startswith("✓ Legal 3♥–7♥ · 5 cards run dirty kózi")
    assert "Card points 30" in shown
    assert "Bonus None: a biriba needs 7 cards or more." in shown
    assert "Wild cards 2♥ stands for 5♥" in shown
    assert re.search(r'<input[^>]*id="kozi-H"[^>]*checked', html)


@pytest.mark.parametrize(
    ("variant", "cards", "kozi", "expected"),
    [
        ("pagat", "5S-JS", "H", "run clean biriba Card points 55 Bonus 200: Clean biriba"),
        (
            "pagat",
            "AH-7H",
            "H",
            "run clean (2♥ in its own place) biriba kózi Card points 50 Bonus 400: Clean kózi",
        ),
        (
            "pagat",
            "AD-KD",
            "",
            "run clean (2♦ in its own place) full biriba Card points 110 Bonus 1000: Clean full",
        ),
        ("burraco-it", "5S-JS 2H", "", "run semi-clean burraco Card points 75 Bonus 150"),
        ("pagat", "QH QD JK", "", "set dirty Card points 40"),
        ("venezuelan", "JK JK 2S", "", "wild meld"),
    ],
    ids=["clean-biriba", "kozi-biriba", "full-biriba", "semipulito", "dirty-set", "wild-meld"],
)
@pytest.mark.stateless
def test_verdict_kinds_and_bonuses(
    client: FlaskClient, variant: str, cards: str, kozi: str, expected: str
) -> None:
    status, html = post_meld(client, variant=variant, cards=cards, kozi=kozi)

    assert status == 200
    assert expected in verdict(html)


@pytest.mark.stateless
def test_wild_in_a_set_stands_for_its_rank(client: FlaskClient) -> None:
    _, html = post_meld(client, cards="AH AD JK")

    assert "joker stands for an A" in verdict(html)


@pytest.mark.stateless
def test_the_checker_page_counts_copies_of_a_card(client: FlaskClient) -> None:
    status, html = post_meld(client, cards=" ".join(["AH"] * 162))

    assert status == 200
    shown = verdict(html)
    assert shown.startswith("✗ Not legal")
    assert "A♥ appears 162 times, but three decks hold only 3." in shown


@pytest.mark.stateless
def test_illegal_meld_lists_every_reason(client: FlaskClient) -> None:
    status, html = post_meld(client, variant="pagat-kouridakis", cards="QH QD JK 2S")

    assert status == 200  # a ruling, not a mistake in the request
    shown = verdict(html)
    assert shown.startswith("✗ Not legal")
    assert "This variant allows no sets, only runs" in shown
    assert "A meld may hold only one wild card, but this one has more: joker and 2♠." in shown
    assert "2♠ stands in as a wild card here" in shown
    assert "Bonus" not in shown


@pytest.mark.parametrize(
    ("cards", "token"),
    [("3H ZZ 5H", "ZZ"), ("3H 4H 5", "5"), ("3H-9S", "3H-9S"), ("3H 4X 5H", "4X")],
)
@pytest.mark.stateless
def test_bad_card_is_a_400_quoting_the_token_and_keeping_the_text(
    client: FlaskClient, cards: str, token: str
) -> None:
    status, html = post_meld(client, kozi="H", cards=cards)

    assert status == 400
    start = html.index('id="cards-errors"')
    errors = text_of(html[start : html.index("</ul>", start)])
    assert f"'{token}'" in errors
    assert errors.endswith(".")
    assert f'value="{cards}"' in html
    assert 'aria-invalid="true"' in html
    assert "Add cards to see the verdict." in html  # no verdict for cards it could not read


@pytest.mark.stateless
def test_missing_cards_and_unknown_variant_are_400s_with_sentences(client: FlaskClient) -> None:
    status, html = post_meld(client, cards="  ")
    assert status == 400
    assert "Enter the cards of the meld, such as 3H 4H 5H." in html

    status, html = post_meld(client, variant="canasta", cards="3H 4H 5H")
    assert status == 400
    assert "&#39;canasta&#39; is not a variant: use one of pagat" in html


@pytest.mark.stateless
def test_get_with_cards_links_straight_to_a_ruling(client: FlaskClient) -> None:
    response = client.get(MELD + "?variant=greek&kozi=H&cards=3H+4H+2H+6H+7H")

    assert response.status_code == 200
    assert "2♥ stands for 5♥" in verdict(response.get_data(as_text=True))


@pytest.mark.stateless
def test_post_needs_no_csrf_token(client: FlaskClient) -> None:
    # The checker stores nothing; a token would only expire on a phone left at the table.
    client.application.config["WTF_CSRF_ENABLED"] = True

    status, html = post_meld(client, cards="5S-JS")

    assert status == 200
    assert "Clean biriba" in html


# --- the opening check --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"cards": "QH QD QC", "opening": "30"}, "Opens: 30 card points meet at least 30."),
        (
            {"cards": "QH QD QC", "opening": "31"},
            "Does not open: 30 card points, at least 31 needed.",
        ),
        ({"cards": "5S-JS", "opening": "75"}, "Does not open: 55 card points, at least 75 needed."),
        ({"cards": "QH QD", "opening": "10"}, "Cannot open: the meld is not legal."),
        (
            {"variant": "wikipedia", "cards": "10S-AS", "opening_band": "3000"},
            "Does not open: 55 card points, more than 120 needed.",
        ),
        (
            {"variant": "wikipedia", "cards": "AH AD AC AS AH AD AC AS", "opening_band": "3000"},
            "Does not open: 120 card points, more than 120 needed.",
        ),
        (
            {"variant": "wikipedia", "cards": "AH AD AC AS AH AD AC AS JK", "opening_band": "3000"},
            "Opens: 145 card points meet more than 120.",
        ),
        ({"variant": "wikipedia", "cards": "AH AD AC AS"}, None),
        (
            {"variant": "catsatcards", "cards": "3H 4H 5H", "opening_band": "0"},
            "Opens: there is no minimum.",
        ),
        (
            {"variant": "buraco-us", "cards": "KH KD KC", "opening_band": "1500", "opening": "20"},
            "Opens: 30 card points meet at least 20.",
        ),
    ],
    ids=[
        "meets-exactly",
        "one-short",
        "bonus-does-not-count",
        "illegal-cannot-open",
        "w1-more-than-120",
        "w1-exactly-120-is-not-more",
        "w1-above-120",
        "no-opening-asked",
        "c1-no-minimum",
        "typed-number-wins",
    ],
)
@pytest.mark.stateless
def test_opening_check(client: FlaskClient, fields: dict[str, str], expected: str | None) -> None:
    status, html = post_meld(client, **fields)

    assert status == 200
    shown = verdict(html)
    if expected is None:
        assert "Opening" not in shown
    else:
        assert f"Opening {expected}" in shown


@pytest.mark.stateless
def test_opening_needs_a_sensible_number(client: FlaskClient) -> None:
    status, html = post_meld(client, cards="QH QD QC", opening="-5")

    assert status == 400
    assert "An opening needs a number of card points from 0 to 10000." in html


# --- the rules pages ------------------------------------------------------------------------------


@pytest.mark.stateless
def test_rules_index_lists_all_eight_presets(client: FlaskClient) -> None:
    html = client.get("/rules").get_data(as_text=True)
    shown = text_of(html)

    assert len(PRESETS) == 8
    for variant in PRESETS.values():
        assert f'href="/rules/{variant.id}"' in html
        assert variant.name in unescape(html)
    assert "Won by the first side above 5000 · no opening minimum · sets of 3 to A" in shown
    assert "Won by the first side above 3000 · opening table W1 · sets of 3 to A" in shown
    assert "Won by the first side to reach 2000 · opening table B1 · sets of J Q K A only" in shown
    assert "runs only, no sets" in shown


@pytest.mark.parametrize("variant_id", list(PRESETS))
@pytest.mark.stateless
def test_preset_page_words_every_option_and_marks_exactly_its_assumptions(
    client: FlaskClient, variant_id: str
) -> None:
    variant = PRESETS[variant_id]
    response = client.get(f"/rules/{variant_id}")
    html = response.get_data(as_text=True)

    assert response.status_code == 200
    items = re.findall(r'<li class="rule( rule-assumed)?" data-options="([^"]*)"([^>]*)>', html)
    shown = [name for _, options, _ in items for name in options.split()]
    assert sorted(shown) == sorted(option_names())  # every option, each once
    marked: set[str] = set()
    for assumed_class, options, rest in items:
        found = re.search(r'data-assumed="([^"]*)"', rest)
        assert bool(assumed_class) == bool(found)
        if found:
            marked |= set(found.group(1).split())
            assert set(found.group(1).split()) <= set(options.split())
    assert marked == variant.assumed
    assert html.count(ASSUMED_NOTE.replace("'", "&#39;")) == len(
        [item for item in items if item[0]]
    )
    for source in variant.sources:
        assert source in unescape(html)


@pytest.mark.stateless
def test_preset_page_in_plain_words(client: FlaskClient) -> None:
    shown = text_of(client.get("/rules/pagat").get_data(as_text=True))

    for sentence in (
        "A joker counts 20 points.",
        "An ace is low (A-2-3) or high (Q-K-A), never both in one run",
        "Sets (3 or more cards of one rank) may be made of any rank from 3 to A",
        "Each hand has a kózi (trump) suit. A run biriba in that suit earns 400 when clean",
        "A full biriba in the kózi suit earns 2000 when clean, 1000 when dirty.",
        "The match is won by the first side above 5000.",
        "A team may open with any meld: there is no minimum.",
        "assumed The sources are silent here",
    ):
        assert sentence in shown, sentence
    for group in ("Card points", "Melds", "Biriba bonuses", "Going out", "Penalties"):
        assert f">{group}</h2>" in client.get("/rules/pagat").get_data(as_text=True)


@pytest.mark.stateless
def test_preset_page_shows_the_opening_table_and_runs_only(client: FlaskClient) -> None:
    wikipedia = text_of(client.get("/rules/wikipedia").get_data(as_text=True))
    kouridakis = text_of(client.get("/rules/pagat-kouridakis").get_data(as_text=True))

    assert "Score below 1500: at least 75" in wikipedia
    assert "Score 3000 and over: more than 120" in wikipedia
    assert "No sets: runs only." in kouridakis
    assert "A set biriba" not in kouridakis


@pytest.mark.stateless
def test_unknown_preset_is_a_404_page(client: FlaskClient) -> None:
    response = client.get("/rules/canasta")

    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "There is no rule set called “canasta”." in response.get_data(as_text=True)


@pytest.mark.stateless
def test_alias_redirects_to_the_presets_own_page(client: FlaskClient) -> None:
    response = client.get("/rules/greek")

    assert response.status_code == 301
    assert response.headers["Location"].endswith("/rules/pagat")


@pytest.mark.stateless
def test_referee_is_linked_from_home_and_nav(client: FlaskClient) -> None:
    home = client.get("/").get_data(as_text=True)
    rules = client.get("/rules").get_data(as_text=True)

    assert 'href="/referee/meld"' in home and 'href="/rules"' in home
    assert '<a href="/referee">Referee</a>' in rules
    assert client.get("/referee").status_code == 200


# --- describe_rules on house rules -------------------------------------------------------------


def test_describe_rules_on_house_rules_drops_the_changed_assumptions() -> None:
    house = find_variant("catsatcards").with_options(
        bonus_run_clean=300, going_out_bonus=150, target=3000, opening_table=None
    )

    rules = [rule for group in describe_rules(house) for rule in group.rules]
    texts = [rule.text for rule in rules]
    assumed = {name for rule in rules for name in rule.assumed}

    assert "A run biriba earns 300 when clean, 100 when dirty." in texts
    assert "Going out earns the team a bonus of 150." in texts
    assert "The match is won by the first side above 3000." in texts
    assert "A team may open with any meld: there is no minimum." in texts
    assert "going_out_bonus" not in assumed and "bonus_run_clean" not in assumed
    assert "bonus_run_dirty" in assumed  # the players left this one as the preset had it
    assert assumed == house.assumed


@pytest.mark.parametrize(
    "overrides",
    [
        {},
        {"kozi": False, "set_ranks": [], "max_size": 7},
        {"wild_melds": True, "wild_meld_lockout": True, "bonus_semiclean": 150},
        {"ace": "high_only", "max_wilds": 0, "penalty_biribaki_unplayed": "flat"},
        {"opening_table": "P7", "opening_comparison": "more_than", "opening_failed_increment": 10},
        {"cut_exact_bonus": 100, "going_out_needs_biriba": False, "target_rule": "at_least"},
    ],
    ids=["preset", "no-kozi-no-sets", "wild-melds", "odd-aces", "opening-p7", "cut-and-target"],
)
def test_describe_rules_names_every_option_once(overrides: dict[str, object]) -> None:
    variant = find_variant("pagat").with_options(**overrides)

    names = [
        name for group in describe_rules(variant) for rule in group.rules for name in rule.options
    ]

    assert sorted(names) == sorted(option_names())
    groups = [group.title for group in describe_rules(variant)]
    assert groups == [
        "Card points",
        "Melds",
        "Biriba bonuses",
        "Going out",
        "Penalties",
        "Opening meld",
        "Match",
    ]


def test_band_lines_follow_a_comparison_override() -> None:
    variant = find_variant("wikipedia").with_options(opening_comparison="at_least")

    assert [line.text for line in band_lines(variant)] == [
        "Score below 1500: at least 75",
        "Score 1500 to 2999: at least 90",
        "Score 3000 and over: at least 120",
    ]


def test_the_rules_say_whether_a_hand_may_be_played_without_a_kozi() -> None:
    def texts(variant_id: str, **options: object) -> list[str]:
        house = find_variant(variant_id).with_options(**options)
        return [rule.text for group in describe_rules(house) for rule in group.rules]

    every = "Every hand has its kózi: the scorer names it before a hand is saved."
    optional = "A hand may also be played without a kózi."
    assert every in texts("pagat") and optional not in texts("pagat")
    assert optional in texts("pagat", kozi_optional=True)
    assert every not in texts("buraco-us") and optional not in texts("buraco-us")
