"""The Greek 31 bots' strategy, from what the bot's seat may see (docs/rules.md §2).

* Staking: the minimum, twice the minimum on an ace or a ten-value up card.
* The dealer stands on 31, on 14 (or a pair of twos) and on 26 or more, concealing the card with
  the most points; below that it draws.
* A player against a dealer's 14 draws until their hand beats it (only 31, or Heath's pair of
  twos against an ordinary 14): standing would lose anyway.
* A player against a concealed card weighs the dealer's possible totals (the shown cards plus
  any one card that leaves the dealer neither bust, nor 31, nor 14, since those are shown): it
  stands on 14 and on a hand that beats at least half of them, and otherwise draws while a draw
  cannot bust (21 or less) or while the hand is 28 or less.

The thresholds were picked from simulations (``shuffle = new_dealer``, 4 seats): standing later
helps the dealer up to about 26, and players who draw harder against a concealed card do better.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.core.cards import RANKS
from app.games.greek_31.scoring import FOURTEEN, THIRTY_ONE, hand_points, hand_rank

DEALER_STANDS_ON = 26
PLAYER_RISKS_UP_TO = 28


def stake_choice(up_card: str, low: int, high: int) -> int:
    """The bot's stake within ``low..high`` for its face-up card."""
    if up_card[0] in "ATJQK":
        return min(high, 2 * low)
    return low


def dealer_draws(cards: Sequence[str], ace_rule: str, heath: bool) -> bool:
    """Whether the bot dealer takes another card (it always stands on 31 and on 14)."""
    rank = hand_rank(cards, ace_rule, heath)
    return rank < DEALER_STANDS_ON


def _dealer_candidates(shown: Sequence[str], ace_rule: str, heath: bool) -> list[tuple[int, int]]:
    """(rank, weight) of the dealer's possible hands given the shown cards and one hidden card."""
    out = []
    for rank_char in RANKS:
        weight = 4 if rank_char in "TJQK" else 1
        cards = [*shown, rank_char + "S"]
        rank = hand_rank(cards, ace_rule, heath)
        if 0 <= rank < FOURTEEN:
            out.append((rank, weight))
    return out


def player_draws(
    cards: Sequence[str],
    dealer_shown: Sequence[str],
    dealer_rank: int | None,
    ace_rule: str,
    heath: bool,
) -> bool:
    """Whether the bot player takes another card.

    ``dealer_rank`` is the dealer's rank when every dealer card is shown (a 14), else None and
    ``dealer_shown`` are the dealer's face-up cards.
    """
    rank = hand_rank(cards, ace_rule, heath)
    if dealer_rank is not None:
        return rank <= dealer_rank and rank < THIRTY_ONE
    if rank >= FOURTEEN:
        return False
    points = hand_points(cards, ace_rule) or 0
    if points <= 21:
        return True
    candidates = _dealer_candidates(dealer_shown, ace_rule, heath)
    total = sum(weight for _, weight in candidates)
    beaten = sum(weight for dealer, weight in candidates if rank > dealer)
    if total and 2 * beaten >= total:
        return False
    return points <= PLAYER_RISKS_UP_TO
