"""Export and backup pages: a season's matches and hands as CSV (any member), the whole
club as JSON (its owners), and a new club made from such a file (anyone logged in, who
becomes its owner). A bad file is refused whole with a 400 naming what is wrong in it."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import (
    Blueprint,
    Response,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_login import login_required

from scorekeeper import clubs
from scorekeeper import records as leaderboard
from scorekeeper.accounts import me
from scorekeeper.errors import Invalid, ServiceError
from scorekeeper.exchange.club_export import export_club
from scorekeeper.exchange.club_import import import_club
from scorekeeper.exchange.forms import ImportForm
from scorekeeper.exchange.import_limits import check_limits, web_limits
from scorekeeper.exchange.import_rate import TooSoon, start_import
from scorekeeper.exchange.season_csv import season_csv
from scorekeeper.models import Role
from scorekeeper.records import seasons_of
from scorekeeper.web.gettext import gettext as _

bp = Blueprint("club_export", __name__)


@bp.get("/clubs/<int:club_id>/export.csv")
@login_required
def season_csv_download(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id)
    season = leaderboard.pick_season(club, request.args.get("season"))
    name = "all-time" if season is None else f"season-{season.id}"
    return Response(
        stream_with_context(season_csv(club, season)),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="club-{club.id}-{name}.csv"'},
    )


@bp.get("/clubs/<int:club_id>/export.json")
@login_required
def club_json(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.OWNER)
    day = datetime.now(UTC).date().isoformat()
    return Response(
        json.dumps(export_club(club), ensure_ascii=False, indent=1),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="club-{club.id}-{day}.json"'},
    )


@bp.get("/clubs/<int:club_id>/backup")
@login_required
def backup(club_id: int) -> ResponseReturnValue:
    club = clubs.club_for(me(), club_id, Role.OWNER)
    return render_template(
        "exchange/backup.html", club=club, seasons=seasons_of(club), form=ImportForm(formdata=None)
    )


@bp.route("/clubs/import", methods=["GET", "POST"])
@login_required
def import_page() -> ResponseReturnValue:
    # Files up to MAX_IMPORT_LENGTH: web/security.py applies it before any form is parsed.
    form = ImportForm()
    if request.method == "GET":
        return render_template("exchange/import.html", form=form)
    if not form.validate_on_submit():
        return render_template("exchange/import.html", form=form), 400
    headers = {}
    try:
        data = _read(form.file.data.read())
        check_limits(data, web_limits())  # before the import is counted: a refusal is quick
        attempt = start_import(me())
        imported = import_club(data, owner=me(), attempt=attempt)
    except ServiceError as error:
        if isinstance(error, TooSoon):
            headers["Retry-After"] = str(error.retry_after)
        form.file.errors.append(error.message)
        return render_template("exchange/import.html", form=form), error.status, headers
    flash(
        _(
            "%(club)s is imported with %(matches)d matches and %(hands)d hands; you are its owner.",
            club=imported.club.name,
            matches=imported.matches,
            hands=imported.hands,
        )
    )
    return redirect(url_for("clubs.show", club_id=imported.club.id))


def _read(raw: bytes) -> object:
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise Invalid(_("The file is not text in UTF-8, so it is no club export.")) from None
    except RecursionError:
        raise Invalid(_("The file nests too deeply to be a club export.")) from None
    except json.JSONDecodeError as error:
        raise Invalid(
            _(
                "The file is not valid JSON (line %(line)d, column %(column)d).",
                line=error.lineno,
                column=error.colno,
            )
        ) from None
    except ValueError:
        # Python reads no number of more than 4,300 digits (and no file needs one).
        raise Invalid(
            _("The file holds a number too long to read, so it is no club export.")
        ) from None
