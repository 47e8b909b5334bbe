"""A hand's steps and its analysis in the reader's words (static/js/step-words.js,
static/js/analysis.js; docs/i18n.md).

The replay's step titles ("Ada: bet 20", "Basil (timer): stand", "Clio sits down with 300
chips"), the analysis's options and its tallies ("23 of 25 decisions best; 12 chips given up
in expectation") are worded by the page from what the record and the analysis hold (a step's
``seat``, ``by``, ``action``, ``roster``, ``amount``; a tally's numbers), never from the
server's English. In English they read as the server's words did on the page (every step of
bots' hands of each game); in French and Greek, as the catalogs word them.
"""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from app.api.routes.analysis import tally_words
from app.games.core.registry import GAME_IDS
from app.i18n.catalogs import translations
from app.i18n.formats import number
from app.review.steps import action_text, replay_for
from tests.browser.conftest import WIDE, BrowserServer
from tests.review.engine_play import recorded

pytestmark = pytest.mark.browser

WORD = """async ({ steps, names, actions, tallies }) => {
  const words = await import("/static/js/step-words.js");
  const analysis = await import("/static/js/analysis.js");
  const old = await import("/static/js/words.js");
  const namer = (known) => (n) => known[n] ?? `Seat ${n}`;
  const seatName = namer(names);
  return {
    steps: steps.map((s) => {
      const named = namer(s.names || names);
      return [words.stepWords(s, named), old.forPlayers(s.label, named)];
    }),
    actions: actions.map(([a, label]) => [words.actionWords(a), old.forPlayers(label, seatName)]),
    tallies: tallies.map((tally) => analysis.tallyWords(tally)),
  };
}"""
"""Each step (and action) worded by the page, beside the server's English as the page showed
it before (words.js's forPlayers: a card as "10♥", a seat by its player's name)."""

TALLIES: list[dict[str, float]] = [
    {"decisions": 0, "best": 0, "given_up": 0},
    {"decisions": 1, "best": 1, "given_up": 0.001},
    {"decisions": 25, "best": 23, "given_up": 12.2},
    {"decisions": 3, "best": 1, "given_up": 1.0},
    {"decisions": 2, "best": 2, "given_up": 0.35},
]


def ungrouped(text: str) -> str:
    """The page writes a number as its language does (1,000); the server's label did not."""
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


def steps_of(game: str) -> tuple[list[dict[str, Any]], dict[int, str]]:
    """Every step of the first bots' hands of ``game``, as the replay sends them (without the
    views), the seats named (every other hand by bots' names, which say so: "Bot 1 (bot)")."""
    steps: list[dict[str, Any]] = []
    names: dict[int, str] = {}  # the last hand's, for its actions
    for i, (played, _views, _shuffles) in enumerate(recorded(game)[:8]):
        record = copy.deepcopy(played)
        names = {}
        for seat in [*record.get("seats_before", []), *record.get("seats_after", [])]:
            n = int(seat["seat"])
            seat["name"] = names[n] = f"Bot {n} (bot)" if i % 2 else f"Player {n}"
        keys = ("index", "seat", "by", "action", "roster", "amount", "label")
        steps += [
            {**{k: step[k] for k in keys}, "names": names}
            for step in replay_for(record, None)["steps"]
        ]
    return steps, names


@pytest.mark.parametrize("game", GAME_IDS)
def test_in_english_every_step_reads_as_the_server_worded_it(
    live_server: BrowserServer, open_page: Any, game: str
) -> None:
    steps, names = steps_of(game)
    actions = [[s["action"], action_text(s["action"])] for s in steps if s["action"]]
    page = open_page(WIDE)
    page.goto(f"/games/{game}/rules")
    shown = page.evaluate(
        WORD, {"steps": steps, "names": names, "actions": actions, "tallies": TALLIES}
    )
    assert len(shown["steps"]) == len(steps) and steps[0]["seat"] is None
    different = [
        (mine, theirs) for mine, theirs in shown["steps"] if ungrouped(mine) != theirs.rstrip()
    ]
    assert not different, different[:20]
    different = [
        (mine, theirs) for mine, theirs in shown["actions"] if ungrouped(mine) != theirs.rstrip()
    ]
    assert not different, different[:20]
    assert shown["tallies"] == [
        tally_words(int(t["decisions"]), int(t["best"]), t["given_up"]) for t in TALLIES
    ]


SAMPLE_STEPS = [
    {"index": 0, "seat": None, "by": None, "action": None, "roster": None, "amount": None},
    {
        "index": 1,
        "seat": 0,
        "by": "timeout",
        "action": {"kind": "stake", "chance": "rouge", "amount": 1500},
        "roster": None,
    },
    {
        "index": 2,
        "seat": 1,
        "by": None,
        "action": {"kind": "stand", "conceal": 0},
        "roster": None,
        "amount": None,
    },
    {"index": 3, "seat": 2, "by": None, "action": None, "roster": "sit", "amount": 300},
    {
        "index": 4,
        "seat": 1,
        "by": None,
        "action": {"kind": "discard", "cards": ["TH", "2S"]},
        "roster": None,
        "amount": None,
    },
]
SAMPLE_NAMES = {0: "Ada", 1: "Basil", 2: "Clio"}


def expected(locale: str) -> tuple[list[str], list[str]]:
    """The sample steps and tallies as ``locale``'s catalog words them (each message
    translated: a catalog that lacks one fails here, not on the page)."""
    catalog = translations(locale, "js")

    def said(msgid: str, **values: Any) -> str:
        text = catalog.gettext(msgid)
        if re.search(r"[a-z]{2}", re.sub(r"\{\w+\}", "", msgid)):  # words, not values alone
            assert text != msgid, f"{msgid!r} is not translated into {locale}"
        return text.format(**values)

    def counted(singular: str, plural: str, n: int, **values: Any) -> str:
        text = catalog.ngettext(singular, plural, n)
        assert text not in (singular, plural), f"{singular!r} is not translated into {locale}"
        return text.format(n=number(n, locale), **values)

    stake = said("stake {amount} on {chance}", amount=number(1500, locale), chance="rouge")
    steps = [
        said("The deal"),
        said("{who} (timer): {action}", who="Ada", action=stake),
        said("{who}: {action}", who="Basil", action=said("stand, concealing the first card")),
        counted("{who} sits down with {n} chip", "{who} sits down with {n} chips", 300, who="Clio"),
        said("{who}: {action}", who="Basil", action=said("discard {cards}", cards="10♥, 2♠")),
    ]
    chips = counted("{n} chip", "{n} chips", 12)
    tallies = [
        said("No decision analysed"),
        counted(
            "{best} of {n} decision best; nothing given up in expectation",
            "{best} of {n} decisions best; nothing given up in expectation",
            1,
            best=number(1, locale),
        ),
        counted(
            "{best} of {n} decision best; {chips} given up in expectation",
            "{best} of {n} decisions best; {chips} given up in expectation",
            25,
            best=number(23, locale),
            chips=chips,
        ),
    ]
    return steps, tallies


@pytest.mark.parametrize("locale", ["fr", "el"])
def test_a_reader_reads_the_steps_and_the_tallies_in_their_own_language(
    live_server: BrowserServer, open_page: Any, locale: str
) -> None:
    page = open_page(WIDE)
    page.context.add_cookies([{"name": "t31_lang", "value": locale, "url": live_server.url}])
    page.goto("/games/greek-31/rules")
    assert page.locator("html").get_attribute("lang") == locale
    shown = page.evaluate(
        WORD,
        {"steps": SAMPLE_STEPS, "names": SAMPLE_NAMES, "actions": [], "tallies": TALLIES[:3]},
    )
    steps, tallies = expected(locale)
    assert [mine for mine, _ in shown["steps"]] == steps
    assert shown["tallies"] == tallies
