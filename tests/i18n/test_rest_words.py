"""The API's and the pages' last English words, in the reader's language (docs/i18n.md):
Pydantic's validation messages in a 422's list (app/api/validation_words.py), the recovery
page's refusal, settle-up's words (app/review/settle_words.py) and a table's or a room's
default name. Each is worded from a French catalog of the test's own; English stays exactly
as it was."""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from enum import StrEnum
from typing import Any, Literal

import httpx
import pydantic
from pydantic import BaseModel, ConfigDict, Field

from app.api.schemas.bodies import SessionIn, TableIn
from app.api.validation_words import FIXED, WITH_VALUES, message, problem_words
from app.db.store.nets import Move
from app.i18n.messages import Text
from app.i18n.negotiate import LANG_COOKIE
from app.review.nets import split
from app.review.settle import Payment
from app.review.settle_words import ChipValue, apart_lines, as_text, chips, payment_line
from app.runtime.table.host_at_table import HOST_PAUSED
from tests.conftest import ADMIN_TOKEN, LiveServer, site_client
from tests.i18n.conftest import Entries

Install = Callable[[Entries], None]


class Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")
    word: str = Field("a", min_length=1, max_length=3, pattern=r"^[a-z]+$")
    low: int = Field(5, ge=0, le=10)
    open_: int = Field(5, gt=0, lt=10, alias="open")
    flag: bool = True
    ratio: float = 0.5
    bag: dict[str, int] = Field(default_factory=dict)
    seats: list[int] = Field(default_factory=lambda: [1], min_length=1, max_length=2)
    level: Literal["random", "steady", "best"] = "steady"
    side: Literal["left", "right"] = "left"
    needed: int


class Level(StrEnum):
    RANDOM = "random"
    STEADY = "steady"


class Lax(BaseModel):
    count: int = 0
    flag: bool = False
    ratio: float = 0.0
    level: Level = Level.STEADY


def _problems(model: type[BaseModel], data: Any) -> list[dict[str, Any]]:
    try:
        model.model_validate(data)
    except pydantic.ValidationError as err:
        return list(err.errors())
    raise AssertionError("valid")


def _every_kind() -> dict[str, dict[str, Any]]:
    """A real problem of each kind the API words: Pydantic's own, as a 422 lists it."""
    found: dict[str, dict[str, Any]] = {}
    samples: list[tuple[type[BaseModel], Any]] = [
        (Strict, {"word": "abcd", "low": -1, "open": 0, "flag": "x", "ratio": "x", "zz": 1}),
        (Strict, {"word": "", "low": 11, "open": 10, "bag": [], "seats": [], "needed": "1"}),
        (Strict, {"word": "A", "seats": [1, 2, 3], "level": "x", "side": "x", "needed": 1.5}),
        (Strict, {"word": 1, "seats": "x", "needed": 1}),
        (Strict, [1]),
        (Lax, {"count": "x", "flag": "maybe", "ratio": "x", "level": "x"}),
        (Lax, {"count": 1.5}),
        (TableIn, {"game": "g", "name": "a<b"}),
        (SessionIn, {"name": "Ada (bot)"}),
    ]
    for model, data in samples:
        for problem in _problems(model, data):
            found.setdefault(problem["type"], problem)
    try:  # a body that is no object, as FastAPI reads one
        Strict.model_validate([1], from_attributes=True)
    except pydantic.ValidationError as err:
        found["model_attributes_type"] = dict(err.errors()[0])
    try:
        Strict.model_validate_json("{")
    except pydantic.ValidationError as err:
        found["json_invalid"] = dict(err.errors()[0], msg="JSON decode error")  # FastAPI's
    return found


def test_every_kind_is_worded_as_pydantic_words_it_in_english() -> None:
    """A problem's English is Pydantic's, word for word, and it is a marked message."""
    problems = _every_kind()
    kinds = set(FIXED) | set(WITH_VALUES) | {"value_error"}
    assert kinds <= set(problems)
    for kind, problem in problems.items():
        worded = message(problem)
        assert worded == problem["msg"], kind
        assert problem_words(problem, "en") == problem["msg"], kind
        if kind in kinds:
            assert isinstance(worded, Text) or worded in FIXED.values(), kind


def test_a_problem_is_worded_in_french(french: Install) -> None:
    french(
        {
            "Field required": "Champ obligatoire",
            (
                "String should have at most {n} character",
                "String should have at most {n} characters",
            ): (
                "Au plus {n} caractère",
                "Au plus {n} de caractères",
                "Au plus {n} caractères",
            ),
            "Input should be {expected}": "La valeur doit être {expected}",
            "{choices} or {last}": "{choices} ou {last}",
            "Input should be greater than or equal to {ge}": "La valeur doit être au moins {ge}",
            "Value error, {error}": "{error}",
            "{what} may use letters, digits, spaces and . ' - _ only": (
                "{what} ne peut contenir que des lettres, des chiffres, des espaces et . ' - _"
            ),
            "table name": "le nom de la table",
        }
    )
    problems = _every_kind()
    assert problem_words(problems["missing"], "fr") == "Champ obligatoire"
    assert problem_words(problems["string_too_long"], "fr") == "Au plus 3 caractères"
    assert problem_words(problems["literal_error"], "fr") == (
        "La valeur doit être 'random', 'steady' ou 'best'"
    )
    assert problem_words(problems["greater_than_equal"], "fr") == "La valeur doit être au moins 0"
    assert problem_words(problems["value_error"], "fr") == (
        "le nom de la table ne peut contenir que des lettres, des chiffres, des espaces et . ' - _"
    )
    # a kind the catalog lacks: English
    assert problem_words(problems["int_type"], "fr") == "Input should be a valid integer"


def test_a_kind_not_listed_keeps_pydantics_words() -> None:
    odd = {"type": "uuid_parsing", "msg": "Input should be a valid UUID", "ctx": {}}
    assert problem_words(odd, "fr") == "Input should be a valid UUID"
    # a context not as expected: Pydantic's English
    bare = {"type": "greater_than", "msg": "Input should be greater than 0", "ctx": {}}
    assert problem_words(bare, "fr") == "Input should be greater than 0"


async def test_a_422_lists_its_problems_in_the_readers_language(
    live: LiveServer, french: Install
) -> None:
    french(
        {
            "Value error, {error}": "{error}",
            "name must not be empty": "le nom ne doit pas être vide",
            "Field required": "Champ obligatoire",
        }
    )
    async with site_client(live, "fr") as client:
        empty = await client.post("/api/session", json={"name": " "})
        assert empty.status_code == 422
        assert empty.json()["detail"] == [
            {"loc": ["body", "name"], "msg": "le nom ne doit pas être vide", "type": "value_error"}
        ]
        missing = await client.post("/api/session", json={})
        assert missing.json()["detail"][0]["msg"] == "Champ obligatoire"
    async with site_client(live) as english:
        empty = await english.post("/api/session", json={"name": " "})
        assert empty.json()["detail"][0]["msg"] == "Value error, name must not be empty"


async def test_the_recovery_pages_refusal_is_in_the_readers_language(
    live: LiveServer, french: Install
) -> None:
    refusal = "that recovery code is not valid (a code works once, and a new one replaces it)"
    french({refusal: "ce code de récupération n'est pas valable"})
    async with httpx.AsyncClient(
        base_url=live.base_url, cookies={LANG_COOKIE: "fr"}, timeout=10
    ) as client:
        page = await client.get("/recover?code=not-a-code")
        assert page.status_code == 404
        assert "ce code de récupération n&#39;est pas valable" in page.text
        assert refusal not in page.text
    async with httpx.AsyncClient(base_url=live.base_url, timeout=10) as english:
        assert refusal in (await english.get("/recover?code=not-a-code")).text


async def test_a_default_name_is_in_the_openers_language(live: LiveServer, french: Install) -> None:
    french({"{name}'s table": "La table de {name}", "{name}'s room": "Le salon de {name}"})
    async with site_client(live, "fr") as client:
        assert (await client.post("/api/session", json={"name": "Ada"})).status_code == 200
        table = await client.post("/api/tables", json={"game": "greek-31"})
        assert table.status_code == 201 and table.json()["name"] == "La table de Ada"
        room = await client.post("/api/rooms", json={"game": "greek-31"})
        assert room.status_code == 201, room.text
        shown = await client.get(f"/api/rooms/{room.json()['room_id']}")
        assert shown.json()["name"] == "Le salon de Ada"
    async with site_client(live) as english:
        assert (await english.post("/api/session", json={"name": "Ben"})).status_code == 200
        table = await english.post("/api/tables", json={"game": "greek-31"})
        assert table.json()["name"] == "Ben's table"


async def test_the_hosts_list_words_the_servers_pause_reason(
    live: LiveServer, french: Install
) -> None:
    """The host's page lists why a table is paused: the server's words in the reader's
    language, a reason the host typed as it was typed."""
    french({HOST_PAUSED: "L'hôte a mis la table en pause."})
    site = {"origin": live.base_url}
    async with httpx.AsyncClient(base_url=live.base_url, headers=site, timeout=10) as ada:
        assert (await ada.post("/api/session", json={"name": "Ada"})).status_code == 200
        paused = (await ada.post("/api/tables", json={"game": "greek-31"})).json()["table_id"]
        typed = (await ada.post("/api/tables", json={"game": "greek-31"})).json()["table_id"]
    table = live.services.lobby.get(paused)
    assert table is not None
    await table.pause(HOST_PAUSED)  # as the host at the table pauses it
    host = {**site, "authorization": f"Bearer {ADMIN_TOKEN}"}
    async with httpx.AsyncClient(
        base_url=live.base_url, headers=host, cookies={LANG_COOKIE: "fr"}, timeout=10
    ) as client:
        typing = await client.post(f"/api/admin/tables/{typed}/pause", json={"reason": "dîner"})
        assert typing.status_code == 200
        rows = {row["table_id"]: row for row in (await client.get("/api/admin/tables")).json()}
        assert rows[paused]["pause_reason"] == "L'hôte a mis la table en pause."
        assert rows[typed]["pause_reason"] == "dîner"
    async with httpx.AsyncClient(base_url=live.base_url, headers=host, timeout=10) as english:
        rows = {row["table_id"]: row for row in (await english.get("/api/admin/tables")).json()}
        assert rows[paused]["pause_reason"] == HOST_PAUSED


# ------------------------------------------------------------------ settling up

T = "t1"
NAMES = {"a": "Ada", "b": "Ben"}
EURO = ChipValue(Decimal("0.05"), "€")
SETTLE_FR: Entries = {
    ("{count} chip", "{count} chips"): ("{count} jeton", "{count} de jetons", "{count} jetons"),
    "{chips} ({money})": "{chips} ({money})",
    "{payer} pays {payee} {amount}": "{payer} paie {amount} à {payee}",
    "{name}: {amount}": "{name} : {amount}",
    "{name} won {amount} from the house.": "{name} a gagné {amount} contre la banque.",
    "{name} lost {amount} to the house.": "{name} a perdu {amount} contre la banque.",
    "The group as a whole won {amount} from the house.": (
        "Le groupe dans son ensemble a gagné {amount} contre la banque."
    ),
    "{amount} stayed in the pot at {table}": "{amount} sont restés dans le pot de {table}",
    "What the group lost into the pot at {table} ({amount}) is paid to nobody: "
    "its losers there bear it, in proportion ({shares}).": (
        "Ce que le groupe a perdu dans le pot de {table} ({amount}) n'est payé à personne : "
        "ses perdants le supportent, au prorata ({shares})."
    ),
    "The payments settle the rest among you.": "Les paiements règlent le reste entre vous.",
    "1 chip = {money}": "1 jeton = {money}",
    "Nets:": "Soldes :",
    "Payments:": "Paiements :",
    "Apart from the payments:": "À part les paiements :",
    "Nobody owes anything.": "Personne ne doit rien.",
}


def test_settle_ups_words_in_french(french: Install) -> None:
    french(SETTLE_FR)
    assert chips(1234, locale="fr") == "1\u202f234 jetons"
    assert chips(-45, signed=True, locale="fr") == "\u221245 jetons"
    assert chips(1234) == "1,234 chips" and chips(1) == "1 chip"
    assert EURO.shown(45, "fr") == "2,25 €" and EURO.shown(45) == "2.25 €"
    assert payment_line(Payment("b", "a", 45), NAMES, EURO, "fr") == (
        "Ben paie 45 jetons (2,25 €) à Ada"
    )
    text = as_text(
        "Ce soir", [("Ada", 45), ("Ben", -45)], [Payment("b", "a", 45)], NAMES, EURO, [], "fr"
    )
    assert text.splitlines() == [
        "Ce soir",
        "1 jeton = 0,05 €",
        "",
        "Soldes :",
        "  Ada : +45 jetons (+2,25 €)",
        "  Ben : \u221245 jetons (\u22122,25 €)",
        "",
        "Paiements :",
        "  Ben paie 45 jetons (2,25 €) à Ada",
    ]
    assert "Personne ne doit rien." in as_text("Ce soir", [("Ada", 0)], [], NAMES, None, None, "fr")


def test_what_no_payment_settles_in_french(french: Install) -> None:
    french(SETTLE_FR)
    house = [
        Move("house", f"stack:{T}:a", 120, T, "h1"),
        Move(f"bets:{T}:b", "house", 60, T, "h2"),
    ]
    result = split(house, ["a", "b"], NAMES)
    assert apart_lines(result, NAMES, {}, None, "fr") == [
        "Ada a gagné 120 jetons contre la banque.",
        "Ben a perdu 60 jetons contre la banque.",
        "Le groupe dans son ensemble a gagné 60 jetons contre la banque.",
        "Les paiements règlent le reste entre vous.",
    ]
    assert apart_lines(result, NAMES, {}, None)[0] == "Ada won 120 chips from the house."
    # a match still on: what the group lost into the pot stayed in it
    pot = [
        Move(f"bets:{T}:a", f"pot:{T}", 20, T, "h1"),
        Move(f"bets:{T}:b", f"pot:{T}", 10, T, "h1"),
    ]
    lines = apart_lines(split(pot, ["a", "b"], NAMES), NAMES, {T: "Vendredi"}, None, "fr")
    assert lines[0] == (
        "30 jetons sont restés dans le pot de Vendredi. Ce que le groupe a perdu dans le pot "
        "de Vendredi (30 jetons) n'est payé à personne : ses perdants le supportent, au "
        "prorata (Ada \u221220 jetons, Ben \u221210 jetons)."
    )
    english = apart_lines(split(pot, ["a", "b"], NAMES), NAMES, {T: "Friday"}, None)
    assert english[0].startswith("30 chips stayed in the pot at Friday. What the group lost")
