"""Command-line referee: the same answers as the JSON API, printed as JSON.

flask --app scorekeeper check-meld --variant pagat --kozi H 3H 4H 2H 6H 7H
flask --app scorekeeper score-hand hand.json
"""

from __future__ import annotations

import json
from typing import Any

import click
from flask import Flask

from scorekeeper import referee


def register(app: Flask) -> None:
    """Attach the scorekeeper commands to ``app``."""
    app.cli.add_command(check_meld_command)
    app.cli.add_command(score_hand_command)


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
