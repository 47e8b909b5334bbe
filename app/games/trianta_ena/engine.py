"""Trianta Ena: players against a rotating banker, closest to 31 (docs/rules.md §1).

A round: each player with chips gets one card face down and the banker one face up; players bet
or fold in a simultaneous window, and the bank's cover is allotted in seat order; bettors get two
cards face up and the banker a face-down card nobody sees; players hit or stand in seat order; the
banker turns the card and draws to ``dealer_stands_on``; bets settle at even money
(:func:`app.games.trianta_ena.scoring.settle`). Then the bank is offered to richer players
(:mod:`app.games.trianta_ena.bank`).

Decisions where docs/rules.md leaves room:

* The first banker is the first player to sit at a table that has no banker and no player with
  chips; they bring exactly ``banker_multiple × buy_in``. Every other player brings exactly
  ``buy_in`` (the source: "each player begins with the same amount"). A player (never the
  banker) may top up where they may leave, up to ``buy_in`` (:meth:`TriantaEna.can_top_up`).
* A player is dealt in when their stack is at least ``min_bet`` (one who cannot bet could only
  fold). Dealing goes in seat order: each player's face-down card, then the banker's up card;
  after the window each staking player's two cards in turn, then the banker's face-down card.
* Bets are public once made. When the window closes each covered stake moves to the player's
  ``bets:N`` account; a bet the bank cannot cover in full is cut (even below ``min_bet``).
* A player on 31 stands, by their own ``stand``, the only action offered them then
  (docs/rules.md §1.5, a Decision): the server never stands for them, because a stand nobody
  sent would tell the table a total that rests on their face-down card.
* The banker does not draw when no standing bet is left (every bettor went bust).
* A player's face-down card is shown when they go bust and at settlement; a folded card never.
* The change of bank moves places, not seat numbers (see :mod:`app.games.trianta_ena.bank`).
* After a round the offers go to the players richer than the banker at that moment; after the
  bank has ended they go to every player with chips and start again after the last decline.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from app.games.core.accounts import bets_account, seat_account
from app.games.core.actions import Action, LegalAction, amount_range, legal
from app.games.core.coded import Coded
from app.games.core.errors import ErrorCode, RuleError
from app.games.core.hand import Timer
from app.games.core.views import View
from app.games.trianta_ena.bot import bet_amount, folds, hit_below, takes_bank
from app.games.trianta_ena.options import TriantaEnaOptions
from app.games.trianta_ena.scoring import banker_draws, is_natural, lowest_total, settle, value
from app.games.trianta_ena.state import (
    BET,
    BUST,
    DECIDING,
    FOLDED,
    LOST,
    PLAYING,
    REFUSED,
    STOOD,
    WON,
    PlayerHand,
    Round,
    seat_note,
    summary,
)
from app.games.trianta_ena.stats import TriantaEnaStats
from app.games.trianta_ena.table import TriantaEnaTable
from app.games.trianta_ena.view import table_view, table_views


class TriantaEna(TriantaEnaTable):
    """The Trianta Ena engine (docs/rules.md §1)."""

    id = "trianta-ena"
    title = "Trianta Ena"
    BLURB = (
        "Beat a rotating banker: get closer to 31 than the bank without going over; "
        "richer players may take the bank."
    )
    OPTIONS_MODEL = TriantaEnaOptions
    ACTION_KINDS = frozenset({"bet", "fold", "hit", "stand", "accept_bank", "decline_bank"})
    MIN_PLAYERS = 2
    STATS = TriantaEnaStats
    SIM_PLAYERS = 5

    # ----------------------------------------------------------------- the round

    def can_start(self) -> bool:
        banker = self.banker
        if self.in_hand or banker is None or self.bank.offers or self.stack(banker) <= 0:
            return False
        return any(self.stack(seat) >= self.min_bet for seat in self.players)

    def deal(self) -> None:
        """§1 step 1: one card face down to each player who can bet, the banker's face up."""
        banker = self.banker
        if banker is None:
            raise RuleError(ErrorCode.ILLEGAL_ACTION, "there is no banker")
        order = [seat for seat in self.players if self.stack(seat) >= self.min_bet]
        self.round = round_ = Round(banker=banker, order=order, hands={})
        self.log("round", banker=banker, players=order, bank=self.stack(banker))
        for seat in order:
            card = self._draw()
            round_.hands[seat] = PlayerHand(seat=seat, cards=[card])
            self.log("deal", seat=seat, private_to=[seat], card=card, up=False)
        up = self._draw()
        round_.banker_cards.append(up)
        self.log("deal", seat=banker, card=up, up=True)

    def _decide(self, seat: int, amount: int | None) -> None:
        """§1 step 2: a bet (or a fold); the window closes once every player has decided."""
        round_ = self._round()
        hand = round_.hands[seat]
        if amount is None:
            hand.status = FOLDED
            self.log("fold", seat=seat)
        else:
            hand.status, hand.bet = BET, amount
            self.log("bet", seat=seat, amount=amount)
        if not round_.with_status(DECIDING):
            self._close_betting(round_)

    def _close_betting(self, round_: Round) -> None:
        """Allot cover in seat order (§0 "Banks"), deal the bettors' cards, start the turns."""
        cover = self.stack(round_.banker)
        for seat in round_.with_status(BET):
            hand = round_.hands[seat]
            hand.stake = min(hand.bet, cover)
            if hand.stake == 0:
                hand.status = REFUSED
                hand.note = Coded(
                    "trianta-ena.stake_refused",
                    f"The bank has nothing left to cover a bet of {hand.bet}: no stake.",
                    bet=hand.bet,
                )
                self.log("stake_refused", seat=seat, bet=hand.bet)
                round_.messages.append(seat_note(seat, hand.note))
                continue
            if hand.stake < hand.bet:
                hand.note = Coded(
                    "trianta-ena.stake_cut",
                    f"Bet cut from {hand.bet} to {hand.stake}: the bank covers no more.",
                    bet=hand.bet,
                    stake=hand.stake,
                )
                self.log("stake_cut", seat=seat, bet=hand.bet, stake=hand.stake)
                round_.messages.append(seat_note(seat, hand.note))
            cover -= hand.stake
            hand.status = PLAYING
            self.pay(
                seat_account(seat),
                bets_account(seat),
                hand.stake,
                Coded("trianta-ena.chips_stake_placed", "stake placed"),
            )
            self.log("stake", seat=seat, amount=hand.stake)
        staking = round_.with_status(PLAYING)
        if not staking:
            self._end_round(round_)
            return
        for seat in staking:
            for _ in range(2):
                card = self._draw()
                round_.hands[seat].cards.append(card)
                self.log("deal", seat=seat, card=card, up=True)
        hole = self._draw()
        round_.banker_cards.append(hole)
        self.log("deal", seat=round_.banker, private_to=[], card=hole, up=False)
        round_.phase = "playing"
        self._next_turn(round_)

    def on_31(self, hand: PlayerHand) -> bool:
        """A player who reaches 31 stands (§1.5): ``stand`` is all they may do. Only they
        know it (their ``legal``, their own view): the table sees a stand like any other once
        they send it, since their 31 rests on their face-down card (§0.8, Decision)."""
        return value(hand.cards, self.ace_rule) == 31

    def _next_turn(self, round_: Round) -> None:
        """The first player in seat order still to decide, else the banker plays."""
        waiting = round_.with_status(PLAYING)
        round_.turn = waiting[0] if waiting else None
        if round_.turn is None:
            self._banker_plays(round_)

    def _hit(self, seat: int) -> None:
        """§1 step 4: one more card face up; over 31 loses the stake at once."""
        round_ = self._round()
        hand = round_.hands[seat]
        card = self._draw()
        hand.cards.append(card)
        self.log("hit", seat=seat, card=card)
        if value(hand.cards, self.ace_rule) is None:
            hand.shown = True
            self.log("bust", seat=seat, value=lowest_total(hand.cards, self.ace_rule))
            self.log("show", seat=seat, card=hand.cards[0])
            self._lose(round_, hand, "bust")
        self._next_turn(round_)

    def _stand(self, seat: int) -> None:
        round_ = self._round()
        round_.hands[seat].status = STOOD
        self.log("stand", seat=seat)
        self._next_turn(round_)

    def _banker_plays(self, round_: Round) -> None:
        """§1 step 5: turn the face-down card and draw to ``dealer_stands_on``, no choices."""
        round_.hole_shown = True
        self.log("show", seat=round_.banker, card=round_.banker_cards[1])
        standing = round_.with_status(STOOD)
        if standing:
            stands_on = int(self.options["dealer_stands_on"])
            while banker_draws(round_.banker_cards, self.ace_rule, stands_on):
                card = self._draw()
                round_.banker_cards.append(card)
                self.log("banker_draw", seat=round_.banker, card=card)
            worth = value(round_.banker_cards, self.ace_rule)
            shown = lowest_total(round_.banker_cards, self.ace_rule) if worth is None else worth
            kind = "banker_bust" if worth is None else "banker_stands"
            natural = is_natural(round_.banker_cards, self.natural_cards)
            self.log(kind, seat=round_.banker, value=shown, natural=natural)
        for seat in standing:
            self._settle(round_, round_.hands[seat])
        self._end_round(round_)

    def _settle(self, round_: Round, hand: PlayerHand) -> None:
        """§1 step 6 for one standing bet, at even money."""
        hand.shown = True
        self.log("show", seat=hand.seat, card=hand.cards[0])
        outcome = settle(hand.cards, round_.banker_cards, self.ace_rule, self.natural_cards)
        if not outcome.won:
            self._lose(round_, hand, outcome.reason)
            return
        hand.status = WON
        hand.note = Coded(
            "trianta-ena.won",
            f"Won {hand.stake} ({outcome.reason}).",
            stake=hand.stake,
            reason=outcome.reason,
        )
        player = seat_account(hand.seat)
        self.pay(
            bets_account(hand.seat),
            player,
            hand.stake,
            Coded("trianta-ena.chips_stake_returned", "stake returned"),
        )
        reason = (
            Coded("trianta-ena.chips_natural_paid", "natural paid")
            if outcome.reason == "natural"
            else Coded("trianta-ena.chips_bet_won", "bet won")
        )
        self.pay(seat_account(round_.banker), player, hand.stake, reason)
        self.log("settle", seat=hand.seat, result="won", reason=outcome.reason, amount=hand.stake)

    def _lose(self, round_: Round, hand: PlayerHand, why: str) -> None:
        hand.status = BUST if why == "bust" else LOST
        hand.note = Coded(
            "trianta-ena.lost", f"Lost {hand.stake} ({why}).", stake=hand.stake, reason=why
        )
        banker = seat_account(round_.banker)
        self.pay(
            bets_account(hand.seat),
            banker,
            hand.stake,
            Coded("trianta-ena.chips_stake_lost", f"stake lost ({why})", reason=why),
        )
        self.log("settle", seat=hand.seat, result="lost", reason=why, amount=hand.stake)

    def _end_round(self, round_: Round) -> None:
        """§1 step 7, then the bank changes hands (or ends, when it is empty)."""
        round_.phase, round_.turn = "settled", None
        self.discard.extend(round_.cards_in_play())
        account = seat_account(round_.banker)
        result = sum(t.amount for t in self.transfers if t.target == account) - sum(
            t.amount for t in self.transfers if t.source == account
        )
        bank = self.stack(round_.banker)
        self.log("round_end", bank=bank, bank_result=result)
        if bank == 0:
            self.log("bank_ended", seat=round_.banker, reason="broke")
            self.bank.end(self._stacks())
        else:
            self.bank.offer_after_round(self._stacks(), bank)
        self._log_offer()
        self.end_hand(summary(round_, result, self.ace_rule, self.natural_cards))

    def _round(self) -> Round:
        if self.round is None:
            raise RuleError(ErrorCode.ILLEGAL_ACTION, "no round is being played")
        return self.round

    def _answer_offer(self, seat: int, accept: bool) -> None:
        """The offered player takes the bank (swapping places with the old banker) or not."""
        if accept:
            old = self.bank.install(seat)
            places = {str(s): self.bank.places[s] for s in self.seated}
            self.log("bank_accepted", seat=seat, old_banker=old, places=places)
        else:
            self.log("bank_declined", seat=seat)
            self.bank.decline(self._stacks())
            self._log_offer()

    # ----------------------------------------------------------------- decisions

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        if seat is None or seat_account(seat) not in self.balances:
            return []
        if not self.in_hand:
            if self.bank.offered == seat:
                return [legal("accept_bank"), legal("decline_bank")]
            return []
        round_ = self._round()
        hand = round_.hands.get(seat)
        if hand is None:
            return []
        if round_.phase == "betting" and hand.status == DECIDING:
            high = self.stack(seat)
            if self.options["max_bet"] is not None:
                high = min(high, int(self.options["max_bet"]))
            return [legal("bet", amount=amount_range(self.min_bet, high)), legal("fold")]
        if round_.phase == "playing" and round_.turn == seat:
            return [legal("stand")] if self.on_31(hand) else [legal("hit"), legal("stand")]
        return []

    def to_act(self) -> set[int]:
        if not self.in_hand:
            return set() if self.bank.offered is None else {self.bank.offered}
        round_ = self._round()
        if round_.phase == "betting":
            return set(round_.with_status(DECIDING))
        return set() if round_.turn is None else {round_.turn}

    def play(self, seat: int, action: Action) -> None:
        kind = action["kind"]
        if kind in ("bet", "fold"):
            self._decide(seat, action.get("amount"))
        elif kind == "hit":
            self._hit(seat)
        elif kind == "stand":
            self._stand(seat)
        else:
            self._answer_offer(seat, kind == "accept_bank")

    def timer(self) -> Timer | None:
        """The betting window, a player's turn (restarted after each hit), or a bank offer."""
        key: tuple[Any, ...]
        if not self.in_hand:
            if self.bank.offered is None:
                return None
            key = ("offer", self.bank.serial, self.bank.offered)
            return Timer(key, float(self.options["turn_seconds"]))
        round_ = self._round()
        if round_.phase == "betting":
            return Timer(("bet", self.hand_number), float(self.options["bet_seconds"]))
        if round_.turn is None:
            return None
        key = ("turn", self.hand_number, round_.turn, len(round_.hands[round_.turn].cards))
        return Timer(key, float(self.options["turn_seconds"]))

    def default_action(self, seat: int) -> Action:
        """On timeout: fold in the window, stand on a turn, decline an offered bank (§1)."""
        if not self.in_hand:
            return {"kind": "decline_bank"}
        return {"kind": "fold" if self._round().phase == "betting" else "stand"}

    def bot_action(self, seat: int, rng: random.Random) -> Action:
        """Fold a low card against a strong up card, else stake by the face-down card; hit below
        a threshold set by the banker's up card; take the bank with a large stack
        (:mod:`app.games.trianta_ena.bot`)."""
        templates = {template["kind"]: template for template in self.legal_actions(seat)}
        if not templates:
            raise RuleError(ErrorCode.NOT_YOUR_TURN, "nothing to decide")
        if "accept_bank" in templates:
            take = takes_bank(self.stack(seat), self.buy_in, self.bank.vacant)
            return {"kind": "accept_bank" if take else "decline_bank"}
        round_ = self._round()
        up_card, hand = round_.banker_cards[0], round_.hands[seat]
        if "bet" in templates:
            if folds(hand.cards[0], up_card):
                return {"kind": "fold"}
            bounds = templates["bet"]["params"]["amount"]
            low, high = bounds["min"], bounds["max"]
            amount = bet_amount(hand.cards[0], up_card, self.stack(seat), low, high)
            return {"kind": "bet", "amount": amount}
        worth = value(hand.cards, self.ace_rule)
        hit = "hit" in templates and worth is not None and worth < hit_below(up_card)
        return {"kind": "hit" if hit else "stand"}

    # ----------------------------------------------------------------- what people see

    def phase(self) -> str:
        """``betting``/``playing`` in a round, else ``bank_offer``, ``no_banker``, ``waiting``."""
        if self.in_hand:
            return self._round().phase
        if self.bank.offered is not None:
            return "bank_offer"
        return "no_banker" if self.banker is None else "waiting"

    def view(self, seat: int | None) -> View:
        return table_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, View]:
        return table_views(self, seats)


GAME = TriantaEna
