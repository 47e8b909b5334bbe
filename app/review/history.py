"""Hand records as a viewer may read them (docs/rules.md §0.8).

The stored record holds every card; what leaves the server is filtered here: the private
part (the stock's order and seeds at the start) never, and an event's cards only for the
seats the engine marked as entitled to them (``private_to``) — a later public ``show``
event reveals what the rules reveal.
"""

from __future__ import annotations

from typing import Any

from app.games.core.cards import is_valid_card
from app.games.core.coded import from_json
from app.review import results

CARD_KEYS = ("card", "cards", "hand", "hands")
"""Keys whose values are cards: every string under them is hidden in a private event."""
HIDDEN_FIGURES = ("value", "total")
"""A hidden hand's value gives its cards away as well: hidden in a private event."""


def _hide_cards(value: Any) -> Any:
    if isinstance(value, list):
        return [_hide_cards(v) for v in value]
    if isinstance(value, str):
        return None
    if isinstance(value, dict):
        return {k: _hide_cards(v) for k, v in value.items()}
    return value


def _hide_codes(value: Any) -> Any:
    """Any card code anywhere (an engine may name a field as it likes): hidden."""
    if isinstance(value, list):
        return [_hide_codes(v) for v in value]
    if isinstance(value, dict):
        return {k: _hide_codes(v) for k, v in value.items()}
    if is_valid_card(value):
        return None
    return value


def viewer_seat(record: dict[str, Any], player_id: str | None) -> int | None:
    for seat in record.get("seats_before", []):
        if player_id is not None and seat.get("player_id") == player_id:
            return int(seat["seat"])
    return None


def filter_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    entitled = event.get("private_to")
    if entitled is None or (seat is not None and seat in entitled):
        return event
    out: dict[str, Any] = {}
    for key, value in event.items():
        if key in CARD_KEYS:
            out[key] = _hide_cards(value)
        elif key in HIDDEN_FIGURES:
            out[key] = None
        elif key in ("kind", "private_to", "t"):
            out[key] = value
        else:
            out[key] = _hide_codes(value)
    return out


def hand_result(record: dict[str, Any]) -> dict[str, Any]:
    """The hand's result (docs/protocol.md §6.6): as stored with the record, or, for a record
    stored before results were, worked out the same way from its settlement."""
    stored = record.get("result")
    if isinstance(stored, dict):
        return stored
    people = {
        int(s["seat"]): (str(s["player_id"]), str(s["name"]))
        for s in record.get("seats_before") or []
    }
    moves = [
        (
            str(m["from"]),
            str(m["to"]),
            int(m["amount"]),
            from_json(str(m.get("reason", "")), m.get("reason_coded")),
        )
        for m in record.get("settlement") or []
    ]
    return results.hand_result(
        str(record.get("hand_id")), int(record.get("number") or 0), moves, people, set(people)
    )


def public_record(record: dict[str, Any], player_id: str | None) -> dict[str, Any]:
    """The record of a finished hand as ``player_id`` (None: anyone) may see it."""
    seat = viewer_seat(record, player_id)
    out = {k: v for k, v in record.items() if k != "private"}
    out["result"] = hand_result(record)
    out["events"] = [filter_event(e, seat) for e in record.get("events", [])]
    out["viewer_seat"] = seat
    return out
