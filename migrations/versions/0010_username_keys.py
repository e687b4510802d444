"""username keys and failed logins: each user's name as a login finds it and as it looks
(indexed, so a login and the look-alike check are one lookup each), and failed logins
counted per account in the database, shared by every worker

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29 10:00:00

"""

import sqlalchemy as sa
from alembic import context, op

# The keys stored must be exactly the ones the running code computes, or accounts would not
# be found: so this migration asks the code's own functions (usernames.py says a change to
# them comes with a migration that fills the keys anew).
from scorekeeper.usernames import look_key, username_key

# revision identifiers, used by Alembic.
revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: Users read and written per round trip while filling.
BATCH = 500


def upgrade():
    # Not null from the start, with a default SQLite adds in place: a batch operation would
    # copy the user table and drop the old one, and with foreign keys on that drop cascades
    # into every membership and token (see 0002, 0005).
    for column in ("name_key", "look_key"):
        op.add_column("user", sa.Column(column, sa.Text(), nullable=False, server_default=""))
    if not context.is_offline_mode():
        _fill()
    if op.get_bind().dialect.name != "sqlite":
        for column in ("name_key", "look_key"):
            op.alter_column("user", column, server_default=None)  # the app sets them
    op.create_index("ix_user_name_key", "user", ["name_key"])
    op.create_index("ix_user_look_key", "user", ["look_key"])
    op.create_table(
        "login_failure",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("account", sa.String(length=64), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_login_failure_account_at", "login_failure", ["account", "at"])
    op.create_index("ix_login_failure_at", "login_failure", ["at"])


def _fill() -> None:
    bind = op.get_bind()
    user = sa.table(
        "user",
        sa.column("id", sa.Integer),
        sa.column("username", sa.String),
        sa.column("name_key", sa.Text),
        sa.column("look_key", sa.Text),
    )
    last = 0
    while True:
        rows = bind.execute(
            sa.select(user.c.id, user.c.username)
            .where(user.c.id > last)
            .order_by(user.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        bind.execute(
            sa.update(user)
            .where(user.c.id == sa.bindparam("user_id"))
            .values(name_key=sa.bindparam("name"), look_key=sa.bindparam("look")),
            [
                {
                    "user_id": row.id,
                    "name": username_key(row.username),
                    "look": look_key(row.username),
                }
                for row in rows
            ],
        )
        last = rows[-1].id


def downgrade():
    op.drop_index("ix_login_failure_at", table_name="login_failure")
    op.drop_index("ix_login_failure_account_at", table_name="login_failure")
    op.drop_table("login_failure")
    op.drop_index("ix_user_look_key", table_name="user")
    op.drop_index("ix_user_name_key", table_name="user")
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("PRAGMA foreign_keys=OFF")  # the batch's copy must delete nothing (0002)
    with op.batch_alter_table("user") as batch_op:
        batch_op.drop_column("look_key")
        batch_op.drop_column("name_key")
    if sqlite:
        op.execute("PRAGMA foreign_keys=ON")
