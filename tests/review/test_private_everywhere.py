"""Private means private everywhere (docs/review.md, "Who may see what").

A private table's hands are played through the real server, then every GET route the app
serves (read from ``app.routes``, so a route added later is checked too) is tried by two
strangers — nobody signed in, and a signed-in player who never came near the table — with
the private table's id, each of its hand ids and its players' ids wherever a route takes
one (in the path or the query). Nothing they get back may name the table, its hands, its
invite or a player who played only there; a record, a replay, a ledger or a page answers
exactly what it answers for an id never given out. A player's figures, chart and sittings
leave the private table out for them.

Then its audience — a player of it, its opener (who never sat), an invite holder (signed in
or not) and the host — sees it.
"""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from fastapi.routing import APIRoute
from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Hand
from app.review.access import Reader
from app.review.lists import Filters, explain, list_query
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer
from tests.review.live_play import sit_down

OPTIONS = {"approval": False, "turn_seconds": 1}
NOWHERE = {
    "table_id": "0" * 12,
    "hand_id": "0" * 32,
    "player_id": "0" * 32,
    "room_id": "0" * 12,
}
"""Ids never given out: what a hidden table, hand or player must be indistinguishable from."""


@dataclass
class World:
    table_id: str = ""
    invite: str = ""
    public_id: str = ""
    hands: list[str] = field(default_factory=list)  # the private table's finished hands
    public_hands: list[str] = field(default_factory=list)
    people: dict[str, Player] = field(default_factory=dict)


async def play(table_id: str, people: list[Player], hands: int, invite: str | None = None) -> None:
    """Seat ``people`` and act at random until ``hands`` hands are over; then all stand up."""
    rng = random.Random(7)
    for person in people:
        await person.connect(table_id, invite=invite)
        await sit_down(person)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 40
    seen: list[str] = []
    while loop.time() < deadline:
        hand_id = (people[0].view or {}).get("hand_id")
        if hand_id and hand_id not in seen:
            seen.append(hand_id)
        if len(seen) - (1 if hand_id else 0) >= hands:
            break
        movers = [p for p in people if p.view and p.view["legal"]]
        if not movers:
            await asyncio.sleep(0.01)
            continue
        mover = rng.choice(movers)
        action = mover.random_legal(rng)
        assert action is not None
        await asyncio.wait_for(mover.act(action), 30)
        await asyncio.sleep(0.015)
    else:
        raise AssertionError(f"fewer than {hands} hands were played")
    for person in people:
        await person.send({"type": "leave"})
    for person in people:
        await person.wait_for(lambda v: v["you"] is None)
        await person.disconnect()


async def finished(live: LiveServer, table_id: str) -> list[str]:
    await live.services.writer.flush()
    async with live.services.sessionmaker() as session:
        rows = await session.scalars(
            select(Hand.id).where(Hand.table_id == table_id, Hand.status != "playing")
        )
        return list(rows.all())


async def world(live: LiveServer) -> World:
    """A private Greek 31 table opened by Orla (who never sits), played by Pia (only there)
    and Max (who plays at a public table too); a public table played by Max and Pat."""
    w = World()
    for name in ("Orla Opener", "Pia Privatova", "Max Mixwell", "Pat Publico", "Ivo Invited"):
        w.people[name.split()[0]] = await Player.join(live, name)
    opener, pia, max_, pat = (w.people[n] for n in ("Orla", "Pia", "Max", "Pat"))
    made = await opener.http.post(
        "/api/tables", json={"game": "greek-31", "private": True, "options": OPTIONS}
    )
    w.table_id, w.invite = made.json()["table_id"], made.json()["invite_code"]
    await play(w.table_id, [pia, max_], hands=3, invite=w.invite)
    w.public_id = await pat.open_table("greek-31", **OPTIONS)
    await play(w.public_id, [max_, pat], hands=2)
    w.hands = await finished(live, w.table_id)
    w.public_hands = await finished(live, w.public_id)
    assert len(w.hands) >= 3 and len(w.public_hands) >= 2
    return w


def query_names(dependant: Any) -> set[str]:
    """The query parameters a route reads, its dependencies' included."""
    names = {p.alias for p in dependant.query_params}
    for sub in dependant.dependencies:
        names |= query_names(sub)
    return names


def get_routes(app: Any) -> list[tuple[str, set[str]]]:
    """Every GET route the app serves under /api and the pages: (path, query names)."""
    out: list[tuple[str, set[str]]] = []
    for route in app.routes:
        contexts = (
            list(route.effective_route_contexts())
            if hasattr(route, "effective_route_contexts")
            else [route]
            if isinstance(route, APIRoute)
            else []
        )
        for ctx in contexts:
            if "GET" in (ctx.methods or ()):
                # the route's own query and its dependencies' (a query read by a Depends)
                out.append((ctx.path, query_names(ctx.dependant)))
    assert len(out) > 30 and "/api/hands" in {p for p, _ in out}, out
    return out


def urls(path: str, queries: set[str], ids: dict[str, list[str]]) -> list[tuple[str, str]]:
    """Each URL of the route to try with the private ids: ``(the id's kind, url)``; the id's
    kind is "" when the route names none of them (it must still leak nothing)."""
    params = re.findall(r"\{(\w+)\}", path)  # a segment may hold more: /i18n/{locale}.json
    unknown = set(params) - set(ids)
    assert not unknown, f"{path}: decide what a stranger may see of {unknown}, then add it here"
    out: list[tuple[str, str]] = []
    if params:
        (kind,) = params  # every GET route takes one id at most
        out += [(kind, path.replace("{" + kind + "}", value)) for value in ids[kind]]
    else:
        out.append(("", path))
    base = list(out)
    for name in sorted(queries & set(ids)):
        out += [("", f"{url}?{name}={value}") for _, url in base for value in ids[name]]
    if "date" in queries:
        today = datetime.now(UTC).date()
        for day in (today, today - timedelta(days=1)):
            out += [("", f"{url}?date={day.isoformat()}") for _, url in base]
    return out


def answer(response: httpx.Response) -> tuple[int, Any]:
    if response.headers.get("content-type", "").startswith("application/json"):
        body = response.json()
        return response.status_code, body.get("detail") if isinstance(body, dict) else body
    return response.status_code, None


async def test_a_stranger_finds_nothing_of_a_private_table_on_any_route(live: LiveServer) -> None:
    w = await world(live)
    pia, max_ = w.people["Pia"], w.people["Max"]
    ids = {
        "table_id": [w.table_id],
        "hand_id": w.hands,
        "player_id": [pia.player_id, max_.player_id],
        # the same ids where a route takes them by a shorter query name (?table=, ?player=)
        "table": [w.table_id],
        "player": [pia.player_id, max_.player_id],
        "around": [pia.player_id, max_.player_id],
        # a game's name is public (its rules page): any game will do
        "game": ["greek-31"],
        # a language's catalog of the client's words is the same for everyone
        "locale": ["en", "el"],
    }
    # a private room Orla opens: nothing of it shows either (its id, its table's)
    opened = await w.people["Orla"].http.post(
        "/api/rooms", json={"game": "greek-31", "private": True, "options": OPTIONS}
    )
    assert opened.status_code == 201, opened.text
    room_id, room_table = opened.json()["room_id"], opened.json()["table_id"]
    ids |= {"room_id": [room_id], "room": [room_id]}
    secrets = [w.table_id, w.invite, *w.hands, pia.player_id, "Pia Privatova", room_id, room_table]
    async with httpx.AsyncClient(base_url=live.base_url, timeout=10) as nobody:
        stranger = await Player.join(live, "Sam Stranger")
        tried = 0
        for path, queries in get_routes(live.app):
            for kind, url in urls(path, queries, ids):
                for who, client in (("nobody", nobody), ("stranger", stranger.http)):
                    response = await client.get(url)
                    tried += 1
                    assert response.status_code < 500, (who, url, response.text)
                    text = response.text
                    if pia.player_id in url:
                        # a page asked about Pia (hers, a settlement around her) names Pia: a
                        # player is not a table's secret (their id is, and the asker gave it)
                        text = text.replace("Pia Privatova", "").replace(pia.player_id, "")
                    if room_id in url:
                        # a page may say back the room id it was asked about (the settle
                        # page's script reads it): the asker gave it; nothing else of the room
                        text = text.replace(room_id, "")
                    leaks = [s for s in secrets if s in text]
                    assert not leaks, (who, url, leaks, text[:400])
                    if kind in ("table_id", "hand_id", "room_id"):
                        value = next(v for v in ids[kind] if v in url)
                        elsewhere = await client.get(url.replace(value, NOWHERE[kind]))
                        assert answer(response) == answer(elsewhere), (who, url)
        assert tried > 80
        # Max's page, read by a stranger, knows only the public table
        card = (await stranger.http.get(f"/api/players/{max_.player_id}")).json()
        mine = (await max_.http.get(f"/api/players/{max_.player_id}")).json()
        assert card["hands"] == len(w.public_hands)
        assert mine["hands"] == len(w.public_hands) + len(w.hands)
        assert {s["table_id"] for s in card["sessions"]} == {w.public_id}
        assert {s["table_id"] for s in mine["sessions"]} == {w.public_id, w.table_id}
        assert card["chart"]["points"] < mine["chart"]["points"]
        listed = (await stranger.http.get(f"/api/players/{max_.player_id}/hands")).json()
        assert {r["hand_id"] for r in listed["hands"]} == set(w.public_hands)
        public = (await nobody.get("/api/hands")).json()["hands"]
        assert {r["hand_id"] for r in public} == set(w.public_hands)
        await stranger.close()
    for person in w.people.values():
        await person.close()


async def test_its_players_opener_invite_holders_and_the_host_see_it(live: LiveServer) -> None:
    w = await world(live)
    ivo = w.people["Ivo"]
    host = httpx.AsyncClient(
        base_url=live.base_url, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}, timeout=10
    )
    nobody = httpx.AsyncClient(base_url=live.base_url, timeout=10)
    hand = w.hands[0]
    readers: dict[str, tuple[httpx.AsyncClient, str]] = {
        "player": (w.people["Pia"].http, ""),
        "opener": (w.people["Orla"].http, ""),
        "host": (host, ""),
        "invited": (ivo.http, f"?invite={w.invite}"),
        "invited, signed out": (nobody, f"?invite={w.invite}"),
    }
    for who, (client, invite) in readers.items():
        listed = (await client.get(f"/api/hands{invite}")).json()["hands"]
        assert set(w.hands) <= {r["hand_id"] for r in listed}, who
        sep = "&" if invite else "?"
        listed = (await client.get(f"/api/hands{invite}{sep}table_id={w.table_id}")).json()
        assert {r["hand_id"] for r in listed["hands"]} == set(w.hands), who
        record = await client.get(f"/api/hands/{hand}{invite}")
        assert record.status_code == 200 and record.json()["table_id"] == w.table_id, who
        assert (await client.get(f"/hands/{hand}{invite}")).status_code == 200, who
        assert (await client.get(f"/tables/{w.table_id}/history{invite}")).status_code == 200, who
        table_list = await client.get(f"/api/tables/{w.table_id}/hands{invite}")
        if who == "invited, signed out":
            assert table_list.status_code == 401  # the lists are for signed-in readers
        else:
            assert {r["hand_id"] for r in table_list.json()["hands"]} == set(w.hands), who
        # the replay and the ledger keep their own rules: the hand's / the table's players
        replay = await client.get(f"/api/hands/{hand}/replay{invite}")
        ledger = await client.get(f"/api/tables/{w.table_id}/ledger{invite}")
        if who in ("player", "host"):
            assert replay.status_code == 200 and ledger.status_code == 200, who
            assert w.table_id in ledger.text
        else:
            assert replay.status_code in (401, 403) and ledger.status_code in (401, 403), who
    # a player of the table sees Max's private hands on his page too; the host sees them all
    for client in (w.people["Pia"].http, host):
        card = (await client.get(f"/api/players/{w.people['Max'].player_id}")).json()
        assert card["hands"] == len(w.hands) + len(w.public_hands)
    await host.aclose()
    await nobody.aclose()
    for person in w.people.values():
        await person.close()


@pytest.mark.parametrize("who", ["nobody", "stranger"])
async def test_the_list_for_a_stranger_still_walks_its_index(
    session: AsyncSession, who: str
) -> None:
    """Leaving the hidden tables out adds a filter, not a scan or a sort (docs/review.md)."""
    from app.db.models import Player as PlayerRow

    reader = Reader(PlayerRow(id="p" * 32, name="S") if who == "stranger" else None)
    cursor = f"{datetime(2026, 11, 21, tzinfo=UTC).isoformat()}|{'f' * 32}"
    sqlite = session.bind is not None and session.bind.dialect.name == "sqlite"
    if not sqlite:  # as tests/review/test_lists.py: the plan for a large table, not an empty one
        await session.execute(text("ANALYZE hands, hand_players"))
        await session.execute(text("SET enable_seqscan = off"))
        await session.execute(text("SET enable_bitmapscan = off"))
    plan = "\n".join(
        await explain(session, list_query(Filters(), cursor, 20, sqlite=sqlite, reader=reader))
    )
    if sqlite:
        assert "ix_hands_ended" in plan and "TEMP B-TREE" not in plan, plan
    else:
        assert "Index Scan Backward using ix_hands_ended" in plan, plan
        assert "Sort" not in plan and "Seq Scan on hands" not in plan, plan
