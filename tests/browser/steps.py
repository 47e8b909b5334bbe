"""Steps the browser tests share: signing in (through the lobby's form, or straight through the
REST API when the test is about something else), taking a seat from the table page, and the
host's commands over REST (pausing, seeding, closing a table)."""

from __future__ import annotations

from typing import Any

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


def as_host(page: Any, path: str, data: dict[str, Any] | None = None) -> Any:
    """POST ``data`` to the admin route ``path`` with the host's token (whoever the page is
    signed in as); the answer must be 200, and is returned."""
    response = page.request.post(
        path, data=data or {}, headers={"authorization": f"Bearer {ADMIN_TOKEN}"}
    )
    assert response.status == 200, response.text()
    return response
