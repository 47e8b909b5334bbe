"""Property: however the tables got where they are, and whenever the server is stopped
(SIGTERM) or killed (SIGKILL), it starts again on the same database with every table open and
playable, and every chip where the settled hands put it (docs/architecture.md, "Recovery and
shutdown"; "A crash loses nothing" in app/runtime/table/actor.py).

Each example serves one table of every game from the real server (``python -m app serve``
with its writer process, as ``make run`` does). Hypothesis draws what happens at them: people
sit (with buy-ins in the view's range), leave, top up, the banker or dealer leaves, the host
adds and removes bots, and the people play, picking from ``legal`` without knowing the rules
(docs/protocol.md §6.5). At a drawn moment the server is stopped or killed, sometimes killed
again in the middle of the next start-up's recovery, then started again on the same database.
After each start:

* ``/healthz`` answers within a bound: the server always starts;
* every table opened is listed by ``GET /api/admin/tables``, open, and the host's recovery
  report (``GET /api/admin/recovery``) closed none;
* ``GET /api/admin/audit`` balances and no account is negative;
* after a SIGTERM, everyone seated at the stop is seated again (a graceful stop writes all);
* every table is playable: within a bound it deals a new hand or acknowledges a player's act
  (people and bots sit down where too few are seated).

When the example ends, its ledger is read from the database: every chip that changed owner
did so in a settled hand (a void hand moved none), or came from the host.

Every example has a table of every game, rather than one game per example: a server's
start costs seconds, and several tables in one process are what recovery must keep apart.
``RESTART_EXAMPLES`` (default 3) and ``RESTART_CYCLES`` (stops per example, default 2) make
longer runs; ``RESTART_GAMES`` (ids, comma-separated) narrows the games.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import shutil
import traceback
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

from hypothesis import event, given, note
from hypothesis import strategies as st

from app.games.core.registry import GAME_IDS
from tests.api.test_rules_blind import quick_options
from tests.client import Player
from tests.conftest import _truncate
from tests.live_examples import live_examples
from tests.restart.server import ServerProcess, ledger_faults, servers

EXAMPLES = int(os.environ.get("RESTART_EXAMPLES", "3"))
CYCLES = int(os.environ.get("RESTART_CYCLES", "2"))
PLAYED_GAMES = [g for g in os.environ.get("RESTART_GAMES", ",".join(GAME_IDS)).split(",") if g]
PEOPLE_PER_TABLE = 2
PLAYABLE_BOUND = 25.0
"""Seconds a restarted table has to deal a hand or take an act (people sit down meanwhile)."""
REPLY_BOUND = 10.0
"""Seconds the server has to answer a sit or a top-up."""

SIT_REFUSED = {
    "seat_taken",
    "insufficient_funds",
    "bad_buy_in",
    "already_seated",
    "table_closed",
    "table_paused",
}
ACT_REFUSED = {"stale_version", "not_your_turn"}
TOP_UP_REFUSED = {"insufficient_funds", "illegal_action", "not_seated", "bad_message"}
STEPS = (
    ("play",) * 4
    + ("sit",) * 2
    + ("leave_bank",) * 2
    + ("leave", "empty", "top_up", "add_bot", "remove_bot", "idle")
)
_examples = count()


@dataclass
class Table:
    table_id: str
    game: str
    people: list[Player] = field(default_factory=list)

    def __str__(self) -> str:
        return f"{self.game} table {self.table_id}"


def own_seat(view: dict[str, Any] | None) -> dict[str, Any] | None:
    if view is None or view["you"] is None:
        return None
    return next((s for s in view["seats"] if s["seat"] == view["you"]), None)


def bank_holder(view: dict[str, Any]) -> int | None:
    """The seat holding the bank or the deal, if the game has one (``banker``/``dealer``, or
    a seat whose ``role`` says so)."""
    for key in ("banker", "dealer"):
        if isinstance(view.get(key), int):
            return int(view[key])
    return next(
        (s["seat"] for s in view.get("seats", ()) if s.get("role") in ("banker", "dealer")), None
    )


async def until(condition: Any, bound: float, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + bound
    while not condition():
        if loop.time() > deadline:
            raise AssertionError(f"no answer within {bound}s: {what}")
        await asyncio.sleep(0.01)


class Scenario:
    """One example: the server, its tables and their people, and what Hypothesis draws."""

    def __init__(self, server: ServerProcess, data: st.DataObject) -> None:
        self.server = server
        self.data = data
        self.rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
        self.tables: list[Table] = []
        self.focus: Table | None = None
        self.log: list[str] = []

    def draw(self, strategy: st.SearchStrategy[Any], label: str) -> Any:
        return self.data.draw(strategy, label=label)

    def say(self, line: str) -> None:
        self.log.append(line)
        note(line)

    # ------------------------------------------------------------------ the tables

    async def open_tables(self) -> None:
        for game in PLAYED_GAMES:
            people = [
                await Player.join(self.server, f"R{game[:5]}{i}") for i in range(PEOPLE_PER_TABLE)
            ]
            table_id = await people[0].open_table(game, **quick_options(game))
            table = Table(table_id, game, people)
            self.tables.append(table)
            for person in people:
                await person.connect(table_id)
        for table in self.tables:
            for person in table.people[: self.draw(st.integers(0, PEOPLE_PER_TABLE), "people")]:
                await self.sit(table, person)
            for _ in range(self.draw(st.integers(0, 2), "bots")):
                await self.add_bot(table)
        # most steps happen at one table, so that more of them follow one another there
        self.focus = self.tables[self.draw(st.integers(0, len(self.tables) - 1), "focus")]

    async def reconnect(self) -> None:
        """New clients for the same people, on the restarted server's address."""
        for table in self.tables:
            table.people = [
                Player(self.server.base_url, self.server.ws_url, p.name, p.token, p.info)
                for p in table.people
            ]
            for person in table.people:
                await person.connect(table.table_id)

    async def disconnect(self) -> None:
        for table in self.tables:
            for person in table.people:
                await asyncio.wait_for(person.close(), 30)

    async def listing(self) -> dict[str, dict[str, Any]]:
        rows = await self.server.admin_json("GET", "/api/admin/tables")
        return {row["table_id"]: row for row in rows}

    # ------------------------------------------------------------------ steps

    async def step(self) -> None:
        kind = self.draw(st.sampled_from(STEPS), "step")
        at = self.draw(st.integers(0, 2 * len(self.tables) - 1), "table")
        table = self.tables[at] if at < len(self.tables) or self.focus is None else self.focus
        person = table.people[self.draw(st.integers(0, len(table.people) - 1), "person")]
        # what depends on the table as it is now (a buy-in in the view's range, a bot to
        # remove, the actions) comes from this seed, not from draws: Hypothesis wants the
        # same draws whatever the server did
        self.rng.seed(self.draw(st.integers(0, 2**16 - 1), "seed"))
        self.say(f"{kind} at {table} by {person.name}")
        if kind == "play":
            await self.play(table, self.draw(st.integers(1, 10), "acts"))
        elif kind == "sit":
            await self.sit(table, person)
        elif kind == "leave":
            await self.leave(person)
        elif kind == "leave_bank":
            await self.leave_bank(table)
        elif kind == "empty":
            await self.empty(table)
        elif kind == "top_up":
            await self.top_up(person)
        elif kind == "add_bot":
            await self.add_bot(table)
        elif kind == "remove_bot":
            await self.remove_bot(table)
        else:
            await asyncio.sleep(self.draw(st.sampled_from([0.0, 0.1, 0.4, 1.0]), "idle"))

    async def sit(self, table: Table, person: Player, *, lowest: bool = False) -> None:
        view = person.view
        if view is None or view["you"] is not None:
            return
        low, high = view["table"]["buy_in"]["min"], view["table"]["buy_in"]["max"]
        if low > high or not view["table"]["free_seats"]:
            return
        amount = low if lowest else self.rng.randint(low, min(high, low + 300))
        refusals = len(person.errors)
        await person.send({"type": "sit", "seat": None, "buy_in": amount})
        await until(
            lambda: (person.view or {}).get("you") is not None or len(person.errors) > refusals,
            REPLY_BOUND,
            f"{person.name} sitting at {table} with {amount}",
        )
        for error in person.errors[refusals:]:
            assert error["code"] in SIT_REFUSED, (str(table), error)

    async def leave(self, person: Player) -> None:
        if own_seat(person.view) is None:
            return
        await person.send({"type": "leave"})
        await asyncio.sleep(0.05)

    async def leave_bank(self, table: Table) -> None:
        """The banker (dealer) stands up: a person sends leave, or the host removes a bot."""
        view = next((p.view for p in table.people if p.view), None)
        holder = bank_holder(view) if view else None
        if view is None or holder is None:
            return
        seat = next((s for s in view["seats"] if s["seat"] == holder), None)
        if seat is None or not seat.get("player_id"):
            return
        if seat.get("bot"):
            response = await self.server.admin(
                "DELETE", f"/api/tables/{table.table_id}/bots/{holder}"
            )
            assert response.status_code in (200, 404), response.text
            return
        person = next((p for p in table.people if p.player_id == seat["player_id"]), None)
        if person is not None:
            await self.leave(person)

    async def empty(self, table: Table) -> None:
        """Everyone leaves: the bank or deal first, then the people, then the bots."""
        await self.leave_bank(table)
        for person in table.people:
            await self.leave(person)
        row = (await self.listing()).get(table.table_id)
        for seat in [s["seat"] for s in row["seats"] if s["bot"]] if row else []:
            response = await self.server.admin(
                "DELETE", f"/api/tables/{table.table_id}/bots/{seat}"
            )
            assert response.status_code in (200, 404), response.text

    async def top_up(self, person: Player) -> None:
        view = person.view
        if own_seat(view) is None or view is None or not view["table"]["can_top_up"]:
            return
        refusals = len(person.errors)
        await person.send({"type": "top_up", "amount": self.rng.randint(1, 200)})
        await asyncio.sleep(0.05)
        for error in person.errors[refusals:]:
            assert error["code"] in TOP_UP_REFUSED, error

    async def add_bot(self, table: Table) -> None:
        response = await self.server.admin("POST", f"/api/tables/{table.table_id}/bots")
        assert response.status_code in (201, 409), response.text

    async def remove_bot(self, table: Table) -> None:
        row = (await self.listing()).get(table.table_id)
        bots = [s["seat"] for s in row["seats"] if s["bot"]] if row else []
        if not bots:
            return
        seat = self.rng.choice(bots)
        response = await self.server.admin("DELETE", f"/api/tables/{table.table_id}/bots/{seat}")
        assert response.status_code in (200, 404), response.text

    async def play(self, table: Table, acts: int, bound: float = 3.0) -> bool:
        """Up to ``acts`` acts by the table's people, each picked from ``legal`` (rules-blind);
        True when one was acknowledged."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + bound
        acked = False
        while acts > 0 and loop.time() < deadline:
            mover = next(
                (
                    p
                    for p in self.rng.sample(table.people, len(table.people))
                    if p.view and p.view["legal"]
                ),
                None,
            )
            if mover is None:
                await asyncio.sleep(0.05)
                continue
            action = mover.random_legal(self.rng)
            assert action is not None
            reply = await mover.act(action)
            if reply["type"] == "error":
                # a player who has just left acted on the view from before (the state that
                # says so came before this answer)
                gone = reply["code"] == "not_seated" and own_seat(mover.view) is None
                assert reply["code"] in ACT_REFUSED or gone, (str(table), action, reply)
            else:
                acked = True
            acts -= 1
        return acked

    # ------------------------------------------------------------------ stop and start

    async def stop_and_start(self) -> None:
        how = self.draw(st.sampled_from(["sigterm", "sigkill"]), "stop")
        await asyncio.sleep(self.draw(st.sampled_from([0.0, 0.02, 0.2]), "stop_delay"))
        seated: dict[str, dict[int, tuple[str, bool]]] = {}
        if how == "sigterm":
            seated = {
                table_id: {s["seat"]: (s["player_id"], s["leaving"]) for s in row["seats"]}
                for table_id, row in (await self.listing()).items()
            }
        self.say(f"{how}")
        event(f"stopped by {how}")
        self.server.stop(how)
        await self.disconnect()
        crash = self.draw(st.sampled_from([None, None, None, 0.0, 0.05, 0.2]), "crash_at_start")
        if crash is not None:  # killed again while recovering: that loses nothing either
            self.say(f"sigkill {crash}s into the next start-up")
            event("killed while starting")
            await self.server.start_and_kill(crash)
        took = await self.server.start()
        self.say(f"started again in {took:.1f}s")
        await self.check_restarted(seated)

    async def check_restarted(self, seated: dict[str, dict[int, tuple[str, bool]]]) -> None:
        listed = await self.listing()
        for table in self.tables:
            assert table.table_id in listed, f"{table} is gone after the restart: {listed}"
            assert listed[table.table_id]["status"] == "open", listed[table.table_id]
        for table_id, before in seated.items():
            after = {s["seat"]: s["player_id"] for s in listed[table_id]["seats"]}
            for seat, (player_id, leaving) in before.items():
                if not leaving:
                    assert after.get(seat) == player_id, (
                        f"table {table_id}: seat {seat} was {player_id} before a SIGTERM, "
                        f"{after.get(seat)} after it"
                    )
            assert set(after) <= set(before), (table_id, before, after)
        audit = await self.server.admin_json("GET", "/api/admin/audit")
        assert audit["balanced"] is True and not audit["negative_accounts"], audit
        recovery = await self.server.admin_json("GET", "/api/admin/recovery")
        assert recovery["closed"] == [], f"tables closed at the start: {recovery}"
        voided = recovery["voided_hands"]
        event(f"stopped with {voided} hand(s) in play" if voided < 3 else "stopped with 3+ in play")
        await self.reconnect()
        await asyncio.gather(*(self.playable(table) for table in self.tables))

    async def playable(self, table: Table) -> None:
        """The table deals a new hand, or takes an act of one of its people, within
        PLAYABLE_BOUND; where nothing happens, someone sits down (a person, else a bot)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + PLAYABLE_BOUND
        helped = loop.time()
        while loop.time() < deadline:
            views = [p.view for p in table.people if p.view is not None]
            if any(v["hand_id"] is not None for v in views):
                return  # every hand there was is void: this one was dealt since the start
            if await self.play(table, 1, bound=0.2):
                return
            if loop.time() - helped > 1.0:
                helped = loop.time()
                await self.help(table)
            await asyncio.sleep(0.05)
        last = [p.view for p in table.people]
        listed = (await self.listing()).get(table.table_id)
        raise AssertionError(
            f"{table} neither dealt nor took an act within {PLAYABLE_BOUND}s of the restart.\n"
            f"listing: {listed}\nviews: {last}\nsteps: {self.log}\n"
            f"server:\n{self.server.output(3000)}"
        )

    async def help(self, table: Table) -> None:
        """Bring a stalled table a player: a broke person buys in again, an unseated one
        sits down, else the host seats a bot."""
        for person in table.people:
            mine = own_seat(person.view)
            if mine is not None and mine["stack"] == 0 and person.view is not None:
                if person.view["table"]["can_top_up"]:
                    # a buy-in's chips, as far as the table lets a top-up bring (top_up_max)
                    limits = person.view["table"]
                    amount = min(limits["buy_in"]["min"], limits["top_up_max"])
                    await person.send({"type": "top_up", "amount": max(1, amount)})
                else:
                    await self.leave(person)
                return
        for person in table.people:
            if own_seat(person.view) is None and person.view and person.view["table"]["free_seats"]:
                before = len(person.errors)
                await self.sit(table, person, lowest=True)
                if len(person.errors) == before:
                    return
        await self.add_bot(table)


async def run_example(database_url: str, log: Path, data: st.DataObject) -> None:
    with servers() as started:
        server = ServerProcess(database_url, log)
        started.append(server)
        await server.start()
        scenario = Scenario(server, data)
        try:
            await scenario.open_tables()
            for _ in range(scenario.draw(st.integers(1, CYCLES), "cycles")):
                for _ in range(scenario.draw(st.integers(1, 6), "steps")):
                    await scenario.step()
                await scenario.stop_and_start()
            server.terminate()
            faults = await ledger_faults(database_url)
            assert not faults, faults
        except Exception:  # not Hypothesis's own StopTest (an example that drew too much)
            # Hypothesis runs a failing example again to report it, and timing makes that
            # run differ (it may even pass): this one's failure is told here, as it happened.
            print(
                f"==== a failing example at {database_url}\n{traceback.format_exc()}\n"
                "==== its steps\n" + "\n".join(scenario.log) + "\n"
                f"==== the server's output\n{server.output(20_000)}",
                flush=True,
            )
            raise
        finally:
            with contextlib.suppress(Exception):  # the sockets of a stopped server
                await scenario.disconnect()


@live_examples(EXAMPLES)
@given(data=st.data())
def test_every_table_comes_back_playable_with_every_chip(
    data: st.DataObject, tmp_path: Path, sqlite_template: Path, postgres_url: str | None
) -> None:
    example = tmp_path / f"example-{next(_examples)}"
    example.mkdir()
    if postgres_url:
        asyncio.run(_truncate(postgres_url))
        database_url = postgres_url
    else:
        shutil.copy(sqlite_template, example / "table31.db")
        database_url = f"sqlite+aiosqlite:///{example / 'table31.db'}"
    asyncio.run(run_example(database_url, example / "server.log", data))
