"""Shared fixtures: an app on a test database, its clients, a live server, a phone browser.

How the databases are shared, for speed (issue 12):

- ``database`` is the kind, "sqlite" and, when SCOREKEEPER_TEST_DATABASE_URL names one,
  "postgresql": every test that asks for ``app`` (or ``client``, ``owner`` …) or
  ``database_url`` runs once on each.
- ``app`` is ONE app per kind per test process (per xdist worker), built with its schema
  once. After each test that wrote, every row is deleted (ids start at 1 again); after
  every test its config is restored and its login-limit counts forgotten. So a test may
  set ``app.config[...]`` freely: the next test sees the config as it was.
- A test that changes the app in a way that cannot be undone (adds a route with
  ``add_url_rule``, registers hooks, …) must be marked ``@pytest.mark.fresh_app``: its
  ``app`` is then built for it alone, on ``database_url``, and dropped afterwards.
- ``database_url`` is an EMPTY database of the kind, for tests that build their own app
  (``create_app``), run migrations or start workers; it is NOT the shared app's
  database. Such a test must leave it empty (``drop_all``), as the fixtures here do. The
  shared app's own URL is ``app.config["SQLALCHEMY_DATABASE_URI"]``.
- ``kept_world`` (``kept_world(build)``) is the world ``build(app)`` makes on the shared app,
  built once and kept while the tests asking for it only read: the first test that writes
  gets the database emptied after it, and the next one the world laid anew (from the rows
  the first build left, saved: same ids, one INSERT per table). So a module's world
  fixture that returns ``kept_world(build)`` costs one build, and every test still starts
  from the world exactly as built. The builder must
  return plain values (ids), not rows bound to a session, and the test must ask for the
  world before it writes anything. A test that does not ask for it gets an empty database.
- Passwords are hashed cheaply (``PASSWORD_HASH_METHOD`` in support/databases.py's
  TEST_CONFIG); a test of the production hash sets ``app.config["PASSWORD_HASH_METHOD"] =
  None``.
- A test (or module: ``pytestmark``) marked ``@pytest.mark.stateless`` never touches the
  database: it runs once, not once per kind, on a shared app WITHOUT a database (no
  tables: a query fails with "no such table"). Mark tests that only score, judge or render
  what needs no stored row: the referee API and pages, the CLI's referee commands, …
- Browser tests (Playwright) run on SQLite only: what they check is the page in a phone,
  and the database under the server makes no difference to that; every database behaviour
  they touch is tested on both databases without a browser.
- Browser contexts have no service worker (``service_workers="block"``, as a browser with
  them turned off) unless the test is about the phone offline: a page the service worker
  controls fetches the offline engine (Pyodide, about 10 MB) at idle and starts it, seconds
  of CPU in every new context, which doubled a test of hand corrections. The offline, kept
  pages, whole-evening, calm-screens and small-things tests and the acceptance flow keep it
  (``pytest.mark.browser_context_args(service_workers="allow")``, or a context of their own
  made without the option); contexts a test makes itself pass ``service_workers="block"``.
- Even with its service worker, a page gets the offline engine's files (/runtime/…) only in
  a test marked ``offline_engine``; elsewhere they answer 404, as where npm never ran, so no
  hand page starts Pyodide (2.4 s of CPU each time) for a test about something else.
- A test (or module) marked ``@pytest.mark.one_database`` runs on SQLite only too: its
  subject is what the app does with a request before and after any database (headers and
  cookies, CSRF, who may reach which route), the same whatever stores the rows. What a
  database takes differently (NUL, numbers past 64 bits, long text, concurrent writes,
  migrations) is tested on both, in the modules that are not marked.
"""

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner
from playwright.sync_api import expect
from support.browser import CHROMIUM_ARGS, PHONE, TEST_BROWSER, Runtime, serve
from support.databases import SharedApp, World, drop, new_app, postgresql_url, wipe_postgresql
from support.world import new_club, pagat_match, signed_in

from scorekeeper.accounts import service as accounts
from scorekeeper.models import User

# Playwright's expect() waits 5 s by default. CI runs two test processes, their browsers,
# the apps and PostgreSQL on two cores, where a save and its page took longer than that
# under load and failed a test that was right; a real fault still fails, after 15 s.
expect.set_options(timeout=15_000)

SCREENSHOTS = Path(__file__).parent / "screenshots"
#: What gives the browser tests their browser (support/browser.py, TEST_BROWSER), as .ci/run does.
INSTALL_BROWSERS = "apt-get install -y chromium chromium-headless-shell"
BROWSER_FIXTURES = {"page", "context", "browser", "browser_type"}


POSTGRESQL_URL = os.environ.get("SCOREKEEPER_TEST_DATABASE_URL")
DATABASES = ["sqlite", "postgresql"] if POSTGRESQL_URL else ["sqlite"]


def _worker() -> str:
    """ "" outside xdist, "_gw0", "_gw1" … in its workers."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    return f"_{worker}" if worker else ""


@pytest.fixture(scope="session")
def _fresh_postgresql_url(request: pytest.FixtureRequest) -> str:
    """This process's empty PostgreSQL database for `database_url` (made if missing)."""
    assert POSTGRESQL_URL is not None
    url = postgresql_url(POSTGRESQL_URL, _worker() + "_fresh")
    wipe_postgresql(url)
    return url


@pytest.fixture(scope="session")
def _shared_app(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], SharedApp]]:
    """The shared app of a kind of database, made when a test first asks for it."""
    apps: dict[str, SharedApp] = {}

    def shared(kind: str) -> SharedApp:
        if kind not in apps and kind == "none":
            apps[kind] = SharedApp("sqlite://", schema=False)
        elif kind not in apps:
            if kind == "sqlite":
                url = f"sqlite:///{tmp_path_factory.mktemp('shared') / 'test.sqlite'}"
            else:
                assert POSTGRESQL_URL is not None
                url = postgresql_url(POSTGRESQL_URL, _worker())
                wipe_postgresql(url)
            apps[kind] = SharedApp(url)
        return apps[kind]

    yield shared
    for one in apps.values():
        one.close()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Run each test that asks for a database once on each kind; browser and ``one_database``
    tests on SQLite only, and ``stateless`` ones once on an app without a database (see the
    docstring)."""
    if "database" in metafunc.fixturenames and not metafunc.definition.get_closest_marker(
        "stateless"
    ):
        one = BROWSER_FIXTURES.intersection(metafunc.fixturenames) or any(
            mark.name in ("browser", "one_database") for mark in metafunc.definition.iter_markers()
        )
        metafunc.parametrize("database", DATABASES[:1] if one else DATABASES)


@pytest.fixture
def database(request: pytest.FixtureRequest) -> str:
    """The kind of database this test runs on: "sqlite" or "postgresql" (see above), or
    "none" for a ``stateless`` test."""
    # Tests that ask for one are parametrized in pytest_generate_tests; only a stateless
    # test (or one asking with getfixturevalue) comes here.
    assert request.node.get_closest_marker("stateless"), "ask for `app` as an argument"
    return "none"


@pytest.fixture
def database_url(database: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database of this test's kind: a fresh SQLite file, or this process's spare
    PostgreSQL database (which the test must leave empty). Not the shared app's."""
    assert database != "none", "a `stateless` test has no database: drop the mark"
    if database == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite'}"
    url: str = request.getfixturevalue("_fresh_postgresql_url")
    return url


@pytest.fixture
def app(
    database: str, _shared_app: Callable[[str], SharedApp], request: pytest.FixtureRequest
) -> Iterator[Flask]:
    """The test app of this test's kind of database, emptied and restored after the test;
    its own app on `database_url` for a test marked ``fresh_app`` (see above)."""
    if request.node.get_closest_marker("fresh_app"):
        fresh = new_app(request.getfixturevalue("database_url"))
        yield fresh
        drop(fresh)
        return
    shared = _shared_app(database)
    if shared.kept is not None and "kept_world" not in request.fixturenames:
        shared.forget_world()
    try:
        yield shared.app
    finally:
        shared.reset()


@pytest.fixture
def kept_world(
    app: Flask,
    database: str,
    _shared_app: Callable[[str], SharedApp],
    request: pytest.FixtureRequest,
) -> Callable[[Callable[[Flask], World]], World]:
    """``kept_world(build)``: the world ``build(app)`` makes, kept between the tests that
    only read it (see the docstring above); built for the test alone on a ``fresh_app``."""
    if request.node.get_closest_marker("fresh_app"):
        return lambda build: build(app)
    return _shared_app(database).keep


@pytest.fixture
def rebuilt_world(
    kept_world: Callable[[Callable[[Flask], World]], World],
    database: str,
    _shared_app: Callable[[str], SharedApp],
    request: pytest.FixtureRequest,
) -> Callable[[Callable[[Flask], World]], World]:
    """``rebuilt_world(build)``: the database emptied and the world built anew in the middle
    of a test (which then goes on from it, as from ``kept_world(build)``)."""
    assert not request.node.get_closest_marker("fresh_app"), "a fresh app has no kept world"
    return _shared_app(database).rebuild


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()


@pytest.fixture
def live_server(app: Flask) -> Iterator[str]:
    """Serve ``app`` on a free localhost port in a background thread; yields its base URL."""
    with serve(app) as base_url:
        yield base_url


@pytest.fixture
def owner(app: Flask) -> Iterator[User]:
    """The user eleni (password "password1"), with the app's context open for the whole test."""
    with app.app_context():
        yield accounts.create_user("eleni", "password1")


@pytest.fixture
def match_id(app: Flask, client: FlaskClient) -> int:
    """A pagat match for four (A: Ann & Cy, B: Bob & Di) in eleni's club Friday Biriba,
    with eleni (user 1, password "password1") logged in on `client`."""
    with app.app_context():
        owner = accounts.create_user("eleni", "password1")
        club, ids = new_club(owner, "Friday Biriba")
        match = pagat_match(club, owner, list(ids.values()))
        owner_id, number = owner.id, match.id
    signed_in(client, owner_id)
    return number


@pytest.fixture
def screenshots() -> Path:
    """Folder (git-ignored) where browser tests save what they saw."""
    SCREENSHOTS.mkdir(exist_ok=True)
    return SCREENSHOTS


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any]) -> dict[str, Any]:
    if not TEST_BROWSER.exists():
        pytest.fail(f"{TEST_BROWSER} is missing: {INSTALL_BROWSERS}")
    return {
        **browser_type_launch_args,
        "executable_path": str(TEST_BROWSER),
        "args": CHROMIUM_ARGS,
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    # A phone: its viewport, and mobile mode so the page's viewport meta tag is honoured.
    # Without service workers unless the test is about the phone offline (see the docstring).
    return {
        **browser_context_args,
        "viewport": PHONE,
        "is_mobile": True,
        "has_touch": True,
        "service_workers": "block",
    }


#: A browser test runs again once if its Chromium page crashed ("Target crashed": the renderer
#: died, seen on a loaded machine), and only then: any other failure is the test's. Marked on
#: browser tests alone, not given to every test as --reruns: pytest-rerunfailures asks the
#: xdist controller over a socket before each test it may rerun, about 20 ms a test, which
#: made the rules' 1,663 tests take 44 s on two processes instead of 11.
RERUN_A_CRASHED_PAGE = pytest.mark.flaky(reruns=1, only_rerun=["Target crashed"])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that uses a Playwright fixture as ``browser`` (run again if its page
    crashed); skip those without Chromium.

    In CI a missing Chromium is a broken machine, so there the tests run and fail loudly.
    """
    skip = pytest.mark.skip(reason=f"{TEST_BROWSER} is missing: {INSTALL_BROWSERS}")
    for item in items:
        if BROWSER_FIXTURES.intersection(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.browser)
        if not item.get_closest_marker("browser"):
            continue
        item.add_marker(RERUN_A_CRASHED_PAGE)
        if not TEST_BROWSER.exists() and not os.environ.get("CI"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _offline_engine(request: pytest.FixtureRequest) -> Iterator[None]:
    """The offline engine's files only for tests marked ``offline_engine`` (see Runtime in
    support/browser.py), whether their pages come from ``live_server`` or their own server."""
    Runtime.served = request.node.get_closest_marker("offline_engine") is not None
    yield
    Runtime.served = True
