"""derived stats: per-match player summaries and stored ratings, and indexes for scale

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 21:45:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _keys() -> list[sa.ForeignKeyConstraint]:
    return [
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE"),
    ]


def upgrade():
    op.create_table(
        "player_match_stat",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("won", sa.Boolean(), nullable=False),
        sa.Column("competitor", sa.String(length=80), nullable=False),
        sa.Column("competitor_order", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("competitor_total", sa.BigInteger(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("side_points", sa.BigInteger(), nullable=False),
        sa.Column("biribas_clean", sa.Integer(), nullable=False),
        sa.Column("biribas_dirty", sa.Integer(), nullable=False),
        sa.Column("full_runs", sa.Integer(), nullable=False),
        sa.Column("went_out", sa.Integer(), nullable=False),
        *_keys(),
        sa.PrimaryKeyConstraint("match_id", "player_id"),
    )
    op.create_index(
        "ix_player_match_stat_board", "player_match_stat", ["club_id", "finished", "played_at"]
    )
    op.create_index("ix_player_match_stat_player", "player_match_stat", ["player_id"])
    op.create_table(
        "rating_step",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("played_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Double(), nullable=False),
        sa.Column("sigma_before", sa.Double(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        *_keys(),
        sa.PrimaryKeyConstraint("match_id", "player_id"),
        sa.UniqueConstraint("player_id", "seq"),
    )
    op.create_index(
        "ix_rating_step_club_played", "rating_step", ["club_id", "played_at", "match_id"]
    )
    op.create_table(
        "player_rating",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("trend", sa.Double(), nullable=False),
        *_keys()[1:],
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_index("ix_player_rating_club", "player_rating", ["club_id"])
    op.create_table(
        "player_total",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("matches", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("hands", sa.Integer(), nullable=False),
        sa.Column("points", sa.BigInteger(), nullable=False),
        sa.Column("side_points", sa.BigInteger(), nullable=False),
        sa.Column("biribas_clean", sa.Integer(), nullable=False),
        sa.Column("biribas_dirty", sa.Integer(), nullable=False),
        sa.Column("full_runs", sa.Integer(), nullable=False),
        sa.Column("went_out", sa.Integer(), nullable=False),
        *_keys()[1:],
        sa.PrimaryKeyConstraint("player_id"),
    )
    op.create_index("ix_player_total_club", "player_total", ["club_id"])
    # Reading one match (its seats, teams, history) or one club's matches must not scan
    # every row of a big club's tables.
    op.create_index("ix_hand_version_match_number", "hand_version", ["match_id", "number"])
    op.create_index("ix_match_club_id", "match", ["club_id"])
    op.create_index("ix_match_season_id", "match", ["season_id"])
    op.create_index("ix_match_team_match_id", "match_team", ["match_id"])
    op.create_index("ix_seat_match_id", "seat", ["match_id"])
    # The tables are filled for the matches already played by 0004, the last migration of
    # the derived tables: the fill runs today's `stats.rebuild`, which writes 0004's table
    # and column too, so it can only run once they exist.


def downgrade():
    op.drop_index("ix_seat_match_id", table_name="seat")
    op.drop_index("ix_match_team_match_id", table_name="match_team")
    op.drop_index("ix_match_season_id", table_name="match")
    op.drop_index("ix_match_club_id", table_name="match")
    op.drop_index("ix_hand_version_match_number", table_name="hand_version")
    op.drop_index("ix_player_total_club", table_name="player_total")
    op.drop_table("player_total")
    op.drop_index("ix_player_rating_club", table_name="player_rating")
    op.drop_table("player_rating")
    op.drop_index("ix_rating_step_club_played", table_name="rating_step")
    op.drop_table("rating_step")
    op.drop_index("ix_player_match_stat_player", table_name="player_match_stat")
    op.drop_index("ix_player_match_stat_board", table_name="player_match_stat")
    op.drop_table("player_match_stat")
