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
    net: int = Field(
        description="won (+) or lost (−) over the span, in chips: every ledger movement "
        "between the player's accounts and anyone else's (docs/review.md, One truth)"
    )
    hands: int
    chosen: bool = Field(description="in the group being settled")


class SettleParty(Reply):
    """A player settling: their net, what of it is apart from the payments (with the house,
    with others at the tables, through a pot), and what the payments settle."""

    id: str = Field(description="the player's id")
    name: str
    kind: str = Field(description='always "player"')
    bot: bool
    net: int = Field(description="chips won (+) or lost (−) over the span (the ledger's)")
    hands: int = Field(description="the finished hands of the span this player took part in")
    money: str | None = Field(None, description="net × chip_value, when a chip value is given")
    house: int = Field(description="won (+) from or lost (−) to the house: apart")
    others: int = Field(description="won from or lost to others at these tables: apart")
    pot: int = Field(description="this player's share of what a pot kept or gave: apart")
    settle: int = Field(description="net − house − others − pot: what the payments settle")


class SettleApart(Reply):
    """A part of a player's net that no payment settles."""

    player: str = Field(description="the player's id")
    with_: str = Field(alias="with", description='"the house", "the pot at Friday", …')
    with_id: str = Field(description='"house", "others", or "pot:<table id>"')
    kind: str = Field(description='"house", "others" or "pot"')
    chips: int = Field(description="won (+) or lost (−)")


class SettlePayment(Reply):
    payer: str = Field(description="the id of the party who pays")
    payer_name: str
    payee: str = Field(description="the id of the party who is paid")
    payee_name: str
    amount: int = Field(description="whole chips, more than 0")
    money: str | None = Field(None, description="amount × chip_value, when a chip value is given")
    text: str = Field(description="the payment in words: Ben pays Ada 45 chips (2.25 €)")


class SettleRoom(Reply):
    room_id: str
    name: str


class Settlement(Reply):
    """The nets of a span and the fewest payments that bring every one of them to zero."""

    since: str = Field(description="the span's start (ISO 8601, UTC)")
    until: str = Field(description="the span's end, not included (ISO 8601, UTC)")
    tz: str = Field(description="the time zone the span and the text are told in")
    table: SettleTable | None
    room: SettleRoom | None = Field(
        default=None, description="a room's evening (?room=): every table of the room"
    )
    hands: int = Field(description="the finished hands counted (a player settling took part)")
    candidates: list[Candidate]
    parties: list[SettleParty]
    apart: list[SettleApart]
    apart_text: list[str] = Field(
        description="what is apart from the payments, in words, then what the payments do"
    )
    payments: list[SettlePayment]
    chip_value: str | None
    currency: str | None
    text: str = Field(description="the whole settlement as plain text, to copy")
