"""The audit reads the ledger in one snapshot (docs/protocol.md, ``GET /api/admin/audit``).

While bot tables play, the writer commits hands all the time. An audit that read its sums in
several statements could take the grants before a commit and the balances after it (or the
accounts before and their entries after), and say ``balanced: false`` while the money is
right — as it did, on either database, for a few percent of the calls. Here a dozen bot
tables play while several callers ask for the audit at once: every answer must balance, and
its extra figures (the house, the chips by kind) must be the same snapshot's.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx

from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer

TABLES = 12
CALLERS = 6
CALLS = 300
GAMES = ("greek-31", "vingt-un", "trente-et-quarante")


async def bot_tables(live: LiveServer, opener: Player) -> list[str]:
    """``TABLES`` tables of bots only, dealing as fast as the test settings allow."""
    tables = []
    for i in range(TABLES):
        game = GAMES[i % len(GAMES)]
        table_id = await opener.open_table(game, turn_seconds=1)
        for _ in range(2):
            added = await opener.http.post(f"/api/tables/{table_id}/bots", json={})
            assert added.status_code == 201, added.text
        tables.append(table_id)
    return tables


async def hands_finished(live: LiveServer) -> int:
    return sum(t.hands_played for t in live.services.lobby.tables.values())


async def test_the_audit_always_balances_while_bot_tables_play(live: LiveServer) -> None:
    opener = await Player.join(live, "Audrey")
    await bot_tables(live, opener)
    host = httpx.AsyncClient(
        base_url=live.base_url, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=30
    )
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60  # for a stuck run only
    while await hands_finished(live) < 2 * TABLES:  # the tables deal before the audits start
        assert loop.time() < deadline, f"{await hands_finished(live)} hands played"
        await asyncio.sleep(0.05)
    before = await hands_finished(live)
    answers: list[dict[str, Any]] = []
    queue = list(range(CALLS))

    async def caller() -> None:
        while queue:
            queue.pop()
            response = await host.get("/api/admin/audit")
            assert response.status_code == 200, response.text
            answers.append(response.json())

    # every call is made, however long a busy machine takes (the bound ends a hung test)
    await asyncio.wait_for(asyncio.gather(*(caller() for _ in range(CALLERS))), 180)
    played = await hands_finished(live) - before
    await host.aclose()
    await opener.close()
    assert len(answers) == CALLS
    assert played >= TABLES, f"the tables did not play during the audits ({played} hands)"
    wrong = [a for a in answers if not a["balanced"]]
    assert not wrong, f"{len(wrong)} of {len(answers)} audits not balanced; first: {wrong[0]}"
    for a in answers:
        assert sum(a["by_kind"].values()) == a["accounts_total"], a
        assert a["house"] == a["by_kind"].get("house", 0), a
