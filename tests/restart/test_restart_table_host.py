"""A restart keeps the table's host and its options (seats by approval, stakes the host
changed), on the real server process (docs/protocol/socket.md §5.13)."""

from __future__ import annotations

import pytest

from tests.api.test_table_host import host
from tests.client import Player
from tests.restart.server import ServerProcess
from tests.restart.test_restart_regressions import balanced, restart, server  # noqa: F401

OPTIONS = {"start": "when_ready", "turn_seconds": 600, "approval": True}


@pytest.mark.parametrize("how", ["sigterm", "sigkill"])
async def test_a_restart_keeps_the_host_and_seats_by_approval(
    server: ServerProcess,  # noqa: F811
    database_url: str,
    how: str,
) -> None:
    ada, ben, cy = [await Player.join(server, name) for name in ("Ada", "Ben", "Cy")]
    table_id = await ada.open_table("vingt-un", **OPTIONS)
    await ada.connect(table_id)
    await ada.sit(100)
    await ben.connect(table_id)
    await ben.send({"type": "sit", "seat": 1, "buy_in": 100})
    await ada.wait_for(lambda v: v["table"]["requests"])
    assert (await host(ada, {"kind": "approve", "player_id": ben.player_id}))["type"] == "ack"
    await ben.wait_for(lambda v: v["you"] == 1)
    changed = await host(ada, {"kind": "set_options", "options": {"min_bet": 20}})
    assert changed["type"] == "ack", changed
    assert (await host(ada, {"kind": "make_host", "seat": 1}))["type"] == "ack"
    await ben.wait_for(lambda v: v["table"]["host"]["player_id"] == ben.player_id)

    ada, ben, cy = await restart(server, how, [ada, ben, cy])
    for person in (ada, ben, cy):
        await person.connect(table_id)
    view = cy.view
    assert view is not None
    assert view["table"]["host"]["player_id"] == ben.player_id
    assert view["table"]["approval"] is True
    summary = (await cy.http.get(f"{server.base_url}/api/tables/{table_id}")).json()
    assert summary["options"]["min_bet"] == 20 and summary["host_id"] == ben.player_id
    await cy.send({"type": "sit", "seat": 2, "buy_in": 100})
    await cy.wait_for(lambda v: v["table"]["seat_request"] == "pending")
    await ben.wait_for(lambda v: [r["name"] for r in v["table"]["requests"]] == ["Cy"])
    refused = await host(ada, {"kind": "pause"})
    assert refused["code"] == "not_host"
    await balanced(server, database_url)
    for person in (ada, ben, cy):
        await person.close()
