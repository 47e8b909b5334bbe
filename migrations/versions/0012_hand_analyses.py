"""hand analyses: each finished hand's analysis, kept once computed

``hand_analyses`` holds, per finished hand, the analysis of every decision in it
(app/analysis/hand.py: the options, their chances and expected chips), computed off the
table's loop after the hand was stored (app/runtime/analyses.py), with the version of the
method that computed it. Going down drops the table (the analyses are computed again on
demand).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28 03:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "hand_analyses",
        sa.Column("hand_id", sa.String(length=32), nullable=False),
        sa.Column("method", sa.Integer(), nullable=False),
        sa.Column(
            "analysis",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["hand_id"], ["hands.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("hand_id"),
    )


def downgrade() -> None:
    op.drop_table("hand_analyses")
