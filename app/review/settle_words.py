"""A settlement in words and as CSV, with the chips' money value when one is given.

Amounts are whole chips, always shown; with a chip value (``0.05``) and a currency (``€``,
``EUR``) each amount also shows its money: chips × value, to as many decimals as the value
has and at least two, the currency after the number (``45 chips (2.25 €)``). Pure.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal

from app.review.settle import Payment


@dataclass(frozen=True)
class ChipValue:
    """What one chip is worth: ``value`` in ``currency`` (a symbol or a code, or empty)."""

    value: Decimal
    currency: str = ""

    def of(self, chips: int) -> str:
        """The money of ``chips``: ``2.25`` (no currency)."""
        places = max(2, -int(self.value.as_tuple().exponent))
        return f"{(self.value * chips).quantize(Decimal(1).scaleb(-places)):f}"

    def shown(self, chips: int) -> str:
        """``2.25 €``."""
        return f"{self.of(chips)} {self.currency}".strip()


def chips(amount: int, *, signed: bool = False) -> str:
    """``45 chips``, ``1 chip``; ``+45 chips`` / ``−45 chips`` when ``signed``."""
    sign = ("+" if amount > 0 else "−" if amount < 0 else "") if signed else ""
    count = abs(amount) if signed else amount
    return f"{sign}{count} chip{'' if count == 1 else 's'}"


def _money(amount: int, value: ChipValue | None, *, signed: bool = False) -> str:
    if value is None:
        return ""
    shown = value.shown(abs(amount) if signed else amount)
    sign = ("+" if amount > 0 else "−" if amount < 0 else "") if signed else ""
    return f" ({sign}{shown})"


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


PLURAL = frozenset({"others"})
"""Parties named in the plural (``others at these tables``): they *pay*."""


def payment_line(payment: Payment, names: dict[str, str], value: ChipValue | None) -> str:
    """``Ben pays Ada 45 chips (2.25 €)``; ``Others at these tables pay Ada 5 chips``."""
    verb = "pay" if payment.payer in PLURAL else "pays"
    return (
        f"{_capital(names[payment.payer])} {verb} {names[payment.payee]} "
        f"{chips(payment.amount)}{_money(payment.amount, value)}"
    )


def net_line(name: str, net: int, value: ChipValue | None) -> str:
    """``Ada: +45 chips (+2.25 €)``."""
    return f"{_capital(name)}: {chips(net, signed=True)}{_money(net, value, signed=True)}"


def as_text(
    title: str,
    nets: list[tuple[str, int]],
    payments: list[Payment],
    names: dict[str, str],
    value: ChipValue | None,
) -> str:
    """The settlement to paste in a chat: a title, the nets, the payments."""
    lines = [title]
    if value is not None:
        lines.append(f"1 chip = {value.shown(1)}")
    lines += ["", "Nets:"]
    lines += [f"  {net_line(name, net, value)}" for name, net in nets] or ["  (no hands)"]
    lines += ["", "Payments:"]
    lines += [f"  {payment_line(p, names, value)}" for p in payments] or ["  Nobody owes anything."]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """A name as a spreadsheet shows it as text (never a formula: ``=`` ``+`` ``-`` ``@``)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


CSV_COLUMNS = ("row", "name", "id", "to", "to_id", "chips", "money", "currency")


def as_csv(
    parties: list[tuple[str, str, int]],
    payments: list[Payment],
    names: dict[str, str],
    value: ChipValue | None,
) -> str:
    """RFC 4180 with a header: a ``net`` row per party (``name``, ``id``, ``chips``), then a
    ``payment`` row per payment (``name`` pays ``to`` ``chips``); ``money`` and ``currency``
    filled in when a chip value is given."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    currency = value.currency if value is not None else ""
    for party_id, name, net in parties:
        money = value.of(net) if value is not None else ""
        writer.writerow(["net", _cell(name), party_id, "", "", net, money, currency])
    for p in payments:
        money = value.of(p.amount) if value is not None else ""
        writer.writerow(
            [
                "payment",
                _cell(names[p.payer]),
                p.payer,
                _cell(names[p.payee]),
                p.payee,
                p.amount,
                money,
                currency,
            ]
        )
    return buffer.getvalue()
