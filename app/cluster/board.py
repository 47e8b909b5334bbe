"""The shared lobby board: every node's open tables, in one Redis hash.

A lobby lists the tables of the whole cluster, not only those whose actor lives in this
node. Each node writes the rows of ITS tables into the hash ``<prefix>tables`` (table id ->
JSON: the table's summary as the lobby shows it, its owner node, the seats the host sees
leaving, a private table's invite) and nobody else's; it removes a row when its table closes
or is handed over, dropped or lost. A sweep every half second compares each table's
fingerprint (its version, sockets, status) with what was written, and writes (and announces
on the ``lobby`` channel) only what changed; every few seconds it writes all its rows again.

Each node reads the others' rows into memory: from the announcements as they come, and the
whole hash at every (re)connection (pub/sub drops what is published while a node is away)
and every few seconds. A row counts only while its owner is LIVE: a node marks itself live
with a key that expires (``<prefix>alive:<node>``, renewed by each sweep), so the tables of
a node that died vanish from every lobby within seconds, and come back under their new
owner once another node adopts them (app/cluster/node.py). A row left by a dead owner is
deleted, only if it is still that owner's (a new owner may have written it meanwhile).

A node's listing is its own tables (as in single-process mode) plus the live others' rows,
with private tables filtered exactly as today: listed only to their opener and the players
seated at them, or to the host (``may_enter`` without an invite).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import orjson

from app.cluster.bus import LOBBY, Bus
from app.runtime.lobby import Lobby, admin_row
from app.runtime.table.actor import TableActor

log = logging.getLogger("table31.cluster.board")

SWEEP_SECONDS = 0.5
REWRITE_SECONDS = 5.0
RELOAD_SECONDS = 15.0
"""The whole board read again (besides every (re)connection): the announcements keep it
current meanwhile; this mends what one lost."""
LIVE_SECONDS = 1.0
"""Which owners are live, read again (one MGET): a dead node's tables leave every lobby
within its live mark's expiry and this."""
STOP_SECONDS = 3.0
ALIVE_MS = 4000
"""A node's live mark outlasts a few missed sweeps, not a dead node by much."""

DELETE_IF_SAME = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""
"""Delete a row only if it is still the one we read (or wrote): never a newer owner's."""


def may_list(summary: dict[str, Any], viewer: str | None) -> bool:
    """A private table is listed only to its opener and its seated players (``may_enter``
    without an invite, app/runtime/table/actor.py), as in single-process mode."""
    if not summary.get("private"):
        return True
    if viewer is None:
        return False
    return viewer == summary.get("created_by") or any(
        s.get("player_id") == viewer for s in summary.get("seats", ())
    )


def _fingerprint(table: TableActor) -> tuple[Any, ...]:
    """What the lobby shows of a table, cheaply: who sits where, its sockets (the
    spectators), its status and pause, a hand in play or not, hands played, the seats
    leaving. Not its version: a row is rewritten when people sit down, leave or watch, and
    once a hand, not at every action (docs/scaling.md §5). What only the summary holds
    (a house-banked table's buy-in limits) is written again at each rewrite."""
    return (
        table.status,
        table.pause_reason,
        table.resting,
        table.hands_played,
        table.engine.in_hand,
        tuple((seat, i.player_id, i.name) for seat, i in table.roster.items()),
        len(table.connections),
        tuple(table.leaving),
    )


class Board:
    """This node's side of the shared lobby board (see the module's docstring)."""

    def __init__(self, bus: Bus, lobby: Lobby, node_id: str) -> None:
        self.bus = bus
        self.lobby = lobby
        self.node_id = node_id
        self.key = bus.key("tables")
        self.rows: dict[str, dict[str, Any]] = {}
        """The other nodes' rows, by table id (the host's form: see
        :func:`app.runtime.lobby.admin_row`)."""
        self.owners: dict[str, str] = {}
        """The owner of each row in :attr:`rows`."""
        self.live: set[str] = set()
        """The nodes whose live mark was found at the last reload."""
        self._written: dict[str, tuple[tuple[Any, ...], bytes]] = {}
        """Our rows as written: table id -> (fingerprint, the raw row)."""
        self._task: asyncio.Task[None] | None = None
        self._delete_if_same = bus.redis.register_script(DELETE_IF_SAME)
        self._reload_lock = asyncio.Lock()
        self._sweep_lock = asyncio.Lock()
        bus.on(LOBBY, self._heard)
        bus.on_resync(self.reload)

    # ------------------------------------------------------------------ life

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="cluster-board")

    async def stop(self) -> None:
        """Stop sweeping and take this node's rows and live mark off the board."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
        try:  # a stop never waits long on a Redis that is gone: the live mark expires
            await asyncio.wait_for(self._leave(), STOP_SECONDS)
        except Exception as exc:
            log.warning("could not take this node's rows off the board: %s", exc)

    async def _leave(self) -> None:
        gone = list(self._written)
        for table_id in gone:
            await self._delete_mine(table_id)
        await self.bus.redis.delete(self._alive_key(self.node_id))
        if gone:
            await self.bus.publish(LOBBY, {"kind": "rows", "set": {}, "gone": gone})

    async def _run(self) -> None:
        last_rewrite = last_reload = last_live = time.monotonic()
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            now = time.monotonic()
            try:
                rewrite = now - last_rewrite >= REWRITE_SECONDS
                await self.sweep(rewrite=rewrite)
                if rewrite:
                    last_rewrite = now
                if now - last_reload >= RELOAD_SECONDS:
                    await self.reload()
                    last_reload = last_live = now
                elif now - last_live >= LIVE_SECONDS:
                    await self.check_live()
                    last_live = now
            except Exception as exc:  # Redis out of reach: the next sweep tries again
                log.debug("board sweep failed: %s", exc)

    # ------------------------------------------------------------------ writing ours

    async def sweep(self, *, rewrite: bool = False) -> None:
        """Write the rows of this node's tables that changed (all of them if ``rewrite``),
        remove those of tables it no longer serves, renew its live mark, and announce."""
        async with self._sweep_lock:
            await self._sweep(rewrite)

    async def _sweep(self, rewrite: bool) -> None:
        redis = self.bus.redis
        writes: dict[str, bytes] = {}
        news: dict[str, Any] = {}
        current: set[str] = set()
        for table in list(self.lobby.tables.values()):
            if table.closed:
                continue
            table_id = table.table_id
            current.add(table_id)
            mark = _fingerprint(table)
            written = self._written.get(table_id)
            if written is not None and written[0] == mark and not rewrite:
                continue
            row = {"owner": self.node_id, "row": admin_row(table)}
            raw = orjson.dumps(row)
            if written is None or written[1] != raw:
                news[table_id] = row
            if written is None or written[1] != raw or rewrite:
                writes[table_id] = raw
            self._written[table_id] = (mark, raw)
        gone = [t for t in self._written if t not in current]
        await redis.set(self._alive_key(self.node_id), self.bus.node_id, px=ALIVE_MS)
        if writes:
            await redis.hset(self.key, mapping=writes)  # type: ignore[arg-type]
        for table_id in gone:
            await self._delete_mine(table_id)
        if news or gone:
            await self.bus.publish(LOBBY, {"kind": "rows", "set": news, "gone": gone})

    async def _delete_mine(self, table_id: str) -> None:
        written = self._written.pop(table_id, None)
        if written is not None:
            await self._delete_if_same(keys=[self.key], args=[table_id, written[1]])

    def _alive_key(self, node_id: str) -> str:
        return self.bus.key(f"alive:{node_id}")

    # ------------------------------------------------------------------ reading theirs

    def _heard(self, message: dict[str, Any]) -> None:
        """Another node's rows changed (its announcement)."""
        if message.get("kind") != "rows":
            return
        sender = message.get("from")
        if isinstance(sender, str):
            self.live.add(sender)  # it just spoke
        for table_id in message.get("gone") or ():
            if self.owners.get(table_id) == sender:
                self.rows.pop(table_id, None)
                self.owners.pop(table_id, None)
        for table_id, entry in (message.get("set") or {}).items():
            self._keep(table_id, entry)

    def _keep(self, table_id: str, entry: Any) -> None:
        if not isinstance(entry, dict) or not isinstance(entry.get("row"), dict):
            return
        owner = entry.get("owner")
        if not isinstance(owner, str) or owner == self.node_id:
            return  # a row of ours left from before (ours are listed from the lobby)
        self.rows[table_id] = entry["row"]
        self.owners[table_id] = owner

    async def check_live(self) -> None:
        """Which of the rows' owners are live now."""
        owners = sorted(set(self.owners.values()))
        if not owners:
            self.live = set()
            return
        marks = await self.bus.redis.mget([self._alive_key(n) for n in owners])
        self.live = {n for n, mark in zip(owners, marks, strict=True) if mark is not None}

    async def reload(self) -> None:
        """The whole board again (at every (re)connection and every few seconds), with which
        nodes are live; rows a dead node left are deleted. A row an announcement changed
        while the hash was being read keeps the announcement's (it is the newer)."""
        async with self._reload_lock:
            before = dict(self.rows)
            redis = self.bus.redis
            raw = await redis.hgetall(self.key)
            entries: dict[str, tuple[bytes | str, dict[str, Any]]] = {}
            for key, value in raw.items():
                try:
                    entry = orjson.loads(value)
                except orjson.JSONDecodeError:
                    continue
                if (
                    isinstance(entry, dict)
                    and isinstance(entry.get("owner"), str)
                    and isinstance(entry.get("row"), dict)
                ):
                    entries[key.decode() if isinstance(key, bytes) else key] = (value, entry)
            owners = sorted({e["owner"] for _, e in entries.values()} | {self.node_id})
            marks = await redis.mget([self._alive_key(n) for n in owners])
            live = {n for n, mark in zip(owners, marks, strict=True) if mark is not None}
            heard = {  # changed by an announcement while we read
                t for t in before.keys() | self.rows.keys() if self.rows.get(t) is not before.get(t)
            }
            rows = {t: self.rows[t] for t in heard if t in self.rows}
            owned = {t: self.owners[t] for t in rows}
            stale: list[tuple[str, bytes | str]] = []
            for table_id, (value, entry) in entries.items():
                owner = entry["owner"]
                if table_id in heard:
                    continue
                if owner == self.node_id:
                    if table_id not in self._written and table_id not in self.lobby.tables:
                        stale.append((table_id, value))  # left by an earlier run of this node
                elif owner in live:
                    rows[table_id], owned[table_id] = entry["row"], owner
                else:
                    stale.append((table_id, value))  # left by a dead node
            self.rows, self.owners, self.live = rows, owned, live
            for table_id, value in stale:
                await self._delete_if_same(keys=[self.key], args=[table_id, value])

    # ------------------------------------------------------------------ the listings

    def _others(self) -> list[tuple[str, dict[str, Any]]]:
        local = self.lobby.tables
        return [
            (table_id, row)
            for table_id, row in self.rows.items()
            if table_id not in local and self.owners.get(table_id) in self.live
        ]

    def listed_elsewhere(
        self, viewer: str | None = None, *, everything: bool = False
    ) -> list[dict[str, Any]]:
        """The live other nodes' tables in this node's lobby listing (``GET /api/tables``,
        after this node's own: ``Lobby.listing``), private ones filtered as in
        single-process mode."""
        return [_public(row) for _, row in self._others() if everything or may_list(row, viewer)]

    def admin_rows(self) -> list[dict[str, Any]]:
        """The other live nodes' tables as the host's list shows them (``GET
        /api/admin/tables``, after this node's own: ``Lobby.host_rows``)."""
        return [row for _, row in self._others()]

    def opened_elsewhere(self, player_id: str) -> int:
        """How many open tables ``player_id`` opened that other live nodes serve: with the
        lobby's own count, the cluster-wide count for ``MAX_TABLES_PER_PLAYER``. (Two opens
        at two nodes in the same half second may both pass: the board is not a lock.)"""
        return sum(1 for _, row in self._others() if row.get("created_by") == player_id)

    def owner_of(self, table_id: str) -> str | None:
        """The node the board says serves ``table_id`` (a hint: PostgreSQL's lease is the
        truth)."""
        if table_id in self.lobby.tables:
            return self.node_id
        return self.owners.get(table_id)


def _public(row: dict[str, Any]) -> dict[str, Any]:
    """A host's row as the lobby shows it: no invite, no ``leaving``."""
    out = {k: v for k, v in row.items() if k not in ("invite_code", "invite_path")}
    out["seats"] = [{k: v for k, v in s.items() if k != "leaving"} for s in row["seats"]]
    return out
