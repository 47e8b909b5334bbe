"""En og tredive: a draw-and-discard 31 without a bank, played as a match of rounds
(docs/rules.md §5).

Seats and directions (:mod:`app.games.core.seating`): *left* is the next higher seat number among
the players still in the match, wrapping around; play and the deal move to the left, and the
player to the dealer's right cuts.

A *hand*, as the runtime records it, is one round. The match (who is still in, the dealer,
the cut for the first deal) carries from round to round and is in :meth:`snapshot`; the bets
in front of each player and the pot are the ``"bets:N"`` and ``"pot"`` balances. Between
rounds the cards are gathered: every round begins with a fresh shuffle of the 53 cards, unless
a test has stacked ``stock.cards`` beforehand.

Decisions (docs/rules.md leaves room):

* The cut for the first deal is dealt by the engine: each player in seat order takes the next
  card of a shuffled deck; the tied highest take another; then every card is gathered and the
  dealer shuffles for the first round.
* Dealing patterns: after a cut the dealer deals ``1-1-1`` (one card to each player, three
  times), ``2-1`` (two each, then one each) or ``1-2``; after a knock on the deck, ``3``.
* A player may discard every card they hold (the source advises against it, but allows it), and
  may discard the card just taken.
* When a player is to draw and the stock is empty, every card of the discard pile but the top
  one is shuffled into a new stock; the top card stays as the discard pile.
* A coup d'état dealt (three aces, or two aces and the joker) wins the match at the deal,
  before anyone acts; a 31 dealt is shown at its holder's first turn, in turn, so a player
  earlier in turn who makes 31 ends the round first (docs/rules.md §5.7, two decisions).
* At a knock's end every hand of the round is shown (the values are compared); at a 31 or a
  coup d'état only the winning hand is shown.
* If a round's payments would put every remaining player out, nobody goes out: they pay what
  bets they have and stay in (with no bets left anywhere, play goes on to the next 31).
* A player of a match may leave between its rounds (docs/rules.md §5.12, a Decision): the
  bets still in front of them go to the pot, their stack goes home, and the match goes on
  without them (one player left wins it, as the last player in). Players who sit down during a
  match wait for the next one.
* A table closed for good during a match undoes it: each player of the match gets back their
  bets and what they paid into the pot (:meth:`EnOgTredive.release_all`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from app.games.core.accounts import bets_account, seat_account
from app.games.core.actions import (
    Action,
    LegalAction,
    amount_range,
    legal,
    one_of,
    subset_of,
)
from app.games.core.coded import Coded
from app.games.core.hand import Timer
from app.games.core.seating import left_of, leftward, right_of
from app.games.core.views import View
from app.games.en_og_tredive.bot import (
    choose_discards,
    default_discard,
    knock_threshold,
    wants_top_discard,
)
from app.games.en_og_tredive.options import EnOgTrediveOptions
from app.games.en_og_tredive.scoring import FULL_DECK, cut_rank, hand_value, is_coup_d_etat
from app.games.en_og_tredive.state import PACKETS, PATTERNS, Match, Round
from app.games.en_og_tredive.stats import EnOgTrediveStats
from app.games.en_og_tredive.table import EnOgTrediveTable
from app.games.en_og_tredive.view import table_view, table_views


class EnOgTredive(EnOgTrediveTable):
    """En og tredive (docs/rules.md §5)."""

    id = "en-og-tredive"
    title = "En og tredive"
    BLURB = (
        "A Danish draw-and-discard match: build 31 in one suit, knock, pay bets into the "
        "pot, and be the last one in."
    )
    OPTIONS_MODEL = EnOgTrediveOptions
    ACTION_KINDS = frozenset({"cut", "knock_deck", "deal", "draw", "knock", "discard"})
    MIN_PLAYERS = 2
    STATS = EnOgTrediveStats
    SIM_PLAYERS = 4

    # ----------------------------------------------------------------- the deal

    def deal(self) -> None:
        """Start a round: a new match first when none is being played (docs/rules.md §5)."""
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
            self.pay(
                seat_account(seat),
                bets_account(seat),
                self.match_chips,
                Coded("en-og-tredive.chips_bets_put_up", "bets put up"),
            )
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
        order = leftward(r.seats, r.dealer)
        for packet in PACKETS[pattern]:
            for seat in order:
                r.hands[seat].extend(self.stock.draw() for _ in range(packet))
        self.log("deal", seat=r.dealer, pattern=pattern)
        for seat in order:
            self.log("dealt", seat=seat, private_to=[seat], cards=list(r.hands[seat]))
        r.pile.append(self.stock.draw())
        self.log("turn_up", card=r.pile[-1])
        for seat in order:
            if is_coup_d_etat(r.hands[seat]):
                # A coup d'état dealt wins at the deal, before anyone acts: "the one rule that
                # supersedes all others" (docs/rules.md §5.7). Two cannot be dealt: the deck
                # holds only five of its cards (four aces and the joker).
                self._show(seat)
                self._coup_d_etat(seat, dealt=True)
                return
        self._begin_turn(order[0])

    # ----------------------------------------------------------------- turns

    def _begin_turn(self, seat: int) -> None:
        """A player's turn: draw or knock. A 31 dealt is shown at the holder's first turn
        instead, in turn like any 31 (docs/rules.md §5.7; a coup d'état dealt has already won at
        the deal); an empty stock is remade first (step 8)."""
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
        r.final_turns = [s for s in leftward(r.seats, seat) if s != seat]
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

    def play(self, seat: int, action: Action) -> None:
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
        that leaves the best hand (docs/rules.md §5.6)."""
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
        hide a dangerous discard under another; go for three aces (:mod:`.bot`)."""
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


GAME = EnOgTredive
