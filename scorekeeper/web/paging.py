"""The `page` query value of a long list: which page, of how many."""

from __future__ import annotations

import math

from flask import request

from scorekeeper.errors import Invalid
from scorekeeper.numbers import short, whole_number
from scorekeeper.web.gettext import gettext as _


def page_number(total: int, size: int) -> tuple[int, int]:
    """The page asked for (1 when none is) and the number of pages of `total` items,
    `size` a page; a page that is not there is Invalid, naming the pages there are."""
    pages = max(1, math.ceil(total / size))
    text = request.args.get("page", "1")
    page = whole_number(text, pages)
    if not page:
        raise Invalid(
            _(
                "There is no page %(page)s: the pages go from 1 to %(pages)d.",
                page=short(text),
                pages=pages,
            )
        )
    return page, pages
