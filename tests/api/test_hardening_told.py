"""Every number a player sees is committed, through the real app: a signed-out
device loses its open sockets, numbers JSON cannot carry are refused in words (never a 500),
``/metrics`` is the host's, and a private table looks like a missing one on the socket and
in the metrics."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from typing import Any

import httpx
import pytest
import websockets

from app.api.signed_sockets import SIGNED_OUT_CODE
from tests.api.test_identity_hardening import recovered_device
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}


async def closed_with(ws: Any) -> tuple[int | None, str]:
    """Read ``ws`` until it closes: its close code and reason."""
    with pytest.raises(websockets.ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), 30)
    return ws.close_code, ws.close_reason


async def next_chat(ws: Any) -> dict[str, Any]:
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] == "chat":
            return dict(message["message"])


# --------------------------------------------------------------------------- 1. signed out


@pytest.mark.parametrize("how", ["that_device", "everywhere_else", "itself"])
async def test_signing_a_device_out_closes_its_open_sockets(live: LiveServer, how: str) -> None:
    ada = await Player.join(live, "Ada")
    phone_token = await recovered_device(live, ada)
    table_id = await ada.open_table("trianta-ena", turn_seconds=5)
    url = f"{live.ws_url}/ws/tables/{table_id}?token="
    async with (
        websockets.connect(url + phone_token) as phone,
        websockets.connect(url + ada.token) as laptop,
    ):
        for ws in (phone, laptop):
            assert json.loads(await asyncio.wait_for(ws.recv(), 30))["type"] == "state"
        await phone.send(json.dumps({"type": "chat", "text": "from the phone"}))
        assert (await next_chat(laptop))["text"] == "from the phone"

        async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
            if how == "that_device":
                devices = (await ada.http.get("/api/me/devices")).json()["devices"]
                other = next(d["device_id"] for d in devices if not d["this_device"])
                done = await ada.http.delete(f"/api/me/devices/{other}")
            elif how == "everywhere_else":
                done = await ada.http.post("/api/me/signout-others")
            else:
                done = await http.post(
                    "/api/me/signout", headers={"authorization": f"Bearer {phone_token}"}
                )
        assert done.status_code == 200 and done.json()["signed_out"] == 1, done.text
        # a frame sent once the sign-out has answered is never acted on
        with_socket_gone = False
        try:
            await phone.send(json.dumps({"type": "chat", "text": "after signing out"}))
        except websockets.ConnectionClosed:
            with_socket_gone = True
        code, reason = await closed_with(phone)
        assert code == SIGNED_OUT_CODE and "signed out" in reason, (code, reason)
        # the laptop's socket goes on; its own chat comes, the phone's late one never did
        await laptop.send(json.dumps({"type": "chat", "text": "from the laptop"}))
        assert (await next_chat(laptop))["text"] == "from the laptop", with_socket_gone
    await ada.close()


async def test_signing_out_closes_no_other_players_socket(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    eve = await Player.join(live, "Eve")
    table_id = await ada.open_table("trianta-ena", turn_seconds=5)
    await eve.connect(table_id)
    eve_devices = (await eve.http.get("/api/me/devices")).json()["devices"]
    # Ada names Eve's device: not hers, nothing happens
    refused = await ada.http.delete(f"/api/me/devices/{eve_devices[0]['device_id']}")
    assert refused.status_code == 404
    assert (await ada.http.post("/api/me/signout-others")).json() == {"signed_out": 0}
    await eve.send({"type": "ping"})
    await eve.next_of("pong")
    await ada.close()
    await eve.close()


# --------------------------------------------------------------------------- 2. NaN, 1e400

NOT_NUMBERS = ["1e400", "-1e400", "NaN", "Infinity", "-Infinity"]


@pytest.mark.parametrize("number", NOT_NUMBERS)
async def test_numbers_json_cannot_carry_are_refused_in_words(
    live: LiveServer, number: str, caplog: pytest.LogCaptureFixture
) -> None:
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("trianta-ena", turn_seconds=5)
    json_type = {"content-type": "application/json"}
    bodies = [
        ("/api/tables", f'{{"game": "trianta-ena", "options": {{"turn_seconds": {number}}}}}', {}),
        ("/api/tables", f'{{"game": {number}}}', {}),
        ("/api/session", f'{{"name": {number}}}', {"anonymous": "1"}),
        ("/api/session/recover", f'{{"code": {number}}}', {"anonymous": "1"}),
        ("/api/admin/house", f'{{"amount": {number}}}', HOST),
        (f"/api/admin/tables/{table_id}/pause", f'{{"reason": {number}}}', HOST),
        (f"/api/admin/players/{ada.player_id}/chips", f'{{"amount": {number}}}', HOST),
    ]
    with caplog.at_level(logging.ERROR):
        async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as http:
            for path, body, headers in bodies:
                if "anonymous" in headers:
                    headers = {}
                elif not headers:
                    headers = {"authorization": f"Bearer {ada.token}"}
                answer = await http.post(path, content=body, headers={**json_type, **headers})
                assert answer.status_code == 422, (path, body, answer.status_code, answer.text)
                said = answer.json()["detail"]
                assert "finite" in json.dumps(said), (path, said)
                assert "input" not in json.dumps(said)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    await ada.close()


async def test_a_validation_error_never_echoes_what_was_sent(live: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as http:
        answer = await http.post("/api/session", json={"name": ["a secret list"]})
    assert answer.status_code == 422, answer.text
    assert "a secret list" not in answer.text
    assert all(set(p) == {"loc", "msg", "type"} for p in answer.json()["detail"])


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "sit", "seat": 1, "buy_in": 1e400}',
        '{"type": "top_up", "amount": NaN}',
        '{"type": "act", "id": "a1", "version": Infinity, "action": {"kind": "bet"}}',
        '{"type": "resync", "version": -Infinity}',
    ],
)
async def test_a_socket_frame_with_such_a_number_is_a_bad_message(
    live: LiveServer, frame: str
) -> None:
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("trianta-ena", turn_seconds=5)
    await ada.connect(table_id)
    await ada.send(frame)
    error = await ada.next_of("error")
    assert error["code"] == "bad_message"
    assert "finite" in error["message"] and "1e400" in error["message"]
    await ada.send({"type": "ping"})  # the socket goes on
    await ada.next_of("pong")
    await ada.close()


# --------------------------------------------------------------------------- 3. /metrics


async def test_metrics_are_the_hosts_only(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as http:
        assert (await http.get("/metrics")).status_code == 403
        player = {"authorization": f"Bearer {ada.token}"}
        assert (await http.get("/metrics", headers=player)).status_code == 403
        wrong = {"authorization": "Bearer not-the-admin-token"}
        assert (await http.get("/metrics", headers=wrong)).status_code == 403
        scraped = await http.get("/metrics", headers=HOST)
    assert scraped.status_code == 200 and "table31_connections" in scraped.text
    await ada.close()


async def refused(server: LiveServer, table_id: str, query: str) -> tuple[Any, ...]:
    """What a socket to ``table_id`` answers before it closes: message, code and reason."""
    async with websockets.connect(f"{server.ws_url}/ws/tables/{table_id}{query}") as ws:
        first = json.loads(await asyncio.wait_for(ws.recv(), 30))
        code, reason = await closed_with(ws)
    return first, code, reason


async def rejected(server: LiveServer) -> dict[str, float]:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
        text = (await http.get("/metrics", headers=HOST)).text
    out = {}
    for line in text.splitlines():
        if line.startswith("table31_rejected_connections_total{"):
            reason = line.split('reason="', 1)[1].split('"', 1)[0]
            out[reason] = float(line.rsplit(" ", 1)[1])
    return out


async def test_a_private_table_looks_missing_on_the_socket_and_in_the_metrics(
    live: LiveServer,
) -> None:
    opener = await Player.join(live, "Opener")
    made = await opener.http.post(
        "/api/tables", json={"game": "trianta-ena", "options": {}, "private": True}
    )
    private_id = made.json()["table_id"]
    stranger = await Player.join(live, "Stranger")
    for query in (f"?token={stranger.token}", "", "?token=not-a-token", "?invite=wrong"):
        answers = [await refused(live, t, query) for t in (private_id, "0" * 12)]
        # one answer for both: the same message, close code and reason
        assert answers[0] == answers[1], (query, answers)
        message, code, _ = answers[0]
        assert message["code"] == "no_such_table" and code == 4404
    reasons = await rejected(live)
    assert reasons == {"no_such_table": 8.0}, reasons
    await opener.close()
    await stranger.close()


# --------------------------------------------------------------------------- 4. names


async def sign_up(server: LiveServer, name: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
        return await http.post("/api/session", json={"name": name})


async def test_names_that_pass_for_a_taken_one_are_refused(live: LiveServer) -> None:
    assert (await sign_up(live, "Ada")).status_code == 200
    for same in (
        "\u13aa\u13e7\u13aa",  # ᎪᏧᎪ, all Cherokee
        "Ad\u0250",  # Adɐ, a turned a
        "Ada\u0301",  # a combining acute on the last a
        "Ad\u00e1",  # the same, composed
        "Ada.",
        "Ada_",
        "A.da",
        "A-da",
        "\u0410\u0501\u0430.",  # Аԁа. all Cyrillic, and a full stop
    ):
        answer = await sign_up(live, same)
        assert answer.status_code == 409, (same, answer.text)
        assert answer.json()["detail"] == "that name is taken: choose another"
    for other in ("Γιώργος", "Søren", "Hélène", "Adam", "Ada Lovelace", "Σοφία"):
        assert (await sign_up(live, other)).status_code == 200, other
    # and the accents and letters in them make no second Søren nor Hélène
    for same in ("Soren", "Helene", "HELENE", "S\u00f8ren."):
        assert (await sign_up(live, same)).status_code == 409, same


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("A\u13e7a", "alphabets (Cherokee and Latin)"),
        ("\u0391da", "alphabets (Greek and Latin)"),
        ("\u200b\u200b", "invisible"),
        ("\u200d", "invisible"),
        ("\u0301\u0301", "must follow a letter"),
        ("Ada (bot)", "kept for the server's bots"),
    ],
)
async def test_mixed_scripts_and_invisible_names_are_refused_in_words(
    live: LiveServer, name: str, says: str
) -> None:
    answer = await sign_up(live, name)
    assert answer.status_code == 422, (name, answer.text)
    assert says in json.dumps(answer.json()["detail"], ensure_ascii=False), answer.text


@pytest.mark.parametrize(
    "text", ["\u200b", "\u200b\u200c\u200d", "\u2060\ufeff", " \u3164 ", "\u0301\u0302"]
)
async def test_a_chat_message_of_invisible_characters_only_is_refused(
    live: LiveServer, text: str
) -> None:
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("trianta-ena", turn_seconds=5)
    await ada.connect(table_id)
    await ada.send({"type": "chat", "text": text})
    error = await ada.next_of("error")
    assert "visible text" in error["message"] or "control" in error["message"], error
    await ada.send({"type": "chat", "text": "hello\u200b"})  # visible text: taken
    assert (await ada.next_of("chat"))["message"]["text"] == "hello\u200b"
    await ada.close()


# --------------------------------------------------------------------------- 5. /recover


async def test_a_recovery_link_signs_nobody_in_until_its_button_is_pressed(
    live: LiveServer,
) -> None:
    cleo = await Player.join(live, "Cleo")
    code = (await cleo.http.post("/api/me/recovery")).json()["code"]
    site = {"origin": live.base_url}
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as phone:
        page = await phone.get(f"/recover?code={code}")
        assert page.status_code == 200 and "Sign in as Cleo?" in page.text
        assert 'id="recover-confirm"' in page.text
        # served, not scripted: no script of its own, only every page's catalog of words (data,
        # never run) and its language switch (which reads and posts nothing of the page's form)
        scripts = re.findall(r"<script[^>]*>", page.text)
        assert [re.sub(r' data-url="[^"]*"', "", tag) for tag in scripts] == [
            '<script type="application/json" id="i18n-catalog">',
            '<script type="module" src="/static/js/language-switch.js">',
        ], scripts
        assert page.cookies.get("t31_token") is None
        assert (await phone.get("/api/me")).status_code == 401  # opening it did nothing
        # another site's page cannot post it, nor a post that names no page
        form = {"code": code}
        elsewhere = await phone.post("/recover", data=form, headers={"origin": "https://evil.test"})
        assert elsewhere.status_code == 403
        assert (await phone.post("/recover", data=form)).status_code == 403
        assert (await phone.get("/api/me")).status_code == 401
        # the page's own button: signed in, to the lobby
        pressed = await phone.post("/recover", data=form, headers=site)
        assert pressed.status_code == 303 and pressed.headers["location"] == "/"
        me = await phone.get("/api/me")
        assert me.status_code == 200 and me.json()["player_id"] == cleo.player_id
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as third:
        again = await third.get(f"/recover?code={code}")  # it worked once
        assert again.status_code == 404 and "not valid" in again.text
        assert 'id="recover-form"' in again.text
        late = await third.post("/recover", data={"code": code}, headers=site)
        assert late.status_code == 404 and (await third.get("/api/me")).status_code == 401
    await cleo.close()
