"""Leaving and adding chips through the real socket, in every game.

A ``leave`` takes effect at the next moment the rules allow, and the runtime notices that moment
whatever brings it: between hands at once, in a betting window nobody has staked in at once
(a Trente et Quarante window rests without a clock until a stake is down), in a hand the player
takes part in when it ends. A player whose stack no longer lets them play is offered a top-up
between hands (``table.can_top_up``) and told why they sit out (``table.sitting_out``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.api.test_socket import audit
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer

QUICK = {"turn_seconds": 1}
"""Clocks of one second: a player who does not act is decided for at once."""
BETS = {"bet_seconds": 1}
HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}
START = 1000
"""Every new player's bankroll (``STARTING_BANKROLL``)."""


async def seated(
    live: LiveServer,
    game: str,
    chips: int,
    *,
    bots: int = 1,
    seed: str | None = None,
    **options: Any,
) -> tuple[Player, str]:
    """Ada opens a ``game`` table (its shuffles seeded by ``seed``, if given), seats ``bots``
    bots first and sits down with ``chips``."""
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table(game, **{**QUICK, **options})
    if seed is not None:
        async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
            response = await http.post(f"/api/admin/tables/{table_id}/seed", json={"seed": seed})
            assert response.status_code == 200, response.text
    for _ in range(bots):
        response = await ada.http.post(f"/api/tables/{table_id}/bots")
        assert response.status_code == 201, response.text
    await ada.connect(table_id)
    await ada.sit(chips)
    return ada, table_id


async def my_session(player: Player, table_id: str) -> dict[str, Any]:
    response = await player.http.get(f"/api/tables/{table_id}/ledger")
    response.raise_for_status()
    mine = [s for s in response.json()["sessions"] if s["player_id"] == player.player_id]
    return mine[-1]  # type: ignore[no-any-return]


def commitment(view: dict[str, Any]) -> Any:
    """What holds a seated player at the table: the hand in play, or in En og tredive the match
    (its players' bets are committed until it ends, however many rounds it takes, docs/rules.md
    §5.12)."""
    match = view.get("match")
    if isinstance(match, dict) and match.get("in"):
        return ("match", match["number"])
    return view["hand_id"]


async def leave_within_one_hand(
    live: LiveServer, player: Player, table_id: str, *, timeout: float = 60
) -> None:
    """Ask to leave and play nothing more (the clocks decide): the player is gone within the
    hand in play (or the one being dealt as they ask), and their whole stack is back in the
    bankroll."""
    assert player.view is not None and player.view["you"] is not None
    asked_in = commitment(player.view)
    start = len(player.states)
    await player.send({"type": "leave"})
    await player.wait_for(lambda v: v["you"] is None, timeout=timeout)
    dealt = {
        commitment(state["view"])
        for state in player.states[start:]
        if state["view"]["you"] is not None
    } - {None, asked_in}
    assert len(dealt) <= 1, f"still seated through hands {dealt}"
    await live.services.writer.flush()
    session = await my_session(player, table_id)
    assert session["status"] == "left" and session["stack"] == 0, session
    me = (await player.http.get("/api/me")).json()
    assert me["bankroll"] == START + session["net"], (me, session)
    assert (await audit(live))["balanced"] is True


async def until(player: Player, predicate: Callable[[dict[str, Any]], bool]) -> None:
    await player.wait_for(predicate, timeout=60)


def my_seat(view: dict[str, Any]) -> dict[str, Any]:
    return next(s for s in view["seats"] if s["seat"] == view["you"])


# ---------------------------------------------------------------------- Trente et Quarante


async def test_trente_et_quarante_leave_in_an_empty_window_is_at_once(live: LiveServer) -> None:
    """The play test: nobody stakes, the window rests without a clock, and the players who
    asked to leave stayed 'leaving' with their chips at the table until someone staked."""
    ada, table_id = await seated(live, "trente-et-quarante", 200, bots=0, **BETS)
    basil = await Player.join(live, "Basil")
    await basil.connect(table_id)
    await basil.sit(100)
    await until(ada, lambda v: v["phase"] == "betting" and v["hand_id"] is not None)
    for person in (ada, basil):
        await leave_within_one_hand(live, person, table_id)
        await person.close()


async def test_trente_et_quarante_leave_before_the_first_window(live: LiveServer) -> None:
    ada, table_id = await seated(live, "trente-et-quarante", 200, bots=0, **BETS)
    await leave_within_one_hand(live, ada, table_id)
    await ada.close()


async def test_trente_et_quarante_leave_with_a_stake_down_waits_for_the_coup(
    live: LiveServer,
) -> None:
    ada, table_id = await seated(live, "trente-et-quarante", 200, bots=0, **BETS)
    await until(ada, lambda v: v["phase"] == "betting" and bool(v["legal"]))
    # 100: the least stake that can be insured (its premium, 1%, a whole chip: docs/rules.md §4)
    assert (await ada.act({"kind": "stake", "chance": "rouge", "amount": 100}))["type"] == "ack"
    # insured, so an un après cannot put the stake in prison (which would hold Ada longer)
    assert (await ada.act({"kind": "insure", "chance": "rouge"}))["type"] == "ack"
    hand = ada.view["hand_id"] if ada.view else None
    await ada.send({"type": "leave"})
    await until(ada, lambda v: v["you"] is None or my_seat(v)["leaving"])
    assert ada.view is not None and ada.view["hand_id"] == hand  # she plays her coup out
    await ada.wait_for(lambda v: v["you"] is None, timeout=60)
    await live.services.writer.flush()
    session = await my_session(ada, table_id)
    assert session["status"] == "left" and session["stack"] == 0
    me = (await ada.http.get("/api/me")).json()
    assert me["bankroll"] == START + session["net"]
    await ada.close()


# ---------------------------------------------------------------------- the other games


GAMES = [
    # game, Ada's buy-in, options
    ("trianta-ena", 100, BETS),
    ("vingt-un", 200, {}),
    ("greek-31", 100, {}),
    # a match holds its players until it ends (their bets are in front of them): one bet
    # each keeps it short, though a player with no bets left still plays until they must pay
    # again (docs/rules.md §5.9), so it may take a few rounds
    ("en-og-tredive", 100, {"bets": 1}),
]


@pytest.mark.parametrize(("game", "buy_in", "options"), GAMES)
async def test_leave_between_hands(
    live: LiveServer, game: str, buy_in: int, options: dict[str, Any]
) -> None:
    ada, table_id = await seated(live, game, buy_in, **options)
    await leave_within_one_hand(live, ada, table_id)
    await ada.close()


@pytest.mark.parametrize(("game", "buy_in", "options"), GAMES)
async def test_leave_in_the_hand_one_plays(
    live: LiveServer, game: str, buy_in: int, options: dict[str, Any]
) -> None:
    ada, table_id = await seated(live, game, buy_in, **options)
    await until(ada, lambda v: v["hand_id"] is not None and bool(v["legal"]))
    await leave_within_one_hand(live, ada, table_id)
    await ada.close()


# ---------------------------------------------------------------------- adding chips


def play_on(view: dict[str, Any]) -> dict[str, Any] | None:
    """Ada's choice: stand when she may, decline the bank, else stake as much as allowed."""
    legal = view["legal"]
    kinds = {t["kind"]: t for t in legal}
    for kind in ("stand", "decline_bank", "no_double"):
        if kind in kinds:
            return {"kind": kind}
    for template in legal:
        params = template["params"]
        if "amount" in params and len(params) == 1:
            return {"kind": template["kind"], "amount": params["amount"]["max"]}
    return None


BROKE = [
    # game, options, Ada's buy-in, the least she needs to be dealt in
    ("trianta-ena", {**BETS, "min_bet": 50, "buy_in": 50, "banker_multiple": 20}, 50, 50),
    # seeded: the first hand deals the dealer (the bot, seat 0) a natural, Ada (seat 1) none
    ("vingt-un", {"min_bet": 10, "max_bet": 10, "seed": "00000009" * 8}, 40, 40),
]


@pytest.mark.parametrize(("game", "options", "buy_in", "least"), BROKE)
async def test_a_player_who_cannot_play_is_told_tops_up_and_plays(
    live: LiveServer, game: str, options: dict[str, Any], buy_in: int, least: int
) -> None:
    """The play test: below the minimum (Vingt-un: below four times it) a player sat with
    'needs 40 chips to play' and nothing to press. The view now says why and offers a top-up
    between hands (up to the buy-in in Trianta Ena), after which the player is dealt in."""
    ada, table_id = await seated(live, game, buy_in, **options)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 60
    while True:  # play until a lost stake leaves Ada below what a hand needs
        view = ada.view
        assert view is not None
        if view["hand_id"] is None and my_seat(view)["stack"] < least:
            break
        assert loop.time() < deadline, "Ada never lost a stake"
        action = play_on(view) if view["legal"] else None
        if action is None:
            await asyncio.sleep(0.01)
        else:
            await ada.act(action)
    await until(ada, lambda v: v["table"]["cannot_play"] is not None)
    view = ada.view
    assert view is not None
    table = view["table"]
    assert f"{least} chips" in table["cannot_play"], table
    assert table["can_top_up"] is True, table
    stack = my_seat(view)["stack"]
    need = least - stack
    if game == "trianta-ena":  # up to the buy-in
        assert table["top_up_max"] == buy_in - stack
        await ada.send({"type": "top_up", "amount": buy_in - stack + 1})
        error = await ada.next_of("error")
        assert error["code"] == "illegal_action" and "at most" in error["message"], error
    await ada.send({"type": "top_up", "amount": need})
    await until(ada, lambda v: my_seat(v)["stack"] == least)
    await until(ada, lambda v: v["table"]["cannot_play"] is None)
    # dealt in again: she has a stake to place
    await until(ada, lambda v: any(t["kind"] in ("bet", "stake") for t in v["legal"]))
    action = play_on(ada.view or {})
    assert action is not None
    assert (await ada.act(action))["type"] == "ack"
    await live.services.writer.flush()
    assert (await my_session(ada, table_id))["top_ups"] == need
    assert (await audit(live))["balanced"] is True
    await ada.close()
