"""Each table option's name and help for people, and its choices' words, in the reader's
language: the lobby's "open a table" form (through ``GET /api/games``) and the host's panel at
the table (the page's ``option_labels``) show them, never an option's key.

The games name their options by keys (``min_bet``) and describe them for the API in English
(the ``description`` of ``GET /api/games``, with the rule book's sections); the words players
read are here, marked for the catalogs: the options several games share once (:data:`COMMON`),
and a game's own where its words differ (:data:`GAMES`: Greek 31's ``min_bet`` is a stake,
Trianta Ena's a bet). tests/rulebook/test_option_names.py holds every option of every game, and
every value of a choice, to having words here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.i18n.messages import N_, localize


@dataclass(frozen=True)
class Named:
    """An option's words: ``label`` (its name, short), ``help`` (a sentence or two on what it
    does, ending in a full stop) and, for a choice, each value's words."""

    label: str
    help: str
    choices: Mapping[Any, str] = field(default_factory=dict)


ACE_CHOICES = {
    "at_most_one_low": N_("At most one ace counts low"),
    "at_least_one_high": N_("At least one ace counts high"),
    "alternating": N_("Aces alternate high and low"),
}

COMMON: dict[str, Named] = {
    "start": Named(
        N_("First hand"),
        N_(
            "When the first hand is dealt: when everyone seated is ready (or the opener "
            "deals), or as soon as enough players sit down."
        ),
        {
            "when_ready": N_("When everyone is ready"),
            "auto": N_("As soon as enough players sit"),
        },
    ),
    "approval": Named(
        N_("Seats by approval"),
        N_(
            "A newcomer asks to sit and waits for the table's host to let them in, or not "
            "(on by default at a private table)."
        ),
    ),
    "turn_seconds": Named(N_("Seconds to act"), N_("The time each player has for a decision.")),
    "time_bank_seconds": Named(
        N_("Time bank (seconds)"),
        N_(
            "Extra seconds each player may add to their decisions over the table's life, by "
            "pressing More time (0: no time bank)."
        ),
    ),
    "bet_seconds": Named(
        N_("Seconds to bet"), N_("The time the players have to bet, all at once.")
    ),
    "ace_rule": Named(N_("Aces"), N_("How several aces in one hand count."), ACE_CHOICES),
    "decks": Named(N_("Decks in the shoe"), N_("52-card decks shuffled together in the shoe.")),
}
"""The options several games share, named alike unless :data:`GAMES` names them."""

GAMES: dict[str, dict[str, Named]] = {
    "trianta-ena": {
        "max_players": Named(
            N_("Players"),
            N_("Players facing the banker; the table has one more seat, for the bank."),
        ),
        "min_bet": Named(
            N_("Smallest bet"), N_("The least a player may bet; not above the buy-in.")
        ),
        "max_bet": Named(N_("Largest bet"), N_("The most a player may bet.")),
        "buy_in": Named(N_("Buy-in"), N_("The chips each player brings to the table.")),
        "banker_multiple": Named(
            N_("Banker's buy-ins"), N_("The first banker brings this many buy-ins.")
        ),
        "dealer_stands_on": Named(
            N_("Banker stands on"), N_("The banker draws until the hand is worth this or more.")
        ),
        "natural_cards": Named(
            N_("Naturals"),
            N_("What makes a natural with an ace."),
            {
                "face": N_("An ace and two face cards"),
                "ten": N_("An ace and two ten-value cards"),
            },
        ),
    },
    "greek-31": {
        "decks": Named(
            N_("Decks"),
            N_("52-card decks: one, or two when more than 5 players are dealt in."),
            {
                "auto": N_("Automatic (two with more than 5 players)"),
                1: N_("One deck"),
                2: N_("Two decks"),
            },
        ),
        "min_bet": Named(N_("Smallest stake"), N_("The least a player may stake on a hand.")),
        "max_bet": Named(N_("Largest stake"), N_("The most a player may stake on a hand.")),
        "ace_rule": Named(
            N_("Aces"),
            N_("How several aces in one hand count (Martin Heath's version makes them alternate)."),
            ACE_CHOICES,
        ),
        "stakes": Named(
            N_("Top-ups"),
            N_(
                "Buy in: players may add chips between hands. Table stakes: no adding chips; "
                "play on until one player has everything."
            ),
            {
                "buy_in": N_("Buy in (add chips between hands)"),
                "table_stakes": N_("Table stakes (play to one winner)"),
            },
        ),
        "shuffle": Named(
            N_("Shuffle"),
            N_("When the deck is shuffled."),
            {
                "once": N_("Once, before the first deal"),
                "new_dealer": N_("Each new dealer shuffles"),
            },
        ),
        "heath": Named(
            N_("Martin Heath's version"),
            N_("Aces alternate 1 and 11, and a pair of twos beats 14."),
        ),
        "max_players": Named(N_("Seats"), N_("Seats at the table, the dealer's included.")),
    },
    "vingt-un": {
        "min_bet": Named(N_("Smallest stake"), N_("The least a player may stake on a hand.")),
        "max_bet": Named(
            N_("Largest stake"), N_("The most a player may stake on a hand, before doubling.")
        ),
        "natural_takes_deal": Named(
            N_("A natural takes the deal"),
            N_("A player's natural passes the deal to the dealer's left."),
        ),
        "natural_paid_by_all": Named(
            N_("Everyone pays a natural"),
            N_("A natural's holder also receives one stake from each other player."),
        ),
        "max_split_hands": Named(
            N_("Hands by splitting"),
            N_("The most hands one player may make by splitting pairs (1: no splitting)."),
        ),
    },
    "trente-et-quarante": {
        "seats": Named(N_("Seats"), N_("Seats at the table; anyone else may bet standing.")),
        "min_stake": Named(N_("Smallest stake"), N_("The least one may stake on a chance.")),
        "max_stake": Named(N_("Largest stake"), N_("The most one may stake on a chance.")),
        "bet_seconds": Named(
            N_("Seconds to bet"), N_("The time everyone has to bet once the betting window runs.")
        ),
        "insurance": Named(
            N_("Insurance"),
            N_("Free stakes of 100 chips or more may be insured for 1%, a chip per whole 100."),
        ),
        "venice_rule": Named(
            N_("Venice rule"), N_("Stakes in prison come back whole when a shoe ends.")
        ),
        "max_apres": Named(
            N_("Prison levels"),
            N_("How deep a stake may go into prison after an un après before it is shared."),
        ),
        "turn_seconds": Named(
            N_("Seconds to choose"),
            N_("The time to choose share or prison after an un après."),
        ),
    },
    "en-og-tredive": {
        "bet_unit": Named(N_("Chips per bet"), N_("How many chips make one bet.")),
        "bets": Named(
            N_("Bets per player"),
            N_("Bets each player puts in front of them at the start of a match."),
        ),
        "knock_min": Named(N_("Knock with at least"), N_("The least a hand must hold to knock.")),
        "knock_penalty": Named(
            N_("Who pays after a knock"),
            N_(
                "The lowest hands (a knocker among them pays two), or every hand below the least "
                "a hand must hold to knock."
            ),
            {
                "lowest": N_("The lowest hands"),
                "under_knock_min": N_("Every hand below the knock minimum"),
            },
        ),
    },
}
"""Each game's own words for its options (and for a shared option it names otherwise)."""


def named(game: str, name: str) -> Named | None:
    """The words of ``game``'s option ``name``: the game's own, else the shared ones; None
    for an option without words."""
    return GAMES.get(game, {}).get(name) or COMMON.get(name)


def _same(a: Any, b: Any) -> bool:
    """Two choices alike, ``1`` never taken for ``True``."""
    return type(a) is type(b) and a == b


def choice_words(game: str, name: str, value: Any, locale: str) -> str | None:
    """A choice's value in words in ``locale`` (None when it has none)."""
    words = named(game, name)
    if words is None:
        return None
    found = next((text for key, text in words.choices.items() if _same(key, value)), None)
    return str(localize(found, locale)) if found else None


def option_label(game: str, name: str, locale: str) -> str | None:
    """The option's name in ``locale`` (None for an option without words)."""
    words = named(game, name)
    return str(localize(words.label, locale)) if words else None


def option_help(game: str, name: str, locale: str) -> str | None:
    """The option's help in ``locale`` (None for an option without words)."""
    words = named(game, name)
    return str(localize(words.help, locale)) if words else None
