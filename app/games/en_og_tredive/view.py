"""En og tredive: the table as one viewer may see it (docs/rules.md §0.8, §5).

A hand's cards reach only its holder, until the hand is shown (a 31 or coup d'état, or every
hand at a knock's end). Hand sizes are public, and so is every card of the discard pile (the
last is the top, the only one that can be taken). Nothing of the stock but its size.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from app.games.core.accounts import POT, bets_account
from app.games.core.coded import Coded, coded_json
from app.games.core.views import View, card_view, views_with_own_seat
from app.games.en_og_tredive.scoring import hand_value
from app.games.en_og_tredive.state import EnOgTrediveState


def table_view(game: EnOgTrediveState, viewer: int | None) -> View:
    """The view for ``viewer`` (None: a spectator), docs/protocol.md §6."""
    r = game.round
    playing = r if game.in_hand else None
    said = status(game)
    return {
        "phase": phase(game),
        "seats": [seat_view(game, seat, viewer) for seat in game.seated],
        "turn": playing.actor if playing else None,
        "dealer": r.dealer if r else game.match.dealer,
        "cutter": r.cutter if r else None,
        "knocker": r.knocker if r else None,
        "pot": game.balances.get(POT, 0),
        "bet_unit": game.bet_unit,
        "stock": len(game.stock) if playing else 0,
        "discard": [card_view(card, up=True, visible=True) for card in r.pile] if r else [],
        "cut": game.match.cut,
        "deck": {"cut": r.deck_cut, "pattern": r.pattern} if r else None,
        "match": {
            "number": game.match.number,
            "round": game.match.rounds,
            "in": list(game.match.seats),
            "out": list(game.match.out),
            "knocking": bool(playing and not playing.no_bets),
        },
        "status": str(said),
        "status_coded": coded_json(said),
    }


def table_views(game: EnOgTrediveState, viewers: Iterable[int | None]) -> dict[int | None, View]:
    """:func:`table_view` for several viewers: the table as a spectator sees it is built
    once; a viewer sees it too, but for their own seat (their hand)."""
    return views_with_own_seat(
        table_view(game, None),
        game.seated,
        viewers,
        lambda viewer: seat_view(game, viewer, viewer),
    )


def phase(game: EnOgTrediveState) -> str:
    """``cut``, ``deal``, ``draw`` or ``discard`` during a round; else between rounds/matches."""
    if game.in_hand and game.round is not None:
        return game.round.phase
    return "between_rounds" if game.match.seats else "between_matches"


def role(game: EnOgTrediveState, seat: int) -> str:
    """``dealer`` or ``player`` in the match, ``out`` of it, or ``waiting`` for the next."""
    if seat in game.match.seats:
        r = game.round
        return "dealer" if r is not None and seat == r.dealer else "player"
    return "out" if seat in game.match.out else "waiting"


def seat_view(game: EnOgTrediveState, seat: int, viewer: int | None) -> dict[str, Any]:
    """One seat: stack, bets in front, and the hand (face down unless shown)."""
    r = game.round
    hands: list[dict[str, Any]] = []
    if r is not None and seat in r.hands and (game.in_hand or r.hands[seat]):
        hand = r.hands[seat]
        visible, up = seat == viewer, seat in r.shown
        hands.append(
            {
                "cards": [card_view(card, up=up, visible=visible) for card in hand],
                "stake": game.balances.get(bets_account(seat), 0),
                "size": len(hand),
                "value": _hand_value(tuple(hand)) if visible or up else None,
                "drawn": r.drawn if visible and seat == r.actor else None,
            }
        )
    return {
        "seat": seat,
        "stack": game.stack(seat),
        "role": role(game, seat),
        "bets": game.bets_left(seat),
        "knocked": r is not None and r.knocker == seat,
        "hands": hands,
    }


@functools.lru_cache(maxsize=8192)
def _hand_value(cards: tuple[str, ...]) -> int:
    """:func:`hand_value`, remembered by cards (a hand is valued for its holder at every
    broadcast, and for everyone once shown)."""
    return hand_value(cards)


def status(game: EnOgTrediveState) -> Coded:
    """Whose decision it is, or how the last round ended."""
    r = game.round
    if not game.in_hand or r is None:
        if r is not None and r.result:
            lines = list(r.result)
            return Coded("en-og-tredive.round_over", "; ".join(lines), lines=lines)
        if game.can_start():
            return Coded("en-og-tredive.next_round", "Next round")
        return Coded("en-og-tredive.waiting", "Waiting for players")
    seat = r.actor
    if r.phase == "cut":
        return Coded("en-og-tredive.to_cut", f"Seat {seat} to cut or knock on the deck", seat=seat)
    if r.phase == "deal":
        return Coded("en-og-tredive.to_deal", f"Seat {seat} to deal", seat=seat)
    knock = f" (seat {r.knocker} knocked)" if r.knocker is not None else ""
    return Coded(
        "en-og-tredive.to_draw" if r.phase == "draw" else "en-og-tredive.to_discard",
        f"Seat {seat} to {r.phase}{knock}",
        seat=seat,
        knocker=r.knocker,
    )
