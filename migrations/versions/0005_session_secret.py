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
    op.add_column("user", sa.Column("session_secret", sa.String(length=32), nullable=True))
    # A secret of each user's own; the cookies made before hold none, so everyone logs in once.
    connection = op.get_bind()
    for (user_id,) in connection.execute(sa.select(users.c.id)).all():
        connection.execute(
            users.update().where(users.c.id == user_id).values(session_secret=secrets.token_hex(16))
        )
    with op.batch_alter_table("user") as batch_op:
        batch_op.alter_column("session_secret", existing_type=sa.String(32), nullable=False)


def downgrade():
    with op.batch_alter_table("user") as batch_op:
        batch_op.drop_column("session_secret")
