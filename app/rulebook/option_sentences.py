"""The sentences that tell a table's options, in the reader's language ("Bets 1 to 100 chips",
"30 seconds to act").

The games say which sentence tells their options, as a code and its values
(:class:`app.games.core.phrases.Said`: the engines import nothing of ``app``, so they word
nothing); this module holds each code's words, marked for the catalogs, one whole sentence each
(never put together from pieces): a sentence that counts something follows the count ``n`` in
the reader's plural form (``Plural``), and a second count inside it is itself a counted value
(``{bank}`` is "300 chips", worded in the reader's plural form too). :func:`worded` words a
sentence in a locale, its numbers in the locale's forms ("1,000", "1.000", "1 000").
tests/rulebook/test_option_words.py holds every code a game may say to having a sentence here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.i18n.catalogs import translations
from app.i18n.formats import number
from app.i18n.messages import N_, Plural, Text


def chips(n: int) -> Plural:
    """``1 chip``, ``1,000 chips``: a count of chips inside a sentence."""
    return Plural("{n} chip", "{n} chips", n=n)


Sentence = Callable[..., Text]
"""A code's words: its values by name in, the sentence (a :class:`Text`) out."""

SENTENCES: dict[str, Sentence] = {
    # the buy-in, for the games that derive it from their options (app/rulebook/option_words.py)
    "buy_in.range": lambda low, high: Plural(
        "Buy-in {low} to {n} chip", "Buy-in {low} to {n} chips", low=low, n=high
    ),
    "buy_in.one": lambda n: Plural("Buy-in {n} chip", "Buy-in {n} chips", n=n),
    "buy_in.from": lambda n: Plural("Buy-in from {n} chip", "Buy-in from {n} chips", n=n),
    # the options several games share (app/games/core/phrases.py: COMMON)
    "turn_seconds": lambda n: Plural("{n} second to act", "{n} seconds to act", n=n),
    "time_bank": lambda n: Plural(
        "A time bank of {n} second each", "A time bank of {n} seconds each", n=n
    ),
    "time_bank.none": lambda: Text(N_("No time bank")),
    "bet_seconds": lambda n: Plural("{n} second to bet", "{n} seconds to bet", n=n),
    "aces.at_most_one_low": lambda: Text(
        N_("Aces count 1 or 11; of several, at most one counts 1")
    ),
    "aces.at_least_one_high": lambda: Text(
        N_("Aces count 1 or 11; of several, at least one counts 11")
    ),
    "aces.alternating": lambda: Text(N_("Aces count 1 or 11; several count 1, 11, 1, 11… in turn")),
    "start.when_ready": lambda: Text(
        N_("The first hand waits until everyone seated is ready, or the opener deals")
    ),
    "start.auto": lambda: Text(N_("The first hand is dealt as soon as enough players sit")),
    "approval.on": lambda: Text(N_("The host lets each newcomer sit, or not")),
    "approval.off": lambda: Text(N_("Anyone with the link may sit")),
    # Trianta Ena
    "buy_in_and_bank": lambda buy_in, buy_ins, bank: Plural(
        "Buy-in {buy_in}; the first banker brings {n} buy-in ({bank})",
        "Buy-in {buy_in}; the first banker brings {n} buy-ins ({bank})",
        n=buy_ins,
        buy_in=chips(buy_in),
        bank=chips(bank),
    ),
    "bets.range": lambda low, high: Plural(
        "Bets {low} to {n} chip", "Bets {low} to {n} chips", low=low, n=high
    ),
    "bets.one": lambda n: Plural("Bets {n} chip", "Bets {n} chips", n=n),
    "bets.from": lambda n: Plural(
        "Bets from {n} chip, up to your whole stack",
        "Bets from {n} chips, up to your whole stack",
        n=n,
    ),
    "players_against_banker": lambda n: Plural(
        "Up to {n} player against the banker", "Up to {n} players against the banker", n=n
    ),
    "decks_in_shoe": lambda n: Plural("{n} deck in the shoe", "{n} decks in the shoe", n=n),
    "banker_stands_on": lambda n: Text(
        N_("The banker draws until the hand is worth {n} or more"), n=n
    ),
    "natural.face": lambda: Text(N_("A natural is an ace and two face cards")),
    "natural.ten": lambda: Text(N_("A natural is an ace and two ten-value cards")),
    # Greek 31
    "stakes.range": lambda low, high: Plural(
        "Stakes {low} to {n} chip", "Stakes {low} to {n} chips", low=low, n=high
    ),
    "stakes.one": lambda n: Plural("Stakes {n} chip", "Stakes {n} chips", n=n),
    "stakes.from": lambda n: Plural(
        "Stakes from {n} chip, up to your whole stack",
        "Stakes from {n} chips, up to your whole stack",
        n=n,
    ),
    "top_ups": lambda: Text(
        N_("Top-ups allowed: add chips between hands and play on as long as you like")
    ),
    "table_stakes": lambda: Text(
        N_(
            "Table stakes: no top-ups, you can only lose what is in front of you, "
            "and the table plays on until one player holds every chip"
        )
    ),
    "seats_with_dealer": lambda n: Plural(
        "Up to {n} seat, the dealer's included", "Up to {n} seats, the dealer's included", n=n
    ),
    "decks.auto": lambda: Text(N_("One deck, or two when more than 5 players are dealt in")),
    "decks.one": lambda: Text(N_("One deck")),
    "decks.two": lambda: Text(N_("Two decks")),
    "shuffle.once": lambda: Text(N_("The deck is shuffled before the first deal only")),
    "shuffle.new_dealer": lambda: Text(N_("Each new dealer shuffles before their first deal")),
    "heath.on": lambda: Text(
        N_("Martin Heath's version: aces alternate 1 and 11, a pair of twos beats 14")
    ),
    "heath.off": lambda: Text(N_("The classic rules (not Martin Heath's version)")),
    # Vingt-un
    "hand_stakes.range": lambda low, high: Plural(
        "Stakes {low} to {n} chip a hand, before doubling",
        "Stakes {low} to {n} chips a hand, before doubling",
        low=low,
        n=high,
    ),
    "hand_stakes.one": lambda n: Plural(
        "Stakes {n} chip a hand, before doubling", "Stakes {n} chips a hand, before doubling", n=n
    ),
    "natural_takes_deal.on": lambda: Text(N_("A player's natural takes the deal")),
    "natural_takes_deal.off": lambda: Text(N_("A player's natural does not move the deal")),
    "natural_paid_by_all.on": lambda: Text(
        N_("A natural is also paid one stake by every other player")
    ),
    "natural_paid_by_all.off": lambda: Text(N_("A natural is paid by the dealer only")),
    "splitting.none": lambda: Text(N_("No splitting")),
    "splitting": lambda n: Plural(
        "Pairs may be split, up to {n} hand", "Pairs may be split, up to {n} hands", n=n
    ),
    # Trente et Quarante
    "chance_stakes.range": lambda low, high: Plural(
        "Stakes {low} to {n} chip on a chance",
        "Stakes {low} to {n} chips on a chance",
        low=low,
        n=high,
    ),
    "chance_stakes.one": lambda n: Plural(
        "Stakes {n} chip on a chance", "Stakes {n} chips on a chance", n=n
    ),
    "seats_and_standing": lambda n: Plural(
        "{n} seat; anyone else may bet standing", "{n} seats; anyone else may bet standing", n=n
    ),
    "betting_window_seconds": lambda n: Plural(
        "{n} second to bet once the betting window runs",
        "{n} seconds to bet once the betting window runs",
        n=n,
    ),
    "insurance.on": lambda: Text(
        N_("Free stakes of 100 chips or more may be insured for 1% (a chip per 100)")
    ),
    "insurance.off": lambda: Text(N_("No insurance")),
    "prison_levels": lambda n: Plural(
        "After an un après a stake goes to prison at most {n} level deep, then it is shared",
        "After an un après a stake goes to prison at most {n} levels deep, then it is shared",
        n=n,
    ),
    "venice_rule.on": lambda: Text(
        N_("Venice rule: stakes in prison come back whole when the shoe ends")
    ),
    "venice_rule.off": lambda: Text(N_("Stakes in prison stay there when the shoe ends")),
    "apres_seconds": lambda n: Plural(
        "{n} second to choose share or prison after an un après",
        "{n} seconds to choose share or prison after an un après",
        n=n,
    ),
    # En og tredive
    "match_bets": lambda n, unit, total: Plural(
        "Each match: {n} bet of {unit} in front of each player ({total})",
        "Each match: {n} bets of {unit} in front of each player ({total})",
        n=n,
        unit=chips(unit),
        total=chips(total),
    ),
    "knock_min": lambda n: Text(N_("Knock with {n} or more"), n=n),
    "knock_penalty.lowest": lambda: Text(
        N_("After a knock the lowest hand pays a bet (a knocker among them pays two)")
    ),
    "knock_penalty.under_knock_min": lambda n: Text(
        N_("After a knock every hand below {n} pays a bet"), n=n
    ),
}
"""Every sentence by its code (app/games/<game>/options.py's ``WORDS`` say the codes)."""


def sentence(code: str, values: Mapping[str, int]) -> Text | None:
    """The sentence ``code`` with ``values`` (English until :func:`worded`); None for a code
    this module has no words for, or values that are not the sentence's."""
    words = SENTENCES.get(code)
    if words is None:
        return None
    try:
        return words(**values)
    except (TypeError, KeyError):
        return None


def worded(message: Text, locale: str) -> str:
    """``message`` in ``locale``: its translated msgid (the reader's plural form for a
    :class:`Plural`), its whole numbers in the locale's forms and a value that is itself a
    :class:`Text` worded in ``locale`` too; the English words when a translation misuses a
    value."""
    values = {name: _value(value, locale) for name, value in message.values.items()}
    catalog = translations(locale)
    english, chosen = message.msgid, catalog.gettext(message.msgid)
    if isinstance(message, Plural):
        count = message.values["n"]
        english = message.msgid if count == 1 else message.plural
        chosen = catalog.ngettext(message.msgid, message.plural, count)
    try:
        return chosen.format(**values)
    except (KeyError, IndexError, ValueError):
        return english.format(**values)


def _value(value: Any, locale: str) -> Any:
    if isinstance(value, Text):
        return worded(value, locale)
    if isinstance(value, int) and not isinstance(value, bool):
        return number(value, locale)
    return value
