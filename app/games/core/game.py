"""The interface every game engine implements, and the pieces they share.

A game engine is a pure state machine (docs/architecture.md): no asyncio, database, clock or JSON
encoding. The table runtime (``app/runtime``) owns the seats' players, the sockets, the
timers and persistence; the engine owns the rules. The runtime talks to an engine only
through the methods of :class:`Game`:

* the roster: :meth:`Game.sit`, :meth:`Game.can_leave`, :meth:`Game.leave`;
* the hand: :meth:`Game.can_start`, :meth:`Game.start_hand`, :attr:`Game.in_hand`;
* decisions: :meth:`Game.legal_actions` (exact, see :func:`action_fits`), :meth:`Game.apply`
  (which checks an action against them, then calls the game's :meth:`Game.play`),
  :meth:`Game.timer`, :meth:`Game.timeout_actions`, :meth:`Game.bot_action`;
* what people see: :meth:`Game.view` (the single place where hidden cards are filtered);
* what is stored: the hand's log (:meth:`Game.take_log`), its chip movements
  (:class:`Transfer`, collected in :attr:`Game.transfers`), the shuffles it made, and the
  between-hands state (:meth:`Game.snapshot` / :meth:`Game.restore`) that lets the runtime
  recover a table after a crash and replay a hand from its record.

Money inside an engine: every chip lives in an *account*: ``"seat:N"`` (the table stack of the
player in seat N), ``"pot"``, ``"bets:N"`` (En og tredive's bets in front of a player) and
``"house"`` (Trente et Quarante's bank, held outside the table). :meth:`Game.pay` is the only
way chips move; it refuses to make a balance negative and records a :class:`Transfer`, which
the runtime writes to the ledger in the transaction that records the hand (docs/rules.md §0.5).
"""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Self, final

from app.games.core.actions import Action, LegalAction, action_fits, random_action
from app.games.core.cards import SeedSource, Shuffle, Stock, csprng_seed
from app.games.core.errors import ErrorCode, Refused, RuleError
from app.games.core.hand import CompletedHand, GameStats, Timer
from app.games.core.money import Transfer
from app.games.core.options import OptionSpec, TableOptions
from app.games.core.seats import Seats
from app.games.core.views import View


class Game(Seats):
    """A game's rules as a state machine. Subclasses are one module each in ``app/games``."""

    id: ClassVar[str]
    title: ClassVar[str]
    BLURB: ClassVar[str] = ""
    """What the game is, in a sentence, for the lobby (its list of games)."""
    OPTIONS_MODEL: ClassVar[type[TableOptions]]
    """The table options as a pydantic model (:mod:`app.games.core.options`)."""
    OPTIONS: ClassVar[list[OptionSpec]]
    """The options as ``GET /api/games`` lists them: derived once from ``OPTIONS_MODEL``
    (``OPTIONS_MODEL.specs()``) when a game class names its model, never written by hand."""
    ACTION_KINDS: ClassVar[frozenset[str]]
    """Every action kind this game ever offers; anything else is ``unknown_action``."""
    MIN_PLAYERS: ClassVar[int] = 2
    """Seated players (banker included) needed to deal a hand."""
    USES_HOUSE: ClassVar[bool] = False
    """True for a game banked by the house (:class:`app.games.core.house.HouseBanked`)."""
    STATS: ClassVar[type[GameStats]]
    """The simulation's counters for this game."""
    SIM_PLAYERS: ClassVar[int] = 4
    SIM_OPTIONS: ClassVar[dict[str, Any]] = {}
    """Table options the simulator uses unless told otherwise (``python -m app simulate``)."""
    """How many bots ``python -m app simulate`` seats by default."""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A class that names its ``OPTIONS_MODEL`` gets its ``OPTIONS`` from it."""
        super().__init_subclass__(**kwargs)
        if "OPTIONS_MODEL" in cls.__dict__:
            cls.OPTIONS = cls.OPTIONS_MODEL.specs()

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        self.options = self.OPTIONS_MODEL.check(options)
        self.seeds = seeds
        self.balances: dict[str, int] = {}
        self.in_hand = False
        self.hand_number = 0
        self.transfers: list[Transfer] = []
        self._log: list[dict[str, Any]] = []
        self._hand_log: list[dict[str, Any]] = []
        self._new_shuffles: list[Shuffle] = []
        self._retired_shuffles: list[Shuffle] = []
        self._completed: CompletedHand | None = None

    # ----------------------------------------------------------------- hands

    @abstractmethod
    def can_start(self) -> bool:
        """Can a new hand be dealt now (enough players with chips, no decision pending)?"""

    def start_hand(self) -> None:
        """Begin a hand: the runtime calls this when :meth:`can_start` is true."""
        if self.in_hand:
            raise RuleError(ErrorCode.ILLEGAL_ACTION, "a hand is already being played")
        self.in_hand = True
        self.hand_number += 1
        self.transfers = []
        # events logged between hands (a bank offer, a reshuffle after a void) open this hand
        self._completed = None
        self.deal()

    @abstractmethod
    def deal(self) -> None:
        """The game's own start of a hand (called by :meth:`start_hand`)."""

    def end_hand(self, summary: dict[str, Any] | None = None) -> None:
        """The game calls this when the last chip of the hand is settled."""
        self.in_hand = False
        self._completed = CompletedHand(
            transfers=self.transfers,
            log=self._hand_log,
            new_shuffles=self._new_shuffles,
            retired_shuffles=self._retired_shuffles,
            summary=summary or {},
        )
        self.transfers = []
        self._hand_log = []
        self._new_shuffles = []
        self._retired_shuffles = []

    def take_completed(self) -> CompletedHand | None:
        """The hand that just ended, once (None when no hand ended since the last call)."""
        done, self._completed = self._completed, None
        return done

    # ----------------------------------------------------------------- decisions

    @abstractmethod
    def legal_actions(self, seat: int | None) -> list[LegalAction]:
        """What the player in ``seat`` may do now, exactly (empty for a spectator)."""

    @final
    def apply(self, seat: int, action: Action, *, by_clock: bool = False) -> None:
        """Apply the action of the player in ``seat``: every action goes through here, a
        player's, a bot's, a timeout's default and a replayed one alike.

        The action is checked once, here, for every game (the runtime does not check it
        again): it must fit ``legal_actions(seat)`` exactly or, when the clock takes it
        (``by_clock``: a timeout's default, or a replayed one), be one of
        :meth:`clock_actions`. Anything else raises :class:`Refused` (:meth:`refusal`) and
        changes nothing; what fits goes to the game's handler, :meth:`play`.
        """
        if not action_fits(action, self.legal_actions(seat)) and not (
            by_clock and action_fits(action, self.clock_actions(seat))
        ):
            raise self.refusal(seat, action)
        self.play(seat, action)

    @abstractmethod
    def play(self, seat: int, action: Action) -> None:
        """The game's handler for an action :meth:`apply` has checked (it fits ``legal``)."""

    def clock_actions(self, seat: int) -> list[LegalAction]:
        """Templates of actions only the clock takes for ``seat`` (in no one's ``legal``, so no
        player may send them), which :meth:`apply` accepts from :meth:`timeout_actions` and
        from a replayed record. Default: none."""
        return []

    def refusal(self, seat: int, action: Action) -> Refused:
        """The error for an action that fits neither ``legal`` nor :meth:`clock_actions`: an
        unknown kind, a seat whose turn it is not, or an action outside what it may do now."""
        kind = action.get("kind") if isinstance(action, dict) else None
        if not isinstance(kind, str) or kind not in self.ACTION_KINDS:
            return Refused(ErrorCode.UNKNOWN_ACTION, f"{self.title} has no action {kind!r}")
        if seat not in self.to_act() and not self.legal_actions(seat):
            return Refused(ErrorCode.NOT_YOUR_TURN, "it is not your turn")
        return Refused(ErrorCode.ILLEGAL_ACTION, f"seat {seat} may not {kind!r} like that now")

    @abstractmethod
    def to_act(self) -> set[int]:
        """Seats whose decision the table is waiting for (a bet window waits for several)."""

    @abstractmethod
    def timer(self) -> Timer | None:
        """The clock for the decision(s) the table waits for, or None."""

    @abstractmethod
    def default_action(self, seat: int) -> Action:
        """The action docs/rules.md names for ``seat`` when its timer runs out."""

    def timeout_actions(self) -> list[tuple[int, Action]]:
        """Actions to apply, in order, when :meth:`timer` runs out."""
        return [(seat, self.default_action(seat)) for seat in sorted(self.to_act())]

    def bot_action(self, seat: int, rng: random.Random) -> Action:
        """The game's bot strategy; default: a uniformly random legal action."""
        return random_action(self.legal_actions(seat), rng)

    # ----------------------------------------------------------------- views and log

    @abstractmethod
    def view(self, seat: int | None) -> View:
        """The table as the player in ``seat`` (None: a spectator) may see it.

        Must contain ``phase`` and ``seats`` (docs/protocol.md §6); the runtime adds
        ``table_id``, ``game``, ``hand_id``, ``you``, ``legal`` and ``deadline``, and each
        seat's ``player_id``, ``name`` and ``connected``. A card the viewer may not see is
        ``{"card": None, "up": False}`` (use :func:`card_view`).
        """

    def views(self, seats: Iterable[int | None]) -> dict[int | None, View]:
        """:meth:`view` for each of ``seats`` at once (one broadcast): equal, view for view,
        to :meth:`view`, but a game whose viewers see most of the table alike builds that
        part once and only each viewer's own part per viewer.

        Each view is a dict of its own, but views may share what is nested in them (their
        ``seats`` entries): the runtime only adds to a seat entry what is the same for every
        viewer, and encodes the views before anything changes.
        """
        return {seat: self.view(seat) for seat in seats}

    def log(
        self,
        kind: str,
        *,
        seat: int | None = None,
        private_to: list[int] | None = None,
        **data: Any,
    ) -> None:
        """Record an event of the hand. ``private_to`` lists the seats entitled to its cards
        (None: public); the history shows other viewers the event with cards as null."""
        entry: dict[str, Any] = {"kind": kind}
        if seat is not None:
            entry["seat"] = seat
        if private_to is not None:
            entry["private_to"] = sorted(private_to)
        entry.update(data)
        self._log.append(entry)
        self._hand_log.append(entry)

    @property
    def completed_pending(self) -> CompletedHand | None:
        """The hand that has just ended and not been taken yet (:meth:`take_completed`)."""
        return self._completed

    def take_log(self) -> list[dict[str, Any]]:
        """Events since the last call (the runtime stamps them with the time)."""
        out, self._log = self._log, []
        return out

    # ----------------------------------------------------------------- shuffles

    def shuffle_into(self, stock: Stock, cards: list[str]) -> None:
        """Shuffle ``cards`` into ``stock`` with a fresh seed, publishing the commitment."""
        if stock.shuffle is not None:
            self._retired_shuffles.append(stock.shuffle)
        shuffle = Shuffle.of(cards, self.seeds())
        stock.cards = list(shuffle.order)
        stock.shuffle = shuffle
        self._new_shuffles.append(shuffle)
        self.log("shuffle", commit=shuffle.commit, cards=len(cards))

    # ----------------------------------------------------------------- persistence

    @classmethod
    def rebuild(
        cls,
        options: Mapping[str, Any],
        *,
        seeds: SeedSource,
        stacks: Iterable[tuple[int, int]],
        accounts: Mapping[str, int],
        state: dict[str, Any] | None,
        hand_number: int,
        reconcile: bool = False,
        seated_then: Iterable[int] | None = None,
    ) -> Self:
        """The one way to restore an engine from what was stored between hands: at start-up
        (recovery), after a void hand, and to replay a hand from its record.

        ``stacks`` seats each player, in the order given, with their table stack; ``accounts``
        puts back every other account (a pot, bets in front of a player, stakes in prison);
        ``state`` (:meth:`snapshot` data; none or empty: a table that never stored one) is
        restored, then, with ``reconcile``, brought up to the seats taken now
        (:meth:`reconcile_seats` with ``seated_then``). The engine numbers its next hand after
        ``hand_number`` (or after the state's own number, if that is later). Nothing it did on
        the way is left in its log, transfers or completed hand.
        """
        engine = cls(dict(options), seeds=seeds)
        for seat, stack in stacks:
            engine.sit(seat, stack)
        for account, amount in accounts.items():
            engine.balances[account] = amount
        if state:
            engine.restore(state)
            if reconcile:
                engine.reconcile_seats(seated_then)
        engine.hand_number = max(engine.hand_number, hand_number)
        engine.transfers = []
        engine.take_log()
        engine.take_completed()
        return engine

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The between-hands state as JSON-ready data (stocks, dealer, prison, match...).

        Balances are not included: the runtime restores them from the ledger. Called only
        between hands; it must be enough for :meth:`restore` to continue the table.
        """

    @abstractmethod
    def restore(self, data: dict[str, Any]) -> None:
        """Continue from :meth:`snapshot` data (seats are already seated with their stacks)."""

    def seats_named(self) -> set[int]:
        """Seats the between-hands state names (a banker, a queue of bank offers). Used to
        reconcile a state saved before the runtime stored its seats with the state (see
        :meth:`reconcile_seats`). Default: none."""
        return set()

    def reconcile_seats(self, seated_then: Iterable[int] | None) -> None:
        """After :meth:`restore`: bring the restored state up to the seats taken NOW.

        The state was saved when ``seated_then`` were seated (None: not known, the seats
        the state itself names are used). Between that save and a stop, players may have
        left or sat down; the ledger and the seats in the database are right, the state may
        not be. Each seat gone since is left (:meth:`on_leave`, as the rules say when a
        player leaves: a banker who left ends the bank), then each seat taken since is sat
        (:meth:`on_sit`), in seat order, as if they happened after the save."""
        now = set(self.seated)
        then = set(seated_then) if seated_then is not None else now | self.seats_named()
        for seat in sorted(then - now):
            self.on_leave(seat)
        for seat in sorted(now - then):
            self.on_sit(seat)

    def on_void(self) -> None:
        """Hook after a hand was voided and the table restored to the state before it:
        a game whose stock carries across hands reshuffles it here, because the void hand's
        cards were seen."""
