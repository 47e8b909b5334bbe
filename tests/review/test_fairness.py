"""The proof of a fair shuffle (issue 7, "Proof of a fair shuffle"; docs/fairness.md).

Once its shoes are retired (their seeds published), every recorded hand of every game is
verified: commitment, deal order, continuity of the stock, cards dealt and chips moved. A
record changed afterwards fails: a card in an event, a seed, the stock's order, a stake.
While a shoe is still in play the proof says "not yet revealed".
"""

from __future__ import annotations

import copy
from datetime import UTC, datetime
from typing import Any

import pytest

from app.games.cards import Shuffle, shuffled
from app.games.registry import GAME_IDS
from app.review.fairness import (
    FAILED,
    NOT_YET_REVEALED,
    VERIFIED,
    StoredShoe,
    continuity,
    verify,
)
from app.review.steps import shoes_of
from tests.review.engine_play import recorded

RETIRED = datetime(2026, 11, 21, tzinfo=UTC)


def published(
    record: dict[str, Any], shuffles: dict[str, Shuffle], *, retired: bool = True
) -> dict[str, StoredShoe]:
    return {
        commit: StoredShoe(
            commit,
            shuffles[commit].seed.hex(),
            list(shuffles[commit].source),
            RETIRED if retired else None,
        )
        for commit, _ in shoes_of(record)
    }


def tamper_a_card(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record with the first card of its hand's events changed (None: no card event)."""
    changed = copy.deepcopy(record)
    for event in changed["events"]:
        card = event.get("card")
        if isinstance(card, str) and card != "XX":
            event["card"] = "KS" if card != "KS" else "QS"
            return changed
    return None


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_hand_verifies_once_its_shoes_are_retired(game_id: str) -> None:
    for record, _, shuffles in recorded(game_id):
        proof = verify(record, published(record, shuffles), table_closed=False)
        assert proof.status == VERIFIED, (game_id, record["number"], proof.checks)
        assert {c["check"] for c in proof.checks} >= {"commitment", "cards dealt", "settlement"}
        for shoe in proof.shoes:
            stored = shuffles[shoe["commit"]]
            assert shoe["order"] == shuffled(list(stored.source), stored.seed)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_tampered_record_fails(game_id: str) -> None:
    tried = {"card": 0, "seed": 0, "stock": 0, "stake": 0}
    for record, _, shuffles in recorded(game_id)[:10]:
        shoes = published(record, shuffles)
        changed = tamper_a_card(record)
        if changed is not None:
            proof = verify(changed, shoes, table_closed=False)
            assert proof.status == FAILED, (game_id, "card", proof.checks)
            tried["card"] += 1
        for commit, shoe in shoes.items():
            bad = dict(shoes)
            seed = bytearray(bytes.fromhex(shoe.seed))
            seed[0] ^= 1
            bad[commit] = StoredShoe(commit, seed.hex(), shoe.source, shoe.retired_at)
            proof = verify(record, bad, table_closed=False)
            assert proof.status == FAILED, (game_id, "seed", proof.checks)
            assert any(c["check"] == "commitment" and c["ok"] is False for c in proof.checks)
            tried["seed"] += 1
        stock = record["private"]["start_state"].get("stock", {})
        dealt_from_it = not record["shuffles"]["new"]  # no new shoe: the deal takes its cards
        if len(stock.get("cards", [])) >= 2 and stock.get("shuffle") and dealt_from_it:
            swapped = copy.deepcopy(record)
            cards = swapped["private"]["start_state"]["stock"]["cards"]
            j = next((i for i in range(1, len(cards)) if cards[i] != cards[0]), None)
            if j is not None:
                cards[0], cards[j] = cards[j], cards[0]
                proof = verify(swapped, shoes, table_closed=False)
                assert proof.status == FAILED, (game_id, "stock", proof.checks)
                tried["stock"] += 1
        if record["settlement"]:
            richer = copy.deepcopy(record)
            richer["settlement"][0]["amount"] += 1
            assert verify(richer, shoes, table_closed=False).status == FAILED
            tried["stake"] += 1
    assert tried["card"] and tried["seed"] and tried["stake"], tried


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_shoe_in_play_is_not_yet_revealed(game_id: str) -> None:
    record, _, shuffles = recorded(game_id)[0]
    proof = verify(record, published(record, shuffles, retired=False), table_closed=False)
    assert proof.status == NOT_YET_REVEALED
    assert all("seed" not in shoe for shoe in proof.shoes)
    closed = verify(record, published(record, shuffles, retired=False), table_closed=True)
    assert closed.status == VERIFIED


def test_continuity_finds_where_the_stock_stands_in_the_order() -> None:
    order = ["AS", "2S", "3S", "4S", "5S"]
    assert continuity(["3S", "4S", "5S"], order) == 2
    assert continuity([], order) == 5
    assert continuity(["5S", "4S"], order) is None
    assert continuity(["3S", "5S", "4S"], order) is None
    # Greek 31 gathers used cards under the stock: they come after the rest of the order.
    assert continuity(["4S", "5S", "AS", "2S"], order, gathers=True) == 3
    assert continuity(["4S", "5S", "AS", "2S"], order) is None


def test_the_algorithm_in_docs_fairness_is_the_one_the_server_runs() -> None:
    """The few lines docs/fairness.md gives anyone to check a shoe deal the same order."""
    import hashlib
    import re
    from pathlib import Path

    from app.games.cards import canonical_shoe, commitment

    doc = (Path(__file__).resolve().parents[2] / "docs" / "fairness.md").read_text()
    match = re.search(r"```python\n(.*?)```", doc, re.S)
    assert match is not None
    names: dict[str, Any] = {}
    exec(match.group(1), names)
    for i in range(12):
        seed = hashlib.sha256(f"doc-{i}".encode()).digest()
        cards = canonical_shoe(1 + i % 6, jokers=i % 2)
        assert names["deal_order"](cards, seed) == shuffled(cards, seed)
        assert names["commitment"](seed) == commitment(seed)
