"""live drawings: a live page's changed parts drawn once per match revision and kept for
every worker (only the current revision's, per match)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24 20:45:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "live_drawing",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.String(length=64), nullable=False),
        sa.Column("build", sa.String(length=16), nullable=False),
        sa.Column("what", sa.String(length=64), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "revision", "build", "what"),
    )
    op.create_index("ix_live_drawing_created_at", "live_drawing", ["created_at"])


def downgrade():
    op.drop_index("ix_live_drawing_created_at", table_name="live_drawing")
    op.drop_table("live_drawing")
