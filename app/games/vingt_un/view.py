"""What one viewer sees of a Vingt-un table (docs/protocol.md §6; docs/rules.md §0, §3).

This is the only place a Vingt-un card reaches a client. A face-down card shows to its holder
only; a hand that went over 21 is turned face down, so even its drawn cards show to nobody
but the holder (docs/rules.md §3.8: its first two cards are never shown).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from app.games.core.coded import Coded, coded_json, english
from app.games.core.views import View, card_view, views_with_own_seat
from app.games.vingt_un.state import Hand
from app.games.vingt_un.table import COVER, VingtUnTable

CALLS_SHOWN = 12


def hand_state(hand: Hand) -> str:
    """One word for how far a hand got."""
    if hand.over:
        return "over"
    if hand.natural:
        return "natural"
    if hand.settled:
        return "settled"
    if hand.stood:
        return "standing"
    return "playing"


def hand_view(hand: Hand, holder: int, viewer: int | None) -> dict[str, Any]:
    """A hand as ``viewer`` sees it: cards, stake, state, and the total when every card shows."""
    mine = viewer == holder
    cards = [
        card_view(card, up=up and not hand.over, visible=mine)
        for card, up in zip(hand.cards, hand.up, strict=True)
    ]
    out: dict[str, Any] = {"cards": cards, "stake": hand.stake, "state": hand_state(hand)}
    if mine or (all(hand.up) and not hand.over):
        out["total"] = hand.total if hand.cards else None
    if hand.result is not None:
        out["result"] = hand.result
    return out


def _seat_state(game: VingtUnTable, seat: int, dealer: int | None) -> str:
    if seat == dealer:
        return "dealer"
    if seat in game.sitting_out:
        return "sitting out"
    if seat in game.hands:
        return "in hand"
    return "waiting"


def seat_view(
    game: VingtUnTable, seat: int, dealer: int | None, viewer: int | None
) -> dict[str, Any]:
    """One seat as ``viewer`` sees it: only the viewer's own hands differ between viewers."""
    hands: list[dict[str, Any]] = []
    if seat == game.hand_dealer and game.dealer_hand is not None:
        hands = [hand_view(game.dealer_hand, seat, viewer)]
    elif seat in game.hands:
        hands = [hand_view(hand, seat, viewer) for hand in game.hands[seat]]
    return {
        "seat": seat,
        "stack": game.stack(seat),
        "role": "dealer" if seat == dealer else "player",
        "state": _seat_state(game, seat, dealer),
        "hands": hands,
    }


def _dealer(game: VingtUnTable) -> int | None:
    return game.hand_dealer if game.in_hand else game.next_dealer()


def table_views(game: VingtUnTable, viewers: Iterable[int | None]) -> dict[int | None, View]:
    """:func:`table_view` for several viewers: the table as a spectator sees it is built
    once; a viewer sees it too, but for their own seat (their face-down cards and total)."""
    dealer = _dealer(game)
    return views_with_own_seat(
        table_view(game, None),
        game.seated,
        viewers,
        lambda viewer: seat_view(game, viewer, dealer, viewer),
    )


def table_view(game: VingtUnTable, viewer: int | None) -> View:
    """The table for the player in ``viewer`` (None: a spectator)."""
    dealer = _dealer(game)
    seats = [seat_view(game, seat, dealer, viewer) for seat in game.seated]
    staking = game.in_hand and game.phase == "staking"
    said = status(game)
    calls = game.calls[-CALLS_SHOWN:]
    last = game.calls[-1] if game.calls else None
    return {
        "phase": game.phase,
        "status": str(said),
        "status_coded": coded_json(said),
        "dealer": dealer,
        "turn": game.turn,
        "turn_hand": game.turn_hand,
        "doubled": game.doubled,
        "calls": [str(call) for call in calls],
        "calls_coded": [coded_json(call) for call in calls],
        "message": english(last),
        "message_coded": coded_json(last),
        "limits": {"min_bet": game.options["min_bet"], "max_bet": game.options["max_bet"]},
        "cover": game.bank_free() // COVER if staking else None,
        "pack": len(game.stock),
        "pile": len(game.pile),
        "seats": seats,
    }


def status(game: VingtUnTable) -> Coded:
    """Whose decision the table waits for, in words."""
    if not game.in_hand:
        dealer = game.next_dealer()
        if dealer is None or not game.can_start():
            return Coded("vingt-un.waiting", "Waiting for players")
        return Coded("vingt-un.deals_next", f"Seat {dealer} deals next", seat=dealer)
    seat = game.turn
    if game.phase == "staking":
        return Coded("vingt-un.to_stake", f"Seat {seat} to stake", seat=seat)
    if game.phase == "double":
        return Coded(
            "vingt-un.to_call_double", f"Dealer (seat {seat}) to call double or not", seat=seat
        )
    if game.phase == "dealer":
        return Coded("vingt-un.dealer_to_draw", f"Dealer (seat {seat}) to draw or stand", seat=seat)
    assert seat is not None and game.turn_hand is not None
    if len(game.hands[seat]) > 1:
        hand = game.turn_hand + 1
        return Coded(
            "vingt-un.to_play_hand", f"Seat {seat} to play hand {hand}", seat=seat, hand=hand
        )
    return Coded("vingt-un.to_play", f"Seat {seat} to play", seat=seat)
