"""Settling up (app/review/settle.py): the payments settle every net exactly, there are never
more than parties − 1 of them, and as few as can be (checked against a brute force over every
way of splitting the parties into groups that settle among themselves)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.review import settle as settling
from app.review.settle import Payment, Unbalanced, balances_after, settle


def zero_sum_nets(values: list[int]) -> dict[str, int]:
    """Parties ``p0``… with these nets and one more that makes them sum to zero."""
    nets = {f"p{i}": v for i, v in enumerate(values)}
    nets[f"p{len(values)}"] = -sum(values)
    return nets


def partitions(items: list[int]) -> Iterator[list[list[int]]]:
    """Every way of splitting ``items`` into non-empty groups."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for split in partitions(rest):
        yield [[first], *split]
        for i in range(len(split)):
            yield [*split[:i], [first, *split[i]], *split[i + 1 :]]


def brute_force_fewest(nets: dict[str, int]) -> int:
    """The fewest payments: parties with a net less the most zero-sum groups they split into
    (every split tried)."""
    values = [v for v in nets.values() if v]
    most = max(
        (
            len(split)
            for split in partitions(list(range(len(values))))
            if all(sum(values[i] for i in group) == 0 for group in split)
        ),
        default=0,
    )
    return len(values) - most


def check(nets: dict[str, int], payments: list[Payment]) -> None:
    assert all(v == 0 for v in balances_after(nets, payments).values())
    assert all(p.amount > 0 and isinstance(p.amount, int) for p in payments)
    assert all(p.payer != p.payee for p in payments)
    with_net = sum(1 for v in nets.values() if v)
    assert len(payments) <= max(0, with_net - 1)


AMOUNTS = st.integers(min_value=-500, max_value=500)


@settings(max_examples=300, deadline=None)
@given(st.lists(AMOUNTS, min_size=0, max_size=6))
def test_small_settlements_are_exact_and_fewest(values: list[int]) -> None:
    nets = zero_sum_nets(values)
    payments = settle(nets)
    check(nets, payments)
    assert len(payments) == brute_force_fewest(nets)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(min_value=-6, max_value=6), min_size=1, max_size=7))
def test_small_nets_that_split_into_many_groups_are_fewest(values: list[int]) -> None:
    """Small amounts make many zero-sum groups: the case the exact search is for."""
    nets = zero_sum_nets(values)
    payments = settle(nets)
    check(nets, payments)
    assert len(payments) == brute_force_fewest(nets)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=-40, max_value=40), min_size=10, max_size=15))
def test_up_to_the_exact_limit_settles_in_at_most_n_minus_1(values: list[int]) -> None:
    nets = zero_sum_nets(values)
    check(nets, settle(nets))


@settings(max_examples=40, deadline=None)
@given(st.lists(AMOUNTS, min_size=settling.EXACT_LIMIT + 1, max_size=40))
def test_beyond_the_exact_limit_the_greedy_way_still_settles(values: list[int]) -> None:
    nets = zero_sum_nets(values)
    check(nets, settle(nets))


def test_two_groups_that_settle_among_themselves_take_a_payment_fewer() -> None:
    """Largest debtor to largest creditor alone takes 5 payments here; the parties split into
    {ben 9, ada −3, fay −6} and {cy 5, eve 2, dot −7}, which take 2 each."""
    nets = {"ada": -3, "ben": 9, "cy": 5, "dot": -7, "eve": 2, "fay": -6}
    assert len(settling._greedy(nets)) == 5
    payments = settle(nets)
    check(nets, payments)
    assert len(payments) == brute_force_fewest(nets) == 4


def test_an_even_night_needs_no_payment() -> None:
    assert settle({"ada": 0, "ben": 0}) == []
    assert settle({}) == []


def test_the_biggest_loser_pays_the_biggest_winner_first() -> None:
    assert settle({"ada": 45, "ben": -45}) == [Payment("ben", "ada", 45)]
    payments = settle({"ada": 60, "ben": -45, "cy": -15})
    assert payments == [Payment("ben", "ada", 45), Payment("cy", "ada", 15)]


def test_nets_that_do_not_balance_are_refused() -> None:
    with pytest.raises(Unbalanced):
        settle({"ada": 10, "ben": -5})


def test_a_greedy_fallback_is_used_beyond_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond the limit the exact search is not run at all (it grows as 2^n)."""
    monkeypatch.setattr(settling, "EXACT_LIMIT", 2)

    def never(_: list[int]) -> list[list[int]]:
        raise AssertionError("the exact search ran")

    monkeypatch.setattr(settling, "zero_sum_groups", never)
    nets = {"a": 5, "b": 3, "c": -2, "d": -6}
    check(nets, settle(nets))
