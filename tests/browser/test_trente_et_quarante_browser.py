"""Trente et Quarante in a real Chromium against the real server (docs/rules.md §4;
docs/protocol.md §10).

Two bettors in two browser contexts: Ada sits at the table (a laptop screen), Bob bets standing
(a phone screen). Each chooses a chip and taps a chance on the tableau (Ada Rouge, Bob Noir), both
say their stakes are set, the coup is dealt, and both screens show the two rows, the dealer's
calls and stacks that moved consistently with the totals. The coup is revealed as the cards
turn: each row's total once its cards are down, the calls after the last card, the settlement
(the stacks' new figures: until then each shows its figure from before the deal) after the call,
all within about three seconds. Screenshots go to /tmp/shots/.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import NARROW, SHOTS, WIDE, BrowserServer
from tests.browser.steps import sign_in

BUY_IN = 500
OPTIONS = {"bet_seconds": 300, "turn_seconds": 300, "min_stake": 10, "max_stake": 1000}
"""Both bettors say when their stakes are set, so no clock decides anything here: the clocks
are long, so that a machine busy enough to stretch the test's clicks past a short window (the
real clock of a real server) cannot close it first."""


def open_table(page: Any, name: str) -> str:
    response = page.request.post(
        "/api/tables", data={"game": "trente-et-quarante", "name": name, "options": OPTIONS}
    )
    assert response.status == 201, response.text()
    return f"/tables/{response.json()['table_id']}"


def confirm_buy_in(page: Any) -> None:
    expect(page.locator("#amount-dialog")).to_be_visible()
    page.fill("#amount-input", str(BUY_IN))
    page.click("#amount-ok")


def stake(page: Any, chip: int, chance: str, taps: int) -> None:
    """Choose a chip, then tap a chance; each tap adds the chip (the tableau says the total)."""
    page.locator(f'.teq-chip[data-chip="{chip}"]').click()
    for n in range(1, taps + 1):
        zone = page.locator(f'.teq-zone[data-chance="{chance}"]')
        zone.locator(".teq-hit").click()
        expect(zone.locator(".teq-pill-you")).to_contain_text(str(chip * n))


def seated_stack(page: Any, seat: int) -> int:
    return int(page.locator(f'.seat[data-seat="{seat}"]').get_attribute("data-stack"))


def standing_stack(page: Any, seat: int) -> int:
    return int(
        page.locator(f'.teq-standing-list li[data-seat="{seat}"]').get_attribute("data-stack")
    )


def row_total(page: Any, row: str) -> int:
    return int(page.locator(f'.teq-row[data-row="{row}"] .teq-total').get_attribute("data-total"))


WATCH_REVEAL = """() => {
  // What the page shows at each change while a coup is revealed (read back by REVEAL_SEEN).
  const shown = (el) => Boolean(el) && el.getClientRects().length > 0
    && getComputedStyle(el).visibility === "visible";
  const seen = [];
  // how long the page's own timers were held up (a busy machine): a 20 ms tick that comes late
  // adds its lateness, so the reveal's pace is checked on the page's time, not the machine's
  let held = 0;
  let tick = performance.now();
  setInterval(() => {
    const now = performance.now();
    held += Math.max(0, now - tick - 20);
    tick = now;
  }, 20);
  const look = () => {
    const root = document.querySelector("section.teq");
    const moment = {
      phase: root?.dataset.phase || null,
      stage: root?.dataset.reveal || null,
      totals: [...document.querySelectorAll(".teq-row")]
        .filter((row) => shown(row.querySelector(".teq-total"))).map((row) => row.dataset.row),
      called: Boolean(root?.classList.contains("is-called")),
      pending: shown(document.querySelector(".teq-call-pending")),
      settlement: shown(document.getElementById("settlement")),
      stacks: [...document.querySelectorAll(".seat .stack-value")].every(shown),
      figures: [...document.querySelectorAll(".seat-taken")].map((seat) =>
        seat.querySelector(".stack-value").textContent.replace(/[^0-9]/g, "")),
      settled: [...document.querySelectorAll(".seat-taken")].map((seat) => seat.dataset.stack),
      calls_logged: document.getElementById("log").textContent.includes("«"),
      result_logged: [...document.querySelectorAll("#log li.log-result")].some(shown),
    };
    const last = seen[seen.length - 1];
    const key = JSON.stringify(moment);
    if (!last || last.key !== key) seen.push({ ...moment, key, t: performance.now(), held });
  };
  window.__revealSeen = seen;
  const everything = { subtree: true, childList: true, attributes: true };
  new MutationObserver(look).observe(document.body, everything);
}"""
REVEAL_SEEN = "() => window.__revealSeen.map(({ key, ...moment }) => moment)"


def check_reveal(seen: list[dict[str, Any]], *, settled: bool) -> None:
    """Each row's total shows once its cards are down, the call after the last card, the
    settlement after the call (``settled``: the coup ended; an un après waits for choices), in
    order and within about three seconds of the page's time (less what its timers were held up
    by a busy machine). The next window may open meanwhile (the test server waits 0.3 s between
    hands): it says "Faites vos jeux", the last coup goes on being revealed."""
    first = next(i for i, m in enumerate(seen) if m["stage"] == "deal-noir")
    moments = seen[first:]
    before = seen[first - 1]["figures"]  # the stacks as the window closed
    stages = [m["stage"] for m in moments]
    order = ["deal-noir", "deal-rouge", "totals", "called", None]
    assert [s for s in order if s in stages] == order, stages
    assert stages == sorted(stages, key=order.index), stages  # never back to an earlier one
    expected_totals = {"deal-noir": [], "deal-rouge": ["noir"], "totals": ["noir", "rouge"]}
    for m in moments:
        if m["stage"] is not None:
            assert not m["settlement"] and not m["result_logged"], m
            # a stack keeps showing its figure from before the deal until the settlement
            assert m["stacks"] and m["figures"] == before, (before, m)
        if m["stage"] in expected_totals:
            assert m["totals"] == expected_totals[m["stage"]], m
            assert not m["called"] and not m["calls_logged"], m
            assert m["pending"] == (m["phase"] != "betting"), m  # "Rien ne va plus" stands
        if m["stage"] == "called":
            assert m["called"] and not m["pending"] and m["calls_logged"], m
    end = next(m for m in moments if m["stage"] is None)
    assert end["totals"] == ["noir", "rouge"] and end["called"] and end["calls_logged"], end
    assert end["stacks"] and end["figures"] == end["settled"], end
    assert end["settlement"] == end["result_logged"] == settled, end
    took = (end["t"] - moments[0]["t"]) - (end["held"] - moments[0]["held"])
    assert took < 3300, moments  # quick: the whole reveal in ~3 s


def settle_un_apres(ada: Any, bob: Any) -> None:
    """31 and 31: Ada shares her stake, Bob puts his in prison (each from the table)."""
    ada.locator('.teq-apres button[data-apres="share"]').click()
    bob.locator('.teq-apres button[data-apres="prison"]').click()


@pytest.mark.browser
def test_two_bettors_play_a_coup(live_server: BrowserServer, open_page: Any) -> None:
    ada = open_page(WIDE)
    bob = open_page(NARROW)
    sign_in(ada, "Ada")
    sign_in(bob, "Bob")
    url = open_table(ada, "Coup")
    ada.goto(url)
    bob.goto(url)

    # Ada takes seat 0; Bob bets standing although seats are free (a position after the seats).
    ada.locator('.seat-empty[data-seat="0"] button').click()
    confirm_buy_in(ada)
    expect(ada.locator('.seat.is-you[data-seat="0"]')).to_be_visible()
    # Bob's page has drawn Ada's sit first: a click on a button that the next state redraws
    # can land on the one taken away
    expect(bob.locator('.seat[data-seat="0"]')).to_contain_text("Ada")
    bob.get_by_test_id("bet-standing").click()
    expect(bob.locator("#amount-title")).to_have_text("Bet standing")
    confirm_buy_in(bob)
    standing = bob.locator(".teq-standing-list li.is-you")
    expect(standing).to_be_visible()
    bob_seat = int(standing.get_attribute("data-seat"))
    assert bob_seat >= 7  # the table's seven seats come first
    expect(ada.locator(f'.teq-standing-list li[data-seat="{bob_seat}"]')).to_contain_text("Bob")

    # Faites vos jeux: chips on the tableau. Each sees the other's stake there.
    expect(ada.get_by_test_id("teq-headline")).to_contain_text("Faites vos jeux")
    stake(ada, 50, "rouge", taps=2)
    stake(bob, 100, "noir", taps=1)
    expect(ada.locator('.teq-zone[data-chance="noir"] .teq-pill')).to_contain_text("Bob 100")
    expect(bob.locator('.teq-zone[data-chance="rouge"] .teq-pill')).to_contain_text("Ada 100")
    expect(ada.locator(".teq-clock")).to_be_visible()  # the first stake starts the clock
    ada.screenshot(path=str(SHOTS / "trente-et-quarante-wide-stakes.png"))
    bob.screenshot(path=str(SHOTS / "trente-et-quarante-narrow-stakes.png"), full_page=True)
    assert seated_stack(ada, 0) == BUY_IN  # stakes stay in the stack until the coup settles

    # Both say their stakes are set: "Rien ne va plus", and the coup is dealt at once; the pages
    # turn its cards one by one and tell the result only as they land.
    ada.evaluate(WATCH_REVEAL)
    ada.locator('button[data-kind="done"]').click()
    bob.locator('button[data-kind="done"]').click()
    for page in (ada, bob):
        expect(page.locator("#log")).to_contain_text("Rien ne va plus")
    expect(bob.locator("section.teq")).to_have_attribute("data-reveal", re.compile("deal"))
    expect(bob.locator("#settlement")).to_be_hidden()
    bob.screenshot(path=str(SHOTS / "trente-et-quarante-narrow-turning.png"), full_page=True)
    ada.wait_for_timeout(700)
    ada.screenshot(path=str(SHOTS / "trente-et-quarante-wide-turning.png"))
    for page in (ada, bob):
        expect(page.locator('.teq-row[data-row="rouge"] .teq-total')).to_be_visible()
        expect(page.locator("section.teq")).not_to_have_attribute("data-reveal", re.compile(".*"))
    noir, rouge = row_total(ada, "noir"), row_total(ada, "rouge")
    check_reveal(ada.evaluate(REVEAL_SEEN), settled=not noir == rouge == 31)
    assert 31 <= noir <= 40 and 31 <= rouge <= 40
    assert (row_total(bob, "noir"), row_total(bob, "rouge")) == (noir, rouge)

    if noir == rouge == 31:
        expect(ada.get_by_test_id("teq-apres")).to_be_visible()
        ada.screenshot(path=str(SHOTS / "trente-et-quarante-wide-un-apres.png"))
        settle_un_apres(ada, bob)
        expected = {"ada": BUY_IN - 50, "bob": BUY_IN - 100}  # half back; the whole in prison
        expect(bob.get_by_test_id("teq-prison")).to_contain_text("level 1")
    elif noir == rouge:
        expected = {"ada": BUY_IN, "bob": BUY_IN}  # après: nothing moves
    else:
        rouge_wins = rouge < noir  # the lower total wins
        call = "Rouge gagne" if rouge_wins else "Rouge perd"
        expect(ada.locator("#log")).to_contain_text(call)
        expect(bob.locator("#log")).to_contain_text(call)
        won = 100 if rouge_wins else -100
        expected = {"ada": BUY_IN + won, "bob": BUY_IN - won}

    # The stacks moved as the rows say, the same on both screens.
    for page in (ada, bob):
        expect(page.locator('.seat[data-seat="0"]')).to_have_attribute(
            "data-stack", str(expected["ada"])
        )
        expect(page.locator(f'.teq-standing-list li[data-seat="{bob_seat}"]')).to_have_attribute(
            "data-stack", str(expected["bob"])
        )
    assert seated_stack(bob, 0) == expected["ada"]
    assert standing_stack(ada, bob_seat) == expected["bob"]
    expect(ada.locator("#settlement")).to_contain_text(re.compile(r"Ada"))
    ada.screenshot(path=str(SHOTS / "trente-et-quarante-wide-dealt.png"))
    bob.screenshot(path=str(SHOTS / "trente-et-quarante-narrow-dealt.png"), full_page=True)


REVEAL_UN_APRES = """async () => {
  // The module alone, on views made up here: stakes taken on coup 2, then coup 2 dealt 31-31.
  const game = (await import("/static/js/games/trente-et-quarante.js")).default;
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = "/static/css/games/trente-et-quarante.css";
  document.head.append(css);
  await new Promise((done) => { css.onload = done; });
  const ctx = { ...(await import("/static/js/dom.js")), ...(await import("/static/js/cards.js")),
    seatName: (n) => `Seat ${n}`, you: 0, act: () => {}, sit: () => {} };
  const el = document.createElement("div");
  document.body.append(el);
  const render = (view) => { el.replaceChildren(); game.renderCenter(view, el, ctx); };
  const card = (code) => ({ card: code, up: true });
  const last = {
    noir: { cards: ["TS", "TH", "TD", "2C"].map(card), total: 32 },
    rouge: { cards: ["TC", "KH", "QD", "AS"].map(card), total: 31 },
  };
  const rows = {
    noir: { cards: ["KS", "TH", "9C", "2D"].map(card), total: 31 },
    rouge: { cards: ["QD", "JS", "9H", "2C"].map(card), total: 31 },
  };
  const bettor = { seat: 0, name: "Ada", stack: 900, role: "player", free_chips: 800, prison: [],
    stakes: [{ chance: "rouge", amount: 100, insured: false, premium: 0 }], done: true };
  const base = { you: 0, bettors: [bettor], seats: [bettor], history: [], shoe: { cards_left: 200 },
    limits: { min_stake: 10, max_stake: 1000, insurance: true, max_apres: 3 },
    tableau: { rouge: { stakes: 100, prison: 0 } } };
  render({ ...base, phase: "betting", coup: 2, rows: last, calls: [], result: null, legal: [] });
  const apres = {
    ...base, phase: "un_apres", coup: 2, rows, deadline: null, result: { tie: "un_apres" },
    calls: [{ fr: "Un… Un", en: "One… One" }, { fr: "Un après", en: "A tie on 31 (un après)" }],
    un_apres: [{ seat: 0, chance: "rouge", amount: 100 }],
    legal: ["share", "prison"].map((kind) => ({ kind, params: { chance: { one_of: ["rouge"] } } })),
  };
  const look = () => {
    const root = el.querySelector("section.teq");
    const shown = (node) => Boolean(node) && node.getClientRects().length > 0
      && getComputedStyle(node).visibility === "visible";
    return {
      stage: root.dataset.reveal || null,
      totals: [...root.querySelectorAll(".teq-total")].filter(shown).length,
      apres: shown(root.querySelector('[data-testid="teq-apres"]')),
      headline: root.querySelector('[data-testid="teq-headline"]').innerText.split("\\n")[0],
      delays: [...root.querySelectorAll(".teq-row .card")].map((c) =>
        c.classList.contains("teq-dealt") ? parseFloat(c.style.animationDelay) : null),
    };
  };
  const sleep = (ms) => new Promise((done) => setTimeout(done, ms));
  const seen = [];
  render(apres);
  seen.push(look());
  await sleep(900);
  render(apres); // another view of the same moment (a reconnection, a bettor leaving…)
  seen.push(look());
  const revealing = () => el.querySelector("section.teq").dataset.reveal;
  for (let i = 0; i < 40 && revealing(); i += 1) await sleep(100);
  seen.push(look());
  render(apres);
  seen.push(look());
  el.remove();
  return seen;
}"""


@pytest.mark.browser
def test_an_un_apres_is_called_after_the_cards_and_a_new_view_does_not_replay_them(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    page.goto("/")
    dealt, again, revealed, redrawn = page.evaluate(REVEAL_UN_APRES)
    # Just dealt: the first card turning, the others waiting their turn; no total, no call, no
    # choice yet ("Rien ne va plus" stands).
    assert dealt["stage"] == "deal-noir" and dealt["totals"] == 0 and not dealt["apres"], dealt
    assert dealt["headline"] == "Rien ne va plus", dealt
    assert dealt["delays"][0] is not None and -50 < dealt["delays"][0] <= 0, dealt
    assert all(b > a for a, b in zip(dealt["delays"], dealt["delays"][1:], strict=False)), dealt
    # Drawn again 0.9 s on: the cards down stay down, the next ones keep their moments.
    assert again["stage"] in ("deal-noir", "deal-rouge") and not again["apres"], again
    assert again["delays"][0] is None, again  # down: not turned again
    later = [d for d in again["delays"] if d is not None]
    assert later and all(d > -300 for d in later), again
    # After the last card: the call ("Un après"), both totals, and the choice to make; drawn
    # again, the same and nothing turns.
    for done in (revealed, redrawn):
        assert done["stage"] is None and done["totals"] == 2 and done["apres"], done
        assert done["headline"] == "Un après", done
    assert all(d is None for d in redrawn["delays"]), redrawn


HELD_ROW = """async () => {
  // The un après panel alone, on a view made up here: Ada has a free stake on Rouge and a
  // stake already in prison on Inverse (id 5, level 1), each offered share or prison.
  const { unApresBlock } = await import("/static/js/games/trente-et-quarante/panels.js");
  const sent = [];
  const ctx = { ...(await import("/static/js/dom.js")), seatName: (n) => `Seat ${n}`,
    chips: (n) => `${n}`, act: (action) => sent.push(action) };
  const bettor = { seat: 0, name: "Ada", stack: 900, role: "player", free_chips: 800,
    prison: [{ id: 5, chance: "inverse", amount: 40, level: 1 }],
    stakes: [{ chance: "rouge", amount: 100, insured: false, premium: 0 }] };
  const view = { you: 0, phase: "un_apres", bettors: [bettor], seats: [bettor], deadline: null,
    limits: { max_apres: 3 },
    un_apres: [
      { seat: 0, chance: "rouge", amount: 100 },
      { seat: 0, chance: "inverse", amount: 40, stake: 5 },
    ],
    legal: [
      ...["share", "prison"].map((kind) => ({ kind, params: { chance: { one_of: ["rouge"] } } })),
      ...["share", "prison"].map((kind) => ({ kind, params: { stake: { one_of: [5] } } })),
    ] };
  const el = unApresBlock(view, ctx);
  document.body.append(el);
  const row = el.querySelector('li[data-stake="5"]');
  const buttons = [...row.querySelectorAll("button")];
  const said = { row: row.innerText.replace(/\\s+/g, " "),
    names: buttons.map((b) => b.textContent) };
  buttons[0].click();
  buttons[1].focus();
  said.focused = document.activeElement === buttons[1];
  el.querySelector('li[data-chance="rouge"]:not([data-stake]) button[data-apres="prison"]').click();
  el.remove();
  return { ...said, sent };
}"""


@pytest.mark.browser
def test_a_stake_already_in_prison_is_offered_share_or_prison_by_its_id(
    live_server: BrowserServer, open_page: Any
) -> None:
    page = open_page(WIDE)
    page.goto("/")
    said = page.evaluate(HELD_ROW)
    assert "Your 40 in prison on Inverse (level 1):" in said["row"], said
    assert said["names"] == ["Share: 20 back", "Prison: 40 stays on Inverse, level 2"], said
    assert said["focused"], said  # real buttons: Tab and Enter reach them, as the other rows'
    assert said["sent"] == [
        {"kind": "share", "stake": 5},
        {"kind": "prison", "chance": "rouge"},
    ], said
