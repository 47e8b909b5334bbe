"""Table chat and reactions through the real app (docs/protocol/socket.md §5.9): players and
spectators write and react, the server names them, text is checked, a flood is refused, the
opener (over the socket) and the host (over REST) mute and remove, and a table's last 100
messages and its mutes reach a connecting client, also after the server restarts on the same
database."""

from __future__ import annotations

import doctest
from typing import Any

import httpx

import app.runtime.chat
from app.db import store
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings

HOST = {"authorization": f"Bearer {ADMIN_TOKEN}"}
KEYS = {"id", "at", "player_id", "name", "seat", "text"}


async def chat(player: Player, text: Any, **extra: Any) -> None:
    await player.send({"type": "chat", "text": text, **extra})


async def error(player: Player) -> dict[str, Any]:
    return await player.next_of("error")


async def chat_line(player: Player) -> dict[str, Any]:
    message: dict[str, Any] = (await player.next_of("chat"))["message"]
    return message


async def quiet(player: Player, kind: str, seconds: float = 0.3) -> None:
    """Nothing of ``kind`` reaches ``player`` within ``seconds``."""
    try:
        got = await player.next_of(kind, timeout=seconds)
    except TimeoutError:
        return
    raise AssertionError(f"{player.name} got {got}")


def test_the_text_rules_examples() -> None:
    assert doctest.testmod(app.runtime.chat, optionflags=doctest.ELLIPSIS).failed == 0


async def test_players_and_spectators_chat_and_react(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    anon = await Player.join(live, "Anon")
    table = await ada.open_table("vingt-un")
    try:
        await ada.connect(table)
        history = await ada.next_of("chat_history")
        assert history["messages"] == [] and history["muted"] == []
        assert history["can_moderate"] is True
        assert history["reactions"]["thumbs_up"] == "\N{THUMBS UP SIGN}"
        await ada.sit(100)
        await ben.connect(table)
        assert (await ben.next_of("chat_history"))["can_moderate"] is False
        await anon.connect(table, token=False)
        await anon.next_of("chat_history")

        # a seated player: the server adds the name, the seat and the time, nothing more
        await chat(ada, "  good luck\n<b>all</b>  ", name="Mallory", player_id=ben.player_id)
        for reader in (ada, ben, anon):
            line = await chat_line(reader)
            assert set(line) == KEYS
            assert line["text"] == "good luck <b>all</b>"
            assert (line["name"], line["player_id"], line["seat"]) == ("Ada", ada.player_id, 0)
        # a spectator writes too; a text of 200 characters without a space is taken whole
        await chat(ben, "x" * 200)
        line = await chat_line(anon)
        assert (line["name"], line["seat"], line["text"]) == ("Ben", None, "x" * 200)
        assert line["id"] == 2
        # a watcher who has not signed in may read, not write
        await chat(anon, "hello")
        assert (await error(anon))["code"] == "unauthorized"

        await ben.send({"type": "react", "reaction": "party"})
        for reader in (ada, anon):
            told = await reader.next_of("reaction")
            assert told["reaction"] == "party" and told["name"] == "Ben" and told["seat"] is None
        await ben.send({"type": "react", "reaction": "<script>"})
        assert (await error(ben))["code"] == "bad_message"
    finally:
        for p in (ada, ben, anon):
            await p.close()


async def test_a_text_out_of_bounds_is_refused_and_changes_nothing(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    table = await ada.open_table("vingt-un")
    try:
        await ada.connect(table)
        await ben.connect(table)
        for text in ("", "   \n\t ", "y" * 201, "ring\x07", "\u202eevil", "nul\x00", 42, None):
            await chat(ada, text)
            refused = await error(ada)
            assert refused["code"] == "bad_message", (text, refused)
        await quiet(ben, "chat")
        await chat(ada, "<img src=x onerror=alert(1)>")
        assert (await chat_line(ben))["text"] == "<img src=x onerror=alert(1)>"
        assert [m["id"] for m in live.services.lobby.get(table).chat.messages] == [1]  # type: ignore[union-attr]
    finally:
        await ada.close()
        await ben.close()


async def test_a_flood_is_refused_and_changes_nothing(database_url: str) -> None:
    """The chat's own budget: 5 at once, then its rate (the socket's is larger). The rate is
    one a quarter of an hour here, so that no time the test takes, however busy the machine,
    refills the budget: at one a second a slow run let a sixth message or the reaction in."""
    live = LiveServer(make_settings(database_url, chat_messages_per_second=1 / 900, chat_burst=5))
    await live.start()
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    try:
        table = await ada.open_table("vingt-un")
        await ada.connect(table)
        await ben.connect(table)
        for n in range(12):
            await chat(ada, f"spam {n}")
        seen = [(await chat_line(ben))["text"] for _ in range(5)]
        assert seen == [f"spam {n}" for n in range(5)]
        await quiet(ben, "chat")
        refusals = [e for e in ada.errors if e["code"] == "rate_limited"]
        assert len(refusals) >= 6 and "slow down" in refusals[0]["message"]
        actor = live.services.lobby.get(table)
        assert actor is not None and len(actor.chat.messages) == 5
        # a reaction draws on the same budget
        await ben.send({"type": "react", "reaction": "clap"})
        await ada.next_of("reaction")
        await ada.send({"type": "react", "reaction": "clap"})
        assert (await error(ada))["code"] == "rate_limited"
    finally:
        await ada.close()
        await ben.close()
        await live.stop()


async def test_the_opener_mutes_unmutes_and_removes_over_the_socket(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")  # the opener
    ben = await Player.join(live, "Ben")
    cy = await Player.join(live, "Cy")
    table = await ada.open_table("greek-31")
    try:
        for p in (ada, ben, cy):
            await p.connect(table)
        await chat(cy, "rude words")
        rude = await chat_line(ada)
        await chat(ben, "hello")
        hello = await chat_line(ada)

        # nobody but the opener
        for message in (
            {"type": "mute", "player_id": cy.player_id},
            {"type": "unmute", "player_id": cy.player_id},
            {"type": "remove_chat", "id": rude["id"]},
        ):
            await ben.send(message)
            assert (await error(ben))["code"] == "not_allowed"
        await ada.send({"type": "mute", "player_id": ada.player_id})
        assert (await error(ada))["code"] == "bad_message"
        await ada.send({"type": "mute", "player_id": "nobody-here"})
        assert (await error(ada))["code"] == "bad_message"

        await ada.send({"type": "mute", "player_id": cy.player_id})
        for p in (ada, ben, cy):
            told = await p.next_of("mutes")
            assert told["muted"] == [{"player_id": cy.player_id, "name": "Cy"}]
        await chat(cy, "still here")
        refused = await error(cy)
        assert refused["code"] == "muted" and "muted" in refused["message"]
        await cy.send({"type": "react", "reaction": "sad"})
        assert (await error(cy))["code"] == "muted"
        await quiet(ben, "chat")

        await ada.send({"type": "remove_chat", "id": rude["id"]})
        for p in (ada, ben, cy):
            assert (await p.next_of("chat_removed"))["id"] == rude["id"]
        await ada.send({"type": "remove_chat", "id": rude["id"]})
        assert (await error(ada))["code"] == "no_such_message"

        # a new client gets what is kept: the removed message is not sent again
        dee = await Player.join(live, "Dee")
        await dee.connect(table)
        history = await dee.next_of("chat_history")
        assert [m["id"] for m in history["messages"]] == [hello["id"]]
        assert history["muted"] == [{"player_id": cy.player_id, "name": "Cy"}]
        await dee.close()

        await ada.send({"type": "unmute", "player_id": cy.player_id})
        assert (await cy.next_of("mutes"))["muted"] == []
        await chat(cy, "sorry")
        assert (await chat_line(ben))["text"] == "sorry"
    finally:
        for p in (ada, ben, cy):
            await p.close()


async def test_the_host_and_the_opener_moderate_over_rest(live: LiveServer) -> None:
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    table = await ada.open_table("trianta-ena")
    base = f"/api/tables/{table}/chat"
    try:
        await ada.connect(table)
        await ben.connect(table)
        await chat(ben, "first")
        first = await chat_line(ada)

        async with httpx.AsyncClient(timeout=30, base_url=live.base_url, headers=HOST) as host:
            kept = (await host.get(base)).json()
            assert kept["can_moderate"] is True and [m["text"] for m in kept["messages"]] == [
                "first"
            ]
            muted = await host.post(f"{base}/mutes", json={"player_id": ben.player_id})
            assert muted.status_code == 200
            assert muted.json()["muted"] == [{"player_id": ben.player_id, "name": "Ben"}]
            assert (await ben.next_of("mutes"))["muted"][0]["name"] == "Ben"
            await chat(ben, "hello?")
            assert (await error(ben))["code"] == "muted"

            unknown = await host.post(f"{base}/mutes", json={"player_id": "nobody"})
            assert unknown.status_code == 409
            gone = await host.delete(f"{base}/messages/999")
            assert gone.status_code == 404
            removed = await host.delete(f"{base}/messages/{first['id']}")
            assert removed.json() == {"id": first["id"], "removed": True}
            assert (await ada.next_of("chat_removed"))["id"] == first["id"]

        # Ben is neither the opener nor the host; a stranger is not signed in
        assert (await ben.http.get(base)).json()["can_moderate"] is False
        refused = await ben.http.delete(f"{base}/mutes/{ben.player_id}")
        assert refused.status_code == 403
        async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as stranger:
            assert (
                await stranger.post(f"{base}/mutes", json={"player_id": "x"})
            ).status_code == 401

        # the opener unmutes over REST too
        unmuted = await ada.http.delete(f"{base}/mutes/{ben.player_id}")
        assert unmuted.status_code == 200 and unmuted.json()["muted"] == []
        await chat(ben, "thanks")
        assert (await chat_line(ada))["text"] == "thanks"
    finally:
        await ada.close()
        await ben.close()


async def test_the_last_100_messages_and_the_mutes_survive_a_restart(database_url: str) -> None:
    settings = {
        "chat_messages_per_second": 1000.0,
        "chat_burst": 1000,
        # every test client sends from 127.0.0.1: the address's budget must not drop any
        "address_messages_per_second": 10000.0,
        "address_message_burst": 10000,
    }
    live = LiveServer(make_settings(database_url, **settings))
    await live.start()
    ada = await Player.join(live, "Ada")
    ben = await Player.join(live, "Ben")
    try:
        table = await ada.open_table("vingt-un")
        await ada.connect(table)
        await ben.connect(table)
        for n in range(1, 106):
            await chat(ada, f"message {n}")
        for _ in range(105):
            await chat_line(ben)
        await chat(ben, "to be removed")
        removed = await chat_line(ben)
        await ada.send({"type": "remove_chat", "id": removed["id"]})
        await ben.next_of("chat_removed")
        await ada.send({"type": "mute", "player_id": ben.player_id})
        await ben.next_of("mutes")

        # a client connecting now gets what is kept, oldest first, after its state: of the
        # last 100 messages (6 to 105 were, then the 106th pushed the 6th out) all but the
        # removed one
        cy = await Player.join(live, "Cy")
        await cy.connect(table)
        history = await cy.next_of("chat_history")
        assert [m["text"] for m in history["messages"]] == [f"message {n}" for n in range(7, 106)]
        await cy.close()
        await live.services.writer.flush()
        stored = await live.services.writer.run(store.load_chat, table, 1000)
        # the database keeps the same 100: the removed one as a mark, its text erased
        assert len(stored.messages) == 100
        assert stored.messages[-1] == {"id": removed["id"], "removed": True}
        assert stored.messages[:-1] == history["messages"]
    finally:
        await ada.close()
        await ben.close()
        await live.stop()

    again = LiveServer(make_settings(database_url, **settings))
    await again.start()
    try:
        ada = Player(again.base_url, again.ws_url, "Ada", ada.token, ada.info)
        ben = Player(again.base_url, again.ws_url, "Ben", ben.token, ben.info)
        await ben.connect(table)
        history = await ben.next_of("chat_history")
        texts = [m["text"] for m in history["messages"]]
        assert texts == [f"message {n}" for n in range(7, 106)]
        assert history["messages"][-1]["name"] == "Ada"
        assert history["muted"] == [{"player_id": ben.player_id, "name": "Ben"}]
        await chat(ben, "after the restart")
        assert (await error(ben))["code"] == "muted"
        await ada.connect(table)
        await ada.next_of("chat_history")
        await chat(ada, "still here")
        line = await chat_line(ben)
        assert line["id"] == removed["id"] + 1  # ids go on after the restart
    finally:
        await ada.close()
        await ben.close()
        await again.stop()
