"""HTTP layer: blueprints and error handlers, kept thin over services and rules."""

from flask import Flask

from scorekeeper.extensions import csrf
from scorekeeper.web import (
    access,
    account,
    api,
    api_leaderboard,
    api_matches,
    auth,
    club_export,
    clubs,
    errors,
    game_words,
    guards,
    health,
    i18n,
    leaderboard,
    limits,
    live,
    pages,
    players,
    poll_shortcut,
    pwa,
    referee_pages,
    seasons,
    security,
    share,
    static_files,
    theme,
    verdict_words,
)
from scorekeeper.web import matches as match_pages


def register_blueprints(app: Flask) -> None:
    """Attach every blueprint and the error handlers to ``app``."""
    assert access.load_user  # imported for its Flask-Login loaders
    i18n.init_app(app)  # first: every later before_request runs in the page's language
    theme.init_app(app)
    static_files.init_app(app)  # url_for("static") names files by their content
    # The page scripts' words, in the page's language (static/js reads them from data-words).
    app.add_template_global(verdict_words.script_words)
    app.add_template_global(game_words.picker_words)
    app.add_template_global(game_words.word_of)
    app.add_template_global(game_words.pot_of)
    app.jinja_env.globals["suit_faces"] = game_words.SUIT_FACES  # the card picker's suits
    app.add_template_test(game_words.red_suit, "red_suit")
    app.register_blueprint(pages.bp)
    app.register_blueprint(health.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(api_matches.bp)  # clubs, matches, hands: login or bearer token
    app.register_blueprint(api_leaderboard.bp)
    for own in (auth, clubs, account):  # accounts and club pages
        app.register_blueprint(own.bp)
    app.register_blueprint(referee_pages.bp)
    app.register_blueprint(leaderboard.bp)  # a club's leaderboard page
    app.register_blueprint(club_export.bp)  # CSV, JSON backup and import
    app.register_blueprint(match_pages.bp)  # new match, scoreboard, hand entry and history
    app.register_blueprint(seasons.bp)  # seasons, and moving a match between them
    app.register_blueprint(players.bp)  # player pages, partnerships, head to head
    app.register_blueprint(pwa.bp)  # manifest, service worker, offline page
    app.register_blueprint(live.bp)  # what live pages poll, and the club's big screen
    app.register_blueprint(share.bp)  # read-only share links, their QR codes, join requests
    # The JSON API is stateless and called by scripts without a session, so a CSRF token
    # cannot protect it; forms on the HTML pages keep their protection.
    csrf.exempt(api.bp)
    errors.register(app)
    guards.register(app)
    security.init_app(app)  # headers on every response, cookie flags, CSRF refusals
    poll_shortcut.install(app)  # the shared poll's 304 before Flask (after ProxyFix)
    limits.init_app(app)  # after the blueprints: it wraps the login view
