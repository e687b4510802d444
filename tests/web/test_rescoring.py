"""Rescoring after a correction or a deletion (issue 11, item 4): each later hand is scored
once against totals carried forward, never by replaying the match for every hand, and what
is stored equals the same hands entered afresh into a new match."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.hand_entries import A_WINS, B_WINS, LOSERS, WINNERS, typed
from support.replay import live_hands
from support.world import new_club

from scorekeeper import match as matches
from scorekeeper.errors import Conflict, Invalid
from scorekeeper.exchange import club_import
from scorekeeper.match import TeamSpec, scoring, writes
from scorekeeper.models import Club, Match, User
from scorekeeper.rules import match as match_rules

#: Under `wikipedia` a team's opening need follows its total (75, 90 from 1,500, more than
#: 120 from 3,000) and a stored result names it, so a correction moves later hands' results.
NOBODY_OUT = {"kozi": "S", "teams": [{"name": "A", **LOSERS}, {"name": "B", **LOSERS}]}
#: A's opening names its cards (30 points, short of any need), so its problem names A's score
#: before the hand: a later correction must score it again even where the need stays.
OPENED = {
    "kozi": "H",
    "teams": [{"name": "A", **WINNERS, "opening": "QD QC QH"}, B_WINS["teams"][1]],
}
ENTRIES = (A_WINS, B_WINS, NOBODY_OUT, OPENED)
REASON = "played so at the table"
_names = itertools.count()


def long_match(club: Club, user: User, entries: list[dict[str, Any]]) -> Match:
    """A wikipedia match for four that nobody wins soon, with `entries` saved in order."""
    ids = [p.id for p in club.players]
    teams = [TeamSpec("A", (ids[0], ids[2])), TeamSpec("B", (ids[1], ids[3]))]
    match = matches.create_match(club, user, "wikipedia", "4p", teams, target=1_000_000)
    for entry in entries:
        matches.record_hand(match, user, typed(match, entry), accepted_reason=REASON)
    return match


def stored(match: Match) -> list[dict[str, Any]]:
    return [h.result for h in sorted(live_hands(match), key=lambda h: h.number)]


@pytest.fixture
def club(owner: User) -> Club:
    return new_club(owner, f"Friday {next(_names)}")[0]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """How often the engine counted a hand into totals, and scored a hand, from here on."""
    calls = {"credits": 0, "scored": 0}

    def counting(name: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls[name] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(match_rules, "credits", counting("credits", match_rules.credits))
    monkeypatch.setattr(scoring, "score_hand", counting("scored", scoring.score_hand))
    yield calls


HANDS = 40


def test_correcting_hand_1_counts_each_hand_a_few_times_not_once_per_later_hand(
    owner: User, club: Club, counted: dict[str, int]
) -> None:
    match = long_match(club, owner, [A_WINS, B_WINS] * (HANDS // 2))
    counted.update(credits=0, scored=0)
    matches.edit_hand(
        match, 1, owner, typed(match, NOBODY_OUT), expected_version=1, accepted_reason=REASON
    )
    # Replaying the earlier hands for every later one counted 40 · 39 / 2 = 780 hands.
    assert counted["credits"] <= 4 * HANDS
    # The corrected hand, then each later hand at most once.
    assert 1 < counted["scored"] <= HANDS


def test_a_correction_rescores_no_later_hand_where_the_score_before_cannot_count(
    owner: User, club: Club, counted: dict[str, int]
) -> None:
    """pagat has no opening table: no later hand's result depends on the totals before it."""
    ids = [p.id for p in club.players]
    teams = [TeamSpec("A", (ids[0], ids[2])), TeamSpec("B", (ids[1], ids[3]))]
    match = matches.create_match(club, owner, "pagat", "4p", teams, target=1_000_000)
    for entry in [A_WINS, B_WINS] * 10:
        matches.record_hand(match, owner, typed(match, entry))
    counted.update(credits=0, scored=0)
    matches.edit_hand(match, 1, owner, typed(match, B_WINS), expected_version=1)
    assert counted["scored"] == 1
    assert [t["score"] for t in matches.match_json(match)["teams"]] == [
        665 * 9 - 95 * 11,
        665 * 11 - 95 * 9,
    ]


def test_correcting_the_last_hand_scores_no_other(
    owner: User, club: Club, counted: dict[str, int]
) -> None:
    match = long_match(club, owner, [A_WINS, B_WINS] * (HANDS // 2))
    counted.update(credits=0, scored=0)
    matches.edit_hand(
        match, HANDS, owner, typed(match, NOBODY_OUT), expected_version=1, accepted_reason=REASON
    )
    assert counted["scored"] == 1
    matches.delete_hand(match, HANDS - 1, owner, expected_version=1)
    assert counted["scored"] <= 2  # at most the hand after the deleted one
    assert counted["credits"] <= 2 * 4 * HANDS  # two changes, each counting a few passes


def test_a_correction_that_keeps_the_score_rescores_nothing_after_it(
    owner: User, club: Club, counted: dict[str, int]
) -> None:
    match = long_match(club, owner, [A_WINS, B_WINS] * (HANDS // 2))
    before = stored(match)
    counted.update(credits=0, scored=0)
    # The same hand with its melds in another order: the same score, the same totals after.
    reordered = {**A_WINS, "teams": [{**A_WINS["teams"][0]}, A_WINS["teams"][1]]}
    reordered["teams"][0]["melds"] = list(reversed(WINNERS["melds"]))
    matches.edit_hand(
        match, 1, owner, typed(match, reordered), expected_version=1, accepted_reason=REASON
    )
    assert counted["scored"] == 1
    assert stored(match)[1:] == before[1:]  # hand 1 lists its melds in the new order


def test_importing_a_long_match_counts_each_hand_a_few_times(
    owner: User, club: Club, counted: dict[str, int]
) -> None:
    from scorekeeper.exchange.club_export import export_club

    long_match(club, owner, [A_WINS, B_WINS] * (HANDS // 2))
    document = export_club(club)
    counted.update(credits=0, scored=0)
    club_import.import_club(document, owner=owner)
    assert counted["scored"] == HANDS
    assert counted["credits"] <= 4 * HANDS


operations = st.lists(
    st.tuples(
        st.sampled_from(["edit", "delete"]),
        st.integers(min_value=0, max_value=20),
        st.sampled_from(range(len(ENTRIES))),
    ),
    min_size=1,
    max_size=4,
)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    first=st.lists(st.sampled_from(range(len(ENTRIES))), min_size=2, max_size=9),
    changes=operations,
)
def test_corrections_store_what_entering_the_hands_afresh_would(
    owner: User, first: list[int], changes: list[tuple[str, int, int]]
) -> None:
    club = new_club(owner, f"Friday {next(_names)}")[0]
    match = long_match(club, owner, [ENTRIES[i] for i in first])
    for action, pick, entry in changes:
        live = sorted(live_hands(match), key=lambda h: h.number)
        if not live:
            break
        hand = live[pick % len(live)]
        if action == "edit":
            matches.edit_hand(
                match,
                hand.number,
                owner,
                typed(match, ENTRIES[entry]),
                expected_version=hand.version,
                accepted_reason=REASON,
            )
        else:
            matches.delete_hand(match, hand.number, owner, expected_version=hand.version)
    entries = [h.entry for h in sorted(live_hands(match), key=lambda h: h.number)]
    fresh = long_match(
        club,
        owner,
        [{"kozi": e["kozi"], "teams": [_as_entered(t) for t in e["teams"]]} for e in entries],
    )
    assert stored(match) == stored(fresh)
    assert matches.match_json(match)["teams"] == matches.match_json(fresh)["teams"]


def _as_entered(side: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in side.items() if k != "players"}


# --- the longest match (issue 11, item 3) -------------------------------------------------------


def club_file(club: Club, live: int, deleted: int = 0) -> dict[str, Any]:
    """`club` exported with one match of `live` hands (and `deleted` deleted ones)."""
    from scorekeeper.exchange.club_export import export_club

    document = export_club(club)
    players = [p["id"] for p in document["players"]]
    listed = [
        {
            "number": n,
            "entry": {
                "kozi": "H",
                "teams": [
                    {"name": "A", "players": players[0:4:2], **WINNERS},
                    {"name": "B", "players": players[1:4:2], **LOSERS},
                ],
            },
            "deleted": n > live,
            "result": {"legal": True, "problems": [], "teams": []},
            "updated_at": "2026-03-01T10:00:00+00:00",
        }
        for n in range(1, live + deleted + 1)
    ]
    document["matches"] = [
        {
            "variant": "pagat",
            "options": {"target": 1_000_000},
            "format": "4p",
            "created_at": "2026-03-01T10:00:00+00:00",
            "teams": [{"name": "A"}, {"name": "B"}],
            "seats": [{"player": p, "team": i % 2} for i, p in enumerate(players[:4])],
            "hands": listed,
        }
    ]
    return document


def test_an_import_with_a_match_longer_than_the_longest_is_refused_naming_it(
    owner: User, club: Club, counted: dict[str, int]
) -> None:
    document = club_file(club, matches.MAX_HANDS + 1)
    with pytest.raises(Invalid) as refused:
        club_import.import_club(document, owner=owner)
    assert refused.value.message == (
        f"matches[0] has {matches.MAX_HANDS + 1} hands; a match holds at most {matches.MAX_HANDS}."
    )
    assert counted["scored"] == 0  # refused before any hand was scored


def test_the_longest_match_imports_and_deleted_hands_do_not_count(owner: User, club: Club) -> None:
    imported = club_import.import_club(club_file(club, matches.MAX_HANDS, deleted=3), owner=owner)
    assert imported.hands == matches.MAX_HANDS + 3
    match = imported.club.matches[0]
    assert len(live_hands(match)) == matches.MAX_HANDS
    # Its scores are the engine's, carried from hand to hand: 665 − 95 each hand.
    assert [t["score"] for t in matches.match_json(match)["teams"]] == [
        665 * matches.MAX_HANDS,
        -95 * matches.MAX_HANDS,
    ]


def test_a_match_takes_no_hand_past_the_longest(
    owner: User, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(writes, "MAX_HANDS", 3)  # the rule, on a match short enough to test
    match = long_match(club, owner, [A_WINS] * 3)
    with pytest.raises(Conflict) as refused:
        matches.record_hand(match, owner, typed(match, B_WINS), accepted_reason=REASON)
    assert refused.value.message == (
        "This match has 3 hands, the most one match holds; start a new match to play on."
    )
    matches.delete_hand(match, 3, owner, expected_version=1)
    matches.record_hand(match, owner, typed(match, B_WINS), accepted_reason=REASON)  # room again
    assert len(live_hands(match)) == 3


def test_a_hand_made_files_match_takes_corrections_after_its_import(
    owner: User, club: Club
) -> None:
    """A file written by hand (results left empty for the import to make) takes
    corrections and deletions like a match played here."""
    imported = club_import.import_club(club_file(club, 6), owner=owner)
    match = imported.club.matches[0]
    matches.edit_hand(match, 1, owner, typed(match, B_WINS), expected_version=1)
    matches.delete_hand(match, 2, owner, expected_version=1)
    assert [t["score"] for t in matches.match_json(match)["teams"]] == [
        665 * 4 - 95,  # A won hands 3 to 6 of the file's six; B won hand 1 as corrected
        665 - 95 * 4,
    ]
