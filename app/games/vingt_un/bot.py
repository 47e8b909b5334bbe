"""A simple Vingt-un bot: the choices of a cautious player and of a dealer (docs/rules.md §3).

Each function sees only what its seat may see (its own cards) and the ``legal`` templates,
and returns an action that fits them.
"""

from __future__ import annotations

import random

from app.games.core.actions import Action, LegalAction
from app.games.core.cards import TEN_VALUE_RANKS, rank
from app.games.vingt_un.scoring import is_soft, points

STRONG_RANKS = TEN_VALUE_RANKS | {"A"}
"""First cards worth a bigger stake, and worth a double to the dealer."""

SPLIT_RANKS = frozenset("A8")


def _by_kind(legal: list[LegalAction]) -> dict[str, LegalAction]:
    return {template["kind"]: template for template in legal}


def stake_choice(first_card: str, legal: list[LegalAction], rng: random.Random) -> Action:
    """The minimum on a weak card; on an ace or a ten-value card, up to three times it."""
    spec = _by_kind(legal)["stake"]["params"]["amount"]
    low, high = spec["min"], spec["max"]
    if rank(first_card) in STRONG_RANKS:
        return {"kind": "stake", "amount": rng.randint(low, min(high, 3 * low))}
    return {"kind": "stake", "amount": low}


def double_choice(first_card: str) -> Action:
    """The dealer doubles on an ace or a ten-value card."""
    return {"kind": "double" if rank(first_card) in STRONG_RANKS else "no_double"}


def player_choice(cards: list[str], legal: list[LegalAction]) -> Action:
    """Split aces and eights for the minimum; draw below 15, or on a soft total below 18."""
    kinds = _by_kind(legal)
    split = kinds.get("split")
    if split is not None and rank(cards[0]) in SPLIT_RANKS:
        return {"kind": "split", "amount": split["params"]["amount"]["min"]}
    total = points(cards)
    wants = total < 15 or (is_soft(cards) and total < 18)
    if wants and "draw" in kinds:
        return {"kind": "draw"}
    return {"kind": "stand"}


def dealer_choice(cards: list[str], legal: list[LegalAction]) -> Action:
    """The dealer draws below 17 (the timeout default of docs/rules.md §3.9)."""
    if points(cards) < 17 and "draw" in _by_kind(legal):
        return {"kind": "draw"}
    return {"kind": "stand"}
