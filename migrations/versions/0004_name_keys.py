"""identity: players.name_key, the skeleton names are compared by

``name_key`` is what app/core/names.py's ``name_key`` makes of a name (case folded, look-alike
letters replaced by the Latin ones). New players may not take a key a person already has
(app/runtime/store.py: sign_up); players made before this revision may share one, so the
index is not unique, and every existing row gets its key here.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from app.core.names import name_key

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

players = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def upgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("name_key", sa.String(length=200), nullable=True))
    connection = op.get_bind()
    rows = connection.execute(sa.select(players.c.id, players.c.name)).all()
    keyed = [{"player": player_id, "key": name_key(name)} for player_id, name in rows]
    if keyed:
        connection.execute(
            players.update()
            .where(players.c.id == sa.bindparam("player"))
            .values(name_key=sa.bindparam("key")),
            keyed,
        )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(length=200), nullable=False)
        batch_op.create_index("ix_players_name_key", ["name_key"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_index("ix_players_name_key")
        batch_op.drop_column("name_key")
