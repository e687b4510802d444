"""The match's one front door, checked from outside (issue 17): the JSON API, the hand form and
a club file refuse the same bad entries with the same problems (one reader), every refusal of
theirs speaks Greek on a Greek page, the phone's pages replay no match, a save scores its
hand once in any language, and one module reads a stored result by its keys."""

from __future__ import annotations

import ast
import copy
import html
import io
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, g
from flask.testing import FlaskClient
from support.hand_entries import REFERENCE_HAND, form_fields
from support.world import new_club, signed_in
from werkzeug.datastructures import MultiDict

import scorekeeper
from scorekeeper import match as matches
from scorekeeper.accounts import service as accounts
from scorekeeper.errors import Invalid
from scorekeeper.exchange import club_import
from scorekeeper.exchange.club_export import export_club
from scorekeeper.extensions import db
from scorekeeper.match import TeamSpec
from scorekeeper.models import Match, User
from scorekeeper.rules import match as match_rules
from scorekeeper.rules import scoring as rules_scoring

#: The reference hand of rules/presets.md (A 665, B −95 under pagat, kózi ♥), as the API takes
#: it; the form's fields and a club file's hand are made from it.
REFERENCE = REFERENCE_HAND


def changed(*changes: tuple[str, Any]) -> dict[str, Any]:
    """The reference hand with each change made: a path like "teams.1.melds.1" and a value."""
    hand = copy.deepcopy(REFERENCE)
    for path, value in changes:
        *parents, last = path.split(".")
        target: Any = hand
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value
    return hand


#: Bad entries every edge can send: the form as well as the API and a club file.
BAD_ENTRIES = {
    "a card that is none": changed(("teams.1.melds.1", "KS KQ JK")),
    "a meld too long to be cards": changed(("teams.0.melds.0", "5S " * 400)),
    "more melds than a team lays": changed(("teams.0.melds", ["3H 4H 5H"] * 55)),
    "more cards than the decks": changed(("teams.0.melds", ["AS AS AS"] * 37)),
    "a bad card left in a hand": changed(("teams.1.hands", ["9Z", "JK 4H"])),
    "a bad card in the pot not played": changed(("teams.0.biribaki_unplayed", "2H XX")),
    "two problems at once": changed(
        ("teams.1.melds.1", "KS KQ JK"), ("teams.1.hands", ["9Z", "JK 4H"])
    ),
}


class Table:
    """A pagat match for four (A: Ann & Cy, B: Bob & Di) in eleni's club, and a token."""

    def __init__(self, app: Flask, owner: User) -> None:
        club, self.ids = new_club(owner)
        teams = [
            TeamSpec("A", (self.ids["Ann"], self.ids["Cy"])),
            TeamSpec("B", (self.ids["Bob"], self.ids["Di"])),
        ]
        match = matches.create_match(club, owner, "pagat", "4p", teams, target=1_000_000)
        self.match_id, self.club_id, self.owner_id = match.id, club.id, owner.id
        self.token = accounts.create_token(owner, "tests")
        self.app = app
        self.club = club

    @property
    def match(self) -> Match:
        found = db.session.get(Match, self.match_id)
        assert found is not None
        return found

    def seating(self) -> matches.Seating:
        return matches.seating_of(self.match)

    def client(self, language: str = "en") -> FlaskClient:
        g.pop("_login_user", None)  # the next request loads its own user
        client = signed_in(self.app.test_client(), self.owner_id)
        client.set_cookie("lang", language)
        return client

    # --- the three edges ------------------------------------------------------------------

    def api(self, entry: Any, language: str = "en", **headers: str) -> tuple[int, list[str]]:
        """The hand sent to the JSON API; its status and every problem it names."""
        response = self.app.test_client().post(
            f"/api/v1/matches/{self.match_id}/hands",
            json=entry,
            headers={
                "Authorization": f"Bearer {self.token}",
                "Accept-Language": language,
                **headers,
            },
        )
        body = response.get_json()
        if response.status_code < 300:
            return response.status_code, []
        said = body.get("errors") or [body["error"]]
        return response.status_code, [*said, *body.get("problems", [])]

    def form(self, entry: dict[str, Any], language: str = "en") -> tuple[int, list[str]]:
        """The hand typed into the hand form and saved (as the Save button sends it)."""
        response = self.client(language).post(
            f"/matches/{self.match_id}/hands/new",
            data=self.fields(entry),
            headers={"Accept": "application/json"},
        )
        body = response.get_json()
        if response.status_code < 300:
            return response.status_code, []
        return response.status_code, [*body["errors"], *body["problems"]]

    def fields(self, entry: dict[str, Any]) -> MultiDict[str, str]:
        """`entry` as the hand form's fields, saved."""
        members = [(self.ids["Ann"], self.ids["Cy"]), (self.ids["Bob"], self.ids["Di"])]
        return MultiDict([*form_fields(entry, members), ("save", "1")])

    def club_file(self, entry: dict[str, Any]) -> dict[str, Any]:
        """The club as a file, its match holding one live hand: `entry`."""
        document = export_club(self.club)
        document["matches"][0]["hands"] = [
            {
                "number": 1,
                "version": 1,
                "entry": entry,
                "deleted": False,
                "updated_at": "2026-11-27T20:00:00+00:00",
            }
        ]
        return document

    def imported(self, entry: dict[str, Any]) -> list[str]:
        """The club file imported by the service: every problem it names, each without the
        place in the file that it names first."""
        with pytest.raises(Invalid) as refused:
            club_import.import_club(
                self.club_file(entry), owner=db.session.get(User, self.owner_id)
            )
        place = "matches[0].hands[0].entry: "
        lines = refused.value.message.split("\n")
        assert all(line.startswith(place) for line in lines), lines
        return [line.removeprefix(place) for line in lines]

    def import_page(self, entry: dict[str, Any], language: str) -> tuple[int, list[str]]:
        """The club file uploaded on the import page."""
        body = json.dumps(self.club_file(entry)).encode()
        response = self.client(language).post(
            "/clubs/import",
            data={"file": (io.BytesIO(body), "club.json")},
            content_type="multipart/form-data",
        )
        page = html.unescape(response.get_data(as_text=True))
        (errors,) = re.findall(r'<ul class="field-errors"[^>]*>(.*?)</ul>', page, re.S)
        said = re.findall(r"<li>(.*?)</li>", errors, re.S)
        return response.status_code, [line for item in said for line in item.split("\n")]


@pytest.fixture
def table(app: Flask, owner: User) -> Table:
    return Table(app, owner)


@pytest.mark.parametrize("case", BAD_ENTRIES)
def test_every_edge_refuses_a_bad_entry_with_the_same_problems(table: Table, case: str) -> None:
    entry = BAD_ENTRIES[case]
    api_status, by_api = table.api(entry)
    form_status, by_form = table.form(entry)
    by_file = table.imported(entry)
    assert (api_status, form_status) == (400, 400)
    assert by_api == by_form == by_file, case
    assert len(by_api) == (2 if case == "two problems at once" else 1)
    assert matches.match_json(table.match)["hands"] == []  # nothing saved anywhere


# --- no English on a Greek page -----------------------------------------------------------------


def english_words() -> set[str]:
    """Every word of the English catalog (the message ids), lower case."""
    ids = [m.id for m in catalog_ids()]
    words = set()
    for msgid in ids:
        for text in msgid if isinstance(msgid, tuple) else (msgid,):
            words.update(w.lower() for w in re.findall(r"[A-Za-z]{3,}", text))
    return words - KEPT_IN_GREEK


def catalog_ids() -> Iterator[Any]:
    from babel.messages.pofile import read_po

    po = Path(scorekeeper.__file__).parent / "translations/el/LC_MESSAGES/messages.po"
    with po.open("rb") as f:
        yield from (m for m in read_po(f) if m.id)


#: Words a Greek sentence keeps as they are: names of the JSON API's own things.
KEPT_IN_GREEK = {"json", "null", "true", "false", "ascii", "uuid", "etag", "pagat", "biriba"}
#: What a refusal quotes (a sent value, a field or header name), which stays as it was sent.
QUOTED = re.compile(
    r"'[^']*'|\"[^\"]*\"|“[^”]*”|«[^»]*»|\b(?:If-Match|Idempotency-Key|Content-Type|"
    r"application/json|biribaki_unplayed)\b"
    # a place in a club file: matches[0].hands[1].entry
    r"|\b[a-z_]+(?:\[\d+\]|\.[a-z_]+)+"
)


def english_in(message: str, vocabulary: set[str]) -> list[str]:
    """The English catalog's words left in `message` once what it quotes is taken out."""
    bare = QUOTED.sub(" ", message)
    return [w for w in re.findall(r"[A-Za-z]{3,}", bare) if w.lower() in vocabulary]


def test_the_oracle_finds_english_and_passes_greek() -> None:
    vocabulary = english_words()
    assert english_in("Team A, meld 2 may be at most 1000 characters of cards", vocabulary)
    assert english_in("Ομάδα A, συνδυασμός 2: «QZ» δεν είναι φύλλο", vocabulary) == []


def refusals(table: Table, language: str) -> dict[str, list[str]]:
    """Every refusal the form, the JSON API and the import give for the hands below, in
    `language`, by what was sent (each with its problems)."""
    found: dict[str, list[str]] = {}
    for case, entry in BAD_ENTRIES.items():
        found[f"api: {case}"] = table.api(entry, language)[1]
        found[f"form: {case}"] = table.form(entry, language)[1]
        found[f"file: {case}"] = table.import_page(entry, language)[1]
    api_only = {
        "not an object": [1, 2],
        "an unknown field": {**REFERENCE, "variant": "pagat"},
        "an unknown team field": changed(("teams.0.trumps", 3)),
        "no teams": {"kozi": "H", "teams": []},
        "a team twice": changed(("teams.1.name", "A")),
        "a team of another match": changed(("teams.0.name", "C")),
        "melds not a list": changed(("teams.0.melds", "5S-JS")),
        "a flag not a flag": changed(("teams.0.went_out", "yes")),
        "a cut of no kind": changed(("teams.0.cut", "deep")),
        "both hands and points": changed(("teams.1.hand_points", 40)),
        "failed openings too many": changed(("teams.0.failed_openings", 500)),
        "an opening mark past the melds": changed(("teams.0.opening_melds", [7])),
        "a score before": changed(("teams.0.score_before", 10)),
        "a kózi of no suit": changed(("kozi", "hearts and spades")),
        "no kózi": changed(("kozi", None)),
        "a reason not text": {**REFERENCE, "accepted_reason": 5},
        "problems without a reason": changed(("teams.0.melds.0", "3H 5S 9D")),
    }
    for case, body in api_only.items():
        found[f"api: {case}"] = table.api(body, language)[1]
    found["api: a bad Idempotency-Key"] = table.api(
        REFERENCE, language, **{"Idempotency-Key": "é" * 5}
    )[1]
    client = table.app.test_client()
    auth = {"Authorization": f"Bearer {table.token}", "Accept-Language": language}
    path = f"/api/v1/matches/{table.match_id}/hands"
    assert client.post(path, json=REFERENCE, headers=auth).status_code == 201
    for case, extra in {
        "an edit without If-Match": {},
        "an edit with a bad If-Match": {"If-Match": "latest"},
        "an edit of a stale version": {"If-Match": '"7"'},
    }.items():
        response = client.put(f"{path}/1", json=REFERENCE, headers={**auth, **extra})
        found[f"api: {case}"] = [response.get_json()["error"]]
    response = client.post(path, data="kozi", headers={**auth, "Content-Type": "text/plain"})
    found["api: not JSON"] = [response.get_json()["error"]]
    response = client.get(f"/api/v1/matches/{10**6}", headers=auth)
    found["api: no such match"] = [response.get_json()["error"]]
    points = table.fields(REFERENCE)
    points.setlist(f"p{table.ids['Bob']}-hand", [""])
    points.setlist(f"p{table.ids['Di']}-hand", [""])
    points.add("s1-points", "fifty")
    response = table.client(language).post(
        f"/matches/{table.match_id}/hands/new", data=points, headers={"Accept": "application/json"}
    )
    found["form: points typed as words"] = response.get_json()["errors"]
    return found


@pytest.mark.parametrize("language", ["el"])
def test_no_refusal_of_an_edge_says_an_english_word_in_greek(table: Table, language: str) -> None:
    vocabulary = english_words()
    found = refusals(table, language)
    assert all(found.values()), [case for case, said in found.items() if not said]
    leaks = {
        case: [(message, english_in(message, vocabulary)) for message in said]
        for case, said in found.items()
    }
    leaks = {case: [m for m in said if m[1]] for case, said in leaks.items() if said}
    leaks = {case: said for case, said in leaks.items() if said}
    assert not leaks, json.dumps(leaks, ensure_ascii=False, indent=1)


def test_the_same_refusals_in_english_are_english(table: Table) -> None:
    """The oracle sees the English the Greek test must not: the same walk in English finds
    catalog words in every refusal."""
    vocabulary = english_words()
    found = refusals(table, "en")
    silent = [
        case for case, said in found.items() if not any(english_in(m, vocabulary) for m in said)
    ]
    assert silent == []


# --- the phone's path: no replay, one scoring ---------------------------------------------------


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often, from here on, a match was replayed (the engine's match state over more
    than one of its hands, a pass adding up every hand's tally, its progress counted from
    its hands) and a hand was scored by the engine. Counted wherever a module holds the
    function. (A match's first hand is summed by itself for the stats: that is no replay.)"""
    calls = {"replays": 0, "scorings": 0}
    replay = match_rules.match_state
    watched = {
        id(match_rules.match_state): "replays",
        id(match_rules.running_totals): "replays",
        id(matches.progress.counted): "replays",
        id(rules_scoring.score_hand): "scorings",
    }

    def counting(kind: str, real: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            one_hand = real is replay and len(args[1]) <= 1
            calls[kind] += not one_hand
            return real(*args, **kwargs)

        return call

    for name, module in list(sys.modules.items()):
        if name.startswith("scorekeeper"):
            for attribute, value in list(vars(module).items()):
                if id(value) in watched:
                    monkeypatch.setattr(module, attribute, counting(watched[id(value)], value))
    return calls


def test_the_hand_form_its_preview_and_its_save_replay_nothing(
    table: Table, counted: dict[str, int]
) -> None:
    for _ in range(3):  # a match with hands before
        matches.record_hand(table.match, None, matches.read_hand(REFERENCE, table.seating()))
    counted.update(replays=0, scorings=0)
    client = table.client()
    assert client.get(f"/matches/{table.match_id}/hands/new").status_code == 200
    fields = table.fields(REFERENCE)
    fields.pop("save")
    preview = client.post(f"/matches/{table.match_id}/hands/preview", data=fields)
    assert preview.status_code == 200 and preview.get_json()["totals"]
    assert counted == {"replays": 0, "scorings": 1}
    saved = table.form(REFERENCE)
    assert saved[0] == 201
    assert counted == {"replays": 0, "scorings": 2}


@pytest.mark.parametrize("language", ["en", "el"])
def test_a_save_scores_its_hand_once_in_any_language(
    table: Table, counted: dict[str, int], language: str
) -> None:
    assert table.api(REFERENCE, language)[0] == 201
    assert counted == {"replays": 0, "scorings": 1}
    assert table.form(REFERENCE, language)[0] == 201
    assert counted == {"replays": 0, "scorings": 2}
    stored = matches.match_json(table.match)["hands"]
    assert [h["teams"][0]["lines"][0]["label"] for h in stored] == ["Cards melded"] * 2


def test_a_scoreboard_adds_its_hands_up_once(table: Table, counted: dict[str, int]) -> None:
    for _ in range(15):
        matches.record_hand(table.match, None, matches.read_hand(REFERENCE, table.seating()))
    counted.update(replays=0, scorings=0)
    for language in ("en", "el"):
        page = table.client(language).get(f"/matches/{table.match_id}")
        assert page.status_code == 200
    assert counted == {"replays": 2, "scorings": 0}  # one a page


# --- one reader of a stored result --------------------------------------------------------------

#: Keys only a stored hand result has (an entry has none of them, nor has the referee's
#: verdict on one meld, whose "legal" its pages read).
RESULT_KEYS = {"lines", "score", "opening_required", "opening_points", "words"}


def result_key_readers() -> set[str]:
    """The modules of the app that read one of a result's own keys: `x["score"]` or
    `x.get("score")`."""
    root = Path(scorekeeper.__file__).parent
    found = set()
    for path in root.rglob("*.py"):
        if "rules" in path.relative_to(root).parts:
            continue  # the engine makes results; it reads no stored one
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            key = None
            if isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load):
                key = node.slice
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "get"
                and node.args
            ):
                key = node.args[0]
            if isinstance(key, ast.Constant) and key.value in RESULT_KEYS:
                found.add(path.relative_to(root.parent).as_posix())
    return found


def test_one_module_reads_a_stored_result_by_its_keys() -> None:
    assert result_key_readers() == {"scorekeeper/match/scored.py"}
