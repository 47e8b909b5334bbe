"""identity: every sign-in token is a device row that expires and can be revoked

Until now a player's first token was ``players.token_hash`` (it could be neither listed nor
revoked) and further devices' tokens were ``device_tokens`` rows that never expired. Now every
token is a ``device_tokens`` row with a public ``id``, a ``label``, ``last_used_at`` and
``expires_at`` (``TOKEN_DAYS`` after its last use), and ``players.token_hash`` is gone:

* each person's first token moves into ``device_tokens`` (made when the player was; bots'
  tokens are dropped: nothing signs in as a bot);
* every token, moved or not, counts as used now: it expires 180 days from this migration
  (``TOKEN_DAYS``'s default) unless it is used before then.

Going down puts each player's oldest device token back in ``players.token_hash`` (a player
with none gets a value no token hashes to) and removes it from ``device_tokens``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28 12:00:00
"""

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

TOKEN_DAYS = 180

players = sa.table(
    "players",
    sa.column("id", sa.String),
    sa.column("token_hash", sa.String),
    sa.column("is_bot", sa.Boolean),
    sa.column("created_at", sa.DateTime(timezone=True)),
)
devices = sa.table(
    "device_tokens",
    sa.column("token_hash", sa.String),
    sa.column("id", sa.String),
    sa.column("player_id", sa.String),
    sa.column("label", sa.String),
    sa.column("created_at", sa.DateTime(timezone=True)),
    sa.column("last_used_at", sa.DateTime(timezone=True)),
    sa.column("expires_at", sa.DateTime(timezone=True)),
)


def upgrade() -> None:
    now = datetime.now(UTC)
    expires = now + timedelta(days=TOKEN_DAYS)
    with op.batch_alter_table("device_tokens", schema=None) as batch_op:
        batch_op.add_column(sa.Column("id", sa.String(length=32), nullable=True))
        batch_op.add_column(
            sa.Column("label", sa.String(length=80), nullable=False, server_default="")
        )
        batch_op.add_column(sa.Column("last_used_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("expires_at", sa.DateTime(timezone=True), nullable=True))
    connection = op.get_bind()
    further = connection.execute(sa.select(devices.c.token_hash)).scalars().all()
    if further:
        connection.execute(
            devices.update()
            .where(devices.c.token_hash == sa.bindparam("hash"))
            .values(id=sa.bindparam("new_id"), last_used_at=now, expires_at=expires),
            [{"hash": h, "new_id": uuid.uuid4().hex} for h in further],
        )
    first = connection.execute(
        sa.select(players.c.id, players.c.token_hash, players.c.created_at).where(
            players.c.is_bot == sa.false()
        )
    ).all()
    if first:
        connection.execute(
            devices.insert(),
            [
                {
                    "token_hash": token_hash,
                    "id": uuid.uuid4().hex,
                    "player_id": player_id,
                    "label": "",
                    "created_at": created_at or now,
                    "last_used_at": now,
                    "expires_at": expires,
                }
                for player_id, token_hash, created_at in first
            ],
        )
    with op.batch_alter_table("device_tokens", schema=None) as batch_op:
        batch_op.alter_column("id", existing_type=sa.String(length=32), nullable=False)
        batch_op.alter_column(
            "last_used_at", existing_type=sa.DateTime(timezone=True), nullable=False
        )
        batch_op.alter_column(
            "expires_at", existing_type=sa.DateTime(timezone=True), nullable=False
        )
        batch_op.create_index("ix_device_tokens_id", ["id"], unique=True)
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.drop_column("token_hash")


def downgrade() -> None:
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.add_column(sa.Column("token_hash", sa.String(length=64), nullable=True))
    connection = op.get_bind()
    oldest: dict[str, str] = {}
    for player_id, token_hash in connection.execute(
        sa.select(devices.c.player_id, devices.c.token_hash).order_by(devices.c.created_at.desc())
    ):
        oldest[player_id] = token_hash  # the last one seen is the oldest
    everyone = connection.execute(sa.select(players.c.id)).scalars().all()
    if everyone:
        connection.execute(
            players.update()
            .where(players.c.id == sa.bindparam("player"))
            .values(token_hash=sa.bindparam("hash")),
            [{"player": p, "hash": oldest.get(p, f"no-token-{p}")} for p in everyone],
        )
    if oldest:
        connection.execute(
            devices.delete().where(devices.c.token_hash == sa.bindparam("hash")),
            [{"hash": h} for h in oldest.values()],
        )
    with op.batch_alter_table("players", schema=None) as batch_op:
        batch_op.alter_column("token_hash", existing_type=sa.String(length=64), nullable=False)
        batch_op.create_unique_constraint("players_token_hash_key", ["token_hash"])
    with op.batch_alter_table("device_tokens", schema=None) as batch_op:
        batch_op.drop_index("ix_device_tokens_id")
        batch_op.drop_column("expires_at")
        batch_op.drop_column("last_used_at")
        batch_op.drop_column("label")
        batch_op.drop_column("id")
