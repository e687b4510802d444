"""The rules engine in the phone's browser: the files the hand page's offline score loads
(static/js/offline-engine.js), and what the page keeps of its match for it.

* `/runtime/pyodide/<version>/<name>`: Pyodide, as `npm ci` installed it from the registry
  (package.json pins the version) into node_modules/pyodide: only the five files a page
  needs, never a CDN. Without npm at setup there is nothing here (404) and the page keeps the
  server's preview only (OPERATING.md: "The score with no network").
* `/runtime/engine.<digest>.zip`: `scorekeeper/rules`, `play/offline_score.py`, the words
  of the meld verdicts and the deal (`words/verdict_words.py`, `words/game_words.py`, over
  `play/phone_babel.py` as `flask_babel`) and the compiled catalogs (the engine speaks the
  page's language with the same words), zipped once per process; named by its content, so
  a kept copy never goes stale.

Both are fetched only by a hand page, once it has been opened, and kept by the service worker.
"""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from fractions import Fraction
from functools import cache
from pathlib import Path
from typing import Any

from flask import Blueprint, Response, abort, url_for
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from scorekeeper.match import last_tally
from scorekeeper.models import Match
from scorekeeper.play.hand_forms import EntryLayout
from scorekeeper.rules.formats import Credit, find_format
from scorekeeper.web.gettext import gettext as _

bp = Blueprint("engine_files", __name__)

PACKAGE = Path(__file__).resolve().parents[1]  # scorekeeper/
PYODIDE = PACKAGE.parent / "node_modules" / "pyodide"
#: What loadPyodide() fetches, and nothing else of the package (its consoles, maps, types).
RUNTIME_FILES = {
    "pyodide.js": "text/javascript",
    "pyodide.asm.mjs": "text/javascript",
    "pyodide.asm.wasm": "application/wasm",
    "python_stdlib.zip": "application/zip",
    "pyodide-lock.json": "application/json",
}
YEAR = 31_536_000
#: What the engine's zip keeps of `scorekeeper.words`' front door (names offline_score.py uses).
PHONE_WORDS = (
    b"from scorekeeper.words.game_words import deal_text, opening_line, requirement_text\n"
    b"from scorekeeper.words.verdict_words import api_words\n"
)


@cache
def runtime_version() -> str | None:
    """The installed Pyodide's version; None where npm did not install it."""
    try:
        meta = json.loads((PYODIDE / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not all((PYODIDE / name).is_file() for name in RUNTIME_FILES):
        return None
    return str(meta["version"])


@cache
def engine_zip() -> tuple[bytes, str]:
    """The engine's package as the browser imports it, and its digest. `scorekeeper/` and
    `play/` get empty front doors: the real ones import Flask."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        fixed = (1980, 1, 1, 0, 0, 0)  # the same files give the same bytes, and digest

        def put(name: str, data: bytes) -> None:
            archive.writestr(zipfile.ZipInfo(name, fixed), data, zipfile.ZIP_DEFLATED)

        put("scorekeeper/__init__.py", b"")
        put("scorekeeper/play/__init__.py", b"")
        put("scorekeeper/play/offline_score.py", (PACKAGE / "play/offline_score.py").read_bytes())
        # The pages' own word builders (meld verdicts, the deal), over the same catalog: the
        # phone has no Flask, so Flask-Babel's three calls come from phone_babel.py.
        put("flask_babel.py", (PACKAGE / "play/phone_babel.py").read_bytes())
        # The words' front door, as far as the phone needs it: the real one imports every
        # module of words/, and the zip carries two.
        put("scorekeeper/words/__init__.py", PHONE_WORDS)
        for name in ("game_words.py", "verdict_words.py"):
            put(f"scorekeeper/words/{name}", (PACKAGE / "words" / name).read_bytes())
        for path in sorted((PACKAGE / "rules").glob("*.py")):
            put(f"scorekeeper/rules/{path.name}", path.read_bytes())
        for mo in sorted((PACKAGE / "translations").glob("*/LC_MESSAGES/messages.mo")):
            put(f"catalogs/{mo.parent.parent.name}.mo", mo.read_bytes())
    data = buffer.getvalue()
    return data, hashlib.sha256(data).hexdigest()[:12]


@bp.get("/runtime/pyodide/<version>/<name>")
def runtime(version: str, name: str) -> ResponseReturnValue:
    if version != runtime_version() or name not in RUNTIME_FILES:
        abort(404)
    response = Response((PYODIDE / name).read_bytes(), mimetype=RUNTIME_FILES[name])
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


@bp.get("/runtime/engine.<digest>.zip")
def engine(digest: str) -> ResponseReturnValue:
    data, current = engine_zip()
    if digest != current:
        abort(404)
    response = Response(data, mimetype="application/zip")
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    return response


def board_setup(match: Any) -> dict[str, Any] | None:
    """What the scoreboard keeps of its match for the hands saved on the phone: the setup of
    its next hand's form (`offline_setup`). None without the runtime, before any query."""
    if runtime_version() is None:
        return None
    return offline_setup(EntryLayout.of(match))


def corrected_base(match: Match, number: int, before: dict[str, Fraction]) -> dict[str, Any] | None:
    """What a correction waiting on the phone needs to move the match's totals there (the
    scoreboard's and the next hand's, offline-engine.js): each side's total before hand
    `number` and the score the server keeps for it now. Its new score, less that, moves
    every later total (offline_score.py, `_after`)."""
    found = last_tally(match, before=number + 1)
    if found is None or found[0] != number:
        return None  # a deleted hand: nothing of it counts
    return {
        "number": number,
        "before": {name: str(total) for name, total in before.items()},
        "was": {side.name: str(side.score) for side in found[1].sides},
    }


def offline_setup(layout: Any, match: Any = None) -> dict[str, Any] | None:
    """What the hand page keeps of its match for the offline score (the hand form's
    EntryLayout): the rules, the table, each side with its total before the hand and its
    players' seats; and where the runtime and the engine are. A correction's page (of
    `match`) keeps its hand's stored score too. None without the runtime."""
    version = runtime_version()
    if version is None:
        return None
    totals = layout.view.totals
    shared = find_format(layout.format_id).credit is not Credit.TEAM
    return {
        "correcting": None
        if shared or match is None or layout.number is None
        else corrected_base(match, layout.number, totals),
        "runtime": url_for("engine_files.runtime", version=version, name="pyodide.js"),
        "worker": url_for("static", filename="js/engine-worker.js"),
        "engine": url_for("engine_files.engine", digest=engine_zip()[1]),
        "language": str(get_locale() or "en"),
        "variant": layout.variant.id,
        "options": layout.options,
        "format": layout.format_id,
        "shared": shared,
        "unsupported": _("The score of this table is worked out when you are back online."),
        "opening": layout.opening,
        "failed": layout.failed,
        "biribaki": layout.biribaki,
        "cuts": [code for code, _words in layout.cuts],
        "sides": []
        if shared
        else [
            {
                "name": label,
                "before": str(totals[label]),
                "players": [seat.id for seat in layout.members(i, {})],
            }
            for i, label in enumerate(layout.side_labels)
        ],
        # The deal and the match's count, for the scoreboard's hands saved on the phone.
        "seats": list(layout.view.setup.seats),
        "names": {str(seat.id): seat.name for seat in layout.seats},
        "first_dealer": layout.view.setup.first_dealer,
        "played": layout.view.hands_played,
        "next": layout.view.next_number,
        "offline_words": {
            "offline": _("Offline: scored on this phone; the server checks it when it is sent."),
        },
    }
