"""The interface every game engine implements, and the pieces they share.

A game engine is a pure state machine (STYLE.md §1): no asyncio, database, clock or JSON
encoding. The table runtime (``app/runtime``) owns the seats' players, the sockets, the
timers and persistence; the engine owns the rules. The runtime talks to an engine only
through the methods of :class:`Game`:

* the roster: :meth:`Game.sit`, :meth:`Game.can_leave`, :meth:`Game.leave`;
* the hand: :meth:`Game.can_start`, :meth:`Game.start_hand`, :attr:`Game.in_hand`;
* decisions: :meth:`Game.legal_actions` (exact, see :func:`action_fits`), :meth:`Game.apply`,
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
the runtime writes to the ledger in the transaction that records the hand (RULES.md §0, "Money").
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from app.games.cards import SeedSource, Shuffle, Stock, csprng_seed

Action = dict[str, Any]
"""An action as sent by a client: ``{"kind": "bet", "amount": 50}``."""

LegalAction = dict[str, Any]
"""An action template: ``{"kind": "bet", "params": {"amount": {"min": 10, "max": 270}}}``."""

View = dict[str, Any]


# --------------------------------------------------------------------------- legal actions


def legal(kind: str, **params: dict[str, Any]) -> LegalAction:
    """Build an action template (PROTOCOL.md, "Legal actions")."""
    return {"kind": kind, "params": params}


def amount_range(low: int, high: int) -> dict[str, int]:
    """A whole number from ``low`` to ``high`` inclusive."""
    return {"min": low, "max": high}


def one_of(values: list[Any]) -> dict[str, list[Any]]:
    """One of these values."""
    return {"one_of": list(values)}


def subset_of(values: list[Any], low: int, high: int) -> dict[str, Any]:
    """A list of ``low`` to ``high`` distinct values from ``values``, in a chosen order."""
    return {"subset_of": list(values), "min": low, "max": high}


def _same(a: Any, b: Any) -> bool:
    """Equality that does not confuse ``True`` with ``1``."""
    return type(a) is type(b) and a == b


def param_fits(value: Any, spec: dict[str, Any]) -> bool:
    """Does one parameter's value satisfy its spec (PROTOCOL.md, \"Legal actions\")?"""
    if "one_of" in spec:
        return any(_same(value, option) for option in spec["one_of"])
    if "subset_of" in spec:
        if not isinstance(value, list) or not spec["min"] <= len(value) <= spec["max"]:
            return False
        pool = spec["subset_of"]
        for i, item in enumerate(value):
            if not any(_same(item, option) for option in pool):
                return False
            if any(_same(item, earlier) for earlier in value[:i]):
                return False
        return True
    return type(value) is int and spec["min"] <= value <= spec["max"]


def action_fits(action: Action, templates: list[LegalAction]) -> bool:
    """True when ``action`` fits one of ``templates`` exactly (PROTOCOL.md: exact both ways).

    The action must name a template's kind, give every parameter of that template and no
    other key, and each value must satisfy its parameter spec.
    """
    kind = action.get("kind")
    given = set(action) - {"kind"}
    for template in templates:
        if template["kind"] != kind:
            continue
        params: dict[str, Any] = template["params"]
        if given != set(params):
            continue
        if all(param_fits(action[name], spec) for name, spec in params.items()):
            return True
    return False


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionSpec:
    """One table option of a game (RULES.md lists them per game)."""

    name: str
    type: str  # "int", "bool" or "choice"
    default: Any
    description: str
    min: int | None = None
    max: int | None = None
    choices: tuple[Any, ...] = ()
    nullable: bool = False  # an int option that may be null (no limit)

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "description": self.description,
        }
        if self.type == "int":
            out["min"] = self.min
            out["max"] = self.max
            out["nullable"] = self.nullable
        if self.type == "choice":
            out["choices"] = list(self.choices)
        return out


class OptionError(ValueError):
    """A table option is unknown or out of range; ``field`` names it."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


def int_option(
    name: str,
    default: int | None,
    low: int,
    high: int,
    description: str,
    *,
    nullable: bool = False,
) -> OptionSpec:
    return OptionSpec(name, "int", default, description, min=low, max=high, nullable=nullable)


def bool_option(name: str, default: bool, description: str) -> OptionSpec:
    return OptionSpec(name, "bool", default, description)


def choice_option(
    name: str, default: Any, choices: tuple[Any, ...], description: str
) -> OptionSpec:
    return OptionSpec(name, "choice", default, description, choices=choices)


TURN_SECONDS = int_option("turn_seconds", 30, 1, 600, "Seconds for each decision (RULES.md §0).")
BET_SECONDS = int_option(
    "bet_seconds", 20, 1, 600, "Seconds of the simultaneous betting window (RULES.md §0)."
)


def parse_options(specs: list[OptionSpec], raw: dict[str, Any] | None) -> dict[str, Any]:
    """Check ``raw`` against ``specs`` and return every option's value in force.

    Unknown names and out-of-range values raise :class:`OptionError` naming the field.
    """
    raw = dict(raw or {})
    by_name = {spec.name: spec for spec in specs}
    for name in raw:
        if name not in by_name:
            raise OptionError(name, f"unknown option {name!r}")
    out: dict[str, Any] = {}
    for spec in specs:
        value = raw.get(spec.name, spec.default)
        if spec.type == "int":
            if value is None and spec.nullable:
                out[spec.name] = None
                continue
            if type(value) is not int:
                raise OptionError(spec.name, f"{spec.name} must be a whole number")
            assert spec.min is not None and spec.max is not None
            if not spec.min <= value <= spec.max:
                raise OptionError(spec.name, f"{spec.name} must be from {spec.min} to {spec.max}")
        elif spec.type == "bool":
            if type(value) is not bool:
                raise OptionError(spec.name, f"{spec.name} must be true or false")
        elif not any(_same(value, c) for c in spec.choices):
            allowed = ", ".join(str(c) for c in spec.choices)
            raise OptionError(spec.name, f"{spec.name} must be one of: {allowed}")
        out[spec.name] = value
    return out


# --------------------------------------------------------------------------- money and timers


@dataclass(frozen=True)
class Transfer:
    """One movement of whole chips between two accounts, with the reason in the game's words."""

    source: str
    target: str
    amount: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "from": self.source,
            "to": self.target,
            "amount": self.amount,
            "reason": self.reason,
        }


@dataclass(frozen=True)
class Timer:
    """The decision clock the runtime should run now.

    ``key`` identifies one decision (or one betting window): the runtime restarts the clock
    only when the key changes, so bets arriving inside a window do not extend it.
    """

    key: tuple[Any, ...]
    seconds: float


class RuleError(Exception):
    """Raised by an engine for an action the rules refuse (the runtime checks ``legal`` first,
    so this signals a defect or a roster call at the wrong moment)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def card_view(card: str, *, up: bool, visible: bool) -> dict[str, Any]:
    """A card as one viewer sees it (PROTOCOL.md, "The view")."""
    return {"card": card if (up or visible) else None, "up": up}


def views_with_own_seat(
    public: dict[str, Any],
    seated: Iterable[int],
    viewers: Iterable[int | None],
    own_seat: Callable[[int], dict[str, Any]],
) -> dict[int | None, dict[str, Any]]:
    """Views for several viewers from the table as a spectator sees it (``public``, built
    once): a seated viewer sees it too, but for their own seat's entry, ``own_seat(viewer)``
    (their face-down cards: RULES.md §0, hidden cards). Views share the other entries."""
    sitting = set(seated)
    out: dict[int | None, dict[str, Any]] = {}
    for viewer in viewers:
        view = dict(public)
        if viewer is not None and viewer in sitting:
            view["seats"] = [
                own_seat(viewer) if entry["seat"] == viewer else entry for entry in public["seats"]
            ]
        out[viewer] = view
    return out


def seat_account(seat: int) -> str:
    return f"seat:{seat}"


# --------------------------------------------------------------------------- the game


@dataclass
class CompletedHand:
    """What the runtime stores when a hand ends: its transfers, log, shuffles and result."""

    transfers: list[Transfer]
    log: list[dict[str, Any]]
    new_shuffles: list[Shuffle]
    retired_shuffles: list[Shuffle]
    void: bool = False
    summary: dict[str, Any] = field(default_factory=dict)


class GameStats(ABC):
    """What ``python -m app simulate GAME`` counts: fed every finished hand, then reported."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.options = options

    @abstractmethod
    def observe(self, hand: CompletedHand) -> None:
        """Count one finished hand (its log, transfers and summary)."""

    @abstractmethod
    def report(self) -> dict[str, Any]:
        """The figures, JSON-ready (``hands`` among them)."""


class Game(ABC):
    """A game's rules as a state machine. Subclasses are one module each in ``app/games``."""

    id: ClassVar[str]
    title: ClassVar[str]
    OPTIONS: ClassVar[list[OptionSpec]]
    ACTION_KINDS: ClassVar[frozenset[str]]
    """Every action kind this game ever offers; anything else is ``unknown_action``."""
    MIN_PLAYERS: ClassVar[int] = 2
    """Seated players (banker included) needed to deal a hand."""
    USES_HOUSE: ClassVar[bool] = False
    """True for a game banked by the house; the runtime then sets ``house_available``."""
    STATS: ClassVar[type[GameStats]]
    """The simulation's counters for this game."""
    SIM_PLAYERS: ClassVar[int] = 4
    SIM_OPTIONS: ClassVar[dict[str, Any]] = {}
    """Table options the simulator uses unless told otherwise (``python -m app simulate``)."""
    """How many bots ``python -m app simulate`` seats by default."""

    def __init__(self, options: dict[str, Any], seeds: SeedSource = csprng_seed) -> None:
        self.options = parse_options(self.OPTIONS, options)
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

    # ----------------------------------------------------------------- seats and money

    @property
    @abstractmethod
    def max_seats(self) -> int:
        """How many seats the table has (seat numbers are ``0 .. max_seats - 1``)."""

    @property
    def seated(self) -> list[int]:
        """Occupied seats in seat-number order."""
        return sorted(int(acct[5:]) for acct in self.balances if acct.startswith("seat:"))

    def stack(self, seat: int) -> int:
        return self.balances[seat_account(seat)]

    def sit(self, seat: int, stack: int) -> None:
        """Seat a player who brings ``stack`` chips (bought in by the runtime)."""
        if seat_account(seat) in self.balances:
            raise RuleError("seat_taken", "that seat is taken")
        if not 0 <= seat < self.max_seats:
            raise RuleError("bad_message", "no such seat")
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
            raise RuleError("illegal_action", "you cannot leave in the middle of a hand")
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

    @property
    def table_over(self) -> str | None:
        """A message when the table has ended for good (Greek 31 table stakes), else None."""
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
            kind, _, seat = account.partition(":")
            amount = self.balances[account]
            if kind != "seat" and seat and amount:
                target = seat_account(int(seat))
                if target not in self.balances:
                    self.balances[target] = 0
                self.pay(account, target, amount, "table closed")
        for account in sorted(self.balances):
            if ":" in account or not self.balances[account]:
                continue
            seats = self.seated
            amount = self.balances[account]
            if not seats:
                continue
            share, extra = divmod(amount, len(seats))
            for i, seated in enumerate(seats):
                self.pay(
                    account, seat_account(seated), share + (1 if i < extra else 0), "table closed"
                )

    def pay(self, source: str, target: str, amount: int, reason: str) -> None:
        """Move ``amount`` chips from one account to another, recording the transfer.

        Every chip that moves in a hand goes through here (RULES.md §0, "Money"). The house
        (``"house"``) is held outside the table; the runtime checks its cover.
        """
        if amount < 0 or type(amount) is not int:
            raise ValueError(f"a transfer is a whole, positive number of chips: {amount!r}")
        if amount == 0:
            return
        if source != "house":
            have = self.balances.get(source, 0)
            if have < amount:
                raise ValueError(f"{source} holds {have}, cannot pay {amount} ({reason})")
            self.balances[source] = have - amount
        if target != "house":
            self.balances[target] = self.balances.get(target, 0) + amount
        self.transfers.append(Transfer(source, target, amount, reason))

    # ----------------------------------------------------------------- hands

    @abstractmethod
    def can_start(self) -> bool:
        """Can a new hand be dealt now (enough players with chips, no decision pending)?"""

    def start_hand(self) -> None:
        """Begin a hand: the runtime calls this when :meth:`can_start` is true."""
        if self.in_hand:
            raise RuleError("illegal_action", "a hand is already being played")
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

    @abstractmethod
    def apply(self, seat: int, action: Action) -> None:
        """Apply an action that fits ``legal_actions(seat)`` (the runtime has checked)."""

    @abstractmethod
    def to_act(self) -> set[int]:
        """Seats whose decision the table is waiting for (a bet window waits for several)."""

    @abstractmethod
    def timer(self) -> Timer | None:
        """The clock for the decision(s) the table waits for, or None."""

    @abstractmethod
    def default_action(self, seat: int) -> Action:
        """The action RULES.md names for ``seat`` when its timer runs out."""

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

        Must contain ``phase`` and ``seats`` (PROTOCOL.md, "The view"); the runtime adds
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

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The between-hands state as JSON-ready data (stocks, dealer, prison, match...).

        Balances are not included: the runtime restores them from the ledger. Called only
        between hands; it must be enough for :meth:`restore` to continue the table.
        """

    @abstractmethod
    def restore(self, data: dict[str, Any]) -> None:
        """Continue from :meth:`snapshot` data (seats are already seated with their stacks)."""

    def on_void(self) -> None:  # noqa: B027 - optional hook
        """Hook after a hand was voided and the table restored to the state before it:
        a game whose stock carries across hands reshuffles it here, because the void hand's
        cards were seen."""


def random_action(templates: list[LegalAction], rng: random.Random) -> Action:
    """A uniformly random action fitting one of ``templates`` (for bots and property tests)."""
    if not templates:
        raise ValueError("no legal action")
    template = rng.choice(templates)
    action: Action = {"kind": template["kind"]}
    for name, spec in template["params"].items():
        if "one_of" in spec:
            action[name] = rng.choice(spec["one_of"])
        elif "subset_of" in spec:
            count = rng.randint(spec["min"], spec["max"])
            action[name] = rng.sample(list(spec["subset_of"]), count)
        else:
            action[name] = rng.randint(spec["min"], spec["max"])
    return action
