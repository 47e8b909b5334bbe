"""The last accepted act ids of a player (app/runtime/act_ids.py): a resend is known for the
last 32 ids, the oldest is forgotten first, and the memory does not grow with the ids."""

from __future__ import annotations

import sys

from app.runtime.act_ids import REMEMBERED, AcceptedActs


def test_the_last_32_ids_are_remembered_and_the_oldest_forgotten_first() -> None:
    acts = AcceptedActs()
    ids = [f"client-{n}" for n in range(REMEMBERED + 8)]
    for n, act_id in enumerate(ids):
        assert act_id not in acts
        acts.add(act_id)
        assert act_id in acts
        assert len(acts) == min(n + 1, REMEMBERED)
    assert not any(act_id in acts for act_id in ids[:8])
    assert all(act_id in acts for act_id in ids[8:])
    acts.add("one more")
    assert ids[8] not in acts and ids[9] in acts and "one more" in acts


def test_a_player_s_ids_cost_the_same_whatever_their_length() -> None:
    short, long = AcceptedActs(), AcceptedActs()
    for n in range(REMEMBERED):
        short.add(str(n))
        long.add(f"{n:064d}")  # the longest id the protocol allows
    size = sys.getsizeof(long._hashes)
    assert size == sys.getsizeof(short._hashes) and size < 400
