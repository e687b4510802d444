"""How much a club file imported on the web may hold: players, members, seasons, matches,
live hands, melds, history and text, each bounded in config (MAX_IMPORT_*, MAX_CLUB_PLAYERS)
so that the largest file let in imports in a few seconds (issue 18: a file of 175,000
players took 26 s, and its club's pages seconds each).

The file is counted before anything else of it is read, whatever else is wrong with it, and
one over any limit is refused at once with a sentence naming that limit. The command-line
import counts nothing (`limits` None): whoever runs the server may restore any club.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from flask import current_app

from scorekeeper.errors import ServiceError
from scorekeeper.exchange.import_match import live_count
from scorekeeper.match import MAX_HANDS
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import lazy_gettext as _l


class TooLarge(ServiceError):
    """A file over one of the import's limits: 413, as a body over its size is."""

    status = 413


@dataclasses.dataclass(frozen=True, slots=True)
class ImportLimits:
    players: int
    members: int
    seasons: int
    matches: int
    hands: int  # live hands, in all (a match holds at most match.MAX_HANDS)
    melds: int  # in every hand's entry, live or deleted
    versions: int  # deleted hands and earlier versions of hands: history, in all
    text: int  # characters of names and reasons

    @classmethod
    def of(cls, config: Mapping[str, Any]) -> ImportLimits:
        return cls(
            players=config["MAX_CLUB_PLAYERS"],
            members=config["MAX_IMPORT_MEMBERS"],
            seasons=config["MAX_IMPORT_SEASONS"],
            matches=config["MAX_IMPORT_MATCHES"],
            hands=config["MAX_IMPORT_HANDS"],
            melds=config["MAX_IMPORT_MELDS"],
            versions=config["MAX_IMPORT_VERSIONS"],
            text=config["MAX_IMPORT_TEXT"],
        )


def web_limits() -> ImportLimits:
    """The limits the running app's config sets for an import on the web."""
    return ImportLimits.of(current_app.config)


@dataclasses.dataclass(slots=True)
class Counts:
    """What a club file holds, as counted for the limits (a part of the wrong shape counts
    as nothing: the file's check names it afterwards)."""

    players: int = 0
    members: int = 0
    seasons: int = 0
    matches: int = 0
    hands: int = 0
    most_in_a_match: int = 0
    melds: int = 0
    versions: int = 0
    text: int = 0


def count(data: Any) -> Counts:
    """Count the parts of a club file `data` (any JSON value): one pass over its lists,
    no entry read."""
    counts = Counts()
    if not isinstance(data, dict):
        return counts
    club = data.get("club")
    counts.text += _text(club.get("name")) if isinstance(club, dict) else 0
    players = _list(data.get("players"))
    counts.players = len(players)
    counts.members = len(_list(data.get("members")))
    seasons = _list(data.get("seasons"))
    counts.seasons = len(seasons)
    counts.text += sum(_text(p.get("name")) for p in _objects(players))
    counts.text += sum(_text(s.get("name")) for s in _objects(seasons))
    matches = _list(data.get("matches"))
    counts.matches = len(matches)
    for match in _objects(matches):
        hands = _list(match.get("hands"))
        live = live_count(hands)
        counts.hands += live
        counts.most_in_a_match = max(counts.most_in_a_match, live)
        counts.versions += len(hands) - live + len(_list(match.get("versions")))
        counts.text += sum(_text(t.get("name")) for t in _objects(_list(match.get("teams"))))
        for hand in _objects(hands):
            counts.text += _text(hand.get("accepted_reason"))
            counts.melds += _melds(hand.get("entry"))
        for version in _objects(_list(match.get("versions"))):
            counts.text += _text(version.get("accepted_reason"))
    return counts


def check_limits(data: Any, limits: ImportLimits) -> None:
    """Refuse (TooLarge, 413) a club file over any of `limits`, naming the first it passes."""
    counts = count(data)
    # (what the file holds, the most allowed, the sentence that says so), in that order.
    checks = [
        (
            counts.players,
            limits.players,
            _l("The file lists %(count)d players; a club may have at most %(most)d."),
            False,
        ),
        (
            counts.members,
            limits.members,
            _l("The file lists %(count)d members; an import here takes at most %(most)d."),
            False,
        ),
        (
            counts.seasons,
            limits.seasons,
            _l("The file lists %(count)d seasons; an import here takes at most %(most)d."),
            False,
        ),
        (
            counts.matches,
            limits.matches,
            _l("The file holds %(count)d matches; an import here takes at most %(most)d."),
            False,
        ),
        (
            counts.most_in_a_match,
            MAX_HANDS,
            _l("A match of the file has %(count)d hands; a match holds at most %(most)d."),
            False,
        ),
        (
            counts.hands,
            limits.hands,
            _l("The file holds %(count)d hands; an import here takes at most %(most)d."),
            True,
        ),
        (
            counts.melds,
            limits.melds,
            _l("The file's hands hold %(count)d melds; an import here takes at most %(most)d."),
            True,
        ),
        (
            counts.versions,
            limits.versions,
            _l(
                "The file holds %(count)d earlier versions and deleted hands; an import here "
                "takes at most %(most)d."
            ),
            False,
        ),
        (
            counts.text,
            limits.text,
            _l(
                "The file's names and reasons run to %(count)d characters; an import here "
                "takes at most %(most)d."
            ),
            False,
        ),
    ]
    for held, most, sentence, by_command_line in checks:
        if held > most:
            message = str(sentence) % {"count": held, "most": most}
            if by_command_line:
                message += " " + _(
                    "Whoever runs the server can import it with “flask --app scorekeeper import”."
                )
            raise TooLarge(message)


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _objects(items: list[Any]) -> Iterator[dict[str, Any]]:
    return (item for item in items if isinstance(item, dict))


def _text(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def _melds(entry: Any) -> int:
    """The melds of a hand's entry, on every side."""
    if not isinstance(entry, dict):
        return 0
    return sum(len(_list(side.get("melds"))) for side in _objects(_list(entry.get("teams"))))
