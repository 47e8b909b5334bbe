"""Answers of the identity routes: the caller, recovery codes, devices."""

from __future__ import annotations

from pydantic import Field

from app.api.schemas.base import Reply


class PlayerOut(Reply):
    """A player as they see themselves."""

    player_id: str
    name: str
    bankroll: int = Field(description="chips in the bankroll, off the tables")
    token: str | None = Field(
        default=None,
        description="the sign-in token (Authorization: Bearer), only when one is issued",
    )
    language: str | None = Field(
        default=None,
        description="the language the player chose (PUT /api/me/language), only once chosen",
    )


class LanguageOut(Reply):
    """The language a reader chose."""

    language: str = Field(examples=["fr"], description="en, el, da, fr or it")
    stored: bool = Field(
        description="remembered for the player on every device (false: a visitor who is not "
        "signed in, remembered by this browser's cookie alone)"
    )


class RecoveryCode(Reply):
    """A one-time code that signs this player in on another device."""

    code: str
    link: str = Field(description="the page that takes the code: /recover?code=...")


class Device(Reply):
    """One signed-in device (one token)."""

    device_id: str
    label: str = Field(description='a few words from its User-Agent ("Firefox on Windows")')
    label_words: str = Field(description="the label in the reader's language")
    created_at: str
    last_used_at: str
    expires_at: str
    this_device: bool = Field(description="the device asking")


class Devices(Reply):
    devices: list[Device] = Field(description="the last used first")


class SignedOut(Reply):
    signed_out: int = Field(description="how many devices were signed out")
