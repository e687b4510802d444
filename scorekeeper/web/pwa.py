"""The installable app: its manifest, its service worker and the page it shows offline.

The service worker (static/sw.js) is served from the site root, so its scope is the whole
site; the app shell it precaches, and its cache version, are written into it here. The
shell's URLs name the files by their content, and the version is a hash of those URLs, so any
change to a file makes a new worker, which replaces the old caches when it takes over (nobody
has to remember to bump a number).
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, url_for
from flask.typing import ResponseReturnValue

from scorekeeper.web import kept_pages, static_files
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import ngettext

bp = Blueprint("pwa", __name__)

#: The brand green of favicon.svg and of the light theme's header.
THEME_COLOUR = "#0b6e4f"


def _shell() -> list[str]:
    """What every page needs offline: the style, every page script, the icons, the offline
    pages."""
    files = ["style.css", "favicon.svg", "icons/icon-192.png", "icons/icon-512.png"]
    files += sorted(n for n in static_files.hashes().digests if re.fullmatch(r"js/[^/]+\.js", n))
    urls = [url_for("static", filename=name) for name in files]
    return [*urls, url_for(".offline"), url_for(".offline_expired"), url_for(".manifest")]


def _version(shell: list[str], worker: bytes) -> str:
    """The static files' URLs hold their content hashes (web/static_files.py), so hashing the
    URLs with the worker is hashing the files."""
    digest = hashlib.sha256(worker)
    digest.update(json.dumps(shell).encode())
    return digest.hexdigest()[:12]


@bp.get("/sw.js")
def service_worker() -> ResponseReturnValue:
    static = Path(current_app.static_folder or "static")
    worker = (static / "sw.js").read_bytes()
    shell = _shell()
    version = json.dumps(_version(shell, worker))
    head = f"var VERSION = {version};\nvar SHELL = {json.dumps(shell)};\n"
    response = Response(head.encode() + worker, mimetype="text/javascript")
    # Browsers check for a new worker on navigations; never let a cache hide one.
    response.headers["Cache-Control"] = "no-cache"
    response.headers["Service-Worker-Allowed"] = "/"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> ResponseReturnValue:
    icon = "icons/icon-{0}.png"
    body = {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "description": _("Score Biriba, Buraco and Beriba hands at the table."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": THEME_COLOUR,
        "icons": [
            {
                "src": url_for("static", filename=icon.format(size)),
                "sizes": f"{size}x{size}",
                "type": "image/png",
                "purpose": "any",
            }
            for size in (192, 512)
        ],
    }
    response = current_app.response_class(
        json.dumps(body, ensure_ascii=False), mimetype="application/manifest+json"
    )
    return response


@bp.get("/offline")
def offline() -> ResponseReturnValue:
    """What a page not kept on the phone shows with the network gone (the worker keeps it)."""
    return render_template("offline.html", expired=False, max_age=kept_pages.max_age_words())


@bp.get("/offline/expired")
def offline_expired() -> ResponseReturnValue:
    """What a page kept too long ago shows with the network gone: the worker no longer shows
    the copy (it may be out of date, and the session it was kept for may have ended)."""
    return render_template("offline.html", expired=True, max_age=kept_pages.max_age_words())


@bp.app_template_global()
def offline_words() -> dict[str, str]:
    """The words of draft.js and outbox.js, in the page's language (read from data-*)."""
    return {
        "offline_verdict": _("Checked when you are back online."),
        "waiting": _("waiting to send"),
        "new_hand": _("New hand"),
        "correction": _("Correction of hand %(number)s"),
        "totals": _("Totals after it: %(totals)s"),
        "totals_unknown": _("Totals once sent."),
        "refused": _("Not saved: the server refused it."),
        "refused_status": _("The server answered with error %(status)s."),
        "fix": _("Fix hand"),
        # the new hands waiting on the phone, as the engine on the phone scored them
        "hand": _("Hand %(number)d"),
        "kozi": _("kózi"),
        "not_sent": _("not yet sent"),
        "after": _("After this hand: %(totals)s"),
        "won": _("%(winner)s won"),
        "differs": _(
            "The server scored hand %(number)s differently from this phone: after it, "
            "%(server)s (this phone showed %(phone)s). The server's score is the one kept."
        ),
        "ok": _("OK"),
        # the standings cards, counting the hands waiting on the phone: the one and the many
        # forms, filled by outbox.js (so the count stays a placeholder here)
        "phone_totals_one": ngettext(
            "Totals on this phone, counting %(count)s hand not yet sent.",
            "Totals on this phone, counting %(count)s hands not yet sent.",
            1,
            count="%(count)s",
        ),
        "phone_totals": ngettext(
            "Totals on this phone, counting %(count)s hand not yet sent.",
            "Totals on this phone, counting %(count)s hands not yet sent.",
            2,
            count="%(count)s",
        ),
        "server_total": _("On the server: %(total)s"),
        # a tournament table's state on its kept page while new hands wait on the phone
        "table_queued_one": ngettext(
            "%(count)s hand entered on this phone, not sent yet.",
            "%(count)s hands entered on this phone, not sent yet.",
            1,
            count="%(count)s",
        ),
        "table_queued": ngettext(
            "%(count)s hand entered on this phone, not sent yet.",
            "%(count)s hands entered on this phone, not sent yet.",
            2,
            count="%(count)s",
        ),
    }
