"""The proof of a fair shuffle (docs/fairness.md).

Once its shoes are retired (their seeds published), every recorded hand of every game is
verified: commitment, deal order, continuity of the stock, cards dealt and chips moved. A
record changed afterwards fails: a card in an event, a seed, the stock's order, a stake.
While a shoe is still in play the proof says "not yet revealed".
"""

from __future__ import annotations

import copy
import json
from datetime import UTC, datetime
from typing import Any

import pytest

from app.games.core.cards import Shuffle, shuffled
from app.games.core.registry import GAME_IDS
from app.i18n.messages import localize
from app.review.fairness import (
    CHECK_WORDS,
    FAILED,
    NOT_YET_REVEALED,
    VERIFIED,
    Proof,
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


def worded(proof: Proof) -> Proof:
    """``proof``, once each of its checks is found named and worded in marked messages (the
    pseudo-locale's catalog words every marked message, wrapped in ⟦ ⟧: docs/i18n.md), which
    the API words in its reader's language."""
    for check in proof.checks:
        assert check["check"] in CHECK_WORDS, check
        shown = localize(check["detail"], "qps")
        assert shown.startswith("⟦") and shown.endswith("⟧"), check
        assert "{" not in shown and "⟧ ⟦" not in shown, shown  # values in, none worded apart
    return proof


def tamper_a_card(record: dict[str, Any]) -> dict[str, Any] | None:
    """The record with the first card of its hand's events changed (None: no card event)."""
    changed = copy.deepcopy(record)
    for event in changed["events"]:
        card = event.get("card")
        if isinstance(card, str) and card != "XX":
            event["card"] = "KS" if card != "KS" else "QS"
            return changed
    return None


def earlier_of(game_id: str, index: int) -> list[dict[str, Any]]:
    """The records played at the table before hand ``index``, oldest first."""
    return [record for record, _, _ in recorded(game_id)[:index]]


def published_for(game_id: str, index: int, shuffles: dict[str, Shuffle]) -> dict[str, StoredShoe]:
    """The shoes hand ``index`` drew from and those shuffled in the hands before it."""
    record = recorded(game_id)[index][0]
    shoes = published(record, shuffles)
    for earlier in earlier_of(game_id, index):
        for commit in earlier["shuffles"]["new"]:
            stored = shuffles[commit]
            shoes[commit] = StoredShoe(commit, stored.seed.hex(), list(stored.source), RETIRED)
    return shoes


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_hand_verifies_once_its_shoes_are_retired(game_id: str) -> None:
    for i, (record, _, shuffles) in enumerate(recorded(game_id)):
        proof = verify(
            record,
            published_for(game_id, i, shuffles),
            table_closed=False,
            earlier=earlier_of(game_id, i),
        )
        worded(proof)
        assert proof.status == VERIFIED, (game_id, record["number"], proof.checks)
        assert {c["check"] for c in proof.checks} >= {"commitment", "cards dealt", "settlement"}
        for shoe in proof.shoes:
            stored = shuffles[shoe["commit"]]
            assert shoe["order"] == shuffled(list(stored.source), stored.seed)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_tampered_record_fails(game_id: str) -> None:
    tried = {"card": 0, "seed": 0, "stock": 0, "stake": 0}
    for i, (record, _, shuffles) in enumerate(recorded(game_id)[:10]):
        shoes = published_for(game_id, i, shuffles)
        earlier = earlier_of(game_id, i)
        changed = tamper_a_card(record)
        if changed is not None:
            proof = worded(verify(changed, shoes, table_closed=False, earlier=earlier))
            assert proof.status == FAILED, (game_id, "card", proof.checks)
            tried["card"] += 1
        for commit, shoe in published(record, shuffles).items():
            bad = dict(shoes)
            seed = bytearray(bytes.fromhex(shoe.seed))
            seed[0] ^= 1
            bad[commit] = StoredShoe(commit, seed.hex(), shoe.source, shoe.retired_at)
            proof = worded(verify(record, bad, table_closed=False, earlier=earlier))
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
                proof = worded(verify(swapped, shoes, table_closed=False, earlier=earlier))
                assert proof.status == FAILED, (game_id, "stock", proof.checks)
                tried["stock"] += 1
        if record["settlement"]:
            richer = copy.deepcopy(record)
            richer["settlement"][0]["amount"] += 1
            proof = worded(verify(richer, shoes, table_closed=False, earlier=earlier))
            assert proof.status == FAILED
            tried["stake"] += 1
    assert tried["card"] and tried["seed"] and tried["stake"], tried


def test_greek_31_a_stock_rearranged_with_its_events_fails() -> None:
    """Greek 31 gathers used cards under the stock, so the stock at the start of a later hand
    is not a suffix of the shoe's order. Two cards of one rank swapped in that stock, and in
    the hand's events to match, change no result: the proof must still catch it, because
    the stock is derived from the seed and the hands since the shuffle."""
    hands = recorded("greek-31")
    tried = 0
    for i, (record, _, shuffles) in enumerate(hands):
        if record["shuffles"]["new"] or i == 0:
            continue  # dealt from a shoe shuffled in an earlier hand
        cards = record["private"]["start_state"]["stock"]["cards"]
        dealt = [e["card"] for e in record["events"] if isinstance(e.get("card"), str)]
        first = cards[0]
        other = next(
            (c for c in cards[len(dealt) + 1 :] if c[0] == first[0] and c not in dealt), None
        )
        if other is None or dealt.count(first) != 1:
            continue  # (two decks: the same card twice in one hand would be swapped too)
        changed = copy.deepcopy(record)
        stock = changed["private"]["start_state"]["stock"]["cards"]
        a, b = stock.index(first), stock.index(other)
        stock[a], stock[b] = stock[b], stock[a]
        changed["events"] = json.loads(
            json.dumps(changed["events"]).replace(f'"{first}"', '"@@"').replace(
                f'"{other}"', f'"{first}"').replace('"@@"', f'"{other}"')
        )  # fmt: skip
        shoes = published_for("greek-31", i, shuffles)
        earlier = earlier_of("greek-31", i)
        assert verify(record, shoes, table_closed=False, earlier=earlier).status == VERIFIED
        proof = worded(verify(changed, shoes, table_closed=False, earlier=earlier))
        assert proof.status == FAILED, proof.checks
        assert any(c["check"] == "continuity" and c["ok"] is False for c in proof.checks)
        # Without the hands before it, a Greek 31 stock cannot be tied to its seed.
        assert worded(verify(record, shoes, table_closed=False)).status == FAILED
        tried += 1
        if tried == 3:
            break
    assert tried, "no Greek 31 hand dealt from an earlier shoe"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_shoe_in_play_is_not_yet_revealed(game_id: str) -> None:
    record, _, shuffles = recorded(game_id)[0]
    proof = verify(record, published(record, shuffles, retired=False), table_closed=False)
    assert worded(proof).status == NOT_YET_REVEALED
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

    from app.games.core.cards import canonical_shoe, commitment

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


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_export_gives_what_a_reader_needs_to_recompute_the_order(game_id: str) -> None:
    """docs/fairness.md: take ``seed`` and ``source`` of a revealed shoe from the hand's JSON
    export, and the documented algorithm gives the deal order; nothing before the reveal."""
    from app.review.export import hand_export

    record, _, shuffles = recorded(game_id)[0]
    for retired, closed in ((True, False), (False, False), (False, True)):
        body = hand_export(
            record,
            status="finished",
            viewer_seat=None,
            shoes=published(record, shuffles, retired=retired),
            table_closed=closed,
            table_name="T",
        )
        assert body["shoes"]
        for shoe in body["shoes"]:
            if not (retired or closed):
                assert shoe["revealed"] is False and shoe["seed"] is None
                assert shoe["source"] is None
                continue
            assert shoe["revealed"] is True
            stored = shuffles[shoe["commit"]]
            assert shoe["source"] == list(stored.source)
            order = shuffled(shoe["source"], bytes.fromhex(shoe["seed"]))
            assert order == list(Shuffle.of(list(stored.source), stored.seed).order)
