"""The two documents (issue 19): README.md for players and newcomers, OPERATING.md for whoever
runs the app. Their links to each other, to their own headings and to the screenshots must
lead somewhere, and the players' document keeps the way to share the app with the phones at
the table while the operators' material lives in the other."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ("README.md", "OPERATING.md")
LINK = re.compile(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")


def anchors(text: str) -> set[str]:
    """GitHub's anchors of a document's headings: lower case, punctuation dropped, spaces
    to hyphens."""
    found = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        found.add(slug)
    return found


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_local_link_and_picture_leads_somewhere(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    targets = [a or b for a, b in LINK.findall(text)]
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert local, "no local link at all: the pattern is wrong"
    for target in local:
        path, _, anchor = target.partition("#")
        document = ROOT / path if path else ROOT / name
        assert document.exists(), f"{name} links to {target}, which is not there"
        if anchor:
            assert anchor in anchors(document.read_text(encoding="utf-8")), (
                f"{name} links to {target}, a heading {document.name} does not have"
            )


def test_the_readme_is_for_the_table_and_points_to_the_operators_document() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", readme, re.M)
    assert "Phones at the table" in headings
    assert "make run HOST=0.0.0.0 PORT=8000" in readme
    assert "](OPERATING.md" in readme
    # the operators' material is in the other document, once
    operating = (ROOT / "OPERATING.md").read_text(encoding="utf-8")
    for moved in ("Configuration", "Benchmarks", "Referee API", "Project layout"):
        assert moved not in headings
        assert f"\n## {moved}\n" in operating
    # the two commands a newcomer needs stay at the top
    quick = readme.split("\n## Quick start\n", 1)[1].split("\n## ", 1)[0]
    assert re.findall(r"```sh\n(.*?)\n```", quick, re.S) == ["make run", "make test"]
