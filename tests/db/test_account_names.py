"""Account ids: their builders and the one parser that reads them back (app/db/account_ids.py).

The stored strings are the ledger's format (``bankroll:P``, ``stack:T:P``, ``pot:T``,
``house``): a builder's string parses back to what built it.
"""

from __future__ import annotations

import pytest

from app.db import ledger
from app.db.account_ids import AccountName, bankroll_owner, parse_account


def test_the_builders_write_the_stored_strings() -> None:
    assert ledger.bankroll("p1") == "bankroll:p1"
    assert ledger.stack("t1", "p1") == "stack:t1:p1"
    assert ledger.table_account("pot", "t1") == "pot:t1"
    assert ledger.table_account("bets", "t1", "p1") == "bets:t1:p1"


@pytest.mark.parametrize(
    ("account", "name"),
    [
        (ledger.bankroll("p1"), AccountName("bankroll", None, "p1")),
        (ledger.stack("t1", "p1"), AccountName("stack", "t1", "p1")),
        (ledger.table_account("pot", "t1"), AccountName("pot", "t1", None)),
        (ledger.table_account("prison", "t1", "p2"), AccountName("prison", "t1", "p2")),
        (ledger.HOUSE, AccountName("house", None, None)),
    ],
)
def test_an_account_id_parses_back_to_what_built_it(account: str, name: AccountName) -> None:
    assert parse_account(account) == name


def test_only_a_bankroll_has_a_bankroll_owner() -> None:
    assert bankroll_owner(ledger.bankroll("p1")) == "p1"
    assert bankroll_owner(ledger.stack("t1", "p1")) is None
    assert bankroll_owner(ledger.HOUSE) is None
    assert bankroll_owner(None) is None
    assert bankroll_owner("") is None
