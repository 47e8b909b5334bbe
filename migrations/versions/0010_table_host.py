"""the host at the table: ``tables.host_id``, who runs the table from it

The table's host (docs/rules.md §0.12) is its opener unless the host role was handed to
another player; null means the opener. Going down drops the column (every table's host is
its opener again).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27 20:45:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("host_id", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("host_id")
