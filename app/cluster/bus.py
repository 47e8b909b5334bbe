"""The node's line to the cluster's Redis: publish/subscribe with reconnection.

Two connections: one subscribed to the node's three channels, one for commands (the lobby
board's hash, publishing). The channels, under ``REDIS_PREFIX`` (default ``t31:``):

* ``node:<me>``: what is meant for this node alone (a forwarded request, its reply);
* ``lobby``: a node's board rows changed (board.py);
* ``house``: the host funded the house (its tables may grow their reservations).

Every message is a JSON object carrying ``from`` (the sending node's id); a node does not
hear its own messages on the shared channels.

Redis's publish/subscribe keeps nothing for a subscriber that is away: what was published
while this node's connection was down is lost. So after EVERY (re)subscription the bus runs
its *resync hooks* (the board reloads its whole hash, the house refreshes) — the snapshot
that replaces the messages it missed. A lost connection is retried with a growing pause
(0.1 s doubling to 5 s). docs/scaling.md tells how the nodes use it.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import orjson
import redis.asyncio as aioredis
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector
from redis.asyncio.client import PubSub
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff, NoBackoff

log = logging.getLogger("table31.cluster.bus")

NODE = "node:"
LOBBY = "lobby"
HOUSE = "house"

Handler = Callable[[dict[str, Any]], Awaitable[None] | None]
Hook = Callable[[], Awaitable[None]]

FIRST_PAUSE = 0.1
LAST_PAUSE = 5.0


class Bus:
    """One node's publish/subscribe over Redis (see the module's docstring)."""

    def __init__(self, url: str, prefix: str, node_id: str) -> None:
        self.url = url
        self.prefix = prefix
        self.node_id = node_id
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url,
            client_name=f"table31-{node_id}-commands",
            socket_connect_timeout=2,
            socket_timeout=5,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
        )
        """The commands connection (the board's hash, publishing): a command fails within
        seconds when Redis is gone (a forwarded request answers 503 then), never hangs."""
        self._handlers: dict[str, list[Handler]] = {}
        self._hooks: list[Hook] = []
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._pubsub: PubSub | None = None
        self._listener: aioredis.Redis | None = None
        self.connected = False
        self.sent = 0
        self.received = 0
        self.connects = 0
        """Subscriptions made: the first connection and every reconnection after it."""
        self.resyncs = 0
        """Resync rounds finished (every hook run once), one per subscription."""

    # ------------------------------------------------------------------ names

    def channel(self, name: str) -> str:
        """The full channel name: ``lobby`` -> ``t31:lobby``."""
        return self.prefix + name

    def node_channel(self, node_id: str) -> str:
        return self.prefix + NODE + node_id

    def key(self, name: str) -> str:
        """A Redis key under the cluster's prefix."""
        return self.prefix + name

    # ------------------------------------------------------------------ wiring

    def on(self, name: str, handler: Handler) -> None:
        """Call ``handler(message)`` for each message on channel ``name`` (``lobby``,
        ``house``, or ``node`` for this node's own). A coroutine handler runs as a task of its
        own, so a slow one never holds up the messages behind it."""
        self._handlers.setdefault(name, []).append(handler)

    def on_resync(self, hook: Hook) -> None:
        """Run ``hook()`` after every (re)subscription: the snapshot of what pub/sub may have
        dropped while the connection was down."""
        self._hooks.append(hook)

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Start listening (in a task: a Redis that is down at start-up is retried, never
        waited for)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="cluster-bus")

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        for t in list(self._tasks):
            t.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._close_pubsub()
        await self.redis.aclose()

    async def wait_connected(self, timeout: float) -> bool:
        """Until the first resync round has run (tests, start-up checks)."""
        deadline = asyncio.get_running_loop().time() + timeout
        while self.resyncs == 0:
            if asyncio.get_running_loop().time() > deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    # ------------------------------------------------------------------ publishing

    async def publish(self, name: str, message: dict[str, Any]) -> int:
        """Publish ``message`` on channel ``name``; the number of nodes that heard it
        (0: nobody subscribed). Raises redis's ConnectionError when Redis is out of reach."""
        return await self._publish(self.channel(name), message)

    async def send_to(self, node_id: str, message: dict[str, Any]) -> int:
        """Publish on ``node_id``'s own channel: 0 when that node is not listening."""
        return await self._publish(self.node_channel(node_id), message)

    async def _publish(self, channel: str, message: dict[str, Any]) -> int:
        data = orjson.dumps({**message, "from": self.node_id})
        heard = int(await self.redis.publish(channel, data))
        self.sent += 1
        return heard

    # ------------------------------------------------------------------ listening

    async def _run(self) -> None:
        pause = FIRST_PAUSE
        names = {
            self.node_channel(self.node_id): "node",
            self.channel(LOBBY): LOBBY,
            self.channel(HOUSE): HOUSE,
        }
        mine = self.node_channel(self.node_id)
        while True:
            try:
                pubsub = await self._subscribe(list(names))
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=False, timeout=1.0)
                    if message is None:
                        continue
                    pause = FIRST_PAUSE
                    channel = _text(message["channel"])
                    if message["type"] == "subscribe" and channel == mine:
                        self._subscribed()
                    elif message["type"] == "message":
                        self._dispatch(names.get(channel), message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis gone, a reset, a timeout: try again soon
                if self.connected:
                    log.warning("lost the cluster's Redis (%s); reconnecting", _short(exc))
                self.connected = False
                await self._close_pubsub()
                await asyncio.sleep(pause)
                pause = min(pause * 2, LAST_PAUSE)

    async def _subscribe(self, channels: list[str]) -> PubSub:
        # A connection of its own, which never retries behind our back: a lost connection
        # raises here, and the loop above reconnects, resubscribes and resyncs.
        client = aioredis.Redis.from_url(
            self.url,
            client_name=f"table31-{self.node_id}-bus",
            socket_connect_timeout=2,
            health_check_interval=5,
            retry=Retry(NoBackoff(), 0),
        )
        self._listener = client
        pubsub = client.pubsub()
        self._pubsub = pubsub
        await pubsub.subscribe(*channels)
        return pubsub

    async def _close_pubsub(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        client, self._listener = self._listener, None
        for closing in (pubsub, client):
            if closing is not None:
                with contextlib.suppress(Exception):  # the connection may be gone already
                    await closing.aclose()

    def _subscribed(self) -> None:
        """Subscribed (again): whatever was published meanwhile is lost, so resync."""
        self.connected = True
        self.connects += 1
        if self.connects > 1:
            log.info("the cluster's Redis is back: resyncing")
        self._spawn(self._resync())

    async def _resync(self) -> None:
        for hook in list(self._hooks):
            try:
                await hook()
            except Exception as exc:  # one hook must not keep the others from running
                log.warning("a resync hook failed: %s", _short(exc))
        self.resyncs += 1

    def _dispatch(self, name: str | None, data: bytes | str) -> None:
        if name is None:
            return
        try:
            message = orjson.loads(data)
        except orjson.JSONDecodeError:
            log.warning("a message on %s is not JSON: dropped", name)
            return
        if not isinstance(message, dict):
            return
        if name != "node" and message.get("from") == self.node_id:
            return  # our own, on a shared channel
        self.received += 1
        for handler in self._handlers.get(name, ()):
            try:
                outcome = handler(message)
            except Exception as exc:
                log.warning("a %s message could not be handled: %s", name, _short(exc))
                continue
            if inspect.isawaitable(outcome):
                self._spawn(outcome)

    def _spawn(self, work: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("a bus task failed: %s", _short(task.exception()))

    # ------------------------------------------------------------------ metrics

    def collector(self) -> Collector:
        """Its counters for ``/metrics`` (register on the server's registry)."""
        return BusCollector(self)


class BusCollector(Collector):
    """``table31_bus_*``: messages in and out, (re)connections, whether it is connected."""

    def __init__(self, bus: Bus) -> None:
        self.bus = bus

    def collect(self) -> Iterator[Metric]:
        messages = CounterMetricFamily(
            "table31_bus_messages",
            "Messages this node published to, and heard from, the cluster's Redis",
            labels=["direction"],
        )
        messages.add_metric(["out"], self.bus.sent)
        messages.add_metric(["in"], self.bus.received)
        yield messages
        yield CounterMetricFamily(
            "table31_bus_connects",
            "Subscriptions to the cluster's Redis: the first and every reconnection",
            value=self.bus.connects,
        )
        yield GaugeMetricFamily(
            "table31_bus_connected",
            "1 while this node is subscribed to the cluster's Redis",
            value=int(self.bus.connected),
        )


HOUSE_REFRESH = "refresh"
"""The method of a node's house (``ClusterHouse``, app/cluster/house.py) that reads the
house's balance and reservations from PostgreSQL again and lets its tables grow their
reservations: called on a house notice and after every (re)connection of the bus."""


async def house_funded(bus: Bus, amount: int) -> None:
    """Tell the other nodes that the host funded the house (their tables may now risk more).
    Redis out of reach only logs: the grant is in the ledger already, and every node's house
    refreshes at its bus's next (re)connection."""
    try:
        await bus.publish(HOUSE, {"kind": "funded", "amount": amount})
    except Exception as exc:
        log.warning("could not tell the other nodes about the house's funds: %s", _short(exc))


def listen_for_house(bus: Bus, lobby: Any) -> None:
    """On each house notice, and after every (re)connection (a notice may have been missed),
    ``lobby.house`` refreshes through :data:`HOUSE_REFRESH`. The house is looked up each
    time: the node may replace the lobby's house with its ``ClusterHouse`` at start. A house
    without that method (single-process ``House``) has nothing to refresh."""

    async def refresh(_message: dict[str, Any] | None = None) -> None:
        method = getattr(lobby.house, HOUSE_REFRESH, None)
        if method is not None:
            outcome = method()
            if inspect.isawaitable(outcome):
                await outcome

    bus.on(HOUSE, refresh)
    bus.on_resync(refresh)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _short(exc: BaseException | None) -> str:
    text = " ".join(str(exc).split())[:160]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
