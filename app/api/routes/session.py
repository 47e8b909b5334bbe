"""Identity (docs/protocol.md §3, §4.3): signing up, the caller, recovery codes, and the
caller's signed-in devices (each sign-in token is one; app/db/devices.py)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from pydantic import BaseModel, Field

from app.api.deps import (
    COOKIE,
    SIGN_IN_FIRST,
    OptionalPlayerDep,
    PlayerDep,
    ServicesDep,
    SessionDep,
    bearer,
    request_token,
    signed_in,
)
from app.api.errors import ApiRoute, errors
from app.api.locale import request_locale
from app.api.schemas import SessionIn
from app.api.schemas.identity import Devices, LanguageOut, PlayerOut, RecoveryCode, SignedOut
from app.api.signed_sockets import signed_sockets
from app.api.signup_limits import charge, signup_limits
from app.core.security import same_secret
from app.db import devices, ledger, store
from app.db.models import Player
from app.i18n.locales import NAMES
from app.i18n.messages import N_, Text, localize
from app.i18n.negotiate import LANG_COOKIE

router = APIRouter(
    prefix="/api",
    tags=["identity"],
    route_class=ApiRoute,
    responses=errors(401, 403, 404, 409, 422, 429),
)


async def player_json(session: Any, player: Player, token: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "player_id": player.id,
        "name": player.name,
        "bankroll": await ledger.balance(session, ledger.bankroll(player.id)),
    }
    if token is not None:
        out["token"] = token
    if player.language:
        out["language"] = player.language
    return out


MAX_COOKIE_DAYS = 400
"""Browsers keep a cookie 400 days at most, whatever it asks."""


def set_session_cookie(request: Request, response: Response, token: str) -> None:
    """This device's session: an httponly cookie holding the token, as long as the token
    lives unused (``TOKEN_DAYS``; set again by ``GET /api/me``, so it slides as the token
    does)."""
    days = min(request.app.state.services.settings.token_days, MAX_COOKIE_DAYS)
    response.set_cookie(
        COOKIE,
        token,
        httponly=True,
        samesite="lax",
        max_age=int(days * 24 * 3600),
        secure=request.url.scheme == "https",
    )


def set_language_cookie(request: Request, response: Response, language: str) -> None:
    """This browser's language (app/i18n/negotiate.py): readable by the page's scripts, as
    long as browsers keep a cookie. A player's choice is also stored with the player; the
    cookie makes it the language of a device where they are not signed in yet."""
    response.set_cookie(
        LANG_COOKIE,
        language,
        samesite="lax",
        max_age=MAX_COOKIE_DAYS * 24 * 3600,
        secure=request.url.scheme == "https",
    )


def clear_session_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(
        COOKIE, httponly=True, samesite="lax", secure=request.url.scheme == "https"
    )


BROWSERS = (
    ("Edg/", "Edge"),
    ("OPR/", "Opera"),
    ("Firefox/", "Firefox"),
    ("Chrome/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Safari/", "Safari"),
)
SYSTEMS = (
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Android", "Android"),
    ("Windows", "Windows"),
    ("Mac OS X", "Mac"),
    ("CrOS", "ChromeOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str) -> str:
    """A few words naming a device for its player's list ("Firefox on Windows"), from its
    User-Agent; a program's own first word otherwise ("python-httpx/0.28"). Plain letters,
    digits and ``. / _ -`` only: it is the client's text."""
    browser = next((name for mark, name in BROWSERS if mark in user_agent), None)
    system = next((name for mark, name in SYSTEMS if mark in user_agent), None)
    if browser:
        return f"{browser} on {system}" if system else browser
    first = user_agent.split(" ", 1)[0]
    return re.sub(r"[^A-Za-z0-9./_-]", "", first)[:40] or N_("a program")


def label_words(label: str) -> str:
    """A device's stored label (:func:`device_label`, English) as the message it reads as,
    for :func:`~app.i18n.messages.localize`: "Firefox on Windows" a :class:`Text` of the
    browser and the system (their own names); any other label as it is."""
    found = re.fullmatch(r"(\w+) on (\w+)", label)
    browsers = {name for _, name in BROWSERS}
    systems = {name for _, name in SYSTEMS}
    if found and found[1] in browsers and found[2] in systems:
        return Text(N_("{browser} on {system}"), browser=found[1], system=found[2])
    return label


def new_device(request: Request) -> dict[str, Any]:
    """The arguments the writer needs to make this request's device."""
    return {
        "label": device_label(request.headers.get("user-agent", "")),
        "token_days": request.app.state.services.settings.token_days,
    }


@router.post("/session", response_model=PlayerOut)
async def open_session(
    body: SessionIn,
    request: Request,
    response: Response,
    services: ServicesDep,
    session: SessionDep,
    existing: OptionalPlayerDep,
) -> dict[str, Any]:
    """Create a player (granting the starting bankroll), or return the cookie's player.
    Every attempt to create one (a wrong join code too) takes from the address's sign-up
    bucket (app/api/signup_limits.py); a returning player takes nothing."""
    settings = services.settings
    if existing is not None:
        token = request_token(request) or ""
        return await player_json(session, existing, token)
    charge(request, signup_limits(request).signups, Text(N_("new players")))
    if settings.join_code and not same_secret(body.join_code or "", settings.join_code):
        raise HTTPException(403, N_("this server needs its join code"))
    made = await services.writer.run(
        store.sign_up, body.name, bankroll=services.starting_bankroll, **new_device(request)
    )
    if made is None:
        raise HTTPException(409, N_("that name is taken: choose another"))
    player, token = made
    set_session_cookie(request, response, token)
    return await player_json(session, player, token)


class LanguageIn(BaseModel):
    language: str = Field(min_length=1, max_length=16, examples=["fr"])


@router.put("/me/language", response_model=LanguageOut)
async def choose_language(
    body: LanguageIn,
    request: Request,
    response: Response,
    services: ServicesDep,
    existing: OptionalPlayerDep,
) -> dict[str, Any]:
    """The reader's language (the language switch on every page): stored with the player,
    so every device they sign in on reads it, and set in this browser's cookie; a visitor
    who is not signed in keeps it in the cookie alone. A language the server does not speak
    is refused (422), naming the ones it does."""
    language = body.language.strip().lower()
    if language not in NAMES:
        raise HTTPException(
            422,
            Text(
                N_("unknown language {language!r}: choose one of {languages}"),
                language=body.language[:16],
                languages=", ".join(NAMES),
            ),
        )
    if existing is not None:
        await services.writer.run(store.set_language, existing.id, language)
    set_language_cookie(request, response, language)
    return {"language": language, "stored": existing is not None}


@router.get("/me", response_model=PlayerOut)
async def me(
    player: PlayerDep, request: Request, response: Response, session: SessionDep
) -> dict[str, Any]:
    """The caller. A browser's cookie is set again, so it lives as long as its token."""
    if bearer(request) is None and request.cookies.get(COOKIE):
        set_session_cookie(request, response, request.cookies[COOKIE])
        if player.language and request.cookies.get(LANG_COOKIE) != player.language:
            set_language_cookie(request, response, player.language)  # chosen on another device
    return await player_json(session, player)


class RecoverIn(BaseModel):
    code: str = Field(min_length=1, max_length=200)


@router.post("/me/recovery", response_model=RecoveryCode)
async def make_recovery_code(player: PlayerDep, services: ServicesDep) -> dict[str, Any]:
    """A personal recovery code and link: open the link on another device to be the same
    player there. Making a new one retires the old one."""
    player_id = player.id  # plain data for the writer's thread, not the request's ORM object
    code = await services.writer.run(store.new_recovery_code, player_id)
    return {"code": code, "link": f"/recover?code={code}"}


@router.post("/session/recover", response_model=PlayerOut)
async def recover(
    body: RecoverIn,
    request: Request,
    response: Response,
    services: ServicesDep,
    session: SessionDep,
) -> dict[str, Any]:
    """Redeem a recovery code on this device: sets this device's cookie. Each attempt takes
    from the address's recovery bucket, so codes cannot be guessed at speed."""
    charge(request, signup_limits(request).recoveries, Text(N_("recovery-code attempts")))
    found = await services.writer.run(store.redeem_recovery_code, body.code, **new_device(request))
    if found is None:
        raise HTTPException(
            404,
            N_("that recovery code is not valid (a code works once, and a new one replaces it)"),
        )
    player, token = found
    set_session_cookie(request, response, token)
    if player.language:  # the player's language, on this new device too
        set_language_cookie(request, response, player.language)
    return await player_json(session, player, token)


# --------------------------------------------------------------------------- devices


async def caller_device(request: Request, session: SessionDep) -> devices.SignedIn:
    found = await signed_in(request, session)
    if found is None:
        raise HTTPException(401, SIGN_IN_FIRST)
    return found


DeviceDep = Annotated[devices.SignedIn, Depends(caller_device)]


def when(moment: datetime) -> str:
    return moment.isoformat()


@router.get("/me/devices", response_model=Devices)
async def my_devices(request: Request, caller: DeviceDep, session: SessionDep) -> dict[str, Any]:
    """The caller's signed-in devices, the last used first; ``this_device`` marks the one
    asking; each label also in the reader's language (``label_words``)."""
    found = await devices.list_devices(session, caller.player.id)
    locale = request_locale(request)
    return {
        "devices": [
            {
                "device_id": d.device_id,
                "label": d.label,
                "label_words": localize(label_words(d.label), locale),
                "created_at": when(d.created_at),
                "last_used_at": when(d.last_used_at),
                "expires_at": when(d.expires_at),
                "this_device": d.device_id == caller.device_id,
            }
            for d in found
        ]
    }


@router.delete("/me/devices/{device_id}", response_model=SignedOut)
async def sign_out_device(
    device_id: str,
    caller: DeviceDep,
    request: Request,
    response: Response,
    services: ServicesDep,
) -> dict[str, Any]:
    """Sign one of the caller's devices out: its token is refused from now on (REST and new
    sockets) and its open table sockets are closed (4401, "signed out"). This device too, if
    named (its cookie is cleared)."""
    if len(device_id) > 40:
        raise HTTPException(404, N_("you have no such device signed in"))
    gone = await _revoke(request, caller.player.id, device_id)
    if not gone:
        raise HTTPException(404, N_("you have no such device signed in"))
    if device_id == caller.device_id:
        clear_session_cookie(request, response)
    return {"signed_out": 1}


@router.post("/me/signout-others", response_model=SignedOut)
async def sign_out_other_devices(
    caller: DeviceDep, request: Request, services: ServicesDep
) -> dict[str, Any]:
    """Sign every other device of the caller out, and retire the caller's unused recovery
    code; this device stays signed in. The other devices' open table sockets are closed
    (4401, "signed out"), before their tokens are deleted and again after."""
    player_id, keep = caller.player.id, caller.device_id
    sockets = signed_sockets(request.app)
    sockets.sign_out_others(player_id, keep)
    count = await services.writer.run(devices.revoke_other_devices, player_id, keep)
    sockets.sign_out_others(player_id, keep)
    return {"signed_out": count}


async def _revoke(request: Request, player_id: str, device_id: str) -> bool:
    """Sign one device of ``player_id`` out: its open table sockets are closed (4401, "signed
    out": app/api/signed_sockets.py) before its token is deleted, so that no frame acts on
    them once the token is gone, and again after, for a socket that opened in between.
    False when the player has no such device."""
    services: Any = request.app.state.services
    sockets = signed_sockets(request.app)
    sockets.sign_out(player_id, device_id)
    gone = bool(await services.writer.run(devices.revoke_device, player_id, device_id))
    sockets.sign_out(player_id, device_id)
    return gone


@router.post("/me/signout", response_model=SignedOut)
async def sign_out(
    request: Request, response: Response, services: ServicesDep, session: SessionDep
) -> dict[str, Any]:
    """Sign this device out: its token stops working, its open table sockets are closed and
    its cookie is cleared. Without a valid token there is nothing to sign out, and the answer
    says so (still 200, the cookie cleared): signing out twice is no error."""
    found = await signed_in(request, session)
    count = 0
    if found is not None:
        count = int(await _revoke(request, found.player.id, found.device_id))
    clear_session_cookie(request, response)
    return {"signed_out": count}
