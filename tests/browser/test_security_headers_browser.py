"""Every page under the Content-Security-Policy, in a real Chromium (docs/protocol.md,
"Security"): the policy forbids inline script, handler attributes and inline style
attributes, so a page that still relied on one would break in the browser. Each page is
opened, its script left to draw it (a table of bots playing, the history, a replay, a
player's page, the host's page unlocked, the recovery page), and any policy violation the
browser reports (a ``securitypolicyviolation`` event, a "Refused to …" console line) fails
the test.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_TOKEN, BrowserServer
from tests.browser.test_review_browser import wait_for_hands

pytestmark = pytest.mark.browser

WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} blocked ${event.blockedURI}`
    + ` at ${event.sourceFile}:${event.lineNumber} (${event.sample})`);
});
"""

BOT_TABLES = {
    # a chip stack drawn from a style property, a deck and a layout on a clock
    "en-og-tredive": {"turn_seconds": 5},
    "greek-31": {"turn_seconds": 5},
    "trente-et-quarante": {"bet_seconds": 1, "turn_seconds": 1},
}


class Watched:
    """One page, with every policy violation and refusal it reports."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.refusals: list[str] = []
        page.add_init_script(WATCH)
        page.on("console", self._console)

    def _console(self, message: Any) -> None:
        text = message.text
        if "Content Security Policy" in text or text.startswith("Refused to"):
            self.refusals.append(text)

    def visit(self, path: str, drawn: str) -> None:
        """Open ``path``, wait for ``drawn`` (what its script draws), check the policy
        was sent and nothing was refused."""
        response = self.page.goto(path)
        assert response is not None and response.ok, path
        policy = response.headers.get("content-security-policy", "")
        assert "script-src 'self';" in policy and "frame-ancestors 'none'" in policy, policy
        assert response.headers.get("x-content-type-options") == "nosniff"
        assert response.headers.get("x-frame-options") == "DENY"
        expect(self.page.locator(drawn).first).to_be_visible()
        self.page.wait_for_load_state("networkidle")
        self.page.wait_for_timeout(300)  # a frame or two of play on a table page
        self.check(path)

    def check(self, where: str) -> None:
        violations = sorted(set(self.page.evaluate("() => window.__violations")))
        refusals = sorted(set(self.refusals))
        assert not violations and not refusals, f"{where}: {violations[:5]} {refusals[:3]}"


def test_every_page_works_under_the_content_security_policy(
    open_page: Any, live_server: BrowserServer
) -> None:
    page = open_page()
    watched = Watched(page)
    watched.visit("/", "#open-form")
    signed = page.request.post("/api/session", data={"name": "Cora Policy"})
    assert signed.ok, signed.text()
    me = signed.json()

    tables = {}
    for game, options in BOT_TABLES.items():
        opened = page.request.post(
            "/api/tables", data={"game": game, "name": f"CSP {game}"[:24], "options": options}
        )
        assert opened.status == 201, opened.text()
        table_id = opened.json()["table_id"]
        for _ in range(2 if game == "trente-et-quarante" else 3):
            added = page.request.post(f"/api/tables/{table_id}/bots", data={})
            assert added.status == 201, added.text()
        tables[game] = table_id

    watched.visit("/", ".table-item")
    for table_id in tables.values():
        watched.visit(f"/tables/{table_id}", "#conn[data-state=open]")
        page.wait_for_timeout(1500)  # the bots play on: cards, chips and clocks drawn
        watched.check(f"/tables/{table_id} in play")

    watched.visit("/admin", "#login-token")
    page.fill("#login-token", ADMIN_TOKEN)
    page.click("#login-submit")
    expect(page.locator("#audit-verdict")).to_be_visible()
    page.wait_for_load_state("networkidle")
    watched.check("/admin unlocked")

    table_id = tables["greek-31"]
    hand = wait_for_hands(page, table_id, 1)[0]
    watched.visit(f"/tables/{table_id}/history", "a[href^='/hands/']")
    # the host's token is in this tab now: the replay of a bots' hand opens for the host
    watched.visit(f"/hands/{hand['hand_id']}", "#slider")
    page.keyboard.press("End")  # the replay steps, drawing each view
    page.wait_for_timeout(300)
    watched.check("the replay, stepped")
    watched.visit(f"/players/{me['player_id']}", "#player-body")
    watched.visit("/recover", "main h1, main h2")
