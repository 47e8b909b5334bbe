"""After a restart the log still tells the table's story, and the void hand opens
(docs/protocol.md §6.6, docs/review.md "Void hands").

Ada plays a hand of Trianta Ena against a bot banker in a real Chromium; the next hand waits
for her bet when the server is killed (SIGKILL) and started again on the same address. Her
page reconnects by itself: its log holds the hand she played and its result, then the void
notice of the interrupted hand, then the next hand. From the table's history the void hand
opens on a page of its own: who sat in it, why it is void, no cards.
Screenshots: /tmp/shots/restart-story-*.png.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_TOKEN, CHROMIUM, NO_CHROMIUM, SHOTS, WIDE, ServedProcess
from tests.browser.steps import choose_name, sit
from tests.browser.test_story_browser import log_lines, play_a_hand

RESTARTED = "The server restarted: the hand in play was void, stakes returned."
SLOW = {"turn_seconds": 600, "bet_seconds": 600}
"""Ada's clocks never run out: the hand after hers waits for her bet until the kill."""


class Server(ServedProcess):
    """The server, killed with SIGKILL (nothing of its shutdown runs) and started again."""

    def kill(self) -> None:
        assert self.process is not None
        self.process.kill()
        self.process.wait(timeout=15)
        self.process = None

    def flush(self) -> None:
        """Wait for the writer to write everything queued (the host's audit flushes it)."""
        request = urllib.request.Request(
            self.url + "/api/admin/audit", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"}
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            assert json.loads(response.read())["balanced"] is True


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    if not CHROMIUM.exists():
        pytest.skip(NO_CHROMIUM)
    running = Server(tmp_path, NEXT_HAND_SECONDS="0.1", BOT_DELAY_SECONDS="0.02")
    try:
        yield running
    finally:
        running.stop()


@pytest.mark.browser
def test_the_log_after_a_restart_and_the_void_hand_page(server: Server, chromium: Any) -> None:
    server.start()
    context = chromium.new_context(
        viewport=WIDE, base_url=server.url, extra_http_headers={"origin": server.url}
    )
    errors: list[str] = []
    try:
        ada = context.new_page()
        ada.on("pageerror", lambda err: errors.append(str(err)))
        choose_name(ada, "Ada")
        response = ada.request.post(
            "/api/tables", data={"game": "trianta-ena", "name": "Restart", "options": SLOW}
        )
        assert response.status == 201, response.text()
        table_id = response.json()["table_id"]
        assert ada.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
        ada.goto(f"/tables/{table_id}")
        sit(ada, 1)
        play_a_hand(ada)
        expect(ada.locator('.action[data-kind="bet"]')).to_be_visible()  # hand 2 in play
        played = [line for line in log_lines(ada) if "Hand over" in line]
        assert played, log_lines(ada)
        server.flush()

        server.kill()
        expect(ada.locator("#log")).to_contain_text("Connection lost")
        server.start()

        log = ada.locator("#log")
        expect(log).to_contain_text("Reconnected.")
        expect(log).to_contain_text(f"Hand 2 is void: {RESTARTED}")
        expect(log).to_contain_text("Hand 3 is dealt")
        lines = log_lines(ada)[::-1]  # the log shows the newest line first
        first = next(i for i, line in enumerate(lines) if "Hand 1 is dealt" in line)
        over = next(i for i, line in enumerate(lines) if line.endswith(played[0][-40:]))
        void = next(i for i, line in enumerate(lines) if "Hand 2 is void" in line)
        dealt = next(i for i, line in enumerate(lines) if "Hand 3 is dealt" in line)
        assert first < over < void < dealt, lines
        assert sum(RESTARTED in line for line in lines) == 1, lines  # told once, not twice
        expect(ada.locator("#settlement")).to_contain_text("Last hand")
        ada.screenshot(path=str(SHOTS / "restart-story-log.png"))

        ada.goto(f"/tables/{table_id}/history")
        rows = ada.locator("#hands-table tbody tr")
        void_row = rows.filter(has_text="(void)")
        expect(void_row).to_have_count(1)
        expect(void_row).to_contain_text("Ada")
        expect(void_row).to_contain_text("(bot)")
        void_row.locator("a.hand-link").click()
        panel = ada.locator("#void-hand")
        expect(panel).to_be_visible()
        expect(panel).to_contain_text("Hand 2: void, stakes returned")
        expect(panel).to_contain_text(RESTARTED)
        expect(panel.locator("#void-players tbody tr")).to_have_count(2)
        expect(panel).to_contain_text("Ada")
        expect(ada.locator("#banner")).to_be_hidden()  # nothing refused, nothing to replay
        assert ada.locator("#void-hand .card, #void-hand [data-card]").count() == 0
        ada.screenshot(path=str(SHOTS / "restart-story-void-hand.png"))
    finally:
        context.close()
    assert not errors, errors
