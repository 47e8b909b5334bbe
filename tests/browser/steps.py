"""Steps the browser tests share: signing in (through the lobby's form, or straight through the
REST API when the test is about something else), taking a seat from the table page, and the
host's commands over REST (pausing, seeding, closing a table)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.browser.conftest import ADMIN_TOKEN


def choose_name(page: Any, name: str) -> None:
    """In the lobby: type a name and wait for the server to accept it."""
    page.goto("/")
    page.fill("#signin-name", name)
    page.click("#signin-submit")
    expect(page.locator("#signin-slot")).to_contain_text(f"Signed in as {name}")


def sign_in(page: Any, name: str) -> None:
    """Sign the page's browser context in through the API (its cookie), without the lobby."""
    response = page.request.post("/api/session", data={"name": name})
    assert response.status == 200, response.text()


def sit(page: Any, seat: int) -> None:
    """Click "Sit here" on a free seat and confirm the buy-in dialog."""
    page.locator(f'.seat-empty[data-seat="{seat}"] button').click()
    expect(page.locator("#amount-dialog")).to_be_visible()
    page.click("#amount-ok")
    expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_visible()


def ready_to_press(button: Any) -> bool:
    """Whether ``button`` (a locator) is on the page, visible and enabled now. Asked without
    waiting for it: a button a state has just removed would otherwise hold the test until
    Playwright's timeout (the next hand's button comes only once the test acts again)."""
    try:
        return bool(button.is_visible() and button.is_enabled(timeout=500))
    except PlaywrightTimeoutError:
        return False


def press_while_redrawn(button: Any) -> None:
    """Press ``button`` (a locator) on a table page that bots keep redrawing: every state
    redraws the seats, several times a second at a table of bots, and Playwright's click waits
    for the button to stay put for two frames, which on a busy machine it may never do
    ("element was detached from the DOM, retrying" for ten seconds). The button must be
    visible; its click event is then dispatched to it at once, as a person's click lands on
    whatever is under it."""
    expect(button).to_be_visible()
    button.dispatch_event("click")


def scroll_to(page: Any, selector: str) -> None:
    """Scroll the first element ``selector`` finds into view in one step in the page: a seat
    that bots keep redrawing can be replaced between Playwright finding it and scrolling to
    it ("Element is not attached to the DOM"), never within one script."""
    expect(page.locator(selector).first).to_be_attached()
    page.evaluate(
        "s => document.querySelector(s).scrollIntoView({block: 'nearest', inline: 'nearest'})",
        selector,
    )


def as_host(page: Any, path: str, data: dict[str, Any] | None = None) -> Any:
    """POST ``data`` to the admin route ``path`` with the host's token (whoever the page is
    signed in as); the answer must be 200, and is returned."""
    response = page.request.post(
        path, data=data or {}, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
    )
    assert response.status == 200, response.text()
    return response
