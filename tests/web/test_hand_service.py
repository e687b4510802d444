"""The hand use cases on a real database: retries, deletions and versions."""

import pytest
from support.catalog import catalog
from support.hand_entries import REFERENCE_HAND
from support.world import new_club, pagat_match

from scorekeeper.models import Match, User
from scorekeeper.rules.i18n import using
from scorekeeper.services import hands, matches
from scorekeeper.services.errors import Conflict


@pytest.fixture
def match(owner: User) -> tuple[Match, User]:
    club, ids = new_club(owner)
    return pagat_match(club, owner, list(ids.values())), owner


def test_a_retry_after_the_hand_was_deleted_says_it_is_deleted(
    match: tuple[Match, User],
) -> None:
    game, user = match
    hand, created = hands.record_hand(game, user, REFERENCE_HAND, idempotency_key="tap-1")
    assert created
    hands.delete_hand(game, hand.number, user, expected_version=1)
    again, created_again = hands.record_hand(game, user, REFERENCE_HAND, idempotency_key="tap-1")
    assert not created_again
    assert matches.hand_json(again)["deleted"] is True
    assert [h["number"] for h in matches.match_json(game)["hands"]] == []


def test_scores_and_versions_follow_an_edit(match: tuple[Match, User]) -> None:
    game, user = match
    hands.record_hand(game, user, REFERENCE_HAND)
    assert [t["score"] for t in matches.match_json(game)["teams"]] == [665, -95]
    # With spades as kózi, A's clean spade run is worth 400 and its heart run 100: +100.
    hands.edit_hand(game, 1, user, REFERENCE_HAND | {"kozi": "S"}, expected_version=1)
    assert [t["score"] for t in matches.match_json(game)["teams"]] == [765, -95]
    with pytest.raises(Conflict):
        hands.edit_hand(game, 1, user, REFERENCE_HAND, expected_version=1)
    assert [(v.version, v.action) for v in hands.history(game, 1)] == [
        (1, "created"),
        (2, "edited"),
    ]


def test_a_hand_saved_in_greek_is_stored_in_english_and_read_in_each_language(
    match: tuple[Match, User],
) -> None:
    game, user = match
    with using(catalog("el")):
        hand, _ = hands.record_hand(game, user, REFERENCE_HAND)
    labels = [line["label"] for line in hand.result["teams"][0]["lines"]]
    assert labels[0] == "Cards melded" and labels[-1] == "Went out"
    with using(catalog("el")):
        shown = hands.display_result(game, hand)
    greek = [line["label"] for line in shown["teams"][0]["lines"]]
    assert greek[0] == "Κατεβασμένα φύλλα" and greek[-1] == "Κλείσιμο"
    assert [t["score"] for t in shown["teams"]] == [665, -95]
    assert hands.display_result(game, hand) is hand.result
