"""En og tredive: a player leaves a match between rounds through the real socket
(docs/rules.md §5.12). The view says what leaving costs before they ask; their bets left go to
the pot (written to the ledger with the leave, before it is told), their stack goes home, the
match goes on, and the ledger's audit balances."""

from __future__ import annotations

from sqlalchemy import select

from app.db.models import LedgerEntry
from tests.api.test_leaves_and_top_ups import START, my_session, seated
from tests.api.test_socket import audit
from tests.conftest import LiveServer


async def test_a_player_leaves_mid_match_and_the_ledger_balances(live: LiveServer) -> None:
    ada, table_id = await seated(live, "en-og-tredive", 300, bots=2)
    actor = live.services.lobby.get(table_id)
    assert actor is not None
    view = await ada.wait_for(lambda v: v["table"].get("leave_cost") is not None, timeout=60)
    assert "remaining bet" in view["table"]["leave_cost"]
    assert view["you"] in actor.engine.match.seats
    await ada.send({"type": "leave"})
    await ada.wait_for(lambda v: v["you"] is None, timeout=30)
    # she left the match (her bets going to the pot), or the round she asked in ended it for
    # her (her last bet lost): either way she is gone and every chip is where the ledger says
    told = [e["kind"] for s in ada.states for e in [*(s.get("events") or ()), *s.get("story", ())]]
    assert "left_match" in told or "leave" in told, told
    await live.services.writer.flush()
    session = await my_session(ada, table_id)
    assert session["status"] == "left" and session["stack"] == 0, session
    if "left_match" in told:  # her bets stayed in the pot, written with the leave
        async with live.services.sessionmaker() as db:
            left = (
                await db.scalars(
                    select(LedgerEntry).where(
                        LedgerEntry.reason == "bets left in the pot",
                        LedgerEntry.source == f"bets:{table_id}:{ada.player_id}",
                    )
                )
            ).all()
        assert left and all(entry.hand_id is None for entry in left), left
    # (her net may be either sign: she may have won a match before this one)
    me = (await ada.http.get("/api/me")).json()
    assert me["bankroll"] == START + session["net"], (me, session)
    result = await audit(live)
    assert result["balanced"] is True, result
    # the bots play on: the match went on without her (or a bot won it as the last one in)
    assert all(info.is_bot for info in actor.roster.values())
    await ada.close()
