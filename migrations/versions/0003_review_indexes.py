"""review: indexes for the hand lists, the ledgers and the player pages

Every list reads an index in its order from a seek, never a sort or an OFFSET scan
(``app/review/lists.py``):

* ``ix_hands_ended``: every hand, newest first (``GET /api/hands`` with no filter);
* ``ix_hand_players_player_game``: a player's hands of one game, newest first, with the net
  result, so the player page's figures per game read the index alone;
* ``ix_ledger_table_reason``: a table's sittings (buy-in, top-up, cash-out) for its ledger;
* ``ix_ledger_reason_created``: a night's sittings, by reason and time.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-21 12:00:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.create_index("ix_hands_ended", ["ended_at", "id"], unique=False)
    with op.batch_alter_table("hand_players", schema=None) as batch_op:
        batch_op.create_index(
            "ix_hand_players_player_game",
            ["player_id", "game", "ended_at", "hand_id", "net"],
            unique=False,
        )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_table_reason", ["table_id", "reason", "id"], unique=False)
        batch_op.create_index("ix_ledger_reason_created", ["reason", "created_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_ledger_reason_created")
        batch_op.drop_index("ix_ledger_table_reason")
    with op.batch_alter_table("hand_players", schema=None) as batch_op:
        batch_op.drop_index("ix_hand_players_player_game")
    with op.batch_alter_table("hands", schema=None) as batch_op:
        batch_op.drop_index("ix_hands_ended")
