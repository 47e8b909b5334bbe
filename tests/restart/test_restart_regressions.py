"""Restarts that once stopped the server for good, on the real server process.

At a Trianta Ena table the banker left, then everyone else; the host stopped the server with
SIGTERM, and from then on ``make run`` died at start-up, every time, with ``KeyError:
'seat:3'``: the stored state still named a banker no longer seated, and the first table that
could not be restored took the whole server down with it. The rules (docs/protocol.md §7,
"Leaving"): a banker who leaves ends the bank; the bank is then offered to every player by
stack and the table waits until one accepts; with nobody seated, the next player to sit brings
the first bank.

* the banker, then everyone, leaves; SIGTERM; the server starts, the table waits for a first
  banker, and the next to sit is the banker;
* the banker leaves, the players stay; SIGKILL; the bank is offered round the table, vacant;
* the database exactly as the old server left it (a state naming the banker gone) starts;
* tables whose stored states are garbage are closed, their chips back through the ledger and
  named with the reason for the host, while every other table comes back.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from app.db.session import make_engine
from tests.client import Player
from tests.restart.server import (
    ServerProcess,
    ledger_faults,
    servers,
    stored_state,
    write_state,
)

OPTIONS = {
    "min_bet": 10,
    "buy_in": 100,
    "banker_multiple": 3,
    "bet_seconds": 60,
    "turn_seconds": 60,
}
"""Long clocks: every decision here is a person's."""
BANKER_SEAT, BEN_SEAT, CLEO_SEAT = 3, 0, 1


@pytest.fixture
async def server(database_url: str, tmp_path: Path) -> AsyncIterator[ServerProcess]:
    with servers() as started:
        process = ServerProcess(database_url, tmp_path / "server.log")
        started.append(process)
        await process.start()
        yield process


async def restart(server: ServerProcess, how: str, people: list[Player]) -> list[Player]:
    """Stop (``sigterm``/``sigkill``), start again; the same people on the new address."""
    server.stop(how)
    for person in people:
        await asyncio.wait_for(person.close(), 30)
    await server.start()
    return [again(server, person) for person in people]


def again(server: ServerProcess, person: Player) -> Player:
    return Player(server.base_url, server.ws_url, person.name, person.token, person.info)


async def listed(server: ServerProcess) -> dict[str, dict[str, Any]]:
    rows = await server.admin_json("GET", "/api/admin/tables")
    return {row["table_id"]: row for row in rows}


async def bankroll(server: ServerProcess, person: Player) -> int:
    response = await person.http.get(f"{server.base_url}/api/me")
    assert response.status_code == 200, response.text
    return int(response.json()["bankroll"])


async def balanced(server: ServerProcess, database_url: str) -> None:
    audit = await server.admin_json("GET", "/api/admin/audit")
    assert audit["balanced"] is True and not audit["negative_accounts"], audit
    assert await ledger_faults(database_url) == []


async def a_trianta_ena_table_after_a_round(server: ServerProcess) -> tuple[str, list[Player]]:
    """The banker (seat 3) and two players; one round played (both fold): the stored state
    names the banker."""
    banker, ben, cleo = [await Player.join(server, name) for name in ("Banker", "Ben", "Cleo")]
    table_id = await banker.open_table("trianta-ena", **OPTIONS)
    for person in (banker, ben, cleo):
        await person.connect(table_id)
    await banker.sit(300, seat=BANKER_SEAT)
    await ben.sit(100, seat=BEN_SEAT)
    await cleo.sit(100, seat=CLEO_SEAT)
    view = await ben.wait_for(lambda v: v["hand_id"] is not None and v["legal"])
    first = view["hand_id"]
    for person in (ben, cleo):
        await person.wait_for(lambda v: v["hand_id"] == first and v["legal"])
        assert (await person.act({"kind": "fold"}))["type"] == "ack"
    await ben.wait_for(lambda v: v["hand_id"] != first)
    await server.admin_json("GET", "/api/admin/audit")  # the round's record is written
    return table_id, [banker, ben, cleo]


async def stand_up(leavers: list[Player], table: list[Player]) -> None:
    """The ``leavers`` leave, one after the other, as people do: they just go. A round being
    played ends first: everyone at the ``table`` folds or stands meanwhile, so nobody waits
    on a clock. (Nobody answers a bank offer: a decision between hands writes the state, and
    the old server's leaves did not.)"""
    loop = asyncio.get_running_loop()
    for leaver in leavers:
        await leaver.send({"type": "leave"})
        deadline = loop.time() + 30
        while leaver.view is not None and leaver.view["you"] is not None:
            assert loop.time() < deadline, f"{leaver.name} could not leave: {leaver.view}"
            for person in table:
                kinds = {t["kind"] for t in person.view["legal"]} if person.view else set()
                kind = next((k for k in ("fold", "stand") if k in kinds), None)
                if kind is not None:
                    await person.act({"kind": kind})
            await asyncio.sleep(0.02)


def phase_is(*phases: str) -> Callable[[dict[str, Any]], bool]:
    return lambda v: v["phase"] in phases


async def test_the_banker_then_everyone_leaves_and_sigterm(
    server: ServerProcess, database_url: str
) -> None:
    table_id, people = await a_trianta_ena_table_after_a_round(server)
    banker, ben, cleo = people
    assert (await stored_state(database_url, table_id))["bank"]["banker"] == BANKER_SEAT
    await stand_up(people, people)  # the banker first
    assert (await listed(server))[table_id]["seats"] == []

    banker, ben, cleo = await restart(server, "sigterm", people)

    row = (await listed(server)).get(table_id)
    assert row is not None and row["status"] == "open" and row["seats"] == [], row
    assert (await server.admin_json("GET", "/api/admin/recovery"))["closed"] == []
    await ben.connect(table_id)
    view = await ben.wait_for(lambda v: True)
    assert (view["phase"], view["banker"], view["offer"]) == ("no_banker", None, None), view
    assert view["table"]["buy_in"] == {"min": 300, "max": 300}  # the first bank's buy-in
    # the next player to sit is the first banker, and the table deals again
    view = await ben.sit(300)
    assert view["banker"] == view["you"], view
    await cleo.connect(table_id)
    await cleo.sit(100)
    view = await cleo.wait_for(lambda v: v["hand_id"] is not None and v["legal"])
    assert view["banker"] == ben.view["you"] and view["phase"] == "betting"  # type: ignore[index]
    assert (await cleo.act({"kind": "fold"}))["type"] == "ack"
    for person in (banker, ben, cleo):
        await person.close()
    await balanced(server, database_url)


async def test_the_banker_leaves_and_sigkill_then_the_bank_is_offered(
    server: ServerProcess, database_url: str
) -> None:
    table_id, people = await a_trianta_ena_table_after_a_round(server)
    banker, ben, cleo = people
    await stand_up([banker], people)
    view = await ben.wait_for(phase_is("bank_offer"))
    # equal stacks: seat order decides who is offered the vacant bank first
    assert view["offer"] == {"seat": BEN_SEAT, "vacant": True}, view
    await server.admin_json("GET", "/api/admin/audit")  # the writer has written the leave

    banker, ben, cleo = await restart(server, "sigkill", people)

    row = (await listed(server))[table_id]
    assert {s["seat"]: s["player_id"] for s in row["seats"]} == {
        BEN_SEAT: ben.player_id,
        CLEO_SEAT: cleo.player_id,
    }
    for person in (ben, cleo):
        await person.connect(table_id)
    view = await ben.wait_for(phase_is("bank_offer"))
    assert view["banker"] is None and view["offer"] == {"seat": BEN_SEAT, "vacant": True}
    assert {t["kind"] for t in view["legal"]} - {"time_bank"} == {"accept_bank", "decline_bank"}
    assert (await ben.act({"kind": "decline_bank"}))["type"] == "ack"
    view = await cleo.wait_for(lambda v: v["offer"] is not None and v["offer"]["seat"] == 1)
    assert (await cleo.act({"kind": "accept_bank"}))["type"] == "ack"
    view = await ben.wait_for(lambda v: v["hand_id"] is not None and v["legal"])
    assert view["banker"] == CLEO_SEAT and view["phase"] == "betting", view
    assert (await ben.act({"kind": "bet", "amount": 10}))["type"] == "ack"
    for person in (banker, ben, cleo):
        await person.close()
    await balanced(server, database_url)


async def test_a_database_as_the_old_server_left_it_starts(
    server: ServerProcess, database_url: str
) -> None:
    """The state stored after the round, before anyone left, without the seats the runtime
    now saves with it: what the old server left behind when the banker, then everyone, left
    (its leaves did not write the state). The server starts; the table waits for a banker."""
    table_id, people = await a_trianta_ena_table_after_a_round(server)
    old = await stored_state(database_url, table_id)
    old = {k: v for k, v in old.items() if k in ("bank", "stock", "discard", "hand_number")}
    assert old["bank"]["banker"] == BANKER_SEAT
    await stand_up(people, people)
    server.terminate()
    await write_state(database_url, table_id, old)

    for person in people:
        await asyncio.wait_for(person.close(), 30)
    await server.start()
    ben = again(server, people[1])
    row = (await listed(server)).get(table_id)
    assert row is not None and row["seats"] == [], row
    await ben.connect(table_id)
    view = await ben.wait_for(lambda v: True)
    assert (view["phase"], view["banker"]) == ("no_banker", None), view
    view = await ben.sit(300)
    assert view["banker"] == view["you"]
    await ben.close()
    await balanced(server, database_url)


async def raw_state(database_url: str, table_id: str, raw: str) -> None:
    """``tables.state`` set to text that is no JSON at all (SQLite keeps JSON as text)."""
    engine = make_engine(database_url)
    try:
        async with engine.begin() as conn:
            await conn.execute(
                text("UPDATE tables SET state = :raw WHERE id = :id"), {"raw": raw, "id": table_id}
            )
    finally:
        await engine.dispose()


async def test_tables_with_garbage_states_are_closed_and_the_rest_come_back(
    server: ServerProcess, database_url: str
) -> None:
    host = await Player.join(server, "Host")
    xenia, yannis, zoe, wanda = [
        await Player.join(server, name) for name in ("Xenia", "Yannis", "Zoe", "Wanda")
    ]
    # two tables of bots, which must come back and deal
    healthy = {
        game: await host.open_table(game, turn_seconds=2) for game in ("trianta-ena", "vingt-un")
    }
    for table_id in healthy.values():
        for _ in range(2):
            response = await server.admin("POST", f"/api/tables/{table_id}/bots")
            assert response.status_code == 201, response.text
    # three tables of people, whose states will be spoilt
    spoilt: dict[str, str] = {}
    stacks: dict[str, dict[str, int]] = {}
    seating = {
        "greek-31": [(xenia, 200), (yannis, 150)],
        "en-og-tredive": [(zoe, 250), (wanda, 120)],
        "trente-et-quarante": [(wanda, 300)],
    }
    for game, sitters in seating.items():
        table_id = await host.open_table(game, turn_seconds=600)
        spoilt[game] = table_id
        stacks[table_id] = {}
        for person, chips in sitters:
            await person.connect(table_id)
            await person.sit(chips)
            await person.disconnect()
            stacks[table_id][person.player_id] = chips
    people = [xenia, yannis, zoe, wanda]
    before = {p.player_id: await bankroll(server, p) for p in people}
    server.terminate()

    await write_state(database_url, spoilt["greek-31"], {"dealer": {"who": "?"}, "stock": 7})
    await write_state(database_url, spoilt["en-og-tredive"], [1, 2, 3])
    if database_url.startswith("sqlite"):
        await raw_state(database_url, spoilt["trente-et-quarante"], '{"phase": "betting", ')
    else:  # a JSONB column takes JSON only
        await write_state(database_url, spoilt["trente-et-quarante"], "garbage")

    for person in [host, *people]:
        await asyncio.wait_for(person.close(), 30)
    await server.start()

    rows = await listed(server)
    for table_id in healthy.values():
        assert rows.get(table_id, {}).get("status") == "open", rows
    for game, table_id in spoilt.items():
        assert table_id not in rows, (game, rows[table_id])
        response = await server.admin("GET", f"/api/tables/{table_id}")
        assert response.status_code == 404, response.text
    # the host is told which tables were closed, why, and what went back to whom
    report = await server.admin_json("GET", "/api/admin/recovery")
    closed = {c["table_id"]: c for c in report["closed"]}
    assert set(closed) == set(spoilt.values()), report
    for game, table_id in spoilt.items():
        assert closed[table_id]["game"] == game
        assert "could not be restored" in closed[table_id]["reason"], closed[table_id]
        assert closed[table_id]["returned"] == stacks[table_id], closed[table_id]
        assert table_id in server.output(100_000), "the log names the table"
    assert report["recovered"] == len(healthy), report
    # every stack went back to its bankroll, through the ledger
    people = [again(server, p) for p in people]
    for person in people:
        back = sum(s.get(person.player_id, 0) for s in stacks.values())
        assert await bankroll(server, person) == before[person.player_id] + back
        await person.http.aclose()
    await balanced(server, database_url)
    # the healthy tables deal again
    watcher = again(server, host)
    for table_id in healthy.values():
        await watcher.connect(table_id)
        await watcher.wait_for(lambda v: v["hand_id"] is not None, timeout=20)
        await watcher.disconnect()
    await watcher.close()


async def test_a_banker_who_leaves_mid_round_takes_the_round_home(
    server: ServerProcess, database_url: str
) -> None:
    """The banker asks to leave during a round, and goes when it ends: with the stack as the
    round left it. (The round's end let the pending leave go before the round was written:
    the cash-out took the stack from before the round, and the round's result then landed
    in a stack with nobody seated, so that the next start-up closed the table; a banker who
    lost made the round's write fail.)"""
    banker, ben = [await Player.join(server, name) for name in ("Banker", "Ben")]
    table_id = await banker.open_table("trianta-ena", **OPTIONS)
    for person in (banker, ben):
        await person.connect(table_id)
    await banker.sit(300, seat=BANKER_SEAT)
    await ben.sit(100, seat=BEN_SEAT)
    view = await ben.wait_for(lambda v: v["hand_id"] is not None and v["legal"])
    hand_id = view["hand_id"]
    await banker.send({"type": "leave"})
    await ben.wait_for(lambda v: any(s["leaving"] for s in v["seats"]))
    assert (await ben.act({"kind": "bet", "amount": 10}))["type"] == "ack"
    # stand at once (a 31 stands by itself, and the round may end without a turn)
    view = await ben.wait_for(
        lambda v: v["hand_id"] != hand_id or any(t["kind"] == "stand" for t in v["legal"])
    )
    if view["hand_id"] == hand_id:
        assert (await ben.act({"kind": "stand"}))["type"] == "ack"
    await banker.wait_for(lambda v: v["you"] is None)
    record = await server.admin_json("GET", f"/api/hands/{hand_id}")
    assert record["status"] == "finished", record
    after = {s["seat"]: s["stack"] for s in record["seats_after"]}
    assert after[BANKER_SEAT] + after[BEN_SEAT] == 400 and after[BANKER_SEAT] != 300, record
    assert await bankroll(server, banker) == 700 + after[BANKER_SEAT]
    await balanced(server, database_url)

    banker, ben = await restart(server, "sigterm", [banker, ben])
    assert (await server.admin_json("GET", "/api/admin/recovery"))["closed"] == []
    assert table_id in await listed(server)
    await banker.close()
    await ben.close()
