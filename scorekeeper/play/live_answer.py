"""The live preview's answer: what hand-entry.js draws while a hand is being filled in (the
form's errors, the engine's problems, each side's lines and opening line, and, once nothing
is missing, the match totals after the hand). One shape for a real match's hand form
(views.py) and the demo's sandbox hand (sandbox.py), so the sandbox shows what a table sees.
Every figure comes from the caller's `score` (the match's scoring); this only words it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.errors import ServiceError
from scorekeeper.extensions import db
from scorekeeper.match import HandEntry, Preview
from scorekeeper.play.hand_forms import EntryLayout, HandForm
from scorekeeper.rules.points import format_points as points
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import ngettext
from scorekeeper.words import opening_line


def live_answer(
    layout: EntryLayout, form: HandForm, score: Callable[[HandEntry], Preview]
) -> dict[str, Any]:
    """The preview of `form` as `score` scores its entry (even before its kózi is chosen)."""
    answer: dict[str, Any] = {"errors": [], "problems": [], "teams": [], "totals": []}
    entry = form.entry_without_kozi()
    answer["errors"] = list(form.errors)
    if entry is None:
        return answer
    try:
        previewed = score(entry)
    except ServiceError as error:
        db.session.rollback()
        answer["errors"].append(error.message)
        return answer
    result = previewed.hand
    answer["problems"] = list(result.problems)
    count = len(result.problems)
    answer["problems_title"] = ngettext("%(num)d problem", "%(num)d problems", count)
    answer["teams"] = [
        {
            "name": team.name,
            "score": points(team.score),
            "lines": [{"label": ln.label, "points": points(ln.points)} for ln in team.lines],
            "problems": list(team.problems),
            "opening_line": opening_line(
                team.opening or "", team.opening_required or 0, team.opening_points
            )
            if layout.opening
            else None,
        }
        for team in result.teams
    ]
    if not answer["errors"]:  # without its kózi a hand's bonuses may be short: no totals
        answer["totals"] = [
            {"name": name, "total": points(total)} for name, total in previewed.totals
        ]
    return answer


def live_words(number: int | None = None) -> dict[str, str]:
    """What hand-entry.js writes into the live preview, in the page's language. `number` is
    the hand being corrected: its preview's totals are those after it, not the match's now."""
    return {
        "title": _("Preview: not saved yet"),
        "nothing": _("Nothing scored"),
        "totals": totals_title(number),
    }


def totals_title(number: int | None = None) -> str:
    """The title over the preview's match totals: after hand `number` where an earlier hand
    is corrected (later hands still follow it), after this hand for the next one."""
    if number is None:
        return _("Match total after this hand")
    return _("Match total after hand %(number)d", number=number)
