"""Settling up: the fewest payments that bring every party's net to zero.

The rule: each party has a net in whole chips (won: positive, lost: negative) and the nets sum
to zero. A set of payments *settles* them when every party, after paying and being paid, is
at zero. Any group of k parties whose nets sum to zero can be settled by k − 1 payments (each
payment clears at least one of them, the last clears two), and no fewer when the group has no
smaller zero-sum part. So the fewest payments for n parties is n − g, where g is the largest
number of zero-sum groups the parties can be split into.

:func:`settle` finds that split exactly for up to :data:`EXACT_LIMIT` parties (a dynamic
programme over the subsets: the best split of a subset is the best split of the subset
less one party, plus one group when the subset itself sums to zero), and settles each group
largest debtor to largest creditor. Beyond that it settles everyone largest debtor to largest
creditor, which still takes at most n − 1 payments. Two parties whose nets cancel exactly are
always paired first: some best split has them as a group of their own.

Pure: no I/O; parties are named by any string.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

EXACT_LIMIT = 16
"""Up to this many parties with a net (after exact pairs) the fewest payments are found exactly."""


@dataclass(frozen=True)
class Payment:
    """``payer`` pays ``payee`` ``amount`` chips (always more than 0)."""

    payer: str
    payee: str
    amount: int


class Unbalanced(ValueError):
    """The nets do not sum to zero: no payments can settle them."""


def settle(nets: Mapping[str, int]) -> list[Payment]:
    """The fewest payments (exactly, up to :data:`EXACT_LIMIT` parties; at most n − 1
    always) that bring every net to zero; the largest payments first."""
    total = sum(nets.values())
    if total != 0:
        raise Unbalanced(f"the nets sum to {total}, not 0")
    left = {party: int(net) for party, net in nets.items() if net}
    payments = _pair_opposites(left)
    parties = sorted(left, key=lambda p: (-abs(left[p]), p))
    if len(parties) <= EXACT_LIMIT:
        for group in zero_sum_groups([left[p] for p in parties]):
            payments += _greedy({parties[i]: left[parties[i]] for i in group})
    else:
        payments += _greedy(left)
    return sorted(payments, key=lambda p: (-p.amount, p.payer, p.payee))


def _pair_opposites(nets: dict[str, int]) -> list[Payment]:
    """Pay off (and remove from ``nets``) every two parties whose nets cancel exactly."""
    payments: list[Payment] = []
    waiting: dict[int, list[str]] = {}
    for party in sorted(nets, key=lambda p: (-abs(nets[p]), p)):
        net = nets[party]
        match = waiting.get(-net)
        if match:
            other = match.pop(0)
            payer, payee = (party, other) if net < 0 else (other, party)
            payments.append(Payment(payer, payee, abs(net)))
            del nets[party], nets[other]
        else:
            waiting.setdefault(net, []).append(party)
    return payments


def zero_sum_groups(nets: list[int]) -> list[list[int]]:
    """The indices of ``nets`` (which sum to zero, none zero) split into as many zero-sum
    groups as can be: the dynamic programme over subsets. ``best[mask]`` is the most groups
    that the parties in ``mask`` can be split into such that every group but possibly one
    (the one still being filled) sums to zero."""
    n = len(nets)
    if n == 0:
        return []
    size = 1 << n
    sums = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + nets[low.bit_length() - 1]
    best = [0] * size
    came_from = [0] * size
    bits = [1 << i for i in range(n)]
    for mask in range(1, size):
        top, via = -1, 0
        for bit in bits:
            if mask & bit:
                value = best[mask ^ bit]
                if value > top:
                    top, via = value, bit
        best[mask] = top + (1 if sums[mask] == 0 else 0)
        came_from[mask] = via
    # walk back from everyone: each zero-sum subset met closes a group
    groups: list[list[int]] = []
    mask = size - 1
    boundary = size - 1
    while mask:
        bit = came_from[mask]
        mask ^= bit
        if sums[mask] == 0:
            groups.append([i for i in range(n) if boundary & ~mask & bits[i]])
            boundary = mask
    return groups


def _greedy(nets: Mapping[str, int]) -> list[Payment]:
    """Largest debtor pays largest creditor as much as clears one of them, until all are
    clear: at most n − 1 payments for n parties whose nets sum to zero."""
    owed = {p: -n for p, n in nets.items() if n < 0}
    due = {p: n for p, n in nets.items() if n > 0}
    payments: list[Payment] = []
    while owed and due:
        # the largest; on a tie, the first by name (so the same nets give the same payments)
        payer = min(owed, key=lambda p: (-owed[p], p))
        payee = min(due, key=lambda p: (-due[p], p))
        amount = min(owed[payer], due[payee])
        payments.append(Payment(payer, payee, amount))
        for book, party in ((owed, payer), (due, payee)):
            book[party] -= amount
            if not book[party]:
                del book[party]
    return payments


def balances_after(nets: Mapping[str, int], payments: list[Payment]) -> dict[str, int]:
    """Each party's net once the payments are made (all zero when they settle it)."""
    after = dict(nets)
    for p in payments:
        after[p.payer] = after.get(p.payer, 0) + p.amount
        after[p.payee] = after.get(p.payee, 0) - p.amount
    return after
