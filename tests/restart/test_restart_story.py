"""The table's story outlives a restart (docs/protocol.md §6.6).

A restart used to wipe it: every log read "Reconnected. / Hand 3 is dealt.", the void notice
was gone, and the void hand in the history listed nobody and could not be opened. On the real
server process, at a Vingt-un table (each player's first card is dealt face down, marked
private to its seat) with Ada and Ben seated and a spectator watching:

* hand 1 is played to its end, hand 2 is dealt, and the server is killed (SIGKILL) while
  hand 2 is in play;
* after the restart, the first story a socket receives holds hand 1 (its start, its events,
  its end with its result), then the void notice of hand 2 (a ``hand_void`` event with its
  number and why), then hand 3 as it is dealt; hand 1's events are exactly those each of them
  was told live, so the spectator is told no card hidden from them, and Ada her own;
* the void hand is in the table's history and each player's with who sat in it (net 0), and
  its record (``GET /api/hands/{id}``) and its page answer 200 naming them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from app.db.store.recovery import RESTARTED
from app.games.core.actions import random_action
from tests.client import Player
from tests.restart.server import ServerProcess, ledger_faults, servers

OPTIONS = {"min_bet": 10, "max_bet": 20, "turn_seconds": 600}
"""Long clocks: nothing moves unless a person acts, so hand 2 waits to be interrupted."""
TABLE_EVENTS = {"sit", "leave", "top_up", "hand_start", "hand_end", "hand_void"}
TABLE_EVENTS |= {"ready", "deal_now", "sat_out", "came_back", "time_bank"}
TABLE_ACTIONS = {"sit_out", "sit_in"}
"""The table's own actions the players here never take (they play every hand)."""


@pytest.fixture
async def server(database_url: str, tmp_path: Path) -> AsyncIterator[ServerProcess]:
    with servers() as started:
        process = ServerProcess(database_url, tmp_path / "server.log")
        started.append(process)
        await process.start()
        yield process


def told(player: Player) -> list[dict[str, Any]]:
    """Every event ``player`` was told on its socket (``story`` and ``events``), in order."""
    out: list[dict[str, Any]] = []
    for message in player.states:
        out += [*message.get("story", []), *message.get("events", [])]
    return out


def hand_events(events: list[dict[str, Any]], number: int) -> list[dict[str, Any]]:
    """The engine's events of hand ``number``: those between its start and its end."""
    start = next(
        i for i, e in enumerate(events) if e["kind"] == "hand_start" and e["number"] == number
    )
    end = next(i for i, e in enumerate(events) if e["kind"] == "hand_end" and e["number"] == number)
    return [e for e in events[start + 1 : end] if e["kind"] not in TABLE_EVENTS]


async def play_until(people: list[Player], done: Callable[[], bool], rng: random.Random) -> None:
    """The seated people act at random within ``legal`` (never sitting out) until ``done``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while not done():
        assert loop.time() < deadline, [p.view for p in people]
        acted = False
        for person in people:
            legal = [
                t for t in (person.view or {}).get("legal", []) if t["kind"] not in TABLE_ACTIONS
            ]
            if legal and not done():
                await person.act(random_action(legal, rng))
                acted = True
        if not acted:
            await asyncio.sleep(0.01)


def kinds_of(story: list[dict[str, Any]]) -> list[tuple[str, int | None]]:
    return [(e["kind"], e.get("number")) for e in story if e["kind"] in TABLE_EVENTS]


async def test_the_story_and_the_void_hand_survive_a_kill(
    server: ServerProcess, database_url: str
) -> None:
    rng = random.Random(23)
    ada, ben, spectator = [await Player.join(server, n) for n in ("Ada", "Ben", "Sam")]
    table_id = await ada.open_table("vingt-un", **OPTIONS)
    await spectator.connect(table_id)  # watches from before the first deal
    for person in (ada, ben):
        await person.connect(table_id)
        await person.sit(200)

    def dealt(number: int) -> Callable[[], bool]:
        return lambda: any(
            e["kind"] == "hand_start" and e["number"] == number for e in told(spectator)
        )

    def ended(number: int) -> Callable[[], bool]:
        return lambda: any(
            e["kind"] == "hand_end" and e["number"] == number for e in told(spectator)
        )

    await play_until([ada, ben], ended(1), rng)
    await play_until([ada, ben], dealt(2), rng)  # a Ready, a Deal, if the table asks
    await spectator.wait_for(lambda v: v["hand_id"] is not None)
    hand_2 = spectator.view["hand_id"]  # type: ignore[index]
    for person in (ada, ben):  # everyone has been told hand 1 to its end
        await person.wait_for(
            lambda _v, p=person: any(e["kind"] == "hand_end" and e["number"] == 1 for e in told(p))
        )
    live = {p.name: hand_events(told(p), 1) for p in (ada, ben, spectator)}
    live_result = next(e["result"] for e in told(ada) if e["kind"] == "hand_end")
    hidden = [e for e in live["Sam"] if "private_to" in e]
    assert hidden and all(e["card"] is None for e in hidden), live["Sam"]  # a real test
    await server.admin_json("GET", "/api/admin/audit")  # hand 1's record, hand 2's start

    server.kill()  # hand 2 in play
    for person in (ada, ben, spectator):
        await asyncio.wait_for(person.close(), 30)
    await server.start()
    ada, ben, spectator = [
        Player(server.base_url, server.ws_url, p.name, p.token, p.info)
        for p in (ada, ben, spectator)
    ]

    # ------------------------------------------------------------------ the story
    await spectator.connect(table_id)
    await spectator.wait_for(lambda v: v["hand_id"] not in (None, hand_2))  # hand 3 dealt
    asked = len(spectator.states)
    await spectator.send({"type": "resync"})  # its answer's story holds hand 3's start too
    await spectator.wait_for(lambda _v: any("story" in m for m in spectator.states[asked:]))
    resynced = next(m for m in spectator.states[asked:] if "story" in m)
    stories = {}
    for person in (ada, ben):
        await person.connect(table_id)
        stories[person.name] = person.states[0]
    stories["Sam"] = resynced
    for name, first in stories.items():
        story = first["story"]
        kinds = kinds_of(story)
        assert ("hand_start", 1) in kinds and ("hand_end", 1) in kinds, (name, kinds)
        end_1, void_2 = kinds.index(("hand_end", 1)), kinds.index(("hand_void", 2))
        assert kinds.index(("hand_start", 1)) < end_1 < void_2 < kinds.index(("hand_start", 3))
        void = next(e for e in story if e["kind"] == "hand_void")
        assert void == {**void, "hand_id": hand_2, "number": 2, "reason": RESTARTED}
        assert hand_events(story, 1) == live[name], name  # what each was told live, no more
        assert first["result"] == live_result
        assert next(e for e in story if e["kind"] == "hand_end")["result"] == live_result
    ada_seat = ada.states[0]["view"]["you"]
    own = [e for e in hand_events(stories["Ada"]["story"], 1) if e.get("private_to") == [ada_seat]]
    assert own and all(isinstance(e["card"], str) for e in own)  # Ada reads her own cards
    others = [
        e
        for e in hand_events(stories["Ada"]["story"], 1)
        if e.get("private_to") not in (None, [ada_seat])
    ]
    assert all(e["card"] is None for e in others)
    assert all(
        e["card"] is None for e in hand_events(stories["Sam"]["story"], 1) if "private_to" in e
    )
    # the notice is there too, for the table's page
    assert spectator.view["table"]["message"] == RESTARTED  # type: ignore[index]

    # ------------------------------------------------------------------ the void hand
    page = (await ada.http.get(f"/api/tables/{table_id}/hands")).json()
    row = next(r for r in page["hands"] if r["hand_id"] == hand_2)
    assert row["status"] == "void" and row["number"] == 2
    assert {p["name"] for p in row["players"]} == {"Ada", "Ben"}
    assert (row["seated"], row["your_net"]) == (2, 0)
    mine = (await ben.http.get(f"/api/players/{ben.player_id}/hands")).json()
    row = next(r for r in mine["hands"] if r["hand_id"] == hand_2)
    assert (row["status"], row["player_net"]) == ("void", 0)
    for reader in (ada, spectator):
        response = await reader.http.get(f"/api/hands/{hand_2}")
        assert response.status_code == 200, response.text
        record = response.json()
        assert (record["status"], record["number"], record["void"]) == ("void", 2, RESTARTED)
        assert {s["name"] for s in record["seats_before"]} == {"Ada", "Ben"}
        assert all(s["stack"] > 0 for s in record["seats_before"])
        assert {p["name"]: p["net"] for p in record["result"]["players"]} == {"Ada": 0, "Ben": 0}
        assert record.get("events") in (None, [])  # no card of a void hand is ever shown
    html = await ada.http.get(f"/hands/{hand_2}")
    assert html.status_code == 200
    assert "void, stakes returned" in html.text and "Ada" in html.text and "Ben" in html.text
    assert (await ada.http.get(f"/api/hands/{hand_2}/replay")).status_code == 409
    export = await ada.http.get(f"/api/hands/{hand_2}/export")
    assert export.status_code == 200 and export.json()["status"] == "void"
    assert {s["name"]: s["net"] for s in export.json()["seats"]} == {"Ada": 0, "Ben": 0}
    for person in (ada, ben, spectator):
        await person.close()
    assert await ledger_faults(database_url) == []
