"""The En og tredive table: seats, money, the match carried between rounds, the end of a round
(who wins, who pays, who goes out) and what is stored (docs/rules.md §5).

:class:`app.games.en_og_tredive.engine.EnOgTredive` deals the rounds and plays their turns."""

from __future__ import annotations

from typing import Any

from app.games.core.accounts import POT, AccountKind, bets_account, parse_account, seat_account
from app.games.core.cards import SeedSource, Stock, csprng_seed
from app.games.core.coded import Coded
from app.games.core.game import Game
from app.games.core.seats import TABLE_CLOSED
from app.games.en_og_tredive.scoring import hand_value, is_coup_d_etat
from app.games.en_og_tredive.state import Match, Round


class EnOgTrediveTable(Game):
    """Seats, money, the match and the end of a round; the engine deals and plays the turns."""

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        super().__init__(options, seeds)
        self.stock = Stock()
        self.match = Match()
        self.round: Round | None = None

    @property
    def max_seats(self) -> int:
        return 8

    # ----------------------------------------------------------------- money and roster

    @property
    def bet_unit(self) -> int:
        return int(self.options["bet_unit"])

    @property
    def match_chips(self) -> int:
        """What a player puts in front of them at a match's start: ``bets`` × ``bet_unit``."""
        return int(self.options["bets"]) * self.bet_unit

    def bets_left(self, seat: int) -> int:
        """How many bets are still in front of the player in ``seat``."""
        return self.balances.get(bets_account(seat), 0) // self.bet_unit

    def buy_in_limits(self, seat: int | None = None) -> tuple[int, int]:
        """At least one match's bets; at most a hundred matches' worth."""
        return (self.match_chips, 100 * self.match_chips)

    def can_leave(self, seat: int) -> bool:
        """Anyone not in the match being played may leave, even during a round; a player of
        the match between its rounds, their bets left in the pot (docs/rules.md §5.12)."""
        return seat not in self.match.seats or not self.in_hand

    def leave_cost(self, seat: int) -> Coded | None:
        """What leaving costs the player in ``seat``, in words, while they are in a match
        with bets in front of them (docs/rules.md §5.12): those bets go to the pot."""
        if seat not in self.match.seats:
            return None
        chips = self.balances.get(bets_account(seat), 0)
        if not chips:
            return None
        bets = chips // self.bet_unit
        what = f"your {bets} remaining bet{'' if bets == 1 else 's'} ({chips} chips)"
        if self.in_hand:
            return Coded(
                "en-og-tredive.leave_after_round",
                f"Leaving puts {what} in the pot: you stand up when this round ends.",
                bets=bets,
                chips=chips,
            )
        return Coded(
            "en-og-tredive.leave_now",
            f"Leaving now puts {what} in the pot.",
            bets=bets,
            chips=chips,
        )

    def on_leave(self, seat: int) -> None:
        if seat in self.match.seats and not self.in_hand:
            self._leave_match(seat)
        if seat in self.match.out:
            self.match.out.remove(seat)

    def _leave_match(self, seat: int) -> None:
        """A player leaves the match between rounds (docs/rules.md §5.12, a Decision): the
        bets still in front of them go to the pot, their stack goes home (the runtime), and
        the match goes on without them; should one player be left, they win it as the last
        player in (§5.11): the pot and their own bets."""
        left = self.balances.get(bets_account(seat), 0)
        if left:
            self.pay(
                bets_account(seat),
                POT,
                left,
                Coded("en-og-tredive.chips_bets_left", "bets left in the pot"),
            )
        self.balances.pop(bets_account(seat), None)
        self.match.seats.remove(seat)
        self.log("left_match", seat=seat, bets=left // self.bet_unit, chips=left)
        if len(self.match.seats) == 1:
            (winner,) = self.match.seats
            pot = self.balances.get(POT, 0)
            if pot:
                self.pay(
                    POT, seat_account(winner), pot, Coded("en-og-tredive.chips_pot_won", "pot won")
                )
            own = self.balances.get(bets_account(winner), 0)
            if own:
                self.pay(
                    bets_account(winner),
                    seat_account(winner),
                    own,
                    Coded("en-og-tredive.chips_bets_returned", "bets returned"),
                )
            self.log("match_won", seat=winner, how="last_in")
            self.match.seats = []

    def release_all(self) -> None:
        """The table closes for good during a match: the match is undone. Every player of it
        still seated gets back what they paid into the pot (their bets go back too, below);
        what players who have since left paid in is shared among those still in. Nobody who
        sat down after the match began gets any of the pot."""
        players = [s for s in self.seated if s in self.match.seats or s in self.match.out]
        for seat in players:
            paid = self.match_chips - self.balances.get(bets_account(seat), 0)
            amount = min(paid, self.balances.get(POT, 0))
            self.pay(POT, seat_account(seat), amount, TABLE_CLOSED)
        rest = self.balances.get(POT, 0)
        heirs = [s for s in players if s in self.match.seats] or players
        if rest and heirs:
            share, extra = divmod(rest, len(heirs))
            for i, seat in enumerate(heirs):
                amount = share + (1 if i < extra else 0)
                self.pay(POT, seat_account(seat), amount, TABLE_CLOSED)
        super().release_all()

    def can_top_up(self, seat: int) -> bool:
        """Stacks are not at stake during a round, so top-ups wait only for its end."""
        return not self.in_hand

    def sim_rebuy(self, seat: int, stack: int) -> None:
        """A bot who cannot put up a match's bets buys back in between matches."""
        if (
            not self.in_hand
            and seat not in self.match.seats
            and self.stack(seat) < self.match_chips
        ):
            self.add_chips(seat, stack)

    def ready_players(self) -> list[int]:
        """Seated players who can put up a match's bets."""
        return [seat for seat in self.seated if self.stack(seat) >= self.match_chips]

    def can_start(self) -> bool:
        if self.in_hand:
            return False
        if self.match.seats:
            return True
        return len(self.ready_players()) >= self.MIN_PLAYERS

    def _round(self) -> Round:
        assert self.round is not None
        return self.round

    # ----------------------------------------------------------------- the round's end

    def _show(self, seat: int) -> None:
        r = self._round()
        r.shown.add(seat)
        hand = r.hands[seat]
        self.log("show", seat=seat, cards=list(hand), value=hand_value(hand))

    def _wins_with(self, seat: int, *, dealt: bool) -> bool:
        """A coup d'état wins the match; a 31 ends the round, every other player paying one
        bet (steps 5 and 7). True when the round ended."""
        r = self._round()
        hand = r.hands[seat]
        if is_coup_d_etat(hand):
            self._show(seat)
            self._coup_d_etat(seat, dealt=dealt)
            return True
        if hand_value(hand) == 31:
            self._show(seat)
            r.result = [Coded("en-og-tredive.shows_31", f"Seat {seat} shows 31", seat=seat)]
            owed = {s: 1 for s in r.seats if s != seat}
            self._settle(owed, ending="31", winner=seat, dealt=dealt)
            return True
        return False

    def _coup_d_etat(self, seat: int, *, dealt: bool) -> None:
        """The pot and every bet still in front of any player go to the holder."""
        r = self._round()
        self.pay(
            POT,
            seat_account(seat),
            self.balances.get(POT, 0),
            Coded("en-og-tredive.chips_pot_coup", "pot won by coup d'état"),
        )
        for account in sorted(a for a in self.balances if parse_account(a)[0] is AccountKind.BETS):
            reason = (
                Coded("en-og-tredive.chips_bets_returned", "bets returned")
                if account == bets_account(seat)
                else Coded("en-og-tredive.chips_bets_coup", "bets won by coup d'état")
            )
            self.pay(account, seat_account(seat), self.balances[account], reason)
        self.log("match_won", seat=seat, how="coup_d_etat")
        out = [s for s in self.match.seats if s != seat]
        self.match.out.extend(out)
        self.match.seats = []
        r.result = [
            Coded(
                "en-og-tredive.coup_d_etat",
                f"Seat {seat} wins the match with a coup d'état",
                seat=seat,
            )
        ]
        self._finish("coup_d_etat", winner=seat, owed=[], out=out, match_winner=seat, dealt=dealt)

    def _settle_knock(self) -> None:
        """Every hand is shown; with ``lowest`` the lowest hands pay one bet (a knocker among
        them two), with ``under_knock_min`` every hand below ``knock_min`` pays one."""
        r = self._round()
        for seat in r.seats:
            self._show(seat)
        values = {seat: hand_value(r.hands[seat]) for seat in r.seats}
        if self.options["knock_penalty"] == "lowest":
            low = min(values.values())
            owed = {s: 2 if s == r.knocker else 1 for s, value in values.items() if value == low}
        else:
            owed = {s: 1 for s, value in values.items() if value < self.options["knock_min"]}
        r.result = [Coded("en-og-tredive.knocked", f"Seat {r.knocker} knocked", seat=r.knocker)]
        self._settle(owed, ending="knock", winner=None, dealt=False)

    def _settle(
        self, owed: dict[int, int], *, ending: str, winner: int | None, dealt: bool
    ) -> None:
        """Pay the bets owed; a player who must pay with no bets left is out (step 7), unless
        that would leave nobody in. The last player in wins the pot and their own bets."""
        short = [seat for seat, bets in owed.items() if self.bets_left(seat) < bets]
        spare = len(short) == len(self.match.seats)
        paid = {seat: min(bets, self.bets_left(seat)) for seat, bets in owed.items()}
        for seat in sorted(owed):
            for _ in range(paid[seat]):
                self.pay(
                    bets_account(seat),
                    POT,
                    self.bet_unit,
                    Coded("en-og-tredive.chips_bet_paid", "bet paid"),
                )
                self.log("bet_paid", seat=seat)
        out = [] if spare else sorted(short)
        for seat in out:
            self.match.seats.remove(seat)
            self.match.out.append(seat)
            self.log("out", seat=seat)
        r = self._round()
        # What was paid, not what was owed: a player short of bets pays what they have.
        r.result += [
            Coded("en-og-tredive.pays", f"seat {s} pays {paid[s]}", seat=s, bets=paid[s])
            for s in sorted(paid)
            if paid[s]
        ]
        r.result += [Coded("en-og-tredive.out", f"seat {s} is out", seat=s) for s in out]
        r.result += [
            Coded("en-og-tredive.no_bet_left", f"seat {s} has no bet left", seat=s)
            for s in sorted(short)
            if s not in out
        ]
        match_winner = None
        if len(self.match.seats) == 1:
            (match_winner,) = self.match.seats
            self.pay(
                POT,
                seat_account(match_winner),
                self.balances.get(POT, 0),
                Coded("en-og-tredive.chips_pot_won", "pot won"),
            )
            own = self.balances.get(bets_account(match_winner), 0)
            self.pay(
                bets_account(match_winner),
                seat_account(match_winner),
                own,
                Coded("en-og-tredive.chips_bets_returned", "bets returned"),
            )
            self.log("match_won", seat=match_winner, how="last_in")
            self.match.seats = []
            r.result.append(
                Coded(
                    "en-og-tredive.wins_match",
                    f"seat {match_winner} wins the match",
                    seat=match_winner,
                )
            )
        self._finish(
            ending,
            winner=winner,
            owed=sorted(owed),
            out=out,
            match_winner=match_winner,
            dealt=dealt,
        )

    def _finish(
        self,
        ending: str,
        *,
        winner: int | None,
        owed: list[int],
        out: list[int],
        match_winner: int | None,
        dealt: bool,
    ) -> None:
        r = self._round()
        r.phase, r.actor = "over", None
        if self.stock.shuffle is not None:
            self._retired_shuffles.append(self.stock.shuffle)
        self.stock = Stock()
        self.log("round_end", ending=ending, winner=winner, owed=owed, out=out)
        self.end_hand(
            {
                "match": self.match.number,
                "round": self.match.rounds,
                "dealer": r.dealer,
                "ending": ending,
                "winner": winner,
                "knocker": r.knocker,
                "owed": owed,
                "out": out,
                "match_winner": match_winner,
                "turns": r.turns,
                "restocks": r.restocks,
                "dealt": dealt,
                "no_bets": r.no_bets,
            }
        )

    # ----------------------------------------------------------------- persistence

    def snapshot(self) -> dict[str, Any]:
        return {"match": self.match.to_json(), "stock": self.stock.to_json()}

    def restore(self, data: dict[str, Any]) -> None:
        self.match = Match(**data["match"])
        self.stock = Stock.from_json(data["stock"])
        self.round = None

    def on_void(self) -> None:
        """The void round's cards were seen: the next round shuffles afresh (it always does)."""
        self.stock = Stock()
        self.round = None
