"""blocks: the people each player blocks for themselves

``player_blocks`` holds, per player, the people whose chat messages and reactions the server
no longer sends them (app/runtime/blocks.py), at every table and across restarts. Going down
drops the table (every block is lost, nothing else).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 21:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_blocks",
        sa.Column("player_id", sa.String(length=32), nullable=False),
        sa.Column("blocked_id", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"]),
        sa.ForeignKeyConstraint(["blocked_id"], ["players.id"]),
        sa.PrimaryKeyConstraint("player_id", "blocked_id"),
    )


def downgrade() -> None:
    op.drop_table("player_blocks")
