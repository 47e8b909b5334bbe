"""One truth for every figure (docs/review.md, "One truth"): through the real app with real
sockets, after each way a table ends — the host closing an En og tredive table mid-match with
bets in the pot (and the hand in play void), players leaving — settle-up's net, the player
page's net and the sum of the player page's sessions each equal the player's change of what
they hold (bankroll and every account at a table) since they joined, read from the database;
the payments are person to person and settle what is left once what is apart is taken out."""

from __future__ import annotations

import asyncio
from typing import Any

from sqlalchemy import func, select

from app.db.models import Account, Hand, LedgerEntry
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings
from tests.review.live_play import play

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}


async def holdings(live: LiveServer, player_ids: list[str]) -> dict[str, int]:
    """What each player holds now: their bankroll and every account of theirs at a table."""
    async with live.services.sessionmaker() as session:
        rows = await session.execute(
            select(Account.player_id, func.sum(Account.balance))
            .where(Account.player_id.in_(player_ids))
            .group_by(Account.player_id)
        )
        held = {str(p): int(n) for p, n in rows.all()}
    return {p: held.get(p, 0) for p in player_ids}


async def granted(live: LiveServer, player_ids: list[str]) -> dict[str, int]:
    """The chips the host granted each player (their starting bankroll, here)."""
    async with live.services.sessionmaker() as session:
        rows = await session.execute(
            select(LedgerEntry.target, func.sum(LedgerEntry.amount))
            .where(LedgerEntry.source.is_(None))
            .group_by(LedgerEntry.target)
        )
        into = {str(t): int(n) for t, n in rows.all()}
    return {p: into.get(f"bankroll:{p}", 0) for p in player_ids}


async def check_one_truth(live: LiveServer, table_id: str, people: list[Player]) -> dict[str, Any]:
    """Every figure is the change of what each person holds; the settlement is person to
    person and exact. Returns the settlement."""
    await live.services.writer.flush()
    ids = [p.player_id for p in people]
    now, start = await holdings(live, ids), await granted(live, ids)
    truth = {p: now[p] - start[p] for p in ids}
    reader = Player(live.base_url, live.ws_url, "host", people[0].token, people[0].info)
    answer = (
        await reader.http.get("/api/settle", params={"table_id": table_id}, headers=HOST)
    ).json()
    settled = {p["id"]: p for p in answer["parties"]}
    for pid in ids:
        if truth[pid] or pid in settled:
            assert settled[pid]["net"] == truth[pid], pid
        page = (await reader.http.get(f"/api/players/{pid}")).json()
        assert page["net"] == truth[pid], pid
        assert sum(s["net"] for s in page["sessions"]) == truth[pid], pid
        assert sum(g["net"] for g in page["games"]) == truth[pid], pid
    # payments among persons only, settling exactly what is left of each net
    left = {p["id"]: p["settle"] for p in answer["parties"]}
    for p in answer["parties"]:
        assert p["net"] == p["house"] + p["others"] + p["pot"] + p["settle"]
    for pay in answer["payments"]:
        assert pay["payer"] in left and pay["payee"] in left
        left[pay["payer"]] += pay["amount"]
        left[pay["payee"]] -= pay["amount"]
    assert set(left.values()) <= {0}
    assert "the pot" not in " ".join(p["text"] for p in answer["payments"])
    assert "the house" not in " ".join(p["text"] for p in answer["payments"])
    await reader.close()
    return answer


async def pot_balance(live: LiveServer, table_id: str) -> int:
    async with live.services.sessionmaker() as session:
        value = await session.scalar(select(Account.balance).where(Account.id == f"pot:{table_id}"))
        return int(value or 0)


async def test_a_host_close_of_en_og_tredive_mid_match_with_bets_in_the_pot(
    live: LiveServer,
) -> None:
    """The finding: four players, a match on with bets in the pot, the host closes the table
    (the hand in play is void, the pot handed back): every figure is each one's real change."""
    table_id, people, _ = await play(live, "en-og-tredive", hands=2, players=4, seed=3)
    # play() pauses the table, whose pot may be empty then (between matches): the table goes
    # on, and the players' clocks play (turn_seconds 1) until a match has chips in its pot
    await live.services.lobby.tables[table_id].resume()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 30
    while await pot_balance(live, table_id) == 0:
        assert loop.time() < deadline, "no match with bets in the pot"
        await asyncio.sleep(0.05)
    host = Player(live.base_url, live.ws_url, "host", people[0].token, people[0].info)
    closed = await host.http.post(
        f"/api/admin/tables/{table_id}/close", json={"reason": "closing time"}, headers=HOST
    )
    assert closed.status_code == 200
    await host.close()
    await live.services.writer.flush()
    async with live.services.sessionmaker() as session:
        returned = await session.scalar(
            select(func.count()).where(
                LedgerEntry.table_id == table_id,
                LedgerEntry.source == f"pot:{table_id}",
                LedgerEntry.hand_id.is_(None),
            )
        )
    assert returned, "the close handed the pot back"
    assert await pot_balance(live, table_id) == 0
    answer = await check_one_truth(live, table_id, people)
    # nothing stayed with the pot: the persons' nets balance among themselves
    assert sum(p["net"] for p in answer["parties"]) == 0
    assert all(p["pot"] == 0 and p["house"] == 0 for p in answer["parties"])


async def test_players_leaving(live: LiveServer) -> None:
    table_id, people, _ = await play(live, "trianta-ena", hands=3, players=3, seed=2)
    for person in people[:3]:
        again = Player(live.base_url, live.ws_url, person.name, person.token, person.info)
        await again.connect(table_id)
        await again.send({"type": "leave"})
        await again.wait_for(lambda v: v["you"] is None, timeout=30)
        await again.close()
    await check_one_truth(live, table_id, people)


async def test_a_group_with_the_house(live: LiveServer) -> None:
    """Trente et Quarante: every chip won or lost is the house's; nobody pays anybody."""
    table_id, people, _ = await play(live, "trente-et-quarante", hands=2, players=2)
    answer = await check_one_truth(live, table_id, people)
    assert answer["payments"] == []
    assert all(p["house"] == p["net"] for p in answer["parties"])


async def test_a_void_hand_and_a_restart_leave_every_figure_the_ledgers(
    database_url: str,
) -> None:
    """A hand in play when the server stops is void (its stakes back), and the server starts
    again on the same database: every figure is still each one's real change, the void hand
    counting for nothing."""
    live = LiveServer(make_settings(database_url))
    await live.start()
    try:
        table_id, people, _ = await play(live, "vingt-un", hands=2, players=3, seed=5)
        actor = live.services.lobby.tables[table_id]
        await actor.resume()  # play paused it: the hand to void is dealt on
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 30
        while actor.hand_id is None:  # the next hand is dealt by itself (short clocks)
            assert loop.time() < deadline, "no hand in play to void"
            await asyncio.sleep(0.02)
    finally:
        await live.stop()  # the hand in play is void, stakes back
    again = LiveServer(make_settings(database_url))
    await again.start()
    try:
        async with again.services.sessionmaker() as session:
            statuses = set(
                (await session.scalars(select(Hand.status).where(Hand.table_id == table_id))).all()
            )
        assert "void" in statuses and "finished" in statuses, statuses
        await check_one_truth(again, table_id, people)
    finally:
        await again.stop()
