"""The hand use cases on a real database: retries, deletions and versions."""

import copy

import pytest
from support.catalog import catalog
from support.hand_entries import ILLEGAL_MELD_HAND, REFERENCE_HAND, typed
from support.replay import scored_afresh
from support.world import new_club, pagat_match

from scorekeeper import match as matches
from scorekeeper.errors import Conflict
from scorekeeper.extensions import db
from scorekeeper.match import ScoredHand, view
from scorekeeper.models import Match, User
from scorekeeper.rules.i18n import using


@pytest.fixture
def match(owner: User) -> tuple[Match, User]:
    club, ids = new_club(owner)
    return pagat_match(club, owner, list(ids.values())), owner


def test_a_retry_after_the_hand_was_deleted_says_it_is_deleted(
    match: tuple[Match, User],
) -> None:
    game, user = match
    hand, created = matches.record_hand(
        game, user, typed(game, REFERENCE_HAND), idempotency_key="tap-1"
    )
    assert created
    matches.delete_hand(game, hand.number, user, expected_version=1)
    again, created_again = matches.record_hand(
        game, user, typed(game, REFERENCE_HAND), idempotency_key="tap-1"
    )
    assert not created_again
    assert matches.hand_json(again)["deleted"] is True
    assert [h["number"] for h in matches.match_json(game)["hands"]] == []


def test_scores_and_versions_follow_an_edit(match: tuple[Match, User]) -> None:
    game, user = match
    matches.record_hand(game, user, typed(game, REFERENCE_HAND))
    assert [t["score"] for t in matches.match_json(game)["teams"]] == [665, -95]
    # With spades as kózi, A's clean spade run is worth 400 and its heart run 100: +100.
    matches.edit_hand(
        game, 1, user, typed(game, REFERENCE_HAND | {"kozi": "S"}), expected_version=1
    )
    assert [t["score"] for t in matches.match_json(game)["teams"]] == [765, -95]
    with pytest.raises(Conflict):
        matches.edit_hand(game, 1, user, typed(game, REFERENCE_HAND), expected_version=1)
    assert [(v.version, v.action) for v in matches.history(game, 1)] == [
        (1, "created"),
        (2, "edited"),
    ]


def test_a_hand_saved_in_greek_is_stored_in_english_and_read_in_each_language(
    match: tuple[Match, User],
) -> None:
    game, user = match
    with using(catalog("el")):
        hand, _ = matches.record_hand(game, user, typed(game, REFERENCE_HAND))
    labels = [line["label"] for line in hand.result["teams"][0]["lines"]]
    assert labels[0] == "Cards melded" and labels[-1] == "Went out"
    with using(catalog("el")):
        shown = matches.shown_hand(game, hand)
    greek = [line.label for line in shown.teams[0].lines]
    assert greek[0] == "Κατεβασμένα φύλλα" and greek[-1] == "Κλείσιμο"
    assert [t.score for t in shown.teams] == [665, -95]
    # In English the stored result is shown as it is stored.
    assert matches.shown_hand(game, hand) == ScoredHand.from_json(hand.result)


#: Hands whose words cover problems of the hand, of a side and of a meld, joker names and
#: the opening's words: each is saved with its problems accepted.
WORDY_HANDS = {
    "reference": REFERENCE_HAND,
    "illegal meld": ILLEGAL_MELD_HAND,
    "jokers and both out": {
        "kozi": "H",
        "teams": [
            {
                "name": "A",
                "melds": ["JK JK 3H", "4S 5S JK 7S 8S 9S 10S"],
                "hands": ["JK JK", ""],
                "went_out": True,
            },
            {"name": "B", "melds": ["3C 4C 6C"], "hands": ["", ""], "went_out": True},
        ],
    },
}


@pytest.mark.parametrize("name", WORDY_HANDS)
def test_a_stored_result_is_shown_in_greek_from_its_words_without_scoring_again(
    match: tuple[Match, User], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    game, user = match
    hand, _ = matches.record_hand(
        game, user, typed(game, WORDY_HANDS[name]), accepted_reason="as played"
    )
    assert hand.result["problems"] or name == "reference"
    db.session.expire_all()  # the result as the database gives it back: JSON
    with using(catalog("el"), "el"):
        rescored = scored_afresh(game, hand).worded()
    monkeypatch.setattr(view, "score_entry", _no_scoring)
    with using(catalog("el"), "el"):
        shown = matches.shown_hand(game, hand)
        [version] = matches.history(game, hand.number)
        shown_version = matches.shown_version(game, version, None)
    assert shown == rescored
    assert shown_version == rescored
    # the stored result itself stays English
    assert matches.shown_hand(game, hand) == ScoredHand.from_json(hand.result)


def test_a_result_stored_before_it_had_words_is_scored_again(
    match: tuple[Match, User],
) -> None:
    game, user = match
    hand, _ = matches.record_hand(game, user, typed(game, REFERENCE_HAND))
    hand.result = {k: v for k, v in hand.result.items() if k != "words"}
    with using(catalog("el"), "el"):
        shown = matches.shown_hand(game, hand)
    assert shown.teams[0].lines[0].label == "Κατεβασμένα φύλλα"
    # words that do not fit their result (an edited file) are not trusted either
    hand.result = {**hand.result, "words": {"problems": [], "teams": []}}
    with using(catalog("el"), "el"):
        assert matches.shown_hand(game, hand).teams[0].lines[-1].label == "Κλείσιμο"


def test_words_that_format_more_than_plain_fields_are_scored_again(
    match: tuple[Match, User],
) -> None:
    """An imported file's words are data, not code: a template that pads, indexes or reads an
    attribute is not formatted, and the hand is scored again instead."""
    game, user = match
    hand, _ = matches.record_hand(game, user, typed(game, REFERENCE_HAND))
    for template in ("{team:>999999999}", "{team.__class__}", "{team[0]}"):
        words = copy.deepcopy(hand.result["words"])
        words["teams"][0]["lines"][0] = {"msg": template, "values": {"team": "A"}}
        hand.result = {**hand.result, "words": words}
        with using(catalog("el")):
            shown = matches.shown_hand(game, hand)
        assert shown.teams[0].lines[0].label == "Κατεβασμένα φύλλα"


def test_the_api_keeps_its_english_hand_without_the_words(match: tuple[Match, User]) -> None:
    game, user = match
    hand, _ = matches.record_hand(
        game, user, typed(game, ILLEGAL_MELD_HAND), accepted_reason="as played"
    )
    shown = matches.hand_json(hand)
    assert "words" not in shown and "words" not in str(shown["teams"])
    assert shown["problems"][0].startswith("The meld 3♥ 5♠ 9♦ of A is not legal.")


def _no_scoring(*_args: object) -> None:
    raise AssertionError("a stored result with words is shown without scoring it again")
