"""Blocks through the real app (app/runtime/blocks.py, docs/protocol/identity.md §4.3): a player
blocks another for themselves only. The blocked person's chat and reactions reach nobody who
blocked them, live or in the history a reconnecting socket gets, and still reach everyone
else; the blocked person is not told; blocks hold across a restart; and the refusals."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

import app.api.routes.blocks
from tests.client import Player
from tests.conftest import LiveServer, make_settings


async def chat(player: Player, text: str) -> None:
    await player.send({"type": "chat", "text": text})


async def next_chat(player: Player) -> dict[str, Any]:
    """The next chat line or reaction ``player`` is sent."""
    while True:
        message = await player.receive(30)
        if message["type"] == "chat":
            return {"kind": "chat", "name": message["message"]["name"], **message["message"]}
        if message["type"] == "reaction":
            return {"kind": "reaction", **message}


async def block(player: Player, other: Player) -> dict[str, Any]:
    response = await player.http.put(f"/api/me/blocks/{other.player_id}")
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_a_blocked_persons_chat_reaches_nobody_who_blocked_them(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    cy = await Player.join(live, "Cy")
    try:
        table = await ada.open_table("vingt-un")
        body = await block(ada, ben)
        assert body["blocks"] == [{"player_id": ben.player_id, "name": "Ben"}]
        assert (await ada.http.get("/api/me/blocks")).json()["blocks"] == body["blocks"]
        assert (await ben.http.get("/api/me/blocks")).json()["blocks"] == []  # Ben is not told
        for person in (ada, ben, cy):
            await person.connect(table)
            await person.next_of("chat_history")

        # Ben writes and reacts: Cy and Ben see both; Ada sees neither. Cy's own line comes
        # after Ben's (Cy answers once Ben's reached it), so Ada's next line must be Cy's.
        await chat(ben, "from Ben")
        assert (await next_chat(cy))["text"] == "from Ben"
        assert (await next_chat(ben))["text"] == "from Ben"
        await ben.send({"type": "react", "reaction": "clap"})
        assert (await next_chat(cy))["name"] == "Ben"
        await chat(cy, "from Cy")
        assert (await next_chat(ada))["text"] == "from Cy"
        await cy.send({"type": "react", "reaction": "wow"})
        got = await next_chat(ada)
        assert (got["kind"], got["name"]) == ("reaction", "Cy")

        # a reconnecting socket's history leaves Ben out for Ada only; REST's too
        await ada.disconnect()
        await ada.connect(table)
        history = await ada.next_of("chat_history")
        assert [m["text"] for m in history["messages"]] == ["from Cy"]
        await cy.disconnect()
        await cy.connect(table)
        history = await cy.next_of("chat_history")
        assert [m["text"] for m in history["messages"]] == ["from Ben", "from Cy"]
        kept = (await ada.http.get(f"/api/tables/{table}/chat")).json()
        assert [m["text"] for m in kept["messages"]] == ["from Cy"]

        # unblocked: Ben's next line reaches Ada live
        response = await ada.http.delete(f"/api/me/blocks/{ben.player_id}")
        assert response.status_code == 200 and response.json()["blocks"] == []
        await chat(ben, "again")
        assert (await next_chat(ada))["text"] == "again"
    finally:
        for person in (ada, ben, cy):
            await person.close()


async def test_refusals(live: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    cy = await Player.join(live, "Cy")
    try:
        mine = await ada.http.put(f"/api/me/blocks/{ada.player_id}")
        assert mine.status_code == 409 and mine.json()["code"] == "not_allowed"
        nobody = await ada.http.put("/api/me/blocks/no-such-player")
        assert nobody.status_code == 404 and nobody.json()["code"] == "no_such_player"
        monkeypatch.setattr(app.api.routes.blocks, "MAX_BLOCKS", 1)
        await block(ada, ben)
        await block(ada, ben)  # again: nothing changes
        more = await ada.http.put(f"/api/me/blocks/{cy.player_id}")
        assert more.status_code == 409 and more.json()["code"] == "too_many_blocks"
        listed = (await ada.http.get("/api/me/blocks")).json()["blocks"]
        assert [b["player_id"] for b in listed] == [ben.player_id]
        async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as http:
            signed_out = await http.put(f"/api/me/blocks/{ben.player_id}")
        assert signed_out.status_code == 401
    finally:
        for person in (ada, ben, cy):
            await person.close()


async def test_blocks_hold_across_a_restart(database_url: str) -> None:
    live = LiveServer(make_settings(database_url))
    await live.start()
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    try:
        table = await ada.open_table("vingt-un")
        await block(ada, ben)
        await ben.connect(table)
        await chat(ben, "before")
        await ben.next_of("chat")
    finally:
        await ada.close()
        await ben.close()
        await live.stop()

    again = LiveServer(make_settings(database_url))
    await again.start()
    ada = Player(again.base_url, again.ws_url, "Ada", ada.token, ada.info)
    ben = Player(again.base_url, again.ws_url, "Ben", ben.token, ben.info)
    cy = await Player.join(again, "Cy")
    try:
        await ada.connect(table)
        assert (await ada.next_of("chat_history"))["messages"] == []
        await ben.connect(table)
        await cy.connect(table)
        await cy.next_of("chat_history")
        await chat(ben, "after")
        assert (await next_chat(cy))["text"] == "after"
        await chat(cy, "from Cy")
        assert (await next_chat(ada))["text"] == "from Cy"
    finally:
        for person in (ada, ben, cy):
            await person.close()
        await again.stop()
