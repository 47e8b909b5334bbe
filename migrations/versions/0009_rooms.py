"""rooms: one link for an evening, game after game at one table after another

``rooms`` holds each room: its name, its host (who chooses the game and switches it: the
player who opened it), who opened it, whether it is private (reached by its invite code,
as a private table is), the table it plays at now (``current_table_id``), and whether it is
open. ``tables.room_id`` names the room a table was played in (null: a table of its own).
A room's switch writes the new table, its seats and stacks, the old table's close and the
room's new ``current_table_id`` in one transaction (app/db/store/rooms.py). Going down drops
both (the tables stay, as tables of their own).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27 20:40:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("host_id", sa.String(length=32), nullable=False),
        sa.Column("created_by", sa.String(length=32), nullable=True),
        sa.Column("private", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("invite_code", sa.String(length=40), nullable=True),
        sa.Column("current_table_id", sa.String(length=32), nullable=True),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["host_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["created_by"], ["players.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"], unique=False)
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("room_id", sa.String(length=32), nullable=True))
        batch.create_index("ix_tables_room_id", ["room_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_index("ix_tables_room_id")
        batch.drop_column("room_id")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_table("rooms")
