"""Alerts at the table, in a real Chromium against the real server.

While the tab is hidden (document.visibilityState, emulated: the page cannot be hidden in a
headless browser), the turn that becomes the person's changes the tab's title to "● Your turn",
rings (the page records what it rang), and shows a notification once the person asked for them
with "Notify me" (the permission is granted to the browser; the page's Notification records
what it shows). With 5 seconds left on the clock it rings again. The title comes back when the
tab is seen. The mute switch is remembered across a reload, and a muted page rings nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import WIDE, BrowserServer
from tests.browser.steps import press_while_redrawn

OPTIONS = {"turn_seconds": 8, "min_bet": 10, "max_bet": 100}

# Before the page's scripts: a visibility the test sets, and notifications recorded as shown.
EMULATION = """
(() => {
  window.__visibility = "visible";
  Object.defineProperty(Document.prototype, "visibilityState", {
    configurable: true, get: () => window.__visibility,
  });
  Object.defineProperty(Document.prototype, "hidden", {
    configurable: true, get: () => window.__visibility === "hidden",
  });
  window.__shown = [];
  const Real = window.Notification;
  function Recorded(title, options) {
    window.__shown.push({ title, body: options && options.body });
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  window.__asked = 0;
  Recorded.requestPermission = (...args) => {
    window.__asked += 1;
    return Real.requestPermission(...args);
  };
  window.Notification = Recorded;
})();
"""

SEE = """(state) => {
  window.__visibility = state;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


@pytest.fixture
def chromium(full_chromium: Any) -> Any:
    """The whole Chromium: the headless shell has no notifications to grant."""
    return full_chromium


def open_table(page: Any) -> str:
    response = page.request.post(
        "/api/tables", data={"game": "greek-31", "name": "Bells", "options": OPTIONS}
    )
    assert response.status == 201, response.text()
    table_id = str(response.json()["table_id"])
    assert page.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    return table_id


def sounds(page: Any) -> int:
    return int(page.locator("#alert-controls").get_attribute("data-sounds") or 0)


@pytest.mark.browser
def test_a_hidden_tab_is_told_of_the_turn(live_server: BrowserServer, open_page: Any) -> None:
    page = open_page(WIDE)
    page.context.grant_permissions(["notifications"], origin=live_server.url)
    page.context.add_init_script(EMULATION)
    assert page.request.post("/api/session", data={"name": "Bea"}).status == 200
    table_id = open_table(page)
    page.goto(f"/tables/{table_id}")
    plain = "Bells · Table 31"
    expect(page).to_have_title(plain)  # drawn from the table's state

    # Notifications are asked for on a click, never on load.
    bell = page.locator("#btn-notify")
    expect(bell).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => window.__asked") == 0
    bell.click()
    expect(bell).to_have_attribute("aria-pressed", "true")
    expect(bell).to_contain_text("on")

    # Hide the tab, then sit: the stake becomes hers while the tab is hidden.
    page.evaluate(SEE, "hidden")
    expect(page).to_have_title(plain)  # hidden, but nothing calls for her yet
    press_while_redrawn(page.locator(".seat-empty button").first)
    page.click("#amount-ok")
    expect(page.locator(".seat.is-you")).to_be_visible()
    expect(page.locator('.action[data-kind="stake"]')).to_be_visible()
    expect(page).to_have_title(f"● Your turn — {plain}")
    expect(page.locator("#alert-controls")).to_have_attribute("data-last-sound", "turn")
    shown = page.evaluate("() => window.__shown")
    assert shown and shown[0]["body"] == "Your turn: stake", shown

    # 5 seconds before the clock runs out: a second sound, and a notification.
    expect(page.locator("#alert-controls")).to_have_attribute("data-last-sound", "clock")
    assert any(
        "seconds left" in (note["body"] or "") for note in page.evaluate("() => window.__shown")
    )

    # Seen again: the title is the table's.
    page.evaluate(SEE, "visible")
    expect(page).to_have_title(plain)


@pytest.mark.browser
def test_the_mute_switch_is_remembered(live_server: BrowserServer, open_page: Any) -> None:
    page = open_page(WIDE)
    assert page.request.post("/api/session", data={"name": "Cal"}).status == 200
    table_id = open_table(page)
    page.goto(f"/tables/{table_id}")
    sound = page.locator("#btn-sound")
    expect(sound).to_have_attribute("aria-checked", "true")
    sound.click()
    expect(sound).to_have_attribute("aria-checked", "false")
    expect(sound).to_contain_text("off")
    page.reload()
    expect(page.locator("#conn[data-state=open]")).to_be_visible()
    expect(sound).to_have_attribute("aria-checked", "false")
    assert page.evaluate("() => localStorage.getItem('t31.sound.muted')") == "1"

    # Muted, the turn rings nothing (it is still said in the live region).
    press_while_redrawn(page.locator(".seat-empty button").first)
    page.click("#amount-ok")
    expect(page.locator('.action[data-kind="stake"]')).to_be_visible()
    expect(page.locator("#announce")).to_contain_text("Your turn: stake")
    assert sounds(page) == 0

    sound.click()  # on again: it rings once, the sound it will make
    expect(sound).to_have_attribute("aria-checked", "true")
    assert sounds(page) == 1
    page.reload()
    expect(page.locator("#btn-sound")).to_have_attribute("aria-checked", "true")
