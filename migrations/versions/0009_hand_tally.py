"""hand tally: each hand's kózi and each side's name, players and score kept beside its
result, so a long match's scoreboard, totals and score picture read a few bytes a hand
instead of every line and meld verdict

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 16:00:00

"""

import json

import sqlalchemy as sa
from alembic import context, op

# revision identifiers, used by Alembic.
revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

#: Hands read and written per round trip while filling.
BATCH = 500


def upgrade():
    # Nullable, so SQLite adds it in place (no batch copy of the hand table). A hand whose
    # tally is still null is read from its entry and result, so the fill may be skipped
    # (offline SQL) without a wrong page.
    op.add_column("hand", sa.Column("tally", sa.JSON(), nullable=True))
    if not context.is_offline_mode():
        _fill()


def _fill() -> None:
    """Every stored hand's tally, made here from its stored entry and result as JSON (this
    migration's own reading, so later code never changes what it does)."""
    bind = op.get_bind()
    hand = sa.table(
        "hand",
        sa.column("id", sa.Integer),
        sa.column("entry", sa.JSON),
        sa.column("result", sa.JSON),
        sa.column("tally", sa.JSON),
    )
    last = 0
    while True:
        rows = bind.execute(
            sa.select(hand.c.id, hand.c.entry, hand.c.result)
            .where(hand.c.id > last)
            .order_by(hand.c.id)
            .limit(BATCH)
        ).all()
        if not rows:
            return
        bind.execute(
            sa.update(hand)
            .where(hand.c.id == sa.bindparam("hand_id"))
            .values(tally=sa.bindparam("made", type_=sa.JSON)),
            [{"hand_id": row.id, "made": tally(row.entry, row.result)} for row in rows],
        )
        last = rows[-1].id


def tally(entry, result):
    entry = _json(entry)
    result = _json(result)
    kozi = entry.get("kozi") if isinstance(entry, dict) else None
    sides = []
    for side in (result.get("teams") if isinstance(result, dict) else None) or []:
        if not isinstance(side, dict):
            continue
        players = [p for p in side.get("players") or [] if isinstance(p, int)]
        score = side.get("score")
        sides.append(
            {
                "name": str(side.get("name") or ""),
                "players": players,
                "team": side.get("team") if isinstance(side.get("team"), str) else None,
                "score": score if isinstance(score, int) and not isinstance(score, bool) else 0,
            }
        )
    problems = result.get("problems") if isinstance(result, dict) else None
    return {
        "kozi": _SUITS.get(kozi.strip().upper()) if isinstance(kozi, str) else None,
        "sides": sides,
        "problems": len(problems) if isinstance(problems, list) else 0,
    }


#: A stored kózi: a suit's letter; older rows may hold it as it was typed (♥, h, hearts).
_SUITS = {
    word: letter
    for letter, symbol, name in (
        ("S", "♠", "SPADES"),
        ("H", "♥", "HEARTS"),
        ("D", "♦", "DIAMONDS"),
        ("C", "♣", "CLUBS"),
    )
    for word in (letter, symbol, name)
}


def _json(value):
    return json.loads(value) if isinstance(value, str) else value or {}


def downgrade():
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        op.execute("PRAGMA foreign_keys=OFF")  # the batch's copy must delete nothing (0002)
    with op.batch_alter_table("hand") as batch_op:
        batch_op.drop_column("tally")
    if sqlite:
        op.execute("PRAGMA foreign_keys=ON")
