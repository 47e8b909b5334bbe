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

from babel import numbers

from app.i18n.formats import number
from app.i18n.locales import DEFAULT, formatting_locale
from app.i18n.messages import N_, Plural, Text, localize
from app.review.nets import HOUSE, NAMES, OTHERS, POT, Split
from app.review.settle import Payment


@dataclass(frozen=True)
class ChipValue:
    """What one chip is worth: ``value`` in ``currency`` (a symbol or a code, or empty)."""

    value: Decimal
    currency: str = ""

    @property
    def places(self) -> int:
        """The money's decimals: as many as the value has, at least two."""
        return max(2, -int(self.value.as_tuple().exponent))

    def money(self, chips: int) -> Decimal:
        return (self.value * chips).quantize(Decimal(1).scaleb(-self.places))

    def of(self, chips: int) -> str:
        """The money of ``chips``: ``2.25`` (no currency; the API's and the CSV's figure)."""
        return f"{self.money(chips):f}"

    def shown(self, chips: int, locale: str = DEFAULT) -> str:
        """``2.25 €`` (``2,25 €`` in French: the reader's decimal sign, no grouping)."""
        pattern = "0." + "0" * self.places
        amount = numbers.format_decimal(
            self.money(chips), format=pattern, locale=formatting_locale(locale)
        )
        return f"{amount} {self.currency}".strip()


def _sign(amount: int) -> str:
    return "+" if amount > 0 else "−" if amount < 0 else ""


def chips(amount: int, *, signed: bool = False, locale: str = DEFAULT) -> str:
    """``45 chips``, ``1 chip``; ``+45 chips`` / ``−45 chips`` when ``signed``; the number
    as the reader's language writes it."""
    count = abs(amount) if signed else amount
    shown = (_sign(amount) if signed else "") + number(count, locale)
    return localize(Plural("{count} chip", "{count} chips", n=count, count=shown), locale)


def _amount(amount: int, value: ChipValue | None, locale: str, *, signed: bool = False) -> str:
    """``45 chips (2.25 €)``: chips, and their money when a chip value is given."""
    told = chips(amount, signed=signed, locale=locale)
    if value is None:
        return told
    money = (_sign(amount) if signed else "") + value.shown(abs(amount), locale)
    return localize(Text(N_("{chips} ({money})"), chips=told, money=money), locale)


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


PLURAL = frozenset({"others"})
"""Parties named in the plural (``others at these tables``): they *pay*."""


def _name(party: str, names: dict[str, str], locale: str) -> str:
    """A party's name: a player's as it is, the others' (:data:`NAMES`) in the reader's
    language."""
    name = names[party]
    return localize(name, locale) if party in NAMES and name == NAMES[party] else name


def payment_line(
    payment: Payment, names: dict[str, str], value: ChipValue | None, locale: str = DEFAULT
) -> str:
    """``Ben pays Ada 45 chips (2.25 €)``; ``Others at these tables pay Ada 5 chips``."""
    words = (
        N_("{payer} pay {payee} {amount}")
        if payment.payer in PLURAL
        else N_("{payer} pays {payee} {amount}")
    )
    return _capital(
        localize(
            Text(
                words,
                payer=_name(payment.payer, names, locale),
                payee=_name(payment.payee, names, locale),
                amount=_amount(payment.amount, value, locale),
            ),
            locale,
        )
    )


def net_line(name: str, net: int, value: ChipValue | None, locale: str = DEFAULT) -> str:
    """``Ada: +45 chips (+2.25 €)``."""
    amount = _amount(net, value, locale, signed=True)
    return localize(Text(N_("{name}: {amount}"), name=_capital(name), amount=amount), locale)


WON = {
    HOUSE: (N_("{name} won {amount} from the house."), N_("{name} lost {amount} to the house.")),
    OTHERS: (
        N_("{name} won {amount} from others at these tables (bots, people not settling)."),
        N_("{name} lost {amount} to others at these tables (bots, people not settling)."),
    ),
}
"""What a member won from or lost to the house, or others (bots, people not settling)."""
GROUP_WON = (
    N_("The group as a whole won {amount} from the house."),
    N_("The group as a whole lost {amount} to the house."),
)


def _won(name: str | None, amount: int, what: str, value: ChipValue | None, locale: str) -> str:
    """``Ada won 120 chips from the house.``, ``Ben lost 40 chips to the house.`` (no name:
    the group as a whole)."""
    won, lost = WON[what] if name is not None else GROUP_WON
    told = _amount(abs(amount), value, locale)
    return _capital(
        localize(Text(won if amount > 0 else lost, name=name or "", amount=told), locale)
    )


def _listed(amounts: dict[str, int], names: dict[str, str], locale: str) -> str:
    return ", ".join(
        f"{names[p]} {chips(a, signed=True, locale=locale)}" for p, a in sorted(amounts.items())
    )


def _pot_lines(pot_change: int, pot_others: int, table: str, locale: str) -> list[str]:
    """What happened to a pot beside the group: what stayed in it or it paid out of what it
    held before, what others at its table took out or put in."""
    parts: list[str] = []
    if pot_change > 0:
        amount = chips(pot_change, locale=locale)
        parts.append(Text(N_("{amount} stayed in the pot at {table}"), amount=amount, table=table))
    elif pot_change < 0:
        amount = chips(-pot_change, locale=locale)
        parts.append(
            Text(
                N_("the pot at {table} paid out {amount} it held before"),
                amount=amount,
                table=table,
            )
        )
    if pot_others > 0:
        amount = chips(pot_others, locale=locale)
        parts.append(Text(N_("others at the table took {amount} out of it"), amount=amount))
    elif pot_others < 0:
        amount = chips(-pot_others, locale=locale)
        parts.append(Text(N_("others at the table put {amount} into it"), amount=amount))
    return [localize(part, locale) for part in parts]


def apart_lines(
    split: Split,
    names: dict[str, str],
    tables: dict[str, str],
    value: ChipValue | None,
    locale: str = DEFAULT,
) -> list[str]:
    """What is apart from the payments, in words, each a sentence; then what the payments
    do. Empty when nothing is apart. In the reader's language (``locale``)."""
    lines: list[str] = []
    members = sorted(split.members.values(), key=lambda m: (m.name.casefold(), m.id))
    for m in members:
        if m.house:
            lines.append(_won(m.name, m.house, HOUSE, value, locale))
    if split.house and len(members) > 1:
        lines.append(_won(None, -split.house, HOUSE, value, locale))
    for m in members:
        if m.others:
            lines.append(_won(m.name, m.others, OTHERS, value, locale))
    for table_id, pot in sorted(split.pots.items()):
        if not pot.group:
            continue
        table = tables.get(table_id, table_id)
        parts = _pot_lines(pot.change, pot.others, table, locale)
        told = _capital("; ".join(parts)) + ". " if parts else ""
        listed = _listed(pot.shares, names, locale)
        if pot.group < 0:
            bear = Text(
                N_(
                    "What the group lost into the pot at {table} ({amount}) is paid to nobody: "
                    "its losers there bear it, in proportion ({shares})."
                ),
                table=table,
                amount=chips(-pot.group, locale=locale),
                shares=listed,
            )
        else:
            bear = Text(
                N_(
                    "What the group took out of the pot at {table} ({amount}) is paid by "
                    "nobody: its winners there keep it, in proportion ({shares})."
                ),
                table=table,
                amount=chips(pot.group, locale=locale),
                shares=listed,
            )
        lines.append(told + localize(bear, locale))
    if lines:
        lines.append(localize(N_("The payments settle the rest among you."), locale))
    return lines


def as_text(
    title: str,
    nets: list[tuple[str, int]],
    payments: list[Payment],
    names: dict[str, str],
    value: ChipValue | None,
    apart: list[str] | None = None,
    locale: str = DEFAULT,
) -> str:
    """The settlement to paste in a chat: a title, the nets, what is apart, the payments;
    in the reader's language (``locale``)."""

    def words(text: str) -> str:
        return localize(text, locale)

    lines = [title]
    if value is not None:
        lines.append(words(Text(N_("1 chip = {money}"), money=value.shown(1, locale))))
    sections = [
        (
            words(N_("Nets:")),
            [net_line(name, net, value, locale) for name, net in nets] or [words(N_("(no hands)"))],
        )
    ]
    if apart:
        sections.append((words(N_("Apart from the payments:")), apart))
    sections.append(
        (
            words(N_("Payments:")),
            [payment_line(p, names, value, locale) for p in payments]
            or [words(N_("Nobody owes anything."))],
        )
    )
    for heading, items in sections:
        lines += ["", heading, *(f"  {item}" for item in items)]
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
