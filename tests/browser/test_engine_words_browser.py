"""The engines' sentences and the table's notices, worded by the page (static/js/engine-words.js)
in the reader's language: every code the server sends, with values of the names the source
gives it, read in the pseudo-locale ``qps`` (every word from the catalog: nothing outside
⟦ ⟧, no placeholder left, no "undefined"), and samples read in French and Greek as a player
there reads them, the same code worded for two readers of one table in two languages.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.i18n.test_engine_words import js_codes, source_values

NUMBERS = {
    "amount": 30,
    "bet": 40,
    "bets": 2,
    "cards": 3,
    "chips": 20,
    "cover": 25,
    "hand": 2,
    "least": 40,
    "min_bet": 10,
    "minutes": 10,
    "stake": 10,
    "total": 19,
}
"""A sample of each value that is a number (the others are below)."""
NESTED = {"code": "greek-31.no_cover", "values": {}}
"""A sentence within a sentence: a note, who deals next, a round's end's line."""


def sample(code: str, names: set[str]) -> dict[str, Any]:
    """``code`` with a value for each of ``names``, as the server would send it."""
    values: dict[str, Any] = {}
    for name in names:
        if name in NUMBERS:
            values[name] = NUMBERS[name]
        elif name in ("seat", "to", "knocker"):
            values[name] = {"seat": 1, "to": 2, "knocker": 3}[name]
        elif name == "seats":
            values[name] = [1, 2]
        elif name in ("note", "next"):
            values[name] = NESTED
        elif name == "lines":
            values[name] = [{"code": "en-og-tredive.knocked", "values": {"seat": 3}}, NESTED]
        elif name == "reason":
            values[name] = "higher" if code.startswith("trianta-ena") else "dealer over 21"
        elif name == "outcome":
            values[name] = "bust"
        elif name == "waiting":
            values[name] = True
        elif name == "title":
            values[name] = "Vingt-un"
        elif name == "chance":  # a Trente et Quarante chance, said by its French name
            values[name] = "rouge"
        else:
            raise AssertionError(f"no sample for {code}'s {name}")
    return {"code": code, "values": values}


WORD = """async (samples) => {
  const { said } = await import("/static/js/engine-words.js");
  const names = ["Ada", "Basil", "Clio", "Dmitri"];
  const ctx = { seatName: (n) => names[n], you: 0, chips: (n) => String(n) };
  return samples.map((coded) => [coded.code, said(coded, ctx, "ENGLISH")]);
}"""


def worded(page: Any, samples: list[dict[str, Any]]) -> dict[str, str]:
    return dict(page.evaluate(WORD, samples))


def open_in(open_page: Any, live_server: Any, locale: str) -> Any:
    page = open_page()
    page.context.add_cookies([{"name": "t31_lang", "value": locale, "url": live_server.url}])
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == locale
    return page


@pytest.mark.browser
def test_every_code_is_worded_from_the_catalog(open_page: Any, live_server: Any) -> None:
    values = source_values()
    codes = js_codes()
    assert codes == set(values)
    page = open_in(open_page, live_server, "qps")
    said = worded(page, [sample(code, values[code]) for code in sorted(codes)])
    wrong = {}
    for code, text in said.items():
        outside = text
        while re.search(r"⟦[^⟦⟧]*⟧", outside):  # a sentence within a sentence: inmost first
            outside = re.sub(r"⟦[^⟦⟧]*⟧", "", outside)
        if (
            not text.strip()
            or text == "ENGLISH"
            or any(c.isalpha() and c.isascii() for c in outside)
            or any(bad in text for bad in ("{", "undefined", "NaN", "null", "[object"))
        ):
            wrong[code] = text
    assert wrong == {}


@pytest.mark.browser
def test_two_readers_read_the_same_sentences_in_their_own_languages(
    open_page: Any, live_server: Any
) -> None:
    samples = [
        {"code": "vingt-un.stakes", "values": {"seat": 1, "stake": 10}},
        {"code": "trianta-ena.won", "values": {"stake": 5, "reason": "banker bust"}},
        {"code": "en-og-tredive.pays", "values": {"seat": 0, "bets": 2}},
        {"code": "en-og-tredive.pays", "values": {"seat": 1, "bets": 1}},
        {"code": "vingt-un.cannot_play", "values": {"least": 40, "min_bet": 10}},
    ]
    french = open_in(open_page, live_server, "fr")
    said = french.evaluate(WORD, samples)
    assert [text for _code, text in said] == [
        "Basil mise 10.",
        "Gagne 5 (le banquier saute).",
        "Tu paies 2 mises au pot",
        "Basil paie une mise au pot",
        "Il te faut 40 jetons pour recevoir des cartes (quatre fois la plus petite mise, 10) : "
        "ajoute des jetons ou quitte la table.",
    ]
    greek = open_in(open_page, live_server, "el")
    said = greek.evaluate(WORD, samples)
    assert said[0][1] == "Ο/Η Basil ποντάρει 10."
    assert said[2][1] == "Πληρώνεις 2 πονταρίσματα στο ποτ"
    for _code, text in said:  # Greek words, the names and numbers as they are
        assert not any(c.isascii() and c.isalpha() for c in text.replace("Basil", "")), text
