"""tournament table versions: raised by every change of a table's row, so the tournament's
live revision is one aggregate (a sum) instead of a read of every table; and an index the
live revisions' sums of hands are read from alone

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28 07:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    # NOT NULL with a default: SQLite adds it in place (a batch copy of the table would drop
    # it, and with foreign keys on that cascades; see 0002).
    op.add_column(
        "tournament_table",
        sa.Column("version", sa.Integer(), nullable=False, server_default="0"),
    )
    op.create_index("ix_hand_revision", "hand", ["match_id", "version", "updated_at"])


def downgrade():
    op.drop_index("ix_hand_revision", table_name="hand")
    with op.batch_alter_table("tournament_table") as batch:
        batch.drop_column("version")
