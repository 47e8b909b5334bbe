"""identity: every players.name_key computed again (the confusable skeleton)

app/core/names.py's ``name_key`` now applies the whole of Unicode's confusables.txt and drops
combining marks, spaces and punctuation (``Ada.``, ``Adɐ`` and ``ᎪᏧᎪ`` are all ``ada``): the
keys stored by revision 0004 and since are the old function's, so each is made again here,
or a player named ``Ada.`` before this revision would not block a newcomer's ``Ada``.
Nothing to undo: a downgrade keeps the new keys (the old function is gone).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.core.names import name_key

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

players = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def upgrade() -> None:
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.id, players.c.name, players.c.name_key)).all()
    changed = [
        {"player": player_id, "key": name_key(name)}
        for player_id, name, key in rows
        if name_key(name) != key
    ]
    if changed:
        connection.execute(
            players.update()
            .where(players.c.id == sa.bindparam("player"))
            .values(name_key=sa.bindparam("key")),
            changed,
        )


def downgrade() -> None:
    pass
