"""How chips move inside an engine: one :class:`Transfer` per movement between two accounts
(:mod:`app.games.core.accounts`), recorded by :meth:`app.games.core.game.Game.pay` and written by
the runtime to the ledger with the hand (docs/rules.md §0.5)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.games.core.accounts import HOUSE, Account
from app.games.core.coded import said_json


@dataclass(frozen=True)
class Transfer:
    """One movement of whole chips between two accounts, with the reason in the game's words.

    The reason is a :class:`~app.games.core.coded.Coded` (its English, and a code each reader's
    page words: docs/i18n.md, "The engines' sentences"); its JSON says both, ``reason`` and
    ``reason_coded``."""

    source: Account
    target: Account
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "amount": self.amount,
            **said_json("reason", self.reason),
        }


def move_chips(
    balances: dict[Account, int], source: Account, target: Account, amount: int, reason: str
) -> Transfer | None:
    """Move ``amount`` chips in ``balances`` and return the transfer (None for no chips).

    A transfer is a whole, positive number of chips and never makes a balance negative; the
    house is held outside the table, so its side is not counted here (the runtime checks its
    cover).

    >>> balances = {"seat:0": 10}
    >>> move_chips(balances, "seat:0", "pot", 4, "bet paid"), balances
    (Transfer(source='seat:0', target='pot', amount=4, reason='bet paid'), {'seat:0': 6, 'pot': 4})
    >>> move_chips(balances, "seat:0", "pot", 7, "bet paid")
    Traceback (most recent call last):
    ValueError: seat:0 holds 6, cannot pay 7 (bet paid)
    """
    if amount < 0 or type(amount) is not int:
        raise ValueError(f"a transfer is a whole, positive number of chips: {amount!r}")
    if amount == 0:
        return None
    if source != HOUSE:
        have = balances.get(source, 0)
        if have < amount:
            raise ValueError(f"{source} holds {have}, cannot pay {amount} ({reason})")
        balances[source] = have - amount
    if target != HOUSE:
        balances[target] = balances.get(target, 0) + amount
    return Transfer(source, target, amount, reason)
