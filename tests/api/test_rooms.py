"""Rooms through the real app (docs/protocol/rest.md "Rooms", docs/protocol/socket.md §5.12,
docs/rules.md §0.15): one link for an evening, the host switching the game between hands,
everyone seated keeping their seat order and their chips through the ledger, spectators
following as spectators, and the refusals that change nothing.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from typing import Any

from app.games.core.actions import random_action
from tests.api.test_socket import audit
from tests.api.test_table_host import host_log
from tests.client import Player
from tests.conftest import LiveServer, make_settings
from tests.waiting import until

TABLE = {"ready", "deal_now", "sit_out", "sit_in"}
FRIENDS = {"start": "when_ready"}
"""A friends' table: nothing is dealt until everyone is ready, so the test decides when."""


async def open_room(player: Player, game: str, **extra: Any) -> dict[str, Any]:
    response = await player.http.post(
        "/api/rooms", json={"game": game, "options": dict(FRIENDS), **extra}
    )
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


async def switch(player: Player, game: str, **options: Any) -> None:
    await player.send({"type": "switch_game", "game": game, "options": {**FRIENDS, **options}})


async def closed_with(player: Player) -> tuple[dict[str, Any], int]:
    """The ``room_switch`` a player was told, and the code their socket closed with."""
    switched = await player.next_of("room_switch", timeout=30)
    await until(lambda: player.ws.close_code is not None, f"{player.name}'s socket closed")
    return switched, int(player.ws.close_code)


def seat_of(view: dict[str, Any], player_id: str) -> dict[str, Any] | None:
    return next((s for s in view["seats"] if s.get("player_id") == player_id), None)


async def bankroll(player: Player) -> int:
    return int((await player.http.get("/api/me")).json()["bankroll"])


async def test_a_room_opens_at_its_first_table_and_says_who_is_in_it(live: LiveServer) -> None:
    ada, ben, cy = [await Player.join(live, n) for n in ("Ada", "Ben", "Cy")]
    opened = await open_room(ada, "vingt-un", name="Friday")
    room_id, table_id = opened["room_id"], opened["table_id"]
    assert opened["url"] == f"/rooms/{room_id}"
    await ada.connect(table_id)
    await ada.sit(100, seat=2)
    await cy.connect(table_id)  # watching
    room = (await ben.http.get(f"/api/rooms/{room_id}")).json()
    assert room["host"] == {"player_id": ada.player_id, "name": "Ada"}
    assert room["name"] == "Friday" and room["status"] == "open"
    assert room["table"]["table_id"] == table_id and room["table"]["game"] == "vingt-un"
    members = {m["name"]: m["seat"] for m in room["members"]}
    assert members == {"Ada": 2, "Cy": None}
    assert [t["table_id"] for t in room["tables"]] == [table_id]
    assert (await ben.http.get("/api/rooms/nope")).status_code == 404

    # a private room: its invite, as a private table's
    private = await open_room(ben, "greek-31", private=True)
    assert "invite=" in private["url"]
    hidden = await cy.http.get(f"/api/rooms/{private['room_id']}")
    assert hidden.status_code == 404
    invited = await cy.http.get(
        f"/api/rooms/{private['room_id']}", params={"invite": private["invite_code"]}
    )
    assert invited.status_code == 200
    assert (await ben.http.get(f"/api/rooms/{private['room_id']}")).status_code == 200

    # bad input changes nothing
    bad = await ada.http.post("/api/rooms", json={"game": "chess"})
    assert bad.status_code == 422
    bad = await ada.http.post("/api/rooms", json={"game": "vingt-un", "options": {"x": 1}})
    assert bad.status_code == 422
    for p in (ada, ben, cy):
        await p.close()


async def test_opening_a_room_counts_as_opening_a_table_but_a_switch_does_not(
    database_url: str,
) -> None:
    live = LiveServer(make_settings(database_url, max_tables_per_hour=1))
    await live.start()
    try:
        ada = await Player.join(live, "Ada")
        opened = await open_room(ada, "vingt-un")
        again = await ada.http.post("/api/rooms", json={"game": "vingt-un"})
        assert again.status_code == 429, again.text
        await ada.connect(opened["table_id"])
        await switch(ada, "greek-31")
        switched, _code = await closed_with(ada)
        assert switched["game"] == "greek-31"
        await ada.close()
    finally:
        await live.stop()


async def test_the_host_switches_the_game_and_everyone_follows(live: LiveServer) -> None:
    ada, ben, cy = [await Player.join(live, n) for n in ("Ada", "Ben", "Cy")]
    opened = await open_room(ada, "vingt-un")
    room_id, first = opened["room_id"], opened["table_id"]
    for p in (ada, ben):
        await p.connect(first)
    await cy.connect(first, token=False)  # an anonymous spectator
    await ada.sit(500, seat=4)
    await ben.sit(100, seat=1)
    before = {p.name: await bankroll(p) for p in (ada, ben)}

    # refusals: nothing changes
    await switch(ben, "greek-31")
    refused = await ben.next_of("error")
    assert refused["code"] == "not_allowed", refused
    await switch(ada, "chess")
    assert (await ada.next_of("error"))["code"] == "bad_message"
    await switch(ada, "greek-31", turn_seconds=-5)
    refused = await ada.next_of("error")
    assert refused["code"] == "bad_message" and "turn_seconds" in refused["message"]
    await ada.send({"type": "switch_game", "game": "greek-31", "options": [1]})
    assert (await ada.next_of("error"))["code"] == "bad_message"
    assert live.services.lobby.get(first) is not None
    assert not live.services.lobby.get(first).closed  # type: ignore[union-attr]

    # the chat goes with the room
    await ben.send({"type": "chat", "text": "one more game?"})
    await ada.next_of("chat")

    # the switch: Ben (seat 1) and Ada (seat 4) keep their order at Greek 31
    await switch(ada, "greek-31")
    told = [await closed_with(p) for p in (ada, ben, cy)]
    second = told[0][0]["table_id"]
    for switched, code in told:
        assert switched == {
            "type": "room_switch",
            "room_id": room_id,
            "table_id": second,
            "game": "greek-31",
        }
        assert code == 4301
    assert second != first
    assert (await ada.http.get(f"/api/tables/{first}")).status_code == 404
    seen = len(ada.states)
    for p in (ada, ben):
        await p.connect(second)
    await cy.connect(second, token=False)
    view = ada.view
    assert view is not None
    assert seat_of(view, ben.player_id)["seat"] == 0  # type: ignore[index]
    assert seat_of(view, ada.player_id)["seat"] == 1  # type: ignore[index]
    assert seat_of(view, ben.player_id)["stack"] == 100  # type: ignore[index]
    assert seat_of(view, ada.player_id)["stack"] == 500  # type: ignore[index]
    assert cy.view is not None and cy.view["you"] is None  # a spectator still
    assert any(e.get("kind") == "room_switch" for e in ada.states[seen].get("story", []))
    history = next(n for n in ada.notices[::-1] if n["type"] == "chat_history")
    assert [m.get("text") for m in history["messages"]] == ["one more game?"]
    assert {p.name: await bankroll(p) for p in (ada, ben)} == before

    # to Trianta Ena (buy-in exactly 300): Ada brings 300, 200 go home; Ben's 100 is too
    # little to sit, so he watches, his 100 home
    await switch(ada, "trianta-ena")
    third = (await closed_with(ada))[0]["table_id"]
    await closed_with(ben)
    await ada.connect(third)
    await ben.connect(third)
    view = ada.view
    assert view is not None
    assert seat_of(view, ada.player_id)["stack"] == 300  # type: ignore[index]
    assert seat_of(view, ben.player_id) is None and ben.view["you"] is None  # type: ignore[index]
    assert await bankroll(ada) == before["Ada"] + 200
    assert await bankroll(ben) == before["Ben"] + 100

    # each switch is in the host's log, as the table's host's, with the same job
    switches = [r for r in await host_log(live) if r["action"] == "table_switch_game"]
    assert [(r["detail"]["table_id"], r["detail"]["to_table_id"]) for r in switches] == [
        (second, third),
        (first, second),
    ]
    assert {(r["detail"]["by"], r["detail"]["host_id"]) for r in switches} == {
        ("table_host", ada.player_id)
    }
    room = (await cy.http.get(f"/api/rooms/{room_id}")).json()
    assert [t["game"] for t in room["tables"]] == ["vingt-un", "greek-31", "trianta-ena"]
    assert [t["status"] for t in room["tables"]] == ["closed", "closed", "open"]
    assert room["table"]["table_id"] == third
    result = await audit(live)
    assert result["balanced"] is True, result
    for p in (ada, ben, cy):
        await p.close()


async def test_a_switch_asked_during_a_hand_waits_for_it_and_none_once_the_room_has_left(
    database_url: str,
) -> None:
    """The host asks for the next game while a hand is in play: nothing is refused, everyone
    is told the room moves on once the hand ends, no next hand is dealt, and the switch is
    made as soon as the hand is over (a host need not catch the pause between hands)."""
    live = LiveServer(make_settings(database_url, next_hand_seconds=0.0))
    await live.start()
    try:
        ada, ben = [await Player.join(live, n) for n in ("Ada", "Ben")]
        opened = await open_room(ada, "vingt-un", options={"start": "when_ready"})
        first = opened["table_id"]
        for p in (ada, ben):
            await p.connect(first)
        await ada.sit(100)
        await ben.sit(100)
        actor = live.services.lobby.get(first)
        assert actor is not None
        for p in (ada, ben):
            assert (await p.act({"kind": "ready"}))["type"] == "ack"
        await until(lambda: actor.core.hand is not None, "a hand dealt")
        await switch(ada, "greek-31")

        def next_told() -> list[dict[str, Any]]:
            story = [e for m in ben.states for e in m.get("story", []) + m.get("events", [])]
            return [e for e in story if e["kind"] == "room_switch_next"]

        await until(next_told, "the switch after the hand told")
        assert [(e["game"], e["title"]) for e in next_told()] == [("greek-31", "Greek 31")]
        message = (ben.view or {})["table"]["message"]
        assert message == "The room switches to Greek 31 once this hand ends."
        assert not ada.errors and not actor.closed
        # the hand is played to its end; the switch follows it, and no second hand is dealt
        rng = random.Random(3)
        while not actor.closed:
            for person in (ada, ben):
                game = [t for t in (person.view or {}).get("legal", []) if t["kind"] not in TABLE]
                if game and not actor.closed:
                    try:
                        await person.act(random_action(game, rng))
                    except ConnectionError:  # the switch closed the socket meanwhile
                        break
            await asyncio.sleep(0.01)
        await until(lambda: ben.ws.close_code is not None, "Ben's socket closed")
        assert ben.ws.close_code == 4301
        switched = next(m for m in ben.notices if m["type"] == "room_switch")
        assert switched["game"] == "greek-31"
        assert actor.hands_played == 1
        hands = (await ada.http.get(f"/api/hands?table_id={first}")).json()["hands"]
        assert [h["status"] for h in hands] == ["finished"]
        await ada.connect(switched["table_id"])
        assert {s["name"] for s in (ada.view or {})["seats"] if s.get("name")} == {"Ada", "Ben"}

        # a room that is closed (or has left this table) switches nothing
        second = live.services.lobby.get(switched["table_id"])
        assert second is not None
        room = live.services.lobby.rooms.get(opened["room_id"])
        assert room is not None
        room.status = "closed"
        await switch(ada, "trianta-ena")
        assert (await ada.next_of("error"))["code"] == "table_closed"
        room.status = "open"
        assert not second.closed
        for p in (ada, ben):
            await p.close()
    finally:
        await live.stop()


async def test_a_table_of_its_own_has_no_switch(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("vingt-un")
    await ada.connect(table_id)
    await switch(ada, "greek-31")
    assert (await ada.next_of("error"))["code"] == "not_allowed"
    await ada.close()


async def play_a_hand(people: list[Player], actor: Any, seed: int) -> None:
    """Everyone acts at random (the game's actions only) until one more hand has finished;
    once it is dealt, everyone asks to sit out, so that no hand follows it."""
    rng = random.Random(seed)
    played = actor.hands_played
    asked = False
    while actor.hands_played == played:
        dealt = actor.core.hand is not None
        for person in people:
            view = person.view or {}
            if dealt and not asked:
                continue
            game = [t for t in view.get("legal", []) if t["kind"] not in TABLE]
            if game:
                await person.act(random_action(game, rng))
        if dealt and not asked:
            for person in people:
                assert (await person.act({"kind": "sit_out"}))["type"] == "ack"
            asked = True
        await asyncio.sleep(0.01)


async def test_a_rooms_settle_up_is_the_evenings_and_matches_the_bankrolls(
    live: LiveServer,
) -> None:
    ada, ben = [await Player.join(live, n) for n in ("Ada", "Ben")]
    start = {p.name: await bankroll(p) for p in (ada, ben)}
    opened = await open_room(ada, "vingt-un", options={**FRIENDS, "turn_seconds": 60})
    table_id = opened["table_id"]
    for game, seed in (("greek-31", 1), (None, 2)):
        for p in (ada, ben):
            await p.connect(table_id)
            if p.view is not None and p.view["you"] is None:
                await p.sit(200)
            kinds = [t["kind"] for t in (p.view or {})["legal"]]
            if "sit_in" in kinds:
                assert (await p.act({"kind": "sit_in"}))["type"] == "ack"
            await p.wait_for(lambda v: any(t["kind"] == "ready" for t in v["legal"]))
            assert (await p.act({"kind": "ready"}))["type"] == "ack"
        actor = live.services.lobby.get(table_id)
        await play_a_hand([ada, ben], actor, seed)
        if game is None:
            break
        await ada.wait_for(lambda v: v["hand_id"] is None)
        await switch(ada, game, turn_seconds=60)
        table_id = (await closed_with(ada))[0]["table_id"]
        await closed_with(ben)
    view = ada.view or {}
    at_table = {s["player_id"]: s["stack"] for s in view["seats"] if s.get("player_id")}
    since = (datetime.now(UTC) - timedelta(hours=1)).isoformat()
    settled = await ada.http.get("/api/settle", params={"room": opened["room_id"], "since": since})
    assert settled.status_code == 200, settled.text
    body = settled.json()
    assert body["room"]["room_id"] == opened["room_id"] and body["hands"] == 2
    nets = {p["id"]: p["net"] for p in body["parties"]}
    for p in (ada, ben):
        now = await bankroll(p) + at_table.get(p.player_id, 0)
        assert nets.get(p.player_id, 0) == now - start[p.name], (p.name, nets)
    # the room's story: its hands, table after table (newest first)
    hands = (await ada.http.get("/api/hands", params={"room_id": opened["room_id"]})).json()
    assert [h["table_id"] for h in hands["hands"]] == [table_id, opened["table_id"]]
    # only the room's players (and the host) see it
    cy = await Player.join(live, "Cy")
    assert (
        await cy.http.get("/api/settle", params={"room": opened["room_id"], "since": since})
    ).status_code == 403
    for p in (ada, ben, cy):
        await p.close()


async def test_a_room_closes_with_its_table(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    opened = await open_room(ada, "greek-31")
    closed = await ada.http.post(f"/api/tables/{opened['table_id']}/close")
    assert closed.status_code == 200, closed.text
    room = (await ada.http.get(f"/api/rooms/{opened['room_id']}")).json()
    assert room["status"] == "closed" and room["table"] is None
    assert live.services.lobby.rooms.get(opened["room_id"]) is None
    await ada.close()


async def test_the_host_hands_the_room_to_a_player_seated_there(live: LiveServer) -> None:
    ada, ben, cy = [await Player.join(live, n) for n in ("Ada", "Ben", "Cy")]
    opened = await open_room(ada, "vingt-un")
    room_id = opened["room_id"]
    for p in (ada, ben):
        await p.connect(opened["table_id"])
    await ben.sit(100)
    path = f"/api/rooms/{room_id}/host"
    assert (await ben.http.post(path, json={"player_id": ben.player_id})).status_code == 403
    refused = await ada.http.post(path, json={"player_id": cy.player_id})
    assert refused.status_code == 409  # Cy sits nowhere in the room
    handed = await ada.http.post(path, json={"player_id": ben.player_id})
    assert handed.status_code == 200 and handed.json()["name"] == "Ben"
    room = (await cy.http.get(f"/api/rooms/{room_id}")).json()
    assert room["host"]["player_id"] == ben.player_id
    await switch(ada, "greek-31")
    assert (await ada.next_of("error"))["code"] == "not_allowed"
    await switch(ben, "greek-31")
    assert (await ben.next_of("room_switch", timeout=30))["game"] == "greek-31"
    for p in (ada, ben, cy):
        await p.close()


async def test_one_host_the_tables_handed_on_at_the_table_is_the_rooms(database_url: str) -> None:
    """The room's host is its table's: handed on at the table (the host's ``make_host``),
    the new host switches the game and the room says so; the REST handover moves the
    table's host too; and a private room's next table seats by approval."""
    live = LiveServer(make_settings(database_url))
    await live.start()
    try:
        ada, ben, cy = [await Player.join(live, n) for n in ("Ada", "Ben", "Cy")]
        opened = await open_room(ada, "vingt-un", private=True)
        room_id, invite = opened["room_id"], opened["url"].split("invite=")[-1]
        await ada.connect(opened["table_id"])
        await ben.connect(opened["table_id"], invite=invite)
        await ada.sit(100)
        await ben.send({"type": "sit", "seat": None, "buy_in": 100})
        await until(lambda: ada.view and ada.view["table"].get("requests"), "Ben's request")
        await ada.send(
            {"type": "host", "id": "h1", "action": {"kind": "approve", "player_id": ben.player_id}}
        )
        await ben.wait_for(lambda v: v["you"] is not None)
        seat = ben.view["you"]
        await ada.send({"type": "host", "id": "h2", "action": {"kind": "make_host", "seat": seat}})
        await ben.wait_for(
            lambda v: (v["table"].get("host") or {}).get("player_id") == ben.player_id
        )
        room = (await ben.http.get(f"/api/rooms/{room_id}?invite={invite}")).json()
        assert room["host"]["player_id"] == ben.player_id
        await switch(ada, "greek-31")
        assert (await ada.next_of("error"))["code"] == "not_allowed"
        await switch(ben, "greek-31")
        switched, _ = await closed_with(ben)
        new_table = switched["table_id"]
        await ada.disconnect()
        await ben.disconnect()
        await ben.connect(new_table, invite=invite)
        assert ben.view["table"]["host"]["player_id"] == ben.player_id
        # the private room's new table seats by approval: Cy's sit is a request
        await cy.connect(new_table, invite=invite)
        await cy.send({"type": "sit", "seat": None, "buy_in": 100})
        await cy.wait_for(lambda v: v["table"].get("seat_request") == "pending")
        # the REST handover moves the table's host with the room's
        await ada.connect(new_table, invite=invite)
        path = f"/api/rooms/{room_id}/host"
        handed = await ben.http.post(path, json={"player_id": ada.player_id})
        assert handed.status_code == 200, handed.text
        await ada.wait_for(
            lambda v: (v["table"].get("host") or {}).get("player_id") == ada.player_id
        )
        await audit(live)
        for p in (ada, ben, cy):
            await p.close()
    finally:
        await live.stop()


async def test_a_player_the_switch_seated_sat_at_that_table_for_every_review(
    database_url: str,
) -> None:
    """A private room's player whose stack a switch moved to a table sat there (as a buy-in
    seats one elsewhere): once the room has moved on again, that table, its hands and the
    room's settle-up are still theirs to read, and still hidden from anyone else."""
    live = LiveServer(make_settings(database_url))
    await live.start()
    try:
        ada, ben, cy = [await Player.join(live, n) for n in ("Ada", "Ben", "Cy")]
        opened = await open_room(
            ada, "vingt-un", private=True, options={**FRIENDS, "approval": False}
        )
        tables = [opened["table_id"]]
        for p in (ada, ben):
            await p.connect(tables[0], invite=opened["invite_code"])
            await p.sit(200)
        for game in ("greek-31", "vingt-un"):
            await switch(ada, game)
            tables.append((await closed_with(ada))[0]["table_id"])
            await closed_with(ben)
            for p in (ada, ben):
                await p.connect(tables[-1])
        middle = tables[1]  # Ben never bought in there, and sits there no more
        for path in (f"/api/settle?table_id={middle}", f"/api/tables/{middle}/hands"):
            assert (await ben.http.get(path)).status_code == 200, path
            assert (await cy.http.get(path)).status_code == 404, path
        settled = await ben.http.get("/api/settle", params={"room": opened["room_id"]})
        assert settled.status_code == 200, settled.text
        for p in (ada, ben, cy):
            await p.close()
    finally:
        await live.stop()
