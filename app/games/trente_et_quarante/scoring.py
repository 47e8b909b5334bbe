"""Settling a dealt coup of Trente et Quarante (docs/rules.md §4.6 to §4.8).

* Insurance premiums (1% of each insured free stake in whole chips, rounded down) go to the
  house first.
* A decided coup: free stakes on the winning chances are paid even money by the house, those on
  the losing chances go to the house. A stake in prison on a winning chance moves up one level
  (level 1 is returned to its owner without winnings); on a losing chance it goes to the house.
* *Après* (equal totals other than 31): nothing moves.
* *Un après* (31 and 31): insured free stakes are untouched; a stake in prison that would pass
  ``max_apres`` levels is shared; every other stake awaits its owner's choice, "at every 31
  Après" (docs/rules.md §4.7): a free stake (:meth:`CoupSettlement.choose`) is shared (half,
  rounded down, back to the owner, the rest to the house) or put in prison at level 1; a stake
  already in prison (:meth:`CoupSettlement.choose_held`) is shared the same way or left in
  prison, one level deeper. Moving a stake to another chance is done in the window that
  follows (:mod:`.window`).
"""

from __future__ import annotations

from typing import Any

from app.games.core.accounts import HOUSE, prison_account, seat_account
from app.games.core.coded import Coded
from app.games.trente_et_quarante.coup import UN_APRES, Coup
from app.games.trente_et_quarante.stakes import PrisonStake, premium
from app.games.trente_et_quarante.state import TrenteEtQuaranteState


class CoupSettlement:
    """The settlement of one coup, possibly waiting for the un après choices."""

    def __init__(
        self, game: TrenteEtQuaranteState, coup: Coup, stakes: list[dict[str, Any]]
    ) -> None:
        self.game = game
        self.coup = coup
        self.stakes = stakes
        """The free stakes as they stood at "Rien ne va plus" (for the hand's summary), each
        with ``house``: what the house took from it (negative: paid) in this coup."""
        for stake in stakes:
            stake["house"] = 0
        self.calls = coup.calls()
        """The dealer's announcements (§4 step 6)."""
        self.result = coup.result()
        """The totals and the result (:meth:`.Coup.result`), for the score card and summary."""
        self.pending: dict[int, set[str]] = {}
        """Un après: the chances of each owner's free stakes that await a choice."""
        self.held: dict[int, set[int]] = {}
        """Un après: the ids of each owner's stakes in prison that await a choice."""

    @property
    def choosing(self) -> set[int]:
        """The owners who still have a choice to make (free stakes or stakes in prison)."""
        return set(self.pending) | set(self.held)

    def settle(self) -> None:
        """Charge the insurance, announce the coup and settle what needs no choice.

        The free stakes are settled from :attr:`stakes`, which lists them as they stand (in
        seat order), so that each one's record is at hand.
        """
        game = self.game
        for record in self.stakes:
            if record["insured"]:
                cost = premium(record["amount"])
                chance = record["chance"]
                reason = Coded(
                    "trente-et-quarante.chips_insurance",
                    f"insurance of the {chance} stake",
                    chance=chance,
                )
                game.pay(seat_account(record["seat"]), HOUSE, cost, reason)
                record["house"] += cost
        for call in self.calls:
            game.log_event({"kind": "call", "fr": call["fr"], "en": call["en"]})
        tie = self.coup.tie
        if tie is None:
            self._decided()
        elif tie == UN_APRES:
            self._un_apres()

    def _decided(self) -> None:
        game = self.game
        wins = self.coup.winning_chances
        for record in self.stakes:
            chance, amount = record["chance"], record["amount"]
            if chance in wins:
                game.pay(
                    HOUSE,
                    seat_account(record["seat"]),
                    amount,
                    Coded("trente-et-quarante.chips_won", f"{chance} stake won", chance=chance),
                )
                record["house"] -= amount
            else:
                game.pay(
                    seat_account(record["seat"]),
                    HOUSE,
                    amount,
                    Coded("trente-et-quarante.chips_lost", f"{chance} stake lost", chance=chance),
                )
                record["house"] += amount
        kept: list[PrisonStake] = []
        for held in game.prison:
            account = prison_account(held.owner)
            if held.chance not in wins:
                game.pay(
                    account,
                    HOUSE,
                    held.amount,
                    Coded(
                        "trente-et-quarante.chips_prison_lost",
                        f"{held.chance} stake in prison lost",
                        chance=held.chance,
                    ),
                )
                game.log("prison_lost", seat=held.owner, **held.to_json())
            elif held.level == 1:
                reason = Coded(
                    "trente-et-quarante.chips_freed",
                    f"{held.chance} stake freed from prison",
                    chance=held.chance,
                )
                game.pay(account, seat_account(held.owner), held.amount, reason)
                game.log("prison_freed", seat=held.owner, **held.to_json())
            else:
                held.level -= 1
                kept.append(held)
                game.log("prison_up", seat=held.owner, **held.to_json())
        game.prison = kept

    def _un_apres(self) -> None:
        """A stake in prison past ``max_apres`` levels is shared ("at the fourth Après the sum
        left in play is divided"); every other one, and every uninsured free stake, waits for
        its owner's choice (docs/rules.md §4.7)."""
        game = self.game
        kept: list[PrisonStake] = []
        for held in game.prison:
            if held.level + 1 > game.options["max_apres"]:
                self._share(prison_account(held.owner), held.owner, held.amount, held.chance)
                game.log("prison_shared", seat=held.owner, **held.to_json())
            else:
                kept.append(held)
                self.held.setdefault(held.owner, set()).add(held.id)
        game.prison = kept
        for record in self.stakes:
            if not record["insured"]:
                self.pending.setdefault(record["seat"], set()).add(record["chance"])
        if self.pending or self.held:
            game.log("un_apres_choice", seats=sorted(self.choosing))

    def _share(self, account: str, owner: int, amount: int, chance: str) -> None:
        """Half, rounded down, back to the owner's stack; the rest to the house."""
        back = amount // 2
        if account != seat_account(owner):
            self.game.pay(
                account,
                seat_account(owner),
                back,
                Coded(
                    "trente-et-quarante.chips_half_back",
                    f"{chance} stake shared: half back",
                    chance=chance,
                ),
            )
        self.game.pay(
            account,
            HOUSE,
            amount - back,
            Coded(
                "trente-et-quarante.chips_shared",
                f"{chance} stake shared with the house",
                chance=chance,
            ),
        )

    def choose(self, seat: int, chance: str, *, share: bool) -> None:
        """An owner's un après choice for the free stake on ``chance`` (default: prison)."""
        game = self.game
        chances = self.pending[seat]
        chances.remove(chance)
        if not chances:
            del self.pending[seat]
        amount = game.free[seat][chance].amount
        if share:
            self._share(seat_account(seat), seat, amount, chance)
            record = next(r for r in self.stakes if r["seat"] == seat and r["chance"] == chance)
            record["house"] += amount - amount // 2
            game.log("share", seat=seat, chance=chance, amount=amount, returned=amount // 2)
            return
        stake = PrisonStake(game.next_prison_id, seat, chance, amount, 1)
        game.next_prison_id += 1
        game.pay(
            seat_account(seat),
            prison_account(seat),
            amount,
            Coded("trente-et-quarante.chips_to_prison", f"{chance} stake to prison", chance=chance),
        )
        game.prison.append(stake)
        game.log("prison", seat=seat, **stake.to_json())

    def choose_held(self, seat: int, stake_id: int, *, share: bool) -> None:
        """An owner's un après choice for a stake already in prison (default: prison): shared,
        half back, or left in prison one level deeper (docs/rules.md §4.7)."""
        game = self.game
        ids = self.held[seat]
        ids.remove(stake_id)
        if not ids:
            del self.held[seat]
        held = next(p for p in game.prison if p.id == stake_id)
        if share:
            game.prison.remove(held)
            self._share(prison_account(seat), seat, held.amount, held.chance)
            game.log("prison_shared", seat=seat, **held.to_json())
            return
        held.level += 1
        game.log("prison_deeper", seat=seat, **held.to_json())
