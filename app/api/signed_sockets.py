"""The open table sockets by the device (sign-in token) that opened them, so that signing a
device out closes them too (docs/protocol/identity.md).

A socket is authenticated once, when it opens (app/api/ws.py); without this registry a token
signed out from another device kept its open sockets, and could chat, top up and leave
there for as long as they stayed open. Now every revocation (``DELETE /api/me/devices/{id}``,
``POST /api/me/signout``, ``POST /api/me/signout-others``: app/api/routes/session.py) closes
the device's sockets with :data:`SIGNED_OUT_CODE` and :data:`SIGNED_OUT_REASON`. The route
closes them before the token's row is deleted and again after (a socket that authenticated
in between), so there is no moment in which the token is gone from the database and still
acts on a socket; and a closed connection handles no frame already received
(app/api/ws.py checks ``conn.closed`` after each receive).

The registry is the process's own (one per app, on ``app.state``). In cluster mode a table's
sockets live on the node that serves the table, and a sign-out answered by another node does
not reach them yet (the bus, app/cluster/bus.py, subscribes to a fixed set of channels): there
a signed-out device's sockets stay open until they close, though its token opens no new one.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Protocol

SIGNED_OUT_CODE = 4401
SIGNED_OUT_REASON = "signed out: this device's sign-in was revoked"


class Closable(Protocol):
    """What the registry needs of a connection (app/runtime/connection.py: Connection)."""

    player_id: str | None

    def close(self, code: int = 1000, reason: str = "") -> None: ...


class SignedSockets:
    """Open sockets by device id, each with its player: closed together when the device is
    signed out."""

    def __init__(self) -> None:
        self._by_device: dict[str, set[Any]] = defaultdict(set)
        self._player_of: dict[str, str] = {}

    def add(self, device_id: str, player_id: str, conn: Closable) -> None:
        self._by_device[device_id].add(conn)
        self._player_of[device_id] = player_id

    def discard(self, device_id: str, conn: Closable) -> None:
        found = self._by_device.get(device_id)
        if found is None:
            return
        found.discard(conn)
        if not found:
            del self._by_device[device_id]
            self._player_of.pop(device_id, None)

    def count(self, device_id: str) -> int:
        return len(self._by_device.get(device_id, ()))

    def sign_out(self, player_id: str, device_id: str) -> int:
        """Close the sockets of ``player_id``'s device ``device_id`` (nobody else's: the
        player is checked); how many."""
        if self._player_of.get(device_id) != player_id:
            return 0
        return self._close(device_id)

    def sign_out_others(self, player_id: str, keep_device_id: str) -> int:
        """Close the sockets of every device of ``player_id`` but ``keep_device_id``."""
        doomed = [
            device
            for device, player in self._player_of.items()
            if player == player_id and device != keep_device_id
        ]
        return sum(self._close(device) for device in doomed)

    def _close(self, device_id: str) -> int:
        conns = self._by_device.pop(device_id, set())
        self._player_of.pop(device_id, None)
        for conn in conns:
            conn.close(SIGNED_OUT_CODE, SIGNED_OUT_REASON)
        return len(conns)


def signed_sockets(app: Any) -> SignedSockets:
    """The app's registry (made on first use)."""
    state = app.state
    found: SignedSockets | None = getattr(state, "signed_sockets", None)
    if found is None:
        found = SignedSockets()
        state.signed_sockets = found
    return found
