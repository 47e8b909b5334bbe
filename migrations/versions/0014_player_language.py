"""player language: the language a player chose, remembered on every device they use

``players.language`` holds the code of the language the player chose with the language
switch (app/i18n/locales.py: en, el, da, fr, it), or null while they have chosen none (each
device's cookie and browser decide then, app/i18n/negotiate.py). Going up adds the column,
null for every player; going down drops it.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("language", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("language")
