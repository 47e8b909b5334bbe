"""Privacy of the review side, per game (docs/rules.md §0.8).

What a reader may know of a hand is what the live table showed them: the cards in the views
their seat had during it. Nothing the review side hands out may name another card: not the
replay's steps (views and events), not the JSON export, not the record of ``GET /api/hands``.
The cards the rules never show are checked by name: a Vingt-un bust's first two cards, an En
og tredive hand never shown, a Trianta Ena folded card, the Greek 31 dealer's concealed card,
the Trente et Quarante burned cards.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from app.games.core.cards import is_valid_card
from app.games.core.registry import GAME_IDS
from app.review.export import hand_export
from app.review.fairness import StoredShoe
from app.review.history import public_record
from app.review.steps import replay_for
from tests.review.engine_play import recorded, watchers_of


def codes(node: Any) -> list[str]:
    """Every card code anywhere in a JSON value (in order, with repeats)."""
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif is_valid_card(value):
            found.append(value)

    walk(node)
    return found


def unrevealed(record: dict[str, Any]) -> dict[str, StoredShoe]:
    """The hand's shoes as the database keeps them while still in play (no seed published)."""
    return {commit: StoredShoe(commit, "00" * 32, [], None) for commit in record["shuffles"]["new"]}


def entitled(
    record: dict[str, Any], live: list[list[dict[str, Any]]], index: int, seat: int | None
) -> set[str]:
    """The cards watcher ``index`` (in ``seat``) saw at some step of the hand, and those the
    rules deal face up (a card drawn face up by a player who goes bust at once is never
    drawn on the table, but it was dealt face up: the engine's public event names it)."""
    seen = {code for step in live for code in codes(step[index])}
    for event in record["events"]:
        mine = "private_to" not in event or (seat is not None and seat in event["private_to"])
        if mine:
            seen.update(codes(event))
    return seen


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_nothing_handed_out_names_a_card_the_reader_never_saw(game_id: str) -> None:
    for record, live, _ in recorded(game_id):
        for index, watcher in list(enumerate(watchers_of(game_id)))[:4]:
            seen = entitled(record, live, index, watcher)
            player = f"p{watcher}" if watcher is not None else None
            replay = replay_for(record, watcher, table_name="T")
            export = hand_export(
                record,
                status="finished",
                viewer_seat=watcher,
                shoes=unrevealed(record),
                table_closed=False,
                table_name="T",
            )
            public = public_record(record, player)
            for name, body in (("replay", replay), ("export", export), ("record", public)):
                extra = set(codes(body)) - seen
                assert not extra, (game_id, record["number"], watcher, name, extra)
                text = json.dumps(body)
                assert "start_state" not in text and "shuffle_seeds" not in text
            assert replay["viewer_seat"] == watcher


def hidden_in_views(views: list[dict[str, Any]], seat: int) -> bool:
    """True when ``seat``'s cards are never drawn face up in these views."""
    for view in views:
        for entry in view.get("seats", []):
            if entry["seat"] == seat:
                for hand in entry.get("hands", []):
                    if any(c.get("card") for c in hand.get("cards", [])[:2]):
                        return False
    return True


def test_a_vingt_un_bust_keeps_its_first_two_cards() -> None:
    busts = 0
    for record, _, _ in recorded("vingt-un"):
        for event in record["events"]:
            if event["kind"] != "over":
                continue
            seat = event["seat"]
            busts += 1
            first_two = [
                e["card"] for e in record["events"] if e["kind"] == "deal" and e["seat"] == seat
            ][:2]
            for watcher in watchers_of("vingt-un"):
                if watcher == seat:
                    continue
                replay = replay_for(record, watcher)
                for step in replay["steps"]:
                    entry = next((s for s in step["view"]["seats"] if s["seat"] == seat), None)
                    if entry is None or not entry["hands"]:
                        continue
                    shown = [c["card"] for c in entry["hands"][0]["cards"][:2]]
                    assert (
                        shown == [None, None]
                        or not set(shown) & set(first_two)
                        or any(
                            e["kind"] == "show" and e.get("seat") == seat for e in record["events"]
                        )
                    ), (record["number"], watcher, shown)
                dealt = [
                    e
                    for e in replay_for(record, watcher)["steps"][0]["events"]
                    if e["kind"] == "deal" and e["seat"] == seat
                ]
                assert all(e["card"] is None for e in dealt)
    assert busts > 0, "no bust in the recorded Vingt-un hands"


def test_an_en_og_tredive_hand_never_shown_stays_hidden() -> None:
    checked = 0
    for record, _, _ in recorded("en-og-tredive"):
        shown = {e["seat"] for e in record["events"] if e["kind"] == "show"}
        dealt = {e["seat"]: e["cards"] for e in record["events"] if e["kind"] == "dealt"}
        for seat, cards in dealt.items():
            if seat in shown:
                continue
            for watcher in watchers_of("en-og-tredive"):
                if watcher == seat:
                    continue
                export = hand_export(
                    record,
                    status="finished",
                    viewer_seat=watcher,
                    shoes={},
                    table_closed=False,
                    table_name=None,
                )
                dealt_events = [
                    e for e in export["events"] if e["kind"] == "dealt" and e["seat"] == seat
                ]
                assert dealt_events and all(c is None for e in dealt_events for c in e["cards"])
                draws = [
                    e
                    for e in export["events"]
                    if e["kind"] == "draw" and e["seat"] == seat and e.get("source") == "stock"
                ]
                assert all(e["card"] is None for e in draws)
                checked += 1
            own = hand_export(
                record,
                status="finished",
                viewer_seat=seat,
                shoes={},
                table_closed=False,
                table_name=None,
            )
            mine = next(e for e in own["events"] if e["kind"] == "dealt" and e["seat"] == seat)
            assert mine["cards"] == cards  # the holder sees their own hand
    assert checked > 0


def test_a_trianta_ena_folded_card_is_never_shown() -> None:
    folds = 0
    for record, _, _ in recorded("trianta-ena"):
        folded = {e["seat"] for e in record["events"] if e["kind"] == "fold"}
        for seat in folded:
            folds += 1
            for watcher in watchers_of("trianta-ena"):
                if watcher == seat:
                    continue
                steps = replay_for(record, watcher)["steps"]
                hole = [
                    e
                    for s in steps
                    for e in s["events"]
                    if e["kind"] == "deal" and e.get("seat") == seat and e.get("up") is False
                ]
                assert hole and all(e["card"] is None for e in hole)
                assert not [
                    e
                    for s in steps
                    for e in s["events"]
                    if e["kind"] == "show" and e.get("seat") == seat
                ]
    assert folds > 0


def test_burned_and_hole_cards_are_hidden_from_everyone() -> None:
    for game_id, kind in (("trente-et-quarante", "burn"), ("greek-31", "dealer_draw")):
        for record, _, _ in recorded(game_id):
            for event in record["events"]:
                if event["kind"] != kind:
                    continue
                owner = event.get("seat")
                for watcher in watchers_of(game_id):
                    if watcher is not None and watcher == owner:
                        continue
                    public = public_record(record, f"p{watcher}" if watcher is not None else None)
                    hidden = [
                        e for e in public["events"] if e["kind"] == kind and e.get("seat") == owner
                    ]
                    assert hidden and not codes(hidden), (game_id, watcher, hidden)
