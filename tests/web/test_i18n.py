"""English and Greek: the browser's language by default, a switch that wins over it, and a
Greek catalog with every message translated and compiled."""

from __future__ import annotations

import json
import re
from html import unescape
from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient
from support.world import signed_in

from scorekeeper.accounts import service as accounts
from scorekeeper.clubs import service as clubs
from scorekeeper.models import Role
from scorekeeper.rules import i18n as engine_i18n

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "scorekeeper" / "translations" / "el" / "LC_MESSAGES"
GREEK = {"Accept-Language": "el-GR,el;q=0.9,en;q=0.5"}


def html_lang(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found, "every page names its language"
    return found.group(1)


def data_words(page: str, marker: str) -> dict[str, object]:
    """The JSON of data-words on the element carrying `marker` (data-meld-check…)."""
    found = re.search(marker + r"[^>]*?data-words='([^']*)'", page, re.S)
    assert found, f"no data-words beside {marker}"
    words: dict[str, object] = json.loads(unescape(found.group(1)))
    return words


# --- choosing the language -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "lang"),
    [
        (None, "en"),
        ("en-US,en;q=0.9", "en"),
        ("el", "el"),
        ("el-GR,el;q=0.9,en;q=0.8", "el"),
        ("fr-FR,fr;q=0.9", "en"),
        ("fr-FR,fr;q=0.9,el;q=0.5", "el"),
        ("en;q=0.4,el;q=0.8", "el"),
    ],
    ids=["none", "english", "greek", "greek-region", "french-only", "french-then-greek", "q"],
)
@pytest.mark.stateless
def test_the_browsers_language_chooses_english_or_greek(
    client: FlaskClient, header: str | None, lang: str
) -> None:
    page = client.get("/", headers={"Accept-Language": header} if header else {})
    assert html_lang(page.text) == lang


@pytest.mark.stateless
def test_greek_home_page(client: FlaskClient) -> None:
    page = client.get("/", headers=GREEK).text
    assert html_lang(page) == "el"
    for text in ("Διαιτητής", "Έλεγξε έναν συνδυασμό", "Οι κανόνες κάθε εκδοχής", "Σύνδεση"):
        assert text in page
    assert "Check a meld" not in page
    # the switch says which language is on
    assert re.search(r'value="el"[^>]*aria-pressed="true"', page)


@pytest.mark.stateless
def test_greek_login_page_and_its_messages(client: FlaskClient) -> None:
    page = client.get("/login", headers=GREEK).text
    assert "Όνομα χρήστη" in page and "Κωδικός" in page
    assert "Να μείνω συνδεδεμένος σε αυτή τη συσκευή" in page
    refused = client.post("/login", data={"username": "", "password": ""}, headers=GREEK)
    assert refused.status_code == 400
    assert "Γράψε το όνομα χρήστη σου." in refused.text
    assert "Γράψε τον κωδικό σου." in refused.text


def test_greek_flash_after_logging_in(app: Flask, client: FlaskClient) -> None:
    with app.app_context():
        accounts.create_user("eleni", "password1")
    client.post("/login", data={"username": "eleni", "password": "password1"}, headers=GREEK)
    assert "Καλώς ήρθες πάλι, eleni." in client.get("/clubs", headers=GREEK).text


@pytest.mark.stateless
def test_greek_meld_checker_verdict(client: FlaskClient) -> None:
    page = client.get(
        "/referee/meld?variant=pagat&kozi=H&cards=3H+4H+2H+6H+7H&opening=50", headers=GREEK
    ).text
    assert "Έλεγχος συνδυασμού" in page
    for text in ("Έγκυρος", "σειρά", "βρόμικη", "κόζι", "Πόντοι φύλλων", "5 φύλλα"):
        assert text in page
    assert "Το 2♥ παίζει ως 5♥" in page
    assert "Δεν ανοίγει: 30 πόντοι φύλλων, χρειάζονται τουλάχιστον 50." in page
    # the kózi buttons and the card picker name the suits and cards in Greek
    for text in ("πίκες", "κούπες", "καρό", "σπαθιά", 'aria-label="άσος πίκα"'):
        assert text in page
    assert 'aria-label="ντάμα κούπα"' in page and 'aria-label="τζόκερ"' in page


@pytest.mark.stateless
def test_the_card_picker_speaks_each_pages_language_in_turn(client: FlaskClient) -> None:
    """The picker's HTML is drawn once per language and kept (web/card_picker.py): a page in
    one language never gets the picker another drew, whichever came first."""
    path = "/referee/meld?variant=pagat&kozi=H&cards=3H"
    for _ in range(2):
        english = client.get(path).text
        greek = client.get(path, headers=GREEK).text
        assert 'aria-label="ace of spades"' in english and "άσος πίκα" not in english
        assert 'aria-label="άσος πίκα"' in greek and "ace of spades" not in greek
        assert 'aria-label="Επιλογή φύλλων για τον συνδυασμό"' in greek


def test_greek_scoreboard(client: FlaskClient, match_id: int) -> None:
    page = client.get(f"/matches/{match_id}", headers=GREEK).text
    assert html_lang(page) == "el"
    for text in (f"Παρτίδα {match_id}", "Γράψε τον γύρο 1", "Γύροι", "Μοιράζει"):
        assert text in page
    assert "νίκη: <strong>πάνω από 5000</strong>" in page
    assert "data-wake-lock" in page and "js/wake-lock." in page


def test_greek_hand_entry_page(client: FlaskClient, match_id: int) -> None:
    page = client.get(f"/matches/{match_id}/hands/new", headers=GREEK).text
    for text in ("Γύρος 1", "Κόζι", "Συνδυασμοί", "Έκλεισε", "Πήρε το μπιριμπάκι"):
        assert text in page
    assert "Αποθήκευση γύρου 1" in page and "Υπολόγισε" in page
    assert "data-wake-lock" in page and "js/wake-lock." in page


def test_greek_hand_entry_saves_and_says_so(client: FlaskClient, match_id: int) -> None:
    form = client.get(f"/matches/{match_id}/hands/new", headers=GREEK).text
    key = re.search(r'name="key" value="([^"]+)"', form)
    assert key
    saved = client.post(
        f"/matches/{match_id}/hands/new",
        data={"key": key.group(1), "kozi": "H", "s0-meld": "3H 4H 5H", "save": "1"},
        headers=GREEK,
        follow_redirects=True,
    )
    assert "Ο γύρος 1 αποθηκεύτηκε." in saved.text


def test_role_names_and_service_messages_are_greek(
    app: Flask, client: FlaskClient, match_id: int
) -> None:
    page = client.get("/clubs", headers=GREEK).text
    assert '<span class="role role-owner">διαχειριστής</span>' in page
    with app.app_context():
        viewer = accounts.create_user("nikos", "password1")
        club = clubs.club_for(accounts.find_user("eleni"), 1)
        clubs.join_by_invite(viewer, club.invite_code)
        assert clubs.role_in(viewer, club) is Role.VIEWER
        viewer_id = viewer.id
    signed_in(client, viewer_id)
    refused = client.get(f"/matches/{match_id}/hands/new", headers=GREEK)
    assert refused.status_code == 403
    assert "Χρειάζεται ο ρόλος «γραφιάς»· εδώ είσαι «θεατής»." in unescape(refused.text)


def test_english_stays_word_for_word(client: FlaskClient, match_id: int) -> None:
    page = client.get(f"/matches/{match_id}/hands/new").text
    assert html_lang(page) == "en"
    assert "Save hand 1" in page and "Took the biribaki" in page
    assert "to win: <strong>above 5000</strong>" in client.get(f"/matches/{match_id}").text


# --- the switch ------------------------------------------------------------------------------


@pytest.mark.stateless
def test_the_switch_sets_a_cookie_that_wins_over_the_browser(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "el", "next": "/login?next=%2Fclubs"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/login?next=%2Fclubs"
    cookie = client.get_cookie("lang")
    assert cookie is not None and cookie.value == "el"
    assert html_lang(client.get("/", headers={"Accept-Language": "en"}).text) == "el"

    client.post("/language", data={"lang": "en", "next": "/"})
    assert html_lang(client.get("/", headers=GREEK).text) == "en"


@pytest.mark.stateless
def test_the_switch_also_answers_a_link(client: FlaskClient) -> None:
    response = client.get("/language/el?next=/rules")
    assert response.status_code == 303
    assert response.headers["Location"] == "/rules"
    assert html_lang(client.get("/rules").text) == "el"


@pytest.mark.stateless
def test_an_unknown_language_changes_nothing(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "fr", "next": "/rules"})
    assert response.status_code == 303
    assert client.get_cookie("lang") is None
    assert html_lang(client.get("/rules", headers=GREEK).text) == "el"


@pytest.mark.stateless
def test_the_switch_needs_no_csrf_token(app: Flask) -> None:
    """A phone left open at the table all evening must still switch: no token to expire."""
    app.config["WTF_CSRF_ENABLED"] = True
    response = app.test_client().post("/language", data={"lang": "el", "next": "/"})
    assert response.status_code == 303


@pytest.mark.parametrize(
    "target",
    [
        "//evil.example/",
        "https://evil.example/",
        "http:/evil.example",
        "/\\evil.example",
        "/\t/evil.example",
        "javascript:alert(1)",
        "evil.example",
    ],
    ids=["scheme-relative", "absolute", "one-slash", "backslash", "tab", "javascript", "bare"],
)
@pytest.mark.stateless
def test_the_switch_never_sends_anyone_to_another_site(client: FlaskClient, target: str) -> None:
    response = client.post("/language", data={"lang": "el", "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


@pytest.mark.stateless
def test_without_next_the_switch_goes_back_to_a_page_of_this_site(client: FlaskClient) -> None:
    back = client.post(
        "/language", data={"lang": "el"}, headers={"Referer": "http://localhost/rules"}
    )
    assert back.headers["Location"] == "/rules"
    away = client.post(
        "/language", data={"lang": "el"}, headers={"Referer": "https://evil.example/rules"}
    )
    assert away.headers["Location"] == "/"


@pytest.mark.stateless
def test_every_page_offers_the_switch_back_to_itself(client: FlaskClient) -> None:
    page = client.get("/rules/pagat?x=1").text
    assert 'action="/language"' in page
    assert 'name="next" value="/rules/pagat?x=1"' in page
    # a form shown again after a POST offers a page that answers GET
    refused = client.post("/login", data={"username": ""})
    assert 'name="next" value="/login"' in refused.text


# --- the engine speaks the page's language ---------------------------------------------------


@pytest.mark.fresh_app  # adds a route
def test_each_request_hands_the_engine_its_translations(app: Flask, client: FlaskClient) -> None:
    app.add_url_rule("/engine-language", view_func=engine_i18n.language)
    assert client.get("/engine-language", headers=GREEK).text == "el"
    assert client.get("/engine-language").text == "en"
    # and the language does not linger on the thread once the request is over
    client.get("/engine-language", headers=GREEK)
    assert engine_i18n.language() == "en"


# --- page scripts ----------------------------------------------------------------------------


@pytest.mark.stateless
def test_the_meld_checker_script_gets_greek_words(client: FlaskClient) -> None:
    page = client.get("/referee/meld", headers=GREEK).text
    words = data_words(page, "data-meld-check")
    assert words["card_points"] == "Πόντοι φύλλων"
    assert words["every_rule"] == "Όλοι οι κανόνες: %(rules)s"
    # The opening line is no script word any more: the API words it in the page's language.
    body = {"variant": "pagat", "kozi": "H", "cards": "QH QD QC", "opening": {"points": 31}}
    said = client.post("/api/v1/melds/check", json=body, headers=GREEK).get_json()
    assert said["verdict_words"]["opening"]["text"].startswith(
        "Δεν ανοίγει: 30 πόντοι φύλλων, χρειάζονται "
    )
    picker = data_words(page, "data-card-picker")
    assert picker["filled"] == "Σειρά από %(first)s ως %(last)s· το ⌫ κρατά μόνο τα δύο φύλλα."
    assert ">Καθάρισμα<" in page


def test_the_hand_entry_script_gets_greek_words(client: FlaskClient, match_id: int) -> None:
    page = client.get(f"/matches/{match_id}/hands/new", headers=GREEK).text
    words = data_words(page, "data-hand-entry")
    assert words["line_unreadable"] == "Αυτός ο συνδυασμός δεν διαβάζεται."


@pytest.mark.stateless
def test_english_script_words_are_the_english_sentences(client: FlaskClient) -> None:
    words = data_words(client.get("/referee/meld").text, "data-meld-check")
    assert words["every_rule"] == "Every rule of %(rules)s"
    assert words["no_table_row"] == "No table row"
    assert "opens" not in words  # the API words the opening line


def test_copy_buttons_speak_greek(app: Flask, client: FlaskClient, match_id: int) -> None:
    page = client.get("/clubs/1/invite", headers=GREEK).text
    assert 'data-copied="Αντιγράφηκε."' in page
    assert ">Αντιγραφή συνδέσμου<" in page


# --- the catalog -----------------------------------------------------------------------------


def greek_catalog() -> Catalog:
    with (CATALOG / "messages.po").open("rb") as po:
        return read_po(po, locale="el")


def test_every_greek_message_is_translated_and_none_is_fuzzy() -> None:
    catalog = greek_catalog()
    assert len(catalog) > 400
    untranslated = [
        m.id
        for m in catalog
        if m.id and (not all(m.string) if isinstance(m.string, tuple) else not m.string)
    ]
    fuzzy = [m.id for m in catalog if m.id and m.fuzzy]
    assert untranslated == []
    assert fuzzy == []
    assert not catalog.fuzzy, "the catalog's header is not fuzzy either"


def test_greek_messages_keep_their_placeholders() -> None:
    """A translation that names another field, or drops one the page needs, breaks the page."""
    problems = [(m.id, [str(e) for e in errors]) for m, errors in greek_catalog().check()]
    assert problems == []


def test_the_compiled_catalog_is_up_to_date_with_the_po_file() -> None:
    buffer = BytesIO()
    write_mo(buffer, greek_catalog())
    buffer.seek(0)
    compiled = read_mo(buffer)
    with (CATALOG / "messages.mo").open("rb") as mo:
        committed = read_mo(mo)

    def contents(catalog: Catalog) -> dict[object, object]:
        def frozen(value: object) -> object:
            return tuple(value) if isinstance(value, list | tuple) else value

        return {frozen(m.id): frozen(m.string) for m in catalog if m.id}

    assert contents(committed) == contents(compiled), (
        "run: pybabel compile -d scorekeeper/translations"
    )


def test_every_message_in_the_sources_is_in_the_catalog() -> None:
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    # OPERATING.md's extract command ("Languages"): Flask-Babel's _l and the engine's keywords.
    keywords = {
        **DEFAULT_KEYWORDS,
        "_l": None,
        "tr": None,
        "mark": None,
        "ntr": (1, 2),
        "ptr": ((1, "c"), 2),
        "tr_for": (2,),
        "pmark": ((1, "c"), 2),
    }
    found = {
        message
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=keywords
        )
    }
    known = {m.id for m in greek_catalog() if m.id}
    missing = sorted(map(str, found - known))
    assert missing == [], "run the pybabel extract and update commands in OPERATING.md"
    stale = sorted(map(str, known - found))
    assert stale == [], "messages no page uses any more: run pybabel update"


@pytest.mark.stateless
def test_pages_tell_caches_that_their_words_depend_on_the_language(client: FlaskClient) -> None:
    vary = client.get("/").headers.get("Vary", "")
    assert "Accept-Language" in vary and "Cookie" in vary
