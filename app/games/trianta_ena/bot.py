"""A sensible Trianta Ena bot: what to stake, when to hit, when to take the bank (docs/rules.md §1).

The banker stands on 27 or more and wins ties, so a player standing on 27 or less wins only
when the banker busts. No card can bust a hand worth 21 or less, so the bot always hits there;
from 22 it hits only against a strong banker up card (an ace or a ten-value card), which makes a
banker bust less likely, and stands from 24. It stakes more on a strong face-down card (an ace
gives a chance of a natural), less against a strong banker up card, and folds a low card
(2 to 6) against one.
"""

from __future__ import annotations

from app.games.core.cards import TEN_VALUE_RANKS, rank

SAFE = 21
"""No card can take a hand worth this or less over 31."""


def strong(up_card: str) -> bool:
    """An ace or a ten-value card: the banker is more likely to reach 27 to 31 without busting."""
    return rank(up_card) == "A" or rank(up_card) in TEN_VALUE_RANKS


def folds(first_card: str, banker_up: str) -> bool:
    """Sit the round out with a low face-down card against a strong banker up card."""
    return rank(first_card) in "23456" and strong(banker_up)


def stake_fraction(first_card: str, banker_up: str) -> float:
    """The share of its stack the bot stakes, by its face-down card and the banker's up card."""
    mine = rank(first_card)
    if mine == "A":
        share = 0.10
    elif mine in TEN_VALUE_RANKS:
        share = 0.05
    elif mine in "789":
        share = 0.03
    else:
        share = 0.01
    return share / 2 if strong(banker_up) else share


def bet_amount(first_card: str, banker_up: str, stack: int, low: int, high: int) -> int:
    """A stake from ``low`` to ``high`` (the legal range) for a bot holding ``stack`` chips."""
    wanted = int(stack * stake_fraction(first_card, banker_up))
    return max(low, min(high, wanted))


def hit_below(banker_up: str) -> int:
    """The bot hits while its hand is worth less than this."""
    return 24 if strong(banker_up) else SAFE + 1


def takes_bank(stack: int, buy_in: int, vacant: bool) -> bool:
    """Accept an offered bank with a large stack (twice a buy-in), or when there is no banker."""
    return vacant or stack >= 2 * buy_in
