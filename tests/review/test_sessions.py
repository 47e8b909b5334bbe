"""The ledger's sessions (the exports: player, buy-in, buy-out, stack, net per session;
app/review/sessions.py).

A player still seated has a session still open: its ``stack`` is what they have on the table,
the chips in front of them included (En og tredive's bets put up for the match, Trente et
Quarante's stakes in prison), so ``net`` = buy-out + stack − buy-in adds up with the hands'
results, as the player page's chart counts them.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import Account, GameTable, LedgerEntry, Player, Seat
from app.review.sessions import player_sessions, table_sessions

T0 = datetime(2026, 11, 20, 20, 0, tzinfo=UTC)


async def test_an_open_session_counts_the_chips_in_front_of_the_player(
    session: AsyncSession,
) -> None:
    # Ada and Basil buy in for 300 at an En og tredive table; each puts up 30 for the match
    # (bets:T:P); Ada has paid 10 of hers into the pot (a hand's result: -10); Basil none.
    await session.execute(
        insert(Player),
        [{"id": p, "name": p.title(), "is_bot": False, "created_at": T0} for p in ("ada", "basil")],
    )
    await session.execute(
        insert(GameTable),
        [
            {
                "id": "t1",
                "name": "Match",
                "game": "en-og-tredive",
                "options": {},
                "status": "open",
                "created_at": T0,
                "hands_played": 1,
            }
        ],
    )
    await session.execute(
        insert(Seat),
        [
            {"table_id": "t1", "seat": 0, "player_id": "ada", "sat_at": T0},
            {"table_id": "t1", "seat": 1, "player_id": "basil", "sat_at": T0},
        ],
    )
    balances = {
        ("bankroll:ada", "bankroll", "ada", None): 700,
        ("bankroll:basil", "bankroll", "basil", None): 700,
        ("stack:t1:ada", "stack", "ada", "t1"): 270,
        ("stack:t1:basil", "stack", "basil", "t1"): 270,
        ("bets:t1:ada", "bets", "ada", "t1"): 20,
        ("bets:t1:basil", "bets", "basil", "t1"): 30,
        ("pot:t1", "pot", None, "t1"): 10,
    }
    await session.execute(
        insert(Account),
        [
            {"id": a, "kind": k, "player_id": p, "table_id": t, "balance": b}
            for (a, k, p, t), b in balances.items()
        ],
    )
    moves = [
        ("bankroll:ada", "stack:t1:ada", 300, "buy-in", None),
        ("bankroll:basil", "stack:t1:basil", 300, "buy-in", None),
        ("stack:t1:ada", "bets:t1:ada", 30, "bets put up", "h1"),
        ("stack:t1:basil", "bets:t1:basil", 30, "bets put up", "h1"),
        ("bets:t1:ada", "pot:t1", 10, "bet paid", "h1"),
    ]
    await session.execute(
        insert(LedgerEntry),
        [
            {
                "id": i + 1,
                "created_at": T0 + timedelta(seconds=i),
                "source": s,
                "target": t,
                "amount": a,
                "reason": r,
                "hand_id": h,
                "table_id": "t1",
            }
            for i, (s, t, a, r, h) in enumerate(moves)
        ],
    )
    await session.commit()

    rows = {s.player_id: s for s in await table_sessions(session, "t1")}
    assert rows["ada"].status == rows["basil"].status == "playing"
    assert (rows["ada"].stack, rows["ada"].net) == (290, -10)
    assert (rows["basil"].stack, rows["basil"].net) == (300, 0)
    assert sum(s.net for s in rows.values()) == -10  # the 10 in the pot is nobody's yet
    (mine,) = await player_sessions(session, "ada")
    assert mine.to_json()["stack"] == 290 and mine.to_json()["net"] == -10
