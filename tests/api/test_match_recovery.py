"""En og tredive's match survives a restart: the bets in front of each player, the pot
and who is still in are as they were after the last finished round; the round being played is
void. The ledger holds the pot and the bets as accounts, so the audit balances throughout."""

from __future__ import annotations

import httpx

from tests.api.test_socket import audit
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.waiting import until

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}


async def test_a_match_resumes_from_its_last_finished_round(database_url: str) -> None:
    server = LiveServer(make_settings(database_url))
    await server.start()
    async with httpx.AsyncClient(timeout=30, base_url=server.base_url, headers=HOST) as host:
        opener = (await host.post("/api/session", json={"name": "Host"})).json()
        table = await host.post(
            "/api/tables",
            json={"game": "en-og-tredive", "options": {"turn_seconds": 5}},
            headers={"authorization": f"Bearer {opener['token']}"},
        )
        table_id = table.json()["table_id"]
        for _ in range(3):
            assert (await host.post(f"/api/admin/tables/{table_id}/bots")).status_code == 201
    actor = server.services.lobby.get(table_id)
    assert actor is not None
    # Let the bots play until at least two rounds have finished and a third is under way.
    await until(
        lambda: actor.hands_played >= 2 and actor.hand_id is not None,
        "the bots playing a third round",
    )
    await server.stop()  # the round in play is void: the table is back after the last round
    after_last_round = dict(actor.engine.balances)
    match_before = actor.engine.snapshot()

    again = LiveServer(make_settings(database_url))
    await again.start()
    try:
        restored = again.services.lobby.get(table_id)
        assert restored is not None
        async with restored.lock:
            balances = {k: v for k, v in restored.engine.balances.items() if v}
            assert balances == {k: v for k, v in after_last_round.items() if v}
            assert restored.engine.snapshot()["match"] == match_before["match"]
        assert (await audit(again))["balanced"] is True
    finally:
        await again.stop()
