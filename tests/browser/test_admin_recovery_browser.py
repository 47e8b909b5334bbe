"""The host's page tells what the last start-up could not restore (app/runtime/lobby.py).

A server plays at two bot tables, stops; one table's stored state is spoilt behind its back;
the server starts again. The host's page shows an "At the last start-up" panel naming the
closed table, the reason and the chips returned, while the other table is listed as usual.
Screenshots: /tmp/shots/admin-recovery-*.png.
"""

from __future__ import annotations

import json
import sqlite3
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import (
    ADMIN_TOKEN,
    CHROMIUM,
    NARROW,
    NO_CHROMIUM,
    SHOTS,
    WIDE,
    ServedProcess,
)


class Server(ServedProcess):
    """``python -m app serve`` on a SQLite file that outlives each run, and the host's calls."""

    def __init__(self, tmp: Path) -> None:
        super().__init__(tmp, NEXT_HAND_SECONDS="0.05", BOT_DELAY_SECONDS="0.01")

    def call(self, method: str, path: str, body: Any = None, token: str = ADMIN_TOKEN) -> Any:
        request = urllib.request.Request(
            self.url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read() or b"null")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    running = Server(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def _bot_table(server: Server, token: str, game: str, name: str) -> str:
    table = server.call("POST", "/api/tables", {"game": game, "name": name}, token=token)
    for _ in range(2):
        server.call("POST", f"/api/admin/tables/{table['table_id']}/bots")
    return str(table["table_id"])


@pytest.mark.browser
def test_the_host_page_names_a_table_the_start_up_had_to_close(
    server: Server, chromium: Any
) -> None:
    server.start()
    opener = server.call("POST", "/api/session", {"name": "Opener"}, token="")
    broken = _bot_table(server, opener["token"], "greek-31", "Spoilt table")
    healthy = _bot_table(server, opener["token"], "vingt-un", "Healthy table")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:  # both tables have stored a state after a hand
        tables = {t["table_id"]: t for t in server.call("GET", "/api/admin/tables")}
        if all(tables[t]["hands_played"] >= 1 for t in (broken, healthy)):
            break
        time.sleep(0.1)
    server.stop()
    with sqlite3.connect(server.db_path) as db:
        db.execute("UPDATE tables SET state = '{not json' WHERE id = ?", (broken,))
    server.start()

    for viewport, label in ((WIDE, "wide"), (NARROW, "phone")):
        context = chromium.new_context(viewport=viewport, base_url=server.url)
        try:
            page = context.new_page()
            page.goto("/admin")
            page.fill("#login-token", ADMIN_TOKEN)
            page.click("#login-submit")
            panel = page.locator("#recovery-panel")
            expect(panel).to_be_visible()
            closed = page.locator(f'#recovery-closed li[data-table-id="{broken}"]')
            expect(closed).to_contain_text("Spoilt table")
            expect(closed).to_contain_text("could not be restored")
            expect(closed).to_contain_text("Returned to bankrolls")
            expect(page.locator(f'.admin-table-card[data-table-id="{healthy}"]')).to_be_visible()
            expect(page.locator(f'.admin-table-card[data-table-id="{broken}"]')).to_have_count(0)
            expect(page.locator("#audit-verdict")).to_have_attribute("data-balanced", "true")
            page.screenshot(path=str(SHOTS / f"admin-recovery-{label}.png"), full_page=False)
        finally:
            context.close()
