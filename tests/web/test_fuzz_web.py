"""Fuzzing every HTML form and every query string with Hypothesis, as test_fuzz_api.py fuzzes
the JSON API: any field text (unicode, lone surrogates and bad bytes percent-encoded, NUL,
RTL marks, non-ASCII digits, huge and negative numbers, strings up to and past the body
limit), repeated and missing fields, unknown fields, path ids that name nothing. No answer
is ever a 5xx; a 4xx says why in words; nothing the club had saved is lost.

The routes come from the app's url_map, their access class from
tests/security/security_routes.py, the fields of each form from the pages that draw it and
from the route's valid request there, so a route added later is fuzzed too; a test fails
for a form whose fields nobody knows.

The world (security_world.build_world) is built once per module and database. Routes that
write get a fresh copy of it (its own club, people and match) per test, so what they
delete or change is theirs; the home world is only read, and a test ends by checking that
every row of it is as it was and its match scores the same.
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, quote, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from lxml import etree
from lxml import html as lxml_html
from security_routes import CSRF_EXEMPT, LOGIN, TABLE
from security_world import (
    World,
    build_world,
    client_as,
    drop,
    every_rule,
    fill,
    secure_app,
    snapshot,
)
from support.databases import postgresql_url, wipe_postgresql, writes
from support.replay import state_of
from werkzeug.datastructures import MultiDict
from werkzeug.routing import Rule
from werkzeug.test import TestResponse, stream_encode_multipart

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.models import Match
from scorekeeper.web.url_ids import RowIdConverter

#: Generated requests per route and database (the sweep below sends its fixed odd values as
#: well); SCOREKEEPER_FUZZ_EXAMPLES asks for more.
EXAMPLES = int(os.environ.get("SCOREKEEPER_FUZZ_EXAMPLES", "10"))
POSTGRESQL_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")
DATABASES = ["sqlite", "postgresql"] if POSTGRESQL_URL else ["sqlite"]
#: The body limit of every route but the import (config MAX_CONTENT_LENGTH).
BODY_LIMIT = 256 * 1024

#: URL parameters that name a tournament or a part of one (World.url_values).
TOURNAMENT_ARGUMENTS = {
    "tournament_id",
    "table_token",
    "round_number",
    "table_number",
    "table",
    "side",
}

# --- the routes ----------------------------------------------------------------------------------

ROUTES = list(every_rule(create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})))


def _is_api(rule: Rule) -> bool:
    return rule.rule.startswith("/api/")


#: Every form post (the JSON API's bodies are test_fuzz_api.py's) and every GET, API included.
FORM_ROUTES = [(m, r) for m, r in ROUTES if m == "POST" and not _is_api(r)]
QUERY_ROUTES = [(m, r) for m, r in ROUTES if m == "GET"]


def route_id(value: Any) -> str:
    return value.rule if isinstance(value, Rule) else str(value)


def _writes(method: str, rule: Rule) -> bool:
    """Whether a request of the route may change stored data (the access table says so)."""
    return bool(TABLE[(method, rule.endpoint)].changes)


# --- what a request holds ------------------------------------------------------------------------

#: Text that has broken parsers somewhere: digits int() reads and isdigit() misjudges, signs,
#: exponents, NUL, direction marks, a lone surrogate, dates beyond the calendar.
SPECIAL = [
    "",
    " ",
    "0",
    "-1",
    "+1",
    " 7 ",
    "1.5",
    "1e999",
    "NaN",
    "-0",
    "²",
    "١٢",
    "१२३",
    "\U0001d7d9\U0001d7da",  # double-struck 1 and 2
    "½",
    "Ⅻ",
    "9" * 19,
    "9" * 5000,
    str(2**31),
    str(2**63),
    str(-(2**63) - 1),
    "\x00",
    "a\x00b",
    "\u202e",
    "\u200f7",
    "\ufeff1",
    "\ud800",
    "x\udfffy",
    "\uffff",
    "😀",
    "ß",
    "İ",
    "%",
    "%zz",
    "&",
    "=",
    "..",
    "../../etc/passwd",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "none",
    "all",
    "true",
    "on",
    "2026-02-30",
    "0000-01-01",
    "0001-01-01",
    "9999-12-31",
    "99999-01-01",
    "2026-13-01",
    "1-1-1",
    "5S-JS",
    "QD QC QH",
    "JK",
    "3H 4H 2H",
    # JSON, for the fields that hold some (the meld checker's house rules).
    '{"min_size": "x"}',
    '{"max_size": 1e999}',
    "[1]",
    "[" * 3000 + "]" * 3000,
]
#: Raw pieces of a query string or body that no encoder would make: bad escapes and bytes.
RAW = ["%", "%zz", "%FF", "%C0%80", "%ED%A0%80", "%F4%90%80%80", "+", "==", "&&", ";", "a=%00"]

any_text = st.text(max_size=30)
surrogates = st.text(
    alphabet=st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF), min_size=1, max_size=3
)
numbers = st.one_of(
    st.integers(-5, 2000),
    st.integers(),
    st.sampled_from([100, 101, 1000, 1001, 200_000, 200_001, 1_000_001, 2**31 - 1, 2**63]),
).map(str)
#: From just past the length limits of the text fields to past the body limit (a query
#: string stops at 8 KB: no server takes a longer request line).
LONG = [81, 121, 201, 1001, 5000]
HUGE = [*LONG, 70_000, BODY_LIMIT // 3, BODY_LIMIT + 1]


def repeated(lengths: list[int]) -> st.SearchStrategy[str]:
    pieces = st.sampled_from(["x", "9", "é", "€", "😀", "\u202e", "5S "])
    return st.tuples(pieces, st.sampled_from(lengths)).map(lambda t: t[0] * t[1])


def weighted(*choices: tuple[int, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
    """One of the strategies, each as often as its weight says."""
    table = [strategy for weight, strategy in choices for _ in range(weight)]
    return st.integers(0, len(table) - 1).flatmap(lambda i: table[i])


def field_values(known: list[str], lengths: list[int] = HUGE) -> st.SearchStrategy[str]:
    """A field's value: one the page offers (so the rest of the form gets read) or anything."""
    good = st.sampled_from(known) if known else any_text
    return weighted(
        (5, good),
        (2, any_text),
        (2, st.sampled_from(SPECIAL)),
        (2, numbers),
        (1, surrogates),
        (1, repeated(lengths)),
    )


def _quote(text: str) -> str:
    """Percent-encoded as UTF-8, lone surrogates too (as the bytes no decoder accepts)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


def encoded(pairs: list[tuple[str, str]], raw: list[str]) -> str:
    """A query string or form body of `pairs` with `raw` pieces mixed in."""
    parts = [f"{_quote(k)}={_quote(v)}" for k, v in pairs] + raw
    return "&".join(parts)


@dataclass(frozen=True)
class Fields:
    """What is known of a route's fields: a valid request's, and those the pages draw."""

    base: list[tuple[str, str]]  # a request that does what the route is for
    values: dict[str, list[str]]  # every field name, with the values a page offers

    @property
    def names(self) -> list[str]:
        return sorted(self.values)


@st.composite
def pairs_of(
    draw: st.DrawFn, fields: Fields, every_name: list[str], lengths: list[int] = HUGE
) -> list[tuple[str, str]]:
    """The valid request with each field kept, changed, dropped or repeated, and more
    fields added: known ones of this route or others, and unknown ones."""
    pairs: list[tuple[str, str]] = []
    for name, value in fields.base:
        fate = draw(st.sampled_from(["keep"] * 3 + ["change", "change", "drop", "repeat"]))
        if fate == "keep":
            pairs.append((name, value))
        elif fate == "change":
            pairs.append((name, draw(field_values(fields.values.get(name, [value]), lengths))))
        elif fate == "repeat":
            pairs += [(name, draw(field_values([value], lengths))), (name, value)]
    names = weighted(
        (6, st.sampled_from(fields.names) if fields.names else any_text),
        (1, st.sampled_from(every_name)),
        (1, any_text),
        (1, surrogates),
    )
    for _ in range(draw(st.integers(0, 4))):
        name = draw(names)
        pairs.append((name, draw(field_values(fields.values.get(name, []), lengths))))
    return pairs


# --- reading the pages' forms and links ----------------------------------------------------------


@dataclass
class PageForm:
    action: str
    method: str
    fields: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


class _Forms(HTMLParser):
    """Every form of a page: its action, method, and each field with the values offered
    (an input's value, every option of a select, each radio and checkbox)."""

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        self.forms: list[PageForm] = []
        self.links: list[str] = []
        self._form: PageForm | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and "?" in a.get("href", ""):
            self.links.append(a["href"])
        if tag == "form":
            action = a.get("action") or self.url
            self._form = PageForm(action, a.get("method", "get").upper())
            self.forms.append(self._form)
        elif self._form is None:
            return
        name = a.get("name") or a.get("form-name")
        if tag in ("input", "textarea", "button") and name:
            self._form.fields[name].append(a.get("value", ""))
        elif tag == "select" and name:
            self._select = name
            self._form.fields.setdefault(name, [])
        elif tag == "option" and self._select is not None:
            self._form.fields[self._select].append(a.get("value", ""))

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "form":
            self._form = None


@dataclass
class Harvest:
    """Field names and values per (method, endpoint), read from every page as people see it."""

    fields: dict[tuple[str, str], dict[str, set[str]]]
    unknown_actions: set[str]

    def of(self, method: str, endpoint: str) -> dict[str, set[str]]:
        return self.fields.get((method, endpoint), {})


def harvest(app: Flask, world: World) -> Harvest:
    found: dict[tuple[str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    unknown: set[str] = set()
    adapter = app.url_map.bind("localhost")
    clients = {"anonymous": client_as(app, world, "anonymous")}
    clients["owner"] = client_as(app, world, "owner")
    for _method, rule in QUERY_ROUTES:
        if rule.endpoint == "static" or _is_api(rule):
            continue
        url = fill(rule, world.url_values())
        for client in clients.values():
            response = client.get(url, buffered=True)
            if response.status_code != 200 or response.mimetype != "text/html":
                continue
            reader = _Forms(url)
            reader.feed(response.get_data(as_text=True))
            sources = [(f.method, f.action, f.fields) for f in reader.forms]
            for link in reader.links:
                query: dict[str, list[str]] = defaultdict(list)
                for k, v in parse_qsl(urlsplit(link).query, keep_blank_values=True):
                    query[k].append(v)
                sources.append(("GET", link, query))
            for form_method, action, fields in sources:
                path = urlsplit(action).path or url
                try:
                    endpoint, _args = adapter.match(path, method=form_method)
                except Exception:  # an action no route takes
                    unknown.add(f"{form_method} {action} (on {url})")
                    continue
                for name, values in fields.items():
                    found[(form_method, str(endpoint))][name].update(values)
    return Harvest(found, unknown)


#: The query keys the views read (request.args.get("…") and the like), from their source.
SOURCE = Path(__file__).parents[2] / "scorekeeper"
ARG_KEYS = sorted(
    {
        key
        for path in SOURCE.rglob("*.py")
        for pattern in (r"(?:args|values)\.get\(\s*f?\"([^\"{]+)", r"\"([^\"]+)\" in request\.args")
        for key in re.findall(pattern, path.read_text())
    }
)


# --- the module's world --------------------------------------------------------------------------


@dataclass
class Fuzz:
    app: Flask
    world: World
    harvest: Harvest
    baseline: dict[str, list[tuple[str, ...]]]  # every row of the home world
    scores: list[tuple[str, Any]]  # the home match's standings
    every_name: list[str]
    worlds: int = 0  # copies made for the routes that write
    # `writes()` when every row of the home world was last seen in place: while it has not
    # moved, no statement but reads has been sent, so nothing can have gone since.
    seen_at: int = -1
    database: str = "sqlite"

    def copy_of_world(self, rule: Rule) -> World:
        """A world of its own (people, clubs, matches) for a route that writes; with a
        tournament of its own only for a route that names one."""
        self.worlds += 1
        n = self.worlds
        home = None if TOURNAMENT_ARGUMENTS & rule.arguments else self.world
        tournament = None if home is None else (home.tournament, home.table_link)
        return build_world(self.app, text=lambda s: f"{s}{n}", tournament=tournament)


def _scores(app: Flask, match_id: int) -> list[tuple[str, Any]]:
    with app.app_context():
        match = db.session.get(Match, match_id)
        assert match is not None, "the home match is gone"
        standings = [(s.name, s.total) for s in state_of(match).standings]
        db.session.remove()
        return standings


@pytest.fixture(scope="module", params=DATABASES)
def fuzz(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Fuzz]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('fuzz_web') / 'fuzz.sqlite'}"
    else:
        assert POSTGRESQL_URL is not None
        # Its own database in each test process: the shared app's is emptied after tests.
        url = postgresql_url(POSTGRESQL_URL, f"_{os.environ.get('PYTEST_XDIST_WORKER', '')}_fuzz")
        wipe_postgresql(url)
    # As production runs, with login limits on; CSRF off so the fields reach their parsers
    # (test_a_bad_csrf_token_is_a_400_that_says_so turns it on).
    app = secure_app(url, WTF_CSRF_ENABLED=False)
    try:
        world = build_world(app)
        found = harvest(app, world)
        names = {n for fields in found.fields.values() for n in fields}
        names |= {k for route in TABLE.values() for k in _base_keys(route)}
        fuzz = Fuzz(
            app,
            world,
            found,
            snapshot(app),
            _scores(app, world.match),
            sorted(names | set(ARG_KEYS)),
            database=request.param,
        )
        fuzz.seen_at = writes()  # the baseline is what it holds now
        yield fuzz
    finally:
        drop(app)


def _base_keys(route: Any) -> list[str]:
    if route.ask is None:
        return []
    try:
        data = route.ask(None, None).get("data", {})  # the asks that need no world
    except Exception:  # an ask that reads the world
        return []
    return list(data) if isinstance(data, dict) else []


def _base(fuzz: Fuzz, world: World, method: str, rule: Rule) -> tuple[list[tuple[str, str]], Any]:
    """The route's valid request as field pairs, and an uploaded file's content if any."""
    route = TABLE[(method, rule.endpoint)]
    if route.ask is None:
        return [], None
    owner = client_as(fuzz.app, world, "owner")
    data = route.ask(world, owner).get("data", {})
    pairs, upload = [], None
    items = data.items(multi=True) if isinstance(data, MultiDict) else data.items()
    for name, value in items:
        if isinstance(value, tuple):  # (file, filename)
            upload = (name, value[0].read())
        else:
            pairs.append((name, str(value)))
    return pairs, upload


def _fields(fuzz: Fuzz, method: str, rule: Rule, base: list[tuple[str, str]]) -> Fields:
    values: dict[str, set[str]] = defaultdict(set)
    # A GET of a form's own page reads the form's fields from the query (a reload).
    for asked in {method, "POST"} if method == "GET" else {method}:
        for name, offered in fuzz.harvest.of(asked, rule.endpoint).items():
            values[name] |= offered
    for name, value in base:
        values[name].add(value)
    if method == "GET":
        for name in ARG_KEYS:
            values.setdefault(name, set())
    return Fields(base, {n: sorted(v) for n, v in values.items()})


# --- asking ---------------------------------------------------------------------------------------

#: Ids that name nothing: none, past a 32-bit id, past BIGINT, and far past it.
MISSING_IDS = [0, 2**31 - 1, 2**31, 2**63, 10**30]


@st.composite
def paths(draw: st.DrawFn, rule: Rule, world: World) -> str:
    """The route's URL for a row of `world` mostly; sometimes another club's, or one that
    does not exist, or (for text parameters) any text."""
    values = dict(world.url_values())
    others = {"club_id": world.other_club, "match_id": world.other_match}
    for name, converter in rule._converters.items():  # werkzeug's own table
        if draw(st.integers(0, 5)) != 0:
            continue
        if isinstance(converter, RowIdConverter):
            values[name] = draw(st.sampled_from([*MISSING_IDS, others.get(name, 0)]))
        else:
            text = draw(weighted((3, any_text), (1, st.sampled_from(SPECIAL)), (1, surrogates)))
            values[name] = _quote(text) or "x"
    return fill(rule, values)


@dataclass(frozen=True)
class Sent:
    path: str
    query: str
    body: bytes | None
    content_type: str | None
    accept: str | None
    role: str
    address: str
    cookies: tuple[tuple[str, str], ...]


def _roles(method: str, rule: Rule) -> list[str]:
    """Who asks: a member where the route is for members, else anonymous or someone signed in."""
    statuses = TABLE[(method, rule.endpoint)].statuses
    if statuses["anonymous"] == LOGIN:
        return ["owner"]
    if statuses["owner"] == 302 and statuses["anonymous"] != 302:  # login and register
        return ["anonymous"]
    return ["anonymous", "owner"]


#: A cookie holds at most 4 KB (browsers drop larger ones), so no huge values here.
cookie_values = st.one_of(
    st.sampled_from(["el", "en", "dark", "light"]),
    any_text,
    st.sampled_from([s for s in SPECIAL if len(s) < 100]),
)


def requests(
    fuzz: Fuzz,
    world: World,
    method: str,
    rule: Rule,
    fields: Fields,
    upload: tuple[str, bytes] | None,
) -> st.SearchStrategy[Sent]:
    pairs = pairs_of(fields, fuzz.every_name)
    raw = st.lists(st.sampled_from(RAW), max_size=2)
    if method == "GET":
        query = st.builds(encoded, pairs_of(fields, fuzz.every_name, LONG), raw)
        body = st.just((None, None))
    else:
        query = weighted(
            (4, st.just("")),
            (
                1,
                st.builds(
                    encoded, pairs_of(Fields([], {k: [] for k in ARG_KEYS}), fuzz.every_name), raw
                ),
            ),
        )
        body = st.one_of(
            *[st.builds(_form_body, pairs, raw)] * 6,
            st.builds(_multipart_body, pairs, st.just(upload), st.binary(max_size=200)),
            st.builds(_json_body, pairs),
            st.builds(lambda b: (b, "text/plain"), st.binary(max_size=100)),
        )
    return st.builds(
        lambda path, q, b, accept, role, address, cookies: Sent(
            path, q, b[0], b[1], accept, role, address, cookies
        ),
        paths(rule, world),
        query,
        body,
        st.sampled_from([None, None, "application/json", "text/html", "*/*", "\udc80"]),
        st.sampled_from(_roles(method, rule)),
        # Most requests from addresses of their own, so the login limits rarely stop them.
        weighted(
            (4, st.integers(1, 2**24 - 1).map(lambda n: f"10.{n >> 16}.{n >> 8 & 255}.{n & 255}")),
            (1, st.just("192.0.2.1")),
        ),
        st.lists(
            st.tuples(st.sampled_from(["lang", "theme"]), cookie_values),
            max_size=2,
        ).map(tuple),
    )


def _form_body(pairs: list[tuple[str, str]], raw: list[str]) -> tuple[bytes, str]:
    return encoded(pairs, raw).encode("ascii"), "application/x-www-form-urlencoded"


def _multipart_body(
    pairs: list[tuple[str, str]], upload: tuple[str, bytes] | None, junk: bytes
) -> tuple[bytes, str]:
    """The fields as multipart/form-data, with a file: the route's own upload (its content
    sometimes junk), or junk sent as one of the text fields."""
    data: MultiDict[str, Any] = MultiDict()
    for k, v in pairs:
        data.add(_unicode(k), _unicode(v))
    if upload is not None:
        name, content = upload
        data.add(name, (BytesIO(junk if junk[:1] == b"\x00" else content), "club.json"))
    elif pairs:
        data.add(_unicode(pairs[0][0]), (BytesIO(junk), "junk.bin"))
    # A boundary of its own: werkzeug's random one would make the examples irreproducible.
    _stream, _length, boundary = stream_encode_multipart(data, boundary="fuzz-boundary")
    return _stream.read(), f"multipart/form-data; boundary={boundary}"


def _unicode(text: str) -> str:
    """Text a multipart body can carry (a lone surrogate becomes U+FFFD, as a browser sends)."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _json_body(pairs: list[tuple[str, str]]) -> tuple[bytes, str]:
    """The fields as a JSON object (Flask-WTF reads a JSON body as the form), its values
    sometimes not text at all."""
    body: dict[str, Any] = {}
    for i, (k, v) in enumerate(pairs):
        body[k] = [v, 7, None, {"x": v}, True][i % 5] if i % 2 else v
    return json.dumps(body).encode("utf-8", "surrogatepass"), "application/json"


def send(fuzz: Fuzz, world: World, method: str, sent: Sent) -> TestResponse:
    client: FlaskClient = client_as(fuzz.app, world, sent.role)
    for name, value in sent.cookies:
        client.set_cookie(name, value.encode("utf-8", "replace").decode("latin-1"))
    headers = {}
    if sent.accept is not None:
        headers["Accept"] = sent.accept
    return client.open(
        sent.path,
        method=method,
        query_string=sent.query or None,
        data=sent.body,
        content_type=sent.content_type,
        headers=headers,
        environ_base={"REMOTE_ADDR": sent.address},
        buffered=True,
    )


# --- what an answer must be -----------------------------------------------------------------------


#: The elements a page says a refusal in: form and field errors, alerts, flashes, and an error
#: page's description; none of it inside (or itself) a `hidden` element.
MESSAGE_CLASSES = ("field-errors", "form-errors", "ref-errors", "flash-error", "pitch")
_SHOWN_MESSAGE_TEXT = etree.XPath(
    "//*[("
    + " or ".join(
        f"contains(concat(' ', normalize-space(@class), ' '), ' {c} ')" for c in MESSAGE_CLASSES
    )
    + " or @role = 'alert') and not(ancestor-or-self::*[@hidden])]"
    "//text()[not(ancestor::*[@hidden]) and not(ancestor::script) and not(ancestor::style)]"
)


def human_message(response: TestResponse) -> str:
    """The words a refusal says, or "" for a refusal that says nothing."""
    if response.is_json:
        body = response.get_json(silent=True)
        if not isinstance(body, dict):
            return ""
        said = [body.get("error"), *(body.get("errors") or [])]
        return " ".join(s for s in said if isinstance(s, str) and s.strip())
    # lxml's C parser: Python's html.parser took a fifth of the sweep's time, on every 4xx page.
    data = response.get_data()
    if not data.strip():
        return ""
    try:
        page = lxml_html.document_fromstring(data)
    except (etree.ParserError, ValueError):
        return ""
    texts = [str(t).strip() for t in _SHOWN_MESSAGE_TEXT(page)]
    return " ".join(t for t in texts if len(t.split()) >= 3)


def check_answer(method: str, sent: Sent, response: TestResponse) -> None:
    where = f"{method} {sent.path}?{sent.query[:200]}"
    text = response.get_data()[:600].decode("utf-8", "replace")  # some answers are files
    assert 200 <= response.status_code < 500, f"{where} answered {response.status_code}: {text}"
    if response.status_code >= 400:
        assert human_message(response), (
            f"{where} answered {response.status_code} with no message: {text}"
        )


def check_nothing_lost(fuzz: Fuzz) -> None:
    """Every row of the home world is as it was, and its match scores the same."""
    if writes() == fuzz.seen_at:
        return  # not a statement but reads since they were last seen: they are all there
    now = snapshot(fuzz.app)
    for table, rows in fuzz.baseline.items():
        lost = sorted(set(rows) - set(now[table]))
        assert not lost, f"rows of {table} changed or went: {lost[:3]}"
    assert _scores(fuzz.app, fuzz.world.match) == fuzz.scores
    fuzz.seen_at = writes()


def run(fuzz: Fuzz, method: str, rule: Rule) -> None:
    world = fuzz.copy_of_world(rule) if method != "GET" and _writes(method, rule) else fuzz.world
    base, upload = _base(fuzz, world, method, rule) if method != "GET" else ([], None)
    fields = _fields(fuzz, method, rule, base)

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        phases=[Phase.explicit, Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    @given(sent=requests(fuzz, world, method, rule, fields, upload))
    def attempt(sent: Sent) -> None:
        check_answer(method, sent, send(fuzz, world, method, sent))

    attempt()
    check_nothing_lost(fuzz)


# --- the tests ------------------------------------------------------------------------------------


#: The random requests run on SQLite alone. What PostgreSQL takes differently from SQLite
#: (numbers past 64 bits, long text) is swept into every place of every route on both
#: (test_the_sweep_finds_no_5xx); everything else a random request holds is read, judged and
#: refused by the app's own code before any database sees it, the same on both.
ON_SQLITE = pytest.mark.parametrize("fuzz", ["sqlite"], indirect=True)


@ON_SQLITE
@pytest.mark.parametrize(("method", "rule"), FORM_ROUTES, ids=route_id)
def test_no_form_post_fails_or_loses_data(fuzz: Fuzz, method: str, rule: Rule) -> None:
    run(fuzz, method, rule)


@ON_SQLITE
@pytest.mark.parametrize(("method", "rule"), QUERY_ROUTES, ids=route_id)
def test_no_query_string_fails_or_loses_data(fuzz: Fuzz, method: str, rule: Rule) -> None:
    run(fuzz, method, rule)


def test_every_form_of_every_page_is_fuzzed(fuzz: Fuzz) -> None:
    """A form on a page posts to a route fuzzed here; a form route's fields are known."""
    assert not fuzz.harvest.unknown_actions
    fuzzed = {("POST", r.endpoint) for _m, r in FORM_ROUTES}
    posted = {key for key in fuzz.harvest.fields if key[0] == "POST"}
    api = {("POST", r.endpoint) for m, r in ROUTES if _is_api(r)}
    assert posted - api <= fuzzed
    for method, rule in FORM_ROUTES:
        route = TABLE[(method, rule.endpoint)]
        known = fuzz.harvest.of(method, rule.endpoint) or route.ask
        # A route that takes no fields says so in the access table (no request body there).
        assert known or route.ask is None, f"nobody knows the fields of {method} {rule.rule}"


def test_the_fuzzer_reaches_the_forms(fuzz: Fuzz) -> None:
    hand = fuzz.harvest.of("POST", "matches.new_hand")
    assert {"kozi", "s0-meld", "s1-points", "accepted_reason"} <= hand.keys()
    queried = {n for (m, _e), f in fuzz.harvest.fields.items() if m == "GET" for n in f}
    assert {"season", "sort", "page", "a", "b", "match", "cards"} <= queried | set(ARG_KEYS)
    assert len(FORM_ROUTES) >= 30 and len(QUERY_ROUTES) >= 50


#: Form posts that check a CSRF token (the access table lists those that need none).
CHECKED = [(m, r) for m, r in FORM_ROUTES if r.endpoint not in CSRF_EXEMPT]


def test_a_bad_csrf_token_is_a_400_that_says_so(fuzz: Fuzz) -> None:
    """With CSRF on, as in production: any token text, in the form or the header, to any
    checked form is refused with the page that says so, and changes nothing."""
    world = fuzz.world
    tokens = weighted((3, any_text), (2, st.sampled_from(SPECIAL)), (1, repeated(LONG)))

    @settings(
        max_examples=EXAMPLES * 4,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(
        route=st.sampled_from(CHECKED),
        token=tokens,
        header=st.none() | st.text(st.characters(min_codepoint=32, max_codepoint=255)),
        role=st.sampled_from(["anonymous", "owner"]),
    )
    def attempt(route: tuple[str, Rule], token: str, header: str | None, role: str) -> None:
        method, rule = route
        client = client_as(fuzz.app, world, role)
        response = client.open(
            fill(rule, world.url_values()),
            method=method,
            data=encoded([("csrf_token", token)], []),
            content_type="application/x-www-form-urlencoded",
            headers={} if header is None else {"X-CSRFToken": header},
            environ_base={"REMOTE_ADDR": "10.9.9.9"},
        )
        text = response.get_data(as_text=True)
        assert response.status_code < 500, text[:500]
        if response.status_code == 400:
            assert "could not be checked" in text or "NUL" in text, text[:500]
        else:  # anonymous: the login page first; signed in: guests' pages send you on
            assert response.status_code == 302, text[:500]

    fuzz.app.config["WTF_CSRF_ENABLED"] = True
    try:
        attempt()
    finally:
        fuzz.app.config["WTF_CSRF_ENABLED"] = False
    check_nothing_lost(fuzz)


# --- the sweep: every route × odd values, the same every run --------------------------------------
#
# The fuzzing above draws at random; the sweep sends a fixed list of odd values into every
# place a request carries one, route by route: each path parameter, each field of the form
# or the query, each key of a JSON body, and headers. It is what the independent probes of
# issues 11 and 18 ran (their 500s: "²" and "--12" in a hidden field, NUL in a path word),
# kept as a test so a new route or field is swept too.

#: Odd text for a path word, a query or form field: what the probes found 500s with first,
#: then more. A form's every field gets the first four; the rest go round its fields (a
#: form of 56 fields, the new match's, would otherwise cost 600 requests of 20 ms).
ODD = ["²", "--12", "a\x00b", "x" * 5000, "", "-1", "0", "9" * 30, "١٢", "x\udfffy", "[" * 3000]
EVERY_FIELD = 4
#: The new-match form's house-rule fields ("opt-points_ace", …).
HOUSE_RULE = "opt-"
#: Odd values for a key of a JSON body.
ODD_JSON: list[Any] = [None, True, -1, 2**63, 1e308, "", "²", "--12", "a\x00b", [], {}, "x" * 5000]
#: Whole JSON bodies that are no object, or not JSON at all.
ODD_BODIES = [b"[]", b'"x"', b"null", b"{", b"[" * 3000 + b"]" * 3000, b"\xff\xfe"]
#: Headers that reach a parser, grouped where none of them stops a request before the others
#: are read (content negotiation, conditions, language, address, cookies); those that decide
#: whether the request is taken at all (tokens, the body's type, keys) go one at a time.
ODD_HEADERS: list[dict[str, str]] = [
    {
        "Accept": "*/*;q=²",
        "Accept-Language": "el;q=--12, en;q=²",
        "If-None-Match": "²",
        "If-Modified-Since": "²",
        "Range": "bytes=99-1",
        "X-Forwarded-For": "not an address",
        "Cookie": "lang=²; theme=--12; session=junk",
    },
    {
        "Accept": "application/json",
        "Accept-Language": "x" * 5000,
        "If-None-Match": '"' + "9" * 30 + '"',
        "If-Match": "--12",
    },
    {"If-Match": '"²"'},
    {"Authorization": "Bearer ²"},
    {"Authorization": "Basic %%%"},
    {"Idempotency-Key": "x" * 5000},
    {"X-CSRFToken": "--12"},
    {"Content-Type": "multipart/form-data"},
    {"Content-Type": "application/json; charset=ebcdic"},
]
#: Prefixes a proxy may pass on (SCRIPT_NAME): nothing the app stores may depend on them.
ODD_PREFIXES = ["/x", "/²", "/" + "p" * 300]

#: On PostgreSQL the sweep sends only what a database takes differently from another: numbers
#: past 64 bits (SQLite refuses them, PostgreSQL past its column's type) and long text.
#: Everything else is read, judged and refused by the app before any database sees it, the same
#: on both, and is swept on SQLite alone (headers, proxy prefixes and bodies that are no JSON
#: object too): NUL, which PostgreSQL refuses, is turned away for every form, query and path by
#: web/guards.py and for JSON by web/json_body.py; a lone surrogate never reaches the app as
#: one (werkzeug keeps bytes that are no UTF-8 as their %-escapes; JSON refuses it).
STORED_ODD = ["9" * 30, "x" * 5000]
STORED_ODD_JSON: list[Any] = [2**63, 1e308, "x" * 5000]


#: Path ids past what a database's integer columns hold (PostgreSQL's integer is 32 bits,
#: SQLite's 64): the ids the sweep sends on PostgreSQL. Of the others, -1 and full-width
#: digits are turned away by the path's converter before any query, and 0 and a leading
#: zero reach the database as ordinary numbers, which both take alike: they are swept on
#: SQLite.
STORED_ODD_IDS = [str(2**31), str(2**63), "9" * 30]


def _odd_ids(real: object) -> list[str]:
    fullwidth = "".join(chr(0xFF10 + int(d)) for d in str(real))
    return ["0", "01", *STORED_ODD_IDS, quote(fullwidth), "-1"]


@dataclass
class Sweep:
    fuzz: Fuzz
    world: World
    method: str
    rule: Rule
    role: str
    sent: int = 0
    client: FlaskClient | None = None

    def send(
        self,
        path: str | None = None,
        *,
        query: str = "",
        data: Any = None,
        json_body: Any = None,
        raw: bytes | None = None,
        content_type: str | None = None,
        headers: dict[str, str] | None = None,
        prefix: str = "",
    ) -> None:
        """One request; it must not be a 5xx, and a 4xx must say why."""
        self.sent += 1
        if self.client is None:
            self.client = client_as(self.fuzz.app, self.world, self.role)
        client = self.client
        path = path or fill(self.rule, self.world.url_values())
        keywords: dict[str, Any] = {"query_string": query or None, "headers": headers or {}}
        if raw is not None:
            keywords |= {"data": raw, "content_type": content_type or "application/json"}
        elif json_body is not None:
            keywords["data"] = json.dumps(json_body).encode("utf-8", "surrogatepass")
            keywords["content_type"] = "application/json"
        elif data is not None:
            keywords["data"] = data
            if isinstance(data, str):
                keywords["content_type"] = "application/x-www-form-urlencoded"
        n = self.sent
        address = f"10.{200 + n % 50}.{n >> 8 & 255}.{n & 255}"  # login limits aside
        environ = {"REMOTE_ADDR": address, "SCRIPT_NAME": prefix}
        response = client.open(
            path, method=self.method, environ_base=environ, buffered=True, **keywords
        )
        sent = Sent(path, query, None, None, None, self.role, address, ())
        check_answer(self.method, sent, response)


def _ask(sweep: Sweep) -> dict[str, Any]:
    route = TABLE[(sweep.method, sweep.rule.endpoint)]
    if route.ask is None:
        return {}
    return route.ask(sweep.world, client_as(sweep.fuzz.app, sweep.world, "owner"))


def sweep_route(fuzz: Fuzz, method: str, rule: Rule) -> int:
    """Every odd value into every place the route reads one; returns how many were sent."""
    every = fuzz.database == "sqlite"  # the whole sweep; on PostgreSQL what it stores
    odd, odd_json = (ODD, ODD_JSON) if every else (STORED_ODD, STORED_ODD_JSON)
    writer = method != "GET" and _writes(method, rule)
    world = fuzz.copy_of_world(rule) if writer else fuzz.world
    sweep = Sweep(fuzz, world, method, rule, _roles(method, rule)[-1])
    asked = _ask(sweep) if method != "GET" else {}
    base_json = asked.get("json")
    base_pairs = [] if base_json is not None else _base(fuzz, world, method, rule)[0]
    fields = _fields(fuzz, method, rule, base_pairs)
    body: dict[str, Any] = (
        {"json_body": base_json} if base_json is not None else {"data": encoded(base_pairs, [])}
    )
    if method == "GET":
        body = {}
    # Paths.
    values = world.url_values()
    for name, converter in rule._converters.items():
        if isinstance(converter, RowIdConverter):
            odd_path = _odd_ids(values[name]) if every else STORED_ODD_IDS
        else:
            odd_path = odd
        for value in odd_path:
            text = value if isinstance(converter, RowIdConverter) else _quote(value) or "x"
            sweep.send(fill(rule, {**values, name: text}), **body)
    # Fields, one at a time, the others as a valid request has them.
    if base_json is not None and isinstance(base_json, dict):
        for key in base_json:
            for value in odd_json:
                sweep.send(json_body={**base_json, key: value})
        for raw in ODD_BODIES if every else []:
            sweep.send(raw=raw)
    elif method == "GET":
        for value in odd:
            each = [(name, value) for name in sorted({*fields.names, *ARG_KEYS})]
            sweep.send(query=encoded(each, []))
        for name in fuzz.harvest.of("GET", rule.endpoint):
            for value in odd:
                sweep.send(query=encoded([(name, value)], []))
    else:
        rest = odd[EVERY_FIELD:]
        for i, name in enumerate(fields.names):
            if name.startswith(HOUSE_RULE):
                # Forty house rules, one reader (play.house_rules): each gets two values,
                # and the odd values go round them all.
                values = [odd[i % len(odd)], odd[(i + 1) % len(odd)]]
            elif rest:
                values = [*odd[:EVERY_FIELD], rest[i % len(rest)], rest[(i + 1) % len(rest)]]
            else:
                values = list(odd)
            for value in values:
                pairs = [(k, v) for k, v in base_pairs if k != name] + [(name, value)]
                sweep.send(data=encoded(pairs, []))
    # Headers, and a proxy's prefix.
    for headers in ODD_HEADERS if every else []:
        sweep.send(headers=headers, **body)
    for prefix in ODD_PREFIXES if every else []:
        sweep.send(prefix=prefix, **body)
    return sweep.sent


SWEPT = [(m, r) for m, r in ROUTES if r.endpoint != "static"]


@pytest.mark.parametrize(("method", "rule"), SWEPT, ids=route_id)
def test_the_sweep_finds_no_5xx(fuzz: Fuzz, method: str, rule: Rule) -> None:
    """Issue 18: the probe's sweep, every route × odd values in its paths, queries, form
    fields, JSON and headers, on each database: no 5xx, every 4xx in words, nothing lost."""
    sent = sweep_route(fuzz, method, rule)
    assert sent >= (len(ODD_HEADERS) + len(ODD_PREFIXES) if fuzz.database == "sqlite" else 1)
    check_nothing_lost(fuzz)
