"""Settling up through the real app: people play real hands, then each player's net in the
settlement is their net in the ledger (their chips at the table now plus what they cashed out,
less what they brought), the sum of ``hand_players`` and of what every hand's record (``GET
/api/hands/{id}``) says they won or lost (no table was closed: nothing moved outside a hand);
the payments are person to person, settle what is left of every net once what is apart (the
house, others, a pot) is taken out, and are no more than players − 1."""

from __future__ import annotations

import csv
import io
import re
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, select

from app.db.models import Account, Hand, HandPlayer, LedgerEntry
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.review.live_play import play

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}


def again(live: LiveServer, person: Player) -> Player:
    """The same player on a new client (``play`` closes its clients)."""
    return Player(live.base_url, live.ws_url, person.name, person.token, person.info)


async def ledger_nets(live: LiveServer, table_id: str) -> dict[str, int]:
    """Each player's net over the table's finished hands, straight from the database."""
    async with live.services.sessionmaker() as session:
        rows = await session.execute(
            select(HandPlayer.player_id, func.sum(HandPlayer.net))
            .join(Hand, Hand.id == HandPlayer.hand_id)
            .where(Hand.table_id == table_id, Hand.status == "finished")
            .group_by(HandPlayer.player_id)
        )
        return {str(p): int(n) for p, n in rows.all()}


async def held_nets(live: LiveServer, table_id: str) -> dict[str, int]:
    """Each player's change at the table, from balances: what their accounts there hold now,
    plus what they cashed out, less what they bought in and topped up with."""
    out: Counter[str] = Counter()
    async with live.services.sessionmaker() as session:
        for player, balance in await session.execute(
            select(Account.player_id, Account.balance).where(
                Account.table_id == table_id, Account.player_id.is_not(None)
            )
        ):
            out[str(player)] += int(balance)
        for source, target, amount, reason in await session.execute(
            select(
                LedgerEntry.source, LedgerEntry.target, LedgerEntry.amount, LedgerEntry.reason
            ).where(
                LedgerEntry.table_id == table_id,
                LedgerEntry.reason.in_(("buy-in", "top-up", "cash-out")),
            )
        ):
            if reason == "cash-out":
                out[str(target).split(":", 1)[1]] += int(amount)
            else:
                out[str(source).split(":", 1)[1]] -= int(amount)
    return {p: n for p, n in out.items()}


async def record_nets(me: Player, table_id: str) -> tuple[dict[str, int], int]:
    """Each player's net summed over every finished hand's result as the API gives it."""
    page = (await me.http.get(f"/api/tables/{table_id}/hands", params={"limit": 100})).json()
    nets: Counter[str] = Counter()
    finished = 0
    for row in page["hands"]:
        if row["status"] != "finished":
            continue
        finished += 1
        hand = (await me.http.get(f"/api/hands/{row['hand_id']}")).json()
        for p in hand["result"]["players"]:
            nets[p["player_id"]] += p["net"]
    return dict(nets), finished


def check_settles(answer: dict[str, Any]) -> None:
    """Every party is a player; each net is what is apart plus what the payments settle; the
    payments are person to person, in whole chips, bring what is left to zero, at most
    players − 1 of them."""
    assert {p["kind"] for p in answer["parties"]} <= {"player"}
    for p in answer["parties"]:
        assert p["net"] == p["house"] + p["others"] + p["pot"] + p["settle"]
    left = {p["id"]: p["settle"] for p in answer["parties"]}
    assert sum(left.values()) == 0
    for pay in answer["payments"]:
        assert pay["payer"] in left and pay["payee"] in left
        assert isinstance(pay["amount"], int) and pay["amount"] > 0
        left[pay["payer"]] += pay["amount"]
        left[pay["payee"]] -= pay["amount"]
    assert set(left.values()) <= {0}
    with_net = sum(1 for p in answer["parties"] if p["settle"])
    assert len(answer["payments"]) <= max(0, with_net - 1)


async def test_a_tables_settlement_is_its_ledger_and_settles(live: LiveServer) -> None:
    table_id, people, _ = await play(live, "trianta-ena", hands=3, players=3)
    me = again(live, people[0])
    answer = (await me.http.get("/api/settle", params={"table_id": table_id})).json()
    ledger = await ledger_nets(live, table_id)
    from_records, finished = await record_nets(me, table_id)
    assert answer["hands"] == finished >= 3
    players = {p["id"]: p["net"] for p in answer["parties"] if p["kind"] == "player"}
    held = await held_nets(live, table_id)
    assert players == ledger == {p: n for p, n in from_records.items()}
    assert players == {p: n for p, n in held.items() if p in players}
    # a banking game among people only: the group's nets balance among themselves
    assert [p["kind"] for p in answer["parties"]] == ["player"] * len(players)
    assert {c["id"] for c in answer["candidates"]} == set(ledger)
    assert all(c["chosen"] for c in answer["candidates"])
    check_settles(answer)
    assert answer["table"] == {
        "table_id": table_id,
        "name": answer["table"]["name"],
        "game": "trianta-ena",
    }
    for pay in answer["payments"]:
        words = f" pays? {re.escape(pay['payee_name'])} {pay['amount']} chips?$"
        assert re.search(words, pay["text"])
        assert pay["text"] in answer["text"]
    await me.close()


async def test_a_group_settles_with_the_others_and_a_voided_hand_counts_nothing(
    live: LiveServer,
) -> None:
    table_id, people, _ = await play(live, "trianta-ena", hands=3, players=3, seed=4)
    me = again(live, people[0])
    ledger = await ledger_nets(live, table_id)
    group = [people[0].player_id, people[1].player_id]
    # a void hand that (wrongly) carried a net must still count nothing
    async with live.services.sessionmaker() as session:
        void_id = uuid.uuid4().hex
        now = datetime.now(UTC)
        session.add(
            Hand(
                id=void_id,
                table_id=table_id,
                game="trianta-ena",
                number=999,
                status="void",
                started_at=now,
                ended_at=now,
                record={"void": "test"},
            )
        )
        await session.flush()
        session.add(
            HandPlayer(
                hand_id=void_id,
                player_id=group[0],
                seat=0,
                net=5000,
                ended_at=now,
                game="trianta-ena",
            )
        )
        await session.commit()
    answer = (
        await me.http.get("/api/settle", params={"table_id": table_id, "player": group})
    ).json()
    nets = {p["id"]: p["net"] for p in answer["parties"]}
    for pid in group:
        assert nets[pid] == ledger.get(pid, 0)
    assert set(nets) == set(group)  # the others are apart, never a party
    assert [c["chosen"] for c in answer["candidates"]].count(True) == 2
    check_settles(answer)
    await me.close()


async def test_the_house_is_a_party_of_its_own(live: LiveServer) -> None:
    table_id, people, _ = await play(live, "trente-et-quarante", hands=2, players=2)
    me = again(live, people[0])
    answer = (await me.http.get("/api/settle", params={"table_id": table_id})).json()
    ledger = await ledger_nets(live, table_id)
    nets = {p["id"]: p["net"] for p in answer["parties"]}
    assert nets == ledger
    # every chip was won from or lost to the house: apart, nothing to pay among friends
    assert {p["id"]: p["house"] for p in answer["parties"]} == ledger
    assert answer["payments"] == []
    for p in answer["parties"]:
        if p["net"]:
            told = [line.casefold() for line in answer["apart_text"]]
            assert any(p["name"].casefold() in line and "the house" in line for line in told)
    check_settles(answer)
    await me.close()


async def test_a_pot_carried_over_is_a_party_of_its_own(live: LiveServer) -> None:
    """En og tredive's pot lives from hand to hand: what is in it is no player's yet."""
    table_id, people, _ = await play(live, "en-og-tredive", hands=3, players=3)
    me = again(live, people[0])
    answer = (await me.http.get("/api/settle", params={"table_id": table_id})).json()
    ledger = await ledger_nets(live, table_id)
    nets = {p["id"]: p["net"] for p in answer["parties"]}
    assert nets == ledger
    # what stayed in the pot is borne by its side in proportion, never paid to "the pot"
    assert sum(p["pot"] for p in answer["parties"]) == sum(ledger.values())
    assert all(p["house"] == 0 for p in answer["parties"])
    if sum(ledger.values()):
        assert any("stayed in the pot" in line for line in answer["apart_text"])
    check_settles(answer)
    await me.close()


async def test_the_span_chip_value_and_csv(live: LiveServer) -> None:
    table_id, people, _ = await play(live, "trianta-ena", hands=2, players=2)
    me = again(live, people[0])
    ledger = await ledger_nets(live, table_id)
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    empty = await me.http.get(
        "/api/settle",
        params={"table_id": table_id, "since": later, "until": later[:10] + "T23:59:59+00:00"},
    )
    assert empty.status_code == 200 and empty.json()["hands"] == 0
    assert empty.json()["payments"] == [] and "Nobody owes anything." in empty.json()["text"]
    # tonight in any zone includes hands that just ended
    for tz in ("Pacific/Kiritimati", "Pacific/Pago_Pago", "Europe/Oslo"):
        answer = (await me.http.get("/api/settle", params={"table_id": table_id, "tz": tz})).json()
        assert {p["id"]: p["net"] for p in answer["parties"]} == ledger, tz
        since = datetime.fromisoformat(answer["since"])
        assert timedelta(0) < datetime.now(UTC) - since <= timedelta(hours=24)
    params = {"table_id": table_id, "chip_value": "0.05", "currency": "€"}
    answer = (await me.http.get("/api/settle", params=params)).json()
    assert answer["chip_value"] == "0.05" and answer["currency"] == "€"
    for pay in answer["payments"]:
        assert pay["money"] == f"{pay['amount'] * 0.05:.2f}"
        assert pay["text"].endswith(f"({pay['money']} €)")
    assert "1 chip = 0.05 €" in answer["text"]
    response = await me.http.get("/api/settle.csv", params=params)
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(response.text)))
    assert {r["id"]: int(r["chips"]) for r in rows if r["row"] == "net"} == ledger
    paid = [
        (r["id"], r["to_id"], int(r["chips"]), r["money"]) for r in rows if r["row"] == "payment"
    ]
    assert paid == [(p["payer"], p["payee"], p["amount"], p["money"]) for p in answer["payments"]]
    await me.close()


async def test_who_may_ask(live: LiveServer) -> None:
    table_id, people, _ = await play(live, "trianta-ena", hands=1, players=2)
    stranger = await Player.join(live, "stranger")
    signed_out = Player(live.base_url, live.ws_url, "x", "nope", {})
    signed_out.http.headers.pop("authorization")
    assert (await signed_out.http.get("/api/settle")).status_code == 401
    asked = await stranger.http.get("/api/settle", params={"table_id": table_id})
    assert asked.status_code == 403
    # a group: anyone signed in; the stranger is no candidate, the players are
    group = (await stranger.http.get("/api/settle")).json()
    assert {p.player_id for p in people[:2]} <= {c["id"] for c in group["candidates"]}
    check_settles(group)
    host = (
        await stranger.http.get("/api/settle", params={"table_id": table_id}, headers=HOST)
    ).json()
    check_settles(host)
    for bad in (
        {"tz": "Mars/Olympus"},
        {"since": "yesterday"},
        {"chip_value": "0"},
        {"since": "2026-01-02", "until": "2026-01-01"},
        {"player": ["x" * 41]},
    ):
        assert (await stranger.http.get("/api/settle", params=bad)).status_code == 422, bad
    assert (await stranger.http.get("/api/settle", params={"table_id": "nope"})).status_code == 404
    # a player page's company: the player and everyone who shared a hand with them
    around = (await stranger.http.get("/api/settle", params={"around": people[0].player_id})).json()
    chosen = {c["id"] for c in around["candidates"] if c["chosen"]}
    assert people[0].player_id in chosen and stranger.player_id not in chosen
    for person in (stranger, signed_out):
        await person.close()
