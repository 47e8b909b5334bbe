"""Blocks: each player's own mute of another, for themselves only (docs/protocol/socket.md
§5.9, docs/protocol/identity.md §4.3).

The rule: a person ``A`` who blocks ``B`` is sent none of ``B``'s chat messages and
reactions, at any table: not live, and not in the chat history a (re)connecting socket gets.
The filter is the server's, per watcher, so ``B``'s words never reach ``A``'s sockets.
Nobody else is affected, and ``B`` is not told. It is not moderation: the opener's (or the
host's) mute refuses a person's chat for everyone (app/runtime/chat.py).

The database keeps each person's blocks (app/db/store/blocks.py); this process keeps those
of the people connected to it, read afresh when one of their sockets opens and changed by
``PUT``/``DELETE /api/me/blocks/{player_id}``. In a cluster a change made over another
node's REST reaches this node's tables when the person's socket opens again.
"""

from __future__ import annotations

from collections.abc import Iterable

MAX_BLOCKS = 200
"""The most people one player may block (a block more is refused, ``too_many_blocks``)."""


class Blocks:
    """Who each player this process knows of blocks (player id -> blocked ids)."""

    __slots__ = ("_by",)

    def __init__(self) -> None:
        self._by: dict[str, frozenset[str]] = {}

    def set(self, player_id: str, blocked: Iterable[str]) -> None:
        """The people ``player_id`` blocks, as the database has them now."""
        ids = frozenset(blocked)
        if ids:
            self._by[player_id] = ids
        else:
            self._by.pop(player_id, None)

    def of(self, player_id: str | None) -> frozenset[str]:
        return frozenset() if player_id is None else self._by.get(player_id, frozenset())

    def hides(self, reader: str | None, writer: str | None) -> bool:
        """Whether ``reader`` blocks ``writer``: then nothing ``writer`` says reaches them."""
        return reader is not None and writer is not None and writer in self.of(reader)
