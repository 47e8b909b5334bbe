"""Every sentence the engines and the table send for people has a code the client words
(docs/i18n.md, "The engines' sentences"; docs/protocol/view.md §6.7).

The engines write a view's ``status``, a hand's ``note``, Vingt-un's dealer's calls, En og
tredive's round's end, ``cannot_play`` and ``table_over`` in English, each a
:class:`~app.games.core.coded.Coded` whose code and values the view sends beside it
(``<field>_coded``). The browser words
each code (static/js/engine-words.js, ``WORDS``). Here:

* the codes the source makes (read by ``ast``) and the codes ``WORDS`` words are the same set,
  and every code is made from a literal (a code built at run time could not be checked);
* hands played by the bots and at random, with options and stacks drawn by hypothesis, show
  no sentence without its code, and every code they send (a value's too) is one ``WORDS``
  knows; ``cannot_play`` and ``table_over`` say theirs;
* Trente et Quarante's calls (French, with the English the client words from a list of its
  own, static/js/games/trente-et-quarante/common.js) are all on that list;
* the table's notices are never written as bare words where a table is told them (they are
  marked messages, worded by the server in each watcher's language: docs/i18n.md, "The
  table's own words");
* every chip those hands move (and the table's close releases) says its reason with a code
  the client knows: the replay's chip movements and a result's lines are worded from it
  (``reason_coded``), and the codes' words are in every catalog (tests/i18n/
  test_catalogs_complete.py, test_js_strings_extracted.py).
"""

from __future__ import annotations

import ast
import functools
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.games.core.coded import Coded, coded_json
from app.games.core.game import Game
from app.games.core.money import Transfer
from app.games.core.registry import GAME_IDS, game_class
from app.games.trente_et_quarante import coup
from tests.games.contract_play import Seeds, table_options

ROOT = Path(__file__).resolve().parents[2]
WORDS_JS = ROOT / "static" / "js" / "engine-words.js"
CALLS_JS = ROOT / "static" / "js" / "games" / "trente-et-quarante" / "common.js"
CODE = re.compile(r"[a-z0-9-]+\.[a-z0-9_]+")

# ----------------------------------------------------------------------------- the two lists


def js_codes(text: str | None = None) -> set[str]:
    """The codes ``WORDS`` of static/js/engine-words.js words (its keys)."""
    source = WORDS_JS.read_text() if text is None else text
    body = source[
        source.index("const WORDS = {") : source.index("\n};", source.index("const WORDS"))
    ]
    return set(re.findall(r'^\s+"([a-z0-9-]+\.[a-z0-9_]+)":', body, flags=re.MULTILINE))


def _block(source: str, start: str, end: str) -> str:
    """The part of ``source`` from ``start`` to the first ``end`` after it."""
    first = source.index(start)
    return source[first : source.index(end, first)]


def _literals(node: ast.AST) -> Iterator[ast.AST]:
    """The expressions a code may be (through ``a if c else b``)."""
    if isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)
    else:
        yield node


MAKERS = {"Coded": "app", "_call": "app/games/vingt_un"}
"""The calls whose first argument is a code, and where: a Coded anywhere, Vingt-un's dealer's
calls."""
PASSED_ON = {
    ("app/games/core/coded.py", "_rebuild"),
    ("app/games/core/coded.py", "from_json"),
    ("app/games/vingt_un/table.py", "_call"),
}
"""Functions that make a Coded of a code given to them (their callers' codes are read)."""


class _Codes(ast.NodeVisitor):
    """The codes one module makes, and the places a code is not a literal."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.inside: list[str] = []
        self.codes: set[str] = set()
        self.values: dict[str, set[str]] = {}
        """The names of each code's values, as the source gives them."""
        self.unreadable: list[str] = []

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.inside.append(node.name)
        self.generic_visit(node)
        self.inside.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
        if node.args and name in MAKERS and self.where.startswith(MAKERS[name]):
            passed_on = (self.where, self.inside[-1] if self.inside else "") in PASSED_ON
            for code in _literals(node.args[0]):
                if isinstance(code, ast.Constant) and isinstance(code.value, str):
                    self.codes.add(code.value)
                    names = {keyword.arg for keyword in node.keywords if keyword.arg}
                    self.values.setdefault(code.value, set()).update(names)
                elif not passed_on:
                    self.unreadable.append(f"{self.where}:{node.lineno}: {ast.unparse(code)}")
        self.generic_visit(node)


@functools.cache
def trees() -> dict[str, ast.Module]:
    """Every module of app/, parsed, by its path."""
    return {
        str(path.relative_to(ROOT)): ast.parse(path.read_text(), filename=str(path))
        for path in sorted((ROOT / "app").rglob("*.py"))
    }


def source_codes() -> tuple[set[str], list[str]]:
    """Every code the source makes, and every place a code is not a literal."""
    codes: set[str] = set()
    unreadable: list[str] = []
    for where, tree in trees().items():
        found = _Codes(where)
        found.visit(tree)
        codes |= found.codes
        unreadable += found.unreadable
    return codes, unreadable


def source_values() -> dict[str, set[str]]:
    """The names of the values each code is made with."""
    values: dict[str, set[str]] = {}
    for where, tree in trees().items():
        found = _Codes(where)
        found.visit(tree)
        for code, names in found.values.items():
            values.setdefault(code, set()).update(names)
    return values


def test_the_source_and_the_client_know_the_same_codes() -> None:
    made, unreadable = source_codes()
    known = js_codes()
    assert len(made) > 60  # the reading found the engines' codes (73 today)
    assert unreadable == []
    assert all(CODE.fullmatch(code) for code in made), made
    assert sorted(made - known) == [], "codes the client does not word (engine-words.js)"
    assert sorted(known - made) == [], "codes engine-words.js words that nothing sends"


def test_a_code_the_client_lacks_is_found() -> None:
    source = WORDS_JS.read_text()
    without = source.replace('  "vingt-un.stakes":', '  // "vingt-un.stakes":')
    assert without != source
    assert js_codes(source) - js_codes(without) == {"vingt-un.stakes"}


# ----------------------------------------------------------------------------- views


def problems(node: Any, known: set[str], path: str = "view") -> Iterator[str]:
    """What in ``node`` (a view, or part of one) is not said as a code the client knows: a
    sentence for people (a capital and a space) with no ``<key>_coded`` beside it, a coded
    field that does not match its English field, a code ``known`` lacks."""
    if isinstance(node, list):
        for index, item in enumerate(node):
            yield from problems(item, known, f"{path}[{index}]")
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        here = f"{path}.{key}"
        if key.endswith("_coded"):
            english = node.get(key.removesuffix("_coded"), "missing")
            yield from _coded_problems(value, english, known, here)
            continue
        if f"{key}_coded" in node:
            continue
        if key in ("fr", "en") and path.rsplit(".", 1)[-1].startswith("calls"):
            continue  # Trente et Quarante's calls: the client's own list (test below)
        texts = value if isinstance(value, list) else [value]
        for text in texts:
            if isinstance(text, str) and re.match(r"[A-Z]\S* ", text):
                yield f"{here}: {text!r} has no {key}_coded"
        yield from problems(value, known, here)


def _coded_problems(coded: Any, english: Any, known: set[str], where: str) -> Iterator[str]:
    if isinstance(english, list):
        if not isinstance(coded, list) or len(coded) != len(english):
            yield f"{where}: not one code for each of {english!r}"
            return
        for index, (one, text) in enumerate(zip(coded, english, strict=True)):
            yield from _coded_problems(one, text, known, f"{where}[{index}]")
        return
    if english is None or coded is None:
        if english is not coded:
            yield f"{where}: {coded!r} beside {english!r}"
        return
    yield from _code_problems(coded, known, where)


def _code_problems(coded: Any, known: set[str], where: str) -> Iterator[str]:
    if not isinstance(coded, dict) or set(coded) != {"code", "values"}:
        yield f"{where}: {coded!r} is not {{code, values}}"
        return
    if coded["code"] not in known:
        yield f"{where}: {coded['code']!r} is not in engine-words.js"
    for name, value in coded["values"].items():
        for one in value if isinstance(value, list) else [value]:
            if isinstance(one, dict):
                yield from _code_problems(one, known, f"{where}.values.{name}")


def test_a_sentence_without_its_code_is_found() -> None:
    known = {"vingt-un.stakes"}
    stakes = {"code": "vingt-un.stakes", "values": {"seat": 2, "stake": 10}}
    fine = {"status": "Seat 2 stakes 10", "status_coded": stakes, "phase": "staking"}
    assert list(problems(fine, known)) == []
    assert list(problems({"seats": [{"note": "Seat 2 stakes 10"}]}, known)) == [
        "view.seats[0].note: 'Seat 2 stakes 10' has no note_coded"
    ]
    unknown = {"calls": ["Double!"], "calls_coded": [{"code": "vingt-un.double", "values": {}}]}
    assert list(problems(unknown, known)) == [
        "view.calls_coded[0]: 'vingt-un.double' is not in engine-words.js"
    ]
    nested = {"code": "trianta-ena.seat_note", "values": {"seat": 1, "note": stakes}}
    assert list(problems({"m": "Seat 1: x", "m_coded": nested}, {"trianta-ena.seat_note"})) == [
        "view.m_coded.values.note: 'vingt-un.stakes' is not in engine-words.js"
    ]
    assert list(problems({"over": "Seat 1 wins", "over_coded": None}, known)) == [
        "view.over_coded: None beside 'Seat 1 wins'"
    ]


def _said(engine: Game, known: set[str]) -> list[str]:
    """What every viewer's view, and each seat's ``cannot_play`` and the ``table_over``, says
    without a code the client knows."""
    found: list[str] = []
    for viewer in [None, *engine.seated]:
        found += problems(engine.view(viewer), known, f"view({viewer})")
    asides = {"table_over": engine.table_over}
    asides |= {f"cannot_play({seat})": engine.cannot_play(seat) for seat in engine.seated}
    asides |= {f"leave_cost({seat})": engine.leave_cost(seat) for seat in engine.seated}
    for where, text in asides.items():
        if text is None:
            continue
        if not isinstance(text, Coded):
            found.append(f"{where}: {text!r} has no code")
            continue
        found += _code_problems(coded_json(text), known, where)
    return found


def _moved(transfers: list[Transfer], known: set[str], where: str) -> list[str]:
    """The transfers whose reason is not said with a code the client knows (and its JSON)."""
    found: list[str] = []
    for transfer in transfers:
        if not isinstance(transfer.reason, Coded):
            found.append(f"{where}: the reason {transfer.reason!r} has no code")
            continue
        row = transfer.to_json()
        if row["reason"] != str(transfer.reason) or "reason_coded" not in row:
            found.append(f"{where}: {row!r} does not say its reason's code")
        found += _code_problems(row.get("reason_coded"), known, f"{where}: {transfer.reason!r}")
    return found


def play(engine: Game, rng: random.Random, hands: int, known: set[str]) -> list[str]:
    """Up to ``hands`` hands played by the bots and at random (a timeout now and then), every
    view read after every step, every chip moved checked for its reason's code; then the
    table closes (its chips released)."""
    found = _said(engine, known)
    for _ in range(hands):
        if engine.in_hand or engine.table_over or not engine.can_start() or engine.to_act():
            break
        engine.start_hand()
        for _step in range(400):
            if not engine.in_hand:
                break
            found += _said(engine, known)
            waiting = sorted(engine.to_act())
            if not waiting or rng.random() < 0.05:  # the clock (Trente et Quarante's window)
                for seat, action in engine.timeout_actions():
                    engine.apply(seat, action, by_clock=True)
                continue
            seat = rng.choice(waiting)
            engine.apply(seat, engine.bot_action(seat, rng))
        done = engine.take_completed()
        if done is not None:
            found += _moved(done.transfers, known, f"hand {engine.hand_number}")
        engine.take_log()
        found += _said(engine, known)
        for seat in engine.seated:  # a player short of chips buys back in, now and then
            if engine.cannot_play(seat) and engine.can_top_up(seat) and rng.random() < 0.5:
                low, high = engine.buy_in_limits(seat)
                engine.add_chips(seat, max(1, min(high, low)))
        found += _said(engine, known)
        if found:
            break
    if not engine.in_hand:
        engine.transfers = []
        engine.release_all()
        found += _moved(engine.transfers, known, "the table closed")
    return found


@pytest.mark.parametrize("game_id", GAME_IDS)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 2**32))
def test_played_hands_say_every_sentence_with_a_code_the_client_knows(
    game_id: str, data: st.DataObject, seed: int
) -> None:
    cls = game_class(game_id)
    options = data.draw(table_options(cls))
    engine = cls(options, seeds=Seeds(f"engine-words:{seed}"))
    rng = random.Random(seed)
    players = data.draw(st.integers(1, max(1, min(cls.SIM_PLAYERS + 2, engine.max_seats))))
    for seat in range(players):
        low, high = engine.buy_in_limits(seat)
        if low > high:
            continue
        # small stacks reach a bank's cover, a stake cut, a player who cannot play
        stack = data.draw(st.sampled_from([low, min(high, low * 2), min(high, low * 5)]))
        engine.sit(seat, engine.sim_stack(seat, stack))
    engine.take_log()
    assert play(engine, rng, hands=6, known=js_codes()) == []


# ----------------------------------------------------------------------------- the calls


def _call_words() -> tuple[set[str], set[str]]:
    """The English calls common.js words (its CALLS) and the totals it words (its TOTALS)."""
    source = CALLS_JS.read_text()
    calls = source[
        source.index("const CALLS = {") : source.index("};", source.index("const CALLS"))
    ]
    totals = source[
        source.index("const TOTALS = {") : source.index("};", source.index("const TOTALS"))
    ]
    return set(re.findall(r'^\s+"([^"]+)":', calls, re.MULTILINE)), set(
        re.findall(r"(\w+): \(\) =>", totals)
    )


def engine_calls() -> set[str]:
    """Every call's English Trente et Quarante's engine may make: the totals', the results',
    and each ``{"fr": …, "en": …}`` its source writes."""
    english = {en for _fr, en in coup._TOTALS_CALLS.values()}
    english |= {en for _fr, en in coup._RESULT_CALLS.values()}
    folder = ROOT / "app" / "games" / "trente_et_quarante"
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict):
                keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
                if keys == ["fr", "en"] and isinstance(node.values[1], ast.Constant):
                    english.add(str(node.values[1].value))
    return english


def test_every_trente_et_quarante_call_is_worded_by_the_client() -> None:
    calls, totals = _call_words()
    made = engine_calls()
    assert len(made) > 100
    unworded = []
    for en in sorted(made):
        both = re.fullmatch(r"(\w+)… (\w+)", en)
        if en not in calls and not (both and {both[1], both[2]} <= totals):
            unworded.append(en)
    assert unworded == []


# ----------------------------------------------------------------------------- the notices

TELLING = {"notice": 0, "shut_down": 0, "shutdown": 0, "_void_hand": 0, "void_hand": 0}
"""The calls that tell a table's watchers something (their first argument), outside the
engines: ``hand_over(reason, …)`` too."""


def test_a_reason_without_its_code_is_found() -> None:
    known = {"en-og-tredive.chips_bet_paid"}
    coded = Transfer("bets:1", "pot", 1, Coded("en-og-tredive.chips_bet_paid", "bet paid"))
    assert _moved([coded], known, "hand") == []
    assert coded.to_json()["reason_coded"] == {"code": "en-og-tredive.chips_bet_paid", "values": {}}
    assert _moved([Transfer("bets:1", "pot", 1, "bet paid")], known, "hand") == [
        "hand: the reason 'bet paid' has no code"
    ]
    unknown = Transfer("pot", "seat:1", 1, Coded("en-og-tredive.chips_pot_won", "pot won"))
    assert _moved([unknown], known, "hand") == [
        "hand: 'pot won': 'en-og-tredive.chips_pot_won' is not in engine-words.js"
    ]


def test_no_table_is_told_bare_words() -> None:
    bare = []
    for where, tree in trees().items():
        if where.startswith("app/games"):
            continue  # the engines' own
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
            if name in TELLING or name == "hand_over":
                first = node.args[0]
                if isinstance(first, ast.JoinedStr) or (
                    isinstance(first, ast.Constant) and isinstance(first.value, str)
                ):
                    bare.append(f"{where}:{node.lineno}: {ast.unparse(first)[:60]}")
    assert bare == []
