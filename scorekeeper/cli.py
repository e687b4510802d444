"""Command-line referee: the same answers as the JSON API, printed as JSON.

flask --app scorekeeper check-meld --variant pagat --kozi H 3H 4H 2H 6H 7H
flask --app scorekeeper score-hand hand.json

And accounts for the match API:

flask --app scorekeeper create-user alice --password 'correct horse'
flask --app scorekeeper create-token alice --label phone   # the token is the last line

And a copy of the SQLite database while the app runs (scorekeeper/backup.py):

flask --app scorekeeper backup [PATH]
"""

from __future__ import annotations

import json
from typing import Any

import click
from flask import Flask
from flask.cli import with_appcontext

from scorekeeper import referee
from scorekeeper.accounts import service as accounts
from scorekeeper.backup import backup_command
from scorekeeper.demo import demo_command
from scorekeeper.errors import ServiceError
from scorekeeper.exchange import cli as cli_data
from scorekeeper.extensions import db
from scorekeeper.schema import ensure_schema


def register(app: Flask) -> None:
    """Attach the scorekeeper commands to ``app``."""
    app.cli.add_command(check_meld_command)
    app.cli.add_command(score_hand_command)
    app.cli.add_command(create_user_command)
    app.cli.add_command(create_token_command)
    app.cli.add_command(demo_command)
    for command in cli_data.COMMANDS:  # rebuild-stats, export, import
        app.cli.add_command(command)
    app.cli.add_command(backup_command)


def _parse_option(text: str) -> tuple[str, Any]:
    name, sep, raw = text.partition("=")
    if not sep or not name:
        raise click.BadParameter(f"'{text}' is not NAME=VALUE", param_hint="--option")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw  # plain words, such as --option ace=both_ends
    return name.strip(), value


def _answer(call: Any, body: Any) -> None:
    try:
        result = call(body)
    except ValueError as error:
        raise click.ClickException(str(error)) from None
    click.echo(json.dumps(result, ensure_ascii=False, indent=2))


@click.command("check-meld")
@click.option("--variant", default="pagat", show_default=True, help="Preset id, e.g. pagat.")
@click.option("--kozi", default=None, help="The hand's kózi suit: S, H, D or C.")
@click.option("--format", "table_format", default=None, help="Table format for deck limits.")
@click.option("--option", "options", multiple=True, help="House rule NAME=VALUE (repeatable).")
@click.argument("cards", nargs=-1, required=True)
def check_meld_command(
    variant: str,
    kozi: str | None,
    table_format: str | None,
    options: tuple[str, ...],
    cards: tuple[str, ...],
) -> None:
    """Judge one meld, e.g. 3H 4H 2H 6H 7H or 3H-9H JK."""
    body: dict[str, Any] = {
        "variant": variant,
        "options": dict(_parse_option(o) for o in options),
        "kozi": kozi,
        "cards": " ".join(cards),
    }
    if table_format:
        body["format"] = table_format
    _answer(referee.check_meld, body)


@click.command("score-hand")
@click.argument("hand_file", type=click.File("r", encoding="utf-8"))
def score_hand_command(hand_file: Any) -> None:
    """Score a hand given as the JSON body of POST /api/v1/hands/score ('-' reads stdin)."""
    try:
        body = json.load(hand_file)
    except json.JSONDecodeError as error:
        raise click.ClickException(f"{hand_file.name} is not valid JSON: {error}") from None
    _answer(referee.score_hand_request, body)


@click.command("create-user")
@click.argument("username")
@click.option(
    "--password",
    prompt=True,
    hide_input=True,
    confirmation_prompt=True,
    help=f"At least {accounts.MIN_PASSWORD} characters; asked for when left out.",
)
@with_appcontext
def create_user_command(username: str, password: str) -> None:
    """Make an account that can log in and hold API tokens."""
    ensure_schema()
    try:
        user = accounts.register(username, password)
    except ServiceError as error:
        db.session.rollback()
        raise click.ClickException(error.message) from None
    click.echo(f"Created user {user.username}.")


@click.command("create-token")
@click.argument("username")
@click.option("--label", default="", help="A name to tell the token apart, e.g. 'phone'.")
@with_appcontext
def create_token_command(username: str, label: str) -> None:
    """Print a new API token for USERNAME (its last line): send it as Authorization: Bearer."""
    ensure_schema()
    user = accounts.find_user(username)
    if user is None:
        raise click.ClickException(
            f"There is no user {username!r}; make one with: create-user {username}"
        )
    token = accounts.create_token(user, label)
    click.echo(f"API token for {user.username}; it is shown only this once:", err=True)
    click.echo(token)
