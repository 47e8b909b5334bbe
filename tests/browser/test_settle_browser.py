"""Settling up in a real Chromium against the real server.

Ada, Ben and Cy (each signed in in a browser of their own) play a few hands of Trianta Ena
through their sockets; then Ada follows "Settle up" from the table page: the page lists the
three of them, their nets (the ledger's), and payments that settle every net; with a chip
value it shows the money; "Copy as text" puts the server's text on the clipboard and
"Download CSV" saves the same settlement. Leaving Cy out puts what Ada and Ben won from or
lost to Cy apart, in words ("others at these tables"), never in a payment. Ben's player
page links to his company's settlement. On a phone and wide, the page
fits its window. Screenshots go to /tmp/shots/settle-*.png.
"""

from __future__ import annotations

import asyncio
import csv
import io
import random
import re
import time
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, ROOT, SHOTS, WIDE, BrowserServer
from tests.browser.test_pseudo_locale_browser import DATA, FIND
from tests.client import Player

pytestmark = pytest.mark.browser


def shot(page: Any, name: str) -> None:
    page.screenshot(path=str(SHOTS / f"settle-{name}.png"), full_page=True)


def sign_up(page: Any, name: str) -> dict[str, Any]:
    response = page.request.post("/api/session", data={"name": name})
    assert response.status in (200, 201), response.text()
    return dict(response.json())


async def play_hands(server: BrowserServer, people: list[dict[str, Any]], hands: int) -> str:
    """The people (signed up by their browsers) open a table and play random legal actions
    through their sockets until ``hands`` hands are finished; returns the table's id."""
    where = SimpleNamespace(base_url=server.url, ws_url=server.url.replace("http", "ws", 1))
    players = [Player(where.base_url, where.ws_url, p["name"], p["token"], p) for p in people]
    rng = random.Random(7)
    try:
        table_id = await players[0].open_table("trianta-ena", turn_seconds=2, bet_seconds=2)
        for person in players:
            await person.connect(table_id)
            limits = (person.view or {})["table"]["buy_in"]
            await person.sit(max(limits["min"], min(limits["max"], 300)))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        seen: list[str] = []
        while loop.time() < deadline:
            hand_id = (players[0].view or {}).get("hand_id")
            if hand_id and hand_id not in seen:
                seen.append(hand_id)
            if len(seen) - (1 if hand_id else 0) >= hands:
                break
            movers = [p for p in players if p.view and p.view["legal"]]
            if not movers:
                await asyncio.sleep(0.02)
                continue
            mover = rng.choice(movers)
            action = mover.random_legal(rng)
            assert action is not None
            await asyncio.wait_for(mover.act(action), 30)
            await asyncio.sleep(0.02)
        assert len(seen) >= hands, f"only {len(seen)} hands dealt"
        # everyone stands up, so the table deals no more hands after the test's count
        for person in players:
            await person.send({"type": "leave"})
        for person in players:
            await person.wait_for(lambda v: v["you"] is None, timeout=30)
        return table_id
    finally:
        for person in players:
            await person.close()


def finished(page: Any, table_id: str, count: int) -> list[dict[str, Any]]:
    """The table's finished hands, once at least ``count`` are written."""
    deadline = time.monotonic() + 60
    while True:
        response = page.request.get(f"/api/hands?table_id={table_id}&limit=50")
        rows = [h for h in response.json()["hands"] if h["status"] == "finished"]
        if len(rows) >= count:
            return rows
        assert time.monotonic() < deadline, f"only {len(rows)} hands written"
        page.wait_for_timeout(200)


def ledger_nets(page: Any, rows: list[dict[str, Any]]) -> dict[str, int]:
    """Each player's net from every finished hand's result (GET /api/hands/{id})."""
    nets: dict[str, int] = {}
    for row in rows:
        hand = page.request.get(f"/api/hands/{row['hand_id']}").json()
        for p in hand["result"]["players"]:
            nets[p["name"]] = nets.get(p["name"], 0) + p["net"]
    return nets


def shown_nets(page: Any) -> dict[str, int]:
    """The nets table as the page shows it: name -> chips (with the real minus sign)."""
    out = {}
    for row in page.locator("#nets-table tbody tr").all():
        name = row.locator("th").inner_text().split("\n")[0].strip()
        text = row.locator("td").nth(1).inner_text().replace("\u2212", "-").replace(",", "")
        out[name] = 0 if text == "±0" else int(text)
    return out


def shown_among(page: Any) -> dict[str, int]:
    """What the payments settle, as the page shows it ("Among you"; blank: the whole net)."""
    out = {}
    nets = shown_nets(page)
    rows = page.locator("#nets-table tbody tr").all()
    for (name, net), row in zip(nets.items(), rows, strict=True):
        text = row.locator("td").nth(2).inner_text().replace("\u2212", "-").replace(",", "")
        out[name] = net if not text else 0 if text == "±0" else int(text)
    return out


def shown_payments(page: Any) -> list[tuple[str, str, int]]:
    out = []
    for item in page.locator("#payments li.payment").all():
        who = item.locator(".payment-who strong").all_inner_texts()
        amount = item.locator(".payment-amount").inner_text().split(" chip")[0].replace(",", "")
        out.append((who[0], who[1], int(amount)))
    return out


def settles(nets: dict[str, int], payments: list[tuple[str, str, int]]) -> None:
    left = {name.lower(): net for name, net in nets.items()}
    for payer, payee, amount in payments:
        left[payer.lower()] += amount
        left[payee.lower()] -= amount
    assert set(left.values()) <= {0}, left
    assert len(payments) <= max(0, sum(1 for n in nets.values() if n) - 1)


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical findings in the page's main part (the site's header is
    every page's; axe runs through the DevTools protocol, which the page's
    Content-Security-Policy does not stop)."""
    if not AXE.exists():
        return []  # npm ci not run: nothing to check with
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("async () => (await axe.run('main')).violations")
    return [
        f"{v['id']}: {v['help']} {[n['target'] for n in v['nodes']]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def test_settle_up_page(open_page: Any, live_server: BrowserServer, chromium: Any) -> None:
    ada = open_page(WIDE)
    ben = open_page(WIDE)
    cy = open_page(NARROW)
    people = [sign_up(ada, "Ada"), sign_up(ben, "Ben"), sign_up(cy, "Cy")]
    # the sockets' own loop, on a thread of its own (Playwright's sync API runs one here)
    with ThreadPoolExecutor(1) as pool:
        table_id = pool.submit(asyncio.run, play_hands(live_server, people, hands=3)).result()
    rows = finished(ada, table_id, 3)
    ada.wait_for_timeout(500)  # the last hand's record may still be on its way
    rows = finished(ada, table_id, len(rows))
    nets = ledger_nets(ada, rows)
    ada.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)

    # from the table page
    ada.goto(f"/tables/{table_id}")
    expect(ada.get_by_role("link", name="Settle up")).to_be_visible()
    ada.screenshot(path=str(SHOTS / "settle-table-link-wide.png"))
    ada.get_by_role("link", name="Settle up").click()
    expect(ada).to_have_url(f"{live_server.url}/settle?table={table_id}")
    expect(ada.locator("#settle-body")).to_be_visible()
    expect(ada.locator("#player-checks input:checked")).to_have_count(3)
    assert ada.locator("#hands-count").inner_text() == f"{len(rows)} hands"
    assert shown_nets(ada) == nets
    settles(nets, shown_payments(ada))
    shot(ada, "wide")

    # "Between" the times tonight's span filled in: the same hands (its last minute included);
    # a span years ahead has none
    ada.get_by_label("Between").check()
    ada.wait_for_timeout(300)
    expect(ada.locator("#hands-count")).to_have_text(f"{len(rows)} hands")
    assert shown_nets(ada) == nets
    ada.locator("#until").fill("2099-01-02T00:00")
    ada.locator("#since").fill("2099-01-01T00:00")
    expect(ada.locator("#hands-count")).to_have_text("0 hands")
    ada.get_by_label("Tonight").check()
    expect(ada.locator("#hands-count")).to_have_text(f"{len(rows)} hands")

    assert serious_violations(ada) == [], serious_violations(ada)

    # a chip value shows the money, and the text copied is the server's
    ada.locator("#chip-value").fill("0.05")
    ada.locator("#currency").fill("€")
    expect(ada.locator("#payments")).to_contain_text("€")
    shot(ada, "money")
    answer = ada.request.get(
        f"/api/settle?table_id={table_id}&chip_value=0.05&currency=%E2%82%AC"
    ).json()
    for pay in answer["payments"]:
        expect(ada.locator("#payments")).to_contain_text(
            f"{pay['amount']} chip{'s' if pay['amount'] != 1 else ''} ({pay['money']} €)"
        )
    ada.get_by_role("button", name="Copy as text").click()
    expect(ada.locator("#copy-status")).to_contain_text("Copied")
    copied = ada.evaluate("() => navigator.clipboard.readText()")
    assert "1 chip = 0.05 €" in copied
    for pay in answer["payments"]:
        assert pay["text"] in copied

    with ada.expect_download() as caught:
        ada.get_by_role("button", name="Download CSV").click()
    saved = caught.value
    assert saved.suggested_filename.startswith("settle-up-") and saved.suggested_filename.endswith(
        ".csv"
    )
    with open(saved.path(), encoding="utf-8") as f:
        table = list(csv.DictReader(io.StringIO(f.read())))
    assert {r["name"]: int(r["chips"]) for r in table if r["row"] == "net"} == nets
    paid = [(r["name"], r["to"], int(r["chips"])) for r in table if r["row"] == "payment"]
    settles(nets, paid)
    assert all(r["currency"] == "€" for r in table)

    # leaving Cy out: what Ada and Ben won from or lost to Cy is "others at these tables"
    ada.locator("#player-checks label", has_text="Cy").locator("input").uncheck()
    expect(ada.locator("#player-checks input:checked")).to_have_count(2)
    if nets["Cy"]:
        expect(ada.locator("#apart")).to_contain_text("others at these tables")
        assert shown_nets(ada) == {"Ada": nets["Ada"], "Ben": nets["Ben"]}
        expect(ada.locator("#payments")).not_to_contain_text("thers at these tables")
        settles(shown_among(ada), shown_payments(ada))
        shot(ada, "others")

    # the fallback when the clipboard is refused: the text is shown to select
    ada.context.clear_permissions()
    ada.evaluate(
        "() => { Object.defineProperty(navigator, 'clipboard', {value: {writeText: () =>"
        " Promise.reject(new Error('no'))}}); document.execCommand = () => false; }"
    )
    ada.get_by_role("button", name="Copy as text").click()
    expect(ada.locator("#copy-status")).to_contain_text("select the text below")
    expect(ada.locator("#settle-text")).to_be_visible()
    shown = ada.locator("#settle-text").inner_text()
    assert "Nets:" in shown and "Payments:" in shown
    for payer, payee, amount in shown_payments(ada):
        assert re.search(f"{payer} pays? {payee} {amount} chips?", shown)

    # in the pseudo-locale the server's words (the text to copy, what no payment settles) are
    # the catalog's, every one, and fit their boxes
    ada.context.add_cookies([{"name": "t31_lang", "value": "qps", "url": live_server.url}])
    ada.goto(f"/settle?table={table_id}")
    expect(ada.locator("#player-checks input:checked")).to_have_count(3)
    ada.locator("#player-checks label", has_text="Cy").locator("input").uncheck()
    expect(ada.locator("#player-checks input:checked")).to_have_count(2)
    if nets["Cy"]:
        expect(ada.locator("#apart li").first).to_be_visible()
    ada.locator("details.settle-text").evaluate("(details) => { details.open = true; }")
    expect(ada.locator("#settle-text")).to_contain_text("⟦")
    # the heading names the table and its game (names: data)
    found = ada.evaluate(FIND, [[], [*DATA, "h1 .game-title"]])
    assert not found["untranslated"], "\n".join(found["untranslated"])
    assert not found["overflowing"], "\n".join(found["overflowing"])

    # from Ben's player page: his company tonight
    ben.goto(f"/players/{people[1]['player_id']}")
    ben.get_by_role("link", name="Settle up tonight").click()
    expect(ben.locator("#settle-body")).to_be_visible()
    expect(ben.locator("#player-checks input:checked")).to_have_count(3)
    assert shown_nets(ben) == nets

    # on a phone
    cy.goto(f"/settle?table={table_id}")
    expect(cy.locator("#settle-body")).to_be_visible()
    assert shown_nets(cy) == nets
    wide, window = cy.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide == window == NARROW["width"]
    shot(cy, "phone")
    assert serious_violations(cy) == []
    cy.locator("#chip-value").fill("0.05")
    cy.locator("#currency").fill("EUR")
    cy.locator("#player-checks label", has_text="Ben").locator("input").uncheck()
    expect(cy.locator("#player-checks input:checked")).to_have_count(2)
    expect(cy.locator("#nets-table")).to_contain_text("EUR")
    settles(shown_among(cy), shown_payments(cy))
    wide, window = cy.evaluate(
        "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert wide == window == NARROW["width"]
    shot(cy, "phone-money")
    cy.goto(f"/players/{people[2]['player_id']}")
    expect(cy.get_by_role("link", name="Settle up tonight")).to_be_visible()
    cy.screenshot(path=str(SHOTS / "settle-player-link-phone.png"))
    cy.goto(f"/tables/{table_id}")
    expect(cy.get_by_role("link", name="Settle up")).to_be_visible()
    cy.screenshot(path=str(SHOTS / "settle-table-link-phone.png"))
