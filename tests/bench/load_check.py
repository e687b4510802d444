"""What the load benchmark (load.py) checks afterwards: every acknowledged hand stored exactly
once, as last acknowledged, and every score equal to the rules engine's from stored entries."""

from __future__ import annotations

import random
import threading
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any

import sqlalchemy as sa

from scorekeeper import referee
from scorekeeper.match import HandEntry


@dataclass
class Sent:
    key: str
    version: int
    entry: dict[str, Any]


class Acknowledged:
    """Every answer a client was given: per match, each hand's key, version and entry."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.matches: dict[int, dict[int, Sent]] = {}

    def hand(self, match_id: int, key: str, number: int, version: int, body: dict) -> None:
        entry = {k: v for k, v in body.items() if k != "accepted_reason"}
        with self._lock:
            self.matches.setdefault(match_id, {})[number] = Sent(key, version, entry)

    def edit(self, match_id: int, number: int, version: int, entry: dict[str, Any]) -> None:
        with self._lock:
            sent = self.matches[match_id][number]
            sent.version, sent.entry = version, entry

    def pick(self, match_id: int, rng: random.Random) -> tuple[int, int, dict[str, Any]]:
        with self._lock:
            number = rng.choice(sorted(self.matches[match_id]))
            sent = self.matches[match_id][number]
            return number, sent.version, dict(sent.entry)

    def count(self) -> int:
        with self._lock:
            return sum(len(hands) for hands in self.matches.values())


@dataclass
class Report:
    stored: int = 0
    lost: int = 0
    duplicates: int = 0
    changed: int = 0
    matches: int = 0
    mismatches: int = 0
    problems: list[str] = field(default_factory=list)


def check_database(engine: sa.Engine, acked: Acknowledged, shown: dict[int, Any]) -> Report:
    """Compare the database with what the clients were told, and `shown` (GET of each match)
    with the rules engine's recomputation from the stored entries."""
    report = Report()
    with engine.connect() as connection:
        hands = connection.execute(
            sa.text(
                "SELECT match_id, number, version, idempotency_key, entry, result, deleted "
                "FROM hand ORDER BY match_id, number"
            )
        ).fetchall()
        versions = Counter(
            (m, n)
            for m, n in connection.execute(sa.text("SELECT match_id, number FROM hand_version"))
        )
        matches = {
            row.id: row
            for row in connection.execute(
                sa.text('SELECT id, variant_id, options, format FROM "match"')
            )
        }
    report.stored = len(hands)
    by_key = Counter((h.match_id, h.idempotency_key) for h in hands)
    stored = {(h.match_id, h.number): h for h in hands}
    known = {(m, s.key) for m, numbers in acked.matches.items() for s in numbers.values()}
    report.duplicates = sum(1 for h in hands if (h.match_id, h.idempotency_key) not in known)
    report.duplicates += sum(n - 1 for n in by_key.values() if n > 1)
    for match_id, numbers in acked.matches.items():
        for number, sent in numbers.items():
            row = stored.get((match_id, number))
            if row is None or row.idempotency_key != sent.key or row.deleted:
                report.lost += 1
                report.problems.append(f"hand {number} of match {match_id} ({sent.key}) is lost")
                continue
            # Compared as entries, not as JSON: the stored one names every field and its
            # players (the seats fill them in), the sent one only what the client wrote.
            if row.version != sent.version or _as_sent(_json(row.entry)) != _as_sent(sent.entry):
                report.changed += 1
                report.problems.append(f"hand {number} of match {match_id} is not as acknowledged")
            if versions[(match_id, number)] != row.version:
                report.problems.append(f"hand {number} of match {match_id} lacks history rows")
    for match_id in acked.matches:
        report.matches += 1
        rows = [h for h in hands if h.match_id == match_id and not h.deleted]
        mismatch = _recompute(matches[match_id], rows, shown.get(match_id))
        if mismatch:
            report.mismatches += 1
            report.problems.append(f"match {match_id}: {mismatch}")
    return report


def _json(value: Any) -> Any:
    import json

    return json.loads(value) if isinstance(value, str) else value


def _recompute(match: Any, rows: list[Any], shown: Any) -> str | None:
    """Score the stored entries again with the rules engine, each against the totals before it;
    compare each hand's scores and problems with the stored result, and the totals with GET."""
    totals: dict[str, int] = {}
    for row in rows:
        entry, result = _json(row.entry), _json(row.result)
        body = {
            "variant": match.variant_id,
            "options": _json(match.options),
            "format": match.format,
            "kozi": entry["kozi"],
            "teams": [
                {k: v for k, v in side.items() if k != "players"}
                | {"score_before": totals.get(side["name"], 0)}
                for side in entry["teams"]
            ],
        }
        scored = referee.score_hand_request(body)
        mine = [team["score"] for team in scored["teams"]]
        if mine != [team["score"] for team in result["teams"]]:
            return f"hand {row.number} is stored as {result['teams']}, the engine says {mine}"
        if scored["problems"] != result["problems"]:
            return f"hand {row.number} is stored with other problems than the engine finds"
        for side, score in zip(entry["teams"], mine, strict=True):
            totals[side["name"]] = totals.get(side["name"], 0) + score
    if shown is None:
        return "GET /api/v1/matches/<id> gave no answer"
    answered = {team["name"]: team["score"] for team in shown["teams"]}
    if answered != {name: totals.get(name, 0) for name in answered}:
        return f"GET says {answered}, the engine {totals}"
    if len(shown["hands"]) != len(rows):
        return f"GET lists {len(shown['hands'])} hands, the database {len(rows)}"
    return None


def _as_sent(entry: dict[str, Any]) -> HandEntry:
    """An entry as the client wrote it: without the players its seats fill in."""
    read = HandEntry.from_json(entry)
    return replace(read, teams=tuple(replace(side, players=()) for side in read.teams))
