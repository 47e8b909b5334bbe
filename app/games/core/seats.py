"""The seats of a table and the chips in them: the roster calls and the money of every engine
(docs/rules.md §0.5).

Every chip lives in an account (:mod:`app.games.core.accounts`); :meth:`Seats.pay` is the only way
chips move, and it records each :class:`~app.games.core.money.Transfer` of the hand. The engine
(:class:`app.games.core.game.Game`) builds on this.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any

from app.games.core.accounts import is_seat, owner_of, seat_account, seats_in
from app.games.core.coded import Coded
from app.games.core.errors import ErrorCode, RuleError
from app.games.core.money import Transfer, move_chips

TABLE_CLOSED = Coded("chips.table_closed", "table closed")
"""Why a closing table's chips go to their owners' stacks (a chip movement's reason)."""


class Seats(ABC):
    """Who sits where with how many chips, and how chips move between accounts."""

    options: dict[str, Any]
    balances: dict[str, int]
    """Every account's chips (``seat:N`` the table stacks)."""
    in_hand: bool
    transfers: list[Transfer]
    """The chip movements of the hand being played."""

    # ----------------------------------------------------------------- seats and money

    @property
    @abstractmethod
    def max_seats(self) -> int:
        """How many seats the table has (seat numbers are ``0 .. max_seats - 1``)."""

    @property
    def seated(self) -> list[int]:
        """Occupied seats in seat-number order."""
        return seats_in(self.balances)

    def stack(self, seat: int) -> int:
        return self.balances[seat_account(seat)]

    def sit(self, seat: int, stack: int) -> None:
        """Seat a player who brings ``stack`` chips (bought in by the runtime)."""
        if seat_account(seat) in self.balances:
            raise RuleError(ErrorCode.SEAT_TAKEN, "that seat is taken")
        if not 0 <= seat < self.max_seats:
            raise RuleError(ErrorCode.BAD_MESSAGE, "no such seat")
        self.balances[seat_account(seat)] = stack
        self.on_sit(seat)

    def on_sit(self, seat: int) -> None:  # noqa: B027 - optional hook
        """Hook: a player sat down (between hands or mid-hand, to wait for the next)."""

    def can_leave(self, seat: int) -> bool:
        """May the player in ``seat`` stand up now? Default: whenever no hand is being played."""
        return not self.in_hand

    def leave(self, seat: int) -> int:
        """Remove the player in ``seat``; return the stack that goes back to the bankroll."""
        if not self.can_leave(seat):
            raise RuleError(ErrorCode.ILLEGAL_ACTION, "you cannot leave in the middle of a hand")
        self.on_leave(seat)
        return self.balances.pop(seat_account(seat))

    def on_leave(self, seat: int) -> None:  # noqa: B027 - optional hook
        """Hook: called just before the player in ``seat`` is removed."""

    def add_chips(self, seat: int, amount: int) -> None:
        """Chips bought in from the bankroll to an existing stack (a top-up), between hands."""
        self.balances[seat_account(seat)] += amount

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        """The chips a player may bring when sitting down in ``seat`` (None: any seat).

        A game may ask more of one seat than another (the first banker of Trianta Ena)."""
        return (1, 1_000_000_000)

    @property
    def table_seats(self) -> int:
        """Seats drawn at the table; positions from here up to ``max_seats`` are standing
        bettors' (Trente et Quarante). Default: every seat is at the table."""
        return self.max_seats

    def house_exposure(self) -> int:
        """The most the house could have to pay on the stakes down now (0: no house)."""
        return 0

    def can_top_up(self, seat: int) -> bool:
        """May the player in ``seat`` bring more chips from the bankroll now? Default: no."""
        return False

    def top_up_limit(self, seat: int) -> int:
        """The most chips a top-up may bring now, when :meth:`can_top_up` allows one.
        Default: up to the largest buy-in of the table."""
        return max(0, self.buy_in_limits(None)[1] - self.stack(seat))

    def leave_cost(self, seat: int) -> Coded | None:
        """What leaving costs the player in ``seat`` beyond their stack going home, in words
        for them (a :class:`Coded` sentence, worded by each reader's client), or None (the page
        asks them to confirm with it: En og tredive's bets left in the pot, docs/rules.md
        §5.12). Default: nothing."""
        return None

    def cannot_play(self, seat: int) -> Coded | None:
        """Why the player in ``seat`` is not dealt in (their stack no longer lets them play),
        in words for them (a :class:`Coded` sentence), or None. The page shows it with "Add
        chips" and "Stand up"."""
        return None

    @property
    def table_over(self) -> Coded | None:
        """A message when the table has ended for good (Greek 31 table stakes: a
        :class:`Coded` sentence), else None."""
        return None

    def sim_stack(self, seat: int, stack: int) -> int:
        """The stack a simulation bot sits down with (a game may give its first banker more)."""
        return stack

    def sim_rebuy(self, seat: int, stack: int) -> None:
        """Between simulated hands: a bot whose stack ran dry buys back in (top-up)."""
        if self.balances.get(seat_account(seat), 0) == 0 and not self.in_hand:
            self.add_chips(seat, stack)

    def release_all(self) -> None:
        """The table closes for good (between hands): every chip held in a table account goes
        back to its owner's stack: ``X:N`` to ``seat:N``; a pot is shared equally among the
        seated players (the remainder to the lowest seats). A game may do better."""
        for account in sorted(self.balances):
            owner = owner_of(account)
            amount = self.balances[account]
            if owner is not None and not is_seat(account) and amount:
                target = seat_account(owner)
                if target not in self.balances:
                    self.balances[target] = 0
                self.pay(account, target, amount, TABLE_CLOSED)
        for account in sorted(self.balances):
            if owner_of(account) is not None or not self.balances[account]:
                continue
            seats = self.seated
            amount = self.balances[account]
            if not seats:
                continue
            share, extra = divmod(amount, len(seats))
            for i, seated in enumerate(seats):
                self.pay(
                    account,
                    seat_account(seated),
                    share + (1 if i < extra else 0),
                    TABLE_CLOSED,
                )

    def pay(self, source: str, target: str, amount: int, reason: str) -> None:
        """Move ``amount`` chips from one account to another, recording the transfer.

        Every chip that moves in a hand goes through here (docs/rules.md §0.5). The house
        (``"house"``) is held outside the table; the runtime checks its cover.
        """
        transfer = move_chips(self.balances, source, target, amount, reason)
        if transfer is not None:
            self.transfers.append(transfer)
