"""The Trente et Quarante table: bettors seated and standing, the house's cover, and what is stored
between coups (docs/rules.md §4).

:class:`app.games.trente_et_quarante.engine.TrenteEtQuarante` deals the coups and runs the
window."""

from __future__ import annotations

from typing import Any

from app.games.core.accounts import seat_account
from app.games.core.actions import LegalAction
from app.games.core.cards import SeedSource, Stock, csprng_seed
from app.games.core.coded import Coded
from app.games.core.errors import ErrorCode, RuleError
from app.games.core.house import HouseBanked
from app.games.trente_et_quarante.scoring import CoupSettlement
from app.games.trente_et_quarante.stakes import (
    FreeStake,
    PrisonStake,
    chance_totals,
    exposure,
)

IDLE, BETTING, UN_APRES = "idle", "betting", "un_apres"
WINDOW_KINDS = frozenset({"stake", "remove", "insure", "move_prison", "done"})
BURNED = 5
"""Cards burned from every new shoe ("Messieurs les cinq cartes")."""
HISTORY = 30
"""Coups kept for the tableau's score card."""
NOBODY: frozenset[int] = frozenset()
"""No seat (the owners of the stakes in prison when there are none)."""


class TrenteEtQuaranteTable(HouseBanked):
    """Bettors, the house's cover and the stored state; the engine deals the coups."""

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        super().__init__(options, seeds)
        self.stock = Stock()
        self.phase = IDLE
        self.free: dict[int, dict[str, FreeStake]] = {}
        self.prison: list[PrisonStake] = []
        self.next_prison_id = 1
        self.done: set[int] = set()
        self.countdown = False
        self.window = 0
        self.settlement: CoupSettlement | None = None
        self.last: dict[str, Any] | None = None
        self.history: list[dict[str, Any]] = []
        self.coups_in_shoe = 0
        self._legal_cache: dict[int, list[LegalAction]] = {}
        """Each seat's ``legal`` until the state changes (:meth:`_touch`) or the house's cover."""
        self._legal_house = self.house_available
        self.opening_templates: dict[tuple[int, bool, bool], list[LegalAction]] = {}
        """The window's templates before anyone stakes, by what they depend on (see
        :func:`.window.opening_legal`)."""
        self._bettors_cache: list[tuple[int, str]] = []
        self._bettors_for: set[str] = set()

    # ----------------------------------------------------------------- seats

    @property
    def max_seats(self) -> int:
        """The seats, then standing positions: as many free ones beyond the highest position
        taken as the table has seats, so that there is always room to stand, and more as people
        come ("no limit to those standing up", docs/rules.md §4.11)."""
        seats = int(self.options["seats"])
        taken = self._bettors()
        highest = taken[-1][0] + 1 if taken else 0
        return (highest if highest > seats else seats) + seats

    def sit(self, seat: int, stack: int) -> None:
        """Seat a bettor at a seat or at any standing position (no upper limit: a standing
        position far beyond the others, kept from before a restart, is restored as it was)."""
        if seat_account(seat) in self.balances:
            raise RuleError(ErrorCode.SEAT_TAKEN, "that seat is taken")
        if seat < 0:
            raise RuleError(ErrorCode.BAD_MESSAGE, "no such seat")
        self.balances[seat_account(seat)] = stack
        self.on_sit(seat)

    @property
    def prison_movable(self) -> bool:
        """A stake in prison may move to another chance only in the window that follows an
        après or an un après (docs/rules.md §4.7: "Customers can then withdraw, shift or
        change their stakes"; "at every 31 Après … move it")."""
        last = self.last
        return last is not None and last.get("tie") is not None

    def _bettors(self) -> list[tuple[int, str]]:
        """Each bettor's seat and stack account, in seat order (as :attr:`Game.seated` finds
        them), worked out again only when the set of accounts changes: every step of a coup
        asks. The list is shared: read it, do not change it."""
        if self.balances.keys() != self._bettors_for:
            self._bettors_for = set(self.balances)
            self._bettors_cache = [(seat, seat_account(seat)) for seat in super().seated]
        return self._bettors_cache

    @property
    def seated(self) -> list[int]:
        """Occupied seats in seat-number order (:attr:`Game.seated`, kept by :meth:`_bettors`)."""
        return [seat for seat, _ in self._bettors()]

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        return (self.options["min_stake"], 1_000_000_000)

    def can_leave(self, seat: int) -> bool:
        """Not with a stake in prison, nor while a stake of the coup awaits the owner's choice."""
        pending = self.settlement is not None and seat in self.settlement.choosing
        return not pending and not any(p.owner == seat for p in self.prison)

    def on_sit(self, seat: int) -> None:
        self._touch()

    def on_leave(self, seat: int) -> None:
        """Free stakes in an open window are dropped; an empty table's countdown stops."""
        self._touch()
        self.free.pop(seat, None)
        self.done.discard(seat)
        if self.phase == BETTING and self.seated == [seat]:
            self.countdown = False
            self.window += 1

    @property
    def table_seats(self) -> int:
        """The seats at the table; standing bettors take the positions after them."""
        return int(self.options["seats"])

    def house_exposure(self) -> int:
        """The most the house could pay on the free stakes down now (docs/rules.md §4)."""
        return exposure(chance_totals(self.free))

    def can_top_up(self, seat: int) -> bool:
        return self.phase in (IDLE, BETTING) and seat not in self.done

    def cannot_play(self, seat: int) -> Coded | None:
        """A bettor whose stack no longer holds a smallest stake (and who has none in prison)."""
        least = self.options["min_stake"]
        stack = self.balances.get(seat_account(seat))
        if stack is None or stack >= least or any(p.owner == seat for p in self.prison):
            return None
        return Coded(
            "trente-et-quarante.cannot_play",
            f"You need {least} chips for the smallest stake: add chips or stand up.",
            least=least,
        )

    def add_chips(self, seat: int, amount: int) -> None:
        super().add_chips(seat, amount)
        self._touch()

    def sim_rebuy(self, seat: int, stack: int) -> None:
        if not self.in_hand and self.stack(seat) < self.options["min_stake"]:
            self.add_chips(seat, stack)

    def _touch(self) -> None:
        """The state changed: what each seat may do must be worked out again."""
        self._legal_cache.clear()

    def snapshot(self) -> dict[str, Any]:
        return {
            "stock": self.stock.to_json(),
            "prison": [stake.to_json() for stake in self.prison],
            "next_prison_id": self.next_prison_id,
            "hand_number": self.hand_number,
            "window": self.window,
            "coups_in_shoe": self.coups_in_shoe,
            "last": self.last,
            "history": list(self.history),
        }

    def restore(self, data: dict[str, Any]) -> None:
        self.stock = Stock.from_json(data["stock"])
        self.prison = [PrisonStake.from_json(stake) for stake in data["prison"]]
        self.next_prison_id = int(data["next_prison_id"])
        self.hand_number = int(data["hand_number"])
        self.window = int(data["window"])
        self.coups_in_shoe = int(data["coups_in_shoe"])
        self.last = data["last"]
        self.history = list(data["history"])
        self.phase = IDLE
        self.free = {}
        self.done = set()
        self.settlement = None
        self._touch()

    def on_void(self) -> None:
        """The voided hand's cards were seen: the shoe ends, and the next window shuffles anew."""
        self.stock.cards = []
        self._touch()
