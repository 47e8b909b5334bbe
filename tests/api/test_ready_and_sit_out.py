"""Ready to deal and sitting out, through the real app and real sockets (docs/rules.md §0.11,
docs/protocol/socket.md §5.10).

A table opened ``"start": "when_ready"`` deals its first hand once every seated player has
pressed Ready, or its opener has pressed Deal; ``ready``, ``deal``, ``sit_out`` and ``sit_in``
are in ``legal`` like any action. A player sitting out keeps seat and stack, is dealt nothing
and has no clock; one whose clock played twice in a row is sat out and told why; a banker or
dealer who sits out hands the bank or the deal on as their game does for one who leaves; the
opener stands up a seat that has been away long enough, its stack going home. A table opened
without the option (``auto``) deals at once, as tables always did.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from tests.api.table_clock import TableClock
from tests.api.test_socket import audit
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer

TABLE_KINDS = {"ready", "deal_now", "sit_out", "sit_in"}
HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}
BUY_IN = {
    "trianta-ena": 100,
    "greek-31": 200,
    "vingt-un": 200,
    "trente-et-quarante": 200,
    "en-og-tredive": 200,
}
QUICK = {"turn_seconds": 1}


def kinds(view: dict[str, Any]) -> set[str]:
    return {t["kind"] for t in view["legal"]}


def game_legal(view: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in view["legal"] if t["kind"] not in TABLE_KINDS]


def seat_entry(view: dict[str, Any], seat: int) -> dict[str, Any]:
    return next(s for s in view["seats"] if s["seat"] == seat)


async def press(player: Player, kind: str) -> None:
    await player.wait_for(lambda v: kind in kinds(v))
    reply = await player.act({"kind": kind})
    assert reply["type"] == "ack", reply


async def friends(
    live: LiveServer, game: str, count: int, *, bots: int = 0, **options: Any
) -> tuple[str, list[Player]]:
    """``count`` people at a new ``game`` table opened ``when_ready`` by the first of them,
    after ``bots`` bots; all seated (in order) and connected."""
    people = [await Player.join(live, f"{game[:5]}{i}") for i in range(count)]
    table_id = await people[0].open_table(game, start="when_ready", **options)
    for _ in range(bots):
        response = await people[0].http.post(f"/api/tables/{table_id}/bots")
        assert response.status_code == 201, response.text
    for person in people:
        await person.connect(table_id)
    low = BUY_IN[game]
    for i, person in enumerate(people):
        first_banker = game == "trianta-ena" and i == 0 and not bots
        await person.sit(low * 3 if first_banker else low)
    return table_id, people


@asynccontextmanager
async def playing(*people: Player, seed: int = 7) -> AsyncIterator[None]:
    """Each of ``people`` makes a random decision of the game whenever the game asks them
    for one (never a table action), so that no clock plays for them."""
    rng = random.Random(seed)

    async def play(person: Player) -> None:
        acted = -1
        while True:
            view = person.view
            options = game_legal(view) if view else []
            if options and person.version != acted:
                acted = person.version
                template = rng.choice(options)
                action: dict[str, Any] = {"kind": template["kind"]}
                for name, spec in template["params"].items():
                    if "one_of" in spec:
                        action[name] = rng.choice(spec["one_of"])
                    elif "subset_of" in spec:
                        action[name] = spec["subset_of"][: spec["min"]]
                    else:
                        action[name] = spec["min"]
                await person.send(
                    {
                        "type": "act",
                        "id": f"auto-{rng.random()}",
                        "version": person.version,
                        "action": action,
                    }
                )
            await asyncio.sleep(0.02)

    tasks = [asyncio.create_task(play(p)) for p in people]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def seen_in_state(player: Player, predicate: Callable[[dict[str, Any]], bool]) -> None:
    """Wait until one of the states ``player`` received since its ``states`` were cleared
    satisfies ``predicate`` (a view that has gone by counts)."""
    deadline = asyncio.get_running_loop().time() + 60  # for a stuck run only
    while asyncio.get_running_loop().time() < deadline:
        if any(predicate(state["view"]) for state in player.states):
            return
        await asyncio.sleep(0.02)
    raise TimeoutError(f"{player.name}: no such state")


def broke(player: Player) -> bool:
    """Whether ``player`` holds too few chips to be dealt in (the view's ``cannot_play``)."""
    return bool(player.view and player.view["table"].get("cannot_play"))


def hands_seen(player: Player) -> int:
    """How many hands ``player`` has been sent a state of (since ``states`` was cleared)."""
    return len({state["view"]["hand_id"] for state in player.states} - {None})


async def bankroll_becomes(player: Player, chips: int, timeout: float = 60) -> None:
    """Wait until ``player``'s bankroll (``GET /api/me``) is ``chips``: a stack goes home
    through the database writer, a moment after the view says the seat is gone."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while (bankroll := (await player.http.get("/api/me")).json()["bankroll"]) != chips:
        assert loop.time() < deadline, f"{player.name}'s bankroll is {bankroll}, not {chips}"
        await asyncio.sleep(0.02)


async def closing(*people: Player) -> None:
    for person in people:
        await person.close()


# --------------------------------------------------------------------------- ready to deal


async def test_a_friends_table_waits_until_everyone_is_ready(live: LiveServer) -> None:
    # the table's clock (tests/api/table_clock.py) shows what is set on it: nothing here, so
    # no first deal is on its way (an auto table's is, at once)
    clock = TableClock()
    live.services.lobby.clock = clock
    _table_id, (ada, ben) = await friends(live, "vingt-un", 2)
    assert clock.pending == 0
    view = ada.view
    assert view is not None and view["hand_id"] is None
    assert view["table"]["start"] == "when_ready" and view["table"]["waiting_for_ready"]
    assert kinds(view) == {"ready", "deal_now", "sit_out"}  # the opener may deal
    assert kinds(ben.view or {}) == {"ready", "sit_out"}
    await press(ada, "ready")
    view = await ben.wait_for(lambda v: seat_entry(v, 0)["ready"])
    assert not seat_entry(view, 1)["ready"] and view["hand_id"] is None
    assert clock.pending == 0  # Ben is not ready yet: still no deal on its way
    assert ben.view is not None and ben.view["hand_id"] is None
    await press(ben, "ready")
    view = await ada.wait_for(lambda v: v["hand_id"] is not None)
    assert not view["table"]["waiting_for_ready"]
    assert "ready" not in kinds(view) and "deal_now" not in kinds(view)
    await closing(ada, ben)


async def test_the_openers_deal_deals_and_only_the_opener_may(live: LiveServer) -> None:
    _table_id, (ada, ben, cleo) = await friends(live, "greek-31", 3)
    assert "deal_now" not in kinds(ben.view or {})
    reply = await ben.act({"kind": "deal_now"})
    assert reply["type"] == "error" and reply["code"] == "illegal_action", reply
    await press(ben, "ready")
    await press(ada, "deal_now")  # Cleo never pressed Ready
    await cleo.wait_for(lambda v: v["hand_id"] is not None)
    story = [e["kind"] for m in ada.states for e in m.get("events", [])]
    assert "ready" in story and "deal_now" in story
    await closing(ada, ben, cleo)


@pytest.mark.parametrize("start", [None, "auto"])
async def test_an_auto_table_deals_at_once_as_before(live: LiveServer, start: str | None) -> None:
    ada, ben = await Player.join(live, "Ada"), await Player.join(live, "Ben")
    options: dict[str, Any] = {"turn_seconds": 5}
    if start is not None:
        options["start"] = start
    table_id = await ada.open_table("vingt-un", **options)
    for person in (ada, ben):
        await person.connect(table_id)
        await person.sit(200)
    view = await ada.wait_for(lambda v: v["hand_id"] is not None, timeout=60)
    assert view["table"]["start"] == "auto" and not view["table"]["waiting_for_ready"]
    for person in (ada, ben):
        for state in person.states:
            assert not kinds(state["view"]) & TABLE_KINDS  # legal as it always was
    await closing(ada, ben)


async def test_the_lobby_lists_start_among_every_games_options(live: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        games = (await http.get("/api/games")).json()
    for game in games["games"] if isinstance(games, dict) else games:
        spec = next(o for o in game["options"] if o["name"] == "start")
        assert spec["default"] == "auto" and spec["choices"] == ["when_ready", "auto"]


# --------------------------------------------------------------------------- sitting out


async def test_sitting_out_skips_the_player_and_their_clock_until_they_sit_in(
    live: LiveServer,
) -> None:
    _table_id, (ada, ben, cleo) = await friends(live, "vingt-un", 3, **QUICK)
    for person in (ada, ben, cleo):
        await press(person, "ready")
    await ada.wait_for(lambda v: v["hand_id"] is not None)
    async with playing(ada, ben):
        await press(cleo, "sit_out")  # during the hand: from its end
        view = await cleo.wait_for(lambda v: seat_entry(v, 2)["sitting_out_next"])
        assert kinds(view) >= {"sit_in"}
        view = await cleo.wait_for(lambda v: seat_entry(v, 2)["sitting_out"], timeout=30)
        assert seat_entry(view, 2)["sitting_out_reason"] is None
        assert kinds(view) == {"sit_in"}
        stack = seat_entry(view, 2)["stack"]
        first = view["hand_id"]
        cleo.states.clear()
        # two more hands are dealt and played without her: no cards, no clock, no decision
        seen: set[str] = set()
        while len(seen) < 2:
            view = await cleo.wait_for(
                lambda v: v["hand_id"] is not None and v["hand_id"] not in seen | {first},
                timeout=30,
            )
            seen.add(view["hand_id"])
            entry = seat_entry(view, 2)
            assert entry["sitting_out"] and entry["stack"] == stack
            assert not entry.get("hands") and entry["role"] == "sitting out"
        for state in cleo.states:
            assert not game_legal(state["view"])
        await press(cleo, "sit_in")
        view = await cleo.wait_for(lambda v: not seat_entry(v, 2)["sitting_out"])
        now = view["hand_id"]
        cleo.states.clear()
        async with playing(cleo, seed=3):
            await seen_in_state(
                cleo,
                lambda v: (
                    v["hand_id"] not in (None, now)
                    and seat_entry(v, 2)["state"] in ("in hand", "dealer")
                ),
            )
    result = await audit(live)
    assert result["balanced"] is True, result
    await closing(ada, ben, cleo)


async def test_the_clock_playing_twice_in_a_row_sits_a_person_out(live: LiveServer) -> None:
    """Ben lets the clock bet for him (fold) in two hands running: he sits out, told why."""
    _table_id, (ada, ben) = await friends(live, "trianta-ena", 2, turn_seconds=1, bet_seconds=1)
    await press(ada, "ready")
    await press(ben, "ready")
    async with playing(ada):
        view = await ben.wait_for(lambda v: seat_entry(v, 1)["sitting_out"], timeout=40)
    entry = seat_entry(view, 1)
    assert "clock played for you twice" in entry["sitting_out_reason"]
    told = [e for m in ben.states for e in m.get("events", []) if e["kind"] == "sat_out"]
    assert told and "twice" in told[-1]["reason"]
    await closing(ada, ben)


async def test_a_person_who_acts_between_clock_decisions_stays_in(live: LiveServer) -> None:
    """Strikes are in a row: one decision of one's own clears them (auto tables never count)."""
    _table_id, (ada, ben) = await friends(live, "vingt-un", 2, turn_seconds=3)
    await press(ada, "ready")
    await press(ben, "ready")
    async with playing(ada, ben):
        # twenty hands, not a span of time (six seconds dealt some forty on an idle machine,
        # fewer on a busy one), unless one of them has lost too much to be dealt in before that
        # (random play, all in stakes of ten): then no more hands come
        await seen_in_state(
            ada, lambda v: hands_seen(ada) >= 20 or any(broke(p) for p in (ada, ben))
        )
    for person in (ada, ben):
        assert person.view is not None
        assert not any(s.get("sitting_out") for s in person.view["seats"])
    await closing(ada, ben)


ROLE = {"trianta-ena": "banker", "vingt-un": "dealer", "greek-31": "dealer"}
CLOCKS = {
    "trianta-ena": {"turn_seconds": 1, "bet_seconds": 1},
    "vingt-un": QUICK,
    "greek-31": QUICK,
}


@pytest.mark.parametrize("game", ["trianta-ena", "vingt-un", "greek-31"])
async def test_a_banker_or_dealer_who_sits_out_hands_the_role_on(
    live: LiveServer, game: str
) -> None:
    """The role holder asks to sit out during a hand: at its end the bank ends (Trianta
    Ena: offered round) or the deal passes (Vingt-un, Greek 31), as for one who leaves."""
    _table_id, people = await friends(live, game, 3, **CLOCKS[game])
    for person in people:
        await press(person, "ready")
    ada = people[0]
    view = await ada.wait_for(
        lambda v: v["hand_id"] is not None and any(s.get("role") == ROLE[game] for s in v["seats"])
    )
    holder = next(s["seat"] for s in view["seats"] if s.get("role") == ROLE[game])
    leaver = people[holder]
    others = [p for i, p in enumerate(people) if i != holder]
    async with playing(*people):
        await press(leaver, "sit_out")
        view = await ada.wait_for(lambda v: seat_entry(v, holder)["sitting_out"], timeout=40)
    assert seat_entry(view, holder)["role"] == "sitting out"
    # the role is someone else's now (or, Trianta Ena, the bank is on offer to the others)
    async with playing(*others):
        view = await ada.wait_for(
            lambda v: (
                any(s.get("role") == ROLE[game] and s["seat"] != holder for s in v["seats"])
                or v.get("phase") == "bank_offer"
            ),
            timeout=40,
        )
    story = [e["kind"] for m in ada.states for e in m.get("events", [])]
    if game == "trianta-ena":
        assert "bank_ended" in story
    result = await audit(live)
    assert result["balanced"] is True, result
    await closing(*people)


async def test_en_og_tredive_sitting_out_waits_for_the_match_and_passes_the_deal(
    live: LiveServer,
) -> None:
    """En og tredive: a player leaves when the match ends (§5.12), so a sit-out asked during
    it waits for that; before the first match it is at once and the deal is another's."""
    _table_id, (ada, ben, cleo) = await friends(live, "en-og-tredive", 3, **QUICK)
    view = ada.view
    assert view is not None
    dealer = next((s["seat"] for s in view["seats"] if s.get("role") == "dealer"), None)
    leaver = [ada, ben, cleo][dealer if dealer is not None else 2]
    seat = dealer if dealer is not None else 2
    await press(leaver, "sit_out")
    view = await ada.wait_for(lambda v: seat_entry(v, seat)["sitting_out"])
    rest = [p for p in (ada, ben, cleo) if p is not leaver]
    for person in rest:
        await press(person, "ready")
    view = await ada.wait_for(lambda v: v["hand_id"] is not None)
    assert seat_entry(view, seat)["role"] == "sitting out"
    assert all(s["seat"] != seat for s in view["seats"] if s.get("role") == "dealer")
    await closing(ada, ben, cleo)


async def test_a_trente_et_quarante_punter_sits_out_and_back(live: LiveServer) -> None:
    """The house banks: a punter sitting out just stakes nothing until they come back."""
    _table_id, (ada, ben) = await friends(
        live, "trente-et-quarante", 2, bet_seconds=1, turn_seconds=1
    )
    await press(ben, "sit_out")
    view = await ben.wait_for(lambda v: seat_entry(v, 1)["sitting_out"])
    assert kinds(view) == {"sit_in"}
    await press(ada, "ready")
    view = await ada.wait_for(lambda v: v["hand_id"] is not None)
    assert kinds(ben.view or {}) == {"sit_in"}
    await press(ben, "sit_in")
    await ben.wait_for(lambda v: "stake" in kinds(v) or v["phase"] == "betting", timeout=60)
    await closing(ada, ben)


# --------------------------------------------------------------------------- standing up


async def test_the_opener_stands_up_a_seat_away_long_enough(live: LiveServer) -> None:
    clock = TableClock()  # the table's time, moved on by the test (tests/api/table_clock.py)
    live.services.lobby.clock = clock
    _table_id, (ada, ben) = await friends(live, "vingt-un", 2, **QUICK)
    await press(ben, "sit_out")
    await ada.wait_for(lambda v: seat_entry(v, 1)["sitting_out"])
    # not long enough yet
    await ada.send({"type": "stand_up", "seat": 1, "away_at_least": 600})
    error = await ada.next_of("error")
    assert error["code"] == "not_allowed" and "sitting out for" in error["message"]
    # Ben may not stand Ada up: only the opener (or the host)
    await ben.send({"type": "stand_up", "seat": 0, "away_at_least": 0})
    assert (await ben.next_of("error"))["code"] == "not_allowed"
    bankroll = (await ben.http.get("/api/me")).json()["bankroll"]
    clock.pass_time(1.1)  # Ben has been away a second (and more) by the table's time
    await ada.send({"type": "stand_up", "seat": 1, "away_at_least": 1})
    view = await ben.wait_for(lambda v: v["you"] is None)
    assert all(s["seat"] != 1 for s in view["seats"])
    await bankroll_becomes(ben, bankroll + BUY_IN["vingt-un"])  # the stack went home
    result = await audit(live)
    assert result["balanced"] is True, result
    await closing(ada, ben)


async def test_the_host_stands_up_a_seat_over_rest(live: LiveServer) -> None:
    table_id, (ada, ben) = await friends(live, "greek-31", 2, **QUICK)
    await press(ben, "sit_out")
    await ada.wait_for(lambda v: seat_entry(v, 1)["sitting_out"])
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as http:
        url = f"/api/tables/{table_id}/seats/1/stand_up"
        refused = await http.post(url, json={"away_at_least": 3600})
        assert refused.status_code == 409, refused.text
        done = await http.post(url, json={"away_at_least": 0})
        assert done.status_code == 200, done.text
    response = await ben.http.post(f"/api/tables/{table_id}/seats/0/stand_up", json={})
    assert response.status_code == 403
    await ben.wait_for(lambda v: v["you"] is None)
    await closing(ada, ben)


async def test_leaving_while_sitting_out_sends_the_stack_home(live: LiveServer) -> None:
    _table_id, (ada, ben) = await friends(live, "vingt-un", 2, **QUICK)
    await press(ben, "sit_out")
    await ben.wait_for(lambda v: seat_entry(v, 1)["sitting_out"])
    reply = await ben.act({"kind": "hit"})
    assert reply["type"] == "error"
    await ben.send({"type": "top_up", "amount": 10})
    assert (await ben.next_of("error"))["code"] == "illegal_action"
    await ben.send({"type": "leave"})
    await ben.wait_for(lambda v: v["you"] is None)
    await bankroll_becomes(ben, 1000)
    result = await audit(live)
    assert result["balanced"] is True, result
    await closing(ada, ben)


async def test_an_emptied_friends_table_waits_for_ready_again(live: LiveServer) -> None:
    _table_id, (ada, ben) = await friends(live, "vingt-un", 2, **QUICK)
    await press(ada, "deal_now")
    await ada.wait_for(lambda v: v["hand_id"] is not None)
    async with playing(ada, ben):
        for person in (ada, ben):
            await person.send({"type": "leave"})
        await ada.wait_for(lambda v: v["you"] is None and not v["seats"], timeout=40)
    assert ada.view is not None and ada.view["table"]["waiting_for_ready"]
    await closing(ada, ben)
