"""Recovery never takes the server down (app/runtime/lobby.py, ``Lobby.recover``).

* A Trianta Ena table whose banker left, then every player: the stored state must not name a
  banker who is gone. After a restart the table is there, and the next player to sit is the
  first banker (docs/rules: a banker who leaves ends the bank; with nobody left, the next
  player to sit brings the first bank).
* A table whose stored state cannot be restored is closed with its chips returned through
  the ledger, named with the reason in the host's recovery report, while every other table
  comes back and the audit balances.
"""

from __future__ import annotations

from typing import Any

import httpx
from sqlalchemy import text

from app.db.session import make_engine
from tests.api.test_socket import audit
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.waiting import until

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}
OPTIONS = {"min_bet": 10, "buy_in": 100, "banker_multiple": 3, "bet_seconds": 60}


async def _restart(server: LiveServer, database_url: str) -> LiveServer:
    await server.stop()
    again = LiveServer(make_settings(database_url))
    await again.start()
    return again


async def test_a_bank_whose_banker_left_comes_back_vacant(database_url: str) -> None:
    server = LiveServer(make_settings(database_url))
    await server.start()
    banker = await Player.join(server, "Banker")
    ben = await Player.join(server, "Ben")
    table_id = await banker.open_table("trianta-ena", **OPTIONS)
    for player in (banker, ben):
        await player.connect(table_id)
    await banker.sit(300, seat=3)
    await ben.sit(100, seat=0)
    await banker.wait_for(lambda v: v["phase"] in ("betting", "waiting") and v["you"] == 3)
    # the banker leaves (now, or when the round ends), then the player
    await banker.send({"type": "leave"})
    await banker.wait_for(lambda v: v["you"] is None, timeout=30)
    await ben.send({"type": "leave"})
    await ben.wait_for(lambda v: v["you"] is None, timeout=30)
    for player in (banker, ben):
        await player.close()

    server = await _restart(server, database_url)
    try:
        actor = server.services.lobby.get(table_id)
        assert actor is not None, server.services.lobby.recovery.to_json()
        assert server.services.lobby.recovery.closed == []
        assert actor.engine.banker is None  # type: ignore[attr-defined]
        cleo = await Player.join(server, "Cleo")
        await cleo.connect(table_id)
        view = await cleo.wait_for(lambda v: True)
        assert view["table"]["buy_in"] == {"min": 300, "max": 300}  # the first bank
        await cleo.sit(300)
        assert actor.engine.banker == cleo.view["you"]  # type: ignore[attr-defined, union-attr]
        await cleo.close()
        assert (await audit(server))["balanced"] is True
    finally:
        await server.stop()


async def _bot_table(http: httpx.AsyncClient, token: str, game: str) -> str:
    response = await http.post(
        "/api/tables",
        json={"game": game, "options": {}},
        headers={"authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201, response.text
    table_id = str(response.json()["table_id"])
    for _ in range(2):
        assert (await http.post(f"/api/admin/tables/{table_id}/bots")).status_code == 201
    return table_id


async def _break_state(database_url: str, table_id: str) -> None:
    """Spoil a table's stored state behind the server's back: text that is not JSON on
    SQLite; on PostgreSQL, which keeps JSON valid, a state of the wrong shape."""
    engine = make_engine(database_url)
    async with engine.begin() as conn:
        if database_url.startswith("sqlite"):
            statement = "UPDATE tables SET state = :v WHERE id = :id"
            value = "{not json"
        else:
            statement = "UPDATE tables SET state = CAST(:v AS JSON) WHERE id = :id"
            value = '{"bank": 7, "stock": "x"}'
        await conn.execute(text(statement), {"v": value, "id": table_id})
    await engine.dispose()


async def test_an_unrestorable_table_is_closed_and_the_others_come_back(
    database_url: str,
) -> None:
    server = LiveServer(make_settings(database_url))
    await server.start()
    async with httpx.AsyncClient(timeout=30, base_url=server.base_url, headers=HOST) as http:
        opener: dict[str, Any] = (await http.post("/api/session", json={"name": "Opener"})).json()
        broken = await _bot_table(http, opener["token"], "greek-31")
        healthy = await _bot_table(http, opener["token"], "vingt-un")

    def both_played() -> bool:  # both have played a hand: their states are stored
        actors = [server.services.lobby.get(t) for t in (broken, healthy)]
        return all(a is not None and a.hands_played >= 1 for a in actors)

    await until(both_played, "a hand played at both tables")
    await server.stop()
    await _break_state(database_url, broken)

    server = LiveServer(make_settings(database_url))
    await server.start()
    try:
        lobby = server.services.lobby
        assert lobby.get(healthy) is not None
        assert lobby.get(broken) is None
        async with httpx.AsyncClient(timeout=30, base_url=server.base_url, headers=HOST) as http:
            report = (await http.get("/api/admin/recovery")).json()
            (closed,) = report["closed"]
            assert closed["table_id"] == broken and "restored" in closed["reason"]
            assert sum(closed["returned"].values()) > 0  # the bots' stacks went home
            assert broken not in {t["table_id"] for t in (await http.get("/api/tables")).json()}
            actions = (await http.get("/api/admin/actions")).json()
            assert any(a["action"] == "recovery_closed_table" for a in actions)
        result = await audit(server)
        assert result["balanced"] is True, result
        assert not any(
            a.startswith(f"stack:{broken}") for a, b in result.get("balances", {}).items() if b
        )
    finally:
        await server.stop()


async def test_an_engine_that_cannot_deal_pauses_its_table_for_the_host(live: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        opener: dict[str, Any] = (await http.post("/api/session", json={"name": "Opener"})).json()
        table_id = await _bot_table(http, opener["token"], "vingt-un")
        actor = live.services.lobby.get(table_id)
        assert actor is not None
        await until(lambda: actor.hands_played >= 1 and not actor.engine.in_hand, "a hand played")
        async with actor.lock:
            engine = actor.engine

            def broken_deal() -> None:
                engine.in_hand = True  # half-way through, as a real fault would leave it
                raise ZeroDivisionError("a fault in the engine")

            engine.start_hand = broken_deal  # type: ignore[method-assign]
        await until(lambda: actor.status == "paused", "the table paused")
        assert actor.status == "paused" and "could not deal" in (actor.pause_reason or "")
        assert actor.engine is not engine and not actor.engine.in_hand  # back as it was
        assert (await http.get(f"/api/tables/{table_id}")).json()["paused"] is True
        # the host resumes: the rebuilt engine deals again
        assert (await http.post(f"/api/admin/tables/{table_id}/resume")).status_code == 200
        played = actor.hands_played
        await until(lambda: actor.hands_played > played, "a hand dealt after the resume")
        assert actor.hands_played > played
        result = (await http.get("/api/admin/audit")).json()
        assert result["balanced"] is True, result
