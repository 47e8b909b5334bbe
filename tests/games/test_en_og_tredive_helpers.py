"""Helpers for the En og tredive tests: tables, stacked decks, and the invariants."""

from __future__ import annotations

import json
import re
from typing import Any

from app.games.core.actions import action_fits
from app.games.core.cards import fixed_seeds
from app.games.core.seating import leftward as from_left_of
from app.games.en_og_tredive.engine import EnOgTredive
from app.games.en_og_tredive.scoring import FULL_DECK
from app.games.en_og_tredive.state import PACKETS

CARD_CODE = re.compile(r'"([A2-9TJQK][SHDC]|XX)"')
"""A card code as it appears in a JSON view."""

LOW_CUT = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C"]


def table(players: int = 3, chips: int = 1000, **options: Any) -> EnOgTredive:
    """A table with ``players`` seated in seats 0.. with ``chips`` each."""
    game = EnOgTredive(options, seeds=fixed_seeds())
    for seat in range(players):
        game.sit(seat, chips)
    return game


def stack(game: EnOgTredive, top: list[str]) -> None:
    """Stack the stock: ``top`` first, then the rest of the 53 cards in canonical order."""
    assert len(set(top)) == len(top)
    game.stock.cards = list(top) + [card for card in FULL_DECK if card not in top]


def start(game: EnOgTredive, dealer: int = 0) -> None:
    """Start a round; a new match's cut for the deal gives ``dealer`` the deal (a king)."""
    if not game.match.seats:
        ready = game.ready_players()
        cut = [LOW_CUT[i] if seat != dealer else "KC" for i, seat in enumerate(ready)]
        stack(game, cut)
    game.start_hand()


def deal(
    game: EnOgTredive,
    hands: dict[int, list[str]],
    turn_up: str,
    stock: list[str] | None = None,
    pattern: str = "3",
) -> None:
    """Cut (or knock on the deck for ``3``) and deal ``hands``, then ``turn_up``, then ``stock``."""
    r = game.round
    assert r is not None and r.phase == "cut"
    packets = PACKETS[pattern]
    top: list[str] = []
    taken = dict.fromkeys(hands, 0)
    for packet in packets:
        for seat in from_left_of(r.seats, r.dealer):
            top += hands[seat][taken[seat] : taken[seat] + packet]
            taken[seat] += packet
    top += [turn_up, *(stock or [])]
    if pattern == "3":
        stack(game, top)
        act(game, r.cutter, {"kind": "knock_deck"})
    else:
        act(game, r.cutter, {"kind": "cut", "position": 1})
        stack(game, top)
        act(game, r.dealer, {"kind": "deal", "pattern": pattern})


def act(game: EnOgTredive, seat: int, action: dict[str, Any]) -> None:
    """Apply an action, checking first that it fits ``legal`` (as the runtime does)."""
    legal = game.legal_actions(seat)
    assert action_fits(action, legal), (action, legal)
    game.apply(seat, action)


def turn(game: EnOgTredive, seat: int, source: str, discards: list[str]) -> None:
    """One whole turn: draw from ``source``, then discard ``discards`` (the last on top)."""
    act(game, seat, {"kind": "draw", "source": source})
    act(game, seat, {"kind": "discard", "cards": discards})


def bets_of(game: EnOgTredive) -> dict[int, int]:
    """Bets in front of each seated player."""
    return {seat: game.bets_left(seat) for seat in game.seated}


def all_cards(game: EnOgTredive) -> list[str]:
    """Every card in the stock, the discard pile and the hands, sorted."""
    r = game.round
    assert r is not None
    cards = list(game.stock.cards) + list(r.pile)
    for hand in r.hands.values():
        cards += hand
    return sorted(cards)


def hidden_cards(game: EnOgTredive, viewer: int | None) -> set[str]:
    """The cards ``viewer`` may not see: the stock and every unshown hand but their own."""
    r = game.round
    assert r is not None
    hidden = set(game.stock.cards)
    for seat, hand in r.hands.items():
        if seat != viewer and seat not in r.shown:
            hidden |= set(hand)
    return hidden


def assert_no_leak(game: EnOgTredive) -> None:
    """No face-down card reaches a viewer who may not see it (the cut for the deal's cards
    were shown and gathered before the shuffle, so that field is left out)."""
    for viewer in [*game.seated, None]:
        view = dict(game.view(viewer))
        view.pop("cut")
        shown = set(CARD_CODE.findall(json.dumps(view)))
        assert not shown & hidden_cards(game, viewer), viewer
        for seat in view["seats"]:
            for hand in seat["hands"]:
                for card in hand["cards"]:
                    if seat["seat"] != viewer and not card["up"]:
                        assert card["card"] is None
