"""Exports: a hand as JSON with a documented schema (``docs/review.md``), and all
the hands of a player as JSON lines.

An export is the hand as its reader may see it: the record's private part never; events with
cards the reader may not see as null (:func:`app.review.history.filter_event`); the shoes'
seeds only once they are published (retired shoes, closed tables).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.review.fairness import StoredShoe
from app.review.history import filter_event, hand_result
from app.review.steps import seat_listing, shoes_of

SCHEMA = "table31/hand"
SCHEMA_VERSION = 1


def hand_export(
    record: dict[str, Any],
    *,
    status: str,
    viewer_seat: int | None,
    shoes: dict[str, StoredShoe],
    table_closed: bool,
    table_name: str | None,
) -> dict[str, Any]:
    """One hand as JSON for a reader whose seat in it is ``viewer_seat``."""
    published = []
    for commit, made in shoes_of(record):
        stored = shoes.get(commit)
        revealed = stored is not None and stored.revealed(table_closed)
        published.append(
            {
                "commit": commit,
                "made_in_this_hand": made,
                "revealed": revealed,
                "seed": stored.seed if revealed and stored is not None else None,
                # the cards the shuffle took, in order: with the seed, the deal order
                # (docs/fairness.md, "Your own way")
                "source": list(stored.source) if revealed and stored is not None else None,
            }
        )
    return {
        "schema": SCHEMA,
        "schema_version": SCHEMA_VERSION,
        "exported_at": datetime.now(UTC).isoformat(),
        "hand_id": record.get("hand_id"),
        "table_id": record.get("table_id"),
        "table_name": table_name,
        "game": record.get("game"),
        "number": record.get("number"),
        "status": status,
        "record_version": record.get("version"),
        "options": record.get("options") or {},
        "started_at": record.get("started_at"),
        "ended_at": record.get("ended_at"),
        "viewer_seat": viewer_seat,
        "seats": seat_listing(record),
        "events": [filter_event(e, viewer_seat) for e in record.get("events") or []],
        "actions": record.get("actions") or [],
        "settlement": record.get("settlement") or [],
        "result": hand_result(record),
        "summary": record.get("summary") or {},
        "shoes": published,
    }
