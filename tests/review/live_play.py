"""Playing hands of any game through the real server, keeping every state each client got.

Used by the review tests: a few people (and a latecomer who sits down and stands up in the
middle of a hand) play random legal actions until some hands are finished; each client keeps
every ``state`` message it received, and the records are read back from the database with
their private part, as the replay needs them.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from sqlalchemy import select

from app.db.models import Hand
from tests.client import Player
from tests.conftest import LiveServer

GAMES: dict[str, dict[str, Any]] = {
    "trianta-ena": {"turn_seconds": 1, "bet_seconds": 1},
    "greek-31": {"turn_seconds": 1},
    "vingt-un": {"turn_seconds": 1},
    "trente-et-quarante": {"bet_seconds": 1, "turn_seconds": 1},
    "en-og-tredive": {"turn_seconds": 1, "knock_min": 1},  # short rounds: anyone may knock
}


async def sit_down(person: Player) -> None:
    view = person.view
    assert view is not None
    low, high = view["table"]["buy_in"]["min"], view["table"]["buy_in"]["max"]
    await person.send({"type": "sit", "seat": None, "buy_in": max(low, min(high, 300))})
    await person.wait_for(lambda v: v["you"] is not None)


async def play(
    live: LiveServer,
    game: str,
    *,
    hands: int = 3,
    players: int = 3,
    seconds: float = 120,
    seed: int = 1,
    room: bool = False,
    options: dict[str, Any] | None = None,
) -> tuple[str, list[Player], Player]:
    """Open a table of ``game`` and play until ``hands`` hands are finished; returns the table,
    the players (the latecomer last) and a spectator. Every client is closed, and the table
    paused as the host pauses it: the people still seated there play no more hands on the
    clock, so what a test reads of the table afterwards does not move under it (the hand
    dealt meanwhile stays in play, unfinished). ``seconds`` only ends a stuck run. With
    ``room``, the table is a room's first (``POST /api/rooms``, an open room); ``options``
    change the game's table options (:data:`GAMES`) for this table."""
    rng = random.Random(seed)
    table_options = {**GAMES[game], **(options or {})}
    people = [await Player.join(live, f"{game[:5]}-{i}") for i in range(players)]
    if room:
        opened = await people[0].http.post(
            "/api/rooms", json={"game": game, "options": table_options, "name": f"{game[:5]} room"}
        )
        opened.raise_for_status()
        table_id = str(opened.json()["table_id"])
    else:
        table_id = await people[0].open_table(game, **table_options)
    for person in people:
        await person.connect(table_id)
        await sit_down(person)
    late = await Player.join(live, f"{game[:5]}-late")
    await late.connect(table_id)
    watcher = await Player.join(live, f"{game[:5]}-watch")
    await watcher.connect(table_id)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    seen: list[str] = []
    late_state = "away"
    while True:
        assert loop.time() < deadline, f"{hands} hands of {game} never finished"
        view = watcher.view or {}
        hand_id = view.get("hand_id")
        if hand_id and hand_id not in seen:
            seen.append(hand_id)
        finished = len(seen) - (1 if hand_id else 0)
        if finished >= hands:
            break
        if late_state == "away" and hand_id and len(seen) >= 2:
            await sit_down(late)  # in the middle of a hand
            late_state = "seated"
        elif late_state == "seated" and hand_id and hand_id != seen[1]:
            await late.send({"type": "leave"})  # stands up at once if not dealt in
            late_state = "left"
        movers = [p for p in [*people, late] if p.view and p.view["legal"]]
        if not movers:
            await asyncio.sleep(0.01)
            continue
        mover = rng.choice(movers)
        action = mover.random_legal(rng)
        assert action is not None
        await asyncio.wait_for(mover.act(action), 30)
        await asyncio.sleep(0.015)  # under the server's per-address message rate
    actor = live.services.lobby.get(table_id)
    assert actor is not None
    await actor.pause("the test has played its hands")
    await live.services.writer.flush()
    for person in [*people, late, watcher]:
        await person.close()
    return table_id, [*people, late], watcher


async def records(live: LiveServer, table_id: str) -> list[dict[str, Any]]:
    """The finished hands of a table, oldest first, with their private parts."""
    async with live.services.sessionmaker() as session:
        rows = await session.scalars(
            select(Hand)
            .where(Hand.table_id == table_id, Hand.status == "finished")
            .order_by(Hand.ended_at)
        )
        return [dict(h.record or {}) for h in rows]
