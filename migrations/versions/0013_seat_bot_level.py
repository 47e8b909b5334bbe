"""seat bot level: a bot's level is stored with its seat, in the transaction that seats it

``seats.bot_level`` holds the level a bot plays at (random, steady or best:
app/analysis/bots.py) from the moment its buy-in is committed. Until now the level was kept
in the table's between-hands state only, so a bot seated during a hand came back from a
restart before that hand ended (or from a room's switch of game) at the default level.
Going up copies the levels kept in the tables' states into their seats; going down drops
the column (the states still hold the levels they held).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28 05:10:00
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_LEVELS_KEY = "runtime_bot_levels"


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("state", sa.JSON))
    seats = sa.table(
        "seats",
        sa.column("table_id", sa.String),
        sa.column("seat", sa.Integer),
        sa.column("bot_level", sa.String),
    )
    bind = op.get_bind()
    for table_id, state in bind.execute(sa.select(tables.c.id, tables.c.state)).all():
        levels: Any = state.get(_LEVELS_KEY) if isinstance(state, dict) else None
        if not isinstance(levels, dict):
            continue
        for seat, level in levels.items():
            if not (isinstance(seat, str) and seat.isdigit() and isinstance(level, str)):
                continue
            bind.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == int(seat))
                .values(bot_level=level[:16])
            )


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
