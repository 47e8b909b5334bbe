"""Each game's table options are one pydantic model: the listing and the JSON Schema served by
``GET /api/games`` are read from it, and the engine checks its options through it."""

from __future__ import annotations

import pytest

from app.api.routes.games import games_listing
from app.games.core.options import OptionError
from app.games.core.registry import GAME_IDS, game_class


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_schema_and_the_listing_say_the_same(game_id: str) -> None:
    cls = game_class(game_id)
    schema = cls.OPTIONS_MODEL.json_schema()
    assert schema["additionalProperties"] is False
    listed = [spec.public() for spec in cls.OPTIONS]
    assert [o["name"] for o in listed] == list(schema["properties"])
    for option in listed:
        prop = schema["properties"][option["name"]]
        assert prop["default"] == option["default"]
        assert prop["description"] == option["description"]
        if option["type"] == "int":
            bounds = prop if "minimum" in prop else next(p for p in prop["anyOf"] if "minimum" in p)
            assert (bounds["minimum"], bounds["maximum"]) == (option["min"], option["max"])
        if option["type"] == "choice":
            assert prop["enum"] == option["choices"]


def test_api_games_serves_each_game_s_options_schema() -> None:
    for game in games_listing(GAME_IDS):
        assert game["options_schema"] == game_class(game["id"]).OPTIONS_MODEL.json_schema()


@pytest.mark.parametrize(
    ("game_id", "options", "field", "message"),
    [
        ("greek-31", {"min_bet": 50, "max_bet": 20}, "max_bet", "max_bet must be at least min_bet"),
        ("vingt-un", {"min_bet": 50, "max_bet": 20}, "max_bet", "max_bet must be at least min_bet"),
        (
            "trianta-ena",
            {"min_bet": 5, "max_bet": 2},
            "max_bet",
            "max_bet must be at least min_bet",
        ),
        ("trianta-ena", {"min_bet": 500}, "min_bet", "min_bet must not exceed buy_in"),
        (
            "trente-et-quarante",
            {"min_stake": 500, "max_stake": 100},
            "max_stake",
            "max_stake must be at least min_stake",
        ),
        ("en-og-tredive", {"bets": 0}, "bets", "bets must be from 1 to 20"),
        ("greek-31", {"decks": True}, "decks", "decks must be one of: auto, 1, 2"),
        ("vingt-un", {"banana": 1}, "banana", "unknown option 'banana'"),
    ],
)
def test_an_option_out_of_order_or_range_names_its_field(
    game_id: str, options: dict[str, object], field: str, message: str
) -> None:
    with pytest.raises(OptionError) as caught:
        game_class(game_id)(options)
    assert (caught.value.field, caught.value.message) == (field, message)


def test_a_null_largest_bet_is_no_limit() -> None:
    game = game_class("greek-31")({"min_bet": 50, "max_bet": None})
    assert game.options["max_bet"] is None
