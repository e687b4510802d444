"""Forms of the backup page: a club export file to import as a new club."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired


class ImportForm(FlaskForm):
    file = FileField(
        _l("Club file (JSON)"),
        description=_l("A file made with “Download the club” here or on another Scorekeeper."),
        validators=[FileRequired(_l("Choose the club's file to import."))],
        render_kw={"accept": "application/json,.json"},
    )
