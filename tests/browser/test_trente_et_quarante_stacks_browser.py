"""Trente et Quarante: the bettors' stacks say their true figure whenever no coup is being
revealed, through an un après choice too (docs/rules.md §4), in a real Chromium against the real
server.

The table's shuffles are seeded (the test server's ``POST /api/admin/tables/{id}/seed``): the
seeded shoe's first coup is 31 and 31, an un après. Ada (a laptop) and Bob (a phone) stake on
Rouge and Noir, the coup is dealt, and each page is watched at every change: every stack shows a
figure all along (never a "…"), the one from before the deal while the cards turn (a few seconds),
the view's after, through the whole un après choice. Ada shares and Bob goes to prison: the
stacks show the new figures at once. Screenshots go to /tmp/shots/teq-stacks-*.png.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import as_host, sign_in
from tests.browser.test_trente_et_quarante_browser import (
    BUY_IN,
    confirm_buy_in,
    open_table,
    stake,
)

UN_APRES_SEED = "e5576e6489064ecd1d55c6e23044d548c20744f3608da2c3e177c46de659d6f2"
"""With this seed the table's first coup is 31 and 31 (an un après)."""
REVEAL_MS = 3300
"""The longest a coup's reveal may hide the stacks (the whole reveal takes under 3 s)."""

WATCH_STACKS = """() => {
  // Each change of the page: the reveal's stage, the phase, and each seat's stack as shown.
  const seen = [];
  const look = () => {
    const root = document.querySelector("section.teq");
    const stacks = [...document.querySelectorAll(".seat-taken")].map((seat) => {
      const value = seat.querySelector(".stack-value");
      const style = value && getComputedStyle(value);
      const dots = value && getComputedStyle(value, "::after").content;
      return {
        seat: seat.dataset.seat,
        stack: seat.dataset.stack,
        text: value ? value.textContent.replace(/[^0-9]/g, "") : null,
        shown: Boolean(value) && style.visibility === "visible" && !(dots && dots.includes("…")),
      };
    });
    const phase = root?.dataset.phase || null;
    const moment = { phase, stage: root?.dataset.reveal || null, stacks };
    const key = JSON.stringify(moment);
    if (seen.length && seen[seen.length - 1].key === key) return;
    seen.push({ ...moment, key, t: performance.now() });
  };
  window.__stacksSeen = seen;
  look();
  const everything = { subtree: true, childList: true, attributes: true };
  new MutationObserver(look).observe(document.body, everything);
  // Style changes made by the clock alone (no mutation of the stacks) are looked at too.
  setInterval(look, 100);
}"""
STACKS_SEEN = "() => window.__stacksSeen.map(({ key, ...moment }) => moment)"


def check_stacks(seen: list[dict[str, Any]], who: str, before: dict[str, str]) -> None:
    """Every stack shows a figure at every moment (never a "…"): while the coup is revealed
    the figure from before the deal (``before``), otherwise the view's."""
    revealed = [m for m in seen if m["stage"] is not None]
    assert revealed, (who, "the coup was not revealed", seen)
    assert revealed[-1]["t"] - revealed[0]["t"] < REVEAL_MS, (who, seen)
    for moment in seen:
        for s in moment["stacks"]:
            assert s["shown"], (who, moment)
            wanted = before[s["seat"]] if moment["stage"] is not None else s["stack"]
            assert s["text"] == wanted, (who, moment)


@pytest.mark.browser
def test_stacks_show_their_figure_through_an_un_apres(
    live_server: BrowserServer, open_page: Any
) -> None:
    ada = open_page(WIDE)
    bob = open_page(NARROW)
    sign_in(ada, "Ada")
    sign_in(bob, "Bob")
    url = open_table(ada, "Un apres")
    table_id = url.rsplit("/", 1)[1]
    as_host(ada, f"/api/admin/tables/{table_id}/seed", {"seed": UN_APRES_SEED})
    ada.goto(url)
    bob.goto(url)
    for page, seat in ((ada, 0), (bob, 1)):
        expect(page.locator(f'.seat[data-seat="{1 - seat}"]')).to_be_attached()
        page.locator(f'.seat-empty[data-seat="{seat}"] button').click()
        confirm_buy_in(page)
        expect(page.locator(f'.seat.is-you[data-seat="{seat}"]')).to_be_visible()
    expect(ada.locator('.seat[data-seat="1"]')).to_contain_text("Bob")
    expect(bob.locator('.seat[data-seat="0"]')).to_contain_text("Ada")

    stake(ada, 50, "rouge", taps=2)
    stake(bob, 100, "noir", taps=1)
    for page in (ada, bob):
        page.evaluate(WATCH_STACKS)
    ada.locator('button[data-kind="done"]').click()
    bob.locator('button[data-kind="done"]').click()

    # The coup is dealt 31 and 31: once its cards are turned, the un après choice.
    for page in (ada, bob):
        expect(page.get_by_test_id("teq-apres")).to_be_visible()
        expect(page.locator('.teq-row[data-row="noir"] .teq-total')).to_have_attribute(
            "data-total", "31"
        )
        expect(page.locator('.teq-row[data-row="rouge"] .teq-total')).to_have_attribute(
            "data-total", "31"
        )
    # The choice stays open a while (its clock): the stacks say their figures all along.
    ada.wait_for_timeout(1500)
    for page in (ada, bob):
        for seat in (0, 1):
            value = page.locator(f'.seat[data-seat="{seat}"] .stack-value')
            expect(value).to_be_visible()
            expect(value).to_have_text(str(BUY_IN))
    ada.screenshot(path=str(SHOTS / "teq-stacks-wide-un-apres.png"))
    bob.screenshot(path=str(SHOTS / "teq-stacks-narrow-un-apres.png"), full_page=True)

    # Ada shares (half her 100 back, the house keeps 50); Bob's 100 goes to prison.
    ada.locator('.teq-apres button[data-apres="share"]').click()
    bob.locator('.teq-apres button[data-apres="prison"]').click()
    expected = {0: BUY_IN - 50, 1: BUY_IN - 100}
    for page in (ada, bob):
        for seat, chips in expected.items():
            expect(page.locator(f'.seat[data-seat="{seat}"]')).to_have_attribute(
                "data-stack", str(chips)
            )
            expect(page.locator(f'.seat[data-seat="{seat}"] .stack-value')).to_have_text(str(chips))
    ada.wait_for_timeout(500)
    for page, who in ((ada, "Ada"), (bob, "Bob")):
        check_stacks(page.evaluate(STACKS_SEEN), who, {"0": str(BUY_IN), "1": str(BUY_IN)})
    ada.screenshot(path=str(SHOTS / "teq-stacks-wide-after.png"))
    bob.screenshot(path=str(SHOTS / "teq-stacks-narrow-after.png"), full_page=True)
