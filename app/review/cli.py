"""``python -m app verify HAND_ID``: the proof of a fair shuffle from the command line.

Reads the hand, its shoes and its table from the database of the server's settings
(``DATABASE_URL``), runs :func:`app.review.fairness.verify` and prints each check. With
``--json`` it prints the whole proof (the seeds and deal orders of the revealed shoes
included). The exit status says the outcome: 0 verified, 1 failed, 2 not yet revealed,
3 no such finished hand.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.db.session import make_engine, make_sessionmaker
from app.db.store import proofs
from app.review.fairness import FAILED, NOT_YET_REVEALED, VERIFIED, verify
from app.review.shoe_chain import earlier_hands, stored_shoes

EXIT = {VERIFIED: 0, FAILED: 1, NOT_YET_REVEALED: 2}


async def proof_of(database_url: str, hand_id: str) -> dict[str, Any] | None:
    engine = make_engine(database_url)
    try:
        async with make_sessionmaker(engine)() as session:
            hand = await proofs.hand_by_id(session, hand_id)
            if hand is None or hand.status != "finished" or not hand.record:
                return None
            record = dict(hand.record)
            assert hand.ended_at is not None
            earlier = await earlier_hands(session, hand.id, hand.table_id, hand.ended_at)
            shoes = await stored_shoes(session, record, *earlier)
            table = await proofs.table_by_id(session, hand.table_id)
            closed = table is not None and table.status == "closed"
            proof = verify(record, shoes, table_closed=closed, earlier=earlier)
            return {"hand_id": hand.id, "game": hand.game, "number": hand.number, **proof.to_json()}
    finally:
        await engine.dispose()


def run(database_url: str, hand_id: str, *, as_json: bool = False) -> int:
    proof = asyncio.run(proof_of(database_url, hand_id))
    if proof is None:
        print(f"no finished hand {hand_id!r} in this database")
        return 3
    if as_json:
        print(json.dumps(proof, indent=2))
        return EXIT[proof["status"]]
    print(f"hand {proof['hand_id']} ({proof['game']}, hand {proof['number']})")
    for check in proof["checks"]:
        mark = {True: "ok  ", False: "FAIL", None: "wait"}[check["ok"]]
        print(f"  [{mark}] {check['check']}: {check['detail']}")
    for shoe in proof["shoes"]:
        if shoe.get("revealed"):
            print(f"  shoe {shoe['commit']}\n    seed {shoe['seed']}")
            if "order" in shoe:
                print(f"    order (SHA-256 {shoe['order_sha256']}): {' '.join(shoe['order'])}")
        else:
            print(f"  shoe {shoe['commit']}: not yet revealed")
    print(
        {
            VERIFIED: "VERIFIED",
            FAILED: "FAILED",
            NOT_YET_REVEALED: "NOT YET REVEALED (the shoe is still in play)",
        }[proof["status"]]
    )
    return EXIT[proof["status"]]
