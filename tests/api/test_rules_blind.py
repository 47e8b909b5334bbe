"""A client that knows nothing of the rules plays every game through the real socket.

It picks random actions from ``legal`` (each must be acknowledged) and sprinkles illegal ones
(each must be refused with a code, changing nothing); no view may carry a face-down card of
another seat; at the end the audit balances. This is how each game issue is checked.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from app.games.core.registry import GAME_IDS, game_class
from tests.api.test_socket import audit
from tests.client import Player, hidden_card_leaks
from tests.conftest import LiveServer

SECONDS = 2
"""Every clock of the table (each ``*_seconds`` option), short: timeouts happen in the test."""


def quick_options(game: str) -> dict[str, int]:
    """Each ``*_seconds`` option of the game's options model set to :data:`SECONDS` (or the
    least the option allows, when that is more)."""
    specs = game_class(game).OPTIONS_MODEL.specs()
    return {
        spec.name: max(SECONDS, spec.min or 0)
        for spec in specs
        if spec.type == "int" and spec.name.endswith("_seconds")
    }


def illegal_variant(
    action: dict[str, Any], legal: list[dict[str, Any]], rng: random.Random
) -> dict[str, Any]:
    """An action that cannot fit ``legal``: an unknown kind, a parameter out of range, a
    missing or an extra key."""
    choice = rng.randrange(4)
    if choice == 0 or len(action) == 1:
        return {**action, "unexpected": 1}
    name = next(k for k in action if k != "kind")
    if choice == 1:
        return {k: v for k, v in action.items() if k != name}
    template = next(t for t in legal if t["kind"] == action["kind"])
    spec = template["params"][name]
    if "max" in spec and "subset_of" not in spec:
        return {**action, name: spec["max"] + 1 + rng.randrange(10**6)}
    return {**action, name: "not-a-value"}


def own_stack(view: dict[str, Any]) -> int | None:
    return next((s["stack"] for s in view["seats"] if s["seat"] == view["you"]), None)


async def buy_in_again(people: list[Player]) -> None:
    """A player the banker has cleaned out, or left with less than the game lets them play
    with (the view's ``cannot_play``: six chips where the smallest stake is ten), brings more
    chips, as a person would: a top-up where the game offers one (``can_top_up``), else
    standing up and sitting down again. Else a table whose players are all short waits for
    players until the test's clock ends."""
    for person in people:
        view = person.view
        if view is None or view["you"] is None:
            continue
        if own_stack(view) != 0 and not view["table"]["cannot_play"]:
            continue
        low = view["table"]["buy_in"]["min"]
        if view["table"]["can_top_up"]:
            # a buy-in's chips, as far as the table lets a top-up bring (Trianta Ena: its
            # buy_in, while the first banker's buy-in is three of them)
            await person.send({"type": "top_up", "amount": min(low, view["table"]["top_up_max"])})
            await person.wait_for(lambda v: not v["table"]["cannot_play"])
            continue
        await person.send({"type": "leave"})
        await person.wait_for(lambda v: v["you"] is None)
        await person.send({"type": "sit", "seat": None, "buy_in": low})
        await person.wait_for(lambda v: v["you"] is not None)


@pytest.mark.parametrize("start", ["auto", "when_ready"])
@pytest.mark.parametrize("game", GAME_IDS)
async def test_rules_blind_client(live_as_served: LiveServer, game: str, start: str) -> None:
    """On a friends' table (``when_ready``) the client presses Ready, Deal, Sit out and I'm
    back as blindly as any other action in ``legal``. Every game of the registry is played,
    with its clocks short and as many players as its simulator seats."""
    live = live_as_served
    rng = random.Random(hash(game) & 0xFFFF)
    players = game_class(game).SIM_PLAYERS
    people = [await Player.join(live, f"{game[:6]}{i}") for i in range(players)]
    table_id = await people[0].open_table(game, start=start, **quick_options(game))
    for person in people:
        await person.connect(table_id)
    for person in people:
        view = person.view
        assert view is not None
        free = view["table"]["free_seats"]
        low, high = view["table"]["buy_in"]["min"], view["table"]["buy_in"]["max"]
        limits = (low, min(high, 500)) if low <= 500 else (low, low)
        await person.send({"type": "sit", "seat": None, "buy_in": max(limits[0], limits[1])})
        await person.wait_for(lambda v: v["you"] is not None)
        assert free  # there was a seat

    accepted = refused = 0
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 120  # for a stuck run only: a busy machine is given the time
    while accepted < 60:
        assert loop.time() < deadline, f"{game}: only {accepted} actions accepted"
        mover = next(
            (p for p in rng.sample(people, len(people)) if p.view and p.view["legal"]), None
        )
        if mover is None:
            await buy_in_again(people)
            await asyncio.sleep(0.01)
            continue
        assert mover.view is not None
        legal = mover.view["legal"]
        action = mover.random_legal(rng)
        assert action is not None
        if rng.random() < 0.25:
            bad = illegal_variant(action, legal, rng)
            reply = await mover.act(bad)
            assert reply["type"] == "error", (game, bad, legal)
            assert reply["code"] in ("illegal_action", "stale_version", "unknown_action"), reply
            refused += 1
            continue
        reply = await mover.act(action)
        if reply["type"] == "error":
            # a timer may have moved the table on between the view and the act
            assert reply["code"] in ("stale_version", "not_your_turn"), (game, action, reply)
        else:
            accepted += 1
        for person in people:
            for state in person.states:
                assert hidden_card_leaks(state["view"]) == [], (game, state["view"])
            person.states.clear()
    assert refused > 0
    result = await audit(live)
    assert result["balanced"] is True, result
    for person in people:
        await person.close()
