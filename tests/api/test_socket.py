"""The table socket through the real app: several clients, real sockets, a real database."""

from __future__ import annotations

import asyncio
import json
import random

import httpx

from app.runtime.table.actor import TableActor
from tests.client import Player, hidden_card_leaks
from tests.conftest import ADMIN_TOKEN, LiveServer

FAST = {"turn_seconds": 5, "bet_seconds": 5}


async def audit(live: LiveServer) -> dict[str, object]:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        response = await http.get(
            "/api/admin/audit", headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
        )
        response.raise_for_status()
        return response.json()  # type: ignore[no-any-return]


async def trianta_table(live: LiveServer, players: int = 2) -> tuple[str, list[Player]]:
    """A Trianta Ena table with a banker (seat 0) and ``players - 1`` players, all connected."""
    people = [await Player.join(live, f"P{i}") for i in range(players)]
    table_id = await people[0].open_table("trianta-ena", **FAST)
    for i, person in enumerate(people):
        await person.connect(table_id)
        await person.sit(300 if i == 0 else 100, seat=i)
    return table_id, people


async def play_randomly(
    people: list[Player], rng: random.Random, actions: int, table: TableActor
) -> int:
    """Everyone plays random legal actions; returns how many were sent. Every one must be
    acknowledged, and no view may carry another seat's face-down card."""
    sent = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60  # for a stuck run only, never a measure
    while sent < actions:
        mover = next((p for p in people if p.view and p.view["legal"]), None)
        if mover is None:
            # random play can leave everyone broke: then no hand can start, nobody may act,
            # and that is the end
            engine = table.engine
            if not engine.in_hand and (engine.table_over or not engine.can_start()):
                break
            assert loop.time() < deadline, f"nobody may act: {people[0].view}"
            await asyncio.sleep(0.005)
            continue
        action = mover.random_legal(rng)
        assert action is not None
        reply = await mover.act(action)
        if reply["type"] == "error":
            # Only a race with a timer may refuse a legal action, and then as stale.
            assert reply["code"] == "stale_version", reply
        sent += 1
        for person in people:
            for state in person.states:
                assert hidden_card_leaks(state["view"]) == [], state["view"]
            person.states.clear()
    return sent


async def test_random_legal_play_is_accepted_and_hides_cards(live: LiveServer) -> None:
    table_id, people = await trianta_table(live, 3)
    table = live.services.lobby.get(table_id)
    assert table is not None
    spectator = Player(live.base_url, live.ws_url, "watcher", "", {})
    await spectator.connect(table_id, token=False)
    assert spectator.view is not None and spectator.view["you"] is None
    assert await play_randomly(people, random.Random(7), 40, table) >= 10
    # the spectator has been sent every state the players have
    latest = max(person.version for person in people)
    deadline = asyncio.get_running_loop().time() + 30  # for a stuck run only
    while spectator.version < latest:
        assert asyncio.get_running_loop().time() < deadline, (spectator.version, latest)
        await asyncio.sleep(0.01)
    for state in spectator.states:
        assert hidden_card_leaks(state["view"]) == []
        assert state["view"]["legal"] == []
    result = await audit(live)
    assert result["balanced"] is True, result
    for person in [*people, spectator]:
        await person.close()


async def test_bad_input_is_refused_and_changes_nothing(live: LiveServer) -> None:
    _, (banker, player) = await trianta_table(live, 2)
    view = await player.wait_for(lambda v: bool(v["legal"]))
    version = player.version
    banker_version = banker.version

    await player.send("{not json")
    assert (await player.next_of("error"))["code"] == "bad_message"
    await player.send("[1, 2, 3]")
    assert (await player.next_of("error"))["code"] == "bad_message"
    await player.send(json.dumps({"type": "dance"}))
    assert (await player.next_of("error"))["code"] == "bad_message"
    await player.send(json.dumps({"type": "act", "version": version, "action": {"kind": "bet"}}))
    assert (await player.next_of("error"))["code"] == "bad_message"
    await player.send(json.dumps({"type": "sit", "seat": "x", "buy_in": 5}))
    assert (await player.next_of("error"))["code"] == "bad_message"
    await player.send("x" * 5000)
    assert (await player.next_of("error"))["code"] == "message_too_large"

    reply = await player.act({"kind": "teleport"})
    assert reply["code"] == "unknown_action"
    bet = next(t for t in view["legal"] if t["kind"] == "bet")
    high = bet["params"]["amount"]["max"]
    reply = await player.act({"kind": "bet", "amount": high + 1})
    assert reply["code"] == "illegal_action" and str(high) in reply["message"]
    reply = await player.act({"kind": "bet", "amount": 10**30})
    assert reply["code"] == "illegal_action"
    reply = await player.act({"kind": "bet", "amount": 1, "extra": True})
    assert reply["code"] == "illegal_action"
    reply = await player.act({"kind": "bet", "amount": "5"})
    assert reply["code"] == "illegal_action"
    reply = await banker.act({"kind": "bet", "amount": 1})
    assert reply["code"] in ("not_your_turn", "illegal_action")

    # Nothing changed: asking again gives the same version.
    await player.send(json.dumps({"type": "resync"}))
    await player.next_state()
    assert player.version == version
    assert banker.version == banker_version
    await banker.close()
    await player.close()


async def test_resend_with_the_same_id_is_applied_once(live: LiveServer) -> None:
    table_id, (banker, player) = await trianta_table(live, 2)
    view = await player.wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
    hand_id = view["hand_id"]
    first = await player.act({"kind": "bet", "amount": 3}, msg_id="same-id")
    assert first["type"] == "ack"
    second = await player.act({"kind": "bet", "amount": 3}, msg_id="same-id")
    assert second["type"] == "ack"
    table = live.services.lobby.get(table_id)
    assert table is not None
    async with table.lock:
        if table.hand_id == hand_id:
            actions = list(table.core.hand.actions if table.core.hand else [])
        else:
            await live.services.writer.flush()
            actions = (await player.http.get(f"/api/hands/{hand_id}")).json()["actions"]
    bets = [a for a in actions if a["seat"] == 1 and a["action"]["kind"] == "bet"]
    assert [b["action"]["amount"] for b in bets] == [3]
    await banker.close()
    await player.close()


async def test_stale_version_is_named_as_such(live: LiveServer) -> None:
    _, people = await trianta_table(live, 3)
    _banker, first, second = people
    await first.wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
    old = first.version
    assert (await first.act({"kind": "bet", "amount": 2}))["type"] == "ack"
    await second.wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
    assert (await second.act({"kind": "bet", "amount": 2}))["type"] == "ack"
    # The betting window closed; an act from the old version is now refused as stale.
    reply = await first.act({"kind": "bet", "amount": 2}, version=old)
    assert reply["code"] == "stale_version"
    for person in people:
        await person.close()


async def test_reconnect_gets_the_view_at_once_and_keeps_the_seat(live: LiveServer) -> None:
    table_id, (banker, player) = await trianta_table(live, 2)
    await player.disconnect()
    view = await banker.wait_for(
        lambda v: any(s["seat"] == 1 and not s["connected"] for s in v["seats"])
    )
    assert view["seats"][1]["name"] == "P1"
    await player.connect(table_id)
    assert player.view is not None and player.view["you"] == 1
    await banker.wait_for(lambda v: all(s["connected"] for s in v["seats"]))
    await banker.close()
    await player.close()


async def test_leaving_returns_the_stack_to_the_bankroll(live: LiveServer) -> None:
    table_id = await (p := await Player.join(live, "Solo")).open_table("trianta-ena", **FAST)
    await p.connect(table_id)
    await p.sit(300)
    me = (await p.http.get("/api/me")).json()
    assert me["bankroll"] == 700
    await p.send({"type": "leave"})
    await p.wait_for(lambda v: v["you"] is None)
    await live.services.writer.flush()
    me = (await p.http.get("/api/me")).json()
    assert me["bankroll"] == 1000
    assert (await audit(live))["balanced"] is True
    await p.close()


async def test_buy_in_beyond_the_bankroll_is_refused(live: LiveServer) -> None:
    p = await Player.join(live, "Poor")
    table_id = await p.open_table("trianta-ena", buy_in=400, **FAST)
    await p.connect(table_id)
    await p.send({"type": "sit", "seat": 0, "buy_in": 1200})
    error = await p.next_of("error")
    assert error["code"] == "insufficient_funds"
    await p.send({"type": "sit", "seat": 0, "buy_in": 1199})
    assert (await p.next_of("error"))["code"] == "bad_buy_in"
    assert (await p.http.get("/api/me")).json()["bankroll"] == 1000
    await p.close()


async def test_a_bot_plays_against_a_person(live: LiveServer) -> None:
    p = await Player.join(live, "Host")
    table_id = await p.open_table("trianta-ena", **FAST)
    await p.connect(table_id)
    await p.sit(300, seat=0)
    response = await p.http.post(f"/api/tables/{table_id}/bots", json={})
    assert response.status_code == 201, response.text
    await p.wait_for(lambda v: v["hand_id"] is not None)
    # The bot bets on its own; the hand reaches settlement without the person acting.
    await p.wait_for(lambda v: v["hand_id"] is None and v["seats"][1]["hands"], timeout=20)
    await live.services.writer.flush()
    hands = (await p.http.get("/api/hands", params={"table_id": table_id})).json()["hands"]
    assert hands and hands[0]["status"] == "finished"
    record = (await p.http.get(f"/api/hands/{hands[0]['hand_id']}")).json()
    assert "private" not in record and record["settlement"] is not None
    assert (await audit(live))["balanced"] is True
    await p.close()
