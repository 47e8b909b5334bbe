"""The Greek 31 table between hands: seats, stakes, the deal and the deck (docs/rules.md §2).

:class:`Greek31Table` holds what carries from hand to hand;
:class:`app.games.greek_31.engine.Greek31` plays the hands on top of it.

* Seats are numbered clockwise, so a player's *right* is the next lower occupied seat number
  (wrapping); play and the deal go to the right (:func:`app.games.core.seating.rightward`).
* ``stakes``: with ``buy_in`` players may top up between hands (a seat outside the hand being
  played may top up at any time); with ``table_stakes`` there are no top-ups, a player with no
  chips is out, and the table is over once one player holds every chip. A table-stakes
  *session* runs from the first hand dealt until the table is over or everyone has stood up:
  during it nobody sits down with chips that were not on the table (docs/rules.md §2.11, a
  Decision); a player who stepped away comes back with at most what they took.
* The deal: the first dealer is the lowest-numbered seat holding chips when the first hand is
  dealt. The dealer deals again unless bust; a bust dealer who has dealt at least two hands in
  a row passes the deal to the next player in seat order who holds chips; a dealer with no
  chips, or who has left, passes at once. A void hand does not count as dealt.
* The deck: one 52-card deck, two when more than 5 players are dealt in (``decks = auto``), or
  the number chosen. It is shuffled before the first deal, and then only when a new dealer
  takes over (``shuffle = new_dealer``), when ``auto`` needs another number of decks, or after
  a hand voided by a crash (:meth:`Greek31Table.on_void`); otherwise used cards go under it.
* The used cards under the deck (docs/rules.md §2.9, a Decision): everyone saw them go there,
  so their order is never dealt as it stands. Once the cards of the last shuffle are dealt and
  a card is needed, the cards under the deck (the deck is nothing else by then) are shuffled
  afresh, with a seed committed like any other (:meth:`Greek31Table.draw_card`), and the
  ``gather`` event names the cards that went under as a set (sorted), never in their order.
"""

from __future__ import annotations

from typing import Any

from app.games.core.accounts import seat_account
from app.games.core.cards import SeedSource, Stock, canonical_shoe, csprng_seed
from app.games.core.coded import Coded
from app.games.core.errors import ErrorCode, RuleError
from app.games.core.game import Game
from app.games.core.seating import others_rightward
from app.games.greek_31.options import Greek31Options
from app.games.greek_31.state import HandInPlay


class Greek31Table(Game):
    """Seats, stakes, the deal's rotation and the deck of a Greek 31 table."""

    OPTIONS_MODEL = Greek31Options

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        super().__init__(options, seeds)
        self.heath: bool = self.options["heath"]
        self.ace_rule: str = "alternating" if self.heath else self.options["ace_rule"]
        self.stock = Stock()
        self.fresh: int | None = None
        """Cards at the top of the deck still in the order of its last shuffle (the rest went
        under it after play). None: a deck set from outside (a test's), dealt as it stands."""
        self.decks_in_play: int | None = None
        """Decks in the stock when this engine built it (None: set from outside, e.g. a test)."""
        self.dealer: int | None = None
        self.dealer_hands = 0
        """Hands the current dealer has dealt in a row, the one being played included."""
        self.shuffle_due = False
        self.winner: int | None = None
        self.hand: HandInPlay | None = None
        self.session = False
        """A table-stakes session is under way: its first hand has been dealt (§2.11)."""
        self.away: dict[int, int] = {}
        """In a session, the chips each seat took away when it stood up (§2.11)."""

    # ----------------------------------------------------------------- seats and money

    @property
    def max_seats(self) -> int:
        return int(self.options["max_players"])

    def sit(self, seat: int, stack: int) -> None:
        """Seat a player; refused once a table-stakes table is over, and during a table-stakes
        session to anyone bringing more than the chips they took from the table (§2.11)."""
        if self.winner is not None:
            raise RuleError(ErrorCode.ILLEGAL_ACTION, self.table_over or "the table is over")
        if self.session and stack > self.away.get(seat, 0):
            raise RuleError(
                ErrorCode.ILLEGAL_ACTION,
                "table stakes: the session plays only with the chips on the table at its start;"
                " sit down when it ends",
            )
        super().sit(seat, stack)
        self.away.pop(seat, None)

    def on_leave(self, seat: int) -> None:
        """In a table-stakes session the seat's chips are remembered, so that its player may
        come back with them (sitting out, §0.11); the session ends when everyone has gone."""
        if not self.session:
            return
        if not [s for s in self.seated if s != seat]:
            self.session = False
            self.away = {}
        elif seat in self.seated:
            self.away[seat] = self.stack(seat)
        # else: a seat gone before a restart (reconcile_seats): its chips went home then

    def _in_this_hand(self, seat: int) -> bool:
        return self.in_hand and self.hand is not None and self.hand.playing(seat)

    def can_leave(self, seat: int) -> bool:
        """Anyone may leave between hands; mid-hand only a seat not playing it."""
        return not self._in_this_hand(seat)

    def can_top_up(self, seat: int) -> bool:
        """With ``stakes = buy_in``, outside a hand the player is playing (docs/rules.md §2)."""
        return self.options["stakes"] == "buy_in" and not self._in_this_hand(seat)

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        """From the minimum bet up; in a table-stakes session a seat takes at most the chips
        it took away when it stood up, and a seat that had none cannot be taken (§2.11)."""
        low = int(self.options["min_bet"])
        if seat is None or not self.session:
            return (low, 1_000_000_000)
        took = self.away.get(seat, 0)
        return (min(low, took), took) if took else (low, 0)

    def sim_rebuy(self, seat: int, stack: int) -> None:
        """Simulated bots top up only where the table allows it."""
        if self.can_top_up(seat):
            super().sim_rebuy(seat, stack)

    @property
    def table_over(self) -> Coded | None:
        """With ``table_stakes``: set once one player holds every chip (docs/rules.md §2)."""
        if self.winner is None:
            return None
        return Coded(
            "greek-31.table_over",
            f"Seat {self.winner} holds every chip: the table is over",
            seat=self.winner,
        )

    def with_chips(self) -> list[int]:
        return [seat for seat in self.seated if self.stack(seat) > 0]

    def seat_order(self, start: int, seats: list[int]) -> list[int]:
        """``seats`` in play order from ``start``'s right: next lower number first, wrapping."""
        return others_rightward(seats, start)

    def _current(self) -> HandInPlay:
        if self.hand is None:
            raise RuleError(ErrorCode.ILLEGAL_ACTION, "no hand is being played")
        return self.hand

    def cover(self) -> int:
        """What the bank can still cover: the dealer's stack less the stakes taken (§0)."""
        hand = self._current()
        return self.stack(hand.dealer) - sum(hand.stakes.values())

    # ----------------------------------------------------------------- paying and ending a hand

    def _pay_player(self, seat: int, reason: str, result: str) -> None:
        hand = self._current()
        self.pay(seat_account(hand.dealer), seat_account(seat), hand.stakes[seat], reason)
        hand.results[seat] = result
        self.log("settle", seat=seat, result=result, amount=hand.stakes[seat])

    def _pay_dealer(self, seat: int, reason: str, result: str) -> None:
        hand = self._current()
        self.pay(seat_account(seat), seat_account(hand.dealer), hand.stakes[seat], reason)
        hand.results[seat] = result
        self.log("settle", seat=seat, result=result, amount=-hand.stakes[seat])

    # ----------------------------------------------------------------- the end of a hand

    def _gather(self, seats: list[int], *, dealer: bool = False) -> None:
        """Step 5: used cards to the bottom of the deck, in the order gathered; the event names
        them sorted, as a set: their order under the deck is nobody's business (§2.9)."""
        hand = self._current()
        cards: list[str] = []
        for seat in seats:
            if seat not in hand.gathered:
                hand.gathered.add(seat)
                cards.extend(hand.cards.get(seat, []))
        if dealer:
            cards.extend(hand.dealer_cards)
        self.stock.put_bottom(cards)
        if cards:
            hidden = dealer and not hand.revealed and bool(hand.dealer_cards)
            self.log("gather", cards=sorted(cards), private_to=[hand.dealer] if hidden else None)

    def _void(self) -> None:
        """The deck is empty when a card is needed: the hand is void (docs/rules.md §2, Decision).

        Every chip that moved in the hand goes back: busted stakes to their players, 31s'
        winnings to the dealer; the deal stays and the hand does not count as dealt.
        """
        hand = self._current()
        hand.outcome = "void"
        hand.turn = None
        self.log("void", reason="the deck is empty")
        for seat in hand.staked():
            result = hand.results.get(seat)
            if result == "bust":
                self._pay_player(
                    seat,
                    Coded("greek-31.chips_void_stake", "void hand: stake returned"),
                    "returned",
                )
            elif result == "31":
                self._pay_dealer(
                    seat,
                    Coded("greek-31.chips_void_winnings", "void hand: winnings returned"),
                    "returned",
                )
            else:
                hand.results[seat] = "returned"
        self.dealer_hands -= 1
        self._finish()

    def _finish(self) -> None:
        """Gather the cards, move the deal on, record the hand (docs/rules.md §2.10)."""
        hand = self._current()
        hand.phase = "settled"
        hand.turn = None
        self._gather(hand.order, dealer=True)
        hand_of_deal = self.dealer_hands
        passes_to = None if hand.outcome == "void" else self.rotate_deal(hand.outcome == "bust")
        summary = {
            "dealer": hand.dealer,
            "outcome": hand.outcome,
            "void": hand.outcome == "void",
            "hand_of_deal": hand_of_deal,
            "staked": sum(hand.stakes.values()),
            "stakes": len(hand.stakes),
            "dealer_net": self.stack(hand.dealer) - hand.dealer_start,
            "player_busts": sum(1 for r in hand.results.values() if r == "bust"),
            "player_31s": sum(1 for r in hand.results.values() if r == "31"),
            "results": {str(seat): result for seat, result in hand.results.items()},
            "deal_passes_to": passes_to,
        }
        self.check_table_over()
        self.end_hand(summary)

    # ----------------------------------------------------------------- the deal

    def can_start(self) -> bool:
        return not self.in_hand and self.winner is None and len(self.with_chips()) >= 2

    def dealer_for(self, seats: list[int]) -> int:
        """The first dealer is the lowest seat with chips; a gone or broke dealer passes."""
        if self.options["stakes"] == "table_stakes":
            self.session = True
        if self.dealer is None:
            self.dealer = seats[0]
            self.dealer_hands = 0
            self.log("first_dealer", seat=self.dealer)
        elif self.dealer not in seats:
            self._pass_deal("the dealer has no chips or has left", seats)
        assert self.dealer is not None
        return self.dealer

    def next_dealer(self) -> int | None:
        """Who deals the next hand (between hands), without moving the deal."""
        seats = self.with_chips()
        if self.dealer is None or self.dealer in seats:
            return self.dealer if self.dealer is not None else (seats[0] if seats else None)
        following = self.seat_order(self.dealer, seats)
        return following[0] if following else None

    def _pass_deal(self, reason: str, seats: list[int]) -> None:
        """The deal goes to the next player in seat order (the dealer's right) with chips."""
        assert self.dealer is not None
        following = self.seat_order(self.dealer, seats)
        if not following:
            return
        self.dealer = following[0]
        self.dealer_hands = 0
        self.shuffle_due = self.options["shuffle"] == "new_dealer"
        self.log("deal_passes", seat=self.dealer, reason=reason)

    def ready_deck(self, seated: int) -> None:
        """Shuffle when the deck is new, changes size (``decks = auto``) or a new dealer shuffles.

        Otherwise the deck carries over from the last hand, used cards at the bottom.
        """
        decks = self.options["decks"]
        needed = int(decks) if decks != "auto" else (2 if seated > 5 else 1)
        changed = self.decks_in_play is not None and self.decks_in_play != needed
        if not self.stock.cards or changed:
            self._shuffle(canonical_shoe(needed))
            self.decks_in_play = needed
        elif self.shuffle_due:
            self._shuffle(list(self.stock.cards))
        self.shuffle_due = False

    def _shuffle(self, cards: list[str]) -> None:
        """A fresh shuffle of ``cards`` into the deck, its commitment published (§0.3)."""
        self.shuffle_into(self.stock, cards)
        self.fresh = len(self.stock)

    def draw_card(self) -> str | None:
        """The top card of the deck, or None when it is empty (the hand is then void).

        Once every card of the last shuffle has been dealt, the deck holds only used cards,
        gathered under it in an order everyone watched: they are shuffled before the next card
        is drawn (docs/rules.md §2.9, Decision), so no one can name the cards to come."""
        if not self.stock.cards:
            return None
        if self.fresh == 0:
            self._shuffle(list(self.stock.cards))
        if self.fresh is not None:
            self.fresh -= 1
        return self.stock.draw()

    def rotate_deal(self, bust: bool) -> int | None:
        """After a hand: the dealer deals again unless bust; a bust dealer who has dealt at
        least two hands in a row passes the deal; a dealer with no chips passes at once.
        Returns the new dealer when the deal passes."""
        dealer = self.dealer
        assert dealer is not None
        seats = self.with_chips()
        if self.stack(dealer) == 0:
            self._pass_deal("the dealer has no chips", seats)
        elif bust and self.dealer_hands >= 2:
            self._pass_deal("the dealer went over 31", seats)
        return self.dealer if self.dealer != dealer else None

    def check_table_over(self) -> None:
        """With ``table_stakes`` the table ends when one player holds every chip."""
        if self.options["stakes"] == "table_stakes":
            holders = self.with_chips()
            if len(holders) == 1:
                self.winner = holders[0]
                self.log("table_over", seat=self.winner)

    # ----------------------------------------------------------------- persistence

    def snapshot(self) -> dict[str, Any]:
        return {
            "dealer": self.dealer,
            "dealer_hands": self.dealer_hands,
            "stock": self.stock.to_json(),
            "fresh": self.fresh,
            "decks_in_play": self.decks_in_play,
            "shuffle_due": self.shuffle_due,
            "winner": self.winner,
            "hand_number": self.hand_number,
            "session": self.session,
            "away": {str(seat): chips for seat, chips in self.away.items()},
        }

    def restore(self, data: dict[str, Any]) -> None:
        self.dealer = data["dealer"]
        self.dealer_hands = int(data["dealer_hands"])
        self.stock = Stock.from_json(data["stock"])
        # A state stored before the deck counted its shuffled cards: all of it is dealt as it
        # stands, once round, as it was then (so its hands replay exactly), then shuffled.
        fresh = data.get("fresh", len(self.stock))
        self.fresh = None if fresh is None else int(fresh)
        self.decks_in_play = data["decks_in_play"]
        self.shuffle_due = bool(data["shuffle_due"])
        self.winner = data["winner"]
        self.hand_number = int(data["hand_number"])
        self.hand = None
        self.session = bool(data.get("session", False))
        self.away = {int(seat): int(chips) for seat, chips in data.get("away", {}).items()}

    def on_void(self) -> None:
        """The void hand's cards were seen: the next deal shuffles the deck first."""
        self.shuffle_due = True
