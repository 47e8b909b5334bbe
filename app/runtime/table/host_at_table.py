"""The host at the table (docs/rules.md §0.12): one person runs the table from it.

The table's host is its opener unless the role was handed on (``host_id``, stored with the
table). From the table the host pauses and resumes, stands a seat up, changes the stakes and
the clocks between hands, hands the role to another person seated, closes the table, and,
when the table's ``approval`` option is on, lets each newcomer sit or not. Every host action
is told to everyone in the story and written in the host's log, marked as the table's host's
(the server's owner keeps ``/admin`` over every table).

This is a part of the table's core (:class:`~app.runtime.table.core.TableCore` inherits it):
pure logic, no I/O; each step returns :class:`Effects`. What the shell must do after a step
(a buy-in for an approved request) it is handed as a :class:`Seating`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from app.db import store
from app.games.core.accounts import is_seat, seat_of
from app.games.core.actions import Action, LegalAction, action_fits, legal, one_of
from app.games.core.options import OptionError
from app.i18n.messages import N_, Plural, Text, said
from app.runtime import notices
from app.runtime.protocol import ErrorCode, ProtocolError, Sit, encode
from app.runtime.table.effects import Effects, Watcher

if TYPE_CHECKING:
    from collections.abc import Callable

    from app.games.core.game import Game
    from app.runtime.records import SeatInfo
    from app.runtime.story import Story

HOST_KINDS = frozenset(
    {"pause", "resume", "unseat", "set_options", "make_host", "close", "approve", "refuse"}
)
"""The host's own action kinds, offered in the host's ``table.host_legal`` (in ``legal``'s
form; docs/protocol/socket.md §5.13) and sent as a ``host`` message (or an ``act``)."""
LIVE_OPTIONS = (
    "min_bet",
    "max_bet",
    "min_stake",
    "max_stake",
    "turn_seconds",
    "bet_seconds",
    "approval",
)
"""The options the host may change on a live table, between hands, where the game has them:
the stakes and the clocks (and ``approval``); never the seats, the decks or the rules."""
REFUSED_SECONDS = 600.0
"""How long a person the host refused may not ask to sit again (ten minutes)."""
HOST_PAUSED = N_("The host paused the table.")


@dataclass(frozen=True)
class SeatRequest:
    """A newcomer's request to sit, waiting for the host: nothing is held, no chip moves."""

    player_id: str
    name: str
    seat: int
    buy_in: int
    at: float

    def public(self) -> dict[str, Any]:
        return {
            "player_id": self.player_id,
            "name": self.name,
            "seat": self.seat,
            "buy_in": self.buy_in,
        }


@dataclass(frozen=True)
class Seating:
    """An approved request: the shell moves the buy-in, then seats the player (as a sit)."""

    seat: int
    player_id: str
    name: str
    buy_in: int


@dataclass(frozen=True)
class _Asker:
    """The one thing :meth:`TableCore.hold_seat` reads of a watcher."""

    player_id: str


def _refused_words(seconds: float) -> str:
    return Plural(
        "The host did not let you sit at this table. You may ask again in {n} minute.",
        "The host did not let you sit at this table. You may ask again in {n} minutes.",
        n=max(1, round(seconds / 60)),
    )


class HostAtTable:
    """The host's part of the table's core (mixed into :class:`TableCore`)."""

    host_id: str | None
    host_name: str | None
    requests: dict[str, SeatRequest]
    refused_until: dict[str, float]
    pending_options: dict[str, Any]
    """Options the host changed during a hand: in force from the next one."""

    if TYPE_CHECKING:  # what it reads and calls of the core (app/runtime/table/core.py)
        table_id: str
        created_by: str | None
        game_cls: type[Game]
        engine: Game
        options: dict[str, Any]
        seeds: Any
        clock: Callable[[], float]
        roster: dict[int, SeatInfo]
        reserved: dict[int, str]
        pending_leave: set[int]
        status: str
        pause_reason: str | None
        suspended: bool
        story: Story
        _fx: Effects
        _acks: list[tuple[Watcher, str]]
        _state_dirty: bool

        @property
        def closed(self) -> bool: ...
        def seat_of(self, player_id: str | None) -> int | None: ...
        def is_connected(self, player_id: str) -> bool: ...
        def _known_name(self, player_id: str) -> str | None: ...
        def hold_seat(self, watcher: Any, sit: Sit) -> int: ...
        def _sync_house(self) -> None: ...
        def _refuse_when_stopped(self, act_id: str | None = None) -> None: ...
        def _process_leaves(self) -> None: ...
        def _changed(self, notify: Watcher | None = None) -> None: ...
        def _done(self) -> Effects: ...
        def notice(self, text: str) -> None: ...
        def shut_down(self, reason: str, *, close_table: bool = False) -> Effects: ...

    def _init_host(self, host_id: str | None) -> None:
        self.host_id = host_id or self.created_by
        self.host_name = None
        self.requests = {}
        """Requests to sit waiting for the host, by player (at most one each)."""
        self.refused_until = {}
        """People the host refused, and until when (the table's clock) they may not ask."""
        self.pending_options = {}

    # ------------------------------------------------------------------ reading

    @property
    def approval(self) -> bool:
        """Seats by approval: a newcomer's sit waits for the host (docs/rules.md §0.12)."""
        return bool(self.options.get("approval"))

    def is_host(self, player_id: str | None) -> bool:
        return player_id is not None and player_id == self.host_id

    def host_block(self) -> dict[str, Any] | None:
        """``table.host``: who the host is (every watcher sees it)."""
        if self.host_id is None:
            return None
        name = self._known_name(self.host_id) or self.host_name
        return {"player_id": self.host_id, "name": name}

    def personal(self, player_id: str | None) -> bool:
        """Does this person's view differ from the others' at their seat (the host's, or a
        person asking to sit or refused)?"""
        if player_id is None:
            return False
        until = self.refused_until.get(player_id)
        if until is not None and until <= self.clock():
            del self.refused_until[player_id]  # the refusal has lapsed
            until = None
        return self.is_host(player_id) or player_id in self.requests or until is not None

    def personal_table(self, player_id: str | None) -> dict[str, Any]:
        """What the ``table`` block holds for this person alone: the host's own actions
        (``host_legal``, in ``legal``'s form: kept apart from ``legal``, so that a client
        playing whatever ``legal`` offers never closes a table by chance) and the requests to
        sit; or an asker's own request (``seat_request``: ``pending``, ``refused`` or null)."""
        out: dict[str, Any] = {
            "host_legal": self.host_legal(player_id),
            "requests": [],
            "seat_request": None,
            "seat_request_message": None,
        }
        if player_id is None:
            return out
        if self.is_host(player_id):
            out["requests"] = [r.public() for r in self.requests.values()]
        if player_id in self.requests:
            out["seat_request"] = "pending"
            out["seat_request_message"] = "You asked to sit; the host has not answered yet."
        else:
            until = self.refused_until.get(player_id)
            if until is not None and until > self.clock():
                out["seat_request"] = "refused"
                out["seat_request_message"] = _refused_words(until - self.clock())
        return out

    def host_legal(self, player_id: str | None) -> list[LegalAction]:
        """The host's own actions now (none for anyone else)."""
        if not self.is_host(player_id) or self.closed or self.suspended:
            return []
        out: list[LegalAction] = []
        if self.status == "open":
            out.append(legal("pause"))
        else:
            out.append(legal("resume"))
        # people only: a bot is stood up by "remove bot", which brings its chips home to the
        # bots' bank (app/runtime/bot_pool.py)
        people = sorted(
            s for s, i in self.roster.items() if i.player_id != player_id and not i.is_bot
        )
        unseat = [s for s in people if s not in self.pending_leave]
        if unseat:
            out.append(legal("unseat", seat=one_of(unseat)))
        if people:
            out.append(legal("make_host", seat=one_of(people)))
        live = self._live_specs()
        if live:  # during a hand too: in force from the next one
            out.append({"kind": "set_options", "params": {"options": live}})
        if not self.engine.in_hand:
            out.append(legal("close"))
        if self.requests:
            asking = list(self.requests)
            out.append(legal("approve", player_id=one_of(asking)))
            out.append(legal("refuse", player_id=one_of(asking)))
        return out

    def _live_specs(self) -> dict[str, Any]:
        """The options the host may change here, each as the games' listing gives it, with
        its ``value`` for the next hand (one changed during this hand: the new value)."""
        coming = self.coming_options
        return {
            spec.name: {**spec.public(), "value": coming[spec.name]}
            for spec in self.game_cls.OPTIONS
            if spec.name in LIVE_OPTIONS and spec.name in self.options
        }

    # ------------------------------------------------------------------ asking to sit

    def needs_approval(self, player_id: str | None) -> bool:
        """A sit from this person waits for the host: seats by approval, and they are neither
        the host nor seated (their sit is refused as usual then)."""
        return (
            self.approval
            and player_id is not None
            and not self.is_host(player_id)
            and self.seat_of(player_id) is None
            and self.host_id is not None
        )

    def ask_seat(self, watcher: Watcher, sit: Sit) -> Effects:
        """A newcomer's sit at a table by approval: checked as a sit is (nothing held), then
        waiting for the host, who sees it in ``table.requests``; the asker's view says
        ``seat_request: "pending"``. Refused for :data:`REFUSED_SECONDS` after the host
        said no."""
        player_id = watcher.player_id
        assert player_id is not None
        until = self.refused_until.get(player_id)
        now = self.clock()
        if until is not None and until > now:
            raise ProtocolError(ErrorCode.SEAT_REFUSED, _refused_words(until - now))
        seat = self.hold_seat(watcher, sit)  # every check of a sit; then nothing is held
        self.reserved.pop(seat, None)
        name = watcher.name or "?"
        self.requests[player_id] = SeatRequest(player_id, name, seat, sit.buy_in, now)
        self._tell_host_event("seat_request", player_id=player_id, name=name, seat=seat)
        self._changed()
        return self._done()

    def drop_request(self, player_id: str | None) -> bool:
        """The asker left (their last socket closed): their request vanishes."""
        if player_id is None or self.is_connected(player_id):
            return False
        return self.requests.pop(player_id, None) is not None

    # ------------------------------------------------------------------ the host's actions

    def host_act(
        self, watcher: Watcher, act_id: str | None, action: Action
    ) -> tuple[Effects, Seating | None]:
        """One of the host's actions (it must fit the host's ``legal``): applied, told in
        the story, written in the host's log; acknowledged with its change. An approved
        request comes back as a :class:`Seating` for the shell to carry out."""
        self._sync_house()
        self._refuse_when_stopped(act_id)
        player_id = watcher.player_id
        if not self.is_host(player_id):
            raise ProtocolError(ErrorCode.NOT_HOST, N_("only the table's host may do that"), act_id)
        assert player_id is not None
        self.host_name = watcher.name or self.host_name
        kind = action.get("kind")
        if kind not in HOST_KINDS:
            raise ProtocolError(
                ErrorCode.UNKNOWN_ACTION,
                Text(N_("the host has no action {kind}"), kind=repr(kind)),
                act_id,
            )
        offered = self.host_legal(player_id)
        if kind == "set_options":
            if not any(t["kind"] == "set_options" for t in offered):
                raise self._host_refused(kind, act_id)
            changed = self._check_options(action, act_id)
        elif not action_fits(action, offered):
            raise self._host_refused(kind, act_id, action)
        seating: Seating | None = None
        if kind == "approve":  # the sit's own checks first: refused, nothing has changed
            request = self.requests[action["player_id"]]
            try:
                seat = self.hold_seat(_Asker(request.player_id), Sit(request.seat, request.buy_in))
            except ProtocolError as err:
                err.msg_id = act_id
                raise
            seating = Seating(seat, request.player_id, request.name, request.buy_in)
        self._acks.append((watcher, encode({"type": "ack", "id": act_id})))
        detail: dict[str, Any] = {k: v for k, v in action.items() if k != "kind"}
        if kind == "pause":
            self.status = "paused"
            self.pause_reason = HOST_PAUSED
            self._fx.store(store.set_table_status, self.table_id, "paused", HOST_PAUSED)
        elif kind == "resume":
            self.status = "open"
            self.pause_reason = None
            self._fx.store(store.set_table_status, self.table_id, "open")
        elif kind == "unseat":
            seat = action["seat"]
            info = self.roster[seat]
            detail.update(player_id=info.player_id, name=info.name)
            self.pending_leave.add(seat)  # now if the rules allow, else at the next moment
            self._process_leaves()
        elif kind == "make_host":
            info = self.roster[action["seat"]]
            self.host_id, self.host_name = info.player_id, info.name
            detail.update(player_id=info.player_id, name=info.name)
            self._fx.store(store.set_table_host, self.table_id, info.player_id)
        elif kind == "set_options":
            detail = {"options": changed}
            if self.engine.in_hand:  # the hand is played out under the options it began with
                self.pending_options.update(changed)
                detail["from_next_hand"] = True
                self._fx.store(store.set_table_options, self.table_id, self.coming_options)
                self.notice(notices.OPTIONS_CHANGED)
            else:
                self._apply_options(changed)
        elif kind == "approve" and seating is not None:
            del self.requests[seating.player_id]
            detail.update(name=seating.name, seat=seating.seat, buy_in=seating.buy_in)
        elif kind == "refuse":
            request = self.requests.pop(action["player_id"])
            self.refused_until[request.player_id] = self.clock() + REFUSED_SECONDS
            detail.update(name=request.name)
        self._fx.store(store.table_host_acted, self.table_id, player_id, kind, detail)
        self._tell_host_event(f"host_{kind}", **detail)
        if kind == "close":
            fx = self.shut_down(notices.HOST_CLOSED, close_table=True)
            return fx, None
        self._state_dirty = True
        self._changed()
        return self._done(), seating

    def _host_refused(
        self, kind: str, act_id: str | None, action: Action | None = None
    ) -> ProtocolError:
        """Why a host action that fits nothing offered is refused, in words."""
        if kind == "close" and self.engine.in_hand:
            return ProtocolError(
                ErrorCode.HAND_IN_PLAY,
                Text(N_("{kind} waits for the hand in play to end"), kind=kind),
                act_id,
            )
        if kind in ("approve", "refuse"):
            return ProtocolError(
                ErrorCode.BAD_MESSAGE, N_("nobody with that player_id asks to sit"), act_id
            )
        if kind in ("pause", "resume"):
            already = (
                N_("the table is paused already")
                if self.status != "open"
                else N_("the table is open already")
            )
            return ProtocolError(ErrorCode.ILLEGAL_ACTION, already, act_id)
        needs = (
            N_("{kind} needs a seat of another person seated here")
            if kind == "make_host"
            else N_("{kind} needs a seat of another player seated here")
        )
        return ProtocolError(ErrorCode.BAD_MESSAGE, Text(needs, kind=kind), act_id)

    def _check_options(self, action: Action, act_id: str | None) -> dict[str, Any]:
        """The options a ``set_options`` changes, checked by the game's options model with
        the others as they are; only :data:`LIVE_OPTIONS`."""
        given = action.get("options")
        if set(action) != {"kind", "options"} or not isinstance(given, dict) or not given:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, N_("set_options needs an options object"), act_id
            )
        live = self._live_specs()
        for name in given:
            if name not in live:
                raise ProtocolError(
                    ErrorCode.BAD_OPTIONS,
                    Text(
                        N_("{name} cannot change on a live table; these can: {live}"),
                        name=name,
                        live=", ".join(live),
                    ),
                    act_id,
                )
        coming = self.coming_options
        merged = {**coming, **given}
        try:
            checked = self.game_cls.OPTIONS_MODEL.check(merged)
            self.game_cls(checked, seeds=self.seeds)  # the engine checks what depends on others
        except OptionError as err:
            raise ProtocolError(ErrorCode.BAD_OPTIONS, err.message, act_id) from None
        except Exception as err:  # an engine's own check of its options
            raise ProtocolError(ErrorCode.BAD_OPTIONS, said(err), act_id) from None
        return {k: checked[k] for k in given if checked[k] != coming.get(k)} or dict(given)

    @property
    def coming_options(self) -> dict[str, Any]:
        """The options the next hand is dealt under: those in force, and those the host
        changed during this hand."""
        return {**self.options, **self.pending_options}

    def options_after_hand(self) -> None:
        """A hand is over: the options the host changed during it are in force now (the
        table's row has them already)."""
        if self.pending_options and not self.engine.in_hand:
            changed, self.pending_options = self.pending_options, {}
            self._apply_options(changed)

    def _apply_options(self, changed: dict[str, Any]) -> None:
        """Between hands: the engine is rebuilt with the new options, stacks and state as
        they are; the next hand is dealt under them. Stored with the table."""
        options = {**self.options, **changed}
        engine = self.engine
        self.engine = self.game_cls.rebuild(
            options,
            seeds=self.seeds,
            stacks=[
                (seat, amount)
                for account, amount in engine.balances.items()
                if (seat := seat_of(account)) is not None
            ],
            accounts={a: n for a, n in engine.balances.items() if not is_seat(a)},
            state=engine.snapshot(),
            hand_number=engine.hand_number,
        )
        self.options = self.engine.options
        self._fx.store(store.set_table_options, self.table_id, dict(self.options))

    def give_host(self, player_id: str, by: str) -> Effects:
        """The role handed to ``player_id``, seated here, from outside the table (a room's
        host over REST, ``by`` them): told and logged as the host's ``make_host`` is.
        ValueError when ``player_id`` is not seated."""
        seat = self.seat_of(player_id)
        if seat is None:
            raise ValueError("the host's role goes to a player seated at the table")
        info = self.roster[seat]
        self.host_id, self.host_name = info.player_id, info.name
        detail: dict[str, Any] = {"player_id": info.player_id, "name": info.name}
        self._fx.store(store.set_table_host, self.table_id, info.player_id)
        self._fx.store(store.table_host_acted, self.table_id, by, "make_host", detail)
        self._tell_host_event("host_make_host", **detail)
        self._changed()
        return self._done()

    def _tell_host_event(self, kind: str, **data: Any) -> None:
        """A host action (or a request to sit) in the story, for everyone."""
        event: dict[str, Any] = {"kind": kind, "host": self.host_block(), **data, "t": self.clock()}
        self.story.tell(event, self.roster)
