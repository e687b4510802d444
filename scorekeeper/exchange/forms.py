"""Forms of the backup page: a club export file to import as a new club."""

from __future__ import annotations

from flask_wtf.file import FileField, FileRequired

from scorekeeper.web.gettext import lazy_gettext as _l
from scorekeeper.web.page_form import PageForm


class ImportForm(PageForm):
    file = FileField(
        _l("Club file (JSON)"),
        description=_l("A file made with “Download the club” here or on another Scorekeeper."),
        validators=[FileRequired(_l("Choose the club's file to import."))],
        render_kw={"accept": "application/json,.json"},
    )
