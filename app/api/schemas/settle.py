"""The answer of the settle-up route: each party's net over a span and the fewest payments
that settle them (docs/review.md, "Settling up")."""

from __future__ import annotations

from pydantic import Field

from app.api.schemas.base import Reply


class SettleTable(Reply):
    table_id: str
    name: str
    game: str


class Candidate(Reply):
    """Someone who played a hand in the span (at the table, or at any table one may see)."""

    id: str = Field(description="the player's id")
    name: str
    kind: str = Field(description='always "player"')
    bot: bool
    net: int = Field(description="won (+) or lost (−) over every hand of the span, in chips")
    hands: int
    chosen: bool = Field(description="in the group being settled")


class SettleParty(Reply):
    """A side of the settlement: a chosen player, or what the group won from or lost to
    someone outside it."""

    id: str = Field(description='the player\'s id, or "house", "pot", "others"')
    name: str
    kind: str = Field(description='"player", "house", "pot" or "others"')
    bot: bool
    net: int = Field(description="chips won (+) or lost (−) in the hands counted")
    hands: int = Field(description="the hands counted that this party took part in")
    money: str | None = Field(None, description="net × chip_value, when a chip value is given")


class SettlePayment(Reply):
    payer: str = Field(description="the id of the party who pays")
    payer_name: str
    payee: str = Field(description="the id of the party who is paid")
    payee_name: str
    amount: int = Field(description="whole chips, more than 0")
    money: str | None = Field(None, description="amount × chip_value, when a chip value is given")
    text: str = Field(description="the payment in words: Ben pays Ada 45 chips (2.25 €)")


class Settlement(Reply):
    """The nets of a span and the fewest payments that bring every one of them to zero."""

    since: str = Field(description="the span's start (ISO 8601, UTC)")
    until: str = Field(description="the span's end, not included (ISO 8601, UTC)")
    tz: str = Field(description="the time zone the span and the text are told in")
    table: SettleTable | None
    hands: int = Field(description="the finished hands counted (a chosen player took part)")
    candidates: list[Candidate]
    parties: list[SettleParty]
    payments: list[SettlePayment]
    chip_value: str | None
    currency: str | None
    text: str = Field(description="the whole settlement as plain text, to copy")
