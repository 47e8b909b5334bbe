"""The review pages answer a page of the site's own when there is nothing to show
(app/api/routes/review_pages.py): a hand, a player or a table's history that does not exist,
or that the reader may not see (a private table's), is a 404 HTML page saying so with the way
back to the lobby, never the API's JSON; and for a private table's hand or history it is the
same page, byte for byte, as for an id never given out."""

from __future__ import annotations

import asyncio

import httpx

from tests.conftest import ADMIN_TOKEN, LiveServer

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}
NOWHERE = {"table": "0" * 12, "hand": "0" * 32, "player": "0" * 32}


async def _private_hand(live: LiveServer, http: httpx.AsyncClient) -> tuple[str, str]:
    """A private bot table and one of its finished hands."""
    opener = (await http.post("/api/session", json={"name": "Opener"})).json()
    table = await http.post(
        "/api/tables",
        json={"game": "vingt-un", "options": {}, "private": True},
        headers={"authorization": f"Bearer {opener['token']}"},
    )
    table_id = str(table.json()["table_id"])
    for _ in range(2):
        assert (await http.post(f"/api/admin/tables/{table_id}/bots")).status_code == 201
    for _ in range(1000):
        hands = (await http.get("/api/hands", params={"table_id": table_id})).json()["hands"]
        if hands:
            return table_id, str(hands[0]["hand_id"])
        await asyncio.sleep(0.01)
    raise AssertionError("the bots finished no hand")


async def test_missing_review_pages_are_pages_of_their_own(live: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
        table_id, hand_id = await _private_hand(live, host)
        # the host sees them
        assert (await host.get(f"/hands/{hand_id}?admin_token={ADMIN_TOKEN}")).status_code == 200
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as stranger:
        pages = {
            "hand": (f"/hands/{hand_id}", f"/hands/{NOWHERE['hand']}", "This hand is not here"),
            "history": (
                f"/tables/{table_id}/history",
                f"/tables/{NOWHERE['table']}/history",
                "This table's history is not here",
            ),
        }
        for hidden, unknown, heading in pages.values():
            shown = await stranger.get(hidden)
            never = await stranger.get(unknown)
            for response in (shown, never):
                assert response.status_code == 404
                assert response.headers["content-type"].startswith("text/html")
                assert heading in response.text and 'href="/"' in response.text
            assert shown.content == never.content
        player = await stranger.get(f"/players/{NOWHERE['player']}")
        assert player.status_code == 404 and "This player is not here" in player.text
