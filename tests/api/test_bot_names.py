"""Bots' names: never a person's name at this server (nor one that looks the same), never
twice at a table, always ending with "(bot)" (app/runtime/lobby.py ``bot_names``)."""

from __future__ import annotations

import httpx

from app.core.names import name_key
from tests.client import Player
from tests.conftest import LiveServer


async def test_a_bot_never_takes_a_persons_name(live: LiveServer) -> None:
    """The play test: a bot added next to Ada was named "Ada (bot)"."""
    ada = await Player.join(live, "Ada")
    basil = await Player.join(live, "Basil")
    clio = await Player.join(live, "CLIO")  # the same name as Clio (its key)
    table_id = await ada.open_table("greek-31")
    names = []
    for _ in range(7):
        response = await ada.http.post(f"/api/tables/{table_id}/bots")
        assert response.status_code == 201, response.text
        seats = response.json()["table"]["seats"]
        names = [s["name"] for s in seats if s["bot"]]
    assert len(names) == 7 and len(set(names)) == 7, names
    people = {name_key(p.name) for p in (ada, basil, clio)}
    for name in names:
        assert name.endswith(" (bot)") and name != "Bot", name
        assert name_key(name.removesuffix(" (bot)")) not in people, name
    assert names[0] == "Dmitri (bot)"
    for person in (ada, basil, clio):
        await person.close()


async def test_bots_past_the_list_of_names_are_numbered(live: LiveServer) -> None:
    people = [await Player.join(live, name) for name in ("Ada", "Dmitri")]
    table_id = await people[0].open_table("trente-et-quarante")
    seen: list[str] = []
    async with httpx.AsyncClient(timeout=30, base_url=live.base_url) as http:
        for _ in range(9):
            response = await people[0].http.post(f"/api/tables/{table_id}/bots")
            assert response.status_code == 201, response.text
        seats = (await http.get(f"/api/tables/{table_id}")).json()["seats"]
    seen = [s["name"] for s in seats if s["bot"]]
    assert len(set(seen)) == 9, seen
    assert "Basil 2 (bot)" in seen, seen
    assert not any(n.startswith(("Ada", "Dmitri")) for n in seen), seen
    assert all(n.endswith(" (bot)") for n in seen)
    for person in people:
        await person.close()
