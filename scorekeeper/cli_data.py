"""Commands for a club's data: rebuild the derived tables, export a club, import one.

flask --app scorekeeper rebuild-stats [--club ID]
"""

from __future__ import annotations

import click
from flask.cli import with_appcontext

from scorekeeper.extensions import db
from scorekeeper.models import Club
from scorekeeper.schema import ensure_schema
from scorekeeper.services import stats


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


COMMANDS = [rebuild_stats_command]
