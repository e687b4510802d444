"""Where a hand page's links lead: the match's own pages for a member, or a tournament
table's pages for a phone holding that table's link (tournaments.table_pages). The page
(templates/play/hand.html) is the same either way; only these addresses differ."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from flask import url_for

from scorekeeper.models import Match
from scorekeeper.web.gettext import gettext as _


@dataclasses.dataclass(frozen=True)
class HandLinks:
    back: str  # the crumb, and where a saved hand leads
    back_label: str
    preview: str  # the live preview of this form
    edit: Callable[[int], str]  # a hand's correction form
    phone_user: str  # whose drafts and outbox these are on the phone (localStorage keys)
    delete: Callable[[int], str] | None = None  # None: this page deletes no hand
    history: Callable[[int], str] | None = None


def member_links(match: Match, number: int | None) -> HandLinks:
    """A signed-in member's hand page: the match's scoreboard and its hand pages."""
    from flask_login import current_user

    def preview() -> str:
        if number:
            return url_for("matches.preview_hand", match_id=match.id, number=number)
        return url_for("matches.preview_new_hand", match_id=match.id)

    return HandLinks(
        back=url_for("matches.scoreboard", match_id=match.id),
        back_label=_("Match %(number)d", number=match.id),
        preview=preview(),
        edit=lambda n: url_for("matches.edit_hand", match_id=match.id, number=n),
        phone_user=str(current_user.id),
        delete=lambda n: url_for("matches.delete_hand", match_id=match.id, number=n),
        history=lambda n: url_for("matches.hand_history", match_id=match.id, number=n),
    )
