"""Capture real messages from a running Table 31 server, for docs/protocol.md.

This is a protocol client (httpx + websockets, nothing from ``app``): it signs players in,
opens a table of each game, seats players and bots, plays a few hands choosing only among
``legal``, provokes every error it can, and writes everything it sent and received to a JSON
file (and a short summary to stdout).

Start a server first (see docs/protocol.md, "Trying it"), e.g.::

    rm -f /tmp/docs.db
    DATABASE_URL=sqlite+aiosqlite:////tmp/docs.db .venv/bin/alembic upgrade head
    DATABASE_URL=sqlite+aiosqlite:////tmp/docs.db PORT=8177 NEXT_HAND_SECONDS=1 \\
        BOT_DELAY_SECONDS=0.2 ADMIN_TOKEN=docs-admin .venv/bin/python -m app serve &

then::

    .venv/bin/python docs/examples/capture.py --base http://127.0.0.1:8177 \\
        --admin docs-admin --out /tmp/t31-capture.json

``python docs/examples/capture.py watch TABLE_ID`` only connects to one table as a
spectator and prints every message and the close code (useful to see the 1001 of a restart).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import itertools
import json
import random
import sys
import time
from typing import Any

import httpx
import websockets

Json = dict[str, Any]
_ids = itertools.count(1)


# --------------------------------------------------------------------------- the socket


class Closed(Exception):
    pass


class Sock:
    """One table socket: every message it received, in order, and how it closed."""

    def __init__(self, name: str, ws_base: str) -> None:
        self.name = name
        self.ws_base = ws_base
        self.log: list[Json] = []  # {"dir": "in"|"out", "t": ..., "msg": ...}
        self.queue: asyncio.Queue[Json | None] = asyncio.Queue()
        self.view: Json | None = None
        self.version = -1
        self.close: Json | None = None
        self.ws: Any = None
        self.task: asyncio.Task[None] | None = None

    async def open(
        self,
        table_id: str,
        *,
        token: str | None = None,
        invite: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        params = []
        if token:
            params.append(f"token={token}")
        if invite:
            params.append(f"invite={invite}")
        query = ("?" + "&".join(params)) if params else ""
        self.ws = await websockets.connect(
            f"{self.ws_base}/ws/tables/{table_id}{query}",
            max_size=None,
            additional_headers=headers or {},
        )
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                message = json.loads(raw)
                self.log.append({"dir": "in", "t": time.time(), "msg": message})
                if message.get("type") == "state":
                    self.view, self.version = message["view"], message["version"]
                self.queue.put_nowait(message)
        except websockets.ConnectionClosed:
            pass
        finally:
            self.close = {"code": self.ws.close_code, "reason": self.ws.close_reason}
            self.log.append({"dir": "close", "t": time.time(), "msg": self.close})
            self.queue.put_nowait(None)

    async def send(self, message: Json | str | bytes) -> None:
        shown: Any = message
        if isinstance(message, (str, bytes)) and len(message) > 200:
            shown = f"<{len(message)} {'bytes' if isinstance(message, bytes) else 'chars'}>"
        self.log.append({"dir": "out", "t": time.time(), "msg": shown})
        await self.ws.send(message if isinstance(message, (str, bytes)) else json.dumps(message))

    async def next(self, predicate: Any = None, timeout: float = 15) -> Json:
        """The next message (matching ``predicate``) not yet taken from the queue."""
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: nothing matching arrived")
            message = await asyncio.wait_for(self.queue.get(), left)
            if message is None:
                self.queue.put_nowait(None)
                raise Closed(f"{self.name}: closed {self.close}")
            if predicate is None or predicate(message):
                return message

    async def reply_to(self, message: Json, timeout: float = 10) -> Json:
        """Send ``message`` and return the first ack/error/pong/state that answers it
        (messages already waiting are dropped first: they cannot be the answer)."""
        while not self.queue.empty():
            item = self.queue.get_nowait()
            if item is None:
                self.queue.put_nowait(None)
                break
        await self.send(message)
        want = message.get("type")
        msg_id = message.get("id")

        def answers(m: Json) -> bool:
            if want == "ping":
                return m["type"] in ("pong", "error")
            if want == "act":  # an error found before the id was read carries none
                return m["type"] in ("ack", "error") and m.get("id") in (msg_id, None)
            return m["type"] in ("state", "error")

        return await self.next(answers, timeout)

    async def wait_view(self, predicate: Any, timeout: float = 30) -> Json:
        if self.view is not None and predicate(self.view):
            return self.view
        message = await self.next(lambda m: m["type"] == "state" and predicate(m["view"]), timeout)
        return message["view"]

    async def drain(self, seconds: float = 0.3) -> None:
        await asyncio.sleep(seconds)
        while not self.queue.empty():
            item = self.queue.get_nowait()
            if item is None:
                self.queue.put_nowait(None)
                break

    async def shut(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            await self.task


# --------------------------------------------------------------------------- the capture


class Capture:
    def __init__(self, base: str, admin: str) -> None:
        self.base = base.rstrip("/")
        self.ws_base = "ws" + self.base[4:]
        self.admin = admin
        self.out: Json = {"rest": {}, "socket": {}, "games": {}, "closes": {}}
        self.http = httpx.AsyncClient(base_url=self.base, timeout=15)

    # REST ---------------------------------------------------------------------------------

    async def call(
        self,
        name: str | None,
        method: str,
        path: str,
        *,
        token: str | None = None,
        admin: bool = False,
        body: Any = None,
        params: Json | None = None,
        cookies: Json | None = None,
    ) -> httpx.Response:
        headers = {}
        if token:
            headers["authorization"] = f"Bearer {token}"
        if admin:
            headers["authorization"] = f"Bearer {self.admin}"
        if cookies:
            headers["cookie"] = "; ".join(f"{k}={v}" for k, v in cookies.items())
        request = self.http.build_request(method, path, headers=headers, json=body, params=params)
        response = await self.http.send(request)
        self.http.cookies.clear()  # each call is its own device: no cookie carries over
        if name is not None:
            try:
                payload: Any = response.json()
            except ValueError:
                payload = response.text[:3000]
            self.out["rest"][name] = {
                "request": {
                    "method": method,
                    "path": str(request.url).replace(self.base, ""),
                    "auth": "admin" if admin else ("player" if token else None),
                    "body": body,
                },
                "status": response.status_code,
                "set_cookie": response.headers.get("set-cookie"),
                "response": payload,
            }
        return response

    async def player(self, name: str) -> Json:
        response = await self.call(f"session:{name}", "POST", "/api/session", body={"name": name})
        response.raise_for_status()
        return dict(response.json())

    # the games ----------------------------------------------------------------------------

    async def play(
        self,
        game: str,
        options: Json,
        *,
        humans: int,
        bots: int,
        bots_first: bool = False,
        until: Any,
        seconds: float,
        people: list[Json],
    ) -> Json:
        """Open a table, seat ``humans`` of ``people`` and ``bots`` bots, watch as a
        spectator too, and let the humans play from ``legal`` until ``until(record)``."""
        ada = people[0]
        response = await self.call(
            f"open:{game}",
            "POST",
            "/api/tables",
            token=ada["token"],
            body={"game": game, "name": f"Docs {game}"[:24], "options": options},
        )
        response.raise_for_status()
        table = response.json()
        table_id = table["table_id"]
        record: Json = {"table": table, "seen": {}, "hands": [], "acts": [], "errors": []}
        spectator = Sock("spectator", self.ws_base)
        await spectator.open(table_id)
        await spectator.next(lambda m: m["type"] == "state")
        if bots_first:
            for _ in range(bots):
                await self.call(
                    f"bot:{game}",
                    "POST",
                    f"/api/tables/{table_id}/bots",
                    token=ada["token"],
                    body={},
                )
        socks = []
        for person in people[:humans]:
            sock = Sock(person["name"], self.ws_base)
            await sock.open(table_id, token=person["token"])
            first = await sock.next(lambda m: m["type"] == "state")
            low = first["view"]["table"]["buy_in"]["min"]
            high = first["view"]["table"]["buy_in"]["max"]
            buy_in = low if low == high else min(high, max(low, 400))
            sit = {"type": "sit", "seat": None, "buy_in": buy_in}
            await sock.send(sit)
            await sock.wait_view(lambda v: v["you"] is not None)
            record.setdefault("sits", []).append(sit)
            socks.append(sock)
        if not bots_first:
            for _ in range(bots):
                await self.call(
                    f"bot:{game}",
                    "POST",
                    f"/api/tables/{table_id}/bots",
                    token=ada["token"],
                    body={},
                )
        rng = random.Random(31)
        stop = asyncio.Event()
        deadline = time.monotonic() + seconds

        async def drive(sock: Sock) -> None:
            acted = -1
            hand = None
            while not stop.is_set() and time.monotonic() < deadline:
                try:
                    message = await sock.next(timeout=max(0.1, deadline - time.monotonic()))
                except TimeoutError:
                    break
                if message["type"] == "error":
                    record["errors"].append(message)
                    acted = -1
                    await sock.send({"type": "resync", "version": sock.version})
                    continue
                if message["type"] != "state":
                    continue
                view = message["view"]
                if view["hand_id"] and view["hand_id"] != hand:
                    hand = view["hand_id"]
                    if hand not in record["hands"]:
                        record["hands"].append(hand)
                key = f"{sock.name}|{view['phase']}|" + ",".join(
                    sorted({t["kind"] for t in view["legal"]})
                )
                if key not in record["seen"]:
                    record["seen"][key] = copy.deepcopy(message)
                if until(record, view):
                    stop.set()
                    break
                if not view["legal"] or message["version"] <= acted or not sock.queue.empty():
                    continue
                action = choose(game, view, rng)
                act = {
                    "type": "act",
                    "id": f"{sock.name.lower()}-{next(_ids)}",
                    "version": message["version"],
                    "action": action,
                }
                record["acts"].append(
                    {
                        "seat": view["you"],
                        "view_version": message["version"],
                        "legal": view["legal"],
                        "act": act,
                    }
                )
                acted = message["version"]
                await sock.send(act)

        await asyncio.gather(*(drive(sock) for sock in socks))
        await asyncio.sleep(0.5)
        record["logs"] = {sock.name: sock.log for sock in socks}
        record["logs"]["spectator"] = spectator.log
        record["table_after"] = (
            await self.call(None, "GET", f"/api/tables/{table_id}", token=ada["token"])
        ).json()
        record["sockets"] = [*socks, spectator]
        return record

    async def run(self) -> Json:
        out = self.out
        # identity ------------------------------------------------------------------------
        ada = await self.player("Ada")
        basil = await self.player("Basil")
        clio = await self.player("Clio")
        dora = await self.player("Dora")
        people = [ada, basil, clio, dora]
        for person in people:  # enough chips to sit at every table below
            await self.call(
                None,
                "POST",
                f"/api/admin/players/{person['player_id']}/chips",
                admin=True,
                body={"amount": 5000, "reason": "docs capture"},
            )
        await self.call(
            "session:cookie",
            "POST",
            "/api/session",
            body={"name": "Whoever"},
            cookies={"t31_token": ada["token"]},
        )
        await self.call("session:bad_name", "POST", "/api/session", body={"name": "<b>x</b>"})
        await self.call("session:empty_name", "POST", "/api/session", body={"name": "  "})
        await self.call("me", "GET", "/api/me", token=ada["token"])
        await self.call("me:anonymous", "GET", "/api/me")
        await self.call("me:bad_token", "GET", "/api/me", token="not-a-token")
        rec = await self.call("recovery:make", "POST", "/api/me/recovery", token=dora["token"])
        await self.call(
            "recovery:redeem", "POST", "/api/session/recover", body={"code": rec.json()["code"]}
        )
        await self.call("recovery:bad", "POST", "/api/session/recover", body={"code": "nope"})
        # games and tables ------------------------------------------------------------------
        await self.call("games", "GET", "/api/games")
        await self.call(
            "table:unknown_game", "POST", "/api/tables", token=ada["token"], body={"game": "poker"}
        )
        await self.call(
            "table:unknown_option",
            "POST",
            "/api/tables",
            token=ada["token"],
            body={"game": "greek-31", "options": {"colour": "red"}},
        )
        await self.call(
            "table:bad_value",
            "POST",
            "/api/tables",
            token=ada["token"],
            body={"game": "vingt-un", "options": {"min_bet": 0}},
        )
        await self.call(
            "table:bad_combination",
            "POST",
            "/api/tables",
            token=ada["token"],
            body={"game": "vingt-un", "options": {"min_bet": 50, "max_bet": 20}},
        )
        await self.call(
            "table:wrong_type",
            "POST",
            "/api/tables",
            token=ada["token"],
            body={"game": "greek-31", "options": {"heath": "yes"}},
        )
        await self.call("table:anonymous", "POST", "/api/tables", body={"game": "greek-31"})
        await self.call(
            "table:missing_game", "POST", "/api/tables", token=ada["token"], body={"name": "x"}
        )
        private = await self.call(
            "table:private",
            "POST",
            "/api/tables",
            token=ada["token"],
            body={"game": "greek-31", "name": "Friends only", "private": True},
        )
        private_id = private.json()["table_id"]
        await self.call(
            "table:private:stranger", "GET", f"/api/tables/{private_id}", token=basil["token"]
        )
        invite = private.json()["invite_code"]
        await self.call(
            "table:private:invited",
            "GET",
            f"/api/tables/{private_id}",
            token=basil["token"],
            params={"invite": invite},
        )
        await self.call("table:missing", "GET", "/api/tables/nope")
        await self.call(
            "bots:no_body", "POST", f"/api/tables/{private_id}/bots", token=ada["token"]
        )
        await self.call(
            "bots:add_seat",
            "POST",
            f"/api/tables/{private_id}/bots",
            token=ada["token"],
            body={"seat": 3},
        )
        await self.call(
            "bots:add_taken",
            "POST",
            f"/api/tables/{private_id}/bots",
            token=ada["token"],
            body={"seat": 3},
        )

        # the games -------------------------------------------------------------------------
        def covered(keys: list[str], hands: int) -> Any:
            def done(record: Json, view: Json) -> bool:
                seen = " ".join(record["seen"])
                return len(record["hands"]) >= hands and all(k in seen for k in keys)

            return done

        games = out["games"]
        games["trianta-ena"] = await self.play(
            "trianta-ena",
            {"banker_multiple": 1, "turn_seconds": 8, "bet_seconds": 8, "min_bet": 5},
            humans=2,
            bots=2,
            bots_first=True,
            until=covered(["|betting|bet,fold", "|playing|hit,stand", "bank_offer|accept"], 4),
            seconds=120,
            people=people,
        )
        games["greek-31"] = await self.play(
            "greek-31",
            {"turn_seconds": 8},
            humans=2,
            bots=1,
            until=covered(["|staking|stake", "|dealer|draw,stand", "|players|draw,stand"], 4),
            seconds=90,
            people=people,
        )
        games["vingt-un"] = await self.play(
            "vingt-un",
            {"turn_seconds": 8},
            humans=2,
            bots=1,
            until=covered(
                [
                    "|staking|stake",
                    "|double|double,no_double",
                    "|playing|draw,stand",
                    "split",
                    "|dealer|draw,stand",
                ],
                4,
            ),
            seconds=150,
            people=people,
        )
        games["en-og-tredive"] = await self.play(
            "en-og-tredive",
            {"turn_seconds": 8},
            humans=2,
            bots=1,
            until=covered(
                ["|cut|cut,knock_deck", "|deal|deal", "|draw|draw", "|discard|discard", "knock,"], 3
            ),
            seconds=120,
            people=people,
        )
        games["trente-et-quarante"] = await self.play(
            "trente-et-quarante",
            {"bet_seconds": 3, "turn_seconds": 8},
            humans=2,
            bots=1,
            until=covered(
                ["|betting|insure,remove,stake", "|betting|done", "un_apres|prison", "move_prison"],
                3,
            ),
            seconds=240,
            people=people,
        )

        # hands -----------------------------------------------------------------------------
        table_id = games["greek-31"]["table"]["table_id"]
        page = await self.call(
            "hands:list",
            "GET",
            "/api/hands",
            token=ada["token"],
            params={"table_id": table_id, "limit": 2},
        )
        nxt = page.json().get("next")
        if nxt:
            await self.call(
                "hands:next_page",
                "GET",
                "/api/hands",
                token=ada["token"],
                params={"table_id": table_id, "limit": 2, "before": nxt},
            )
        await self.call("hands:bad_cursor", "GET", "/api/hands", params={"before": "yesterday"})
        finished = page.json()["hands"]
        if finished:
            hid = finished[0]["hand_id"]
            await self.call("hand:player", "GET", f"/api/hands/{hid}", token=ada["token"])
            await self.call("hand:anonymous", "GET", f"/api/hands/{hid}")
        await self.call("hand:missing", "GET", "/api/hands/nope")
        for game, record in games.items():
            if record["hands"]:
                await self.call(
                    f"hand:{game}", "GET", f"/api/hands/{record['hands'][0]}", token=ada["token"]
                )
        await self.call("tables:list", "GET", "/api/tables", token=ada["token"])

        # review (history, replay, export, fairness, ledgers), where the server has it ----------
        try:
            await self.review(people, games)
        except Exception as exc:
            out.setdefault("failures", []).append(f"review: {exc!r}")

        # the socket: every message and error; the host's calls ------------------------------
        for stage in (self.socket_errors, self.host):
            try:
                await stage(people, games)
            except Exception as exc:  # keep what was captured so far
                out.setdefault("failures", []).append(f"{stage.__name__}: {exc!r}")
        await self.call("healthz", "GET", "/healthz")
        metrics = await self.http.get("/metrics", headers={"authorization": f"Bearer {self.admin}"})
        out["rest"]["metrics"] = {"status": metrics.status_code, "text": metrics.text}
        for record in games.values():
            for sock in record.pop("sockets"):
                await sock.shut()
        return out

    async def review(self, people: list[Json], games: Json) -> None:
        ada, basil = people[0], people[1]
        record = games["greek-31"]
        table_id = record["table"]["table_id"]
        page = await self.call(
            "review:table_hands",
            "GET",
            f"/api/tables/{table_id}/hands",
            token=ada["token"],
            params={"limit": 2},
        )
        await self.call("review:table_hands:anonymous", "GET", f"/api/tables/{table_id}/hands")
        hands = page.json().get("hands", []) if page.status_code == 200 else []
        if hands:
            hid = hands[-1]["hand_id"]
            await self.call("review:replay", "GET", f"/api/hands/{hid}/replay", token=ada["token"])
            await self.call("review:export", "GET", f"/api/hands/{hid}/export", token=ada["token"])
            await self.call("review:verify", "GET", f"/api/hands/{hid}/verify", token=ada["token"])
        pid = ada["player_id"]
        await self.call(
            "review:player_hands",
            "GET",
            f"/api/players/{pid}/hands",
            token=ada["token"],
            params={"limit": 2},
        )
        await self.call("review:player", "GET", f"/api/players/{pid}", token=ada["token"])
        await self.call("review:player:missing", "GET", "/api/players/nobody", token=ada["token"])
        chart = await self.http.get(
            f"/api/players/{pid}/chart.svg", headers={"authorization": f"Bearer {ada['token']}"}
        )
        self.out["rest"]["review:chart"] = {
            "status": chart.status_code,
            "type": chart.headers.get("content-type"),
            "text": chart.text[:300],
        }
        for name, path in [
            ("review:jsonl", f"/api/players/{pid}/hands.jsonl"),
            ("review:jsonl:other", f"/api/players/{basil['player_id']}/hands.jsonl"),
            ("review:ledger.csv", f"/api/tables/{table_id}/ledger.csv"),
            ("review:night.csv", "/api/ledger/night.csv"),
        ]:
            auth = {"authorization": f"Bearer {ada['token']}"}
            response = await self.http.get(path, headers=auth)
            self.out["rest"][name] = {
                "status": response.status_code,
                "type": response.headers.get("content-type"),
                "disposition": response.headers.get("content-disposition"),
                "text": response.text[:1500],
            }
        await self.call(
            "review:ledger", "GET", f"/api/tables/{table_id}/ledger", token=ada["token"]
        )
        await self.call(
            "review:night:bad_tz",
            "GET",
            "/api/ledger/night.csv",
            token=ada["token"],
            params={"tz": "Mars/Olympus"},
        )

    async def socket_errors(self, people: list[Json], games: Json) -> None:
        ada, basil, clio, dora = people
        s = self.out["socket"]
        opened = await self.call(
            "open:errors",
            "POST",
            "/api/tables",
            token=clio["token"],
            body={"game": "greek-31", "name": "Errors", "options": {"turn_seconds": 30}},
        )
        table_id = opened.json()["table_id"]
        spec = Sock("anon", self.ws_base)
        await spec.open(table_id)
        s["connect:spectator"] = await spec.next()
        s["ping"] = await spec.reply_to({"type": "ping"})
        s["sit:anonymous"] = await spec.reply_to({"type": "sit", "seat": 0, "buy_in": 100})
        clio_s = Sock("clio", self.ws_base)
        await clio_s.open(table_id, token=clio["token"])
        s["connect:player"] = await clio_s.next()
        cases: list[tuple[str, Any]] = [
            ("bad:not_json", "hello"),
            ("bad:not_object", "[1, 2]"),
            ("bad:unknown_type", {"type": "dance", "id": "d-1"}),
            ("bad:act_no_id", {"type": "act", "version": 1, "action": {"kind": "stake"}}),
            ("bad:act_no_version", {"type": "act", "id": "c-1", "action": {"kind": "stake"}}),
            ("bad:act_no_kind", {"type": "act", "id": "c-2", "version": 1, "action": {}}),
            (
                "bad:id_too_long",
                {"type": "act", "id": "x" * 65, "version": 1, "action": {"kind": "stake"}},
            ),
            ("bad:sit_no_buy_in", {"type": "sit", "seat": 1}),
            ("bad:sit_seat_string", {"type": "sit", "seat": "one", "buy_in": 100}),
            ("bad:top_up_zero", {"type": "top_up", "amount": 0}),
            (
                "not_seated:act",
                {
                    "type": "act",
                    "id": "c-3",
                    "version": 1,
                    "action": {"kind": "stake", "amount": 10},
                },
            ),
            ("not_seated:leave", {"type": "leave"}),
            ("not_seated:top_up", {"type": "top_up", "amount": 10}),
            ("sit:no_such_seat", {"type": "sit", "seat": 42, "buy_in": 100}),
            ("sit:bad_buy_in", {"type": "sit", "seat": 0, "buy_in": 5}),
            ("sit:insufficient_funds", {"type": "sit", "seat": 0, "buy_in": 10**8}),
            ("too_large", json.dumps({"type": "ping", "pad": "x" * 5000})),
        ]
        for name, message in cases:
            try:
                if isinstance(message, dict):
                    s[name] = {"sent": message, "got": await clio_s.reply_to(message)}
                else:
                    await clio_s.send(message)
                    got = await clio_s.next(lambda m: m["type"] == "error")
                    shown = message if len(message) < 200 else "<5000+ bytes>"
                    s[name] = {"sent": shown, "got": got}
            except TimeoutError:
                s[name] = {"sent": message, "got": "no answer"}
        s["sit"] = {
            "sent": {"type": "sit", "seat": 0, "buy_in": 300},
            "got": await clio_s.reply_to({"type": "sit", "seat": 0, "buy_in": 300}),
        }
        s["sit:already_seated"] = {
            "sent": {"type": "sit", "seat": 1, "buy_in": 100},
            "got": await clio_s.reply_to({"type": "sit", "seat": 1, "buy_in": 100}),
        }
        dora_s = Sock("dora", self.ws_base)
        await dora_s.open(table_id, token=dora["token"])
        await dora_s.next()
        s["sit:seat_taken"] = {
            "sent": {"type": "sit", "seat": 0, "buy_in": 100},
            "got": await dora_s.reply_to({"type": "sit", "seat": 0, "buy_in": 100}),
        }
        await dora_s.reply_to({"type": "sit", "seat": 1, "buy_in": 200})
        # a hand starts: seat 1 (Dora) stakes first (Clio, seat 0, deals)
        view = await dora_s.wait_view(lambda v: bool(v["legal"]))
        s["state:dora_to_stake"] = {"version": dora_s.version, "view": view}
        await self.call("hand:playing", "GET", f"/api/hands/{view['hand_id']}")
        v = dora_s.version
        s["act:unknown_action"] = await dora_s.reply_to(
            {"type": "act", "id": "u-1", "version": v, "action": {"kind": "dance"}}
        )
        s["act:illegal_amount"] = await dora_s.reply_to(
            {
                "type": "act",
                "id": "u-2",
                "version": v,
                "action": {"kind": "stake", "amount": 100000},
            }
        )
        s["act:illegal_extra_key"] = await dora_s.reply_to(
            {
                "type": "act",
                "id": "u-3",
                "version": v,
                "action": {"kind": "stake", "amount": 10, "all_in": True},
            }
        )
        s["act:illegal_missing"] = await dora_s.reply_to(
            {"type": "act", "id": "u-4", "version": v, "action": {"kind": "stake"}}
        )
        s["act:illegal_kind_now"] = await dora_s.reply_to(
            {"type": "act", "id": "u-5", "version": v, "action": {"kind": "draw"}}
        )
        s["act:not_your_turn"] = await clio_s.reply_to(
            {"type": "act", "id": "c-9", "version": clio_s.version, "action": {"kind": "draw"}}
        )
        act = {"type": "act", "id": "d-1", "version": v, "action": {"kind": "stake", "amount": 10}}
        s["act:ok"] = {"sent": act, "got": await dora_s.reply_to(act)}
        s["act:ok:state"] = await dora_s.next(lambda m: m["type"] == "state")
        s["act:resend"] = {"sent": act, "got": await dora_s.reply_to(act)}
        stale = {
            "type": "act",
            "id": "d-2",
            "version": v,
            "action": {"kind": "stake", "amount": 10},
        }
        s["act:stale_version"] = {"sent": stale, "got": await dora_s.reply_to(stale)}
        s["resync"] = await dora_s.reply_to({"type": "resync", "version": v})
        # the dealer's own face-down cards: Clio draws
        await clio_s.wait_view(lambda view: any(t["kind"] == "draw" for t in view["legal"]))
        act = {"type": "act", "id": "c-10", "version": clio_s.version, "action": {"kind": "draw"}}
        await clio_s.reply_to(act)
        dealer_view = await clio_s.next(lambda m: m["type"] == "state")
        await asyncio.sleep(0.3)
        s["hidden:dealer_view"] = dealer_view
        s["hidden:player_view"] = next(
            e["msg"]
            for e in reversed(dora_s.log)
            if e["dir"] == "in"
            and e["msg"].get("type") == "state"
            and e["msg"]["version"] == dealer_view["version"]
        )
        s["hidden:spectator_view"] = next(
            e["msg"]
            for e in reversed(spec.log)
            if e["dir"] == "in"
            and e["msg"].get("type") == "state"
            and e["msg"]["version"] == dealer_view["version"]
        )
        # top up outside the hand: Ada at seat 2 (not dealt in)
        ada_s = Sock("ada", self.ws_base)
        await ada_s.open(table_id, token=ada["token"])
        await ada_s.next()
        await ada_s.reply_to({"type": "sit", "seat": 2, "buy_in": 50})
        s["top_up"] = {
            "sent": {"type": "top_up", "amount": 25},
            "got": await ada_s.reply_to({"type": "top_up", "amount": 25}),
        }
        s["top_up:insufficient_funds"] = {
            "sent": {"type": "top_up", "amount": 10**6},
            "got": await ada_s.reply_to({"type": "top_up", "amount": 10**6}),
        }
        s["leave"] = {"sent": {"type": "leave"}, "got": await ada_s.reply_to({"type": "leave"})}
        s["leave:pending"] = {
            "sent": {"type": "leave"},
            "got": await dora_s.reply_to({"type": "leave"}),
        }
        # paused
        await self.call(
            "admin:pause",
            "POST",
            f"/api/admin/tables/{table_id}/pause",
            admin=True,
            body={"reason": "Tea break"},
        )
        paused = await dora_s.next(lambda m: m["type"] == "state")
        s["paused:state"] = paused
        s["paused:act"] = await dora_s.reply_to(
            {"type": "act", "id": "d-3", "version": dora_s.version, "action": {"kind": "draw"}}
        )
        s["paused:sit"] = await ada_s.reply_to({"type": "sit", "seat": 3, "buy_in": 50})
        await self.call("admin:resume", "POST", f"/api/admin/tables/{table_id}/resume", admin=True)
        # rate limit and flood
        flood = Sock("flood", self.ws_base)
        await flood.open(table_id, token=basil["token"])
        await flood.next()
        for _ in range(300):
            try:
                await flood.send({"type": "ping"})
            except websockets.ConnectionClosed:
                break
        with contextlib.suppress(Closed):
            s["rate_limited"] = await flood.next(lambda m: m["type"] == "error")
        with contextlib.suppress(Closed, TimeoutError):
            await flood.next(lambda m: False, timeout=5)
        counts: dict[str, int] = {}
        for entry in flood.log:
            if entry["dir"] == "in":
                kind = entry["msg"].get("code") or entry["msg"]["type"]
                counts[kind] = counts.get(kind, 0) + 1
        s["flood"] = {"received": counts, "close": flood.close}
        # oversize frame: closed by the server's WebSocket layer
        big = Sock("big", self.ws_base)
        await big.open(table_id, token=basil["token"])
        await big.next()
        try:
            await big.send("x" * 70000)
            await big.next(lambda m: False, timeout=5)
        except (Closed, TimeoutError, websockets.ConnectionClosed):
            pass
        await asyncio.sleep(0.3)
        s["oversize:close"] = big.close
        # refused connections
        closes = self.out["closes"]
        for name, table, kwargs in [
            ("no_such_table", "nope", {}),
            ("bad_token", table_id, {"token": "forged"}),
        ]:
            sock = Sock(name, self.ws_base)
            await sock.open(table, **kwargs)
            try:
                message = await sock.next(timeout=5)
            except Closed:
                message = None
            await asyncio.sleep(0.2)
            closes[name] = {"message": message, "close": sock.close}
        priv = await self.call(
            None,
            "POST",
            "/api/tables",
            token=clio["token"],
            body={"game": "vingt-un", "private": True},
        )
        sock = Sock("private", self.ws_base)
        await sock.open(priv.json()["table_id"], token=basil["token"])
        try:
            message = await sock.next(timeout=5)
        except Closed:
            message = None
        await asyncio.sleep(0.2)
        closes["private_table"] = {"message": message, "close": sock.close}
        sock = Sock("invited", self.ws_base)
        await sock.open(
            priv.json()["table_id"], token=basil["token"], invite=priv.json()["invite_code"]
        )
        closes["private_invited"] = {"message": await sock.next()}
        await sock.shut()
        # cookie and bearer authentication of the socket: a signed-in socket may sit (here
        # with a buy-in too small, so the answer is bad_buy_in rather than unauthorized)
        for how, headers in [
            ("cookie", {"cookie": f"t31_token={basil['token']}"}),
            ("bearer", {"authorization": f"Bearer {basil['token']}"}),
        ]:
            sock = Sock(how, self.ws_base)
            await sock.open(table_id, headers=headers)
            await sock.next()
            closes[f"{how}_auth"] = await sock.reply_to({"type": "sit", "seat": 5, "buy_in": 1})
            await sock.shut()
        # too many connections from one address
        many = []
        refused = None
        for i in range(40):
            sock = Sock(f"many{i}", self.ws_base)
            await sock.open(table_id)
            many.append(sock)
            first = await sock.next(timeout=5) if sock.queue.empty() else sock.queue.get_nowait()
            if first and first.get("type") == "error":
                await asyncio.sleep(0.2)
                refused = {"message": first, "close": sock.close, "after": i}
                break
        closes["too_many_connections"] = refused
        for sock in many:
            await sock.shut()
        # the host closes the table: every socket gets the last state and 1001
        await self.call(
            "admin:close",
            "POST",
            f"/api/admin/tables/{table_id}/close",
            admin=True,
            body={"reason": "Closing time"},
        )
        await asyncio.sleep(0.5)
        last = [e["msg"] for e in dora_s.log if e["dir"] == "in"]
        closes["host_close"] = {"last_message": last[-1] if last else None, "close": dora_s.close}
        self.out["socket_logs"] = {sock.name: sock.log for sock in (spec, clio_s, dora_s, ada_s)}
        for sock in (spec, clio_s, dora_s, ada_s, flood, big):
            await sock.shut()

    async def host(self, people: list[Json], games: Json) -> None:
        ada, basil, _clio, _dora = people
        await self.call("admin:no_token", "GET", "/api/admin/audit")
        await self.call("admin:player_token", "GET", "/api/admin/audit", token=ada["token"])
        await self.call("admin:audit", "GET", "/api/admin/audit", admin=True)
        await self.call(
            "admin:house",
            "POST",
            "/api/admin/house",
            admin=True,
            body={"amount": 5000, "reason": "weekend float"},
        )
        await self.call("admin:players", "GET", "/api/admin/players", admin=True)
        await self.call(
            "admin:grant",
            "POST",
            f"/api/admin/players/{basil['player_id']}/chips",
            admin=True,
            body={"amount": 500, "reason": "birthday"},
        )
        await self.call(
            "admin:take",
            "POST",
            f"/api/admin/players/{basil['player_id']}/chips",
            admin=True,
            body={"amount": -200, "reason": "correction"},
        )
        await self.call(
            "admin:take_too_much",
            "POST",
            f"/api/admin/players/{basil['player_id']}/chips",
            admin=True,
            body={"amount": -(10**9), "reason": "oops"},
        )
        await self.call(
            "admin:grant_zero",
            "POST",
            f"/api/admin/players/{basil['player_id']}/chips",
            admin=True,
            body={"amount": 0, "reason": "nothing"},
        )
        await self.call(
            "admin:grant_nobody",
            "POST",
            "/api/admin/players/nobody/chips",
            admin=True,
            body={"amount": 5, "reason": "ghost"},
        )
        await self.call("admin:tables", "GET", "/api/admin/tables", admin=True)
        await self.call("admin:settings", "GET", "/api/admin/settings", admin=True)
        await self.call(
            "admin:settings:put",
            "PUT",
            "/api/admin/settings",
            admin=True,
            body={"starting_bankroll": 1000},
        )
        table_id = games["vingt-un"]["table"]["table_id"]
        await self.call("admin:add_bot", "POST", f"/api/admin/tables/{table_id}/bots", admin=True)
        table = games["trianta-ena"]["table"]["table_id"]
        await self.call(
            "bots:remove:not_opener", "DELETE", f"/api/tables/{table}/bots/0", token=basil["token"]
        )
        await self.call(
            "bots:remove:no_bot", "DELETE", f"/api/tables/{table}/bots/7", token=ada["token"]
        )
        summary = (await self.call(None, "GET", f"/api/tables/{table}")).json()
        bot_seat = next((s["seat"] for s in summary["seats"] if s["bot"]), None)
        if bot_seat is not None:
            await self.call(
                "bots:remove", "DELETE", f"/api/tables/{table}/bots/{bot_seat}", token=ada["token"]
            )
        human = next((s["seat"] for s in summary["seats"] if not s["bot"]), None)
        if human is not None:
            await self.call(
                "admin:remove_seat",
                "DELETE",
                f"/api/admin/tables/{table}/seats/{human}",
                admin=True,
            )
        await self.call(
            "admin:remove_seat:empty", "DELETE", f"/api/admin/tables/{table}/seats/8", admin=True
        )
        await self.call(
            "admin:pause:missing", "POST", "/api/admin/tables/nope/pause", admin=True, body={}
        )
        await self.call("admin:actions", "GET", "/api/admin/actions", admin=True)
        await self.call("admin:audit:after", "GET", "/api/admin/audit", admin=True)


# --------------------------------------------------------------------------- choosing


def choose(game: str, view: Json, rng: random.Random) -> Json:
    """An action fitting one of ``legal``, with a light preference per game so that the
    interesting moments happen (bets rather than folds, splits when offered, ...)."""
    legal = view["legal"]
    kinds = {t["kind"]: t for t in legal}
    prefer: list[str] = []
    me = next((s for s in view["seats"] if s["seat"] == view["you"]), {})
    cards = me.get("hands", [{}])[0].get("cards", []) if me.get("hands") else []
    if game == "trianta-ena":
        prefer = ["bet", "accept_bank"] + (
            ["hit"] if len(cards) < 4 and rng.random() < 0.5 else ["stand"]
        )
    elif game == "greek-31":
        if view["phase"] == "dealer":
            prefer = ["draw"] if view["dealer_cards"] < 2 else ["stand"]
        else:
            prefer = ["stake", "draw"] if len(cards) < 2 else ["stand"]
    elif game == "vingt-un":
        total = (me.get("hands") or [{}])[view.get("turn_hand") or 0].get("total") or 0
        prefer = ["split", "stake", "double" if rng.random() < 0.5 else "no_double"]
        prefer += ["draw"] if total < 15 else ["stand"]
    elif game == "trente-et-quarante":
        mine = next((b for b in view["bettors"] if b["seat"] == view["you"]), {})
        if view["phase"] == "un_apres":
            prefer = ["prison"]
        elif not mine.get("stakes") and "stake" in kinds:
            prefer = ["stake"]
        elif "move_prison" in kinds and rng.random() < 0.5:
            prefer = ["move_prison"]
        elif "insure" in kinds and rng.random() < 0.3:
            prefer = ["insure"]
        else:
            prefer = ["done"]
    elif game == "en-og-tredive":
        prefer = ["cut", "deal", "knock", "draw", "discard"]
    template = next((kinds[k] for k in prefer if k in kinds), None) or rng.choice(legal)
    if game == "trente-et-quarante" and template["kind"] == "stake":
        stakes = [t for t in legal if t["kind"] == "stake"]
        template = rng.choice(stakes)
    return fill(template, rng)


def fill(template: Json, rng: random.Random) -> Json:
    action: Json = {"kind": template["kind"]}
    for name, spec in template["params"].items():
        if "one_of" in spec:
            action[name] = rng.choice(spec["one_of"])
        elif "subset_of" in spec:
            count = max(spec["min"], min(1, spec["max"]))
            action[name] = rng.sample(list(spec["subset_of"]), count)
        else:
            low, high = spec["min"], spec["max"]
            action[name] = rng.randint(low, min(high, low + 10))
    return action


# --------------------------------------------------------------------------- main


async def watch(base: str, table_id: str) -> None:
    sock = Sock("watch", "ws" + base.rstrip("/")[4:])
    await sock.open(table_id)
    while True:
        try:
            message = await sock.next(timeout=3600)
        except Closed:
            print("closed:", json.dumps(sock.close))
            return
        print(json.dumps(message), flush=True)


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="capture", choices=["capture", "watch"])
    parser.add_argument("table_id", nargs="?")
    parser.add_argument("--base", default="http://127.0.0.1:8177")
    parser.add_argument("--admin", default="docs-admin")
    parser.add_argument("--out", default="/tmp/t31-capture.json")
    args = parser.parse_args()
    if args.command == "watch":
        await watch(args.base, args.table_id)
        return 0
    capture = Capture(args.base, args.admin)
    out = await capture.run()
    with open(args.out, "w") as fh:
        json.dump(out, fh, indent=1, default=str)
    for game, record in out["games"].items():
        print(f"{game}: {len(record['hands'])} hands; states seen: {sorted(record['seen'])}")
        print(f"  errors while playing: {[e['code'] for e in record['errors']]}")
    print(f"socket captures: {sorted(out['socket'])}")
    print(f"failures: {out.get('failures')}")
    print(f"closes: {json.dumps(out['closes'], default=str)[:2000]}")
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
