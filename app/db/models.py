"""The persistent schema: players, accounts and the ledger, tables and seats, hands, shoes.

Alembic owns the schema (``migrations/``); this module only describes it to SQLAlchemy.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.sql.expression import false

from app.core.names import name_key

JSONType = JSON().with_variant(JSONB(), "postgresql")
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


def _name_key_of_row(context: Any) -> str:
    """``players.name_key`` of a row inserted without one: its name's key."""
    return name_key(str(context.get_current_parameters()["name"]))


class Player(Base):
    """A person (or a bot) known to the server by a name; a person signs in with the token of
    one of their devices (:class:`DeviceToken`).

    ``name_key`` is the name's skeleton (app/core/names.py): two people may not have the same
    key. Not a unique index: players made before keys existed may share one (0004), and bots
    share theirs; the check is made where players are made (app/db/store/players.py: sign_up)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    name_key: Mapped[str] = mapped_column(String(200), index=True, default=_name_key_of_row)
    is_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    recovery_hash: Mapped[str | None] = mapped_column(String(64))
    language: Mapped[str | None] = mapped_column(String(16))
    """The language the player chose (app/i18n/locales.py), on every device they use; null:
    none chosen, each device's browser decides."""

    __table_args__ = (UniqueConstraint("recovery_hash", name="uq_players_recovery_hash"),)


class DeviceToken(Base):
    """One signed-in device of a player: its token's SHA-256 (never the token), the public
    ``id`` its player names it by, a label from its browser, and its times. It expires
    ``TOKEN_DAYS`` after its last use; signing it out deletes the row (app/db/devices.py).
    """

    __tablename__ = "device_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    id: Mapped[str] = mapped_column(String(32), unique=True, index=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    label: Mapped[str] = mapped_column(String(80), default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ServerSetting(Base):
    """A setting the host changes at run time (the starting bankroll), kept across restarts."""

    __tablename__ = "server_settings"

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[Any] = mapped_column(JSONType)


class Account(Base):
    """A place chips are: a bankroll, a table stack, a pot, bets in front, the house.

    ``id`` names it (``bankroll:P``, ``stack:T:P``, ``pot:T``, ``bets:T:P``, ``prison:T:P``,
    ``house``); ``balance`` is always the sum of the ledger entries into it minus those out.
    """

    __tablename__ = "accounts"
    __table_args__ = (CheckConstraint("balance >= 0", name="balance_not_negative"),)

    id: Mapped[str] = mapped_column(String(120), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    player_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"), index=True)
    table_id: Mapped[str | None] = mapped_column(String(32), index=True)
    balance: Mapped[int] = mapped_column(BigInteger, default=0)


class LedgerEntry(Base):
    """One movement of chips (double entry): from an account to an account.

    ``source`` is null for chips granted by the host from outside, ``target`` null for chips
    the host takes back out; every other entry moves chips between two accounts.
    """

    __tablename__ = "ledger_entries"
    __table_args__ = (
        CheckConstraint("amount > 0", name="amount_positive"),
        Index("ix_ledger_source", "source"),
        Index("ix_ledger_target", "target"),
        Index("ix_ledger_hand", "hand_id"),
        Index("ix_ledger_table_reason", "table_id", "reason", "id"),  # 0003: table ledgers
        Index("ix_ledger_reason_created", "reason", "created_at"),  # 0003: a night's ledger
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    source: Mapped[str | None] = mapped_column(String(120))
    target: Mapped[str | None] = mapped_column(String(120))
    amount: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(80))
    hand_id: Mapped[str | None] = mapped_column(String(32))
    table_id: Mapped[str | None] = mapped_column(String(32))


class GameTable(Base):
    """A table: its game, options in force, status and the engine's between-hands state."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    game: Mapped[str] = mapped_column(String(32), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSONType)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    state: Mapped[dict[str, Any] | None] = mapped_column(JSONType)
    hands_played: Mapped[int] = mapped_column(Integer, default=0)
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    invite_code: Mapped[str | None] = mapped_column(String(40))
    pause_reason: Mapped[str | None] = mapped_column(String(200))
    host_id: Mapped[str | None] = mapped_column(String(32))
    """The table's host, who runs it from the table (null: its opener, ``created_by``)."""
    room_id: Mapped[str | None] = mapped_column(String(32), index=True)
    """The room this table was played in (0009), or null: a table of its own."""


class Room(Base):
    """A room (0009): one link for an evening, game after game. Its host chooses the game
    and switches it between hands; ``current_table_id`` is the table it plays at now (the
    switch moves it, the seats and the stacks in one transaction: app/db/store/rooms.py).
    A private room is reached by its invite code, as a private table is."""

    __tablename__ = "rooms"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    host_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    created_by: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    private: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    invite_code: Mapped[str | None] = mapped_column(String(40))
    current_table_id: Mapped[str | None] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class Seat(Base):
    """A player sitting at a table; the stack is the ``stack:T:P`` account."""

    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    sat_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # a bot's level (app/analysis/bots.py), stored with its seat (0013); None for a person
    bot_level: Mapped[str | None] = mapped_column(String(16), nullable=True)


class Hand(Base):
    """One hand (docs/rules.md §0.9): its full record and summary columns to query by."""

    __tablename__ = "hands"
    __table_args__ = (
        Index("ix_hands_table_ended", "table_id", "ended_at", "id"),
        Index("ix_hands_game_ended", "game", "ended_at", "id"),
        Index("ix_hands_ended", "ended_at", "id"),  # 0003: every hand, newest first
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"))
    game: Mapped[str] = mapped_column(String(32))
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12), index=True)  # playing, finished, void
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    players: Mapped[int] = mapped_column(Integer, default=0)
    staked: Mapped[int] = mapped_column(BigInteger, default=0)
    record: Mapped[dict[str, Any] | None] = mapped_column(JSONType)


class HandPlayer(Base):
    """A player's part in a hand: seat and net result (for per-player lists and charts)."""

    __tablename__ = "hand_players"
    __table_args__ = (
        Index("ix_hand_players_player", "player_id", "ended_at", "hand_id"),
        # 0003: a player's hands of one game, and the figures per game from the index alone
        Index("ix_hand_players_player_game", "player_id", "game", "ended_at", "hand_id", "net"),
    )

    hand_id: Mapped[str] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    net: Mapped[int] = mapped_column(BigInteger, default=0)
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    game: Mapped[str] = mapped_column(String(32))


class StoredAnalysis(Base):
    """A finished hand's analysis (docs/analysis.md, docs/review.md "The analysis"): every
    decision's options with their figures, as :meth:`app.analysis.hand.HandAnalysis.to_json`
    gives it, computed off the table's loop after the hand was stored (or when first asked
    for). ``method`` is the method's version (:data:`app.analysis.hand.VERSION`): an analysis
    by an older one is computed again. It holds every decision, the private cards each used
    included: what a reader gets of it is filtered (:func:`app.analysis.hand.for_reader`)."""

    __tablename__ = "hand_analyses"

    hand_id: Mapped[str] = mapped_column(
        ForeignKey("hands.id", ondelete="CASCADE"), primary_key=True
    )
    method: Mapped[int] = mapped_column(Integer)
    analysis: Mapped[dict[str, Any]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Shoe(Base):
    """One shuffle: the commitment published before its first card, the seed kept private
    until the shuffle is retired, and the cards it took (docs/rules.md §0.3)."""

    __tablename__ = "shoes"

    commit: Mapped[str] = mapped_column(String(64), primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    seed: Mapped[str] = mapped_column(String(64))
    source: Mapped[list[str]] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    retired_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))


class HostAction(Base):
    """Every action the host takes (grants, pauses, removals...), for the record."""

    __tablename__ = "host_actions"

    id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    action: Mapped[str] = mapped_column(String(40))
    detail: Mapped[dict[str, Any]] = mapped_column(JSONType)
    note: Mapped[str | None] = mapped_column(Text)


class ChatMessage(Base):
    """One message of a table's chat, as the table sent it (app/runtime/chat.py): a table keeps
    its last 100. A removed message stays as a mark (``removed``, its text erased) so that its
    id is never given again; it is sent to nobody. ``id`` grows by one at each table."""

    __tablename__ = "chat_messages"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int | None] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(String(200))
    removed: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class ChatMute(Base):
    """A person muted at a table: their chat and reactions there are refused until unmuted.
    ``muted_by`` is the opener's player id, or null for the host."""

    __tablename__ = "chat_mutes"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    muted_by: Mapped[str | None] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PlayerBlock(Base):
    """A person one player blocks for themselves only (docs/protocol/identity.md §4.3): the
    server sends the blocker none of the blocked person's chat messages and reactions, at any
    table. Nobody else is affected, and the blocked person is not told."""

    __tablename__ = "player_blocks"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClusterNode(Base):
    """A node of a cluster (docs/scaling.md): where it answers (``address``, for the front),
    until when it is alive (``expires_at``, by the database's clock, pushed on by each of its
    heartbeats), whether it is handing its tables over (``draining``) and what it serves.
    A node's ``expires_at`` is also the expiry of every lease it owns."""

    __tablename__ = "cluster_nodes"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    address: Mapped[str] = mapped_column(String(120))
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    draining: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    tables: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    sockets: Mapped[int] = mapped_column(Integer, default=0, server_default="0")


class TableLease(Base):
    """Which node owns a table, and at which epoch. ``owner`` null: released (handed over) or
    never adopted, claimable at once. The epoch grows by one each time the table changes hands
    and never goes down; every write for the table is fenced with it (app/cluster/fence.py)."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    owner: Mapped[str | None] = mapped_column(String(32), index=True)
    epoch: Mapped[int] = mapped_column(BigInteger)


class HouseReservation(Base):
    """What a house-banked table has set aside of the house's balance (app/db/store/house_bank.py):
    the most it may put at risk. A payout from the house at the table uses it up; together the
    reservations never exceed the house's balance (PostgreSQL checks it at every commit)."""

    __tablename__ = "house_reservations"
    __table_args__ = (CheckConstraint("amount >= 0", name="reservation_not_negative"),)

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    amount: Mapped[int] = mapped_column(BigInteger)
