"""session secret: each user's sessions and remember-me cookies name it, so a new one
("log out everywhere", a password change) ends them all

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24 12:50:00

"""

import secrets

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

users = sa.table("user", sa.column("id", sa.Integer()), sa.column("session_secret", sa.String()))


def upgrade():
    # Not null from the start, with a default SQLite adds in place: a batch operation would
    # copy the user table and drop the old one, and with foreign keys on that drop cascades
    # into every membership and token (see 0002).
    op.add_column(
        "user",
        sa.Column("session_secret", sa.String(length=32), nullable=False, server_default=""),
    )
    # A secret of each user's own; the cookies made before hold none, so everyone logs in once.
    connection = op.get_bind()
    for (user_id,) in connection.execute(sa.select(users.c.id)).all():
        connection.execute(
            users.update().where(users.c.id == user_id).values(session_secret=secrets.token_hex(16))
        )
    if connection.dialect.name != "sqlite":
        op.alter_column("user", "session_secret", server_default=None)  # the app sets it


def downgrade():
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("PRAGMA foreign_keys=OFF")  # the batch's copy must delete nothing (0002)
    with op.batch_alter_table("user") as batch_op:
        batch_op.drop_column("session_secret")
    if sqlite:
        op.execute("PRAGMA foreign_keys=ON")
