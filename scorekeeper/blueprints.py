"""The app assembled: every feature's blueprints, the platform's hooks and error handlers,
in the order they must run. The only module that imports every feature's pages."""

from flask import Flask

from scorekeeper import words
from scorekeeper.accounts import access, account, auth, limits
from scorekeeper.clubs import api as api_clubs
from scorekeeper.clubs import views as clubs
from scorekeeper.exchange import views as club_export
from scorekeeper.extensions import csrf
from scorekeeper.play import api as api_matches
from scorekeeper.play import engine_files, offline, pages, poll_shortcut
from scorekeeper.play import live_pages as live
from scorekeeper.play import share_pages as share
from scorekeeper.play import views as match_pages
from scorekeeper.records import api as api_leaderboard
from scorekeeper.records import leaderboard_pages as leaderboard
from scorekeeper.records import player_pages as players
from scorekeeper.records import season_pages as seasons
from scorekeeper.referee import api
from scorekeeper.referee import views as referee_pages
from scorekeeper.tournaments import api as api_tournaments
from scorekeeper.tournaments import live_pages as tournament_live
from scorekeeper.tournaments import pages as tournament_pages
from scorekeeper.tournaments import table_pages as tournament_tables
from scorekeeper.web import (
    card_picker,
    errors,
    guards,
    health,
    i18n,
    kept_pages,
    pwa,
    security,
    static_files,
    theme,
)


def register_blueprints(app: Flask) -> None:
    """Attach every blueprint and the error handlers to ``app``."""
    assert access.load_user  # imported for its Flask-Login loaders
    i18n.init_app(app)  # first: every later before_request runs in the page's language
    theme.init_app(app)
    static_files.init_app(app)  # url_for("static") names files by their content
    # The page scripts' words, in the page's language (static/js reads them from data-words).
    app.add_template_global(words.script_words)
    app.add_template_global(words.picker_words)
    app.add_template_global(words.dock_words)
    app.add_template_global(words.word_of)
    app.add_template_global(words.pot_of)
    app.jinja_env.globals["suit_faces"] = words.SUIT_FACES  # the card picker's suits
    card_picker.init_app(app)  # the picker's HTML, drawn once per language (not per page)
    app.add_template_test(words.red_suit, "red_suit")
    app.add_template_filter(words.red_cards, "red_cards")
    app.register_blueprint(pages.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(api_clubs.bp)  # clubs and players: login or bearer token
    app.register_blueprint(api_matches.bp)  # matches and hands: login or bearer token
    app.register_blueprint(api_leaderboard.bp)
    app.register_blueprint(api_tournaments.bp)  # tournaments: login or bearer token
    for own in (auth, clubs, account):  # accounts and club pages
        app.register_blueprint(own.bp)
    app.register_blueprint(referee_pages.bp)
    app.register_blueprint(leaderboard.bp)  # a club's leaderboard page
    app.register_blueprint(club_export.bp)  # CSV, JSON backup and import
    app.register_blueprint(match_pages.bp)  # new match, scoreboard, hand entry and history
    # The rules engine in the browser (Pyodide): the hand page's score with no network.
    app.register_blueprint(engine_files.bp)
    app.add_template_global(engine_files.offline_setup)
    app.add_template_global(engine_files.board_setup)
    app.register_blueprint(seasons.bp)  # seasons, and moving a match between them
    app.register_blueprint(players.bp)  # player pages, partnerships, head to head
    app.register_blueprint(pwa.bp)  # manifest, service worker, offline page
    app.register_blueprint(offline.bp)  # whose the pages kept offline are now
    app.register_blueprint(live.bp)  # what live pages poll, and the club's big screen
    app.register_blueprint(share.bp)  # read-only share links, their QR codes, join requests
    app.register_blueprint(tournament_pages.bp)  # the director's console, setup and ranking
    app.register_blueprint(tournament_tables.bp)  # a table's phones (its links), table cards
    app.register_blueprint(tournament_live.bp)  # a tournament's big screen
    # The JSON API is stateless and called by scripts without a session, so a CSRF token
    # cannot protect it; forms on the HTML pages keep their protection.
    csrf.exempt(api.bp)
    errors.register(app)
    guards.register(app)
    kept_pages.init_app(app)  # whose a kept match page is, for the service worker
    security.init_app(app)  # headers on every response, cookie flags, CSRF refusals
    poll_shortcut.install(app)  # the shared poll's 304 before Flask (after ProxyFix)
    limits.init_app(app)  # after the blueprints: it wraps the login view
