"""The opener closes their own table (docs/protocol.md §4.6, ``POST /api/tables/{id}/close``).

With a cap on the tables one player may open (``MAX_TABLES_PER_PLAYER``), a player must be able
to close a table of their own: bots stand up, the hand in play is void, every stack goes home,
and the table no longer counts. While another person sits there, only the host may close it.
"""

from __future__ import annotations

import httpx

from tests.api.test_socket import audit
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.waiting import until

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}


async def test_an_opener_closes_a_table_of_their_own(database_url: str) -> None:
    live = LiveServer(make_settings(database_url, max_tables_per_player=2))
    await live.start()
    try:
        ada = await Player.join(live, "Ada")
        ben = await Player.join(live, "Ben")
        # a short clock: the first hand ends soon though Ada, seated there, never acts
        first = await ada.open_table("vingt-un", turn_seconds=1)
        second = await ada.open_table("greek-31")
        refused = await ada.http.post("/api/tables", json={"game": "trianta-ena"})
        assert refused.status_code == 409 and "Close table" in refused.json()["detail"]

        # bots play at the first; Ada sits there too; Ben sits at the second
        async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
            for _ in range(2):
                assert (await host.post(f"/api/admin/tables/{first}/bots")).status_code == 201
        await ada.connect(first)
        await ada.sit(100)
        await ben.connect(second)
        await ben.sit(50)
        actor = live.services.lobby.get(first)
        assert actor is not None
        await until(lambda: actor.hands_played >= 1, "a hand played")
        bankroll_before = (await ada.http.get("/api/me")).json()["bankroll"]

        # nobody but the opener closes; not while another person sits
        assert (await ben.http.post(f"/api/tables/{first}/close")).status_code == 403
        busy = await ada.http.post(f"/api/tables/{second}/close")
        assert busy.status_code == 409 and "Ben still sits" in busy.json()["detail"]

        closed = await ada.http.post(f"/api/tables/{first}/close")
        assert closed.status_code == 200 and closed.json()["status"] == "closed"
        assert (await ada.http.get(f"/api/tables/{first}")).status_code == 404
        me = (await ada.http.get("/api/me")).json()
        assert me["bankroll"] >= bankroll_before  # her stack came home (a void hand: stakes back)
        result = await audit(live)
        assert result["balanced"] is True, result
        assert live.services.lobby.get(first) is None or live.services.lobby.get(first).closed

        # the closed table no longer counts against the cap
        again = await ada.http.post("/api/tables", json={"game": "trianta-ena"})
        assert again.status_code == 201, again.text
        await ada.close()
        await ben.close()
    finally:
        await live.stop()
