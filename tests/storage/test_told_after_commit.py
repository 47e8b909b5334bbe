"""Committed before told (docs/architecture.md, "Committed before announced"): no client
hears of a chip movement before the database holds it.

The test holds the database's write lock while people play (:class:`HeldWrites`): acts in a
hand are told at once (they are in memory until the hand ends), but the act that ends a hand
finishes it in memory and waits, and nobody is sent its result, the stacks after it, or
anything else, until the lock is let go and the hand is committed. The same for a leave's
cash-out. A spectator's ping proves that nothing was sent meanwhile (a change goes to every
socket at once; the players' own sockets wait on the act they sent). Both databases
(``make test-pg``).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.client import Player
from tests.conftest import LiveServer
from tests.storage.harness import (
    HeldWrites,
    answered,
    audit,
    check_stacks_are_the_ledgers,
    check_told_is_stored,
    round_trip,
    seat_people,
    send_act,
    told_results,
    wait_until,
)

QUICK_ROUNDS: dict[str, dict[str, Any]] = {"en-og-tredive": {"knock_min": 1}}
"""En og tredive's round ends at a knock or a 31: played at random from ``legal`` a hand
seldom holds the 21 a knock needs, and a round took a thousand acts or more (a minute).
Anyone may knock from their second turn on here, so a round is a few acts; what is checked
(its end is told only once committed) is the same whatever ended it."""


@pytest.mark.parametrize("game", ["trianta-ena", "vingt-un", "greek-31", "en-og-tredive"])
async def test_a_hands_end_is_told_only_once_it_is_committed(
    live: LiveServer, database_url: str, game: str
) -> None:
    rng = random.Random(game)
    people, table_id = await seat_people(live, game, 2, **QUICK_ROUNDS.get(game, {}))
    watcher = await Player.join(live, "watcher")
    await watcher.connect(table_id)
    actor = live.services.lobby.tables[table_id]
    for _ in range(2):  # two hands, each ended while the database is held
        await wait_until(lambda: actor.hand_id is not None and not actor.lock.locked(), "a deal")
        hand_id = actor.hand_id
        async with HeldWrites(database_url) as held:
            # play on until the hand has ended in memory: its write waits on the lock (and
            # so does the ack of the act that ended it: it goes out with its state)
            while actor.hand_id == hand_id:
                movers = [p for p in people if p.view and p.view["legal"]]
                if not movers:
                    await wait_until(
                        lambda h=hand_id: (
                            actor.hand_id != h or any(p.view and p.view["legal"] for p in people)
                        ),
                        "someone to act, or the clock to end the hand",
                    )
                    continue
                mover = rng.choice(movers)
                sent = await send_act(mover, mover.random_legal(rng))
                await wait_until(
                    lambda m=mover, i=sent, h=hand_id: answered(m, i) or actor.hand_id != h,
                    "the act answered, or the hand ended",
                )
            await wait_until(lambda: actor.lock.locked(), "the table waiting on its write")
            await round_trip(watcher)  # everything sent before now has arrived
            assert hand_id not in told_results([*people, watcher]), "told before committed"
            await held.release()
        await wait_until(lambda h=hand_id: h in told_results([watcher]), "the result, committed")
        await check_told_is_stored(live, told_results([*people, watcher]))
    assert await check_stacks_are_the_ledgers(live) >= 1
    await audit(live)
    for person in [*people, watcher]:
        await person.close()


async def test_a_leaves_cash_out_is_told_only_once_it_is_committed(
    live: LiveServer, database_url: str
) -> None:
    people, table_id = await seat_people(live, "trianta-ena", 2, start="when_ready")
    watcher = await Player.join(live, "watcher")
    await watcher.connect(table_id)
    actor = live.services.lobby.tables[table_id]
    leaver = people[1]
    async with HeldWrites(database_url) as held:
        await leaver.send({"type": "leave"})
        await wait_until(
            lambda: (
                leaver.player_id not in {i.player_id for i in actor.roster.values()}
                and actor.lock.locked()
            ),
            "the leave taken in memory, its write waiting",
        )
        await round_trip(watcher)
        seated = {s.get("player_id") for s in (watcher.view or {}).get("seats", [])}
        assert leaver.player_id in seated, "the leave was told before it was committed"
        await held.release()
    await leaver.wait_for(lambda v: v["you"] is None)
    await audit(live)
    for person in [*people, watcher]:
        await person.close()
