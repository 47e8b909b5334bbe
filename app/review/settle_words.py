"""A settlement in words and as CSV, with the chips' money value when one is given.

What is apart from the payments (won from or lost to the house, to others at the tables,
through a pot: ``app/review/nets.py``) is told in words, never as a payment: "Ada won 120
chips from the house", "30 chips stayed in the pot at Friday", then "The payments settle the
rest among you" (docs/review.md, "Settling up").

Amounts are whole chips, always shown; with a chip value (``0.05``) and a currency (``€``,
``EUR``) each amount also shows its money: chips × value, to as many decimals as the value
has and at least two, the currency after the number (``45 chips (2.25 €)``). Pure.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal

from app.review.nets import HOUSE, NAMES, OTHERS, POT, Split
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


def _won(name: str, amount: int, what: str, value: ChipValue | None) -> str:
    """``Ada won 120 chips from the house``, ``Ben lost 40 chips to the house``."""
    verb, word = ("won", "from") if amount > 0 else ("lost", "to")
    return f"{_capital(name)} {verb} {chips(abs(amount))}{_money(abs(amount), value)} {word} {what}"


def _listed(amounts: dict[str, int], names: dict[str, str]) -> str:
    return ", ".join(f"{names[p]} {chips(a, signed=True)}" for p, a in sorted(amounts.items()))


def apart_lines(
    split: Split, names: dict[str, str], tables: dict[str, str], value: ChipValue | None
) -> list[str]:
    """What is apart from the payments, in words, each a sentence; then what the payments
    do. Empty when nothing is apart."""
    lines: list[str] = []
    members = sorted(split.members.values(), key=lambda m: (m.name.casefold(), m.id))
    for m in members:
        if m.house:
            lines.append(_won(m.name, m.house, NAMES[HOUSE], value) + ".")
    if split.house and len(members) > 1:
        lines.append(_won("the group as a whole", -split.house, NAMES[HOUSE], value) + ".")
    for m in members:
        if m.others:
            lines.append(
                _won(m.name, m.others, NAMES[OTHERS], value) + " (bots, people not settling)."
            )
    for table_id, pot in sorted(split.pots.items()):
        if not pot.group:
            continue
        where = f"the pot at {tables.get(table_id, table_id)}"
        parts = []
        if pot.change > 0:
            parts.append(f"{chips(pot.change)} stayed in {where}")
        elif pot.change < 0:
            parts.append(f"{where} paid out {chips(-pot.change)} it held before")
        if pot.others > 0:
            parts.append(f"others at the table took {chips(pot.others)} out of it")
        elif pot.others < 0:
            parts.append(f"others at the table put {chips(-pot.others)} into it")
        told = _capital("; ".join(parts)) + ". " if parts else ""
        if pot.group < 0:
            lines.append(
                f"{told}What the group lost into {where} ({chips(-pot.group)}) is paid to "
                f"nobody: its losers there bear it, in proportion ({_listed(pot.shares, names)})."
            )
        else:
            lines.append(
                f"{told}What the group took out of {where} ({chips(pot.group)}) is paid by "
                f"nobody: its winners there keep it, in proportion "
                f"({_listed(pot.shares, names)})."
            )
    if lines:
        lines.append("The payments settle the rest among you.")
    return lines


def as_text(
    title: str,
    nets: list[tuple[str, int]],
    payments: list[Payment],
    names: dict[str, str],
    value: ChipValue | None,
    apart: list[str] | None = None,
) -> str:
    """The settlement to paste in a chat: a title, the nets, what is apart, the payments."""
    lines = [title]
    if value is not None:
        lines.append(f"1 chip = {value.shown(1)}")
    lines += ["", "Nets:"]
    lines += [f"  {net_line(name, net, value)}" for name, net in nets] or ["  (no hands)"]
    if apart:
        lines += ["", "Apart from the payments:"]
        lines += [f"  {line}" for line in apart]
    lines += ["", "Payments:"]
    lines += [f"  {payment_line(p, names, value)}" for p in payments] or ["  Nobody owes anything."]
    return "\n".join(lines) + "\n"


def _cell(text: str) -> str:
    """A name as a spreadsheet shows it as text (never a formula: ``=`` ``+`` ``-`` ``@``)."""
    return f"'{text}" if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


CSV_COLUMNS = ("row", "name", "id", "to", "to_id", "chips", "money", "currency")


def apart_rows(split: Split, tables: dict[str, str]) -> list[tuple[str, str, str, str, int]]:
    """Each member's parts apart from the payments: ``(player id, with whom, its id,
    chips)`` as ``(id, to, to_id, kind, chips)``, chips won (+) or lost (−)."""
    rows: list[tuple[str, str, str, str, int]] = []
    for m in sorted(split.members.values(), key=lambda m: (m.name.casefold(), m.id)):
        if m.house:
            rows.append((m.id, NAMES[HOUSE], HOUSE, HOUSE, m.house))
        if m.others:
            rows.append((m.id, NAMES[OTHERS], OTHERS, OTHERS, m.others))
        for table_id, pot in sorted(split.pots.items()):
            if pot.shares.get(m.id):
                where = f"the pot at {tables.get(table_id, table_id)}"
                rows.append((m.id, where, f"pot:{table_id}", POT, pot.shares[m.id]))
    return rows


def as_csv(
    parties: list[tuple[str, str, int]],
    payments: list[Payment],
    names: dict[str, str],
    value: ChipValue | None,
    apart: list[tuple[str, str, str, str, int]] | None = None,
) -> str:
    """RFC 4180 with a header: a ``net`` row per party (``name``, ``id``, ``chips``), an
    ``apart`` row per part of a net that no payment settles (``name`` won (+) or lost (−)
    ``chips`` with ``to``: the house, others, a pot), then a ``payment`` row per payment
    (``name`` pays ``to`` ``chips``); ``money`` and ``currency`` filled in when a chip value
    is given. A party's net = its ``apart`` rows + what it is paid − what it pays."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    currency = value.currency if value is not None else ""
    for party_id, name, net in parties:
        money = value.of(net) if value is not None else ""
        writer.writerow(["net", _cell(name), party_id, "", "", net, money, currency])
    for party_id, whom, whom_id, _kind, amount in apart or []:
        money = value.of(amount) if value is not None else ""
        row = ["apart", _cell(names[party_id]), party_id, _cell(whom), whom_id, amount]
        writer.writerow([*row, money, currency])
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
