"""record pages: when each match was played, pairs of players on one side, each player's
best hand per match, and the indexes the player, partnership, head-to-head and season pages
read by

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23 10:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column("player_match_stat", sa.Column("best_hand", sa.BigInteger(), nullable=True))
    op.create_table(
        "match_stat",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("played_on", sa.Date(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id"),
    )
    op.create_index("ix_match_stat_listed", "match_stat", ["club_id", "played_on", "match_id"])
    op.create_index("ix_match_stat_played", "match_stat", ["club_id", "played_at"])
    op.create_table(
        "pair_match_stat",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("partner_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("teammates", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("side_points", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["partner_id"], ["player.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "player_id", "partner_id"),
    )
    op.create_index(
        "ix_pair_match_stat_board", "pair_match_stat", ["club_id", "finished", "played_at"]
    )
    op.create_index(
        "ix_pair_match_stat_pairs",
        "pair_match_stat",
        [
            "club_id",
            "finished",
            "player_id",
            "partner_id",
            "teammates",
            "won",
            "hands",
            "side_points",
        ],
    )
    op.create_index("ix_pair_match_stat_player", "pair_match_stat", ["player_id"])
    op.create_index("ix_pair_match_stat_partner", "pair_match_stat", ["partner_id"])
    op.create_index("ix_seat_player_id", "seat", ["player_id"])
    # The tables are filled for the matches already played by 0007, now the last migration
    # of the derived data: the fill runs today's `stats.rebuild`, which writes 0007's column
    # too, so it can only run once that exists.


def downgrade():
    op.drop_index("ix_seat_player_id", table_name="seat")
    op.drop_index("ix_pair_match_stat_partner", table_name="pair_match_stat")
    op.drop_index("ix_pair_match_stat_player", table_name="pair_match_stat")
    op.drop_index("ix_pair_match_stat_pairs", table_name="pair_match_stat")
    op.drop_index("ix_pair_match_stat_board", table_name="pair_match_stat")
    op.drop_table("pair_match_stat")
    op.drop_index("ix_match_stat_played", table_name="match_stat")
    op.drop_index("ix_match_stat_listed", table_name="match_stat")
    op.drop_table("match_stat")
    # Nothing refers to this table, so SQLite's copy in a batch loses nothing.
    with op.batch_alter_table("player_match_stat") as batch_op:
        batch_op.drop_column("best_hand")
