"""seasons

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 04:05:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "season",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("starts_on", sa.Date(), nullable=False),
        sa.Column("ends_on", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("club_id", "name"),
    )
    with op.batch_alter_table("club") as batch_op:
        batch_op.add_column(
            sa.Column("min_matches_ranked", sa.Integer(), server_default="3", nullable=False)
        )
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a nullable column with an inline REFERENCES clause in place. A batch
        # operation would copy the match table and drop the old one, and with foreign keys
        # on that drop cascades into every hand, seat and team of every match. (SQLite does
        # not reflect an ON DELETE of an inline reference, so the key has none anywhere:
        # services.seasons.delete_season clears the matches' season_id itself.)
        op.execute("ALTER TABLE match ADD COLUMN season_id INTEGER REFERENCES season (id)")
    else:
        op.add_column("match", sa.Column("season_id", sa.Integer(), nullable=True))
        op.create_foreign_key("fk_match_season_id", "match", "season", ["season_id"], ["id"])


def downgrade():
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        # SQLite cannot drop a column that holds a foreign key, so the batch copies the table;
        # with foreign keys off, dropping the old copy deletes nothing that refers to it.
        op.execute("PRAGMA foreign_keys=OFF")
    with op.batch_alter_table("match") as batch_op:
        batch_op.drop_column("season_id")
    if sqlite:
        op.execute("PRAGMA foreign_keys=ON")
    with op.batch_alter_table("club") as batch_op:
        batch_op.drop_column("min_matches_ranked")
    op.drop_table("season")
