"""En og tredive: the timeout default and the bots' play (docs/rules.md §5.6, and the
strategy notes of the game's source).

Pure functions over card lists; the engine gathers what a decision needs (the hand, the top
discard, whether knocking is allowed) and turns the answer into an action.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.games.core.cards import JOKER
from app.games.en_og_tredive.scoring import card_points, hand_value, is_coup_d_etat, strength

DANGEROUS = frozenset({"A", "X"})
"""Ranks a player would rather hide under another discard: aces and the joker make 31 and
three aces for the next player (the source, "Be wary of discarding aces")."""


def without(cards: Sequence[str], *gone: str) -> list[str]:
    """``cards`` less the named cards."""
    return [card for card in cards if card not in gone]


def keep_worth(card: str) -> int:
    """How much a card is worth keeping when hands are otherwise equal: joker, aces, points."""
    return 12 if card == JOKER else card_points(card)


def best_discard(hand: Sequence[str]) -> str:
    """The one card whose discard leaves the best hand (a coup d'état above any value); among
    equals, the card least worth keeping."""
    return max(hand, key=lambda card: (strength(without(hand, card)), -keep_worth(card)))


def default_discard(hand: Sequence[str]) -> list[str]:
    """The timeout's discard (docs/rules.md §5.6): holding four, the card that leaves the best
    hand; holding fewer, nothing (keeping every card never lowers a hand's value)."""
    return [best_discard(hand)] if len(hand) >= 4 else []


def bot_score(cards: Sequence[str]) -> int:
    """The bot's liking for a hand: its value, a coup d'état above all, and a premium for two
    of the coup's pieces (the source: "With two aces, go for three") and for the joker."""
    if is_coup_d_etat(cards):
        return 1000
    pieces = sum(1 for card in cards if card == JOKER or card[0] == "A")
    return hand_value(cards) + (8 if pieces >= 2 else 0) + (2 if JOKER in cards else 0)


def best_keep(cards: Sequence[str]) -> list[str]:
    """The three (or fewer) cards of ``cards`` the bot would rather hold."""
    if len(cards) < 4:
        return list(cards)
    gone = max(cards, key=lambda card: (bot_score(without(cards, card)), -keep_worth(card)))
    return without(cards, gone)


def wants_top_discard(hand: Sequence[str], top: str | None) -> bool:
    """Take the top discard when keeping it improves the hand by at least four points (an
    unknown stock card may do as well), or when it completes a coup d'état."""
    if top is None:
        return False
    keep = best_keep([*hand, top])
    return top in keep and bot_score(keep) - bot_score(hand) >= 4


def knock_threshold(knock_min: int, penalty: str, orbits: int) -> int:
    """The value a bot knocks on: safe at ``knock_min`` when only hands below it pay, otherwise
    27, one point less for every completed orbit of turns (a long round favours knocking)."""
    if penalty == "under_knock_min":
        return knock_min
    return max(knock_min, 27 - orbits)


def choose_discards(hand: Sequence[str], next_must_discard: bool) -> list[str]:
    """The bot's discards, the last on top. Holding fewer than four, keep everything.

    Holding four, drop the card it likes least. When the next player must discard after
    drawing (so the pile's top will cover the hidden card again), hide a dangerous card under
    it (the source, "Hiding discards"): a ten-card that no longer counts in the hand goes under
    the junk; an ace, the joker or a ten-card being dropped goes under a low card that does
    not count.
    """
    if len(hand) < 4:
        return []
    keep = best_keep(hand)
    (gone,) = without(hand, *keep)
    if not next_must_discard:
        return [gone]
    score = bot_score(keep)
    idle = [card for card in keep if bot_score(without(keep, card)) == score]
    if gone[0] in DANGEROUS or card_points(gone) == 10:
        covers = [card for card in idle if card[0] not in DANGEROUS and card_points(card) < 10]
        return [gone, min(covers, key=keep_worth)] if covers else [gone]
    dead_tens = [card for card in idle if card[0] in "TJQK"]
    return [dead_tens[0], gone] if dead_tens else [gone]
