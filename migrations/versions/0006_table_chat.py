"""table chat: each table's last messages and the people muted at it

``chat_messages`` holds a table's last 100 chat messages (app/runtime/chat.py: a removed
message stays as a mark with its text erased, older ones are let go as new ones come);
``chat_mutes`` the people whose chat the table's opener or the host has muted there. Both
come back with the table after a restart. Going down drops both tables (the chat is lost,
nothing else).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25 02:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("text", sa.String(length=200), nullable=False),
        sa.Column("removed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("table_id", "id"),
    )
    op.create_index("ix_chat_messages_player_id", "chat_messages", ["player_id"], unique=False)
    op.create_table(
        "chat_mutes",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("muted_by", sa.String(length=32), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("table_id", "player_id"),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_index("ix_chat_messages_player_id", table_name="chat_messages")
    op.drop_table("chat_messages")
