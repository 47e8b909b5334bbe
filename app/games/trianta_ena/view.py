"""What each viewer sees of a Trianta Ena table (docs/rules.md §0.8, §1).

This is the only place the engine's cards become what a viewer sees. A player's first card is
face down and seen by that player only, until it is shown (when the player goes bust, and at
settlement). The banker's first card is face up; the banker's second card is face down and seen
by nobody, the banker included, until it is turned (§1 step 3, **Decision**). Every other card is
face up. Nothing about the stock's order is shown, only how many cards it holds.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from app.games.core.coded import Coded, coded_json, english, seat_list
from app.games.core.views import View, card_view, views_with_own_seat
from app.games.trianta_ena.scoring import is_natural, lowest_total, value
from app.games.trianta_ena.state import PlayerHand, Round, TriantaEnaState


def table_view(game: TriantaEnaState, viewer: int | None) -> View:
    """The table as ``viewer`` (a seat, or None for a spectator) may see it."""
    round_ = game.round
    seats = [seat_view(game, seat, viewer) for seat in game.seated]
    up_card = None
    if round_ is not None and round_.banker_cards:
        up_card = card_view(round_.banker_cards[0], up=True, visible=True)
    offered = game.bank.offered
    said = status(game)
    return {
        "phase": game.phase(),
        "seats": seats,
        "banker": game.bank.banker,
        "order": game.players,
        "turn": round_.turn if game.in_hand and round_ is not None else None,
        "up_card": up_card,
        "bank": game.stack(game.bank.banker) if game.bank.banker is not None else None,
        "min_bet": game.options["min_bet"],
        "max_bet": game.options["max_bet"],
        "stock": len(game.stock),
        "discard": len(game.discard),
        "offer": None if offered is None else {"seat": offered, "vacant": game.bank.vacant},
        "messages": [str(m) for m in round_.messages] if round_ is not None else [],
        "messages_coded": [coded_json(m) for m in round_.messages] if round_ is not None else [],
        "status": str(said),
        "status_coded": coded_json(said),
    }


def table_views(game: TriantaEnaState, viewers: Iterable[int | None]) -> dict[int | None, View]:
    """:func:`table_view` for several viewers: the table as a spectator sees it is built
    once; a viewer sees it too, but for their own seat (their face-down card and its value)."""
    return views_with_own_seat(
        table_view(game, None),
        game.seated,
        viewers,
        lambda viewer: seat_view(game, viewer, viewer),
    )


def seat_view(game: TriantaEnaState, seat: int, viewer: int | None) -> dict[str, Any]:
    """One seat as ``viewer`` sees it: only the viewer's own hand differs between viewers."""
    round_ = game.round
    entry: dict[str, Any] = {
        "seat": seat,
        "place": game.bank.places[seat],
        "stack": game.stack(seat),
        "role": "banker" if seat == game.bank.banker else "player",
        "hands": [],
    }
    if round_ is not None and seat == round_.banker:
        entry["hands"] = [banker_hand_view(round_, game.ace_rule, game.natural_cards)]
    elif round_ is not None and seat in round_.hands:
        hand = round_.hands[seat]
        entry["hands"] = [player_hand_view(hand, viewer, game.ace_rule, game.natural_cards)]
    return entry


def status(game: TriantaEnaState) -> Coded:
    """One line for people: whose decision the table waits for."""
    phase = game.phase()
    if phase == "betting":
        waiting = sorted(game.to_act())
        return Coded(
            "trianta-ena.betting",
            f"Betting: waiting for seat {seat_list(waiting)}",
            seats=waiting,
        )
    if phase == "playing" and game.round is not None:
        turn = game.round.turn
        return Coded("trianta-ena.to_act", f"Seat {turn} to act", seat=turn)
    if phase == "bank_offer":
        offered = game.bank.offered
        return Coded("trianta-ena.bank_offered", f"Bank offered to seat {offered}", seat=offered)
    if phase == "no_banker":
        return Coded("trianta-ena.no_banker", "No banker: waiting for a player to take the bank")
    if game.can_start():
        return Coded("trianta-ena.next_round", "Next round about to be dealt")
    return Coded("trianta-ena.waiting", "Waiting for players")


def player_hand_view(
    hand: PlayerHand, viewer: int | None, ace_rule: str, natural_cards: str
) -> dict[str, Any]:
    """The hand as ``viewer`` sees it: the face-down card only to its holder until shown."""
    sees_all = hand.shown or viewer == hand.seat
    cards = [card_view(hand.cards[0], up=hand.shown, visible=viewer == hand.seat)]
    cards += [card_view(card, up=True, visible=True) for card in hand.cards[1:]]
    out: dict[str, Any] = {
        "cards": cards,
        "stake": hand.stake,
        "bet": hand.bet,
        "status": hand.status,
        "value": None,
        "natural": False,
        "note": english(hand.note),
        "note_coded": coded_json(hand.note),
    }
    if sees_all:
        out["value"], out["natural"] = _shown(tuple(hand.cards), ace_rule, natural_cards)
    return out


def banker_hand_view(round_: Round, ace_rule: str, natural_cards: str) -> dict[str, Any]:
    """The banker's hand: the up card to all, the face-down card to nobody until turned.

    Its ``covers`` is the sum of the stakes the bank covers this round (not a stake of the
    banker's: the page says "Bank covers 45", never "Stake 45")."""
    covers = sum(hand.stake for hand in round_.hands.values())
    cards = []
    for index, card in enumerate(round_.banker_cards):
        up = index != 1 or round_.hole_shown
        cards.append(card_view(card, up=up, visible=up))
    out: dict[str, Any] = {
        "cards": cards,
        "covers": covers,
        "value": None,
        "natural": False,
        "status": "banker",
    }
    if round_.hole_shown or len(round_.banker_cards) < 2:
        out["value"], out["natural"] = _shown(tuple(round_.banker_cards), ace_rule, natural_cards)
    return out


@functools.lru_cache(maxsize=8192)
def _shown(cards: tuple[str, ...], ace_rule: str, natural_cards: str) -> tuple[int, bool]:
    """What a shown hand says: its value (its best valuation, or its lowest total when
    bust) and whether it is a natural. Remembered by cards: every viewer of every
    broadcast of a hand shows the same hands (the profile's largest share of a view)."""
    worth = value(list(cards), ace_rule)
    shown = worth if worth is not None else lowest_total(list(cards), ace_rule)
    return shown, is_natural(list(cards), natural_cards)
