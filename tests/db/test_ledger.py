"""The chip ledger on a real, migrated database (docs/rules.md §0.5; app/db/ledger.py).

Grants, transfers and takes; the guard that keeps every balance at zero or more (and that a
refused movement, once rolled back, changed nothing); whole positive amounts only; and the
audit: balanced after hundreds of random movements, unbalanced, naming the account, after a
balance is changed behind the ledger's back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import event, func, insert, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.db import ledger
from app.db.ledger import InsufficientFunds, Movement
from app.db.models import Account, LedgerEntry, Player
from app.db.session import make_engine, make_sessionmaker

PLAYERS = ("p0", "p1", "p2")
ACCOUNTS = (
    "bankroll:p0",
    "bankroll:p1",
    "bankroll:p2",
    "stack:t1:p0",
    "stack:t1:p1",
    "bets:t1:p2",
    "pot:t1",
    ledger.HOUSE,
)


async def add_players(maker: async_sessionmaker[AsyncSession]) -> None:
    async with maker() as session, session.begin():
        existing = set((await session.scalars(select(Player.id))).all())
        rows = [{"id": p, "name": p.upper(), "is_bot": False} for p in PLAYERS if p not in existing]
        if rows:
            await session.execute(insert(Player), rows)


@pytest.fixture
async def maker(database_url: str) -> AsyncIterator[async_sessionmaker[AsyncSession]]:
    engine = make_engine(database_url)
    sessionmaker = make_sessionmaker(engine)
    await add_players(sessionmaker)
    try:
        yield sessionmaker
    finally:
        await engine.dispose()


async def move(maker: async_sessionmaker[AsyncSession], *movements: Movement, **where: Any) -> None:
    """Record movements in one transaction (rolled back when anything raises)."""
    async with maker() as session, session.begin():
        await ledger.record(session, movements, **where)


async def balances(maker: async_sessionmaker[AsyncSession]) -> dict[str, int]:
    async with maker() as session:
        rows = await session.execute(select(Account.id, Account.balance))
        return {a: int(b) for a, b in rows}


async def entry_count(maker: async_sessionmaker[AsyncSession]) -> int:
    async with maker() as session:
        return int(await session.scalar(select(func.count()).select_from(LedgerEntry)) or 0)


async def audit(maker: async_sessionmaker[AsyncSession]) -> dict[str, Any]:
    async with maker() as session:
        return await ledger.audit(session)


# --------------------------------------------------------------------------- movements


async def test_an_empty_ledger_is_balanced(maker: async_sessionmaker[AsyncSession]) -> None:
    result = await audit(maker)
    assert result["granted"] == 0 and result["accounts_total"] == 0
    assert result["balanced"] is True


async def test_a_grant_creates_the_account_and_the_chips(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    await move(maker, Movement(None, "bankroll:p0", 1000, "starting bankroll"))
    assert await balances(maker) == {"bankroll:p0": 1000}
    async with maker() as session:
        assert await ledger.balance(session, "bankroll:p0") == 1000
        assert await ledger.balance(session, "bankroll:nobody") == 0
        assert await ledger.granted_to(session, "bankroll:p0") == 1000
        entry = await session.scalar(select(LedgerEntry))
        account = await session.get(Account, "bankroll:p0")
    assert entry is not None and entry.source is None and entry.target == "bankroll:p0"
    assert entry.amount == 1000 and entry.reason == "starting bankroll"
    assert account is not None and account.kind == "bankroll" and account.player_id == "p0"
    result = await audit(maker)
    assert (result["granted"], result["accounts_total"], result["balanced"]) == (1000, 1000, True)


async def test_transfers_move_chips_and_are_recorded_with_their_hand(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    await move(maker, Movement(None, "bankroll:p0", 1000, "grant"))
    async with maker() as session, session.begin():
        await ledger.transfer(session, "bankroll:p0", "stack:t1:p0", 300, "buy-in", table_id="t1")
    await move(
        maker,
        Movement("stack:t1:p0", "bets:t1:p0", 40, "stake placed"),
        Movement("bets:t1:p0", "pot:t1", 40, "stake lost"),
        hand_id="h1",
        table_id="t1",
    )
    assert await balances(maker) == {
        "bankroll:p0": 700,
        "stack:t1:p0": 260,
        "bets:t1:p0": 0,
        "pot:t1": 40,
    }
    async with maker() as session:
        rows = (
            await session.execute(
                select(LedgerEntry.source, LedgerEntry.target, LedgerEntry.amount)
                .where(LedgerEntry.hand_id == "h1")
                .order_by(LedgerEntry.id)
            )
        ).all()
        assert [tuple(r) for r in rows] == [
            ("stack:t1:p0", "bets:t1:p0", 40),
            ("bets:t1:p0", "pot:t1", 40),
        ]
        pot = await session.get(Account, "pot:t1")
        assert pot is not None and pot.kind == "pot" and pot.table_id == "t1"
        assert pot.player_id is None
        assert await ledger.balances(session, ["pot:t1", "stack:t1:p0", "none"]) == {
            "pot:t1": 40,
            "stack:t1:p0": 260,
            "none": 0,
        }
    result = await audit(maker)
    assert result["balanced"] is True and result["accounts_total"] == 1000


async def test_a_take_removes_chips_from_the_total(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    await move(maker, Movement(None, ledger.HOUSE, 5000, "house float"))
    await move(maker, Movement(ledger.HOUSE, None, 1200, "host takes"))
    result = await audit(maker)
    assert result["granted_in"] == 5000 and result["taken_out"] == 1200
    assert result["granted"] == 3800 == result["accounts_total"]
    assert result["balanced"] is True


async def test_a_long_reason_is_cut_to_fit(maker: async_sessionmaker[AsyncSession]) -> None:
    await move(maker, Movement(None, "pot:t1", 5, "r" * 300))
    async with maker() as session:
        reason = await session.scalar(select(LedgerEntry.reason))
    assert reason == "r" * 80


# --------------------------------------------------------------------------- the guard


async def test_a_debit_beyond_the_balance_raises_and_changes_nothing(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    await move(maker, Movement(None, "bankroll:p1", 100, "grant"))
    before, entries = await balances(maker), await entry_count(maker)
    with pytest.raises(InsufficientFunds) as caught:
        await move(maker, Movement("bankroll:p1", "stack:t1:p1", 101, "buy-in"))
    assert caught.value.account == "bankroll:p1" and caught.value.amount == 101
    assert "bankroll:p1" in str(caught.value)
    after = await balances(maker)
    assert after["bankroll:p1"] == 100 and after.get("stack:t1:p1", 0) == 0
    assert {k: v for k, v in after.items() if v} == {k: v for k, v in before.items() if v}
    assert await entry_count(maker) == entries
    assert (await audit(maker))["balanced"] is True


async def test_a_batch_with_one_impossible_debit_is_rolled_back_whole(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """Debits apply in account order, so ``bets:…`` is debited before ``pot:…`` fails: the
    rollback must undo that first debit too."""
    await move(maker, Movement(None, "bets:t1:p2", 50, "grant"))
    await move(maker, Movement(None, "pot:t1", 10, "grant"))
    entries = await entry_count(maker)
    with pytest.raises(InsufficientFunds) as caught:
        await move(
            maker,
            Movement("bets:t1:p2", ledger.HOUSE, 50, "stake lost"),
            Movement("pot:t1", ledger.HOUSE, 11, "pot paid"),
        )
    assert caught.value.account == "pot:t1"
    assert await balances(maker) == {"bets:t1:p2": 50, "pot:t1": 10}
    assert await entry_count(maker) == entries
    assert (await audit(maker))["balanced"] is True


async def test_a_debit_that_waited_on_another_is_refused_never_overdrawn(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """Two buy-ins race for one bankroll (two tables, maybe on two nodes): the second waits
    for the first's lock, and must then be refused as short (the caller's clear error), not
    pass the guard on the balance it read before the wait and hit the CHECK constraint. Its
    other, covered debit is rolled back with it."""
    await move(maker, Movement(None, "bankroll:p0", 900, "grant"))
    await move(maker, Movement(None, "bankroll:p1", 900, "grant"))
    async with maker() as first, first.begin():
        await ledger.record(first, [Movement("bankroll:p0", "stack:t1:p0", 600, "buy-in")])
        second = asyncio.create_task(
            move(
                maker,
                Movement("bankroll:p0", "pot:t1", 600, "buy-in"),
                Movement("bankroll:p1", "pot:t1", 10, "fine"),
            )
        )
        await asyncio.sleep(0.5)  # the second is now waiting on the first's row lock
        assert not second.done()
    with pytest.raises(InsufficientFunds) as caught:
        await second
    assert (caught.value.account, caught.value.amount) == ("bankroll:p0", 600)
    assert {k: v for k, v in (await balances(maker)).items() if v} == {
        "bankroll:p0": 300,
        "bankroll:p1": 900,
        "stack:t1:p0": 600,
    }
    assert (await audit(maker))["balanced"] is True


async def test_movements_are_netted_within_one_batch(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """Chips may pass through an empty account inside one batch (a stake placed, then lost):
    only each account's net result must be covered."""
    await move(maker, Movement(None, "stack:t1:p0", 30, "grant"))
    await move(
        maker,
        Movement("stack:t1:p0", "bets:t1:p0", 30, "stake placed"),
        Movement("bets:t1:p0", "pot:t1", 30, "stake lost"),
    )
    assert await balances(maker) == {"stack:t1:p0": 0, "bets:t1:p0": 0, "pot:t1": 30}


async def test_a_debit_from_an_account_that_does_not_exist_is_refused(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """The debits are one statement, applied all or none: a missing account among funded
    ones is named, and nothing is created or moved."""
    await move(maker, Movement(None, "bankroll:p0", 100, "grant"))
    with pytest.raises(InsufficientFunds) as caught:
        await move(
            maker,
            Movement("bankroll:p0", "pot:t1", 10, "fine"),
            Movement("stack:t1:p1", "pot:t1", 5, "from nowhere"),
        )
    assert (caught.value.account, caught.value.amount) == ("stack:t1:p1", 5)
    assert await balances(maker) == {"bankroll:p0": 100}


async def test_a_record_costs_three_statements_whatever_its_size(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """Debits (one guarded statement), credits (one upsert, new accounts included) and the
    entries: no SELECT first, no UPDATE per account (docs/performance.md, item 1)."""
    await move(maker, *(Movement(None, f"bankroll:{p}", 1000, "grant") for p in PLAYERS))
    statements: list[str] = []
    engine = maker.kw["bind"]

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement.split()[0])

    event.listen(engine.sync_engine, "before_cursor_execute", count)
    try:
        await move(
            maker,
            *(Movement(f"bankroll:{p}", f"stack:t1:{p}", 100, "buy-in") for p in PLAYERS),
            Movement("stack:t1:p0", "pot:t1", 30, "stake"),
            Movement("stack:t1:p1", "pot:t1", 30, "stake"),
            Movement("pot:t1", "stack:t1:p2", 60, "won"),
            table_id="t1",
        )
    finally:
        event.remove(engine.sync_engine, "before_cursor_execute", count)
    assert [s for s in statements if s not in ("BEGIN", "COMMIT")] == [
        "UPDATE",
        "INSERT",
        "INSERT",
    ]
    assert await balances(maker) == {
        **{f"bankroll:{p}": 900 for p in PLAYERS},
        "stack:t1:p0": 70,
        "stack:t1:p1": 70,
        "stack:t1:p2": 160,
        "pot:t1": 0,
    }
    assert (await audit(maker))["balanced"] is True


async def test_the_database_refuses_a_negative_balance_itself(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    await move(maker, Movement(None, "pot:t1", 5, "grant"))
    with pytest.raises(IntegrityError):
        async with maker() as session, session.begin():
            await session.execute(text("UPDATE accounts SET balance = -1 WHERE id = 'pot:t1'"))
    assert (await balances(maker))["pot:t1"] == 5


@pytest.mark.parametrize("amount", [-1, -100, 2.5, 10.0, True, "5", None])
async def test_amounts_must_be_whole_and_positive(
    maker: async_sessionmaker[AsyncSession], amount: Any
) -> None:
    await move(maker, Movement(None, "bankroll:p2", 100, "grant"))
    entries = await entry_count(maker)
    with pytest.raises((ValueError, TypeError)):
        await move(
            maker,
            Movement("bankroll:p2", "stack:t1:p0", 10, "fine"),
            Movement("bankroll:p2", "pot:t1", amount, "bad"),
        )
    assert await balances(maker) == {"bankroll:p2": 100}
    assert await entry_count(maker) == entries


async def test_a_zero_movement_records_nothing(maker: async_sessionmaker[AsyncSession]) -> None:
    await move(maker, Movement("bankroll:p0", "pot:t1", 0, "nothing"))
    assert await entry_count(maker) == 0
    assert await balances(maker) == {}


# --------------------------------------------------------------------------- the audit


async def test_the_audit_detects_a_tampered_balance(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    await move(maker, Movement(None, "bankroll:p0", 1000, "grant"))
    await move(maker, Movement("bankroll:p0", "stack:t1:p0", 250, "buy-in"))
    assert (await audit(maker))["balanced"] is True
    async with maker() as session, session.begin():
        await session.execute(
            text("UPDATE accounts SET balance = balance + 7 WHERE id = 'stack:t1:p0'")
        )
    result = await audit(maker)
    assert result["balanced"] is False
    assert result["mismatched_accounts"] == ["stack:t1:p0"]
    assert result["granted"] == 1000 and result["accounts_total"] == 1007


async def test_the_audit_detects_chips_moved_outside_the_ledger(
    maker: async_sessionmaker[AsyncSession],
) -> None:
    """The total still matches when chips move between accounts without an entry, but each
    account's own entries do not: both are named."""
    await move(maker, Movement(None, "bankroll:p0", 600, "grant"))
    await move(maker, Movement(None, "bankroll:p1", 600, "grant"))
    async with maker() as session, session.begin():
        await session.execute(
            text("UPDATE accounts SET balance = balance - 100 WHERE id = 'bankroll:p0'")
        )
        await session.execute(
            text("UPDATE accounts SET balance = balance + 100 WHERE id = 'bankroll:p1'")
        )
    result = await audit(maker)
    assert result["granted"] == result["accounts_total"] == 1200
    assert result["balanced"] is False
    assert result["mismatched_accounts"] == ["bankroll:p0", "bankroll:p1"]


async def test_the_audit_detects_a_deleted_entry(maker: async_sessionmaker[AsyncSession]) -> None:
    await move(maker, Movement(None, "bankroll:p0", 500, "grant"))
    await move(maker, Movement("bankroll:p0", "pot:t1", 70, "lost"))
    async with maker() as session, session.begin():
        await session.execute(text("DELETE FROM ledger_entries WHERE amount = 70"))
    result = await audit(maker)
    assert result["balanced"] is False
    assert result["mismatched_accounts"] == ["bankroll:p0", "pot:t1"]


MOVEMENT = st.tuples(
    st.sampled_from((None, *ACCOUNTS)),
    st.sampled_from((None, *ACCOUNTS)),
    st.integers(1, 400),
).filter(lambda m: m[0] != m[1] and not (m[0] is None and m[1] is None))
BATCHES = st.lists(st.lists(MOVEMENT, min_size=1, max_size=3), min_size=20, max_size=50)


async def play_batches(url: str, batches: list[list[tuple[str | None, str | None, int]]]) -> None:
    engine = make_engine(url)
    maker = make_sessionmaker(engine)
    try:
        await add_players(maker)
        model = await balances(maker)
        granted = (await audit(maker))["granted"]
        for batch in batches:
            net: dict[str, int] = {}
            for source, target, amount in batch:
                if source is not None:
                    net[source] = net.get(source, 0) - amount
                else:
                    granted += amount
                if target is not None:
                    net[target] = net.get(target, 0) + amount
                else:
                    granted -= amount
            short = sorted(a for a, d in net.items() if model.get(a, 0) + d < 0)
            movements = [Movement(s, t, a, "random") for s, t, a in batch]
            if short:
                with pytest.raises(InsufficientFunds) as caught:
                    await move(maker, *movements)
                assert caught.value.account in short
                granted -= sum(a for s, _, a in batch if s is None)
                granted += sum(a for _, t, a in batch if t is None)
                continue
            await move(maker, *movements)
            for account, delta in net.items():
                model[account] = model.get(account, 0) + delta
        stored = await balances(maker)
        assert {a: b for a, b in stored.items() if b} == {a: b for a, b in model.items() if b}
        result = await audit(maker)
        assert result["mismatched_accounts"] == [] and result["negative_accounts"] == []
        assert result["granted"] == granted == result["accounts_total"]
        assert result["balanced"] is True
    finally:
        await engine.dispose()


@given(BATCHES)
@settings(
    max_examples=8,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
def test_the_audit_balances_after_random_movements(
    database_url: str, batches: list[list[tuple[str | None, str | None, int]]]
) -> None:
    """A few hundred random batches (grants, takes, transfers, some impossible) over examples
    that share one database: balances follow a model exactly and the audit always balances."""
    asyncio.run(play_batches(database_url, batches))
