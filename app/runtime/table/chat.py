"""Chat: the table's messages, reactions, and their moderation (docs/protocol/socket.md §5.9).

Chat changes nothing of the game, so it never waits for the table's lock: each call here runs
whole in one turn of the loop (no ``await``), so a connecting client's history and a new
message can never cross. A message carries only its writer's text; the name, seat and time
come from the server (app/runtime/chat.py says what a text may hold).

Who may write: a signed-in person connected to the table (seated or watching), not muted
there, within the chat's own budget (``CHAT_MESSAGES_PER_SECOND``, ``CHAT_BURST``, per person
at a table, beside the socket's). Who may moderate: the table's opener over the socket, the
opener or the host over REST (app/api/routes/chat.py). Messages and mutes go to the database
through the writer queue, as every write of the table.
"""

from __future__ import annotations

from typing import Any

from app.db import store
from app.runtime.chat import CHAT_KEEP, REACTIONS, ChatRefused, Muted, clean_text
from app.runtime.connection import Connection, RateLimiter
from app.runtime.protocol import (
    Chat,
    ErrorCode,
    Mute,
    ProtocolError,
    React,
    RemoveChat,
    encode,
)
from app.runtime.table.state import TableState

HOST = None
"""Who moderates when the host does (``muted_by`` is stored as null)."""


class ChatRoom(TableState):
    """The table's chat: messages, reactions, mutes and removals."""

    def _chat_message(self, conn: Connection, message: Chat | React | Mute | RemoveChat) -> None:
        """One chat message from a socket; a refusal is a :class:`ProtocolError`."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, "this table is closed")
        if isinstance(message, Mute):
            self._moderator(conn.player_id)
            self.set_muted(message.player_id, muted=message.muted, by=conn.player_id, answer=conn)
        elif isinstance(message, RemoveChat):
            self._moderator(conn.player_id)
            self.remove_chat(message.id)
        elif isinstance(message, Chat):
            self._post(conn, message.text)
        else:
            self._react(conn, message.reaction)

    # ------------------------------------------------------------------ writing

    def _writer_of(self, conn: Connection, what: str) -> tuple[str, str]:
        if conn.player_id is None:
            raise ProtocolError(ErrorCode.UNAUTHORIZED, f"sign in before you {what}")
        if conn.player_id in self.chat.muted:
            raise ProtocolError(
                ErrorCode.MUTED, "you are muted at this table: your messages are not sent"
            )
        return conn.player_id, conn.name or "?"

    def _spend(self, player_id: str) -> None:
        """Take one of the person's chat tokens (shared by their sockets), or refuse."""
        bucket = self._chat_budget.get(player_id)
        if bucket is None:
            settings = self.settings
            bucket = RateLimiter(settings.chat_messages_per_second, settings.chat_burst)
            self._chat_budget[player_id] = bucket
        if not bucket.allow():
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                f"slow down: at most {self.settings.chat_burst} chat messages at once, then "
                f"{self.settings.chat_messages_per_second:g} a second",
            )

    def _post(self, conn: Connection, raw: str) -> None:
        player_id, name = self._writer_of(conn, "chat")
        try:
            text = clean_text(raw)
        except ChatRefused as refused:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, str(refused)) from None
        self._spend(player_id)
        message = self.chat.post(self.clock(), player_id, name, self.seat_of(player_id), text)
        self.writer.submit(store.chat_posted, self.table_id, message, CHAT_KEEP)
        self._tell_all(encode({"type": "chat", "message": message}))

    def _react(self, conn: Connection, reaction: str) -> None:
        player_id, name = self._writer_of(conn, "react")
        if reaction not in REACTIONS:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, f"the reactions are {', '.join(REACTIONS)}")
        self._spend(player_id)
        self._tell_all(
            encode(
                {
                    "type": "reaction",
                    "reaction": reaction,
                    "player_id": player_id,
                    "name": name,
                    "seat": self.seat_of(player_id),
                    "at": self.clock(),
                }
            )
        )

    # ------------------------------------------------------------------ moderating

    def may_moderate(self, player_id: str | None) -> bool:
        """The table's opener moderates its chat (the host too, over REST)."""
        return player_id is not None and player_id == self.created_by

    def _moderator(self, player_id: str | None) -> None:
        if not self.may_moderate(player_id):
            raise ProtocolError(
                ErrorCode.NOT_ALLOWED,
                "only the player who opened this table (or the host) may mute or remove",
            )

    def _known_name(self, player_id: str) -> str | None:
        """The name of a person this table knows: seated, connected, or in its chat."""
        for info in self.roster.values():
            if info.player_id == player_id:
                return info.name
        for conn in self.connections:
            if conn.player_id == player_id and conn.name:
                return conn.name
        return self.chat.name_of(player_id)

    def set_muted(
        self,
        player_id: str,
        *,
        muted: bool,
        by: str | None,
        answer: Connection | None = None,
    ) -> list[dict[str, str]]:
        """Mute or unmute a person at this table (``by``: the opener's id, or :data:`HOST`);
        everyone is told the new list. Muting someone muted, or unmuting someone who is not,
        changes nothing (``answer``, if given, still gets the list)."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, "this table is closed")
        if muted and player_id == by:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, "you cannot mute yourself")
        if muted == (player_id in self.chat.muted):
            if answer is not None:
                answer.send(self._mutes_text())
            return self.chat.muted_list()
        if muted:
            name = self._known_name(player_id)
            if name is None:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, "nobody with that player_id is at this table"
                )
            self.chat.muted[player_id] = Muted(player_id, name)
            self.writer.submit(store.chat_muted, self.table_id, player_id, name, by)
        else:
            del self.chat.muted[player_id]
            self.writer.submit(store.chat_unmuted, self.table_id, player_id)
        self._tell_all(self._mutes_text())
        return self.chat.muted_list()

    def remove_chat(self, message_id: int) -> None:
        """Remove a message: everyone is told, and no client receives it again."""
        if self.closed:
            raise ProtocolError(ErrorCode.TABLE_CLOSED, "this table is closed")
        if not self.chat.remove(message_id):
            raise ProtocolError(
                ErrorCode.NO_SUCH_MESSAGE, f"this table holds no chat message {message_id}"
            )
        self.writer.submit(store.chat_removed, self.table_id, message_id)
        self._tell_all(encode({"type": "chat_removed", "id": message_id}))

    # ------------------------------------------------------------------ telling

    def chat_history(self, player_id: str | None) -> dict[str, Any]:
        """What a connecting client gets after its first state: the kept messages (oldest
        first), who is muted, the reactions, and whether this person may moderate."""
        return {
            "type": "chat_history",
            "messages": self.chat.shown(),
            "muted": self.chat.muted_list(),
            "reactions": REACTIONS,
            "can_moderate": self.may_moderate(player_id),
        }

    def _send_chat_history(self, conn: Connection) -> None:
        conn.send(encode(self.chat_history(conn.player_id)))

    def _mutes_text(self) -> str:
        return encode({"type": "mutes", "muted": self.chat.muted_list()})

    def _tell_all(self, text: str) -> None:
        for conn in self.connections:
            conn.send(text)
