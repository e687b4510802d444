"""tournaments: a club's tournaments, their entries and players, rounds, tables (each an
ordinary match), byes and penalties (issue 20, tournaments.md)

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 22:00:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("variant_id", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("house_rules", sa.JSON(), nullable=False),
        sa.Column("format", sa.String(length=20), nullable=False),
        sa.Column("movement", sa.String(length=20), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("deals_per_round", sa.Integer(), nullable=True),
        sa.Column("vp_scale", sa.String(length=40), nullable=False),
        sa.Column("vp_rows", sa.JSON(), nullable=False),
        sa.Column("bye_vp", sa.Integer(), nullable=False),
        sa.Column("round_minutes", sa.Integer(), nullable=True),
        sa.Column("counts_in_season", sa.Boolean(), server_default=sa.true(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("created_by_id", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["created_by_id"], ["user.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(("ix_tournament_club_id"), "tournament", ["club_id"], unique=False)
    op.create_table(
        "tournament_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "name"),
        sa.UniqueConstraint("tournament_id", "position"),
    )
    op.create_table(
        "tournament_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=10), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "number"),
    )
    op.create_table(
        "tournament_bye",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("vp", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["tournament_entry.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["round_id"], ["tournament_round.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "entry_id"),
    )
    op.create_table(
        "tournament_entry_player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["tournament_entry.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["player.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("entry_id", "position"),
    )
    op.create_index(
        ("ix_tournament_entry_player_player_id"),
        "tournament_entry_player",
        ["player_id"],
        unique=False,
    )
    op.create_table(
        "tournament_penalty",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("entry_id", sa.Integer(), nullable=False),
        sa.Column("round_number", sa.Integer(), nullable=True),
        sa.Column("mp", sa.Integer(), nullable=False),
        sa.Column("vp", sa.Integer(), nullable=False),
        sa.Column("reason", sa.String(length=200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["entry_id"], ["tournament_entry.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "tournament_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("ns_entry_id", sa.Integer(), nullable=False),
        sa.Column("ew_entry_id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("confirmed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(["ew_entry_id"], ["tournament_entry.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["match_id"], ["match.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["ns_entry_id"], ["tournament_entry.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["round_id"], ["tournament_round.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "number"),
    )
    op.create_index(
        ("ix_tournament_table_match_id"), "tournament_table", ["match_id"], unique=False
    )


def downgrade():
    op.drop_index("ix_tournament_table_match_id", table_name="tournament_table")
    op.drop_table("tournament_table")
    op.drop_table("tournament_penalty")
    op.drop_index("ix_tournament_entry_player_player_id", table_name="tournament_entry_player")
    op.drop_table("tournament_entry_player")
    op.drop_table("tournament_bye")
    op.drop_table("tournament_round")
    op.drop_table("tournament_entry")
    op.drop_index("ix_tournament_club_id", table_name="tournament")
    op.drop_table("tournament")
