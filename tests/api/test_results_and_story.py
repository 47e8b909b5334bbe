"""What players see is what the ledger says: each hand's result and the table's story come
from the server (docs/protocol.md §6.6).

For each game a rules-blind player, a bot and a spectator play; a second player sits down
while a hand is in play (in Trente et Quarante inside the betting window, and stakes), the
first reconnects while a hand is in play. After every hand:

* the ``result`` every client was sent is the same, is the record's (``GET /api/hands/{id}``)
  and each player's ``net`` is the net of the hand's ledger entries over the accounts they own
  (and ``hand_players.net``); its ``lines`` add up to it;
* a reconnecting client gets the last result and the recent story at once;
* the spectator, connected throughout, was told exactly the record's events (filtered as the
  record is for a reader without a seat), and no client was ever sent a card of an event
  marked private to a seat it was not in.

Trente et Quarante's prison stakes (an *un après*, then the coup that frees the stake) are
played with a stacked shoe.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
from collections import defaultdict
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from app.db.models import HandPlayer, LedgerEntry
from app.games.core.cards import is_valid_card
from tests.client import Player
from tests.conftest import LiveServer

GAMES: dict[str, dict[str, Any]] = {
    "trianta-ena": {"turn_seconds": 1, "bet_seconds": 1},
    "greek-31": {"turn_seconds": 1},
    "vingt-un": {"turn_seconds": 1},
    "trente-et-quarante": {"bet_seconds": 1, "turn_seconds": 1},
    # played at random from ``legal``, a hand seldom holds the 21 a knock needs: a round took
    # a hundred acts and more; here anyone may knock from their second turn on
    "en-og-tredive": {"turn_seconds": 1, "knock_min": 1},
}
HANDS = 3
TABLE_EVENTS = ("sit", "leave", "top_up", "hand_start", "hand_end", "hand_void", "time_bank")
_ids = itertools.count(1)


# --------------------------------------------------------------------------- what clients got


def told(player: Player) -> list[tuple[int | None, dict[str, Any]]]:
    """Every event ``player`` was sent (``events`` and ``story``), with its seat then."""
    out = []
    for message in player.states:
        you = message["view"]["you"]
        for event in [*message.get("story", []), *message.get("events", [])]:
            out.append((you, event))
    return out


def ben_sits(watcher: Player) -> list[dict[str, Any]]:
    return [e for _, e in told(watcher) if e["kind"] == "sit" and e["name"] == "Ben"]


def results(player: Player) -> dict[str, dict[str, Any]]:
    """Every result ``player`` was sent, by hand."""
    out: dict[str, dict[str, Any]] = {}
    for message in player.states:
        result = message.get("result")
        if result is not None:
            assert out.setdefault(result["hand_id"], result) == result
        for event in message.get("events", []):
            if event["kind"] == "hand_end":
                assert out.setdefault(event["hand_id"], event["result"]) == event["result"]
    return out


def card_codes(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [c for v in node.values() for c in card_codes(v)]
    if isinstance(node, list):
        return [c for v in node for c in card_codes(v)]
    return [node] if is_valid_card(node) else []


def event_leaks(player: Player) -> list[dict[str, Any]]:
    """Events marked private to seats ``player`` was not in that still carry a card code or a
    hidden figure (the record's rule, docs/protocol.md §12)."""
    leaks = []
    for you, event in told(player):
        entitled = event.get("private_to")
        if entitled is None or (you is not None and you in entitled):
            continue
        shown = {k: v for k, v in event.items() if k not in ("kind", "private_to", "t")}
        if card_codes(shown) or any(event.get(k) is not None for k in ("value", "total")):
            leaks.append(event)
    return leaks


# --------------------------------------------------------------------------- playing


async def autoplay(player: Player, rng: random.Random) -> None:
    """Act on every view that offers something, at random (after a moment's thought, so that
    a hand lasts long enough to sit down in it), without waiting for answers."""
    acted = -1
    while True:
        view = player.view
        if view is not None and view["legal"] and player.version != acted:
            await asyncio.sleep(0.15)
            acted = player.version
            action = player.random_legal(rng)
            with contextlib.suppress(Exception):
                await player.send(
                    {
                        "type": "act",
                        "id": f"{player.name}-{next(_ids)}",
                        "version": player.version,
                        "action": action,
                    }
                )
        await asyncio.sleep(0.01)


async def wait_until(check: Any, timeout: float = 60) -> None:
    """Wait for ``check`` to hold; the timeout is a deadline for a stuck run, not a measure."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not check():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


async def record_of(live: LiveServer, hand_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    deadline = asyncio.get_running_loop().time() + 60  # for a stuck run only
    async with httpx.AsyncClient(base_url=live.base_url, headers=headers, timeout=30) as http:
        while asyncio.get_running_loop().time() < deadline:
            response = await http.get(f"/api/hands/{hand_id}")
            if response.status_code == 200:
                return response.json()  # type: ignore[no-any-return]
            await asyncio.sleep(0.02)
    raise AssertionError(f"hand {hand_id} was never stored")


async def ledger_nets(live: LiveServer, hand_id: str) -> tuple[dict[str, int], dict[str, int]]:
    """Each player's net over the hand's ledger entries (every account they own), and the
    ``hand_players`` rows' nets."""
    async with live.services.sessionmaker() as session:
        entries = (
            await session.scalars(select(LedgerEntry).where(LedgerEntry.hand_id == hand_id))
        ).all()
        rows = (
            await session.scalars(select(HandPlayer).where(HandPlayer.hand_id == hand_id))
        ).all()
    net: dict[str, int] = defaultdict(int)
    for entry in entries:
        for account, sign in ((entry.source, -1), (entry.target, 1)):
            parts = (account or "").split(":")
            if len(parts) == 3 and parts[0] in ("stack", "bets", "prison"):
                net[parts[2]] += sign * entry.amount
    return dict(net), {row.player_id: row.net for row in rows}


async def check_hand(live: LiveServer, hand_id: str, result: dict[str, Any]) -> dict[str, Any]:
    """The result told is the record's and the ledger's."""
    record = await record_of(live, hand_id)
    assert record["result"] == result
    ledger, rows = await ledger_nets(live, hand_id)
    told_nets = {p["player_id"]: p["net"] for p in result["players"]}
    assert {p: n for p, n in ledger.items() if n} == {p: n for p, n in told_nets.items() if n}
    assert rows == told_nets
    for p in result["players"]:
        assert sum(line["amount"] for line in p["lines"]) == p["net"]
        assert all(line["amount"] and line["reason"] for line in p["lines"])
    return record


# --------------------------------------------------------------------------- every game


@pytest.mark.parametrize("game", list(GAMES))
async def test_results_and_story_are_the_ledgers(live: LiveServer, game: str) -> None:
    rng = random.Random(31)
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    watcher = await Player.join(live, "Watcher")
    table_id = await ada.open_table(game, **GAMES[game])
    await watcher.connect(table_id, token=False)
    await ada.connect(table_id)
    low = ada.view["table"]["buy_in"]["min"] if ada.view else 0
    await ada.sit(max(low, 200))
    bot = await ada.http.post(f"/api/tables/{table_id}/bots", json={})
    assert bot.status_code == 201, bot.text
    tasks = [asyncio.create_task(autoplay(ada, rng))]
    try:
        # Ben sits down while a hand is in play (Trente et Quarante: in its betting window)
        await ben.connect(table_id)
        for _ in range(5):  # should the sit land between hands (a busy machine), again
            await ben.wait_for(lambda v: v["hand_id"] is not None, timeout=60)
            sits = len(ben_sits(watcher))
            await ben.sit(max(ben.view["table"]["buy_in"]["min"], 100) if ben.view else 100)
            await wait_until(lambda n=sits: len(ben_sits(watcher)) > n)
            events = [e for _, e in told(watcher)]
            sat = max(i for i, e in enumerate(events) if e["kind"] == "sit" and e["name"] == "Ben")
            bounds = [e["kind"] for e in events[:sat] if e["kind"] in ("hand_start", "hand_end")]
            if bounds[-1] == "hand_start":
                break
            await ben.send({"type": "leave"})
            await ben.wait_for(lambda v: v["you"] is None, timeout=60)
        else:
            raise AssertionError("Ben never sat down while a hand was in play")
        tasks.append(asyncio.create_task(autoplay(ben, rng)))
        await wait_until(lambda: len(results(watcher)) >= 1)

        # Ada reconnects while a hand is in play: the last result and the recent story at once
        await ada.wait_for(lambda v: v["hand_id"] is not None, timeout=60)
        tasks[0].cancel()
        await ada.disconnect()
        last = list(results(watcher).values())[-1]
        count = len(ada.states)
        await ada.connect(table_id)
        first = ada.states[count]  # the new socket's first state (more may have come since)
        assert "story" in first and "events" not in first
        assert first["result"] is not None
        ends = [e for e in first["story"] if e["kind"] == "hand_end"]
        assert ends and ends[-1]["result"] == first["result"]
        assert first["result"]["hand_id"] in {last["hand_id"], *results(watcher)}
        story_kinds = [e["kind"] for e in first["story"]]
        if first["view"]["hand_id"] is not None:
            assert story_kinds.index("hand_start") < len(story_kinds)
        tasks[0] = asyncio.create_task(autoplay(ada, rng))
        await wait_until(lambda: len(results(watcher)) >= HANDS)
    finally:
        for task in tasks:
            task.cancel()

    seen = results(watcher)
    for player in (ada, ben):
        for hand_id, result in results(player).items():
            if hand_id in seen:
                assert result == seen[hand_id]
    assert any(e["kind"] == "sit" and e["name"] == "Ben" for _, e in told(watcher))
    for hand_id, result in seen.items():
        record = await check_hand(live, hand_id, result)
        # the spectator was told exactly the record's events, as a reader without a seat
        events = [e for _, e in told(watcher)]
        start = next(i for i, e in enumerate(events) if e.get("hand_id") == hand_id)
        end = next(
            i for i, e in enumerate(events) if e["kind"] == "hand_end" and e["hand_id"] == hand_id
        )
        assert events[start]["kind"] == "hand_start"
        # the record opens with what happened since the last hand (a bank taken)
        begin = max(
            [i + 1 for i, e in enumerate(events[:start]) if e["kind"] == "hand_end"], default=0
        )
        engine_events = [e for e in events[begin:end] if e["kind"] not in TABLE_EVENTS]
        assert engine_events == record["events"], (engine_events, record["events"])
    # a late sitter who acted in the hand he sat down in is in its result (with his net)
    events = [e for _, e in told(watcher)]
    sat = max(i for i, e in enumerate(events) if e["kind"] == "sit" and e["name"] == "Ben")
    during = next(e["hand_id"] for e in reversed(events[:sat]) if e["kind"] == "hand_start")
    if during in seen:
        record = await record_of(live, during)
        ben_seat = events[sat]["seat"]
        if any(a.get("seat") == ben_seat and "action" in a for a in record["actions"]):
            assert any(p["name"] == "Ben" for p in seen[during]["players"])
    for player in (ada, ben, watcher):
        assert event_leaks(player) == []
    await asyncio.gather(*(p.close() for p in (ada, ben, watcher)))


# --------------------------------------------------------------------------- prison stakes

UN_APRES = (["KS", "TH", "9C", "2D"], ["QD", "JS", "9H", "2C"])  # 31 / 31
ROUGE_WINS = (["TH", "9S", "8D", "QC"], ["TS", "TD", "KC", "2H"])  # 37 / 32


async def act(player: Player, kind: str, **params: Any) -> None:
    await player.wait_for(lambda v: any(t["kind"] == kind for t in v["legal"]), timeout=60)
    answer = await player.act({"kind": kind, **params})
    assert answer["type"] == "ack", answer


async def test_prison_stakes_results_are_the_ledgers(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    watcher = await Player.join(live, "Watcher")
    table_id = await ada.open_table(
        "trente-et-quarante", bet_seconds=30, turn_seconds=30, min_stake=10
    )
    actor = live.services.lobby.get(table_id)
    assert actor is not None
    deck = [c for noir, rouge in (UN_APRES, ROUGE_WINS) for c in noir + rouge]
    actor.engine.stock.cards = deck + ["TS"] * 40  # type: ignore[attr-defined]
    await watcher.connect(table_id, token=False)
    await ada.connect(table_id)
    await ada.sit(500, seat=0)
    # coup 1: Ada stakes; Ben sits down inside the open window and stakes too; 31 and 31
    await act(ada, "stake", chance="rouge", amount=100)
    await ben.connect(table_id)
    await ben.sit(300, seat=1)
    await act(ben, "stake", chance="noir", amount=50)
    await act(ada, "done")
    await act(ben, "done")
    await act(ada, "prison", chance="rouge")
    await act(ben, "share", chance="noir")
    await wait_until(lambda: len(results(watcher)) == 1)
    first = next(iter(results(watcher).values()))
    nets = {p["name"]: p["net"] for p in first["players"]}
    assert nets == {"Ada": 0, "Ben": -25}  # prison is Ada's own; Ben shares: 25 back
    await check_hand(live, first["hand_id"], first)
    # coup 2: Rouge wins; Ada's stake in prison comes back (without winnings); Ben stakes 20
    await ada.disconnect()
    count = len(ada.states)
    await ada.connect(table_id)
    assert ada.states[count]["result"] == first
    assert any(e["kind"] == "prison" for e in ada.states[count]["story"])
    await act(ben, "stake", chance="rouge", amount=20)
    await act(ben, "done")
    await act(ada, "done")
    await wait_until(lambda: len(results(watcher)) == 2)
    second = list(results(watcher).values())[1]
    nets = {p["name"]: p["net"] for p in second["players"]}
    assert nets == {"Ada": 0, "Ben": 20}
    ada_lines = next(p for p in second["players"] if p["name"] == "Ada")["lines"]
    assert ada_lines == []  # freed from prison: a move between her own accounts
    await check_hand(live, second["hand_id"], second)
    for player in (ada, ben, watcher):
        assert event_leaks(player) == []
    assert results(ada)[second["hand_id"]] == second
    assert results(ben) == results(watcher)
    await asyncio.gather(*(p.close() for p in (ada, ben, watcher)))


# --------------------------------------------------------------------------- a seat reused


def test_a_later_occupant_of_a_seat_never_reads_the_last_ones_cards() -> None:
    """An event private to seat 0 is entitled to the player who sat there when it happened:
    the next player in seat 0 gets it with its cards hidden, in the story too."""
    from app.runtime.records import SeatInfo
    from app.runtime.story import Story, for_viewer

    story = Story()
    ada, ben = SeatInfo("ada", "Ada"), SeatInfo("ben", "Ben")
    event = {"kind": "dealer_draw", "seat": 0, "private_to": [0], "card": "9D", "count": 1}
    story.tell(event, {0: ada})
    assert for_viewer(story.recent(), "ada")[0]["card"] == "9D"
    story.tell({"kind": "leave", "seat": 0, "player_id": "ada", "name": "Ada"}, {0: ada})
    story.tell({"kind": "sit", "seat": 0, "player_id": "ben", "name": "Ben"}, {0: ben})
    for viewer in ("ben", None):
        told = for_viewer(story.recent(), viewer)[0]
        assert told["card"] is None and told["count"] == 1 and told["private_to"] == [0]
