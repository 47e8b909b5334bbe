"""The time bank through the real app (docs/protocol/socket.md §5.11): More time is offered
in ``legal`` to the player whose timed decision it is, moves the view's ``deadline`` on and
spends the bank that every seat shows, is refused when empty or not one's decision, and the
bank survives a restart with the table's between-hands state."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from tests.client import Player
from tests.conftest import LiveServer, make_settings

MORE_TIME = {"kind": "time_bank"}


def offered(view: dict[str, Any] | None) -> bool:
    return view is not None and any(t["kind"] == "time_bank" for t in view["legal"])


def bank(view: dict[str, Any], seat: int) -> int:
    return int(next(s["time_bank"] for s in view["seats"] if s["seat"] == seat))


async def deciding(people: list[Player]) -> tuple[Player, Player]:
    """The one whose decision the clock is timing, and the other."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 60  # a guard for a stuck run
    while loop.time() < end:
        for n, person in enumerate(people):
            if offered(person.view):
                return person, people[1 - n]
        await asyncio.sleep(0.01)
    raise AssertionError("nobody was offered More time")


async def test_more_time_over_the_socket_and_across_a_restart(database_url: str) -> None:
    live = LiveServer(make_settings(database_url))
    await live.start()
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    try:
        table = await ada.open_table("greek-31", turn_seconds=300, time_bank_seconds=20)
        for n, person in enumerate((ada, ben)):
            await person.connect(table)
            await person.sit(200, seat=n)
        me, other = await deciding([ada, ben])
        seat = me.view["you"]  # type: ignore[index]
        deadline = me.view["deadline"]  # type: ignore[index]
        assert not offered(other.view)
        refused = await other.act(MORE_TIME)
        assert refused["type"] == "error" and refused["code"] == "not_your_turn"

        assert (await me.act(MORE_TIME))["type"] == "ack"
        view = await other.wait_for(lambda v: bank(v, seat) == 5)
        assert view["deadline"] == deadline + 15
        assert (await me.act(MORE_TIME))["type"] == "ack"
        view = await me.wait_for(lambda v: bank(v, seat) == 0)
        assert view["deadline"] == deadline + 20 and not offered(view)
        empty = await me.act(MORE_TIME)
        assert empty["type"] == "error" and empty["code"] == "not_allowed"

        # the hand is played out; its end stores the table's state, the bank with it
        hand = view["hand_id"]
        rng = random.Random(5)
        loop = asyncio.get_running_loop()
        end = loop.time() + 60
        while ada.view["hand_id"] == hand:  # type: ignore[index]
            assert loop.time() < end, "the hand never ended"
            for person in (ada, ben):
                choices = [t for t in person.view["legal"] if t["kind"] != "time_bank"]  # type: ignore[index]
                if choices:
                    action = person.random_legal(rng)
                    if action is not None and action["kind"] != "time_bank":
                        await person.act(action)
            await asyncio.sleep(0.01)
        await live.services.writer.flush()
    finally:
        await ada.close()
        await ben.close()
        await live.stop()

    again = LiveServer(make_settings(database_url))
    await again.start()
    ada = Player(again.base_url, again.ws_url, "Ada", ada.token, ada.info)
    try:
        await ada.connect(table)
        view = await ada.wait_for(lambda v: len(v["seats"]) == 2)
        assert bank(view, seat) == 0
        assert bank(view, 1 - seat) == 20
    finally:
        await ada.close()
        await again.stop()
