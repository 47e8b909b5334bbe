"""En og tredive: a draw-and-discard 31 without a bank, played as a match of rounds
(RULES.md §5, seed 004).

Seats and directions (``en_og_tredive_table``): *left* is the next higher seat number among
the players still in the match, wrapping around; play and the deal move to the left, and the
player to the dealer's right cuts.

A *hand*, as the runtime records it, is one round. The match (who is still in, the dealer,
the cut for the first deal) carries from round to round and is in :meth:`snapshot`; the bets
in front of each player and the pot are the ``"bets:N"`` and ``"pot"`` balances. Between
rounds the cards are gathered: every round begins with a fresh shuffle of the 53 cards, unless
a test has stacked ``stock.cards`` beforehand.

Decisions (RULES.md leaves room):

* The cut for the first deal is dealt by the engine: each player in seat order takes the next
  card of a shuffled deck; the tied highest take another; then every card is gathered and the
  dealer shuffles for the first round.
* Dealing patterns: after a cut the dealer deals ``1-1-1`` (one card to each player, three
  times), ``2-1`` (two each, then one each) or ``1-2``; after a knock on the deck, ``3``.
* A player may discard every card they hold (seed 004 advises against it, but allows it), and
  may discard the card just taken.
* When a player is to draw and the stock is empty, every card of the discard pile but the top
  one is shuffled into a new stock; the top card stays as the discard pile.
* At a knock's end every hand of the round is shown (the values are compared); at a 31 or a
  coup d'état only the winning hand is shown.
* If a round's payments would put every remaining player out, nobody goes out: they pay what
  bets they have and stay in (with no bets left anywhere, play goes on to the next 31).
* Players in a match may not leave until it ends (or they are out): their bets are committed.
  Players who sit down during a match wait for the next one.
* A table closed for good during a match undoes it: each player of the match gets back their
  bets and what they paid into the pot (:meth:`EnOgTredive.release_all`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

from app.games.base import (
    TURN_SECONDS,
    Action,
    Game,
    LegalAction,
    RuleError,
    Timer,
    View,
    action_fits,
    amount_range,
    choice_option,
    int_option,
    legal,
    one_of,
    seat_account,
    subset_of,
)
from app.games.cards import SeedSource, Stock, csprng_seed
from app.games.en_og_tredive_bot import (
    choose_discards,
    default_discard,
    knock_threshold,
    wants_top_discard,
)
from app.games.en_og_tredive_hand import FULL_DECK, cut_rank, hand_value, is_coup_d_etat
from app.games.en_og_tredive_stats import EnOgTrediveStats
from app.games.en_og_tredive_table import (
    PACKETS,
    PATTERNS,
    Match,
    Round,
    bets_account,
    from_left_of,
    left_of,
    right_of,
)
from app.games.en_og_tredive_view import table_view, table_views


class EnOgTredive(Game):
    """En og tredive (RULES.md §5)."""

    id = "en-og-tredive"
    title = "En og tredive"
    OPTIONS = [
        int_option("bet_unit", 10, 1, 1_000_000, "Chips per bet (RULES.md §5)."),
        int_option("bets", 3, 1, 20, "Bets each player puts in front of them (RULES.md §5)."),
        int_option("knock_min", 21, 1, 31, "The least a hand must hold to knock (RULES.md §5)."),
        choice_option(
            "knock_penalty",
            "lowest",
            ("lowest", "under_knock_min"),
            "Who pays after a knock: the lowest hands (a knocker among them pays two), "
            "or every hand below knock_min (RULES.md §5, step 6).",
        ),
        TURN_SECONDS,
    ]
    ACTION_KINDS = frozenset({"cut", "knock_deck", "deal", "draw", "knock", "discard"})
    MIN_PLAYERS = 2
    STATS = EnOgTrediveStats
    SIM_PLAYERS = 4

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
        """Anyone not in the match being played may leave, even during a round."""
        return seat not in self.match.seats

    def on_leave(self, seat: int) -> None:
        if seat in self.match.out:
            self.match.out.remove(seat)

    def release_all(self) -> None:
        """The table closes for good during a match: the match is undone. Every player of it
        still seated gets back what they paid into the pot (their bets go back too, below);
        what players who have since left paid in is shared among those still in. Nobody who
        sat down after the match began gets any of the pot."""
        players = [s for s in self.seated if s in self.match.seats or s in self.match.out]
        for seat in players:
            paid = self.match_chips - self.balances.get(bets_account(seat), 0)
            amount = min(paid, self.balances.get("pot", 0))
            self.pay("pot", seat_account(seat), amount, "table closed")
        rest = self.balances.get("pot", 0)
        heirs = [s for s in players if s in self.match.seats] or players
        if rest and heirs:
            share, extra = divmod(rest, len(heirs))
            for i, seat in enumerate(heirs):
                amount = share + (1 if i < extra else 0)
                self.pay("pot", seat_account(seat), amount, "table closed")
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

    # ----------------------------------------------------------------- the deal

    def deal(self) -> None:
        """Start a round: a new match first when none is being played (RULES.md §5)."""
        self.round = None
        if self.match.seats:
            assert self.match.dealer is not None
            self.match.dealer = left_of(self.match.seats, self.match.dealer)
        else:
            self._start_match()
        assert self.match.dealer is not None
        self.match.rounds += 1
        seats = list(self.match.seats)
        dealer = self.match.dealer
        cutter = right_of(seats, dealer)
        self.round = Round(seats, dealer, cutter, {seat: [] for seat in seats}, actor=cutter)
        self.round.no_bets = not any(self.bets_left(seat) for seat in seats)
        self.log("round", match=self.match.number, round=self.match.rounds, dealer=dealer)
        if not self.stock.cards:
            self.shuffle_into(self.stock, list(FULL_DECK))

    def _start_match(self) -> None:
        """Step 1: each player puts their bets in front of them; step 2: the cut for the deal."""
        seats = self.ready_players()
        self.match = Match(number=self.match.number + 1, seats=seats)
        for seat in seats:
            self.pay(seat_account(seat), bets_account(seat), self.match_chips, "bets put up")
        self.log("match", number=self.match.number, seats=seats, bets=self.options["bets"])
        self._cut_for_deal()

    def _cut_for_deal(self) -> None:
        """Everyone cuts one card; highest deals (joker, A, K … 2); the tied highest cut again."""
        if not self.stock.cards:
            self.shuffle_into(self.stock, list(FULL_DECK))
        draws: dict[int, list[str]] = {seat: [] for seat in self.match.seats}
        cutting = list(self.match.seats)
        while len(cutting) > 1:
            for seat in cutting:
                if not self.stock.cards:
                    self.shuffle_into(self.stock, list(FULL_DECK))
                draws[seat].append(self.stock.draw())
                self.log("cut_for_deal", seat=seat, card=draws[seat][-1])
            best = max(cut_rank(draws[seat][-1]) for seat in cutting)
            cutting = [seat for seat in cutting if cut_rank(draws[seat][-1]) == best]
            if len(cutting) > 1:
                self.log("cut_tie", seats=cutting)
        dealer = cutting[0]
        self.match.dealer = dealer
        self.match.cut = {
            "draws": [{"seat": seat, "cards": cards} for seat, cards in draws.items()],
            "dealer": dealer,
        }
        self.log("first_dealer", seat=dealer)
        self.stock.cards = []  # the cards are gathered; the dealer shuffles for the round

    def _cut(self, seat: int, position: int) -> None:
        """The player to the dealer's right lifts ``position`` cards from the top and puts
        them under; the dealer then chooses how to deal."""
        r = self._round()
        self.stock.cards = self.stock.cards[position:] + self.stock.cards[:position]
        r.deck_cut = position
        r.phase, r.actor = "deal", r.dealer
        self.log("cut", seat=seat, position=position)

    def _deal(self, pattern: str) -> None:
        """Three cards to each player from the dealer's left in the pattern's packets, then
        the next card turned up starts the discard pile; play starts at the dealer's left."""
        r = self._round()
        r.pattern = pattern
        order = from_left_of(r.seats, r.dealer)
        for packet in PACKETS[pattern]:
            for seat in order:
                r.hands[seat].extend(self.stock.draw() for _ in range(packet))
        self.log("deal", seat=r.dealer, pattern=pattern)
        for seat in order:
            self.log("dealt", seat=seat, private_to=[seat], cards=list(r.hands[seat]))
        r.pile.append(self.stock.draw())
        self.log("turn_up", card=r.pile[-1])
        self._begin_turn(order[0])

    # ----------------------------------------------------------------- turns

    def _round(self) -> Round:
        assert self.round is not None
        return self.round

    def _begin_turn(self, seat: int) -> None:
        """A player's turn: draw or knock. A 31 or coup d'état dealt is shown at the holder's
        first turn instead (RULES.md §5, step 5); an empty stock is remade first (step 8)."""
        r = self._round()
        r.phase, r.actor, r.drawn = "draw", seat, None
        if seat not in r.had_turn and self._wins_with(seat, dealt=True):
            return
        if not self.stock.cards:
            top = r.pile.pop()
            self.shuffle_into(self.stock, r.pile)
            r.pile = [top]
            r.restocks += 1
            self.log("restock", cards=len(self.stock))

    def _draw(self, seat: int, source: str) -> None:
        """Take the top card of the stock (seen by the taker only) or of the discard pile."""
        r = self._round()
        if source == "stock":
            card = self.stock.draw()
            self.log("draw", seat=seat, private_to=[seat], source=source, card=card)
        else:
            card = r.pile.pop()
            self.log("draw", seat=seat, source=source, card=card)
        r.hands[seat].append(card)
        r.phase, r.drawn = "discard", card

    def _discard(self, seat: int, cards: list[str]) -> None:
        """Discard all at once, the last on top; then a coup d'état or 31 ends the round."""
        r = self._round()
        for card in cards:
            r.hands[seat].remove(card)
        r.pile.extend(cards)
        r.turns += 1
        self.log("discard", seat=seat, cards=list(cards), holding=len(r.hands[seat]))
        if not self._wins_with(seat, dealt=False):
            r.had_turn.add(seat)
            self._next_turn(seat)

    def _knock(self, seat: int) -> None:
        """Step 6: every other player has one more turn, from the knocker's left."""
        r = self._round()
        r.knocker = seat
        r.had_turn.add(seat)
        r.final_turns = [s for s in from_left_of(r.seats, seat) if s != seat]
        self.log("knock", seat=seat)
        self._next_turn(seat)

    def _next_turn(self, seat: int) -> None:
        r = self._round()
        if r.knocker is None:
            self._begin_turn(left_of(r.seats, seat))
        elif r.final_turns:
            self._begin_turn(r.final_turns.pop(0))
        else:
            self._settle_knock()

    def may_knock(self, seat: int) -> bool:
        """Step 6 and 7: at least ``knock_min``, everyone has had a turn, nobody has knocked,
        and somebody still in has a bet left."""
        r = self._round()
        return (
            r.knocker is None
            and set(r.seats) <= r.had_turn
            and hand_value(r.hands[seat]) >= self.options["knock_min"]
            and not r.no_bets
        )

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
            r.result = f"Seat {seat} shows 31"
            owed = {s: 1 for s in r.seats if s != seat}
            self._settle(owed, ending="31", winner=seat, dealt=dealt)
            return True
        return False

    def _coup_d_etat(self, seat: int, *, dealt: bool) -> None:
        """The pot and every bet still in front of any player go to the holder."""
        r = self._round()
        self.pay("pot", seat_account(seat), self.balances.get("pot", 0), "pot won by coup d'état")
        for account in sorted(a for a in self.balances if a.startswith("bets:")):
            reason = "bets returned" if account == bets_account(seat) else "bets won by coup d'état"
            self.pay(account, seat_account(seat), self.balances[account], reason)
        self.log("match_won", seat=seat, how="coup_d_etat")
        out = [s for s in self.match.seats if s != seat]
        self.match.out.extend(out)
        self.match.seats = []
        r.result = f"Seat {seat} wins the match with a coup d'état"
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
        r.result = f"Seat {r.knocker} knocked"
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
                self.pay(bets_account(seat), "pot", self.bet_unit, "bet paid")
                self.log("bet_paid", seat=seat)
        out = [] if spare else sorted(short)
        for seat in out:
            self.match.seats.remove(seat)
            self.match.out.append(seat)
            self.log("out", seat=seat)
        r = self._round()
        # What was paid, not what was owed: a player short of bets pays what they have.
        r.result += "".join(f"; seat {s} pays {paid[s]}" for s in sorted(paid) if paid[s])
        r.result += "".join(f"; seat {seat} is out" for seat in out)
        r.result += "".join(
            f"; seat {seat} has no bet left" for seat in sorted(short) if seat not in out
        )
        match_winner = None
        if len(self.match.seats) == 1:
            (match_winner,) = self.match.seats
            self.pay("pot", seat_account(match_winner), self.balances.get("pot", 0), "pot won")
            own = self.balances.get(bets_account(match_winner), 0)
            self.pay(bets_account(match_winner), seat_account(match_winner), own, "bets returned")
            self.log("match_won", seat=match_winner, how="last_in")
            self.match.seats = []
            r.result += f"; seat {match_winner} wins the match"
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

    # ----------------------------------------------------------------- decisions

    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        r = self.round
        if seat is None or not self.in_hand or r is None or r.actor != seat:
            return []
        if r.phase == "cut":
            return [
                legal("cut", position=amount_range(1, len(self.stock) - 1)),
                legal("knock_deck"),
            ]
        if r.phase == "deal":
            return [legal("deal", pattern=one_of(list(PATTERNS)))]
        if r.phase == "draw":
            sources = ["stock", "discard"] if r.pile else ["stock"]
            actions = [legal("draw", source=one_of(sources))]
            if self.may_knock(seat):
                actions.append(legal("knock"))
            return actions
        hand = r.hands[seat]
        return [legal("discard", cards=subset_of(hand, 1 if len(hand) >= 4 else 0, len(hand)))]

    def apply(self, seat: int, action: Action) -> None:
        if not action_fits(action, self.legal_actions(seat)):
            raise RuleError("illegal_action", "that is not something you may do now")
        r = self._round()
        r.decision += 1
        kind = action["kind"]
        if kind == "cut":
            self._cut(seat, action["position"])
        elif kind == "knock_deck":
            self.log("knock_deck", seat=seat)
            self._deal("3")
        elif kind == "deal":
            self._deal(action["pattern"])
        elif kind == "draw":
            self._draw(seat, action["source"])
        elif kind == "knock":
            self._knock(seat)
        else:
            self._discard(seat, action["cards"])

    def to_act(self) -> set[int]:
        r = self.round
        if not self.in_hand or r is None or r.actor is None:
            return set()
        return {r.actor}

    def timer(self) -> Timer | None:
        r = self.round
        if not self.in_hand or r is None or r.actor is None:
            return None
        return Timer((self.id, self.hand_number, r.decision), self.options["turn_seconds"])

    def default_action(self, seat: int) -> Action:
        """Accept the deck uncut; deal one at a time; take from the stock; discard the card
        that leaves the best hand (RULES.md §5, step 4)."""
        r = self._round()
        if r.phase == "cut":
            return {"kind": "knock_deck"}
        if r.phase == "deal":
            return {"kind": "deal", "pattern": PATTERNS[0]}
        if r.phase == "draw":
            return {"kind": "draw", "source": "stock"}
        return {"kind": "discard", "cards": default_discard(r.hands[seat])}

    def timeout_actions(self) -> list[tuple[int, Action]]:
        """A timed-out turn is played whole: take from the stock, then discard the card that
        leaves the best hand (the engine knows the card the draw will take)."""
        r = self.round
        if r is None or r.actor is None or r.phase != "draw":
            return super().timeout_actions()
        seat = r.actor
        discard = default_discard([*r.hands[seat], self.stock.cards[0]])
        return [(seat, self.default_action(seat)), (seat, {"kind": "discard", "cards": discard})]

    def bot_action(self, seat: int, rng: random.Random) -> Action:
        """Cut anywhere; keep a suit; take the top discard when it helps; knock on a good hand;
        hide a dangerous discard under another; go for three aces (``en_og_tredive_bot``)."""
        r = self._round()
        if r.phase == "cut":
            if rng.random() < 0.2:
                return {"kind": "knock_deck"}
            quarter = len(self.stock) // 4
            return {"kind": "cut", "position": rng.randint(quarter, len(self.stock) - quarter)}
        if r.phase == "deal":
            return {"kind": "deal", "pattern": rng.choice(PATTERNS)}
        hand = r.hands[seat]
        if r.phase == "draw":
            orbits = r.turns // len(r.seats)
            threshold = knock_threshold(
                self.options["knock_min"], self.options["knock_penalty"], orbits
            )
            if self.may_knock(seat) and hand_value(hand) >= threshold:
                return {"kind": "knock"}
            top = r.pile[-1] if r.pile else None
            return {
                "kind": "draw",
                "source": "discard" if wants_top_discard(hand, top) else "stock",
            }
        following = self._following(seat)
        next_must_discard = following is not None and len(r.hands[following]) >= 3
        return {"kind": "discard", "cards": choose_discards(hand, next_must_discard)}

    def _following(self, seat: int) -> int | None:
        """Who plays after ``seat`` this round, if anyone."""
        r = self._round()
        if r.knocker is None:
            return left_of(r.seats, seat)
        return r.final_turns[0] if r.final_turns else None

    def view(self, seat: int | None) -> View:
        return table_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, View]:
        return table_views(self, seats)

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


GAME = EnOgTredive
