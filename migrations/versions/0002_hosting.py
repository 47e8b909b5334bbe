"""hosting: private tables, recovery codes, device tokens, server settings

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-21 10:58:04.341282
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = '0002'
down_revision: str | None = '0001'
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table('server_settings',
    sa.Column('key', sa.String(length=40), nullable=False),
    sa.Column('value', sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), 'postgresql'), nullable=False),
    sa.PrimaryKeyConstraint('key')
    )
    op.create_table('device_tokens',
    sa.Column('token_hash', sa.String(length=64), nullable=False),
    sa.Column('player_id', sa.String(length=32), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['players.id'], ),
    sa.PrimaryKeyConstraint('token_hash')
    )
    with op.batch_alter_table('device_tokens', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_device_tokens_player_id'), ['player_id'], unique=False)

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('recovery_hash', sa.String(length=64), nullable=True))
        batch_op.create_unique_constraint('uq_players_recovery_hash', ['recovery_hash'])

    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.add_column(
            sa.Column('private', sa.Boolean(), nullable=False, server_default=sa.false())
        )
        batch_op.add_column(sa.Column('invite_code', sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column('pause_reason', sa.String(length=200), nullable=True))



def downgrade() -> None:
    with op.batch_alter_table('tables', schema=None) as batch_op:
        batch_op.drop_column('pause_reason')
        batch_op.drop_column('invite_code')
        batch_op.drop_column('private')

    with op.batch_alter_table('players', schema=None) as batch_op:
        batch_op.drop_constraint('uq_players_recovery_hash', type_='unique')
        batch_op.drop_column('recovery_hash')

    with op.batch_alter_table('device_tokens', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_device_tokens_player_id'))

    op.drop_table('device_tokens')
    op.drop_table('server_settings')
