"""Players: made with their starting bankroll and first device, signed up under a name no
other person's looks like, found by a device's token, carried to another device by a
recovery code."""

from __future__ import annotations

import secrets
import uuid

from sqlalchemy import false, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.names import BOT_MARK, name_key
from app.db import devices, ledger
from app.db.devices import hash_token
from app.db.models import Player


def new_id() -> str:
    """A fresh id (a player's, a table's, a hand's): 32 hex digits."""
    return uuid.uuid4().hex


async def create_player(
    session: AsyncSession,
    name: str,
    *,
    bankroll: int,
    is_bot: bool = False,
    label: str = "",
    token_days: float = devices.DEFAULT_TOKEN_DAYS,
) -> tuple[Player, str]:
    """A new player with the starting bankroll granted by the host, and the secret token of
    its first device (app/db/devices.py; ``label`` names the device). A bot gets no
    token (``""``): nothing signs in as a bot. Whether the name is free is not asked here:
    people sign up with :func:`sign_up`; bots may share a name."""
    player = Player(id=new_id(), name=name, name_key=name_key(name), is_bot=is_bot)
    session.add(player)
    await session.flush()
    token = ""
    if not is_bot:
        token = await devices.new_device(session, player.id, label=label, days=token_days)
    await ledger.ensure_accounts(session, [ledger.bankroll(player.id)])
    if bankroll > 0:
        await ledger.transfer(
            session, None, ledger.bankroll(player.id), bankroll, "starting bankroll"
        )
    return player, token


async def create_bot(
    session: AsyncSession, names: list[str], *, bankroll: int
) -> tuple[Player, str]:
    """A new bot named by the first of ``names`` (each ending in ``(bot)``) that looks like no
    person's name once the ending is set aside (:func:`app.core.names.name_key`): a bot
    beside Ada is never "Ada (bot)" nor "Ada 2 (bot)". The check and the insert are one
    writer job, as :func:`sign_up`'s. ValueError if every name is taken."""
    keys: dict[str, set[str]] = {}
    for name in names:
        plain = name.removesuffix(BOT_MARK).strip()
        keys[name] = {name_key(plain), name_key(plain.rstrip("0123456789 "))}
    wanted = set().union(*keys.values())
    taken = set(
        await session.scalars(
            select(Player.name_key).where(Player.name_key.in_(wanted), Player.is_bot == false())
        )
    )
    for name in names:
        if not keys[name] & taken:
            player, _ = await create_player(session, name, bankroll=bankroll, is_bot=True)
            return player, name
    raise ValueError("no free name for a bot")


async def sign_up(
    session: AsyncSession,
    name: str,
    *,
    bankroll: int,
    label: str = "",
    token_days: float = devices.DEFAULT_TOKEN_DAYS,
) -> tuple[Player, str] | None:
    """A new person, as :func:`create_player`, or None when a person already has a name
    that looks the same (its :func:`app.core.names.name_key`; bots do not count).

    The check and the insert are one job of the database writer, and the writer runs its
    jobs one at a time, in order, in this process's only writing transaction: no other
    sign-up can slip between them. That is why no unique index is needed (nor possible:
    players made before keys existed may share one)."""
    key = name_key(name)
    taken = await session.scalar(
        select(Player.id).where(Player.name_key == key, Player.is_bot == false()).limit(1)
    )
    if taken is not None:
        return None
    return await create_player(session, name, bankroll=bankroll, label=label, token_days=token_days)


async def player_by_token(session: AsyncSession, token: str) -> Player | None:
    """The player a token belongs to, if the token is known and has not expired (a revoked
    token is gone): the REST API's and the table socket's one check
    (app/db/devices.py)."""
    found = await devices.device_by_token(session, token)
    return None if found is None else found.player


async def new_recovery_code(session: AsyncSession, player_id: str) -> str:
    """A fresh personal recovery code (the previous one stops working)."""
    code = secrets.token_urlsafe(18)
    await session.execute(
        update(Player).where(Player.id == player_id).values(recovery_hash=hash_token(code))
    )
    return code


async def redeem_recovery_code(
    session: AsyncSession,
    code: str,
    *,
    label: str = "",
    token_days: float = devices.DEFAULT_TOKEN_DAYS,
) -> tuple[Player, str] | None:
    """Carry an identity to another device: a new device token for the code's player. The
    code works once: redeeming it retires it (the player can make another), so a code seen
    over a shoulder or left in a browser's history cannot be used again later."""
    if not code or len(code) > 200:
        return None
    player = await session.scalar(select(Player).where(Player.recovery_hash == hash_token(code)))
    if player is None:
        return None
    player.recovery_hash = None
    token = await devices.new_device(session, player.id, label=label, days=token_days)
    return player, token
