"""Every chip a player sees is one the host granted, through the real app: bots come from a
fixed pool of bot players paid from one bank the host funds (no grant per bot), a player may
open only so many tables an hour, and only a signed-in person keeps a table of bots dealing
(app/runtime/bot_pool.py, app/runtime/openings.py, docs/protocol/rest.md §4.5-4.6,
docs/protocol/admin.md). The finding: one player opened 103 tables and 411 bots in 30 s, each
bot a new player granted 1,000 chips, and one anonymous socket kept a bot table dealing."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from app.api.deps import COOKIE
from app.db.store.host import BOTS_FLOAT_NOTE
from app.db.store.players import create_player
from app.i18n.messages import localize
from tests import waiting
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, Serve

BUY_IN = 500
"""A bot's buy-in at a Greek 31 table: half the starting bankroll (1,000)."""


def host(live: LiveServer) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
    )


async def admin(live: LiveServer, method: str, path: str, **kwargs: Any) -> Any:
    async with host(live) as http:
        response = await http.request(method, path, **kwargs)
    assert response.is_success, response.text
    return response.json()


async def audit(live: LiveServer) -> dict[str, Any]:
    found: dict[str, Any] = await admin(live, "GET", "/api/admin/audit")
    assert found["balanced"] is True, found
    return found


async def bot_players(live: LiveServer) -> list[dict[str, Any]]:
    return [p for p in await admin(live, "GET", "/api/admin/players") if p["bot"]]


async def seated_bots(live: LiveServer, table_id: str) -> dict[str, str]:
    """The bots at a table: player id -> name."""
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        seats = (await http.get(f"/api/tables/{table_id}")).json()["seats"]
    return {s["player_id"]: s["name"] for s in seats if s["bot"]}


async def until(check: Callable[[], Awaitable[bool]], what: str) -> None:
    await waiting.until(check, what)  # a deadline for a stuck run only


async def test_bots_come_from_a_pool_paid_by_one_bank(live: LiveServer) -> None:
    """Adding bots grants nothing but the bank's float, once; a bot sits at one table at a
    time, is reused once it has left, and its stack goes home to the bank, where the bots'
    results add up."""
    float_ = live.settings.bots_bank_float
    ada = await Player.join(live, "Ada")
    before = await audit(live)
    assert before["granted"] == live.settings.house_float + 1000
    first = await ada.open_table("greek-31")
    for _ in range(3):
        assert (await ada.http.post(f"/api/tables/{first}/bots", json={})).status_code == 201
    after = await audit(live)
    assert after["granted"] == before["granted"] + float_  # the float, not 3,000
    bank = await admin(live, "GET", "/api/admin/bots")
    assert (bank["granted"], bank["seated"], bank["pool"]) == (float_, 3, 99)
    at_first = await seated_bots(live, first)
    assert sorted(at_first.values()) == ["Basil (bot)", "Clio (bot)", "Dmitri (bot)"]

    # a second table at once: other bots (a bot sits at one table at a time)
    second = await ada.open_table("greek-31")
    for _ in range(2):
        assert (await ada.http.post(f"/api/tables/{second}/bots", json={})).status_code == 201
    at_second = await seated_bots(live, second)
    assert len(at_second) == 2 and not set(at_second) & set(at_first)
    assert len(await bot_players(live)) == 5

    # both tables close: every bot's stack goes home; the bots played only one another,
    # so the bank holds its float again, and no bot keeps a chip
    for table_id in (first, second):
        await admin(live, "POST", f"/api/admin/tables/{table_id}/close", json={})
    bank = await admin(live, "GET", "/api/admin/bots")
    assert (bank["bots"], bank["seated"], bank["at_tables"]) == (float_, 0, 0), bank
    assert all(p["bankroll"] == 0 for p in await bot_players(live))
    closed = await audit(live)
    assert closed["granted"] == after["granted"] and closed["by_kind"]["bots"] == float_

    # the pool's bots are reused: no new player, no grant
    third = await ada.open_table("greek-31")
    for _ in range(3):
        assert (await ada.http.post(f"/api/tables/{third}/bots", json={})).status_code == 201
    assert set(await seated_bots(live, third)) <= {p["player_id"] for p in await bot_players(live)}
    assert len(await bot_players(live)) == 5
    assert (await audit(live))["granted"] == after["granted"]

    # a bot the opener stands up (at once, or after the hand in play) takes its stack home
    bot_id, _ = next(iter((await seated_bots(live, third)).items()))
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        seats = (await http.get(f"/api/tables/{third}")).json()["seats"]
    seat = next(s["seat"] for s in seats if s["player_id"] == bot_id)
    assert (await ada.http.delete(f"/api/tables/{third}/bots/{seat}")).status_code == 200

    async def gone() -> bool:
        return bot_id not in await seated_bots(live, third)

    await until(gone, "the bot stood up")
    await admin(live, "GET", "/api/admin/bots")  # the host's look brings it home if not yet
    assert next(p for p in await bot_players(live) if p["player_id"] == bot_id)["bankroll"] == 0
    await audit(live)
    await ada.close()


async def test_a_bank_that_cannot_cover_a_buy_in_says_so_until_the_host_adds_chips(
    serve: Serve,
) -> None:
    live = await serve(bots_float=BUY_IN + 100)
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("greek-31")
    assert (await ada.http.post(f"/api/tables/{table_id}/bots", json={})).status_code == 201
    refused = await ada.http.post(f"/api/tables/{table_id}/bots", json={})
    assert refused.status_code == 409
    assert refused.json()["detail"] == (
        "the bots' bank holds 100 chips, fewer than the 500 a bot buys in with here; "
        "the host can add chips on /admin"
    )
    async with host(live) as http:  # the host's own call says the same
        refused = await http.post(f"/api/admin/tables/{table_id}/bots")
        assert refused.status_code == 409 and "bots' bank holds 100" in refused.json()["detail"]
        funded = await http.post("/api/admin/bots", json={"amount": 1000, "reason": "more bots"})
        assert funded.status_code == 200, funded.text
        assert funded.json()["bots"] == 1100 and funded.json()["granted"] == 1600
        for bad in ({"amount": 0}, {"amount": -5}, {"amount": "10"}):
            assert (await http.post("/api/admin/bots", json=bad)).status_code == 422
        log = (await http.get("/api/admin/actions")).json()
    assert [(a["action"], a["detail"]["amount"], a["note"]) for a in log[:1]] == [
        ("fund_bots", 1000, "more bots")
    ]
    assert ("fund_bots", BUY_IN + 100) in [
        (a["action"], a["detail"].get("amount")) for a in log
    ]  # the float
    # the float's note is the server's words, worded for the reader; the host's own as typed
    assert log[0]["note_words"] == "more bots"
    (opened,) = [a for a in log if a["note"] == BOTS_FLOAT_NOTE]
    assert opened["note_words"] == localize(BOTS_FLOAT_NOTE, "en")
    async with host(live) as http:
        http.cookies.set("t31_lang", "el")
        greek = (await http.get("/api/admin/actions")).json()
    (opened,) = [a for a in greek if a["note"] == BOTS_FLOAT_NOTE]
    assert opened["note_words"] == localize(BOTS_FLOAT_NOTE, "el")
    assert (await ada.http.post(f"/api/tables/{table_id}/bots", json={})).status_code == 201
    granted = (await audit(live))["granted"]
    assert granted == live.settings.house_float + 1000 + BUY_IN + 100 + 1000
    await ada.close()

    # the bank outlives a restart, and its float is granted once
    await live.stop()
    again = await serve(bots_float=BUY_IN + 100)
    bank = await admin(again, "GET", "/api/admin/bots")
    assert (bank["granted"], bank["seated"]) == (1600, 2)
    assert (await audit(again))["granted"] == granted


async def test_bots_made_before_the_bank_bring_their_chips_to_it(live: LiveServer) -> None:
    """Bots made by an older server, each granted 1,000 chips of its own: once idle, their
    chips join the bank (the audit still balances: nothing created, nothing lost)."""
    old = [
        await live.services.writer.run(create_player, "Ada (bot)", bankroll=1000, is_bot=True)
        for _ in range(2)
    ]
    assert len(old) == 2
    bank = await admin(live, "GET", "/api/admin/bots")
    assert bank["bots"] == live.settings.bots_bank_float + 2000
    assert all(p["bankroll"] == 0 for p in await bot_players(live))
    await audit(live)


async def test_a_player_opens_so_many_tables_an_hour(serve: Serve) -> None:
    """MAX_TABLES_PER_HOUR, closed tables included, told when the next may be opened; the
    hour is the lobby's monotonic clock, which the test moves."""
    live = await serve(max_tables_per_hour=3)
    now = [1000.0]
    live.services.lobby.openings.clock = lambda: now[0]
    ada = await Player.join(live, "Ada")
    bad = await ada.http.post("/api/tables", json={"game": "greek-31", "options": {"x": 1}})
    assert bad.status_code == 422  # a refused opening does not count
    opened = [await ada.open_table("greek-31")]
    now[0] += 600
    opened += [await ada.open_table("greek-31") for _ in range(2)]
    for table_id in opened:  # closing them does not give the openings back
        assert (await ada.http.post(f"/api/tables/{table_id}/close")).status_code == 200

    refused = await ada.http.post("/api/tables", json={"game": "greek-31"})
    assert refused.status_code == 429
    assert refused.json()["detail"] == (
        "you have opened 3 tables in the last hour, the most one player may: "
        "you may open another in 50 minutes"
    )
    assert refused.headers["retry-after"] == "3000"
    now[0] += 2999.5
    refused = await ada.http.post("/api/tables", json={"game": "greek-31"})
    assert refused.status_code == 429 and refused.json()["detail"].endswith("in 1 second")
    assert refused.headers["retry-after"] == "1"

    assert await (await Player.join(live, "Basil")).open_table("greek-31")  # another may
    async with httpx.AsyncClient(
        timeout=30,  # the host may, signed in as Ada with the admin token
        base_url=live.base_url,
        cookies={COOKIE: ada.token},
        headers={"origin": live.base_url},
    ) as as_host:
        opened_by_host = await as_host.post(
            "/api/tables", params={"admin_token": ADMIN_TOKEN}, json={"game": "greek-31"}
        )
        assert opened_by_host.status_code == 201, opened_by_host.text

    now[0] += 0.5  # the first opening is an hour old: one more, then the second's hour
    assert await ada.open_table("greek-31")
    refused = await ada.http.post("/api/tables", json={"game": "greek-31"})
    assert refused.status_code == 429 and refused.json()["detail"].endswith("in 10 minutes")
    await ada.close()


async def test_an_anonymous_socket_does_not_keep_a_table_of_bots_dealing(serve: Serve) -> None:
    """A spectator socket with no player behind it is nobody: the table rests while it
    stays open; a signed-in spectator's socket wakes it and keeps it dealing."""
    live = await serve(bot_table_idle_seconds=0.5)
    opener = await Player.join(live, "Opener")
    table_id = await opener.open_table("trianta-ena", turn_seconds=5, bet_seconds=5)
    for _ in range(2):
        assert (await opener.http.post(f"/api/tables/{table_id}/bots", json={})).is_success
    table = live.services.lobby.get(table_id)
    assert table is not None

    anonymous = Player(live.base_url, live.ws_url, "nobody", "", {})
    await anonymous.connect(table_id, token=False)
    assert not table.core.someone_here()

    async def resting() -> bool:
        return table.resting and not table.engine.in_hand

    await until(resting, "the table rests, the anonymous socket still open")
    assert table.connections  # it is open all along
    rested = table.hands_played

    watcher = await Player.join(live, "Watcher")
    await watcher.connect(table_id)
    assert table.core.someone_here()

    async def dealing_again() -> bool:
        return table.hands_played > rested + 1 and not table.resting

    await until(dealing_again, "a signed-in spectator's socket wakes the table")
    await watcher.close()
    await until(resting, "alone again (but for the anonymous socket), the table rests")
    await anonymous.close()
    await opener.close()
