"""club imports: the imports each account sent (counted for the per-account limit in the
database every worker shares) and a club's "importing" mark, which hides a club while its
import is written in steps

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-30 12:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    # A server default, so SQLite adds the column in place and every club stays shown.
    op.add_column(
        "club", sa.Column("importing", sa.Boolean(), server_default=sa.false(), nullable=False)
    )
    op.create_table(
        "club_import",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_club_import_user_started", "club_import", ["user_id", "started_at"])
    op.create_index("ix_club_import_club_id", "club_import", ["club_id"])


def downgrade():
    op.drop_index("ix_club_import_club_id", table_name="club_import")
    op.drop_index("ix_club_import_user_started", table_name="club_import")
    op.drop_table("club_import")
    with op.batch_alter_table("club") as batch:
        batch.drop_column("importing")
