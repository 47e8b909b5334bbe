"""Bots at three levels through the real app (docs/analysis.md §5, docs/protocol/rest.md): the
level is chosen when the bot is seated, shown beside it, refused when unknown, and kept when
the server restarts."""

from __future__ import annotations

from typing import Any

import httpx

from tests import waiting
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, Serve


async def seats(live: LiveServer, table_id: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        seated: list[dict[str, Any]] = (await http.get(f"/api/tables/{table_id}")).json()["seats"]
    return seated


async def test_each_bot_plays_at_its_level_and_keeps_it_across_a_restart(serve: Serve) -> None:
    live = await serve()
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("vingt-un")
    for body in ({"level": "random"}, {"level": "best"}, {}):
        assert (await ada.http.post(f"/api/tables/{table_id}/bots", json=body)).status_code == 201
    refused = await ada.http.post(f"/api/tables/{table_id}/bots", json={"level": "genius"})
    assert refused.status_code == 422, refused.text
    levels = {s["seat"]: s.get("bot_level") for s in await seats(live, table_id)}
    assert sorted(levels.values()) == ["best", "random", "steady"]

    # the bots play (a best bot's decisions go through the analysis) and the view shows them
    await ada.connect(table_id)
    view = await ada.wait_for(lambda v: v["hand_id"] is not None)
    assert {s["seat"]: s["bot_level"] for s in view["seats"] if s.get("bot")} == levels

    # the host seats one too, at its level
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
    ) as host:
        added = await host.post(f"/api/admin/tables/{table_id}/bots", json={"level": "best"})
    assert added.status_code == 201, added.text
    levels[added.json()["seat"]] = "best"

    async def stored() -> bool:
        return {s["seat"]: s.get("bot_level") for s in await seats(live, table_id)} == levels

    await waiting.until(stored, "the host's bot seated")
    await ada.close()
    await live.stop()
    again = await serve()
    # the table comes back with its bots at the same levels
    await waiting.until(
        lambda: _levels_are(again, table_id, levels), "the table restored with its bots"
    )


async def _levels_are(live: LiveServer, table_id: str, levels: dict[int, str]) -> bool:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        answer = await http.get(f"/api/tables/{table_id}")
    if answer.status_code != 200:
        return False
    return {s["seat"]: s.get("bot_level") for s in answer.json()["seats"]} == levels
