"""Identity against outsiders, through the real app (docs/protocol.md §3, §4.3): sign-ups and
recovery-code tries limited per address, names compared by their look, recovery codes used
once, and sign-in tokens that expire and can be revoked device by device."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import select, update

from app.api.deps import COOKIE
from app.api.routes.session import label_words
from app.api.signup_limits import AddressBuckets
from app.db.devices import aware, hash_token
from app.db.models import DeviceToken
from app.i18n.messages import localize
from tests.client import Player
from tests.conftest import LiveServer, make_settings
from tests.db.test_migrations import _alembic


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def detail(response: httpx.Response) -> str:
    body = response.json()
    found = body.get("detail")
    if isinstance(found, list):
        return " | ".join(str(d.get("msg", "")) for d in found)
    return str(found)


async def sign_up(server: LiveServer, name: str, **headers: str) -> httpx.Response:
    """A new client (no cookie jar carried over) asking for a player."""
    async with httpx.AsyncClient(base_url=server.base_url, timeout=30) as http:
        return await http.post("/api/session", json={"name": name}, headers=headers)


@pytest.fixture
async def limited(database_url: str) -> AsyncIterator[LiveServer]:
    """The real app with a small sign-up limit: 3 at once, then 10 an hour."""
    server = LiveServer(make_settings(database_url, signups_per_hour=10, signup_burst=3))
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


# --------------------------------------------------------------------------- sign-up limits


async def test_an_address_makes_its_burst_of_players_then_is_told_when_to_come_back(
    limited: LiveServer,
) -> None:
    made = [await sign_up(limited, f"Player {i}") for i in range(3)]
    assert [r.status_code for r in made] == [200, 200, 200]

    refused = await sign_up(limited, "Player 4")
    assert refused.status_code == 429, refused.text
    assert "too many new players from your address" in detail(refused)
    # 10 an hour: the next token is 6 minutes away
    assert 300 <= int(refused.headers["retry-after"]) <= 360
    assert refused.cookies.get(COOKIE) is None

    # nobody was made by the refused call: the host's audit counts 3 starting bankrolls
    async with httpx.AsyncClient(timeout=30, base_url=limited.base_url) as http:
        audit = await http.get("/api/admin/audit", headers=bearer(limited.settings.admin_token))
    assert audit.json()["granted"] == limited.settings.house_float + 3 * 1000

    # a returning player (bearer or cookie) is not a sign-up and is never limited
    token = made[0].json()["token"]
    async with httpx.AsyncClient(timeout=30, base_url=limited.base_url) as http:
        for _ in range(5):
            again = await http.post(
                "/api/session", json={"name": "Player 0"}, headers=bearer(token)
            )
            assert again.status_code == 200 and again.json()["token"] == token
        http.cookies.set(COOKIE, token)
        same_site = {"origin": limited.base_url}
        cookie_only = await http.post("/api/session", json={"name": "Whoever"}, headers=same_site)
        assert cookie_only.status_code == 200, cookie_only.text


async def test_forwarded_addresses_count_only_behind_a_trusted_proxy(database_url: str) -> None:
    """Without TRUST_PROXY_HEADERS a client cannot dodge the limit by writing its own
    X-Forwarded-For; with it, the proxy's last hop is the address, whatever came before."""
    untrusted = LiveServer(make_settings(database_url, signups_per_hour=10, signup_burst=2))
    await untrusted.start()
    try:
        answers = [
            (await sign_up(untrusted, f"Spoof {i}", **{"x-forwarded-for": f"10.0.0.{i}"}))
            for i in range(3)
        ]
    finally:
        await untrusted.stop()
    assert [r.status_code for r in answers] == [200, 200, 429]

    proxied = LiveServer(
        make_settings(database_url, signups_per_hour=10, signup_burst=2, trust_proxy_headers=True)
    )
    await proxied.start()
    try:
        # the client writes a new first hop each time; the proxy's last hop stays 203.0.113.9
        same = [
            await sign_up(proxied, f"Same {i}", **{"x-forwarded-for": f"1.2.3.{i}, 203.0.113.9"})
            for i in range(3)
        ]
        other = await sign_up(proxied, "Other", **{"x-forwarded-for": "198.51.100.7"})
    finally:
        await proxied.stop()
    assert [r.status_code for r in same] == [200, 200, 429]
    assert other.status_code == 200, other.text


async def test_a_wrong_join_code_costs_a_try_too(database_url: str) -> None:
    server = LiveServer(
        make_settings(database_url, signups_per_hour=10, signup_burst=2, join_code="sesame")
    )
    await server.start()
    try:
        async with httpx.AsyncClient(timeout=30, base_url=server.base_url) as http:
            codes = ["guess-1", "guess-2", "sesame"]
            answers = [
                await http.post("/api/session", json={"name": "Ada", "join_code": code})
                for code in codes
            ]
    finally:
        await server.stop()
    assert [r.status_code for r in answers] == [403, 403, 429]


async def test_recovery_codes_cannot_be_guessed_at_speed(limited: LiveServer) -> None:
    async with httpx.AsyncClient(timeout=30, base_url=limited.base_url) as http:
        answers = [
            await http.post("/api/session/recover", json={"code": f"guess-{i}"}) for i in range(4)
        ]
    assert [r.status_code for r in answers] == [404, 404, 404, 429]
    assert "too many recovery-code attempts" in detail(answers[-1])
    assert int(answers[-1].headers["retry-after"]) > 0
    # the sign-up bucket is its own: this address may still make a player
    assert (await sign_up(limited, "Still Welcome")).status_code == 200


def test_the_buckets_stay_bounded_and_refill() -> None:
    now = [0.0]
    buckets = AddressBuckets(10, 2, max_addresses=100, clock=lambda: now[0])
    for i in range(10_000):
        assert buckets.take(f"10.{i // 256}.{i % 256}.1") == 0
    assert len(buckets) == 100
    assert buckets.take("a") == 0 and buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(360)  # 10 an hour: one every 6 minutes
    now[0] += 180
    assert buckets.take("a") == pytest.approx(180)
    now[0] += 180
    assert buckets.take("a") == 0
    assert AddressBuckets(0, 1).take("x") == 0  # 0 an hour: no limit


# --------------------------------------------------------------------------- names


async def test_a_name_that_looks_like_a_taken_one_is_refused(live: LiveServer) -> None:
    assert (await sign_up(live, "Ada")).status_code == 200
    assert (await sign_up(live, "Bill")).status_code == 200
    for same in (
        "Ada",  # the same
        " ADA ",  # another case
        "Ａｄａ",  # fullwidth
        "\u0410\u0501\u0430",  # all Cyrillic: А ԁ а
        "ada",
        "BiII",  # capital i for small L
        "Bi1l",
    ):
        response = await sign_up(live, same)
        assert response.status_code == 409, (same, response.text)
        assert detail(response) == "that name is taken: choose another"
        assert response.cookies.get(COOKIE) is None
    for other in ("Adam", "Ada Lovelace", "Билл"):
        assert (await sign_up(live, other)).status_code == 200, other


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("A\u0434a", "alphabets (Cyrillic and Latin)"),  # a Latin name with a Cyrillic д
        ("\u0410da", "alphabets (Cyrillic and Latin)"),  # Cyrillic А, Latin da
        ("\u0391da", "alphabets (Greek and Latin)"),
        ("Ada\u3164", "invisible"),  # HANGUL FILLER: a letter that shows nothing
        ("\u3164", "invisible"),
        ("\uffa0Ada", "invisible"),  # HALFWIDTH HANGUL FILLER
        ("Ada\u115f", "invisible"),
        ("A\u2800da", "invisible"),  # BRAILLE PATTERN BLANK
        ("Ada\u200d", "invisible"),  # ZERO WIDTH JOINER
        ("\u202eadA", "invisible"),  # RIGHT-TO-LEFT OVERRIDE
        ("Ada\u2066x", "invisible"),  # LEFT-TO-RIGHT ISOLATE
        ("Ada\ufe0f", "invisible"),  # VARIATION SELECTOR-16
        ("Ada\ue000", "invisible"),  # private use
        ("Ada\U000e0041", "invisible"),  # TAG LATIN CAPITAL LETTER A
        ("Z\u0336\u0337\u0338alg\u0300\u0301\u0302o", "piles up"),
        ("\u0301Ada", "must follow a letter"),
        ("<script>alert(1)</script>", "letters, digits"),
        ("<b>Ada</b>", "letters, digits"),
        ("\U0001f600" * 20, "letters, digits"),  # an emoji flood
        ("Ada \U0001f0cf", "letters, digits"),
        ("Ada (bot)", "kept for the server's bots"),
        ("Ada\uff08BOT\uff09", "kept for the server's bots"),  # fullwidth brackets
        ("x" * 25, "at most 24"),
        ("Ada\u0663", "letters, digits (0-9)"),  # ARABIC-INDIC DIGIT THREE
    ],
)
async def test_hostile_names_are_refused_in_words(live: LiveServer, name: str, says: str) -> None:
    response = await sign_up(live, name)
    assert response.status_code == 422, (name, response.text)
    assert says in detail(response), detail(response)
    assert response.cookies.get(COOKIE) is None


async def test_a_huge_name_is_refused_in_words(live: LiveServer) -> None:
    for name in ("x" * 10_000, "\u202e" * 2_000, "\U0001f600" * 1_000):
        response = await sign_up(live, name)
        assert response.status_code == 422, response.text[:200]
        assert "at most 200 characters" in detail(response)
    # larger still, the body is refused before it is read (MAX_BODY_BYTES)
    response = await sign_up(live, "\u202e" * 10_000)
    assert response.status_code == 413 and "too large" in detail(response)


async def test_names_are_stored_normalised(live: LiveServer) -> None:
    for typed, stored in (
        ("  Ada   Lovelace ", "Ada Lovelace"),
        ("Ｚｏë", "Zoë"),
        ("O\u2019Neil", "O'Neil"),
        ("Jose\u0301", "Jos\u00e9"),  # composed
        ("\u674e\u96f7", "\u674e\u96f7"),  # 李雷
        ("\u5c71\u7530 Taro", "\u5c71\u7530 Taro"),  # Japanese and Latin go together
        ("\u0e17\u0e35\u0e48\u0e14\u0e35", "\u0e17\u0e35\u0e48\u0e14\u0e35"),  # Thai, 2 marks
        ("\u03a3\u03bf\u03c6\u03af\u03b1", "\u03a3\u03bf\u03c6\u03af\u03b1"),  # Σοφία
    ):
        response = await sign_up(live, typed)
        assert response.status_code == 200, (typed, response.text)
        assert response.json()["name"] == stored


async def test_bots_are_players_of_the_pool_and_a_person_may_be_called_as_one_is(
    live: LiveServer,
) -> None:
    """A bot is a player of the bots' pool (app/runtime/bot_pool.py), at one table at a time:
    the bots of two tables are two of them, each named with the bot marker, which no person's
    name may carry; a person may be called as a bot is, less the marker."""
    opener = await Player.join(live, "Opener")
    names = []
    for _ in range(2):
        table_id = await opener.open_table("trianta-ena", turn_seconds=5)
        added = await opener.http.post(f"/api/tables/{table_id}/bots", json={})
        assert added.status_code == 201, added.text
        table = (await opener.http.get(f"/api/tables/{table_id}")).json()
        names += [s["name"] for s in table["seats"] if s and s.get("name")]
    await opener.close()
    assert len(names) == 2 and names[0] != names[1]
    assert all(name.endswith("(bot)") for name in names)
    # a person may be called as a bot is, less the marker: the marker tells them apart
    assert (await sign_up(live, names[0].removesuffix(" (bot)"))).status_code == 200


async def test_players_from_before_name_keys_keep_their_names_and_block_look_alikes(
    tmp_path: Path,
) -> None:
    """Revision 0004 gives every existing player its key; players who already share one (two
    Adas, made before the rule) do not stop it, and their key is taken for newcomers."""
    path = tmp_path / "old.db"
    url = f"sqlite+aiosqlite:///{path}"
    await asyncio.to_thread(_alembic, url, "upgrade", "0003")
    old = [
        ("p1", "Ada", 0),
        ("p2", "ADA", 0),
        ("p3", "\u0410\u0501\u0430", 0),
        ("p4", "Ada (bot)", 1),
    ]
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO players (id, name, token_hash, is_bot, created_at)"
            " VALUES (?, ?, ?, ?, '2026-01-01 00:00:00')",
            [(pid, name, f"hash-{pid}", bot) for pid, name, bot in old],
        )
    await asyncio.to_thread(_alembic, url, "upgrade", "head")
    with sqlite3.connect(path) as db:
        keys = dict(db.execute("SELECT id, name_key FROM players").fetchall())
    # the key drops marks, spaces and punctuation: "Ada (bot)" is "adabot"
    assert keys == {"p1": "ada", "p2": "ada", "p3": "ada", "p4": "adabot"}

    server = LiveServer(make_settings(url))
    await server.start()
    try:
        assert (await sign_up(server, "Ada")).status_code == 409
        assert (await sign_up(server, "Basil")).status_code == 200
    finally:
        await server.stop()


# --------------------------------------------------------------------------- recovery codes


async def test_a_recovery_code_works_once(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    code = (await ada.http.post("/api/me/recovery")).json()["code"]
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as laptop:
        first = await laptop.post("/api/session/recover", json={"code": code})
        assert first.status_code == 200 and first.json()["player_id"] == ada.player_id
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as thief:
        again = await thief.post("/api/session/recover", json={"code": code})
        assert again.status_code == 404, again.text
        assert "works once" in detail(again)
        assert again.cookies.get(COOKIE) is None
        assert (await thief.get("/api/me")).status_code == 401
    # the player makes another, which works (once) too
    fresh = (await ada.http.post("/api/me/recovery")).json()["code"]
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"origin": live.base_url}
    ) as phone:
        assert (await phone.post("/api/session/recover", json={"code": fresh})).status_code == 200
        assert (await phone.post("/api/session/recover", json={"code": fresh})).status_code == 404
    await ada.close()


# --------------------------------------------------------------------------- devices


async def test_tokens_from_before_devices_still_sign_in_and_can_be_signed_out(
    tmp_path: Path,
) -> None:
    """Revision 0005 moves each person's first token into the device table: the tokens people
    hold keep working (rows that point at players, such as accounts, do not stop it), and are
    listed and revocable like any other."""
    path = tmp_path / "old.db"
    url = f"sqlite+aiosqlite:///{path}"
    await asyncio.to_thread(_alembic, url, "upgrade", "0003")
    with sqlite3.connect(path) as db:
        db.executemany(
            "INSERT INTO players (id, name, token_hash, is_bot, created_at)"
            " VALUES (?, ?, ?, ?, '2026-01-01 00:00:00')",
            [("p1", "Ada", hash_token("ada-laptop"), 0), ("p2", "Ada (bot)", "bot-hash", 1)],
        )
        db.execute(
            "INSERT INTO device_tokens (token_hash, player_id, created_at)"
            " VALUES (?, 'p1', '2026-02-01 00:00:00')",
            (hash_token("ada-phone"),),
        )
        db.execute(
            "INSERT INTO accounts (id, kind, player_id, balance) VALUES"
            " ('bankroll:p1', 'bankroll', 'p1', 0), ('bankroll:p2', 'bankroll', 'p2', 0)"
        )
    await asyncio.to_thread(_alembic, url, "upgrade", "head")
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM device_tokens").fetchone() == (2,)  # no bot's

    server = LiveServer(make_settings(url))
    await server.start()
    try:
        async with httpx.AsyncClient(timeout=30, base_url=server.base_url) as http:
            laptop, phone = bearer("ada-laptop"), bearer("ada-phone")
            assert (await http.get("/api/me", headers=laptop)).json()["name"] == "Ada"
            assert (await http.get("/api/me", headers=phone)).json()["name"] == "Ada"
            listed = (await http.get("/api/me/devices", headers=laptop)).json()["devices"]
            assert len(listed) == 2
            other = next(d for d in listed if not d["this_device"])
            assert other["created_at"].startswith("2026-02-01")
            gone = await http.delete(f"/api/me/devices/{other['device_id']}", headers=laptop)
            assert gone.status_code == 200, gone.text
            assert (await http.get("/api/me", headers=phone)).status_code == 401
            assert (await http.get("/api/me", headers=laptop)).status_code == 200
    finally:
        await server.stop()


async def recovered_device(server: LiveServer, player: Player) -> str:
    """Another device of ``player``'s, by a recovery code: its token."""
    code = (await player.http.post("/api/me/recovery")).json()["code"]
    async with httpx.AsyncClient(timeout=30, base_url=server.base_url) as device:
        answer = await device.post(
            "/api/session/recover", json={"code": code}, headers={"user-agent": UA_PHONE}
        )
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


UA_PHONE = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/126.0 Mobile Safari/537.36"
)


async def socket_answer(server: LiveServer, table_id: str, token: str) -> dict[str, Any]:
    """The first message a new table socket gets with ``token``."""
    async with websockets.connect(f"{server.ws_url}/ws/tables/{table_id}?token={token}") as ws:
        return dict(json.loads(await asyncio.wait_for(ws.recv(), 30)))


async def test_a_signed_out_device_is_refused_at_once_by_rest_and_new_sockets(
    live: LiveServer,
) -> None:
    ada = await Player.join(live, "Ada")
    phone = await recovered_device(live, ada)
    table_id = await ada.open_table("trianta-ena", turn_seconds=5)
    assert (await socket_answer(live, table_id, phone))["type"] == "state"

    listed = (await ada.http.get("/api/me/devices")).json()["devices"]
    assert sorted(d["this_device"] for d in listed) == [False, True]
    mine = next(d for d in listed if d["this_device"])
    theirs = next(d for d in listed if not d["this_device"])
    assert theirs["label"] == theirs["label_words"] == "Chrome on Android"
    assert mine["label"] == mine["label_words"] == "python-httpx/" + httpx.__version__
    # the label in the reader's language, the browser and the system by their own names
    french = (await ada.http.get("/api/me/devices", headers={"accept-language": "fr"})).json()
    worded = next(d for d in french["devices"] if not d["this_device"])
    assert worded["label"] == "Chrome on Android"
    assert worded["label_words"] == localize(label_words("Chrome on Android"), "fr")
    assert "Chrome" in worded["label_words"] and " on " not in worded["label_words"]
    assert set(theirs) == {
        "device_id",
        "label",
        "label_words",
        "created_at",
        "last_used_at",
        "expires_at",
        "this_device",
    }

    gone = await ada.http.delete(f"/api/me/devices/{theirs['device_id']}")
    assert gone.status_code == 200 and gone.json() == {"signed_out": 1}
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        refused = await http.get("/api/me", headers=bearer(phone))
        assert refused.status_code == 401
        assert (await http.get("/api/me/devices", headers=bearer(phone))).status_code == 401
    answer = await socket_answer(live, table_id, phone)
    assert answer["type"] == "error" and answer["code"] == "unauthorized", answer
    # the device that signed the other out goes on; the same id cannot be signed out twice
    assert (await ada.http.get("/api/me")).status_code == 200
    again = await ada.http.delete(f"/api/me/devices/{theirs['device_id']}")
    assert again.status_code == 404
    await ada.close()


async def test_nobody_signs_out_another_players_device(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    eve = await Player.join(live, "Eve")
    adas = (await ada.http.get("/api/me/devices")).json()["devices"][0]["device_id"]
    assert (await eve.http.delete(f"/api/me/devices/{adas}")).status_code == 404
    assert (await ada.http.get("/api/me")).status_code == 200
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as anonymous:
        assert (await anonymous.delete(f"/api/me/devices/{adas}")).status_code == 401
    await ada.close()
    await eve.close()


async def test_signing_out_this_device_clears_its_cookie_and_its_token(live: LiveServer) -> None:
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"origin": live.base_url}
    ) as browser:
        made = await browser.post("/api/session", json={"name": "Ada"})
        token = made.json()["token"]
        assert made.cookies.get(COOKIE) == token
        out = await browser.post("/api/me/signout")
        assert out.status_code == 200 and out.json() == {"signed_out": 1}
        cleared = out.headers["set-cookie"].lower()
        assert cleared.startswith(f"{COOKIE}=") and "max-age=0" in cleared
        assert browser.cookies.get(COOKIE) is None
        assert (await browser.get("/api/me")).status_code == 401
        assert (await browser.get("/api/me", headers=bearer(token))).status_code == 401
        # signing out again is no error
        assert (await browser.post("/api/me/signout")).json() == {"signed_out": 0}
        # and the name is still Ada's: a new sign-up may not take it
        assert (await browser.post("/api/session", json={"name": "Ada"})).status_code == 409


async def test_signing_out_everywhere_else_keeps_only_this_device(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    others = [await recovered_device(live, ada) for _ in range(3)]
    pending = (await ada.http.post("/api/me/recovery")).json()["code"]
    out = await ada.http.post("/api/me/signout-others")
    assert out.status_code == 200 and out.json() == {"signed_out": 3}
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        for token in others:
            assert (await http.get("/api/me", headers=bearer(token))).status_code == 401
        # the unused recovery code was another way in: retired too
        late = await http.post("/api/session/recover", json={"code": pending})
        assert late.status_code == 404
    listed = (await ada.http.get("/api/me/devices")).json()["devices"]
    assert len(listed) == 1 and listed[0]["this_device"]
    await ada.close()


async def set_device_times(server: LiveServer, token: str, **times: datetime) -> None:
    async with server.services.sessionmaker() as session, session.begin():
        await session.execute(
            update(DeviceToken).where(DeviceToken.token_hash == hash_token(token)).values(**times)
        )


async def device_row(server: LiveServer, token: str) -> DeviceToken:
    async with server.services.sessionmaker() as session:
        row = await session.scalar(
            select(DeviceToken).where(DeviceToken.token_hash == hash_token(token))
        )
    assert row is not None
    return row


async def test_a_token_expires_unused_and_lives_on_while_used(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    now = datetime.now(UTC)
    days = live.settings.token_days

    # used within the hour: nothing is written
    await set_device_times(
        live, ada.token, last_used_at=now - timedelta(minutes=30), expires_at=now + timedelta(1)
    )
    assert (await ada.http.get("/api/me")).status_code == 200
    await live.services.writer.flush()
    row = await device_row(live, ada.token)
    assert aware(row.expires_at) < now + timedelta(days=2)

    # last used over an hour ago: this use is written, and the token lives TOKEN_DAYS more
    await set_device_times(
        live, ada.token, last_used_at=now - timedelta(hours=2), expires_at=now + timedelta(1)
    )
    assert (await ada.http.get("/api/me")).status_code == 200
    await live.services.writer.flush()
    row = await device_row(live, ada.token)
    assert aware(row.last_used_at) >= now
    assert aware(row.expires_at) >= now + timedelta(days=days - 1)

    # unused until its time ran out: refused
    await set_device_times(
        live, ada.token, last_used_at=now - timedelta(days=days), expires_at=now - timedelta(1)
    )
    assert (await ada.http.get("/api/me")).status_code == 401
    await ada.close()


async def test_tokens_are_stored_as_hashes_only_and_the_cookie_slides(live: LiveServer) -> None:
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"origin": live.base_url}
    ) as browser:
        token = (await browser.post("/api/session", json={"name": "Ada"})).json()["token"]
        me = await browser.get("/api/me")
        assert me.status_code == 200
        refreshed = me.headers["set-cookie"].lower()
        assert f"max-age={int(live.settings.token_days * 86400)}" in refreshed
    async with live.services.sessionmaker() as session:
        rows = (await session.execute(select(DeviceToken))).scalars().all()
        stored = [str(getattr(r, c.key)) for r in rows for c in DeviceToken.__table__.columns]
    assert len(rows) == 1 and rows[0].token_hash == hash_token(token)
    assert not any(token in value for value in stored)


@pytest.mark.parametrize(
    "name", ["\u3164", "Friday\u3164", "Fri\u200bday", "\u202eyadirF", "Friday\ufe0f", "\uffa0"]
)
async def test_table_names_hold_nothing_invisible_either(live: LiveServer, name: str) -> None:
    opener = await Player.join(live, "Opener")
    response = await opener.http.post(
        "/api/tables", json={"game": "trianta-ena", "name": name, "options": {}}
    )
    assert response.status_code == 422, (name, response.text)
    assert "invisible" in detail(response), detail(response)
    fine = await opener.http.post(
        "/api/tables", json={"game": "trianta-ena", "name": "Friday night", "options": {}}
    )
    assert fine.status_code == 201 and fine.json()["name"] == "Friday night"


async def test_a_socket_is_a_use_of_the_device_too(live: LiveServer) -> None:
    """A client that only plays over its socket keeps its token alive as a page does."""
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("trianta-ena")
    now = datetime.now(UTC)
    await set_device_times(
        live, ada.token, last_used_at=now - timedelta(hours=2), expires_at=now + timedelta(1)
    )
    url = f"{live.ws_url}/ws/tables/{table_id}?token={ada.token}"
    async with websockets.connect(url) as ws:
        assert json.loads(await ws.recv())["type"] == "state"
    await live.services.writer.flush()
    row = await device_row(live, ada.token)
    assert aware(row.last_used_at) >= now
    assert aware(row.expires_at) >= now + timedelta(days=live.settings.token_days - 1)
    await ada.close()


async def test_a_private_table_socket_answers_as_no_table_does(live: LiveServer) -> None:
    """Without its invite, a private table's socket says what a table never opened says."""
    opener = await Player.join(live, "Opener")
    made = await opener.http.post(
        "/api/tables", json={"game": "trianta-ena", "options": {}, "private": True}
    )
    private_id = made.json()["table_id"]
    stranger = await Player.join(live, "Stranger")
    answers = []
    for table_id in (private_id, "0" * 12):
        url = f"{live.ws_url}/ws/tables/{table_id}?token={stranger.token}"
        async with websockets.connect(url) as ws:
            answers.append((json.loads(await ws.recv()), ws.close_code or None))
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()
            answers[-1] = (answers[-1][0], ws.close_code, ws.close_reason)
    assert answers[0] == answers[1], answers
    assert answers[0][0]["code"] == "no_such_table"
    await opener.close()
    await stranger.close()
