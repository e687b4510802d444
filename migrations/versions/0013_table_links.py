"""tournament table links: each side's scorer link to its table (only a digest of the
secret), and who countersigned a table's result and which side wrote its last hand

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 22:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "tournament_table_link",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Integer(), nullable=False),
        sa.Column("side", sa.String(length=2), nullable=False),
        sa.Column("salt", sa.String(length=32), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("withdrawn_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["table_id"], ["tournament_table.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("digest"),
    )
    op.create_index("ix_tournament_table_link_table_id", "tournament_table_link", ["table_id"])
    # Nullable columns: SQLite adds them in place (a batch copy of the table would drop it,
    # and with foreign keys on that cascades; see 0002).
    op.add_column("tournament_table", sa.Column("confirmed_by", sa.String(length=10)))
    op.add_column(
        "tournament_table", sa.Column("confirmed_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column("tournament_table", sa.Column("last_side", sa.String(length=2)))


def downgrade():
    op.drop_index("ix_tournament_table_link_table_id", table_name="tournament_table_link")
    op.drop_table("tournament_table_link")
    with op.batch_alter_table("tournament_table") as batch:
        batch.drop_column("last_side")
        batch.drop_column("confirmed_at")
        batch.drop_column("confirmed_by")
