"""A stored hand result's words as message ids and values, so that a page in any language
shows them without scoring the hand again.

A result is stored in English (one canonical text for the API, the history and the export);
beside it, under "words", each of its sentences and labels keeps the engine's message data
(`scorekeeper.rules.i18n.Message.data`). `worded` puts the result into the current language
from that data alone. Results stored before they had words, or whose words do not render
(an edited export file: `render` fills in only plain named fields), give None: the caller
scores the hand again, as it always did.
"""

from __future__ import annotations

from typing import Any

from scorekeeper.rules.i18n import data_of, render

#: A result's texts under "words": the same shape as the result, the texts only.
WORDS = "words"


def with_words(result: dict[str, Any]) -> dict[str, Any]:
    """`result` (just scored, its texts still the engine's messages) with their data beside."""
    return {
        **result,
        WORDS: {
            "problems": [data_of(p) for p in result["problems"]],
            "teams": [
                {
                    "lines": [data_of(line["label"]) for line in team["lines"]],
                    "problems": [data_of(p) for p in team["problems"]],
                    "opening": _data(team.get("opening")),
                    "melds": [
                        {
                            "problems": [data_of(p) for p in meld["problems"]],
                            "bonus_label": data_of(meld["bonus_label"]),
                            "name": data_of(meld["name"]),
                        }
                        for meld in team["melds"]
                    ],
                }
                for team in result["teams"]
            ],
        },
    }


def worded(result: dict[str, Any]) -> dict[str, Any] | None:
    """A copy of the stored `result` with its words in the current language; None if it has
    no words to render."""
    words = result.get(WORDS)
    if not isinstance(words, dict):
        return None
    try:
        return _worded(result, words)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None


def _worded(result: dict[str, Any], words: dict[str, Any]) -> dict[str, Any]:
    # A new dict wherever a text changes; the rest is shared with the stored result (a deep
    # copy of every hand cost more than wording it).
    shown = {k: v for k, v in result.items() if k != WORDS}
    shown["problems"] = _texts(words["problems"], len(result["problems"]))
    teams = words["teams"]
    if len(teams) != len(result["teams"]):
        raise ValueError("the words do not match the result")
    shown["teams"] = []
    for stored, said in zip(result["teams"], teams, strict=True):
        team = dict(stored)
        labels = _texts(said["lines"], len(stored["lines"]))
        team["lines"] = [
            {**line, "label": label} for line, label in zip(stored["lines"], labels, strict=True)
        ]
        team["problems"] = _texts(said["problems"], len(stored["problems"]))
        if said.get("opening") is not None:
            team["opening"] = render(said["opening"])
        if len(said["melds"]) != len(stored["melds"]):
            raise ValueError("the words do not match the result")
        team["melds"] = [
            {
                **meld,
                "problems": _texts(told["problems"], len(meld["problems"])),
                "bonus_label": render(told["bonus_label"]),
                "name": render(told["name"]),
            }
            for meld, told in zip(stored["melds"], said["melds"], strict=True)
        ]
        shown["teams"].append(team)
    return shown


def _texts(data: list[Any], count: int) -> list[str]:
    if len(data) != count:
        raise ValueError("the words do not match the result")
    return [render(item) for item in data]


def _data(text: Any) -> Any:
    return data_of(text) if isinstance(text, str) else text
