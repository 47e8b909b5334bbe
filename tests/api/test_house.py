"""The house banks Trente et Quarante (docs/rules.md §0.6, §4): its float, the
host's top-up, a stake it cannot cover refused, its cover shared by every table."""

from __future__ import annotations

import asyncio

import httpx

from tests.api.test_socket import audit
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings

OPTIONS = {"bet_seconds": 30, "turn_seconds": 30, "min_stake": 10, "max_stake": 500}


def stake_max(view: dict, chance: str) -> int | None:
    for template in view["legal"]:
        if template["kind"] == "stake" and template["params"]["chance"]["one_of"] == [chance]:
            return int(template["params"]["amount"]["max"])
    return None


async def settle_coup(players: list[Player], coup: str, timeout: float = 30) -> None:
    """Wait for the coup to end. A tie on 31 (un après, docs/rules.md §4) waits for each staked
    player's choice: they share, as a person would rather than wait out the clock."""
    deadline = asyncio.get_running_loop().time() + timeout
    while any(p.view is None or p.view["hand_id"] == coup for p in players):
        assert asyncio.get_running_loop().time() < deadline, "the coup did not end"
        for player in players:
            view = player.view
            if view is None or view["hand_id"] != coup:
                continue
            for template in view["legal"]:
                if template["kind"] == "share":
                    chance = template["params"]["chance"]["one_of"][0]
                    await player.act({"kind": "share", "chance": chance})
                    break
        await asyncio.sleep(0.01)


async def test_the_house_covers_only_what_it_holds(database_url: str) -> None:
    server = LiveServer(make_settings(database_url, house_float=60))
    await server.start()
    try:
        first, second = await Player.join(server, "Rouge"), await Player.join(server, "Noir")
        table_a = await first.open_table("trente-et-quarante", **OPTIONS)
        table_b = await second.open_table("trente-et-quarante", **OPTIONS)
        await first.connect(table_a)
        await first.sit(400)
        await second.connect(table_b)
        await second.sit(400)
        view = await first.wait_for(lambda v: stake_max(v, "rouge") is not None)
        assert stake_max(view, "rouge") == 60  # the house holds 60
        assert view["limits"]["house_cover"] == 60
        reply = await first.act({"kind": "stake", "chance": "rouge", "amount": 61})
        assert reply["code"] == "illegal_action" and "60" in reply["message"]
        assert (await first.act({"kind": "stake", "chance": "rouge", "amount": 50}))[
            "type"
        ] == "ack"
        # the other table may now risk only what is left of the house's cover: it is told
        # at once (its legal must stay exact), nobody has to ask
        view = await second.wait_for(lambda v: stake_max(v, "noir") == 10)
        reply = await second.act({"kind": "stake", "chance": "noir", "amount": 20})
        assert reply["code"] == "illegal_action"
        async with httpx.AsyncClient(
            timeout=30, base_url=server.base_url, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
        ) as host:
            funded = await host.post("/api/admin/house", json={"amount": 1000})
            assert funded.json()["house"] == 1060
        # the top-up reaches the tables without anyone acting (a table resting for want of
        # cover deals again)
        view = await second.wait_for(lambda v: stake_max(v, "noir") == 400)  # now the stack
        assert (await second.act({"kind": "stake", "chance": "noir", "amount": 20}))[
            "type"
        ] == "ack"
        result = await audit(server)
        assert result["balanced"] is True and result["house"] == 1060
        for person in (first, second):
            await person.close()
    finally:
        await server.stop()


async def test_a_punter_who_sits_down_during_a_coup_and_stakes_has_played_it(
    live: LiveServer,
) -> None:
    """The coup is in that player's hand list (and so in their stats and exports), as the
    chips it moved are in their ledger."""
    first, late = await Player.join(live, "Early"), await Player.join(live, "Late")
    table_id = await first.open_table("trente-et-quarante", **{**OPTIONS, "bet_seconds": 2})
    await first.connect(table_id)
    await first.sit(400)
    await first.wait_for(lambda v: stake_max(v, "rouge") is not None)
    assert (await first.act({"kind": "stake", "chance": "rouge", "amount": 10}))["type"] == "ack"
    coup = first.view["hand_id"] if first.view else None
    assert coup is not None  # the coup has begun: its betting window is open
    await late.connect(table_id)
    await late.sit(400)
    await late.wait_for(lambda v: v["hand_id"] == coup and stake_max(v, "noir") is not None)
    assert (await late.act({"kind": "stake", "chance": "noir", "amount": 10}))["type"] == "ack"
    await settle_coup([first, late], coup)
    await live.services.writer.flush()
    listed = (await late.http.get(f"/api/players/{late.player_id}/hands")).json()
    assert coup in [row["hand_id"] for row in listed["hands"]]
    for person in (first, late):
        await person.close()
