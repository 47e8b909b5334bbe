"""The review side through the real server, after people played.

A few hands of Vingt-un are played (someone sits down during a hand and stands up again);
then, over HTTP as each kind of reader:

* the replay: the hand's players get their own seat's views, with no other seat's face-down
  card; the host gets a spectator's; a spectator and a stranger 403, nobody signed in 401;
* the proof: "not yet revealed" while the shoe is in play; verified once the host closes the
  table (every seed published); failed once the stored record is changed; the same from
  ``python -m app verify``;
* the exports, read back by independent readers: the hand as JSON (``json``), the player's
  hands as JSON lines, the table's and the night's ledgers as CSV (``csv``), the chart as SVG
  (``xml.etree``); the figures add up;
* the lists and the pages.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import xml.etree.ElementTree as ET
from typing import Any

import httpx
from sqlalchemy import select

from app.db.models import Hand
from app.i18n.messages import localize
from app.review.cli import proof_of, run
from tests.client import Player, hidden_card_leaks
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.review.live_play import play, records


def client(live: LiveServer, token: str | None = None) -> httpx.AsyncClient:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return httpx.AsyncClient(base_url=live.base_url, headers=headers, timeout=10)


async def test_review_after_a_night_of_vingt_un(live: LiveServer, database_url: str) -> None:
    table_id, people, watcher = await play(live, "vingt-un", hands=3, seed=3)
    stored = await records(live, table_id)
    assert len(stored) >= 2
    stranger_info = await Player.join(live, "Stranger")
    players = {p.player_id: client(live, p.token) for p in people}
    host = client(live, ADMIN_TOKEN)
    stranger = client(live, stranger_info.token)
    spectator = client(live, watcher.token)
    nobody = client(live)
    try:
        await check_replays(live, stored, players, host, stranger, spectator, nobody)
        await check_lists_and_pages(live, table_id, stored, players, stranger, nobody)
        await check_player_figures(people, players, stranger)
        await check_proof(live, database_url, table_id, stored, players, host)
        await check_ledgers(table_id, people, players, host, stranger)
    finally:
        for c in [*players.values(), host, stranger, spectator, nobody]:
            await c.aclose()
        await stranger_info.close()


async def check_replays(
    live: LiveServer,
    stored: list[dict[str, Any]],
    players: dict[str, httpx.AsyncClient],
    host: httpx.AsyncClient,
    stranger: httpx.AsyncClient,
    spectator: httpx.AsyncClient,
    nobody: httpx.AsyncClient,
) -> None:
    for record in stored:
        hand_id = record["hand_id"]
        url = f"/api/hands/{hand_id}/replay"
        seats = {s["player_id"]: s["seat"] for s in record["seats_before"]}
        for player_id, seat in seats.items():
            reply = await players[player_id].get(url)
            assert reply.status_code == 200, reply.text
            data = reply.json()
            assert data["viewer_seat"] == seat and data["schema_version"] == 1
            assert len(data["steps"]) == len(record["actions"]) + 1
            for step in data["steps"]:
                assert step["view"]["you"] == seat
                assert hidden_card_leaks(step["view"]) == [], (hand_id, step["index"])
            assert data["steps"][-1]["view"]["hand_id"] is None  # the hand is over
            export = await players[player_id].get(f"/api/hands/{hand_id}/export")
            body = json.loads(export.text)
            assert body["schema"] == "table31/hand" and body["schema_version"] == 1
            assert body["viewer_seat"] == seat and "private" not in body
            for event in body["events"]:
                if "private_to" in event and seat not in event["private_to"]:
                    assert event.get("card") is None and event.get("cards") in (
                        None,
                        [None] * len(event.get("cards") or []),
                    )
        as_host = (await host.get(url)).json()
        assert as_host["viewer_seat"] is None
        assert all(hidden_card_leaks(step["view"]) == [] for step in as_host["steps"])
        assert (await stranger.get(url)).status_code == 403
        assert (await spectator.get(url)).status_code == 403
        assert (await nobody.get(url)).status_code == 401
        assert (await stranger.get(f"/api/hands/{hand_id}/export")).status_code == 403
        assert (await stranger.get(f"/api/hands/{hand_id}/verify")).status_code == 403
    assert (await host.get("/api/hands/no-such-hand/replay")).status_code == 404
    table = live.services.lobby.get(stored[0]["table_id"])
    if table is not None and table.hand_id is not None:  # a hand in play is not readable
        assert (await host.get(f"/api/hands/{table.hand_id}/replay")).status_code == 404


async def check_lists_and_pages(
    live: LiveServer,
    table_id: str,
    stored: list[dict[str, Any]],
    players: dict[str, httpx.AsyncClient],
    stranger: httpx.AsyncClient,
    nobody: httpx.AsyncClient,
) -> None:
    finished = {r["hand_id"] for r in stored}
    first = next(iter(players.values()))
    listed: list[str] = []
    before = None
    while True:
        params: dict[str, Any] = {"limit": 1}
        if before:
            params["before"] = before
        page = (await first.get(f"/api/tables/{table_id}/hands", params=params)).json()
        listed += [row["hand_id"] for row in page["hands"] if row["status"] == "finished"]
        before = page["next"]
        if not before:
            break
    assert set(listed) == finished and len(listed) == len(finished)
    assert listed == [r["hand_id"] for r in reversed(stored)]  # newest first
    assert (await nobody.get(f"/api/tables/{table_id}/hands")).status_code == 401
    bad = await first.get(f"/api/tables/{table_id}/hands", params={"before": "nonsense"})
    assert bad.status_code == 422
    for path in (f"/hands/{stored[0]['hand_id']}", f"/tables/{table_id}/history"):
        page_reply = await nobody.get(path)
        assert page_reply.status_code == 200 and "<main" in page_reply.text
    assert (await nobody.get("/hands/nope")).status_code == 404
    player_id = next(iter(players))
    assert (await nobody.get(f"/players/{player_id}")).status_code == 200
    assert (await stranger.get(f"/api/players/{player_id}/hands")).status_code == 200


async def check_player_figures(
    people: list[Player], players: dict[str, httpx.AsyncClient], stranger: httpx.AsyncClient
) -> None:
    for person in people:
        me = players[person.player_id]
        data = (await me.get(f"/api/players/{person.player_id}")).json()
        rows = []
        before = None
        while True:
            params: dict[str, Any] = {"limit": 2}
            if before:
                params["before"] = before
            page = (await me.get(f"/api/players/{person.player_id}/hands", params=params)).json()
            rows += page["hands"]
            before = page["next"]
            if not before:
                break
        assert data["hands"] == len(rows)
        assert data["net"] == sum(r["player_net"] for r in rows)
        assert sum(g["net"] for g in data["games"]) == data["net"]
        if rows:
            best = max(r["player_net"] for r in rows)
            assert (data["biggest_win"] or {"net": 0})["net"] == max(best, 0)
        lines = (await me.get(f"/api/players/{person.player_id}/hands.jsonl")).text.splitlines()
        exported = [json.loads(line) for line in lines]
        assert {e["hand_id"] for e in exported} == {r["hand_id"] for r in rows}
        assert all(e["schema_version"] == 1 for e in exported)
        assert (
            await stranger.get(f"/api/players/{person.player_id}/hands.jsonl")
        ).status_code == 403
        svg = await stranger.get(f"/api/players/{person.player_id}/chart.svg")
        assert svg.headers["content-type"].startswith("image/svg+xml")
        root = ET.fromstring(svg.text)
        assert (
            root.tag.endswith("svg")
            and root.find("{http://www.w3.org/2000/svg}polyline") is not None
        )
        assert data["sessions"] and data["sessions"][0]["buy_in"] > 0


async def check_proof(
    live: LiveServer,
    database_url: str,
    table_id: str,
    stored: list[dict[str, Any]],
    players: dict[str, httpx.AsyncClient],
    host: httpx.AsyncClient,
) -> None:
    hand_id = stored[-1]["hand_id"]
    proof = (await host.get(f"/api/hands/{hand_id}/verify")).json()
    assert proof["status"] == "not_yet_revealed"
    assert all(not shoe.get("seed") for shoe in proof["shoes"])
    # The host closes the table: every shoe of it is revealed, and every hand verifies.
    reply = await host.post(f"/api/admin/tables/{table_id}/close", json={"reason": "good night"})
    assert reply.status_code == 200, reply.text
    await live.services.writer.flush()
    for record in stored:
        proof = (await host.get(f"/api/hands/{record['hand_id']}/verify")).json()
        assert proof["status"] == "verified", proof["checks"]
        # each check also in the reader's words: English here, the catalog's for a French reader
        assert all(c["detail_words"] == c["detail"] for c in proof["checks"]), proof["checks"]
        assert all(c["check_words"] == c["check"] for c in proof["checks"]), proof["checks"]
    french = await host.get(f"/api/hands/{hand_id}/verify", headers={"accept-language": "fr"})
    french_checks = french.json()["checks"]
    assert [c["detail"] for c in french_checks] == [c["detail"] for c in proof["checks"]]
    assert all(c["check_words"] == localize(c["check"], "fr") for c in french_checks)
    assert all(c["detail_words"] != c["detail"] for c in french_checks), french_checks
    assert await asyncio.to_thread(run, database_url, hand_id) == 0
    # Change a card of the stored record: the proof fails, here and on the command line.
    async with live.services.sessionmaker() as session:
        hand = (await session.scalars(select(Hand).where(Hand.id == hand_id))).one()
        record = json.loads(json.dumps(hand.record))
        event = next(e for e in record["events"] if isinstance(e.get("card"), str))
        event["card"] = "KS" if event["card"] != "KS" else "QS"
        hand.record = record
        await session.commit()
    seat = record["seats_before"][0]["player_id"]
    proof = (await players[seat].get(f"/api/hands/{hand_id}/verify")).json()
    assert proof["status"] == "failed"
    assert any(c["check"] == "cards dealt" and c["ok"] is False for c in proof["checks"])
    assert (await proof_of(database_url, hand_id) or {})["status"] == "failed"
    assert await asyncio.to_thread(run, database_url, hand_id) == 1


async def check_ledgers(
    table_id: str,
    people: list[Player],
    players: dict[str, httpx.AsyncClient],
    host: httpx.AsyncClient,
    stranger: httpx.AsyncClient,
) -> None:
    me = players[people[0].player_id]
    text = (await me.get(f"/api/tables/{table_id}/ledger.csv")).text
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {r["player_id"] for r in rows} == {p.player_id for p in people}
    for row in rows:
        assert int(row["net"]) == int(row["buy_out"]) + int(row["stack"]) - int(row["buy_in"])
        assert row["status"] == "left"  # the table is closed: everyone cashed out
    assert sum(int(r["net"]) for r in rows) == 0  # Vingt-un: chips only change hands
    assert (await stranger.get(f"/api/tables/{table_id}/ledger.csv")).status_code == 403
    night = list(csv.DictReader(io.StringIO((await host.get("/api/ledger/night.csv")).text)))
    assert {r["table_id"] for r in night} >= {table_id}
    mine = list(csv.DictReader(io.StringIO((await me.get("/api/ledger/night.csv")).text)))
    assert mine and {r["table_id"] for r in mine} == {table_id}
    assert not list(csv.DictReader(io.StringIO((await stranger.get("/api/ledger/night.csv")).text)))
