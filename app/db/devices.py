"""Sign-in tokens, one per device: made at sign-up or by a recovery code, looked up by their
hash, kept alive by use, revoked by their player (docs/protocol.md §3).

Every token a player holds is a ``device_tokens`` row: the token's SHA-256 (the token itself
is never stored), a public id to name the device by, a label from its browser, when it was
made and last used, and when it expires: ``TOKEN_DAYS`` after its last use. A lookup refuses
an expired or deleted token at once; revoking a device deletes its row. Use is recorded at
most once an hour per token (:data:`TOUCH_EVERY`), by a job of the database writer, so a
busy player costs one small UPDATE an hour, not one per request.

The write functions here are writer jobs (plain data in, the session first); the lookups
run on a request's session.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.db.models import DeviceToken, Player, utcnow

DEFAULT_TOKEN_DAYS = 180.0
"""``TOKEN_DAYS``'s default (app/core/config.py)."""
TOUCH_EVERY = timedelta(hours=1)
"""A token's last use is written again once it is older than this."""
MAX_TOKEN_LENGTH = 200
"""Longer strings are not tokens (ours are 43 characters): refused without hashing."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def aware(moment: datetime) -> datetime:
    """A stored time as UTC: SQLite gives them back without their zone."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


@dataclass(frozen=True)
class SignedIn:
    """A token's player and device, as a lookup found them."""

    player: Player
    device_id: str
    last_used_at: datetime

    @property
    def due_for_touch(self) -> bool:
        return utcnow() - aware(self.last_used_at) >= TOUCH_EVERY


@dataclass(frozen=True)
class Device:
    """One of a player's signed-in devices, as their page lists it."""

    device_id: str
    label: str
    created_at: datetime
    last_used_at: datetime
    expires_at: datetime


async def new_device(
    session: AsyncSession, player_id: str, *, label: str = "", days: float = DEFAULT_TOKEN_DAYS
) -> str:
    """A fresh token for ``player_id`` on a new device; the player's expired devices are
    swept away at the same time."""
    now = utcnow()
    await session.execute(
        delete(DeviceToken).where(DeviceToken.player_id == player_id, DeviceToken.expires_at <= now)
    )
    token = secrets.token_urlsafe(32)
    session.add(
        DeviceToken(
            token_hash=hash_token(token),
            id=uuid.uuid4().hex,
            player_id=player_id,
            label=label[:80],
            created_at=now,
            last_used_at=now,
            expires_at=now + timedelta(days=days),
        )
    )
    return token


async def device_by_token(session: AsyncSession, token: str) -> SignedIn | None:
    """The player and device of a token that is known and has not expired, else None."""
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    row = (
        await session.execute(
            select(Player, DeviceToken.id, DeviceToken.last_used_at)
            .join(DeviceToken, DeviceToken.player_id == Player.id)
            .where(DeviceToken.token_hash == hash_token(token), DeviceToken.expires_at > utcnow())
        )
    ).first()
    return None if row is None else SignedIn(row[0], row[1], row[2])


async def touch_device(session: AsyncSession, device_id: str, days: float) -> None:
    """The device was used now: its token lives ``days`` more."""
    now = utcnow()
    await session.execute(
        update(DeviceToken)
        .where(DeviceToken.id == device_id)
        .values(last_used_at=now, expires_at=now + timedelta(days=days))
    )


async def list_devices(session: AsyncSession, player_id: str) -> list[Device]:
    """The player's devices that are still signed in, the last used first."""
    rows = await session.execute(
        select(
            DeviceToken.id,
            DeviceToken.label,
            DeviceToken.created_at,
            DeviceToken.last_used_at,
            DeviceToken.expires_at,
        )
        .where(DeviceToken.player_id == player_id, DeviceToken.expires_at > utcnow())
        .order_by(DeviceToken.last_used_at.desc(), DeviceToken.created_at.desc())
    )
    return [Device(r[0], r[1], aware(r[2]), aware(r[3]), aware(r[4])) for r in rows.all()]


async def revoke_device(session: AsyncSession, player_id: str, device_id: str) -> bool:
    """Sign one of the player's devices out: its token stops working at once. False when the
    player has no such device."""
    result = await session.execute(
        delete(DeviceToken).where(DeviceToken.player_id == player_id, DeviceToken.id == device_id)
    )
    return bool(getattr(result, "rowcount", 0))


async def revoke_other_devices(session: AsyncSession, player_id: str, keep_device_id: str) -> int:
    """Sign every device of the player out but ``keep_device_id``, and retire the player's
    unused recovery code (another way in); how many devices were signed out."""
    result = await session.execute(
        delete(DeviceToken).where(
            DeviceToken.player_id == player_id, DeviceToken.id != keep_device_id
        )
    )
    await session.execute(update(Player).where(Player.id == player_id).values(recovery_hash=None))
    return int(getattr(result, "rowcount", 0))
