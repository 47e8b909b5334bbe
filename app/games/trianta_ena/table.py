"""The Trianta Ena table between rounds: seats, stacks, the bank, the stock and what is stored
(docs/rules.md §1). :class:`app.games.trianta_ena.engine.TriantaEna` plays the rounds on top
of it."""

from __future__ import annotations

from collections import Counter
from typing import Any

from app.games.core.accounts import seat_account
from app.games.core.cards import SeedSource, Stock, canonical_shoe, csprng_seed
from app.games.core.coded import Coded
from app.games.core.game import Game
from app.games.trianta_ena.bank import Bank
from app.games.trianta_ena.state import Round


class TriantaEnaTable(Game):
    """Seats, stacks, the bank, the stock and the stored state; the engine plays the rounds."""

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        super().__init__(options, seeds)
        opts = self.options
        self.ace_rule: str = opts["ace_rule"]
        self.natural_cards: str = opts["natural_cards"]
        self.min_bet: int = opts["min_bet"]
        self.buy_in: int = opts["buy_in"]
        self.bank = Bank(seats=self.max_seats)
        self.stock = Stock()
        self.discard: list[str] = []
        self.round: Round | None = None
        """The round being played, or the last one (shown until the next deal)."""

    # ----------------------------------------------------------------- seats and money

    @property
    def max_seats(self) -> int:
        return int(self.options["max_players"]) + 1

    @property
    def banker(self) -> int | None:
        return self.bank.banker

    @property
    def players(self) -> list[int]:
        """Seated players other than the banker, in seat order."""
        return self.bank.in_seat_order([seat for seat in self.seated if seat != self.banker])

    def _stacks(self, leaving: int | None = None) -> dict[int, int]:
        """Every seated player's stack but the banker's (and a player on the way out)."""
        return {seat: self.stack(seat) for seat in self.players if seat != leaving}

    def _first_banker_wanted(self, newcomer: int | None = None) -> bool:
        """The next player to sit becomes the first banker: no banker, nobody else with chips."""
        return self.banker is None and not any(
            self.stack(seat) > 0 for seat in self.seated if seat != newcomer
        )

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        """Exactly ``buy_in``; the first banker exactly ``banker_multiple × buy_in`` (§1)."""
        chips = self.buy_in
        if self._first_banker_wanted():
            chips *= int(self.options["banker_multiple"])
        return (chips, chips)

    def on_sit(self, seat: int) -> None:
        """A player sat down; one who sits mid-round waits for the next deal. Whoever declined
        the bank may be offered it again after the next round (docs/rules.md §1.9)."""
        self.bank.newcomer()
        if not self.in_hand and self._first_banker_wanted(newcomer=seat):
            self.bank.install(seat)
            self.log("bank_taken", seat=seat, first=True)

    def can_leave(self, seat: int) -> bool:
        """Players cash out between rounds (§1); a seat not dealt into the round may go at once."""
        if not self.in_hand or self.round is None:
            return True
        return seat != self.round.banker and seat not in self.round.hands

    def can_top_up(self, seat: int) -> bool:
        """docs/rules.md §1 lets players cash out between rounds and is silent on topping up. This
        table lets a player (never the banker) bring chips when leaving would be allowed, up
        to the table's ``buy_in`` (:meth:`top_up_limit`): so a player who can no longer bet
        plays again, while nobody buys the bank, which goes by stack to whoever holds more
        than the banker, and the bank keeps what its first banker brought (§1)."""
        if seat == self.banker or seat_account(seat) not in self.balances:
            return False
        return self.stack(seat) < self.buy_in and self.can_leave(seat)

    def top_up_limit(self, seat: int) -> int:
        """Up to the table's ``buy_in`` (:meth:`can_top_up`)."""
        return max(0, self.buy_in - self.stack(seat))

    def cannot_play(self, seat: int) -> Coded | None:
        """A player whose stack no longer holds the smallest bet."""
        if seat == self.banker or seat_account(seat) not in self.balances:
            return None
        least = self.min_bet
        if self.stack(seat) >= least:
            return None
        return Coded(
            "trianta-ena.cannot_play",
            f"You need {least} chips to bet (the smallest bet): add chips or stand up.",
            least=least,
        )

    def on_leave(self, seat: int) -> None:
        """A banker who leaves ends the bank; a player who leaves loses any pending offer."""
        serial = self.bank.serial
        if seat == self.banker:
            self.log("bank_ended", seat=seat, reason="left")
            self.bank.end(self._stacks(leaving=seat))
        else:
            self.bank.withdraw(seat, self._stacks(leaving=seat))
        if self.bank.serial != serial:
            self._log_offer()

    def sim_stack(self, seat: int, stack: int) -> int:
        return self.buy_in_limits(seat)[0]

    def sim_rebuy(self, seat: int, stack: int) -> None:
        """A bot that cannot bet any more brings a new buy-in."""
        if not self.in_hand and seat != self.banker and self.stack(seat) < self.min_bet:
            self.add_chips(seat, self.buy_in)

    # ----------------------------------------------------------------- the stock

    def _draw(self) -> str:
        """Deal the top card; when the stock runs out, even mid-round, reshuffle (§1 step 7).

        The discard pile becomes the new stock (cards in play stay out). With no discard pile
        (the first deal, or after :meth:`on_void`) the shoe's cards not in play are shuffled.
        """
        if not self.stock.cards:
            in_play = self.round.cards_in_play() if self.in_hand and self.round else []
            if self.discard:
                cards, self.discard = self.discard, []
                if self.round is not None:
                    self.round.reshuffles += 1
                self.log("reshuffle", cards=len(cards))
            else:
                left = Counter(canonical_shoe(int(self.options["decks"]))) - Counter(in_play)
                cards = list(left.elements())
                if not cards:
                    raise RuntimeError("every card of the shoe is in play")
            self.shuffle_into(self.stock, cards)
        return self.stock.draw()

    def on_void(self) -> None:
        """The void round's cards were seen: drop stock and discard; the next deal shuffles a
        fresh shoe (its commitment is then published in that hand's log)."""
        self.stock.cards = []
        self.discard = []

    # ----------------------------------------------------------------- the bank changes hands

    def _log_offer(self) -> None:
        if self.bank.offered is not None:
            self.log("bank_offered", seat=self.bank.offered, vacant=self.bank.vacant)

    # ----------------------------------------------------------------- persistence

    def snapshot(self) -> dict[str, Any]:
        return {
            "bank": self.bank.to_json(),
            "stock": self.stock.to_json(),
            "discard": list(self.discard),
            "hand_number": self.hand_number,
        }

    def seats_named(self) -> set[int]:
        """The banker and the players queued for a bank offer."""
        named = set(self.bank.offers)
        if self.bank.banker is not None:
            named.add(self.bank.banker)
        return named

    def restore(self, data: dict[str, Any]) -> None:
        self.bank = Bank.from_json(self.max_seats, data["bank"])
        self.stock = Stock.from_json(data["stock"])
        self.discard = [str(card) for card in data["discard"]]
        self.hand_number = int(data["hand_number"])
        self.round = None
