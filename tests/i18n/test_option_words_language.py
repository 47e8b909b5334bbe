"""A table's options in the reader's language (docs/i18n.md, "The table options"): the
sentences that tell them (app/rulebook/option_sentences.py), each a whole sentence in the
reader's plural form, its numbers in the locale's forms; the options' names, help and choices
of the lobby's form (``GET /api/games``) and the host's panel (a table's ``option_labels``);
English exactly as it was."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx

from app.games.core.registry import game_class
from app.rulebook.option_names import option_label
from app.rulebook.option_words import table_option_words
from tests.client import Player
from tests.conftest import LiveServer
from tests.i18n.conftest import Entries

Install = Callable[[Entries], None]
NNBSP = "\u202f"  # French groups thousands with a narrow no-break space

STAKES = ("Stakes {low} to {n} chip", "Stakes {low} to {n} chips")
CHIPS = ("{n} chip", "{n} chips")
BANK = (
    "Buy-in {buy_in}; the first banker brings {n} buy-in ({bank})",
    "Buy-in {buy_in}; the first banker brings {n} buy-ins ({bank})",
)
FRENCH: Entries = {
    STAKES: (
        "Mises de {low} à {n} jeton",
        "Mises de {low} à {n} de jetons",
        "Mises de {low} à {n} jetons",
    ),
    CHIPS: ("{n} jeton", "{n} de jetons", "{n} jetons"),
    BANK: (
        "Cave de {buy_in} ; le premier banquier apporte {n} cave ({bank})",
        "Cave de {buy_in} ; le premier banquier apporte {n} de caves ({bank})",
        "Cave de {buy_in} ; le premier banquier apporte {n} caves ({bank})",
    ),
    "No time bank": "Pas de crédit de temps",
    "Smallest stake": "Mise minimale",
    "Smallest bet": "Mise minimale",
    "The least a player may stake on a hand.": "Le moins qu'un joueur peut miser sur une main.",
    "Decks": "Jeux de cartes",
    "One deck": "Un jeu",
    "Approval": "Approbation",
}


def greek(**options: Any) -> dict[str, Any]:
    return {**game_class("greek-31").OPTIONS_MODEL.check({}), **options}


def texts(game: str, options: dict[str, Any] | None, locale: str) -> list[str]:
    return [w["text"] for w in table_option_words(game, options, locale=locale)]


def test_a_sentence_follows_the_french_plural_forms_and_numbers(french: Install) -> None:
    french(FRENCH)
    assert "Mises de 10 à 100 jetons" in texts("greek-31", greek(), "fr")
    million = texts("greek-31", greek(max_bet=1_000_000), "fr")
    assert f"Mises de 10 à 1{NNBSP}000{NNBSP}000 de jetons" in million  # the "many" form
    assert "Pas de crédit de temps" in texts("greek-31", greek(time_bank_seconds=0), "fr")
    # English exactly as it was, "1,000,000"
    assert "Stakes 10 to 1,000,000 chips" in texts("greek-31", greek(max_bet=1_000_000), "en")


def test_a_second_count_inside_a_sentence_is_counted_too(french: Install) -> None:
    french(FRENCH)
    trianta = {**game_class("trianta-ena").OPTIONS_MODEL.check({}), "min_bet": 1}
    assert texts("trianta-ena", trianta, "fr")[0] == (
        "Cave de 100 jetons ; le premier banquier apporte 3 caves (300 jetons)"
    )
    one = {**trianta, "buy_in": 1, "banker_multiple": 1}
    assert texts("trianta-ena", one, "fr")[0] == (
        "Cave de 1 jeton ; le premier banquier apporte 1 cave (1 jeton)"
    )
    assert texts("trianta-ena", one, "en")[0] == (
        "Buy-in 1 chip; the first banker brings 1 buy-in (1 chip)"
    )


def test_a_translation_that_misuses_a_value_falls_back_to_english(french: Install) -> None:
    french({STAKES: ("Mises {bas} à {n}", "Mises {bas} à {n}", "Mises {bas} à {n}")})
    assert "Stakes 10 to 100 chips" in texts("greek-31", greek(), "fr")


def test_a_sentence_the_catalog_lacks_reads_english(french: Install) -> None:
    """...its numbers still in the reader's forms."""
    french({"Smallest stake": "Mise minimale"})
    said = texts("vingt-un", None, "fr")
    assert said[0] == f"Buy-in 40 to 100{NNBSP}000 chips"
    assert "30 seconds to act" in said


async def test_the_games_listing_gives_the_options_words_in_the_readers_language(
    live: LiveServer, french: Install
) -> None:
    french(FRENCH)
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as http:
        english = (await http.get("/api/games")).json()
        listed = (await http.get("/api/games", headers={"accept-language": "fr"})).json()
        lobby = (await http.get("/", headers={"accept-language": "fr"})).text

    def option(games: list[dict[str, Any]], game: str, name: str) -> dict[str, Any]:
        found = next(g for g in games if g["id"] == game)
        return next(o for o in found["options"] if o["name"] == name)

    min_bet = option(listed, "greek-31", "min_bet")
    assert min_bet["label"] == "Mise minimale"
    assert min_bet["help"] == "Le moins qu'un joueur peut miser sur une main."
    assert min_bet["description"] == option(english, "greek-31", "min_bet")["description"]
    decks = option(listed, "greek-31", "decks")
    assert decks["choices"] == ["auto", 1, 2] and decks["label"] == "Jeux de cartes"
    assert decks["choice_labels"][1] == "Un jeu"
    assert option(english, "greek-31", "decks")["choice_labels"][1] == "One deck"
    assert option(english, "greek-31", "min_bet")["label"] == "Smallest stake"
    # the lobby's form is built from the same listing, inlined in the page
    found = re.search(r'<script type="application/json" id="games-data">(.*?)</script>', lobby)
    assert found is not None
    assert option(json.loads(found.group(1)), "greek-31", "min_bet")["label"] == "Mise minimale"


async def test_a_table_tells_its_options_and_names_them_in_the_readers_language(
    live: LiveServer, french: Install
) -> None:
    french(FRENCH)
    ada = await Player.join(live, "Ada")
    table_id = await ada.open_table("greek-31")
    page = await ada.http.get(f"/tables/{table_id}", headers={"accept-language": "fr"})
    found = re.search(r'<script type="application/json" id="table-data">(.*?)</script>', page.text)
    assert found is not None
    summary = json.loads(found.group(1))
    assert "Mises de 10 à 100 jetons" in [w["text"] for w in summary["option_words"]]
    assert summary["option_labels"]["min_bet"] == "Mise minimale"
    assert set(summary["option_labels"]) == set(summary["options"])
    # a room's page follows its tables by the API: the same words there
    french_api = await ada.http.get(f"/api/tables/{table_id}", headers={"accept-language": "fr"})
    assert french_api.json()["option_labels"]["min_bet"] == "Mise minimale"
    assert "Mises de 10 à 100 jetons" in [w["text"] for w in french_api.json()["option_words"]]
    english = (await ada.http.get(f"/api/tables/{table_id}")).json()
    assert english["option_labels"]["min_bet"] == option_label("greek-31", "min_bet", "en")
    assert "Stakes 10 to 100 chips" in [w["text"] for w in english["option_words"]]
    # the lobby's listing of tables is left as it was
    listed = (await ada.http.get("/api/tables")).json()
    assert all("option_words" not in table for table in listed)
    await ada.http.aclose()
