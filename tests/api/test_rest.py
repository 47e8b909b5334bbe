"""The REST API through the real app on a real socket (docs/protocol.md §3 to §4.5): sessions
and names, ``/api/me``, the games, opening and listing tables, the hand history (paging,
filtering what a viewer may see), the host's audit and the join code."""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import httpx

from app.api.deps import COOKIE
from app.games.core.options import OptionSpec, parse_options
from app.games.core.registry import GAME_IDS, game_class
from tests.client import Player
from tests.conftest import ADMIN_TOKEN, LiveServer, make_settings

FAST = {"turn_seconds": 5, "bet_seconds": 5}


async def session_for(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    response = await http.post("/api/session", json={"name": name})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


def error_text(response: httpx.Response) -> str:
    """Every message of a 4xx body, as one string."""
    body = response.json()
    detail = body.get("detail")
    if isinstance(detail, list):
        return " | ".join(str(d.get("msg", "")) for d in detail)
    return str(detail if detail is not None else body.get("message", ""))


# --------------------------------------------------------------------------- identity


async def test_a_session_creates_a_player_with_the_starting_bankroll(
    http: httpx.AsyncClient,
) -> None:
    response = await http.post("/api/session", json={"name": "  Ada   Lovelace "})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["name"] == "Ada Lovelace"
    assert body["bankroll"] == 1000
    assert len(body["player_id"]) >= 16 and len(body["token"]) >= 32
    cookie = response.cookies.get(COOKIE)
    assert cookie == body["token"]
    set_cookie = response.headers["set-cookie"].lower()
    assert "httponly" in set_cookie and "samesite=lax" in set_cookie

    # The same client (it sends the cookie back) is the same player, whatever name it gives.
    again = await http.post("/api/session", json={"name": "Someone Else"})
    assert again.status_code == 200, again.text
    assert again.json()["player_id"] == body["player_id"]
    assert again.json()["name"] == "Ada Lovelace"
    assert again.json()["token"] == body["token"]

    # A fresh client is a new player, under a name nobody has yet
    async with httpx.AsyncClient(
        timeout=30, base_url=str(http.base_url), headers={"origin": http.headers["origin"]}
    ) as other:
        taken = await other.post("/api/session", json={"name": "ada lovelace"})
        assert taken.status_code == 409 and "taken" in error_text(taken)
        third = await session_for(other, "Ada Byron")
    assert third["player_id"] != body["player_id"] and third["token"] != body["token"]


async def test_a_bearer_token_also_names_the_existing_player(http: httpx.AsyncClient) -> None:
    first = await session_for(http, "Basil")
    async with httpx.AsyncClient(
        timeout=30, base_url=str(http.base_url), headers={"origin": http.headers["origin"]}
    ) as other:
        again = await other.post(
            "/api/session", json={"name": "Clio"}, headers=bearer(first["token"])
        )
    assert again.status_code == 200
    assert again.json()["player_id"] == first["player_id"]


BAD_NAMES = [
    ("", "empty"),
    ("    ", "empty"),
    ("\t\n", "empty"),
    ("a" * 25, "24"),
    ("a" * 500, ""),
    ("<b>x</b>", "letters, digits"),
    ("<script>", "letters, digits"),
    ("a<img src=x>", "letters, digits"),
    ("Bob'); DROP--", "letters, digits"),
    ("x\x00y", "invisible"),
    ("\u202eevil", "invisible"),
    ("ab\u200bcd", "invisible"),
    ("-dash first", "start with a letter or a digit"),
    ("{{7*7}}", "letters, digits"),
    ("a&amp;b", "letters, digits"),
]
"""Names refused, and words the refusal must contain (the character check for markup)."""


async def test_bad_names_are_refused_with_a_message(http: httpx.AsyncClient) -> None:
    for name, says in BAD_NAMES:
        response = await http.post("/api/session", json={"name": name})
        assert response.status_code == 422, (name, response.text)
        message = error_text(response)
        assert message and says in message, (name, message)
        assert response.cookies.get(COOKIE) is None, name
    for body in ({}, {"name": None}, {"name": 12}, {"name": ["Ada"]}):
        response = await http.post("/api/session", json=body)
        assert response.status_code == 422, body
        assert "name" in str(response.json()["detail"]), body
    assert (await http.get("/api/me")).status_code == 401, "no player may have been made"


async def test_names_in_any_script_are_welcome(live: LiveServer) -> None:
    for name in ("Zoë", "李雷", "O'Brien", "Jean-Luc", "dr. who", "x_y", "7", "a" * 24):
        async with httpx.AsyncClient(
            timeout=30, base_url=live.base_url, headers={"origin": live.base_url}
        ) as fresh:
            assert (await session_for(fresh, name))["name"] == name


async def test_me_needs_a_token_or_the_cookie(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/me")
    assert response.status_code == 401
    assert "session" in error_text(response)
    assert (await http.get("/api/me", headers=bearer("not-a-token"))).status_code == 401
    assert (await http.get("/api/me", headers=bearer("x" * 5000))).status_code == 401

    me = await session_for(http, "Dmitri")
    with_cookie = await http.get("/api/me")  # the client holds the cookie now
    assert with_cookie.status_code == 200
    assert with_cookie.json() == {
        "player_id": me["player_id"],
        "name": "Dmitri",
        "bankroll": 1000,
    }
    async with httpx.AsyncClient(
        timeout=30, base_url=str(http.base_url), headers={"origin": http.headers["origin"]}
    ) as other:
        with_token = await other.get("/api/me", headers=bearer(me["token"]))
        assert with_token.status_code == 200
        assert with_token.json()["player_id"] == me["player_id"]
        other.cookies.set(COOKIE, me["token"])
        assert (await other.get("/api/me")).json()["player_id"] == me["player_id"]


# --------------------------------------------------------------------------- games


async def test_games_lists_the_five_games_and_their_options(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/games")
    assert response.status_code == 200
    games = response.json()
    assert [g["id"] for g in games] == list(GAME_IDS)
    assert len(games) == 5
    for game in games:
        assert game["title"] and game["options"], game["id"]
        names = [o["name"] for o in game["options"]]
        assert len(names) == len(set(names)), game["id"]
        assert "turn_seconds" in names, game["id"]
        for option in game["options"]:
            assert {"name", "type", "default", "description"} <= set(option), option
            where = f"{game['id']}.{option['name']}"
            if option["type"] == "int":
                assert isinstance(option["min"], int) and isinstance(option["max"], int), where
                assert option["min"] <= option["max"], where
                if option["default"] is None:
                    assert option["nullable"] is True, where
                else:
                    assert option["min"] <= option["default"] <= option["max"], where
            elif option["type"] == "choice":
                assert option["choices"], where
                assert option["default"] in option["choices"], where
            else:
                assert option["type"] == "bool", where
                assert isinstance(option["default"], bool), where
        # the published defaults are what a table gets when it names no option
        specs: list[OptionSpec] = game_class(game["id"]).OPTIONS
        assert parse_options(specs, {}) == {o["name"]: o["default"] for o in game["options"]}


# --------------------------------------------------------------------------- tables


async def test_opening_a_table_needs_a_session(http: httpx.AsyncClient) -> None:
    response = await http.post("/api/tables", json={"game": "trianta-ena"})
    assert response.status_code == 401
    assert (await http.get("/api/tables")).json() == []


async def test_a_table_opens_with_every_option_in_force(http: httpx.AsyncClient) -> None:
    await session_for(http, "Elena")
    opened = []
    for game in GAME_IDS:
        response = await http.post("/api/tables", json={"game": game, "name": "Friday night"})
        assert response.status_code == 201, response.text
        table = response.json()
        defaults = {o.name: o.default for o in game_class(game).OPTIONS}
        assert table["game"] == game and table["name"] == "Friday night"
        assert table["options"] == defaults, game
        assert set(table["buy_in"]) == {"min", "max"}, game
        assert 1 <= table["buy_in"]["min"] <= table["buy_in"]["max"], game
        assert isinstance(table["table_id"], str) and table["table_id"]
        one = await http.get(f"/api/tables/{table['table_id']}")
        assert one.status_code == 200
        assert one.json()["options"] == defaults and one.json()["buy_in"] == table["buy_in"]
        opened.append(table["table_id"])
    listed = (await http.get("/api/tables")).json()
    assert sorted(t["table_id"] for t in listed) == sorted(opened)
    assert len(set(opened)) == 5


async def test_options_given_are_in_force_and_shape_the_buy_in(http: httpx.AsyncClient) -> None:
    await session_for(http, "Faustine")
    response = await http.post(
        "/api/tables",
        json={
            "game": "trianta-ena",
            "options": {"buy_in": 250, "banker_multiple": 2, "decks": 3, "max_bet": None},
        },
    )
    assert response.status_code == 201, response.text
    table = response.json()
    assert table["options"]["buy_in"] == 250 and table["options"]["decks"] == 3
    assert table["options"]["max_bet"] is None
    assert table["options"]["ace_rule"] == "at_most_one_low"  # a default, in force
    # nobody seated: the first to sit is the banker and brings banker_multiple × buy_in
    assert table["buy_in"] == {"min": 500, "max": 500}
    assert table["name"] == "Faustine's table"


async def test_unknown_tables_are_404(http: httpx.AsyncClient) -> None:
    assert (await http.get("/api/tables/nope")).status_code == 404
    assert (await http.get("/api/tables/" + "f" * 12)).status_code == 404


async def test_an_unknown_game_is_refused_naming_the_field(http: httpx.AsyncClient) -> None:
    await session_for(http, "Georgios")
    for game in ("poker", "", "TRIANTA-ENA"):
        response = await http.post("/api/tables", json={"game": game})
        assert response.status_code == 422, response.text
        body = response.json()
        assert body["field"] == "game"
        assert "unknown game" in body["message"]
    assert (await http.get("/api/tables")).json() == []


BAD_OPTIONS = [
    ("trianta-ena", {"jokers": 2}, "options.jokers"),
    ("trianta-ena", {"decks": 9}, "options.decks"),
    ("trianta-ena", {"decks": 0}, "options.decks"),
    ("trianta-ena", {"decks": "2"}, "options.decks"),
    ("trianta-ena", {"decks": 2.5}, "options.decks"),
    ("trianta-ena", {"decks": True}, "options.decks"),
    ("trianta-ena", {"decks": None}, "options.decks"),
    ("trianta-ena", {"ace_rule": "all_low"}, "options.ace_rule"),
    ("trianta-ena", {"min_bet": 200}, "options.min_bet"),
    ("trianta-ena", {"turn_seconds": 0}, "options.turn_seconds"),
    ("trianta-ena", {"bet_seconds": 10**9}, "options.bet_seconds"),
    ("greek-31", {"decks": 3}, "options.decks"),
    ("greek-31", {"decks": "1"}, "options.decks"),
    ("greek-31", {"heath": "yes"}, "options.heath"),
    ("greek-31", {"min_bet": 50, "max_bet": 20}, "options.max_bet"),
    ("vingt-un", {"min_bet": 50, "max_bet": 20}, "options.max_bet"),
    ("trente-et-quarante", {"min_stake": 500, "max_stake": 100}, "options.max_stake"),
    ("en-og-tredive", {"knock_min": 32}, "options.knock_min"),
]
"""Unknown, out-of-range, wrong-typed and inconsistent options, and the field named."""


async def test_bad_options_are_refused_naming_the_field(http: httpx.AsyncClient) -> None:
    await session_for(http, "Helga")
    for game, options, field in BAD_OPTIONS:
        response = await http.post("/api/tables", json={"game": game, "options": options})
        assert response.status_code == 422, (game, options, response.text)
        body = response.json()
        assert body["field"] == field, (game, options, body)
        name = field.split(".", 1)[1]
        assert name in body["message"], body
        assert body["detail"][0]["loc"] == ["body", "options", name], body
    assert (await http.get("/api/tables")).json() == [], "no table may be created"


async def test_malformed_table_requests_are_422(http: httpx.AsyncClient) -> None:
    await session_for(http, "Ines")
    for body in (
        {"game": "trianta-ena", "options": [1, 2]},
        {"game": "trianta-ena", "options": "decks=2"},
        {"game": "trianta-ena", "name": "<b>x</b>"},
        {"game": "trianta-ena", "name": "n" * 61},
        {"game": 31},
        {"options": {}},
    ):
        response = await http.post("/api/tables", json=body)
        assert response.status_code == 422, (body, response.text)
        assert error_text(response), body
    assert (await http.get("/api/tables")).json() == []


# --------------------------------------------------------------------------- hands


async def test_hands_start_empty_and_unknown_hands_are_404(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/hands")
    assert response.status_code == 200
    assert response.json() == {"hands": [], "next": None}
    assert (await http.get("/api/hands/nope")).status_code == 404
    assert (await http.get("/api/hands", params={"before": "not-a-cursor"})).status_code == 422
    assert (await http.get("/api/hands", params={"limit": 0})).status_code == 422
    assert (await http.get("/api/hands", params={"limit": 101})).status_code == 422


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])([A2-9TJQK][SHDC])(?![A-Za-z0-9])")


def cards_anywhere(record: dict[str, Any]) -> set[str]:
    """Every card code anywhere in a record as served."""
    return set(CARD_CODE.findall(json.dumps(record)))


def publicly_shown(record: dict[str, Any]) -> set[str]:
    """Cards of the events everyone may see (no ``private_to``)."""
    shown: set[str] = set()
    for event in record["events"]:
        if "private_to" in event:
            continue
        for key in ("card", "cards"):
            value = event.get(key)
            shown |= set(CARD_CODE.findall(json.dumps(value))) if value is not None else set()
    return shown


async def bots_play(live: LiveServer, opener: Player, hands: int) -> str:
    """Two bots play Trianta Ena until ``hands`` hands are finished; the table is then paused
    in the middle of the next hand. Returns the table id."""
    table_id = await opener.open_table("trianta-ena", min_bet=2, **FAST)
    for _ in range(2):
        response = await opener.http.post(f"/api/tables/{table_id}/bots", json={})
        assert response.status_code == 201, response.text
    table = live.services.lobby.get(table_id)
    assert table is not None
    deadline = asyncio.get_running_loop().time() + 60  # for a stuck run only
    while True:
        assert asyncio.get_running_loop().time() < deadline, "the bots did not play"
        await asyncio.sleep(0.02)
        if table.hands_played < hands or table.hand_id is None:
            continue
        await table.pause("test")
        if table.hand_id is not None:
            break
        await table.resume()
    await live.services.writer.flush()
    return table_id


async def test_hands_page_newest_first_and_hide_what_they_must(live: LiveServer) -> None:
    opener = await Player.join(live, "Opener")
    table_id = await bots_play(live, opener, hands=5)
    table = live.services.lobby.get(table_id)
    assert table is not None and table.hand_id is not None
    playing = table.hand_id
    anyone = httpx.AsyncClient(
        base_url=live.base_url, headers={"origin": live.base_url}, timeout=10
    )

    # The hand being played is not readable yet.
    assert (await anyone.get(f"/api/hands/{playing}")).status_code == 404

    everything = (await anyone.get("/api/hands", params={"limit": 100})).json()
    assert everything["next"] is None
    hands = everything["hands"]
    assert len(hands) >= 5 and len(hands) == table.hands_played
    assert playing not in [h["hand_id"] for h in hands]
    assert all(h["status"] == "finished" and h["table_id"] == table_id for h in hands)
    numbers = [h["number"] for h in hands]
    assert numbers == sorted(numbers, reverse=True) and len(set(numbers)) == len(numbers)
    ends = [h["ended_at"] for h in hands]
    assert ends == sorted(ends, reverse=True)
    assert all(len(h["players"]) == 2 for h in hands)

    # Paging by cursor gives the same hands, in the same order, each once.
    paged: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        params: dict[str, Any] = {"limit": 2}
        if cursor:
            params["before"] = cursor
        page = (await anyone.get("/api/hands", params=params)).json()
        assert 1 <= len(page["hands"]) <= 2
        paged += [h["hand_id"] for h in page["hands"]]
        pages += 1
        cursor = page["next"]
        if cursor is None:
            break
        assert len(page["hands"]) == 2
    assert paged == [h["hand_id"] for h in hands]
    assert pages == (len(hands) + 1) // 2

    # Filters
    by_table = (await anyone.get("/api/hands", params={"table_id": table_id})).json()
    assert [h["hand_id"] for h in by_table["hands"]] == paged[:20]
    other_table = (await anyone.get("/api/hands", params={"table_id": "nope"})).json()
    assert other_table == {"hands": [], "next": None}
    bot_id = hands[0]["players"][0]["player_id"]
    mine = (await anyone.get("/api/hands", params={"player_id": bot_id, "limit": 100})).json()
    assert {h["hand_id"] for h in mine["hands"]} <= set(paged)
    assert mine["hands"] and all(
        bot_id in [p["player_id"] for p in h["players"]] for h in mine["hands"]
    )
    by_game = (await anyone.get("/api/hands", params={"game": "greek-31"})).json()
    assert by_game["hands"] == []

    # A finished record: no private part, and nobody else's face-down cards.
    record = (await anyone.get(f"/api/hands/{paged[0]}")).json()
    assert record["status"] == "finished" and record["hand_id"] == paged[0]
    assert "private" not in record
    assert record["viewer_seat"] is None
    assert record["seats_before"] and record["seats_after"] and record["events"]
    private = [e for e in record["events"] if "private_to" in e]
    assert private, "a Trianta Ena hand deals face-down cards"
    for event in private:
        assert event.get("card") is None and event.get("cards") is None, event
    public_cards = [e["card"] for e in record["events"] if "private_to" not in e and "card" in e]
    assert public_cards and all(isinstance(c, str) for c in public_cards)
    for hand_id in paged:
        record = (await anyone.get(f"/api/hands/{hand_id}")).json()
        leaked = cards_anywhere(record) - publicly_shown(record)
        assert not leaked, f"hand {hand_id}: {leaked} appear but were never shown: {record}"
    await table.resume()
    await anyone.aclose()
    await opener.close()


async def test_a_player_sees_their_own_face_down_card_in_the_history(live: LiveServer) -> None:
    me = await Player.join(live, "Holder")
    nosy = await Player.join(live, "Nosy")
    table_id = await me.open_table("trianta-ena", min_bet=2, **FAST)
    assert (await me.http.post(f"/api/tables/{table_id}/bots", json={"seat": 0})).status_code == 201
    await me.connect(table_id)
    await me.sit(100, seat=1)
    view = await me.wait_for(lambda v: any(t["kind"] == "bet" for t in v["legal"]))
    hand_id = view["hand_id"]
    my_card = view["seats"][1]["hands"][0]["cards"][0]
    assert my_card["up"] is False and isinstance(my_card["card"], str)
    assert (await me.act({"kind": "bet", "amount": 2}))["type"] == "ack"
    rng = random.Random(3)
    while True:
        view = await me.wait_for(lambda v: v["hand_id"] != hand_id or bool(v["legal"]))
        if view["hand_id"] != hand_id:
            break
        assert (await me.act(me.random_legal(rng) or {"kind": "stand"}))["type"] == "ack"
    await live.services.writer.flush()

    mine = (await me.http.get(f"/api/hands/{hand_id}")).json()
    theirs = (await nosy.http.get(f"/api/hands/{hand_id}")).json()
    anon = httpx.AsyncClient(timeout=30, base_url=live.base_url, headers={"origin": live.base_url})
    public = (await anon.get(f"/api/hands/{hand_id}")).json()
    await anon.aclose()
    assert mine["viewer_seat"] == 1 and theirs["viewer_seat"] is None
    for record in (mine, theirs, public):
        assert "private" not in record and record["status"] == "finished"

    def my_deal(record: dict[str, Any]) -> dict[str, Any]:
        return next(
            e
            for e in record["events"]
            if e["kind"] == "deal" and e.get("seat") == 1 and e.get("private_to") == [1]
        )

    assert my_deal(mine)["card"] == my_card["card"]
    assert my_deal(theirs)["card"] is None
    assert my_deal(public)["card"] is None
    # The banker's hole card is private to nobody, the banker included, until it is shown.
    for record in (mine, theirs, public):
        holes = [e for e in record["events"] if e.get("private_to") == []]
        assert all(e["card"] is None for e in holes), holes

    listed = (await me.http.get("/api/hands", params={"table_id": table_id})).json()["hands"]
    row = next(h for h in listed if h["hand_id"] == hand_id)
    assert row["your_net"] in (-2, 2), row  # a stake of 2 at even money, won or lost
    await me.close()
    await nosy.close()


async def test_only_the_opener_or_the_host_seats_bots(live: LiveServer) -> None:
    opener = await Player.join(live, "Opener")
    other = await Player.join(live, "Other")
    table_id = await opener.open_table("trianta-ena", **FAST)
    refused = await other.http.post(f"/api/tables/{table_id}/bots", json={})
    assert refused.status_code == 403
    async with httpx.AsyncClient(
        timeout=30, base_url=live.base_url, headers={"origin": live.base_url}
    ) as anonymous:
        assert (await anonymous.post(f"/api/tables/{table_id}/bots", json={})).status_code == 401
        # the host needs no player session: the admin token alone will do (docs/protocol.md)
        as_host = await anonymous.post(
            f"/api/tables/{table_id}/bots", json={}, headers=bearer(ADMIN_TOKEN)
        )
    assert as_host.status_code == 201, as_host.text
    assert as_host.json()["seat"] == 0
    assert as_host.json()["table"]["seats"][0]["bot"] is True
    by_opener = await opener.http.post(f"/api/tables/{table_id}/bots", json={"seat": 3})
    assert by_opener.status_code == 201 and by_opener.json()["seat"] == 3
    taken = await opener.http.post(f"/api/tables/{table_id}/bots", json={"seat": 0})
    assert taken.status_code == 409
    assert (await opener.http.post("/api/tables/nope/bots", json={})).status_code == 404
    await opener.close()
    await other.close()


# --------------------------------------------------------------------------- the host


async def test_the_audit_is_for_the_host_only(live: LiveServer, http: httpx.AsyncClient) -> None:
    player = await session_for(http, "Player")
    assert (await http.get("/api/admin/audit")).status_code == 403
    for token in ("wrong", ADMIN_TOKEN + "x", ADMIN_TOKEN[:-1], player["token"]):
        response = await http.get("/api/admin/audit", headers=bearer(token))
        assert response.status_code == 403, token
    response = await http.get("/api/admin/audit", headers=bearer(ADMIN_TOKEN))
    assert response.status_code == 200
    audit = response.json()
    float_ = live.settings.house_float
    assert audit["granted"] == float_ + 1000
    assert audit["accounts_total"] == float_ + 1000
    assert audit["balanced"] is True


async def test_a_non_ascii_admin_token_is_refused_not_a_crash(http: httpx.AsyncClient) -> None:
    response = await http.get("/api/admin/audit", params={"admin_token": "é"})
    assert response.status_code == 403
    response = await http.get("/api/admin/audit", headers={"authorization": b"Bearer \xc3\xa9"})
    assert response.status_code == 403
    assert (await http.get("/api/tables", params={"admin_token": "é"})).status_code == 200


# --------------------------------------------------------------------------- the join code


async def test_a_join_code_guards_new_sessions(database_url: str) -> None:
    server = LiveServer(make_settings(database_url, join_code="sesame"))
    await server.start()
    try:
        async with httpx.AsyncClient(
            timeout=30, base_url=server.base_url, headers={"origin": server.base_url}
        ) as http:
            for extra in ({}, {"join_code": "wrong"}, {"join_code": ""}, {"join_code": "Sesame"}):
                response = await http.post("/api/session", json={"name": "Ada", **extra})
                assert response.status_code == 403, extra
                assert "join code" in error_text(response)
                assert response.cookies.get(COOKIE) is None
            response = await http.post("/api/session", json={"name": "Ada", "join_code": "sesame"})
            assert response.status_code == 200, response.text
            player = response.json()
            # the cookie's player comes back without the code
            again = await http.post("/api/session", json={"name": "Ada"})
            assert again.status_code == 200 and again.json()["player_id"] == player["player_id"]
            audit = await http.get("/api/admin/audit", headers=bearer(ADMIN_TOKEN))
            assert audit.json()["granted"] == server.settings.house_float + 1000
    finally:
        await server.stop()


async def test_a_non_ascii_join_code_is_refused_not_a_crash(database_url: str) -> None:
    server = LiveServer(make_settings(database_url, join_code="sesame"))
    await server.start()
    try:
        async with httpx.AsyncClient(
            timeout=30, base_url=server.base_url, headers={"origin": server.base_url}
        ) as http:
            response = await http.post("/api/session", json={"name": "Ada", "join_code": "sésame"})
    finally:
        await server.stop()
    assert response.status_code == 403
