"""The Vingt-un table between hands and under them (docs/rules.md §3): seats, the deal, the pack
and pile, and the cover each stake needs.

Seats are numbered clockwise, so the dealer's left is the next higher seat number, wrapping
round: play, the deal and the passing of the deal all go that way. The first dealer is the
player in the lowest-numbered seat who can bank; the dealer keeps the deal until a player's
natural takes it (``natural_takes_deal``), or they leave or can no longer bank, and it then
passes to the first seat on their left that can bank.

Cover (docs/rules.md §0.6; §3 step 2): a stake may be doubled and then paid twice, so
before the double call every stake needs four times its size behind it, from the bank and
from the player's own stack alike. After the call a hand can cost at most twice the stake in
force. A player is dealt in only with at least four times ``min_bet``; a dealer needs at least
four chips (cover for a one-chip stake) to keep the deal.

The pack (docs/rules.md §3): one 52-card pack dealt through from hand to hand; used cards gather on
a pile that is shuffled into a new pack when the pack runs out, mid-hand too.
"""

from __future__ import annotations

from typing import Any

from app.games.core.accounts import seat_account
from app.games.core.cards import SeedSource, Stock, csprng_seed, deck
from app.games.core.coded import Coded
from app.games.core.errors import ErrorCode, RuleError
from app.games.core.game import Game
from app.games.core.seating import others_leftward
from app.games.vingt_un.scoring import VINGT_UN, outcome
from app.games.vingt_un.state import Hand

COVER = 4
"""A stake is covered four times over: doubled, then paid twice (docs/rules.md §3.4)."""

SEATS = 9
"""A dealer and up to eight players (docs/rules.md §3)."""


class VingtUnTable(Game):
    """Seats, dealer, pack, pile and cover; :class:`.engine.VingtUn` plays the hand."""

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        super().__init__(options, seeds)
        self.stock = Stock()
        self.pile: list[str] = []
        self.dealer: int | None = None
        """Who deals the next hand (during a hand: who deals this one)."""
        self.hand_dealer: int | None = None
        self.players: list[int] = []
        self.sitting_out: list[int] = []
        self.hands: dict[int, list[Hand]] = {}
        self.dealer_hand: Hand | None = None
        self._reset_hand()

    def _reset_hand(self) -> None:
        self.phase = "waiting"
        self.players = []
        self.sitting_out = []
        self.hands = {}
        self.dealer_hand = None
        self.doubled: bool | None = None
        """None until the dealer has decided (docs/rules.md §3.5)."""
        self.turn: int | None = None
        self.turn_hand: int | None = None
        self.calls: list[Coded] = []
        self._decision = 0
        self._natural_passes_deal = False
        self._bank_start = 0
        self._stake_cuts = 0

    # ----------------------------------------------------------------- seats and the deal

    @property
    def max_seats(self) -> int:
        return SEATS

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        """Enough to stake the minimum with its 4× cover, up to a thousand maximum stakes."""
        return (COVER * self.options["min_bet"], 1000 * self.options["max_bet"])

    def can_bank(self, seat: int) -> bool:
        """A dealer must cover at least a one-chip stake four times over."""
        return self.stack(seat) >= COVER

    def can_play(self, seat: int) -> bool:
        """A player is dealt in when their stack covers ``min_bet`` four times over."""
        return self.stack(seat) >= COVER * self.options["min_bet"]

    def left_of(self, seat: int) -> list[int]:
        """Occupied seats in turn order from ``seat``'s left (seat + 1, seat + 2, … wrapping)."""
        return others_leftward(self.seated, seat)

    def _banker_left_of(self, seat: int) -> int | None:
        return next((s for s in self.left_of(seat) if self.can_bank(s)), None)

    def next_dealer(self) -> int | None:
        """Who deals the next hand: the dealer keeps the deal while able to bank; otherwise it
        passes to the left (docs/rules.md §3); the first dealer is the lowest seat that can bank."""
        if self.dealer is None:
            return next((s for s in self.seated if self.can_bank(s)), None)
        if self.dealer in self.seated and self.can_bank(self.dealer):
            return self.dealer
        return self._banker_left_of(self.dealer)

    def can_start(self) -> bool:
        dealer = self.next_dealer()
        return dealer is not None and any(self.can_play(s) for s in self.left_of(dealer))

    def can_leave(self, seat: int) -> bool:
        """Between hands, or during one for a seat that takes no part in it."""
        return not self.in_hand or (seat != self.hand_dealer and seat not in self.players)

    def can_top_up(self, seat: int) -> bool:
        """docs/rules.md §3 is silent on top-ups; this table allows one when leaving would be
        allowed (between hands, or during a hand the seat takes no part in), so a player
        whose stack no longer covers a smallest stake four times can play again."""
        return seat_account(seat) in self.balances and self.can_leave(seat)

    def cannot_play(self, seat: int) -> Coded | None:
        """A player (not the dealer) whose stack does not cover ``min_bet`` four times."""
        dealer = self.hand_dealer if self.in_hand else self.dealer
        if seat == dealer or seat_account(seat) not in self.balances or self.can_play(seat):
            return None
        smallest = self.options["min_bet"]
        least = COVER * smallest
        return Coded(
            "vingt-un.cannot_play",
            f"You need {least} chips to be dealt in (four times the smallest stake, "
            f"{smallest}): add chips or stand up.",
            least=least,
            min_bet=smallest,
        )

    def on_sit(self, seat: int) -> None:
        self._forget_seat(seat)

    def on_leave(self, seat: int) -> None:
        """A dealer who leaves passes the deal to the left (docs/rules.md §3)."""
        self._forget_seat(seat)
        if not self.in_hand and seat == self.dealer:
            successor = self._banker_left_of(seat)
            if successor is None:
                successor = next(iter(self.left_of(seat)), None)
            self.dealer = successor

    def _forget_seat(self, seat: int) -> None:
        """Drop the last hand's cards shown at a seat whose player changes."""
        if seat in self.players and self.in_hand:
            return
        self.hands.pop(seat, None)
        if seat == self.hand_dealer:
            self.dealer_hand = None
        if seat in self.sitting_out:
            self.sitting_out.remove(seat)

    def sim_rebuy(self, seat: int, stack: int) -> None:
        """A bot that can no longer stake the minimum buys back in."""
        if not self.in_hand and not self.can_play(seat):
            self.add_chips(seat, stack)

    # ----------------------------------------------------------------- cards

    def cards_left(self) -> int:
        """Cards that can still be dealt: the pack and the pile that would be shuffled."""
        return len(self.stock) + len(self.pile)

    def _draw(self) -> str:
        """The top card of the pack; an empty pack is replaced by the shuffled pile (§3)."""
        if not self.stock.cards:
            if not self.pile:
                raise RuleError(ErrorCode.ILLEGAL_ACTION, "every card is in play")
            cards, self.pile = self.pile, []
            self.shuffle_into(self.stock, cards)
            self._call("vingt-un.new_pack", "The pile is shuffled into a new pack")
        return self.stock.draw()

    def _deal_down(self, seat: int, hand: Hand, index: int) -> None:
        card = self._draw()
        hand.add(card, up=False)
        self.log("deal", seat=seat, private_to=[seat], hand=index, card=card)

    def _gather(self, hand: Hand) -> None:
        if not hand.gathered:
            self.pile.extend(hand.cards)
            hand.gathered = True

    def _call(self, code: str, english: str, **values: Any) -> None:
        """The dealer says something to the table (the view's ``calls``)."""
        self.calls.append(Coded(code, english, **values))

    # ----------------------------------------------------------------- money

    def _exposure(self, hand: Hand) -> int:
        """The most an unsettled hand may still cost: 4× its stake before the double call
        (doubled, then paid twice), twice the stake in force after it."""
        if hand.settled:
            return 0
        return hand.stake * (COVER if self.doubled is None else 2)

    def bank_free(self) -> int:
        """The dealer's stack beyond what the unsettled stakes may cost it."""
        assert self.hand_dealer is not None
        owed = sum(self._exposure(h) for hands in self.hands.values() for h in hands)
        return self.stack(self.hand_dealer) - owed

    def player_free(self, seat: int) -> int:
        """The player's stack beyond what their unsettled hands may cost them."""
        return self.stack(seat) - sum(self._exposure(h) for h in self.hands[seat])

    def _multiplier(self) -> int:
        return 2 if self.doubled else 1

    def _pay_dealer(self, seat: int, amount: int, reason: str) -> None:
        assert self.hand_dealer is not None
        self.pay(seat_account(seat), seat_account(self.hand_dealer), amount, reason)

    def _dealer_pays(self, seat: int, amount: int, reason: str) -> None:
        assert self.hand_dealer is not None
        self.pay(seat_account(self.hand_dealer), seat_account(seat), amount, reason)

    # ----------------------------------------------------------------- settling and ending a hand

    def _show(self, seat: int, hand: Hand, index: int | None) -> None:
        hand.show()
        self.log("show", seat=seat, hand=index, cards=list(hand.cards), total=hand.total)

    def _settle(self) -> None:
        """Step 9: each standing hand is shown and settled against the dealer's total."""
        assert self.dealer_hand is not None
        dealer_total = self.dealer_hand.total
        self.log("dealer_total", seat=self.hand_dealer, total=dealer_total)
        if dealer_total > VINGT_UN:
            self._call("vingt-un.dealer_over", "The dealer is over 21")
        else:
            self._call(
                "vingt-un.dealer_stands", f"The dealer stands on {dealer_total}", total=dealer_total
            )
        for seat in self.players:
            for index, hand in enumerate(self.hands[seat]):
                if hand.settled:
                    continue
                self._show(seat, hand, index)
                times, reason = outcome(dealer_total, hand.total)
                amount = abs(times) * hand.stake
                why = Coded("vingt-un.chips_settled", reason, reason=reason)
                if times > 0:
                    self._dealer_pays(seat, amount, why)
                else:
                    self._pay_dealer(seat, amount, why)
                hand.result = amount if times > 0 else -amount
                hand.settled = True
                self.log("settle", seat=seat, hand=index, result=hand.result, reason=reason)
                verb = "wins" if times > 0 else "pays"
                self._call(
                    "vingt-un.wins" if times > 0 else "vingt-un.pays",
                    f"Seat {seat} {verb} {amount} ({reason})",
                    seat=seat,
                    amount=amount,
                    reason=reason,
                )
        self._finish()

    def _finish(self) -> None:
        """The cards go to the pile; the deal passes on a natural (option) or an empty bank."""
        assert self.hand_dealer is not None and self.dealer_hand is not None
        dealer = self.hand_dealer
        for seat in self.players:
            for hand in self.hands[seat]:
                self._gather(hand)
        self._gather(self.dealer_hand)
        passes = self._natural_passes_deal or not self.can_bank(dealer)
        if passes:
            successor = self._banker_left_of(dealer)
            if successor is not None:
                self.dealer = successor
                self.log("deal_passes", seat=successor)
                self._call(
                    "vingt-un.deal_passes", f"The deal passes to seat {successor}", seat=successor
                )
        hands = [h for s in self.players for h in self.hands[s]]
        summary = {
            "dealer": dealer,
            "players": list(self.players),
            "player_hands": len(self.players),
            "naturals": [s for s in self.players if self.hands[s][0].natural],
            "dealer_natural": self.dealer_hand.is_natural,
            "doubled": bool(self.doubled),
            "splits": sum(len(self.hands[s]) - 1 for s in self.players),
            "over": sum(1 for h in hands if h.over),
            "staked": sum(h.stake for h in hands),
            "stake_cuts": self._stake_cuts,
            "bank_result": self.stack(dealer) - self._bank_start,
            "deal_passed": self.dealer != dealer,
            "sat_out": list(self.sitting_out),
        }
        self.phase = "waiting"
        self.turn = self.turn_hand = None
        self.end_hand(summary)

    # ----------------------------------------------------------------- persistence

    def snapshot(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "hand_number": self.hand_number,
            "stock": self.stock.to_json(),
            "pile": list(self.pile),
        }

    def restore(self, data: dict[str, Any]) -> None:
        self.dealer = data.get("dealer")
        self.hand_dealer = None
        self.hand_number = int(data.get("hand_number", 0))
        self.stock = Stock.from_json(data["stock"])
        self.pile = [str(card) for card in data.get("pile", [])]
        self._reset_hand()

    def on_void(self) -> None:
        """The void hand's cards were seen: the whole pack is shuffled anew."""
        self.pile = []
        self.shuffle_into(self.stock, deck())
