"""The tournament setup's sentences and the movements' names in Greek (tournaments.md §4).

They come from the one catalog, as the rules engine's messages do: the same sentences in
English and in Greek, a stored one worded again in the language of the moment, and every
number of the English sentence still in the Greek one.
"""

# Greek letters that look like Latin ones are the point of this file.
# ruff: noqa: RUF001

from __future__ import annotations

from support.catalog import catalog

from scorekeeper.rules.i18n import data_of, render, using
from scorekeeper.tournaments.movements import LABELS, check_setup, label


def setups() -> list[str]:
    return [
        *check_setup("mitchell", 1, 0),
        *check_setup("danish", 300, 31),
        *check_setup("mitchell", 16, 9),
        *check_setup("mitchell", 2, 2),
        *check_setup("round-robin", 10, 10),
        *check_setup("round-robin", 2, 2),
        *check_setup("howell", 8, 3),
    ]


def test_the_sentences_and_labels_are_greek_in_greek() -> None:
    english = setups()
    with using(catalog("el"), "el"):
        greek = setups()
        names = [label(m) for m in LABELS]
        # A stored sentence is worded again in the language of the moment.
        assert [render(data_of(text)) for text in english] == greek
    assert len(greek) == len(english) == 9
    for text, original in zip(greek, english, strict=True):
        assert text != original
        assert any("α" <= ch <= "ω" for ch in text), text
        # The numbers survive the translation.
        assert sorted(w for w in original.split() if w.strip(".;,").isdigit()) == sorted(
            w for w in text.split() if w.strip(".;,").isdigit()
        ), text
    assert all(name not in LABELS.values() for name in names)
