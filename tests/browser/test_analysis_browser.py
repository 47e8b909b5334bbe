"""The analysis in the replay, in a real Chromium against the real server (docs/review.md,
"The analysis").

Ana plays Trianta Ena against a bot that banks, from the table page: she bets what the control
offers and stands. Then she reviews one of her hands: the side column says how her decisions
went ("You: N of M decisions best; …"), her decisions are marked in the steps list, and at
one of them the page shows her options in a table (win, tie, lose, the chips expected; the
best marked, the chosen one, what it gave up). The table's history says how she played
all its hands. axe-core finds nothing serious on either page. Screenshots go to
/tmp/shots/analysis-*.png.
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.axe import describe, grave
from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import sign_in, sit

TABLE_NAME = "Odds lesson"
GAME = "trianta-ena"
OPTIONS = {"turn_seconds": 30, "bet_seconds": 30}

PLAY = """() => {
  const ready = (el) =>
    el && !el.disabled && !el.closest("fieldset:disabled") && el.offsetParent !== null;
  const stake = (kind) => `.action[data-kind="${kind}"] button[type=submit]`;
  for (const selector of [stake("bet"), stake("stake"), 'button[data-kind="stand"]']) {
    const button = document.querySelector(selector);
    if (ready(button)) {
      button.click();
      return true;
    }
  }
  return false;
}"""
"""Bet (or stake) what the control offers, or stand: the page's own buttons, in one round
trip."""


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"analysis-{name}.png"))


def her_hands(page: Any, table_id: str) -> list[dict[str, Any]]:
    response = page.request.get(f"/api/hands?table_id={table_id}&limit=20")
    assert response.status == 200, response.text()
    return [
        h for h in response.json()["hands"] if h["status"] == "finished" and h["your_seat"] == 1
    ]


def no_grave_violation(page: Any, what: str) -> None:
    found = grave(page)
    assert not found, f"{what}:\n{describe(found)}"


@pytest.mark.browser
def test_a_player_finds_the_odds_of_her_decisions_in_the_replay(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    sign_in(page, "Ana")
    opened = page.request.post(
        "/api/tables", data={"game": GAME, "name": TABLE_NAME, "options": OPTIONS}
    )
    assert opened.status == 201, opened.text()
    table_id = opened.json()["table_id"]
    assert page.request.post(f"/api/tables/{table_id}/bots", data={}).status == 201
    page.goto(f"/tables/{table_id}")
    sit(page, 1)

    # she plays until a hand of hers is over in which she decided something
    deadline = time.monotonic() + 600  # a guard for a stuck run only
    chosen: dict[str, Any] | None = None
    while chosen is None:
        assert time.monotonic() < deadline, "no hand of hers with a decision finished"
        if not page.evaluate(PLAY):
            page.wait_for_timeout(150)
        for hand in her_hands(page, table_id):
            # computed when asked: on a busy machine the low-priority worker may take a while
            analysis = page.request.get(f"/api/hands/{hand['hand_id']}/analysis", timeout=600_000)
            assert analysis.status == 200, analysis.text()
            body = analysis.json()
            if any(d["seat"] == 1 for d in body["decisions"]):
                chosen = body
                break

    # the replay: the summary beside it, her decisions marked in the steps list
    hand_id = chosen["hand_id"]
    page.goto(f"/hands/{hand_id}")
    expect(page.locator("#analysis-you")).to_contain_text("You: ")
    expect(page.locator("#analysis-you")).to_contain_text(" decision")
    expect(page.locator('#analysis-summary-table tbody tr[data-seat="1"]')).to_contain_text("Ana")
    mine = [d for d in chosen["decisions"] if d["seat"] == 1]
    first = mine[0]
    marked = page.locator(f'#steps-list li[data-index="{first["step"]}"] .tag')
    if first["chose_best"]:
        expect(marked).to_have_text("best")
    else:
        expect(marked).to_have_text(re.compile(r"^−[0-9.]+ chips?$"))

    # at that step: her options, the best marked, the chosen one, what it gave up
    page.locator(f'#steps-list li[data-index="{first["step"]}"] button').click()
    box = page.locator("#step-analysis")
    expect(box).to_be_visible()
    table = box.locator("table.analysis-table")
    expect(table.locator("caption")).to_contain_text("Ana's options")
    headers = table.locator("thead th")
    expect(headers).to_have_text(["Option", "Win", "Tie", "Lose", "Expected (chips)"])
    rows = table.locator("tbody tr")
    expect(rows).to_have_count(len(first["options"]))
    expect(rows.nth(first["best"]).locator(".tag-best")).to_have_text("best")
    expect(rows.nth(first["chosen"]).locator(".tag-chosen")).to_have_text("chosen")
    expect(rows.nth(first["chosen"]).locator("th")).to_contain_text(
        first["options"][first["chosen"]]["label"]
    )
    for i, option in enumerate(first["options"]):
        win = f"{round(option['win'] * 1000) / 10:.1f}%"
        cells = rows.nth(i).locator("td")
        expect(cells.nth(0)).to_contain_text(win)
        if not option["exact"]:
            expect(cells.nth(3)).to_contain_text("≈")
            expect(cells.nth(3)).to_contain_text("±")
    verdict = box.locator(".analysis-verdict")
    expect(verdict).to_contain_text("Ana chose ")
    if not first["chose_best"]:
        expect(verdict).to_contain_text("given up in expectation")
    shot(page, "replay-decision")
    no_grave_violation(page, "the replay at a decision")

    # a step that was no decision of anyone's shows no table
    page.click("#btn-first")
    expect(box).to_be_hidden()

    # the table's history: how she played its hands
    page.goto(f"/tables/{table_id}/history")
    expect(page.locator("#evening-you")).to_contain_text("Your decisions: ")
    expect(page.locator("#evening-you")).to_contain_text(" best")
    expect(page.locator("#evening-table tbody tr", has_text="Ana")).to_have_count(1)
    shot(page, "history")
    no_grave_violation(page, "the history with the evening's summary")

    # on a phone, the decision's table scrolls in its own box
    phone = open_page(NARROW)
    phone.context.add_cookies(page.context.cookies())
    phone.goto(f"/hands/{hand_id}#step={first['step']}")
    expect(phone.locator("#step-analysis table.analysis-table")).to_be_visible()
    wide, window = phone.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide == window, f"the replay is {wide} px wide in a {window} px window"
    shot(phone, "replay-phone")
