"""The typed hand entry: its stored JSON both ways, and every edge's reading of a hand (the
API's and a club file's JSON, the hand form) into it, each refusal in the words of old."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask_babel import Babel
from support.catalog import catalog
from support.hand_entries import ILLEGAL_MELD_HAND, REFERENCE_HAND, typed
from support.world import new_club, pagat_match
from werkzeug.datastructures import MultiDict

from scorekeeper import match as matches
from scorekeeper.errors import Invalid
from scorekeeper.match import HandEntry, Seating, SideEntry, read_hand
from scorekeeper.models import Match, User
from scorekeeper.play.hand_forms import EntryLayout, HandForm
from scorekeeper.rules.cards import Suit
from scorekeeper.rules.scoring import Cut

#: Two fixed teams, A (players 1 and 2) and B (3 and 4), as in a 4p match.
TEAMS = Seating(
    format_id="4p",
    shapes=frozenset({(2, 2)}),
    teams=(("A", (1, 2)), ("B", (3, 4))),
    seated=((1, "Ann"), (3, "Bo"), (2, "Cy"), (4, "Di")),
)
#: Three players who form their sides each hand: one alone against a pair.
SHARES = Seating(
    format_id="3p-partnership",
    shapes=frozenset({(1, 2)}),
    teams=(),
    seated=((1, "Ann"), (2, "Bo"), (3, "Cy")),
)
#: Every field a side can have, each set.
FULL_SIDE = SideEntry(
    name="A",
    players=(1, 2),
    melds=("5S-JS", "QD QC QH"),
    hand_points=15,
    went_out=True,
    took_biribaki=True,
    opening_melds=(0, 1),
    cut=Cut.EXACT,
    failed_openings=2,
    biribaki_unplayed="3C 4C",
)


@pytest.fixture(scope="module", autouse=True)
def _babel() -> Iterator[None]:
    """The service's words need an app with Flask-Babel; these tests need no database."""
    flask_app = Flask(__name__)
    Babel(flask_app)
    with flask_app.app_context():
        yield


# --- the stored JSON ----------------------------------------------------------------------------


def test_an_entry_round_trips_through_its_stored_json() -> None:
    other = SideEntry("B", (3, 4), melds=("3C 4C 5C",), hands=("AS 9D", ""), opening="3C 4C 5C")
    entry = HandEntry(Suit.HEARTS, (FULL_SIDE, other))
    stored = entry.to_json()
    assert stored == {
        "kozi": "H",
        "teams": [
            {
                "name": "A",
                "players": [1, 2],
                "melds": ["5S-JS", "QD QC QH"],
                "went_out": True,
                "took_biribaki": True,
                "hand_points": 15,
                "opening_melds": [0, 1],
                "cut": "exact",
                "failed_openings": 2,
                "biribaki_unplayed": "3C 4C",
            },
            {
                "name": "B",
                "players": [3, 4],
                "melds": ["3C 4C 5C"],
                "went_out": False,
                "took_biribaki": False,
                "hands": ["AS 9D", ""],
                "opening": "3C 4C 5C",
            },
        ],
    }
    assert HandEntry.from_json(stored) == entry
    assert HandEntry.from_json(stored).to_json() == stored


def test_an_old_row_reads_as_it_was_typed() -> None:
    """Rows stored before the entry was typed: the kózi as typed, card tokens, no flags."""
    old = {
        "kozi": "♥",
        "teams": [
            {"name": "A", "players": [1, 2], "melds": [["5S", "6S", "7S"]], "hands": ["", ""]},
            {"name": "B", "players": [3, 4], "hand_points": 30, "opening_melds": []},
        ],
    }
    entry = HandEntry.from_json(old)
    assert entry.kozi is Suit.HEARTS
    assert entry.teams[0].melds == ("5S 6S 7S",)
    assert entry.teams[0].went_out is False and entry.teams[1].took_biribaki is False
    assert entry.teams[1].opening_melds is None and not entry.teams[1].named_opening
    assert HandEntry.from_json({"kozi": None, "teams": []}) == HandEntry(None, ())


def test_a_row_no_form_would_write_still_reads() -> None:
    """The history shows every old version: reading a stored row never refuses it."""
    odd = {
        "kozi": " h",
        "teams": [
            {
                "name": "A",
                "cut": ["x"],
                "players": [1, True, "2"],
                "melds": "5S",
                "hand_points": True,
            },
            "junk",
        ],
    }
    assert HandEntry.from_json(odd) == HandEntry(Suit.HEARTS, (SideEntry("A", (1,)),))
    assert HandEntry.from_json({"kozi": 5, "teams": {}}) == HandEntry(None, ())


# --- the API's JSON ----------------------------------------------------------------------------


def test_the_api_reads_a_hand_once_into_the_entry() -> None:
    entry = read_hand(REFERENCE_HAND, TEAMS)
    assert entry.kozi is Suit.HEARTS
    a, b = entry.teams
    assert (a.name, a.players, b.name, b.players) == ("A", (1, 2), "B", (3, 4))
    assert a.melds == tuple(REFERENCE_HAND["teams"][0]["melds"])
    assert (a.went_out, a.took_biribaki, b.went_out, b.took_biribaki) == (True, True, False, False)
    assert b.hands == ("AS 9D", "JK 4H")
    # what the service stores reads back as the same entry
    assert read_hand(entry.to_json(), TEAMS) == entry == HandEntry.from_json(entry.to_json())


def test_the_api_takes_cards_as_tokens_and_names_fixed_teams_by_position() -> None:
    hand = copy.deepcopy(REFERENCE_HAND)
    for side in hand["teams"]:
        del side["name"]
    hand["teams"][0]["melds"][0] = ["5S", "6S", "7S", "8S", "9S", "10S", "JS"]
    hand["teams"][0]["players"] = [4]  # a fixed team's players are its own, whatever it says
    entry = read_hand(hand, TEAMS)
    assert [(s.name, s.players) for s in entry.teams] == [("A", (1, 2)), ("B", (3, 4))]
    assert entry.teams[0].melds[0] == "5S 6S 7S 8S 9S 10S JS"


def test_sides_of_a_share_format_are_named_after_their_players() -> None:
    hand = {"kozi": "S", "teams": [{"players": [2]}, {"players": [1, 3], "name": "Us"}]}
    entry = read_hand(hand, SHARES)
    assert [(s.name, s.players) for s in entry.teams] == [("Bo", (2,)), ("Us", (1, 3))]


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    """A change to a copy of the reference hand: `path` like "teams.0.went_out"."""

    def change(hand: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = hand
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value

    return change


REFUSED = [
    (_set("teams", {}), "'teams' must list every side of the hand."),
    (_set("teams", []), "'teams' must list every side of the hand."),
    (_set("trumps", "H"), '"trumps" is not a field of a hand.'),
    (_set("teams.1", "B"), "Side 2 must be an object."),
    (_set("teams.0.score_before", 0), "'score_before' comes from the match itself; leave it out."),
    (lambda h: h["teams"].pop(), "This match has 2 teams; enter each of them once."),
    (_set("teams.0.name", "C"), '"C" is not a team of this match (A, B).'),
    (_set("teams.0.name", ["A"]), '["A"] is not a team of this match (A, B).'),
    (_set("teams.1.name", "A"), "A team is entered twice; enter each team once."),
    (_set("kozi", "purple"), "'kozi' cannot be \"purple\": use S, H, D or C (or ♠ ♥ ♦ ♣), or null"),
    (_set("teams.0.trumps", 3), 'Team A: "trumps" is not a field of a team'),
    (_set("teams.0.melds", "5S-JS"), "Team A: 'melds' must be a list of melds, one text each"),
    (
        _set("teams.0.melds", ["3H 4H 5H"] * 55),
        "Team A: 'melds' lists 55 melds; a team has at most 54",
    ),
    (_set("teams.1.hand_points", 5), "Team B: give either 'hands' or 'hand_points', not both"),
    (
        _set("teams.1.hands", "AS"),
        "Team B: 'hands' must be a list with the cards of each player's hand",
    ),
    (
        _set("teams.1.hands", [""] * 7),
        "Team B: 'hands' lists 7 hands; a team has at most 6 players",
    ),
    (
        _set("teams.0.opening_melds", [5]),
        "Team A: 'opening_melds' names meld 5, but 'melds' has indexes 0 to 2",
    ),
    (_set("teams.0.opening_melds", [0, 0]), "Team A: 'opening_melds' names a meld twice: [0, 0]"),
    (
        _set("teams.0.opening_melds", ["0"]),
        "Team A: 'opening_melds' must be a list of meld indexes (from 0), "
        'such as [0, 2], not ["0"]',
    ),
    (
        _set("teams.0.melds.1", 7),
        'Team A, meld 2 must be cards as text, such as "3H 4H 5H", not 7',
    ),
    (
        _set("teams.1.hands.0", "5S " * 400),
        "Team B, hand 1 may be at most 1000 characters of cards",
    ),
    (_set("teams.0.went_out", "yes"), "Team A: 'went_out' must be true or false, not \"yes\""),
    (_set("teams.1.took_biribaki", 1), "Team B: 'took_biribaki' must be true or false, not 1"),
    (
        _set("teams.0.cut", "deep"),
        'Team A: \'cut\' cannot be "deep": use "exact", "off_by_one" or null',
    ),
    (
        _set("teams.0.failed_openings", -1),
        "Team A: 'failed_openings' must be a whole number from 0 to 100, not -1",
    ),
    (
        _set("teams.0.biribaki_unplayed", {}),
        'Team A, biribaki_unplayed must be cards as text, such as "3H 4H 5H", not {}',
    ),
]


@pytest.mark.parametrize(("change", "words"), REFUSED)
def test_every_refusal_of_the_api_names_the_value(
    change: Callable[[dict[str, Any]], None], words: str
) -> None:
    hand = copy.deepcopy(REFERENCE_HAND)
    change(hand)
    with pytest.raises(Invalid) as refused:
        read_hand(hand, TEAMS)
    assert refused.value.message == words


def test_an_opening_given_both_ways_is_refused() -> None:
    hand = copy.deepcopy(REFERENCE_HAND)
    hand["teams"][0] |= {"opening": "5S-JS", "opening_melds": [0]}
    with pytest.raises(Invalid, match="give the opening as 'opening' cards or as 'opening_melds'"):
        read_hand(hand, TEAMS)


@pytest.mark.parametrize("body", [[REFERENCE_HAND], "hand", None])
def test_a_hand_that_is_no_object_is_refused(body: Any) -> None:
    with pytest.raises(Invalid, match=r"^A hand must be a JSON object with 'kozi' and 'teams'\.$"):
        read_hand(body, TEAMS)


SHARE_REFUSALS = [
    ([[1], [2, 3, 1]], "Ann is on two sides; each player plays on one."),
    ([[1], [2]], "Cy must be on a side too; everyone at the table plays."),
    ([[1, 2, 3], []], "Side 2 must list its players by id."),
    ([[1], None], "Side 2 must list its players by id."),
    ([[1], [2, 9]], "Player 9 has no seat at this table."),
    ([[1], [2, True]], "Player true has no seat at this table."),
    ([[1], [2, [3]]], "Player [3] has no seat at this table."),
    (
        [[1], [2], [3]],
        "The 3p-partnership format plays one player alone against the others "
        "(in pairs, or all together); these sides do not fit it.",
    ),
]


@pytest.mark.parametrize(("players", "words"), SHARE_REFUSALS)
def test_every_refusal_of_sides_in_a_share_format(players: list[Any], words: str) -> None:
    sides = [{} if ids is None else {"players": ids} for ids in players]
    with pytest.raises(Invalid) as refused:
        read_hand({"kozi": "S", "teams": sides}, SHARES)
    assert refused.value.message == words


def test_a_side_named_with_no_text_is_refused() -> None:
    sides = [{"players": [1], "name": 5}, {"players": [2, 3]}]
    with pytest.raises(Invalid, match=r"^Team 1: 'name' must be text$"):
        read_hand({"kozi": "S", "teams": sides}, SHARES)


# --- on a match: the form, a club file, and the Greek words ---------------------------------------


@pytest.fixture
def match(owner: User) -> Match:
    club, ids = new_club(owner)
    return pagat_match(club, owner, list(ids.values()))


def _posted(form: HandForm) -> MultiDict[str, str]:
    """What the browser posts for a filled form (as the template names its fields)."""
    data: MultiDict[str, str] = MultiDict({"kozi": form.kozi})
    for i, side in enumerate(form.sides):
        for meld in side.meld_rows():
            data.add(f"s{i}-meld", meld)
        for flag, on in (("out", side.went_out), ("biribaki", side.took_biribaki)):
            if on:
                data[f"s{i}-{flag}"] = "on"
        for field in ("cut", "failed", "opening", "unplayed", "points"):
            data[f"s{i}-{field}"] = getattr(side, field)
    for pid, cards in form.hand_of.items():
        data[f"p{pid}-hand"] = cards
    return data


def test_the_form_reads_back_the_entry_it_shows(match: Match) -> None:
    entry = typed(match, REFERENCE_HAND)
    layout = EntryLayout.of(match)
    shown = HandForm.from_entry(layout, entry)
    again = HandForm.from_request(layout, _posted(shown)).entry()
    assert again == entry


def test_the_form_refuses_what_it_cannot_read(match: Match) -> None:
    layout = EntryLayout.of(match)
    form = HandForm.from_entry(layout, typed(match, REFERENCE_HAND))
    data = _posted(form)
    data["s1-points"] = "lots"
    data["kozi"] = ""
    refused = HandForm.from_request(layout, data)
    assert refused.entry() is None
    assert refused.errors == [
        "Give the cards left in the hands of B as cards or as a point total, not both."
    ]


def test_a_saved_hand_stores_its_entry_as_json(match: Match, owner: User) -> None:
    hand, _ = matches.record_hand(match, owner, typed(match, ILLEGAL_MELD_HAND), "as played")
    assert HandEntry.from_json(hand.entry) == typed(match, ILLEGAL_MELD_HAND)
    assert hand.entry["teams"][1] == {
        "name": "B",
        "players": list(typed(match, ILLEGAL_MELD_HAND).teams[1].players),
        "melds": [],
        "went_out": False,
        "took_biribaki": False,
        "hands": ["AS", "4H"],
    }


def test_sides_are_refused_in_greek_too(app: Flask) -> None:
    message = "%(players)s must be on a side too; everyone at the table plays."
    greek = catalog("el").gettext(message)
    assert greek != message
    sides = {"kozi": "S", "teams": [{"players": [1]}, {"players": [2]}]}
    with app.test_request_context(headers={"Cookie": "lang=el"}), pytest.raises(Invalid) as no:
        read_hand(sides, SHARES)
    assert no.value.message == greek % {"players": "Cy"}
