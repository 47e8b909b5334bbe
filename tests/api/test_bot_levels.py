"""Bots at three levels through the real app (docs/analysis.md §5, docs/protocol/rest.md): the
level is chosen when the bot is seated, shown beside it, refused when unknown, and stored with
the seat in the transaction that seats it, so that it survives a restart at any moment (in the
middle of a hand too) and a room's switch of game."""

from __future__ import annotations

import random
from typing import Any

import httpx

from app.games.core.actions import random_action
from tests import waiting
from tests.api.test_rooms import closed_with, open_room, switch
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, Serve


async def listing(live: LiveServer, table_id: str) -> dict[str, Any] | None:
    """The table's summary (``GET /api/tables/{id}``), None while the server does not serve it."""
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        answer = await http.get(f"/api/tables/{table_id}")
    return answer.json() if answer.status_code == 200 else None  # type: ignore[no-any-return]


async def bot_levels(live: LiveServer, table_id: str) -> dict[int, str | None] | None:
    """Each bot's seat and level, None while the server does not serve the table."""
    listed = await listing(live, table_id)
    if listed is None:
        return None
    return {s["seat"]: s.get("bot_level") for s in listed["seats"] if s.get("bot")}


async def test_each_bot_plays_at_its_level_and_keeps_it_across_a_restart_mid_hand(
    serve: Serve,
) -> None:
    live = await serve()
    ada = await Player.join(live, "Ada")
    # Ada plays with a steady bot, slowly: the hand waits for her while the others are seated
    table_id = await ada.open_table("vingt-un", turn_seconds=600)
    assert (await ada.http.post(f"/api/tables/{table_id}/bots", json={})).status_code == 201
    await ada.connect(table_id)
    await ada.sit(100)
    await ada.wait_for(lambda v: v["hand_id"] is not None and bool(v["legal"]), timeout=60)
    hand_id = ada.view["hand_id"]
    for body in ({"level": "random"}, {"level": "best"}):
        assert (await ada.http.post(f"/api/tables/{table_id}/bots", json=body)).status_code == 201
    refused = await ada.http.post(f"/api/tables/{table_id}/bots", json={"level": "genius"})
    assert refused.status_code == 422, refused.text
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
    ) as host:
        added = await host.post(f"/api/admin/tables/{table_id}/bots", json={"level": "best"})
    assert added.status_code == 201, added.text
    levels = await bot_levels(live, table_id)
    assert levels is not None
    assert sorted(str(level) for level in levels.values()) == ["best", "best", "random", "steady"]
    # sitting in a hand does not save the table's between-hands state: the seat holds the level
    assert levels[added.json()["seat"]] == "best"
    view = await ada.wait_for(lambda v: sum(1 for s in v["seats"] if s.get("bot")) == 4)
    assert {s["seat"]: s["bot_level"] for s in view["seats"] if s.get("bot")} == levels
    assert view["hand_id"] == hand_id  # still the hand that began before they sat

    # the server stops in the middle of that hand: it is void, the bots come back as they were
    await ada.close()
    await live.stop()
    again = await serve()

    async def restored() -> bool:
        return await bot_levels(again, table_id) == levels

    await waiting.until(restored, "the table restored with its bots")

    # Ada comes back and stands up; the bots play at their levels (a best bot's decisions go
    # through the analysis)
    ada = Player(again.base_url, again.ws_url, "Ada", ada.token, ada.info)
    await ada.connect(table_id)
    await ada.wait_for(lambda v: v["you"] is not None)
    await ada.send({"type": "leave"})
    await _play_until_gone(ada)
    await ada.close()

    async def hands_played() -> int:
        listed = await listing(again, table_id)
        assert listed is not None
        return int(listed["hands_played"])

    played = await hands_played()

    async def played_more() -> bool:
        return await hands_played() > played

    await waiting.until(played_more, "a hand of the restored bots played")
    assert await restored()


def _own_moves(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [move for move in view["legal"] if move["kind"] != "time_bank"]


async def _play_until_gone(player: Player) -> None:
    """Play on (any legal move) until the pending leave has stood the player up: a hand
    dealt meanwhile waits for them."""
    rng = random.Random(31)
    while True:
        view = await player.wait_for(lambda v: v["you"] is None or _own_moves(v), timeout=120)
        if view["you"] is None:
            return
        before = player.version
        answer = await player.act(random_action(_own_moves(view), rng))
        if answer["type"] == "ack":
            await player.wait_for(lambda _v, seen=before: player.version > seen)


async def test_a_room_switch_keeps_each_bot_at_its_level(serve: Serve) -> None:
    live = await serve()
    ada = await Player.join(live, "Ada")
    opened = await open_room(ada, "vingt-un")
    table_id = opened["table_id"]
    for level in ("best", "random"):
        added = await ada.http.post(f"/api/tables/{table_id}/bots", json={"level": level})
        assert added.status_code == 201, added.text
    before = sorted(str(v) for v in (await bot_levels(live, table_id) or {}).values())
    assert before == ["best", "random"]
    await ada.connect(table_id)
    await switch(ada, "trianta-ena")
    switched, _code = await closed_with(ada)
    after = await bot_levels(live, switched["table_id"])
    assert sorted(str(v) for v in (after or {}).values()) == before
    await ada.close()
