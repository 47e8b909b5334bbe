"""Hand records as a viewer may read them (RULES.md §0, "Hidden information").

The stored record holds every card; what leaves the server is filtered here: the private
part (the stock's order and seeds at the start) never, and an event's cards only for the
seats the engine marked as entitled to them (``private_to``) — a later public ``show``
event reveals what the rules reveal.
"""

from __future__ import annotations

from typing import Any

from app.games.cards import is_valid_card

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


def public_record(record: dict[str, Any], player_id: str | None) -> dict[str, Any]:
    """The record of a finished hand as ``player_id`` (None: anyone) may see it."""
    seat = viewer_seat(record, player_id)
    out = {k: v for k, v in record.items() if k != "private"}
    out["events"] = [filter_event(e, seat) for e in record.get("events", [])]
    out["viewer_seat"] = seat
    return out
