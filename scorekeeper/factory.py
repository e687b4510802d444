"""The application factory: configuration layers, extensions, blueprints."""

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from scorekeeper import cli, config
from scorekeeper.extensions import csrf, db, login_manager, migrate

# templates/ and static/ live at the top of the repository, beside the package.
ROOT = Path(__file__).resolve().parent.parent


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app: defaults, then instance/config.py, then SCOREKEEPER_*, then test_config."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    Path(app.instance_path).mkdir(parents=True, exist_ok=True)

    app.config.from_mapping(config.defaults(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)
    config.load_environment(app)
    if test_config is not None:
        app.config.from_mapping(test_config)
    app.config["SQLALCHEMY_DATABASE_URI"] = config.normalize_database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )

    db.init_app(app)
    csrf.init_app(app)
    login_manager.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))

    from scorekeeper.blueprints import register_blueprints
    from scorekeeper.records import stats
    from scorekeeper.tournaments import directing
    from scorekeeper.web import url_ids

    url_ids.register(app)  # before any route is added: rules bind their converters then

    stats.follow_matches()  # the derived tables follow every write of a match's hands
    directing.follow_matches()  # a corrected table's result is confirmed again
    register_blueprints(app)
    # Card symbols and Greek names read better as themselves than as \u escapes.
    if isinstance(app.json, DefaultJSONProvider):
        app.json.ensure_ascii = False
    cli.register(app)

    # Start-up brings the database to the newest schema (a no-op when it is there), so
    # `make run` works on a fresh clone. Tests build and drop their own schema instead.
    if not app.testing and app.config.get("AUTO_UPGRADE", True):
        from flask_migrate import upgrade

        with app.app_context():
            upgrade()
            # gunicorn --preload forks its workers from this process: none may inherit (and
            # share) a connection opened here.
            db.engine.dispose()

    return app
