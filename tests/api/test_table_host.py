"""The host at the table and seats by approval, over the real socket (docs/protocol/socket.md
§5.13; docs/rules.md §0.12).

The opener is the table's host: from the table they let a newcomer sit or not, change the
stakes between hands (not during one), pause and resume, stand a player up, hand the role on,
and close the table. Everyone else is refused (``not_host``), and nothing changes when a
refusal is sent. Each host action is in the story and in the host's log.
"""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from tests.api.test_socket import audit
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.waiting import until

OPTIONS = {"start": "when_ready", "turn_seconds": 600, "approval": True}
_ids = itertools.count(1)


async def host(person: Player, action: dict[str, Any]) -> dict[str, Any]:
    """Send a host action; its ack or its error."""
    msg_id = f"h-{next(_ids)}"
    await person.send({"type": "host", "id": msg_id, "action": action})
    while True:
        message = await person.receive(30)
        if message["type"] in ("ack", "error") and message.get("id") == msg_id:
            return message


def host_kinds(view: dict[str, Any]) -> set[str]:
    return {t["kind"] for t in view["table"]["host_legal"]}


async def bankroll(person: Player) -> int:
    return int((await person.http.get("/api/me")).json()["bankroll"])


async def host_log(live: LiveServer) -> list[dict[str, Any]]:
    headers = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    async with httpx.AsyncClient(base_url=live.base_url, headers=headers) as http:
        response = await http.get("/api/admin/actions")
        response.raise_for_status()
        return response.json()  # type: ignore[no-any-return]


def told(person: Player, kind: str) -> list[dict[str, Any]]:
    """The story events of ``kind`` this person has been told (with states or as a story)."""
    out = []
    for state in person.states:
        for event in [*state.get("events", []), *state.get("story", [])]:
            if event["kind"] == kind:
                out.append(event)
    return out


async def a_table(live: LiveServer, **options: Any) -> tuple[str, Player, Player]:
    """Ada opens a Vingt-un table by approval and sits; Ben connects."""
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    table_id = await ada.open_table("vingt-un", **{**OPTIONS, **options})
    await ada.connect(table_id)
    await ada.sit(100)  # the host's own sit never waits
    await ben.connect(table_id)
    return table_id, ada, ben


async def test_a_stranger_asks_to_sit_and_is_refused(live: LiveServer) -> None:
    table_id, ada, ben = await a_table(live)
    assert ada.view is not None and ben.view is not None
    assert ben.view["table"]["host"] == {"player_id": ada.player_id, "name": "Ada"}
    assert ben.view["table"]["approval"] is True
    assert ben.view["table"]["host_legal"] == [] and ben.view["table"]["requests"] == []
    before = await bankroll(ben)

    await ben.send({"type": "sit", "seat": 3, "buy_in": 100})
    view = await ben.wait_for(lambda v: v["table"]["seat_request"] == "pending")
    assert view["you"] is None and "not answered" in view["table"]["seat_request_message"]
    asked = await ada.wait_for(lambda v: v["table"]["requests"])
    assert asked["table"]["requests"] == [
        {"player_id": ben.player_id, "name": "Ben", "seat": 3, "buy_in": 100}
    ]
    assert {"approve", "refuse"} <= host_kinds(asked)
    assert await bankroll(ben) == before  # nothing moves while the request waits
    actor = live.services.lobby.get(table_id)
    assert actor is not None and 3 not in actor.core.reserved  # nothing is held

    # Ben is not the host: every host action is refused him, and changes nothing
    refused = await host(ben, {"kind": "approve", "player_id": ben.player_id})
    assert refused["type"] == "error" and refused["code"] == "not_host"

    reply = await host(ada, {"kind": "refuse", "player_id": ben.player_id})
    assert reply["type"] == "ack", reply
    view = await ben.wait_for(lambda v: v["table"]["seat_request"] == "refused")
    assert "may ask again in 10 minutes" in view["table"]["seat_request_message"]
    await ada.wait_for(lambda v: v["table"]["requests"] == [])

    # asking again at once is refused in words; nothing changed
    await ben.send({"type": "sit", "seat": 3, "buy_in": 100})
    error = await ben.next_of("error")
    assert error["code"] == "seat_refused" and "10 minutes" in error["message"]
    assert await bankroll(ben) == before
    assert [i.player_id for i in actor.roster.values()] == [ada.player_id]
    assert told(ben, "host_refuse") and told(ada, "seat_request")

    log = await host_log(live)
    refusal = next(row for row in log if row["action"] == "table_refuse")
    assert refusal["detail"]["by"] == "table_host"
    assert refusal["detail"]["host_id"] == ada.player_id
    assert refusal["detail"]["player_id"] == ben.player_id
    for person in (ada, ben):
        await person.close()


async def test_an_approved_request_sits_with_its_buy_in_in_the_ledger(live: LiveServer) -> None:
    table_id, ada, ben = await a_table(live)
    before = await bankroll(ben)
    await ben.send({"type": "sit", "seat": 2, "buy_in": 150})
    await ada.wait_for(lambda v: v["table"]["requests"])
    reply = await host(ada, {"kind": "approve", "player_id": ben.player_id})
    assert reply["type"] == "ack", reply
    view = await ben.wait_for(lambda v: v["you"] == 2)
    assert view["table"]["seat_request"] is None
    assert next(s for s in view["seats"] if s["seat"] == 2)["stack"] == 150
    assert await bankroll(ben) == before - 150
    assert (await audit(live))["balanced"] is True

    # a third person asks, then leaves: the request vanishes
    cy = await Player.join(live, "Cy")
    await cy.connect(table_id)
    await cy.send({"type": "sit", "seat": None, "buy_in": 100})
    await ada.wait_for(lambda v: [r["name"] for r in v["table"]["requests"]] == ["Cy"])
    await cy.close()
    await ada.wait_for(lambda v: v["table"]["requests"] == [])
    for person in (ada, ben):
        await person.close()


async def test_a_private_table_is_by_approval_unless_told_otherwise(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    made = await ada.http.post("/api/tables", json={"game": "greek-31", "private": True})
    assert made.status_code == 201, made.text
    assert made.json()["options"]["approval"] is True
    off = await ada.http.post(
        "/api/tables",
        json={"game": "greek-31", "private": True, "options": {"approval": False}},
    )
    assert off.json()["options"]["approval"] is False
    public = await ada.http.post("/api/tables", json={"game": "greek-31"})
    assert public.json()["options"]["approval"] is False
    await ada.close()


async def test_the_stakes_change_between_hands_or_from_the_next_one(live: LiveServer) -> None:
    table_id, ada, ben = await a_table(live, approval=False)
    await ben.sit(100)
    view = await ada.wait_for(lambda v: "set_options" in host_kinds(v))
    template = next(t for t in view["table"]["host_legal"] if t["kind"] == "set_options")
    assert set(template["params"]["options"]) == {
        "min_bet",
        "max_bet",
        "turn_seconds",
        "approval",
    }

    # what the game does not allow on a live table, or refuses, changes nothing
    for options, words in (
        ({"max_split_hands": 2}, "max_split_hands cannot change on a live table"),
        ({"min_bet": 50, "max_bet": 20}, "max_bet must be at least min_bet"),
        ({"min_bet": 0}, "min_bet must be from"),
    ):
        reply = await host(ada, {"kind": "set_options", "options": options})
        assert reply["type"] == "error" and reply["code"] == "bad_options", reply
        assert words in reply["message"], reply
    refused = await host(ben, {"kind": "set_options", "options": {"min_bet": 20}})
    assert refused["code"] == "not_host"
    actor = live.services.lobby.get(table_id)
    assert actor is not None and actor.options["min_bet"] == 10

    reply = await host(ada, {"kind": "set_options", "options": {"min_bet": 20, "max_bet": 60}})
    assert reply["type"] == "ack", reply
    await ben.wait_for(lambda v: told(ben, "host_set_options"))
    event = told(ben, "host_set_options")[0]
    assert event["options"] == {"min_bet": 20, "max_bet": 60}
    assert (await ada.http.get(f"/api/tables/{table_id}")).json()["options"]["max_bet"] == 60

    # the next hand is dealt under them; during it the stakes may not change
    for person in (ada, ben):
        await person.wait_for(lambda v: any(t["kind"] == "ready" for t in v["legal"]))
        assert (await person.act({"kind": "ready"}))["type"] == "ack"
    staking = await until_staking(ada, ben)
    stake = next(t for t in staking["legal"] if t["kind"] == "stake")
    assert stake["params"]["amount"]["min"] == 20
    assert stake["params"]["amount"]["max"] <= 60
    # during it a change is taken for the next hand: this one keeps its stakes
    mid = await host(ada, {"kind": "set_options", "options": {"min_bet": 30}})
    assert mid["type"] == "ack", mid
    assert "close" not in host_kinds(ada.view or {"table": {"host_legal": []}})
    assert actor.options["min_bet"] == 20
    await ben.wait_for(lambda v: len(told(ben, "host_set_options")) == 2)
    assert told(ben, "host_set_options")[1]["from_next_hand"] is True
    view = await ada.wait_for(lambda v: "from the next hand" in (v["table"]["message"] or ""))
    template = next(t for t in view["table"]["host_legal"] if t["kind"] == "set_options")
    assert template["params"]["options"]["min_bet"]["value"] == 30  # what the next hand takes
    log = await host_log(live)
    assert any(
        row["action"] == "table_set_options" and row["detail"]["by"] == "table_host" for row in log
    )
    for person in (ada, ben):
        await person.close()


async def until_staking(*people: Player) -> dict[str, Any]:
    """The view of whichever person is offered a stake in the hand just dealt."""
    found: list[dict[str, Any]] = []

    def offered() -> bool:
        for person in people:
            view = person.view
            if view and view["hand_id"] and any(t["kind"] == "stake" for t in view["legal"]):
                found.append(view)
                return True
        return False

    await until(offered, "a stake offered")
    return found[0]


async def test_pause_unseat_hand_over_and_close(live: LiveServer) -> None:
    table_id, ada, ben = await a_table(live, approval=False)
    await ben.sit(100, seat=1)
    cy = await Player.join(live, "Cy")
    await cy.connect(table_id)
    await cy.sit(100, seat=2)
    actor = live.services.lobby.get(table_id)
    assert actor is not None

    assert (await host(ada, {"kind": "pause"}))["type"] == "ack"
    view = await ben.wait_for(lambda v: v["table"]["status"] == "paused")
    assert view["table"]["pause_reason"] == "The host paused the table."
    again = await host(ada, {"kind": "pause"})
    assert again["code"] == "illegal_action"
    # an act of a host's kind is taken as the host message is
    assert (await ada.act({"kind": "resume"}))["type"] == "ack"
    await ben.wait_for(lambda v: v["table"]["status"] == "open")

    # Cy is stood up: her stack goes home
    before = await bankroll(cy)
    nobody = await host(ada, {"kind": "unseat", "seat": 5})
    assert nobody["code"] == "bad_message"
    assert (await host(ada, {"kind": "unseat", "seat": 2}))["type"] == "ack"
    await cy.wait_for(lambda v: v["you"] is None)
    assert await bankroll(cy) == before + 100
    assert told(ben, "host_unseat")[0]["name"] == "Cy"

    # the host role goes to Ben: Ada is refused from now on, Ben may
    assert (await host(ada, {"kind": "make_host", "seat": 1}))["type"] == "ack"
    view = await ada.wait_for(lambda v: v["table"]["host"]["player_id"] == ben.player_id)
    assert view["table"]["host_legal"] == []
    old = await host(ada, {"kind": "pause"})
    assert old["type"] == "error" and old["code"] == "not_host"
    assert (await ada.http.post(f"/api/tables/{table_id}/close")).status_code == 403
    await ben.wait_for(lambda v: "close" in host_kinds(v))

    # Ben closes the table: every stack goes home
    ada_before, ben_before = await bankroll(ada), await bankroll(ben)
    assert (await host(ben, {"kind": "close"}))["type"] == "ack"
    await until(lambda: actor.closed, "the table closed")
    assert await bankroll(ada) == ada_before + 100
    assert await bankroll(ben) == ben_before + 100
    assert (await audit(live))["balanced"] is True
    actions = [row["action"] for row in await host_log(live)]
    for kind in ("pause", "resume", "unseat", "make_host", "close"):
        assert f"table_{kind}" in actions, kind
    for person in (ada, ben, cy):
        await person.close()
