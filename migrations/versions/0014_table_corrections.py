"""tournament table corrections: when a confirmed table's result was corrected, which undid
its confirmation, so the director's console can say it waits to be confirmed again

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 01:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade():
    # Nullable: SQLite adds it in place (a batch copy of the table would drop it, and with
    # foreign keys on that cascades; see 0002).
    op.add_column(
        "tournament_table", sa.Column("corrected_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade():
    with op.batch_alter_table("tournament_table") as batch:
        batch.drop_column("corrected_at")
