"""The games' titles and lobby sentences are marked for translation (app/rulebook/game_words.py)
and worded in the reader's language, English unchanged."""

from __future__ import annotations

from collections.abc import Callable

import httpx

from app.games.core.registry import GAME_IDS, game_class
from app.rulebook.game_words import BLURBS, TITLES, game_blurb, game_title
from tests.conftest import LiveServer
from tests.i18n.conftest import Entries


def test_every_games_title_and_sentence_is_listed() -> None:
    assert {game_class(game).title for game in GAME_IDS} <= TITLES
    assert {game_class(game).BLURB for game in GAME_IDS} <= BLURBS


def test_a_title_and_a_sentence_in_french(french: Callable[[Entries], None]) -> None:
    cls = game_class("greek-31")
    french({cls.title: "31 grec", cls.BLURB: "Le donneur tire en secret."})
    assert game_title("greek-31", "fr") == "31 grec"
    assert game_blurb("greek-31", "fr") == "Le donneur tire en secret."
    assert game_title("greek-31", "en") == cls.title
    assert game_blurb("greek-31", "en") == cls.BLURB
    assert game_title("no-such-game", "fr") == "no-such-game"


async def test_the_games_listing_names_them_in_the_readers_language(
    live: LiveServer, french: Callable[[Entries], None]
) -> None:
    title = game_class("greek-31").title
    french({title: "31 grec"})
    async with httpx.AsyncClient(base_url=live.base_url, timeout=30) as http:
        english = {g["id"]: g["title"] for g in (await http.get("/api/games")).json()}
        answer = await http.get("/api/games", headers={"accept-language": "fr"})
        listed = {g["id"]: g["title"] for g in answer.json()}
        lobby = (await http.get("/", headers={"accept-language": "fr"})).text
    assert english["greek-31"] == title
    assert listed["greek-31"] == "31 grec"
    assert "<strong>31 grec</strong>" in lobby
