"""Trente et Quarante: bettors against the house on two rows of cards (docs/rules.md §4).

A hand is one coup. :meth:`~TrenteEtQuarante.start_hand` opens the betting window ("Faites vos
jeux", :mod:`.window`): every bettor, seated or standing (the runtime seats
standing bettors from position ``seats`` upward), may stake, change, remove and insure free
stakes and move stakes in prison. The window rests (no timer) until a stake is down; then its
``bet_seconds`` countdown runs under one key for the whole window (at once when a stake is in
prison). When it runs out ("Rien ne va plus") the coup is dealt card by card
(:mod:`.coup`) and settled (:mod:`.scoring`); after an
*un après* the owners of uninsured free stakes choose to share or imprison each of them, and the
owners of stakes already in prison to share them or leave them there a level deeper, all at
once, within ``turn_seconds`` (default: prison). A stake in prison may be moved to another
chance only in the window that follows an après or an un après (docs/rules.md §4.7).

Decisions where docs/rules.md leaves room:

* A bettor who has set their stakes says so with ``done`` (offered once the countdown runs, to
  a bettor with a stake or chips for one); when every such bettor is done the window closes at
  once. The timer's close is ``{"kind": "close"}``, in no one's ``legal``:
  :meth:`~TrenteEtQuarante.timeout_actions` returns it and the runtime applies it unchecked.
* ``stake`` sets a chance's free stake (placing or changing it); staking on the other side of a
  pair while holding a free stake on one side is not legal (remove it first). Stakes in prison
  are apart: they may lie on either side and move to any other chance (after an après).
* Insurance costs 1% of a stake in whole chips, rounded down: only a stake of 100 chips or more
  can be insured, and an insured stake stays at least 100 (docs/rules.md §4.8, a Decision).
* Free stakes stay in the owner's table stack until the coup settles and do not carry over to
  the next window. Insurance is charged when the coup is dealt (a void coup charges none).
* The house covers the most it could pay: the larger side of each pair (stakes in prison are
  never paid winnings). A stake that would take that past ``house_available`` is refused (the
  runtime sets the attribute; it is unlimited until then); lowering a stake is always legal.
* The shoe runs until a coup's cards run out: that coup is void, and the next window shuffles a
  new shoe and burns five cards; with ``venice_rule`` the stakes in prison are returned first. A
  shoe reshuffled after a crash-voided hand (:meth:`~TrenteEtQuarante.on_void`) ends the same way.
* A bettor may leave in the window (their free stakes are dropped) but not with a stake in
  prison, nor while a stake of theirs awaits its un après choice; top-ups are allowed between
  coups and in the window.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from functools import cache
from typing import Any

from app.games.core.accounts import prison_account, seat_account
from app.games.core.actions import Action, LegalAction, legal, one_of
from app.games.core.cards import canonical_shoe
from app.games.core.coded import Coded
from app.games.core.hand import Timer
from app.games.core.views import View
from app.games.trente_et_quarante.bot import bot_choice
from app.games.trente_et_quarante.coup import (
    CHANCES,
    POINTS,
    deal_coup,
    partial_rows,
)
from app.games.trente_et_quarante.options import TrenteEtQuaranteOptions
from app.games.trente_et_quarante.scoring import CoupSettlement
from app.games.trente_et_quarante.stats import TrenteEtQuaranteStats
from app.games.trente_et_quarante.table import (
    BETTING,
    BURNED,
    HISTORY,
    IDLE,
    NOBODY,
    UN_APRES,
    WINDOW_KINDS,
    TrenteEtQuaranteTable,
)
from app.games.trente_et_quarante.view import table_view, table_views
from app.games.trente_et_quarante.window import apply_window, window_legal


@cache
def _canonical_shoe(decks: int) -> tuple[str, ...]:
    """The shoe of ``decks`` decks in canonical order, the start of every shuffle
    (docs/rules.md §0.3)."""
    return tuple(canonical_shoe(decks))


CLOSE = legal("close")
"""The window's timeout: the clock's action, in no bettor's ``legal``."""


class TrenteEtQuarante(TrenteEtQuaranteTable):
    """The Trente et Quarante engine (docs/rules.md §4)."""

    id = "trente-et-quarante"
    title = "Trente et Quarante"
    BLURB = (
        "The casino classic against the house: two rows, Noir and Rouge, dealt past 30; "
        "bet on the lower row and on couleur or inverse."
    )
    OPTIONS_MODEL = TrenteEtQuaranteOptions
    ACTION_KINDS = WINDOW_KINDS | {"share", "prison", "close"}
    """``close`` is in no one's ``legal``: it is the window's timeout (:meth:`timeout_actions`)."""
    MIN_PLAYERS = 1
    STATS = TrenteEtQuaranteStats
    SIM_PLAYERS = 1

    # ----------------------------------------------------------------- the coup

    def can_start(self) -> bool:
        """Anyone could act in a window: a stake in prison, or chips the house can cover."""
        if self.in_hand:
            return False
        if self.prison:
            return True
        least = self.options["min_stake"]
        if self.house_available < least:
            return False
        balances = self.balances
        return any(balances[account] >= least for _, account in self._bettors())

    def deal(self) -> None:
        """Open the betting window, with a new shoe when the last one ran out (§4 step 1)."""
        self._touch()
        if not self.stock.cards:
            self._new_shoe()
        self.phase = BETTING
        self.window += 1
        self.free = {}
        self.done = set()
        self.settlement = None
        self.countdown = bool(self.prison)
        self.log_event(
            {
                "kind": "faites_vos_jeux",
                "coup": self.hand_number,
                "fr": "Faites vos jeux",
                "en": "Place your stakes",
            }
        )

    def _new_shoe(self) -> None:
        """End the old shoe (Venice rule), shuffle a new one and burn five cards (§4)."""
        if self.options["venice_rule"]:
            for stake in self.prison:
                self.pay(
                    prison_account(stake.owner),
                    seat_account(stake.owner),
                    stake.amount,
                    Coded(
                        "trente-et-quarante.chips_venice",
                        "stake in prison returned at the end of the shoe (Venice rule)",
                    ),
                )
                self.log("prison_returned", seat=stake.owner, **stake.to_json())
            self.prison = []
        self.shuffle_into(self.stock, list(_canonical_shoe(self.options["decks"])))
        burned = self.stock.cards[:BURNED]
        del self.stock.cards[:BURNED]
        self.log("burn", private_to=[], cards=burned, fr="Messieurs les cinq cartes")
        self.coups_in_shoe = 0

    def _rien_ne_va_plus(self) -> None:
        """Close the window, deal the two rows card by card and settle (§4 steps 2-5)."""
        stakes: list[dict[str, Any]] = []  # the settlement's records of them
        announced: list[dict[str, Any]] = []  # as the call lists them
        for seat, mine in sorted(self.free.items()):
            for chance, stake in mine.items():
                record = {"seat": seat, "chance": chance, "amount": stake.amount}
                record["insured"] = stake.insured
                stakes.append(record)
                announced.append(dict(record))
        self.log_event(
            {
                "kind": "rien_ne_va_plus",
                "fr": "Rien ne va plus",
                "en": "No more stakes",
                "stakes": announced,
            }
        )
        cards = self.stock.cards
        coup, used = deal_coup(cards)
        rows = (coup.noir_cards, coup.rouge_cards) if coup else partial_rows(cards)
        self._log_cards(rows)
        del cards[:used]
        self.coups_in_shoe += 1
        if coup is None:
            self._void(rows)
            return
        self.settlement = CoupSettlement(self, coup, stakes)
        result = self.settlement.result
        self.last = {
            "rows": coup.to_json(),
            "calls": self.settlement.calls,
            "void": False,
            **result,
        }
        self.history.append(result)
        del self.history[:-HISTORY]
        self.settlement.settle()
        if not self.settlement.choosing:
            self._finish()
        else:
            self.phase = UN_APRES

    def log_event(self, event: dict[str, Any]) -> None:
        """Record a public event given whole, as :meth:`Game.log` would build it (``kind``
        first, then ``seat`` if any, then the data, a fresh dict each time).

        The events of a coup's every step (the window, the stakes, each card turned, the
        calls) come this way: going through ``log``'s keyword arguments for each of them was a
        quarter of a simulated coup's time.
        """
        self._log.append(event)
        self._hand_log.append(event)

    def _log_cards(self, rows: tuple[list[str], list[str]]) -> None:
        """Log each card as it is turned, row by row, with its row's running total (§4 step 2)."""
        events: list[dict[str, Any]] = []
        for name, row in (("noir", rows[0]), ("rouge", rows[1])):
            total = 0
            for card in row:
                total += POINTS[card]
                events.append({"kind": "card", "row": name, "card": card, "total": total})
        self._log.extend(events)
        self._hand_log.extend(events)

    def _void(self, rows: tuple[list[str], list[str]]) -> None:
        """The shoe ran out mid-deal: the coup is void and no stake moves (§4, The shoe)."""
        call = {"fr": "Coup nul", "en": "Void coup: the shoe ran out"}
        self.log("call", fr=call["fr"], en=call["en"])
        self.last = {
            "rows": {
                "noir": {"cards": rows[0], "total": sum(POINTS[c] for c in rows[0])},
                "rouge": {"cards": rows[1], "total": sum(POINTS[c] for c in rows[1])},
            },
            "calls": [call],
            "void": True,
        }
        self.phase = IDLE
        self.free = {}
        self.done = set()
        self.end_hand({"coup": self.hand_number, "void": True})

    def _finish(self) -> None:
        """Every chip of the coup is settled: end the hand with its summary."""
        settlement = self.settlement
        assert settlement is not None
        self.phase = IDLE
        self.free = {}
        self.done = set()
        self.settlement = None
        result, stakes = settlement.result, settlement.stakes
        self.end_hand({"coup": self.hand_number, "void": False, **result, "stakes": stakes})

    # ----------------------------------------------------------------- decisions

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        """Built once per seat until the state changes (:meth:`_touch`) or the runtime sets
        another ``house_available``; each call gets a list of its own."""
        if seat is None:
            return []
        if self.house_available != self._legal_house:
            self._legal_house = self.house_available
            self._legal_cache.clear()
        templates = self._legal_cache.get(seat)
        if templates is None:
            templates = self._legal_cache[seat] = self._legal(seat)
        return list(templates)

    def _legal(self, seat: int) -> list[LegalAction]:
        if self.phase == UN_APRES:
            assert self.settlement is not None
            out: list[LegalAction] = []
            chances = self.settlement.pending.get(seat)
            if chances:
                choice = one_of([c for c in CHANCES if c in chances])
                out += [legal("share", chance=choice), legal("prison", chance=choice)]
            held = self.settlement.held.get(seat)
            if held:
                ids = one_of(sorted(held))
                out += [legal("share", stake=ids), legal("prison", stake=ids)]
            return out
        if self.phase != BETTING or seat in self.done:
            return []
        return window_legal(self, seat)

    def to_act(self) -> set[int]:
        """The bettors whose ``legal`` is not empty, worked out without building it.

        Once the countdown runs, a bettor not done may act when they have a stake (free or in
        prison) or chips for a smallest stake (``done`` at least). Before it, no stake is down
        anywhere (the first stake starts it, and so does a stake in prison), so a bettor may act
        exactly when a smallest stake fits their stack and the house.
        """
        waiting: set[int] = set()
        if self.phase == BETTING:
            least = self.options["min_stake"]
            balances = self.balances
            if self.countdown:
                done, free = self.done, self.free
                owners = (
                    {stake.owner for stake in self.prison}
                    if self.prison and self.prison_movable
                    else NOBODY
                )
                for seat, account in self._bettors():
                    if seat not in done and (
                        seat in free or seat in owners or balances[account] >= least
                    ):
                        waiting.add(seat)
            elif self.house_available >= least:
                for seat, account in self._bettors():
                    if balances[account] >= least:
                        waiting.add(seat)
            return waiting
        if self.phase == UN_APRES and self.settlement is not None:
            waiting.update(self.settlement.choosing)
        return waiting

    def play(self, seat: int, action: Action) -> None:
        kind = action["kind"]
        if self.phase == BETTING and kind == "close":
            self._rien_ne_va_plus()
        elif self.phase == BETTING and kind in WINDOW_KINDS:
            apply_window(self, seat, action)
            # a stake placed or insured, or one in prison moved, keeps its owner to act: only
            # ``done`` and ``remove`` can leave nobody the window waits for
            if kind in ("done", "remove") and self.countdown and not self.to_act():
                self._rien_ne_va_plus()
        else:
            assert self.phase == UN_APRES and self.settlement is not None
            if "stake" in action:
                self.settlement.choose_held(seat, action["stake"], share=kind == "share")
            else:
                self.settlement.choose(seat, action["chance"], share=kind == "share")
            if not self.settlement.choosing:
                self._finish()
        self._touch()

    def timer(self) -> Timer | None:
        if self.phase == BETTING and self.countdown:
            return Timer(("window", self.window), self.options["bet_seconds"])
        if self.phase == UN_APRES:
            return Timer(("un_apres", self.window), self.options["turn_seconds"])
        return None

    def default_action(self, seat: int) -> Action:
        """Un après: prison, or a stake in prison left there (§4.7). The window: no change, so
        the window closes."""
        if self.phase == UN_APRES and self.settlement is not None:
            chances = self.settlement.pending.get(seat)
            if chances:
                return {"kind": "prison", "chance": next(c for c in CHANCES if c in chances)}
            held = self.settlement.held.get(seat)
            if held:
                return {"kind": "prison", "stake": min(held)}
        return {"kind": "close"}

    def clock_actions(self, seat: int) -> list[LegalAction]:
        """In the window, ``close`` ("Rien ne va plus") is the clock's, never a bettor's."""
        if self.phase == BETTING and seat in self.seated:
            return [CLOSE]
        return []

    def timeout_actions(self) -> list[tuple[int, Action]]:
        """The window: one ``close`` ("Rien ne va plus"). Un après: prison for every stake."""
        if self.phase == BETTING:
            seats = sorted(self.to_act()) or self.seated
            return [(seats[0], {"kind": "close"})] if seats else []
        if self.phase == UN_APRES and self.settlement is not None:
            free: list[tuple[int, Action]] = [
                (seat, {"kind": "prison", "chance": chance})
                for seat, chances in sorted(self.settlement.pending.items())
                for chance in CHANCES
                if chance in chances
            ]
            held: list[tuple[int, Action]] = [
                (seat, {"kind": "prison", "stake": stake})
                for seat, ids in sorted(self.settlement.held.items())
                for stake in sorted(ids)
            ]
            return free + held
        return []

    def bot_action(self, seat: int, rng: random.Random) -> Action:
        return bot_choice(self.legal_actions(seat), self.free.get(seat, {}), self.history, rng)

    # ----------------------------------------------------------------- view and persistence

    def view(self, seat: int | None) -> View:
        return table_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, View]:
        return table_views(self, seats)


GAME = TrenteEtQuarante
