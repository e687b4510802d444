"""match progress: the next hand's number, the live hands' count and the running totals kept
on the match, so saving a hand reads the previous hand's state instead of every hand

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 20:00:00

"""

import sqlalchemy as sa
from alembic import context, op

# revision identifiers, used by Alembic.
revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    # Nullable, so SQLite adds it in place (no batch copy of the match table, whose drop
    # would cascade into every hand: see 0002). The fill below counts it for every match
    # with a live hand; the others are counted by their next write.
    op.add_column("match", sa.Column("progress", sa.JSON(), nullable=True))
    if not context.is_offline_mode():
        _fill_from_stored_hands()


def _fill_from_stored_hands() -> None:
    """Every derived table (0003's, 0004's) and every match's progress for the matches
    already played, in this migration's transaction, with the same code as `flask --app
    scorekeeper rebuild-stats` (moved here from 0004: today's code writes this column)."""
    from sqlalchemy.orm import Session

    from scorekeeper.records import counted, stats

    # Today's code leaves out the tables of some tournaments, read from 0012's tables: here
    # there are none yet, so every match counts.
    with Session(bind=op.get_bind()) as session, counted.before_tournaments():
        stats.rebuild(session)
        session.flush()


def downgrade():
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("PRAGMA foreign_keys=OFF")  # the batch's copy must delete nothing (0002)
    with op.batch_alter_table("match") as batch_op:
        batch_op.drop_column("progress")
    if sqlite:
        op.execute("PRAGMA foreign_keys=ON")
