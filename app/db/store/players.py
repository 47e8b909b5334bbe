"""Players: made with their starting bankroll and first device, signed up under a name no
other person's looks like, found by a device's token, carried to another device by a
recovery code; and the pool of bots, each a player of its own funded from the bots' bank."""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Collection

from sqlalchemy import false, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.names import BOT_MARK, name_key
from app.db import devices, ledger
from app.db.devices import hash_token
from app.db.models import Account, Player, Seat
from app.db.store.host import bots_home


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


async def create_bot(session: AsyncSession, name: str) -> Player:
    """A new bot player of the pool named ``name`` (ending in ``(bot)``), with an empty
    bankroll: no chips are granted to a bot; its buy-ins come from the bots' bank
    (:func:`take_bot`)."""
    player, _ = await create_player(session, name, bankroll=0, is_bot=True)
    return player


async def take_bot(
    session: AsyncSession,
    names: list[str],
    buy_in: int,
    *,
    busy: Collection[str] = (),
    bank_float: int = 0,
) -> tuple[str, str] | int:
    """A bot of the pool for a table, its buy-in moved from the bots' bank to its bankroll
    (the table's buy-in then takes it to the stack, as a person's): returns the bot's
    ``(player_id, name)``, or the bank's balance when it cannot cover ``buy_in``.

    The bot is the first of ``names`` (the names the table may have, in order) that looks
    like no person's name once ``(bot)`` is set aside (:func:`app.core.names.name_key`: a
    bot beside Ada is never "Ada (bot)" nor "Ada 2 (bot)") whose bot sits at no table now and
    is not among ``busy`` (bots being seated elsewhere); a name no bot has yet makes its bot,
    once. First the chips of the bots that have left go home to the bank, which is opened
    (with ``bank_float``) if it was not (:func:`app.db.store.host.bots_home`). One writer
    job, as :func:`sign_up`'s check and insert. ValueError when every bot those names allow
    sits at a table."""
    await bots_home(session, bank_float, busy=busy)
    bank = await ledger.balance(session, ledger.BOTS)
    if bank < buy_in:
        return bank
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
    allowed = [name for name in names if not keys[name] & taken]
    pool: dict[str, list[str]] = {}
    for player_id, name in await session.execute(
        select(Player.id, Player.name)
        .where(Player.is_bot == true(), Player.name.in_(allowed))
        .order_by(Player.created_at, Player.id)
    ):
        pool.setdefault(name, []).append(player_id)
    seated = set(
        await session.scalars(
            select(Seat.player_id).where(
                Seat.player_id.in_([p for ps in pool.values() for p in ps])
            )
        )
    )
    # a bot at no table with chips in its bankroll after the chips went home is on its way
    # to a seat another node is writing (its buy-in came from the bank): not free
    on_the_way = set(
        await session.scalars(
            select(Account.player_id).where(
                Account.id.in_([ledger.bankroll(p) for ps in pool.values() for p in ps]),
                Account.balance > 0,
            )
        )
    )
    for name in allowed:
        if name not in pool:
            player_id = (await create_bot(session, name)).id
            break
        free = [p for p in pool[name] if p not in seated | on_the_way and p not in busy]
        if free:
            player_id = free[0]
            break
    else:
        raise ValueError(
            f"all {len(allowed)} bots this table may seat are playing at other tables now: "
            "stand one up, or close a table of bots"
        )
    await ledger.transfer(
        session, ledger.BOTS, ledger.bankroll(player_id), buy_in, "a bot's buy-in from the bank"
    )
    return player_id, name


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


async def set_language(session: AsyncSession, player_id: str, language: str | None) -> None:
    """Remember the language ``player_id`` chose (a code of app/i18n/locales.py, checked by
    the caller), on every device they use; None forgets it."""
    await session.execute(update(Player).where(Player.id == player_id).values(language=language))


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
