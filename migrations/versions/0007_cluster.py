"""cluster mode: nodes, table leases fenced by the database, the house's reservations

``cluster_nodes`` are the nodes serving tables; ``table_leases`` says which node owns each
table, and at which epoch (the lease's expiry is its owner's ``cluster_nodes.expires_at``);
``house_reservations`` is what each house-banked table has set aside of the house's balance
(docs/scaling.md). The three tables are made on every database (empty and harmless on SQLite);
the functions and triggers that make PostgreSQL enforce them only on PostgreSQL:

* ``table31_fence(table, node, epoch)``: called first by every write a node makes for a table
  (app/cluster/fence.py); refuses (SQLSTATE ``T3FEN``, message ``fenced: …``) unless the lease
  is (node, epoch) now, and keeps the lease row share-locked until the transaction ends, so a
  takeover (``epoch = epoch + 1``) waits for it; the transaction may not stay idle over 2 s
  (``idle_in_transaction_session_timeout``), so a node cut off in the middle of one cannot
  keep its lease row locked and its table unadoptable;
* ``table31_fenced_row`` (a trigger on every row that belongs to a table): a table with a lease
  row is written only by a transaction fenced with its current epoch. A table with no lease row
  (a single server) is not checked at all;
* the house: a payout from ``house`` at a table uses up that table's reservation in the hand's
  own transaction, and the reservations may never add up to more than the house's balance at
  commit (a deferred constraint trigger).

Going down drops the functions, the triggers and the three tables.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25 05:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FENCED_BY_TABLE_ID = (
    "hands",
    "seats",
    "ledger_entries",
    "accounts",
    "shoes",
    "chat_messages",
    "chat_mutes",
    "house_reservations",
)
"""Tables whose rows belong to the table named in their ``table_id`` column."""

FUNCTIONS = r"""
CREATE FUNCTION table31_fence(tid text, node text, ep bigint) RETURNS bigint
LANGUAGE plpgsql AS $$
DECLARE
    held_by text;
    held_at bigint;
BEGIN
    SELECT owner, epoch INTO held_by, held_at FROM table_leases WHERE table_id = tid FOR SHARE;
    IF NOT FOUND OR held_by IS DISTINCT FROM node OR held_at <> ep THEN
        RAISE EXCEPTION 'fenced: table % is not held by node % at epoch % (lease: %, %)',
            tid, node, ep, coalesce(held_by, '-'), coalesce(held_at::text, 'none')
            USING ERRCODE = 'T3FEN';
    END IF;
    -- a node cut off mid-transaction must not hold the lease row (and the rows it locked)
    -- for ever: PostgreSQL ends a transaction left idle this long (far below any lease)
    PERFORM set_config('idle_in_transaction_session_timeout', '2000', true);
    PERFORM set_config('table31.fence_' || md5(tid), ep::text, true);
    RETURN ep;
END
$$;

CREATE FUNCTION table31_fence_check(tid text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
    held_at bigint;
BEGIN
    IF tid IS NULL THEN
        RETURN;
    END IF;
    SELECT epoch INTO held_at FROM table_leases WHERE table_id = tid FOR SHARE;
    IF NOT FOUND THEN
        RETURN;  -- no lease: a single server, nothing to check
    END IF;
    IF coalesce(current_setting('table31.fence_' || md5(tid), true), '') <> held_at::text THEN
        RAISE EXCEPTION 'fenced: a write for table % from a transaction not fenced at its epoch %',
            tid, held_at USING ERRCODE = 'T3FEN';
    END IF;
END
$$;

CREATE FUNCTION table31_fenced_row() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM table31_fence_check(OLD.table_id);
        RETURN OLD;
    END IF;
    PERFORM table31_fence_check(NEW.table_id);
    IF TG_OP = 'UPDATE' AND OLD.table_id IS DISTINCT FROM NEW.table_id THEN
        PERFORM table31_fence_check(OLD.table_id);
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION table31_fenced_table() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    PERFORM table31_fence_check(OLD.id);
    IF TG_OP = 'DELETE' THEN
        RETURN OLD;
    END IF;
    IF OLD.id IS DISTINCT FROM NEW.id THEN
        PERFORM table31_fence_check(NEW.id);
    END IF;
    RETURN NEW;
END
$$;

CREATE FUNCTION table31_house_paid() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE house_reservations SET amount = greatest(amount - NEW.amount, 0)
    WHERE table_id = NEW.table_id AND amount > 0;
    RETURN NULL;
END
$$;

CREATE FUNCTION table31_house_covered() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    held bigint;
    reserved bigint;
BEGIN
    -- the house row locked: every check is made after the others' commits (READ COMMITTED)
    SELECT balance INTO held FROM accounts WHERE id = 'house' FOR UPDATE;
    SELECT coalesce(sum(amount), 0) INTO reserved FROM house_reservations;
    IF reserved > coalesce(held, 0) THEN
        RAISE EXCEPTION 'the house''s reservations (%) are more than its balance (%)',
            reserved, coalesce(held, 0) USING ERRCODE = 'T3HOU';
    END IF;
    RETURN NULL;
END
$$;
"""

TRIGGERS = r"""
CREATE TRIGGER table31_fenced_row BEFORE UPDATE OR DELETE ON tables
    FOR EACH ROW EXECUTE FUNCTION table31_fenced_table();
{fenced_rows}
CREATE TRIGGER table31_house_paid AFTER INSERT ON ledger_entries
    FOR EACH ROW WHEN (NEW.source = 'house' AND NEW.table_id IS NOT NULL)
    EXECUTE FUNCTION table31_house_paid();
CREATE CONSTRAINT TRIGGER table31_house_reserved AFTER INSERT ON house_reservations
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.amount > 0) EXECUTE FUNCTION table31_house_covered();
CREATE CONSTRAINT TRIGGER table31_house_rereserved AFTER UPDATE ON house_reservations
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.amount > OLD.amount) EXECUTE FUNCTION table31_house_covered();
CREATE CONSTRAINT TRIGGER table31_house_spent AFTER UPDATE ON accounts
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.id = 'house' AND NEW.balance < OLD.balance)
    EXECUTE FUNCTION table31_house_covered();
"""

DROP = r"""
DROP TRIGGER IF EXISTS table31_house_spent ON accounts;
DROP TRIGGER IF EXISTS table31_house_rereserved ON house_reservations;
DROP TRIGGER IF EXISTS table31_house_reserved ON house_reservations;
DROP TRIGGER IF EXISTS table31_house_paid ON ledger_entries;
DROP TRIGGER IF EXISTS table31_fenced_row ON tables;
{drop_fenced_rows}
DROP FUNCTION IF EXISTS table31_house_covered();
DROP FUNCTION IF EXISTS table31_house_paid();
DROP FUNCTION IF EXISTS table31_fenced_table();
DROP FUNCTION IF EXISTS table31_fenced_row();
DROP FUNCTION IF EXISTS table31_fence_check(text);
DROP FUNCTION IF EXISTS table31_fence(text, text, bigint);
"""


def _postgresql() -> bool:
    return bool(op.get_bind().dialect.name == "postgresql")


def _statements(script: str) -> list[str]:
    """The script's statements; a function's body (between ``$$``) keeps its semicolons."""
    statements: list[str] = []
    current: list[str] = []
    quoted = False
    for line in script.splitlines():
        current.append(line)
        quoted ^= line.count("$$") % 2 == 1
        if not quoted and line.rstrip().endswith(";"):
            statements.append("\n".join(current).strip())
            current = []
    return [s for s in statements if s]


def upgrade() -> None:
    op.create_table(
        "cluster_nodes",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("address", sa.String(length=120), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("draining", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("tables", sa.Integer(), server_default="0", nullable=False),
        sa.Column("sockets", sa.Integer(), server_default="0", nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "table_leases",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("owner", sa.String(length=32), nullable=True),
        sa.Column("epoch", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
        sa.PrimaryKeyConstraint("table_id"),
    )
    op.create_index("ix_table_leases_owner", "table_leases", ["owner"], unique=False)
    op.create_table(
        "house_reservations",
        sa.Column("table_id", sa.String(length=32), nullable=False),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("amount >= 0", name="reservation_not_negative"),
        sa.PrimaryKeyConstraint("table_id"),
    )
    if not _postgresql():
        return
    fenced_rows = "\n".join(
        f"CREATE TRIGGER table31_fenced_row BEFORE INSERT OR UPDATE OR DELETE ON {name}\n"
        "    FOR EACH ROW EXECUTE FUNCTION table31_fenced_row();"
        for name in FENCED_BY_TABLE_ID
    )
    for statement in _statements(FUNCTIONS) + _statements(TRIGGERS.format(fenced_rows=fenced_rows)):
        op.execute(statement)


def downgrade() -> None:
    if _postgresql():
        drops = "\n".join(
            f"DROP TRIGGER IF EXISTS table31_fenced_row ON {name};" for name in FENCED_BY_TABLE_ID
        )
        for statement in _statements(DROP.format(drop_fenced_rows=drops)):
            op.execute(statement)
    op.drop_table("house_reservations")
    op.drop_index("ix_table_leases_owner", table_name="table_leases")
    op.drop_table("table_leases")
    op.drop_table("cluster_nodes")
