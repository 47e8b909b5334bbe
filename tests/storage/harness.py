"""What the storage tests share: people playing blindly from ``legal``, the results they were
told, and the checks that what they were told is what the database holds.

* :func:`told_results`: every hand result a client was sent (``state.result``);
* :func:`check_told_is_stored`: each of them is a finished hand in the database, with the
  nets the client saw (``hand_players``);
* :func:`check_stacks_are_the_ledgers`: every live table's stacks (as they were before the
  hand in play, if one is) equal the ledger's ``stack:T:P`` balances;
* :class:`HeldWrites`: the test holds the database's write lock, so that the server's
  writes wait (SQLite: ``BEGIN IMMEDIATE`` on the file; PostgreSQL: ``LOCK TABLE hands``).
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
from typing import Any

import asyncpg
import websockets
from sqlalchemy import select
from sqlalchemy.engine import make_url

from app.db import ledger
from app.db.models import Account, Hand, HandPlayer
from app.games.core.accounts import seat_account
from tests.api.test_rules_blind import quick_options
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.waiting import until


async def seat_people(
    live: LiveServer, game: str, count: int, *, names: str = "p", **options: Any
) -> tuple[list[Player], str]:
    """``count`` people at a new table of ``game`` (short clocks), each with a buy-in."""
    people = [await Player.join(live, f"{names}{game[:5]}{i}") for i in range(count)]
    table_id = await people[0].open_table(game, **{**quick_options(game), **options})
    for person in people:
        await person.connect(table_id)
        view = person.view
        assert view is not None
        low, high = view["table"]["buy_in"]["min"], view["table"]["buy_in"]["max"]
        await person.send({"type": "sit", "seat": None, "buy_in": min(high, max(low, 300))})
        await person.wait_for(lambda v: v["you"] is not None)
    return people, table_id


async def act_once(people: list[Player], rng: random.Random) -> bool:
    """One person whose view offers something acts (a random legal action); False if
    nobody may act now. A person left without chips buys in again."""
    movers = [p for p in people if open_socket(p) and p.view and p.view["legal"]]
    if not movers:
        for person in people:
            view = person.view
            if view is None or view["you"] is None or not open_socket(person):
                continue
            table = view["table"]
            if table.get("cannot_play") and table.get("can_top_up"):
                amount = min(table["buy_in"]["min"], table["top_up_max"])
                if amount > 0:
                    await person.send({"type": "top_up", "amount": amount})
        return False
    mover = rng.choice(movers)
    action = mover.random_legal(rng)
    if action is None:
        return False
    try:
        reply = await mover.act(action)
    except (ConnectionError, TimeoutError, websockets.ConnectionClosed):
        return False  # the socket closed: the table stopped
    if reply["type"] != "ack":  # the table moved on since the view: look again soon
        await asyncio.sleep(0.02)
        return False
    return True


async def send_act(person: Player, action: dict[str, Any] | None) -> str:
    """Send an act without waiting for its answer; its id."""
    msg_id = f"{person.name}-{random.random()}"
    await person.send(
        {"type": "act", "id": msg_id, "version": person.version, "action": action or {}}
    )
    return msg_id


def answered(person: Player, msg_id: str) -> bool:
    return msg_id in person.acks or any(e.get("id") == msg_id for e in person.errors)


def open_socket(person: Player) -> bool:
    return person.ws is not None and person.ws.close_code is None


def told_results(people: list[Player]) -> dict[str, dict[str, int]]:
    """Every hand result the people were sent: hand id -> {player id: net}."""
    told: dict[str, dict[str, int]] = {}
    for person in people:
        for state in person.states:
            result = state.get("result")
            if result and result.get("hand_id"):
                nets = {p["player_id"]: p["net"] for p in result["players"]}
                seen = told.setdefault(result["hand_id"], nets)
                assert seen == nets, ("two clients were told two results", seen, nets)
    return told


async def check_told_is_stored(live: LiveServer, told: dict[str, dict[str, int]]) -> None:
    """Each hand a client saw end is finished in the database with the nets it was told."""
    if not told:
        return
    async with live.services.sessionmaker() as session:
        hands = {
            h.id: h.status
            for h in (await session.scalars(select(Hand).where(Hand.id.in_(told)))).all()
        }
        rows = (await session.scalars(select(HandPlayer).where(HandPlayer.hand_id.in_(told)))).all()
    stored: dict[str, dict[str, int]] = {}
    for row in rows:
        stored.setdefault(row.hand_id, {})[row.player_id] = row.net
    for hand_id, nets in told.items():
        assert hands.get(hand_id) == "finished", (hand_id, hands.get(hand_id), nets)
        assert stored.get(hand_id, {}) == {p: n for p, n in nets.items()}, (
            hand_id,
            stored.get(hand_id),
            nets,
        )


async def check_stacks_are_the_ledgers(live: LiveServer) -> int:
    """Every live table's stacks equal the ledger's (those from before the hand in play, if
    one is: its chips are the hand's until it ends); how many stacks were compared."""
    compared = 0
    for table_id, actor in list(live.services.lobby.tables.items()):
        if actor.closed or actor.suspended:
            continue
        async with actor.lock:
            balances = (
                actor.core.hand.balances if actor.core.hand is not None else actor.engine.balances
            )
            live_stacks = {
                ledger.stack(table_id, info.player_id): balances.get(seat_account(seat), 0)
                for seat, info in actor.roster.items()
                if seat not in actor.away and seat_account(seat) in balances
            }
            async with live.services.sessionmaker() as session:
                rows = (
                    await session.scalars(select(Account).where(Account.id.in_(live_stacks)))
                ).all()
        stored = {row.id: row.balance for row in rows}
        for account, chips in live_stacks.items():
            assert stored.get(account, 0) == chips, (account, chips, stored.get(account))
            compared += 1
    return compared


async def audit(live: LiveServer) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        response = await http.get(
            "/api/admin/audit", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}
        )
    response.raise_for_status()
    found: dict[str, Any] = response.json()
    assert found["balanced"] is True, found
    return found


async def healthz(live: LiveServer) -> tuple[int, dict[str, Any]]:
    import httpx

    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        response = await http.get("/healthz")
    return response.status_code, response.json()


async def wait_until(predicate: Any, what: str, timeout: float = 60) -> None:
    """Wait on a condition (never a fixed sleep); ``timeout`` only ends a hung test
    (tests/waiting.py)."""
    await until(predicate, what, timeout)


class HeldWrites:
    """The test holds the database's write lock: the server's writes wait until it lets go
    (reads go on). SQLite: an immediate transaction on the file (the writer waits on its
    busy timeout, 30 s); PostgreSQL: ``LOCK TABLE hands, accounts IN EXCLUSIVE MODE``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._sqlite: sqlite3.Connection | None = None
        self._pg: Any = None
        self._tx: Any = None

    async def __aenter__(self) -> HeldWrites:
        parsed = make_url(self.url)
        if parsed.get_backend_name() == "sqlite":
            conn = sqlite3.connect(parsed.database or "", isolation_level=None, timeout=30)
            conn.execute("BEGIN IMMEDIATE")
            self._sqlite = conn
        else:
            self._pg = await asyncpg.connect(
                host=parsed.host or "127.0.0.1",
                port=parsed.port or 5432,
                user=parsed.username or "postgres",
                database=parsed.database,
            )
            self._tx = self._pg.transaction()
            await self._tx.start()
            await self._pg.execute("LOCK TABLE hands, accounts IN EXCLUSIVE MODE")
        return self

    async def release(self) -> None:
        if self._sqlite is not None:
            self._sqlite.execute("ROLLBACK")
            self._sqlite.close()
            self._sqlite = None
        if self._pg is not None:
            await self._tx.rollback()
            await self._pg.close()
            self._pg = None

    async def __aexit__(self, *_exc: object) -> None:
        await self.release()


async def round_trip(person: Player) -> None:
    """A ping answered: every frame the server sent this socket before it has arrived."""
    await person.send({"type": "ping"})
    await person.next_of("pong")
