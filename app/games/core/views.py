"""What a viewer sees: the view's type and the helpers that hide cards (docs/protocol.md §6;
docs/rules.md §0.8)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

View = dict[str, Any]
"""The table as one viewer may see it (JSON-ready)."""


def card_view(card: str, *, up: bool, visible: bool) -> dict[str, Any]:
    """A card as one viewer sees it (docs/protocol.md §6)."""
    return {"card": card if (up or visible) else None, "up": up}


def views_with_own_seat(
    public: dict[str, Any],
    seated: Iterable[int],
    viewers: Iterable[int | None],
    own_seat: Callable[[int], dict[str, Any]],
) -> dict[int | None, dict[str, Any]]:
    """Views for several viewers from the table as a spectator sees it (``public``, built
    once): a seated viewer sees it too, but for their own seat's entry, ``own_seat(viewer)``
    (their face-down cards: docs/rules.md §0.8). Views share the other entries."""
    sitting = set(seated)
    out: dict[int | None, dict[str, Any]] = {}
    for viewer in viewers:
        view = dict(public)
        if viewer is not None and viewer in sitting:
            view["seats"] = [
                own_seat(viewer) if entry["seat"] == viewer else entry for entry in public["seats"]
            ]
        out[viewer] = view
    return out
