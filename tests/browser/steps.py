"""Steps the browser tests share: signing in (through the lobby's form, or straight through the
REST API when the test is about something else) and taking a seat from the table page."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect


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
