"""Every message the table, the log, the replay and the lobby show is written for players.

The engines are played by their bots (as ``app/simulate.py`` plays them) at every table size
until each game has logged examples of every event kind its package logs (a kind the bots
rarely reach is built from the shape of its log call); the table's own events are added. Each
event is then put in words by the page's own code in Chromium (``static/js/story.js`` with the
game's module, as the live log and the replay do), and each line is read for what a player
should never meet: a card code ("TH"), a seat number where the player's name is known, a key
("when_ready", "dealer_total"), an id, "undefined", "null", "1 chips". The replay's step titles
(the server's ``action_text``) go through the words the replay page puts them in, and the
lobby's options through the lobby's.
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from app.games.core.registry import game_class
from app.review.steps import action_text
from app.simulate import seed_stream
from tests.browser.conftest import WIDE, BrowserServer

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "vingt-un": "vingt_un",
    "trianta-ena": "trianta_ena",
    "greek-31": "greek_31",
    "en-og-tredive": "en_og_tredive",
    "trente-et-quarante": "trente_et_quarante",
}
NAMES = ["Ada", "Basil", "Clio", "Dmitri", "Elena", "Faustine", "Georgios", "Helga", "Ines"]
NAMES += ["Jonas", "Kira", "Lev", "Mara", "Nils", "Olga", "Pavel"]
EXAMPLES = 8  # of each kind

TABLE_EVENTS: list[dict[str, Any]] = [
    {"kind": "sit", "seat": 2, "name": "Clio", "amount": 500},
    {"kind": "leave", "seat": 3, "name": "Dmitri"},
    {"kind": "top_up", "seat": 1, "name": "Basil", "amount": 1},
    {"kind": "top_up", "seat": 1, "name": "Basil", "amount": 200},
    {"kind": "hand_start", "number": 7},
    {"kind": "hand_void", "number": 7, "reason": "the server restarted: stakes returned"},
    {"kind": "hand_void", "reason": "the host voided the hand"},
    {"kind": "ready", "seat": 0, "name": "Ada"},
    {"kind": "deal_now", "seat": 0, "name": "Ada"},
    {"kind": "sat_out", "seat": 1, "name": "Basil"},
    {"kind": "sat_out", "seat": 1, "name": "Basil", "reason": "away for three hands"},
    {"kind": "came_back", "seat": 1, "name": "Basil"},
    {
        "kind": "hand_end",
        "result": {
            "players": [
                {"seat": 0, "name": "Ada", "net": 20, "player_id": "a" * 32},
                {"seat": 1, "name": "Basil", "net": -20, "player_id": "b" * 32},
            ]
        },
    },
]

PROBLEMS = [
    (re.compile(r"\b(?:[2-9TJQKA][SHDC]|XX)\b"), "a card code"),
    # "Ada sat down in seat 2" names the place beside the player: not a name's stand-in
    (re.compile(r"(?<!\bin )\b[Ss]eat \d"), "a seat number (the player's name is known)"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a key"),
    (re.compile(r"\b[0-9a-f]{12,}\b"), "an id"),
    (re.compile(r"\b(?:undefined|null|NaN|None|True|False)\b|\[object"), "a program's value"),
    (re.compile(r"(?:^|\s)\?(?:\s|$|\.)"), "an unknown card"),
    (re.compile(r"(?<![\d,.])1 chips\b"), "“1 chips”"),
    (re.compile(r"\b\d+ \(\d"), "a bare number"),
]


def logged_kinds(game: str) -> set[str]:
    """The kinds of event the game's package logs, read from its source."""
    kinds: set[str] = set()
    for path in (ROOT / "app" / "games" / PACKAGES[game]).rglob("*.py"):
        kinds |= set(re.findall(r'\blog\(\s*"([a-z_]+)"', path.read_text()))
    return kinds


def played(game: str) -> tuple[dict[str, list[dict[str, Any]]], list[dict[str, Any]]]:
    """Events of each kind, and actions, from the bots playing the game at every table size."""
    cls = game_class(game)
    events: dict[str, list[dict[str, Any]]] = defaultdict(list)
    actions: list[dict[str, Any]] = []
    for players in (2, 3, 5, 7):
        for seed in range(4):
            engine = cls({**cls.SIM_OPTIONS}, seeds=seed_stream(seed * 11 + players))
            rng = random.Random(seed)
            stack = [1000, 60, 250, 4000][seed]
            for seat in range(min(players, engine.max_seats)):
                engine.sit(seat, engine.sim_stack(seat, stack))
            for _ in range(20):
                for _step in range(200):  # between hands: a bank offered, taken, declined
                    waiting = sorted(engine.to_act())
                    if engine.in_hand or not waiting:
                        break
                    engine.apply(waiting[0], engine.bot_action(waiting[0], rng))
                if not engine.can_start():
                    break
                engine.start_hand()
                for _step in range(5000):
                    if engine.take_completed() is not None:
                        break
                    waiting = engine.to_act()
                    if not waiting:
                        break
                    seat = min(waiting)
                    action = engine.bot_action(seat, rng)
                    if len(actions) < 400 and rng.random() < 0.3:
                        actions.append(action)
                    engine.apply(seat, action)
                for event in engine.take_log():
                    if len(events[event["kind"]]) < EXAMPLES:
                        events[event["kind"]].append(event)
    return events, actions


def built(game: str, events: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Events the bots seldom reach, in the shape of their log calls (app/games/<game>)."""
    out: list[dict[str, Any]] = []
    if game == "vingt-un":
        out += [{"kind": "natural_paid_by_all", "seat": 2, "to": 1, "amount": 10}]
        out += [
            {"kind": "settle", "seat": 1, "hand": 1, "result": 0, "reason": "stand off"},
            {"kind": "split", "seat": 1, "hand": 0, "new_hand": 1, "card": "8S", "stake": 10},
        ]
    elif game == "trianta-ena":
        out += [
            {"kind": "bank_offered", "seat": 2, "vacant": False},
            {"kind": "bank_accepted", "seat": 2, "old_banker": 0, "places": {}},
            {"kind": "bank_declined", "seat": 2},
            {"kind": "bank_ended", "seat": 0, "reason": "broke"},
            {"kind": "bank_ended", "seat": 0, "reason": "left"},
            {"kind": "stake_cut", "seat": 1, "bet": 40, "stake": 25},
            {"kind": "stake_refused", "seat": 1, "bet": 40},
        ]
    elif game == "greek-31":
        out += [
            {"kind": "no_cover", "seat": 3},
            {"kind": "table_over", "seat": 1},
            {"kind": "void", "reason": "the deck is empty"},
        ]
    elif game == "en-og-tredive":
        out += [
            {"kind": "restock", "cards": 17},
            {"kind": "cut_tie", "seats": [0, 2]},
            {"kind": "match_won", "seat": 1, "pot": 60},
            {"kind": "left_match", "seat": 2, "bets": 2, "chips": 20},
            {"kind": "left_match", "seat": 2, "bets": 0, "chips": 0},
        ]
    elif game == "trente-et-quarante":
        held = next(iter(events.get("prison") or []), None) or {
            "kind": "prison",
            "seat": 1,
            "id": "s1",
            "chance": "rouge",
            "amount": 100,
            "level": 1,
        }
        for kind in (
            "prison",
            "prison_deeper",
            "prison_freed",
            "prison_lost",
            "prison_returned",
            "prison_shared",
            "prison_up",
        ):
            out.append({**held, "kind": kind})
        out += [
            {"kind": "move_prison", "seat": 1, "stake": "s1", "chance": "rouge", "to": "noir"},
            {"kind": "share", "seat": 1, "chance": "rouge", "amount": 100, "returned": 50},
            {"kind": "un_apres_choice", "seats": [0, 2]},
        ]
    return out


WALK = """async ({ game, events, names, labels }) => {
  const story = await import("/static/js/story.js");
  const dom = await import("/static/js/dom.js");
  const cards = await import("/static/js/cards.js");
  const words = await import("/static/js/words.js");
  const { loadModule } = await import("/static/js/game-module.js");
  const module = await loadModule(game);
  const seatName = (n) => names[n] ?? `Seat ${n}`;
  const seats = names.map((name, seat) => ({ seat, name, stack: 100 }));
  const view = { seats, you: 0, table: { max_seats: names.length }, legal: [] };
  const ctx = { ...dom, cardEl: cards.cardEl, cardRow: cards.cardRow, cardText: cards.cardText,
    seatName, you: 0, view, live: true, act() {}, sit() {} };
  const lines = events.map((e) => [e.kind, JSON.stringify(e), story.describe(e, module, ctx)]);
  const titles = labels.map((l) => [l, words.forPlayers(l, seatName)]);
  return { lines, titles, module: module !== null };
}"""


def read(line: str) -> list[str]:
    return [what for pattern, what in PROBLEMS if pattern.search(line)]


@pytest.mark.browser
@pytest.mark.parametrize("game", list(PACKAGES))
def test_every_event_of_the_game_is_told_in_players_words(
    live_server: BrowserServer, open_page: Any, game: str
) -> None:
    events, actions = played(game)
    walk = [e for examples in events.values() for e in examples] + built(game, events)
    walk += TABLE_EVENTS
    kinds = {e["kind"] for e in walk}
    missing = logged_kinds(game) - kinds
    assert not missing, f"{game}: no example of {sorted(missing)}: add one to built()"

    names = NAMES[:16]
    labels = [f"{names[i % 5]}: {action_text(a)}" for i, a in enumerate(actions)]
    labels += ["The deal", "Clio sits down with 500 chips", "Seat 3 (timer): stand"]
    page = open_page(WIDE)
    page.goto(f"/games/{game}/rules")
    result = page.evaluate(WALK, {"game": game, "events": walk, "names": names, "labels": labels})

    wrong = []
    told: dict[str, int] = defaultdict(int)
    for kind, event, lines in result["lines"]:
        for line in lines:
            told[kind] += 1
            for what in read(line):
                wrong.append(f"{kind}: {what} in “{line}” ({event})")
    for label, shown in result["titles"]:
        for what in read(shown):
            wrong.append(f"replay step: {what} in “{shown}” (the server's “{label}”)")
    assert not wrong, f"{len(wrong)} lines not in players' words:\n" + "\n".join(wrong[:60])

    # A hand's result says who won and who lost, in those words (or a push).
    for kind, _event, lines in result["lines"]:
        if kind == "settle" and game in ("vingt-un", "trianta-ena"):
            for line in lines:
                assert re.search(r"\b(?:[Ww]on|[Ll]ost|stands? off|[Nn]either)\b", line), line


@pytest.mark.browser
def test_the_lobby_tells_every_option_in_words(live_server: BrowserServer, open_page: Any) -> None:
    page = open_page(WIDE)
    page.goto("/")
    page.locator("#open-game").wait_for()
    shown = []
    for game in PACKAGES:
        page.select_option("#open-game", game)
        shown += page.locator(
            "#open-options .help, #open-options label, #open-options option"
        ).all_inner_texts()
    assert len(shown) > 40
    wrong = [
        f"{what} in “{text}”"
        for text in shown
        for what in [
            *read(text),
            *(["the rule book's file"] if "docs/" in text or "§" in text else []),
        ]
    ]
    assert not wrong, "\n".join(wrong)
