"""What each viewer of a Greek 31 table sees (docs/rules.md §0.8, §2).

Players' cards are dealt face up, so everyone sees them. The dealer's cards are seen by the
dealer alone while drawing (everyone sees how many: ``dealer_cards``); after a stand on
"anything else" all but the concealed card are face up; the concealed card is shown at the
showdown, and every dealer card after a bust, a 31 or a 14. The view also says whose deal it
is (``dealer``) and how many hands in a row they have dealt (``hands_dealt``), the bank's
remaining cover while players stake, and why a player could not stake.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Any

from app.games.core.coded import Coded, coded_json, english
from app.games.core.views import View, card_view
from app.games.greek_31.scoring import hand_points, hand_rank, rank_label
from app.games.greek_31.state import HandInPlay
from app.games.greek_31.table import Greek31Table

ENDINGS = {
    "bust": "The dealer went over 31 and paid every stake",
    "31": "The dealer stood on 31 and collected every stake",
    "14": "The dealer stood on 14; the hand is settled",
    "other": "The hand is settled",
    "void": "The deck ran out: the hand is void and every stake returned",
}


def table_view(game: Greek31Table, viewer: int | None) -> View:
    """The table as the player in ``viewer`` (None: a spectator) may see it."""
    hand = game.hand if game.in_hand else None
    seats = []
    for seat in game.seated:
        entry: dict[str, Any] = {"seat": seat, "stack": game.stack(seat), "role": role(game, seat)}
        playing = hand is not None and hand.playing(seat)
        entry["hands"] = [hand_view(game, hand, seat, viewer)] if hand and playing else []
        if hand is not None and seat in hand.notes:
            entry["note"] = str(hand.notes[seat])
            entry["note_coded"] = coded_json(hand.notes[seat])
        seats.append(entry)
    dealer = game.dealer if hand is not None else game.next_dealer()
    said = status(game)
    return {
        "phase": phase(game),
        "seats": seats,
        "turn": hand.turn if hand is not None else None,
        "dealer": dealer,
        "hands_dealt": game.dealer_hands if dealer == game.dealer else 0,
        "dealer_cards": len(hand.dealer_cards) if hand is not None else 0,
        "dealer_outcome": hand.outcome if hand is not None else None,
        "order": list(hand.order) if hand is not None else [],
        "cover": game.cover() if hand is not None and hand.phase == "staking" else None,
        "deck": len(game.stock),
        "decks": game.decks_in_play,
        "rules": {
            "ace_rule": game.ace_rule,
            "heath": game.heath,
            "min_bet": game.options["min_bet"],
            "max_bet": game.options["max_bet"],
            "stakes": game.options["stakes"],
        },
        "last_hand": last_hand_view(game, viewer),
        "table_over": english(game.table_over),
        "table_over_coded": coded_json(game.table_over),
        "status": str(said),
        "status_coded": coded_json(said),
    }


def table_views(game: Greek31Table, viewers: Iterable[int | None]) -> dict[int | None, View]:
    """:func:`table_view` for several viewers: every viewer but the dealer sees what a
    spectator sees (players' cards are face up), so that is built once; the dealer, who
    alone sees their face-down cards, gets a view of their own."""
    public = table_view(game, None)
    dealer = game.hand.dealer if game.hand is not None else None
    return {
        viewer: table_view(game, viewer)
        if viewer is not None and viewer == dealer
        else dict(public)
        for viewer in viewers
    }


def phase(game: Greek31Table) -> str:
    if game.winner is not None:
        return "over"
    if game.hand is None:
        return "waiting"
    return game.hand.phase


def role(game: Greek31Table, seat: int) -> str:
    """In a hand: dealer, player, or waiting (sat down after the deal); between hands the
    roles of the next hand; a seat without chips is out (table stakes) or sitting out."""
    hand = game.hand
    if game.in_hand and hand is not None:
        if seat == hand.dealer:
            return "dealer"
        if seat in hand.order:
            return "player"
    elif seat == game.next_dealer():
        return "dealer"
    if game.stack(seat) == 0:
        return "out" if game.options["stakes"] == "table_stakes" else "sitting out"
    return "waiting" if game.in_hand else "player"


def hand_view(
    game: Greek31Table, hand: HandInPlay, seat: int, viewer: int | None
) -> dict[str, Any]:
    """One seat's hand as ``viewer`` sees it: players' cards are face up; the dealer's are
    seen by the dealer alone until shown (the concealed card until the showdown)."""
    if seat == hand.dealer:
        cards = [
            card_view(card, up=hand.dealer_card_up(i), visible=viewer == hand.dealer)
            for i, card in enumerate(hand.dealer_cards)
        ]
        known = hand.revealed or viewer == hand.dealer
        out: dict[str, Any] = {"cards": cards, "stake": 0, "dealer": True}
        out.update(value_view(game, hand.dealer_cards if known else None))
        return out
    own = hand.cards.get(seat, [])
    out = {
        "cards": [card_view(card, up=True, visible=True) for card in own],
        "stake": hand.stakes.get(seat, 0),
        "result": hand.results.get(seat),
        "returned_to_deck": seat in hand.gathered and game.in_hand,
    }
    out.update(value_view(game, own))
    return out


def value_view(game: Greek31Table, cards: list[str] | None) -> dict[str, Any]:
    """The points and the rank's name ("31", "pair of twos", "14", "28", "bust")."""
    if not cards:
        return {"value": None, "label": None}
    points, label = _value_label(tuple(cards), game.ace_rule, game.heath)
    return {"value": points, "label": label}


@functools.lru_cache(maxsize=8192)
def _value_label(cards: tuple[str, ...], ace_rule: str, heath: bool) -> tuple[int | None, str]:
    """:func:`value_view`'s figures, remembered by cards: every viewer of every broadcast
    of a hand sees the same hands valued (``Greek31.rank`` is :func:`hand_rank`)."""
    return hand_points(cards, ace_rule), rank_label(hand_rank(cards, ace_rule, heath))


def last_hand_view(game: Greek31Table, viewer: int | None) -> dict[str, Any] | None:
    """Between hands: how the last hand ended, every card as its viewer saw it."""
    hand = game.hand
    if hand is None or game.in_hand:
        return None
    seats = [hand.dealer, *hand.order]
    return {
        "dealer": hand.dealer,
        "outcome": hand.outcome,
        # which of the dealer's cards was kept face down (shown now, at the showdown)
        "concealed": hand.concealed if hand.revealed else None,
        "hands": [{"seat": s, **hand_view(game, hand, s, viewer)} for s in seats],
    }


def status(game: Greek31Table) -> Coded:
    """One line for the table: whose turn, or how the last hand ended and who deals next."""
    hand = game.hand
    if game.table_over:
        return game.table_over
    if hand is None or not game.in_hand:
        deal = next_deal(game)
        if hand is None:
            return deal
        ending = ENDINGS.get(hand.outcome or "", "Hand over")
        return Coded("greek-31.hand_over", f"{ending}. {deal}", outcome=hand.outcome, next=deal)
    if hand.phase == "staking" and hand.turn is not None:
        seat, note = hand.turn, hand.notes.get(hand.turn)
        if note:
            return Coded(
                "greek-31.to_stake_note", f"Seat {seat} to stake ({note})", seat=seat, note=note
            )
        return Coded("greek-31.to_stake", f"Seat {seat} to stake", seat=seat)
    if hand.phase == "dealer":
        seat, cards = hand.dealer, len(hand.dealer_cards)
        return Coded(
            "greek-31.dealer_drawing",
            f"Dealer (seat {seat}) drawing: {cards} card(s)",
            seat=seat,
            cards=cards,
        )
    if hand.phase == "players" and hand.turn is not None:
        seat = hand.turn
        return Coded("greek-31.to_draw", f"Seat {seat} to draw or stand", seat=seat)
    return Coded("greek-31.dealing", "Dealing")


def next_deal(game: Greek31Table) -> Coded:
    """Who deals the next hand, and whether the table waits for players first."""
    dealer = game.next_dealer()
    waiting = not game.can_start()
    tail = " (waiting for players)" if waiting else ""
    if dealer is None:
        return Coded("greek-31.no_dealer", f"No dealer yet{tail}", waiting=waiting)
    return Coded(
        "greek-31.deals_next", f"Seat {dealer} deals next{tail}", seat=dealer, waiting=waiting
    )
