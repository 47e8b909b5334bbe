"""A refusal by the table's rules over REST carries the same code the socket would send for it
(one set of codes, app.games.core.errors.ErrorCode), beside its words: the chat's moderation and
a host's stand-up."""

from __future__ import annotations

import httpx

from app.games.core.errors import ErrorCode
from tests.api.test_ready_and_sit_out import HOST, QUICK, closing, friends, press, seat_entry
from tests.client import Player
from tests.conftest import LiveServer


async def test_a_chat_refusal_names_its_code(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    table = await ada.open_table("trianta-ena")
    base = f"/api/tables/{table}/chat"
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
        gone = await host.delete(f"{base}/messages/999")
        assert gone.status_code == 404
        assert gone.json()["code"] == ErrorCode.NO_SUCH_MESSAGE
        assert isinstance(gone.json()["detail"], str) and gone.json()["detail"]
        stranger = await host.post(f"{base}/mutes", json={"player_id": "nobody"})
        assert stranger.status_code == 409
        assert stranger.json()["code"] in set(ErrorCode)
    await ada.http.aclose()


async def test_a_stand_up_refusal_names_its_code(live: LiveServer) -> None:
    table_id, (ada, ben) = await friends(live, "greek-31", 2, **QUICK)
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        url = f"/api/tables/{table_id}/seats/1/stand_up"
        present = await http.post(url, json={"away_at_least": 0})
        assert present.status_code == 409
        assert present.json() == {"detail": "seat 1 is not sitting out", "code": "not_allowed"}
        await press(ben, "sit_out")
        await ada.wait_for(lambda v: seat_entry(v, 1)["sitting_out"])
        too_soon = await http.post(url, json={"away_at_least": 3600})
        assert too_soon.status_code == 409 and too_soon.json()["code"] in set(ErrorCode)
    await closing(ada, ben)


async def test_other_refusals_keep_their_plain_body(live: LiveServer) -> None:
    """A refusal that is not the table's rules (no such table) answers ``detail`` alone."""
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        response = await http.delete("/api/tables/nosuchtable/chat/messages/1")
    assert response.status_code == 404
    assert "code" not in response.json()
