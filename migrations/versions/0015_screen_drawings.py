"""screen drawings: a tournament's big screen drawn once a revision for every worker, as a
match's live drawings are (0008)

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28 04:40:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "screen_drawing",
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("revision", sa.String(length=64), nullable=False),
        sa.Column("build", sa.String(length=16), nullable=False),
        sa.Column("what", sa.String(length=64), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("tournament_id", "revision", "build", "what"),
    )
    op.create_index("ix_screen_drawing_created_at", "screen_drawing", ["created_at"])


def downgrade():
    op.drop_index("ix_screen_drawing_created_at", table_name="screen_drawing")
    op.drop_table("screen_drawing")
