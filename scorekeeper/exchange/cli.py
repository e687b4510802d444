"""Commands for a club's data: rebuild the derived tables, export a club, import one.

flask --app scorekeeper rebuild-stats [--club ID]
flask --app scorekeeper export CLUB > club.json     # CLUB: the club's id or exact name
flask --app scorekeeper import club.json [--owner USERNAME]
"""

from __future__ import annotations

import json
from typing import Any

import click
from flask.cli import with_appcontext

from scorekeeper import accounts
from scorekeeper import records as stats
from scorekeeper.errors import ServiceError
from scorekeeper.exchange.club_export import export_club, find_club
from scorekeeper.exchange.club_import import import_club
from scorekeeper.extensions import db
from scorekeeper.models import Club
from scorekeeper.schema import ensure_schema


@click.command("rebuild-stats")
@click.option("--club", "club_id", type=int, default=None, help="Only this club (its id).")
@with_appcontext
def rebuild_stats_command(club_id: int | None) -> None:
    """Make the leaderboard's sums and the stored ratings again from the stored hands."""
    ensure_schema()
    if club_id is not None and db.session.get(Club, club_id) is None:
        raise click.ClickException(f"There is no club {club_id}.")
    summed = stats.rebuild(club_id=club_id)
    db.session.commit()
    click.echo(f"Rebuilt the leaderboard and ratings from {summed} matches.")


@click.command("export")
@click.argument("club")
@with_appcontext
def export_command(club: str) -> None:
    """Print CLUB (its id or exact name) as JSON: players, members, seasons, matches, hands
    and every version of every hand."""
    ensure_schema()
    try:
        found = find_club(club)
    except ServiceError as error:
        raise click.ClickException(error.message) from None
    click.echo(json.dumps(export_club(found), ensure_ascii=False, indent=1))


@click.command("import")
@click.argument("club_file", type=click.File("rb"))
@click.option(
    "--owner",
    default=None,
    help="Make this user the club's owner (members with an account keep their roles).",
)
@with_appcontext
def import_command(club_file: Any, owner: str | None) -> None:
    """Make a new club from a file of `export` ('-' reads stdin); all of it, or nothing."""
    ensure_schema()
    user = None
    if owner is not None:
        user = accounts.find_user(owner)
        if user is None:
            raise click.ClickException(f"There is no user {owner!r}; make one with create-user.")
    try:
        data = json.loads(club_file.read().decode("utf-8-sig"))
    except (ValueError, RecursionError) as error:  # not UTF-8, not JSON, a 5,000-digit number
        raise click.ClickException(f"{club_file.name} is not a JSON file: {error}") from None
    try:
        imported = import_club(data, owner=user, restore_members=True)
    except ServiceError as error:
        raise click.ClickException(f"Nothing was imported: {error.message}") from None
    club = imported.club
    click.echo(
        f"Imported {club.name!r} as club {club.id}: {imported.matches} matches, "
        f"{imported.hands} hands."
    )
    if imported.missing_members:
        names = ", ".join(imported.missing_members)
        click.echo(f"No account here for these members, so they were left out: {names}", err=True)


COMMANDS = [rebuild_stats_command, export_command, import_command]
