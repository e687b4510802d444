"""Whole simulated club nights (issue 20's "Done when"), through the real app's JSON API on
both databases: 24 pairs in modified Danish, 9 pairs in a round robin, 16 singles in modified
Danish and a Mitchell of 8 tables.

Every hand goes in through ``POST /api/v1/matches/<match>/hands``, and after every round the
ranking the API gives is compared with one worked out HERE from the hands the test posted and
tournaments.md, without scorekeeper.tournaments: the hands are chosen so their scores are known
(one side goes out with a clean biriba: 45 for the cards, 200 for the biriba, 100 for going
out = 345; the other side melded nothing: −100 for no biribaki, less the cards it holds), the
VP tables are written out below from tournaments.md §3, and the tie-breaks of §5 are a few
lines of this module. The hands are the fewest and plainest legal ones, so a night costs
little more than its requests.

Ties are made on purpose (every table of a Danish round 1 ends alike, and the results come
from two or three kinds of deal), and each night checks which tie-breaks its rankings needed,
so a night whose ties stopped happening fails instead of passing without testing them.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import combinations, pairwise
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs

PASSWORD = "correct horse"
PLAYERS = 48  # 24 pairs

#: tournaments.md §3, burraco-3-deals: (highest difference of the row, winner VP, loser VP).
BURRACO_3_DEALS: list[tuple[int | None, int, int]] = [
    (50, 10, 10),
    (150, 11, 9),
    (250, 12, 8),
    (350, 13, 7),
    (500, 14, 6),
    (650, 15, 5),
    (800, 16, 4),
    (1000, 17, 3),
    (1250, 18, 2),
    (1500, 19, 1),
    (None, 20, 0),
]
#: A custom scale for Biriba's larger scores (tournaments.md §3: "a Biriba tournament wants a
#: custom scale"): a deal won by going out is worth about 450 MP.
BIRIBA_SCALE: list[tuple[int | None, int, int]] = [
    (100, 10, 10),
    (500, 12, 8),
    (1000, 14, 6),
    (1400, 16, 4),
    (None, 18, 2),
]

#: What the side that does not go out holds, and what those cards cost it (pagat: a 3 to 7
#: is 5 points, an 8 to a king 10).
LEFT_IN_HAND = {"": 0, "4D": 5, "KD": 10, "4D KD": 15}
#: The side that goes out: the clean biriba 3♣–9♣ (45 + 200) and going out (100).
WENT_OUT_SCORE = 345
NO_BIRIBAKI = -100


def vp_of(scale: list[tuple[int | None, int, int]], mine: int, theirs: int) -> int:
    """My VP at a table (tournaments.md §3: differences in steps of 5, rounded down)."""
    difference = abs(mine - theirs)
    difference -= difference % 5
    for up_to, winner, loser in scale:
        if up_to is None or difference <= up_to:
            return winner if mine > theirs else loser if mine < theirs else (winner + loser) // 2
    raise AssertionError("the last row takes every difference")


class Api:
    """The night's director: a bearer token on the test client, answers checked."""

    def __init__(self, client: FlaskClient, token: str) -> None:
        self.client = client
        self.headers = {"Authorization": f"Bearer {token}"}

    def get(self, path: str) -> Any:
        response = self.client.get(f"/api/v1/{path}", headers=self.headers)
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()

    def post(self, path: str, body: Any = None, status: int = 201) -> Any:
        extra = {} if body is None else {"json": body}
        response = self.client.post(f"/api/v1/{path}", headers=self.headers, **extra)
        assert response.status_code == status, response.get_data(as_text=True)
        return response.get_json()


@dataclass(frozen=True)
class Laid:
    token: str
    club: int
    players: list[int]


def lay_world(app: Flask) -> Laid:
    with app.app_context():
        user = accounts.create_user("olga", PASSWORD)
        club = clubs.create_club(user, "Kafeneio")
        players = [clubs.add_player(club, f"P{n:02d}").id for n in range(1, PLAYERS + 1)]
        return Laid(accounts.create_token(user, "night"), club.id, players)


@dataclass
class Night:
    api: Api
    club: int
    players: list[int]


@pytest.fixture
def night(app: Flask, kept_world: Callable[[Callable[[Flask], Laid]], Laid]) -> Night:
    laid = kept_world(lay_world)
    return Night(Api(app.test_client(), laid.token), laid.club, laid.players)


# --- the test's own bookkeeping -----------------------------------------------------------------


@dataclass
class Table:
    """A table of a round as the test played it: its entries and their MP."""

    round: int
    number: int
    ns: int
    ew: int
    ns_mp: int = 0
    ew_mp: int = 0


@dataclass
class Record:
    """Everything the test saw of a night, and which tie-breaks its rankings needed."""

    scale: list[tuple[int | None, int, int]]
    bye_vp: int
    entries: list[int]
    tables: list[Table] = field(default_factory=list)
    byes: list[tuple[int, int]] = field(default_factory=list)  # (round, entry)
    decided_by: Counter[str] = field(default_factory=Counter)
    order: list[int] = field(default_factory=list)  # the last ranking's entries, best first


def ranking(record: Record) -> list[tuple[int, int, int, int, int]]:
    """tournaments.md §5 from the test's own tables: (rank, entry, VP, MP for, MP against),
    best first. Counts in `record.decided_by` what split each two neighbours of the ranking
    whose VP were equal ("shared" when nothing did)."""
    vp: Counter[int] = Counter()
    mp_for: Counter[int] = Counter()
    mp_against: Counter[int] = Counter()
    meetings: dict[frozenset[int], list[tuple[int, int]]] = defaultdict(list)
    for _round, entry in record.byes:
        vp[entry] += record.bye_vp  # a bye: its VP, no MP
    for t in record.tables:
        ns_vp = vp_of(record.scale, t.ns_mp, t.ew_mp)
        ew_vp = vp_of(record.scale, t.ew_mp, t.ns_mp)
        assert ns_vp + ew_vp == 20
        vp[t.ns] += ns_vp
        vp[t.ew] += ew_vp
        mp_for[t.ns] += t.ns_mp
        mp_for[t.ew] += t.ew_mp
        mp_against[t.ns] += t.ew_mp
        mp_against[t.ew] += t.ns_mp
        meetings[frozenset((t.ns, t.ew))] += [(t.ns, ns_vp), (t.ew, ew_vp)]

    def difference(entry: int) -> int:
        return mp_for[entry] - mp_against[entry]

    # The result between tied entries "if they met": a group tied on VP and MP difference
    # uses it only when every two of them met, equally often (else whoever met more of the
    # group would gain), summing each one's VP from those meetings.
    between: dict[int, int] = {}
    tied: dict[tuple[int, int], list[int]] = defaultdict(list)
    for entry in record.entries:
        tied[(vp[entry], difference(entry))].append(entry)
    for group in tied.values():
        pairs = [frozenset(pair) for pair in combinations(group, 2)]
        if not pairs or len({len(meetings[pair]) for pair in pairs}) != 1:
            continue
        if not meetings[pairs[0]]:
            continue
        for pair in pairs:
            for entry, won in meetings[pair]:
                between[entry] = between.get(entry, 0) + won

    def key(entry: int) -> tuple[int, int, int, int]:
        return (vp[entry], difference(entry), between.get(entry, 0), mp_for[entry])

    seed = {entry: n for n, entry in enumerate(record.entries)}
    ordered = sorted(record.entries, key=lambda e: (*(-k for k in key(e)), seed[e]))
    ranked: list[tuple[int, int, int, int, int]] = []
    for place, entry in enumerate(ordered, start=1):
        rank = place
        if ranked:
            above = key(ranked[-1][1])
            if above == key(entry):
                rank = ranked[-1][0]
                record.decided_by["shared"] += 1
            elif above[0] == key(entry)[0]:
                criterion = next(n for n in (1, 2, 3) if above[n] != key(entry)[n])
                record.decided_by[("", "mp difference", "meetings", "mp scored")[criterion]] += 1
        ranked.append((rank, entry, vp[entry], mp_for[entry], mp_against[entry]))
    record.order = [entry for _rank, entry, *_totals in ranked]
    return ranked


def deal(ns_goes_out: bool, left: str, names: tuple[str, str], players: int) -> dict[str, Any]:
    """One legal pagat hand: one side goes out with a clean biriba, the other holds `left`."""
    out = {
        "melds": ["3C-9C"],
        "hands": [""] * players,
        "went_out": True,
        "took_biribaki": True,
    }
    stuck = {"melds": [], "hands": [left] + [""] * (players - 1)}
    first, second = (out, stuck) if ns_goes_out else (stuck, out)
    return {"kozi": "H", "teams": [{"name": names[0], **first}, {"name": names[1], **second}]}


#: How a table's deal ends: (NS goes out, what the other side holds).
Deal = tuple[bool, str]


def play_round(
    night: Night,
    tid: int,
    record: Record,
    names: dict[int, str],
    deals: Callable[[int, int], list[Deal]],
    players: int,
) -> dict[str, Any]:
    """Start the next round, post every table's deals (`deals(round, table)`), check the
    tables' results as the tournament shows them, close the round and compare the ranking."""
    drawn = night.api.post(f"tournaments/{tid}/rounds")
    number = drawn["number"]
    for t in drawn["tables"]:
        table = Table(number, t["table"], t["ns"], t["ew"])
        for ns_goes_out, left in deals(number, t["table"]):
            body = deal(ns_goes_out, left, (names[t["ns"]], names[t["ew"]]), players)
            saved = night.api.post(f"matches/{t['match']}/hands", body)
            ns_mp, ew_mp = WENT_OUT_SCORE, NO_BIRIBAKI - LEFT_IN_HAND[left]
            if not ns_goes_out:
                ns_mp, ew_mp = ew_mp, ns_mp
            # NS is the match's first team, EW its second.
            assert [(s["name"], s["score"]) for s in saved["teams"]] == [
                (names[t["ns"]], ns_mp),
                (names[t["ew"]], ew_mp),
            ]
            table.ns_mp += ns_mp
            table.ew_mp += ew_mp
        record.tables.append(table)
    if drawn["bye"] is not None:
        record.byes.append((number, drawn["bye"]))

    closed = night.api.post(f"tournaments/{tid}/rounds/{number}/close", status=200)
    played = {t.number: t for t in record.tables if t.round == number}
    assert [
        (t["table"], t["ns"], t["ew"], t["status"], t["ns_mp"], t["ew_mp"], t["ns_vp"], t["ew_vp"])
        for t in closed["tables"]
    ] == [
        (
            p.number,
            p.ns,
            p.ew,
            "finished",
            p.ns_mp,
            p.ew_mp,
            vp_of(record.scale, p.ns_mp, p.ew_mp),
            vp_of(record.scale, p.ew_mp, p.ns_mp),
        )
        for p in sorted(played.values(), key=lambda p: p.number)
    ]
    assert closed["bye"] == (
        None if drawn["bye"] is None else {"entry": drawn["bye"], "vp": record.bye_vp}
    )

    got = night.api.get(f"tournaments/{tid}/standings")
    assert got["rounds_played"] == number
    assert [
        (s["rank"], s["entry"], s["vp"], s["mp_for"], s["mp_against"]) for s in got["standings"]
    ] == ranking(record), f"round {number}"
    return drawn


def set_up(
    night: Night,
    size: int,
    per_entry: int,
    movement: str,
    rounds: int,
    deals: int,
    scale: list[tuple[int | None, int, int]] | str,
) -> tuple[int, dict[int, str], list[int]]:
    p = night.players
    body = {
        "club": night.club,
        "name": f"{movement} night",
        "variant": "pagat",
        "format": "4p" if per_entry == 2 else "2p",
        "movement": movement,
        "rounds": rounds,
        "deals_per_round": deals,
        "vp_scale": scale
        if isinstance(scale, str)
        else [{"up_to": u, "winner": w, "loser": lo} for u, w, lo in scale],
        "bye_vp": 12,
        "entries": [
            {"name": f"E{n + 1:02d}", "players": p[per_entry * n : per_entry * (n + 1)]}
            for n in range(size)
        ],
    }
    made = night.api.post("tournaments", body)
    names = {e["id"]: e["name"] for e in made["entries"]}
    return made["id"], names, [e["id"] for e in made["entries"]]


def random_deals(seed: int, count: int, lefts: Iterable[str]) -> Callable[[int, int], list[Deal]]:
    """Deals drawn from few kinds (so results, and ranking ties, repeat), but round 1's
    tables all end alike: a Danish round 2 then pairs entries tied on everything."""
    kinds = list(lefts)

    def deals(number: int, table: int) -> list[Deal]:
        if number == 1:
            return [(n % 2 == 0, "") for n in range(count)]
        chance = random.Random(f"{seed}-{number}-{table}")
        return [(chance.random() < 0.5, chance.choice(kinds)) for _ in range(count)]

    return deals


#: What can split entries of equal VP (tournaments.md §5), and "shared" when nothing does:
#: every night's rankings, round after round, must have needed each of them.
TIE_BREAKS = {"mp difference", "meetings", "mp scored", "shared"}


def danish_pairs(order: list[int], earlier: list[Table], drawn: dict[str, Any]) -> bool:
    """tournaments.md §4: a Danish round after the first pairs 1st v 2nd, 3rd v 4th … of the
    ranking before it. Where that pairing has no rematch, modified Danish must draw exactly it;
    says whether it could be checked (else the no-rematch checks of the night cover it)."""
    wanted = {frozenset(order[n : n + 2]) for n in range(0, len(order), 2)}
    if wanted & {frozenset((t.ns, t.ew)) for t in earlier}:
        return False
    assert {frozenset((t["ns"], t["ew"])) for t in drawn["tables"]} == wanted
    return True


def meetings_of(tables: list[Table]) -> Counter[frozenset[int]]:
    return Counter(frozenset((t.ns, t.ew)) for t in tables)


# --- the nights ---------------------------------------------------------------------------------


def test_24_pairs_five_rounds_of_modified_danish_on_a_biriba_scale(night: Night) -> None:
    tid, names, entries = set_up(night, 24, 2, "danish", 5, 3, BIRIBA_SCALE)
    record = Record(BIRIBA_SCALE, 12, entries)
    checked = 0
    for _ in range(5):
        order, earlier = list(record.order), list(record.tables)
        drawn = play_round(night, tid, record, names, random_deals(24, 3, ["", "KD"]), 2)
        assert len(drawn["tables"]) == 12 and drawn["bye"] is None
        checked += drawn["number"] > 1 and danish_pairs(order, earlier, drawn)
    assert checked >= 1
    # Modified Danish avoids a rematch wherever one can be avoided: here always.
    assert max(meetings_of(record.tables).values()) == 1
    assert Counter(e for t in record.tables for e in (t.ns, t.ew)) == dict.fromkeys(entries, 5)
    assert set(record.decided_by) == TIE_BREAKS, record.decided_by


def test_9_pairs_round_robin_with_a_bye_each_round(night: Night) -> None:
    tid, names, entries = set_up(night, 9, 2, "round-robin", 9, 1, "burraco-3-deals")
    record = Record(BURRACO_3_DEALS, 12, entries)
    for _ in range(9):
        drawn = play_round(night, tid, record, names, random_deals(9, 1, ["", "KD"]), 2)
        assert len(drawn["tables"]) == 4 and drawn["bye"] in entries
    assert sorted(entry for _round, entry in record.byes) == sorted(entries)  # one bye each
    met = meetings_of(record.tables)
    assert set(met) == {frozenset(pair) for pair in combinations(entries, 2)}
    assert set(met.values()) == {1}  # everyone met everyone, once
    assert set(record.decided_by) == TIE_BREAKS, record.decided_by


def test_16_singles_modified_danish(night: Night) -> None:
    tid, names, entries = set_up(night, 16, 1, "danish", 5, 1, "burraco-3-deals")
    record = Record(BURRACO_3_DEALS, 12, entries)
    checked = 0
    for _ in range(5):
        order, earlier = list(record.order), list(record.tables)
        drawn = play_round(night, tid, record, names, random_deals(16, 1, ["", "4D", "KD"]), 1)
        assert len(drawn["tables"]) == 8 and drawn["bye"] is None
        checked += drawn["number"] > 1 and danish_pairs(order, earlier, drawn)
    assert checked >= 1
    assert max(meetings_of(record.tables).values()) == 1
    assert set(record.decided_by) == TIE_BREAKS, record.decided_by


def test_a_mitchell_of_8_tables_nobody_meets_twice(night: Night) -> None:
    tid, names, entries = set_up(night, 16, 2, "mitchell", 8, 1, "burraco-3-deals")
    record = Record(BURRACO_3_DEALS, 12, entries)
    seats: list[dict[int, tuple[int, int]]] = []  # per round: table → (NS, EW)
    for _ in range(8):
        drawn = play_round(night, tid, record, names, random_deals(8, 1, ["", "4D", "KD"]), 2)
        assert len(drawn["tables"]) == 8 and drawn["bye"] is None
        seats.append({t["table"]: (t["ns"], t["ew"]) for t in drawn["tables"]})
    assert max(meetings_of(record.tables).values()) == 1
    ns_line = {ns for ns, _ew in seats[0].values()}
    ew_line = {ew for _ns, ew in seats[0].values()}
    assert len(ns_line) == len(ew_line) == 8 and not ns_line & ew_line
    for before, after in pairwise(seats):
        for table in range(1, 9):
            assert after[table][0] == before[table][0]  # NS stay
            # EW move up one table, from the last to table 1.
            assert after[table % 8 + 1][1] == before[table][1]
    assert set(record.decided_by) == TIE_BREAKS, record.decided_by
