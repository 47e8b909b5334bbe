"""One coup of Trente et Quarante: the two rows, the winning chances and the calls
(docs/rules.md §4).

Cards count ace 1, T/J/Q/K 10, the others their pips. Cards are turned into the first row
(*Noir*) until its total passes 30, then into the second row (*Rouge*) the same way; the lower
total wins. *Couleur* wins when the first card of the first row has the colour of the winning
row, otherwise *Inverse*. Equal totals are *après*, and equal totals of 31 *un après*.

The deal is a tight loop over the stock's list (the simulation deals tens of thousands of coups
a second); everything else here is small and pure.
"""

from __future__ import annotations

from typing import NamedTuple

from app.games.core.cards import RANKS, SUITS, is_red
from app.games.core.values import pips

ROUGE, NOIR, COULEUR, INVERSE = "rouge", "noir", "couleur", "inverse"
CHANCES = (ROUGE, NOIR, COULEUR, INVERSE)
"""The four chances of the tableau (docs/rules.md §4.4)."""
OPPOSITE = {ROUGE: NOIR, NOIR: ROUGE, COULEUR: INVERSE, INVERSE: COULEUR}
"""The other side of each chance's pair: a bettor never stakes on both sides of one pair."""

POINTS: dict[str, int] = {r + s: pips(r + s) for r in RANKS for s in SUITS}
"""Each card's points: ace 1, T/J/Q/K 10, others their pips (docs/rules.md §4)."""

APRES, UN_APRES = "apres", "un_apres"

# The dealer announces a row's total by its last digit; 40 is announced "Quarante".
_TOTAL_FR = dict(
    zip(
        range(31, 41),
        ["Un", "Deux", "Trois", "Quatre", "Cinq", "Six", "Sept", "Huit", "Neuf", "Quarante"],
        strict=True,
    )
)
_TOTAL_EN = dict(
    zip(
        range(31, 41),
        ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Forty"],
        strict=True,
    )
)
_TOTALS_CALLS = {
    (noir, rouge): (
        f"{_TOTAL_FR[noir]}… {_TOTAL_FR[rouge]}",
        f"{_TOTAL_EN[noir]}… {_TOTAL_EN[rouge]}",
    )
    for noir in _TOTAL_FR
    for rouge in _TOTAL_FR
}
"""The call of the two totals, by the totals ("Sept… Deux")."""
_RESULT_CALLS = {
    (ROUGE, COULEUR): ("Rouge gagne et couleur", "Red and colour win"),
    (ROUGE, INVERSE): ("Rouge gagne, la couleur perd", "Red and inverse win"),
    (NOIR, COULEUR): ("Rouge perd, la couleur gagne", "Black and colour win"),
    (NOIR, INVERSE): ("Rouge perd et couleur", "Black and inverse win"),
}


class Coup(NamedTuple):
    """The two rows of a coup as dealt (first row Noir, second row Rouge), and their result.

    ``tie`` is ``"un_apres"`` for 31-31, ``"apres"`` for other equal totals, else None
    (§4 step 4); ``winner`` is the lower row's chance, ``"rouge"`` or ``"noir"``; ``colour`` is
    ``"couleur"`` when the first card has the winning row's colour, else ``"inverse"`` (both None
    on equal totals). Build it with :meth:`of`. A named tuple, immutable like a frozen dataclass
    but built in a fraction of the time (one is built for every coup).
    """

    noir_cards: list[str]
    rouge_cards: list[str]
    noir: int
    rouge: int
    tie: str | None
    winner: str | None
    colour: str | None

    @classmethod
    def of(cls, noir_cards: list[str], rouge_cards: list[str], noir: int, rouge: int) -> Coup:
        """The coup of these rows and totals, with its result worked out (§4 step 2)."""
        if noir == rouge:
            tie = UN_APRES if noir == 31 else APRES
            return cls(noir_cards, rouge_cards, noir, rouge, tie, None, None)
        winner = ROUGE if rouge < noir else NOIR
        colour = COULEUR if is_red(noir_cards[0]) == (winner == ROUGE) else INVERSE
        return cls(noir_cards, rouge_cards, noir, rouge, None, winner, colour)

    @property
    def winning_chances(self) -> frozenset[str]:
        """The two chances this coup pays (empty on equal totals)."""
        if self.winner is None or self.colour is None:
            return frozenset()
        return frozenset((self.winner, self.colour))

    def calls(self) -> list[dict[str, str]]:
        """The dealer's announcements in French with the English beside them (§4 step 6).

        >>> Coup.of(["TH", "9S", "8D", "QC"], ["TS", "TD", "KC", "2H"], 37, 32).calls()[0]
        {'fr': 'Sept… Deux', 'en': 'Seven… Two'}
        """
        fr, en = _TOTALS_CALLS[self.noir, self.rouge]
        totals = {"fr": fr, "en": en}
        tie = self.tie
        if tie == UN_APRES:
            result = {"fr": "Un après", "en": "A tie on 31 (un après)"}
        elif tie == APRES:
            result = {"fr": "Après", "en": "A tie (après): no stake moves"}
        else:
            assert self.winner is not None and self.colour is not None
            fr, en = _RESULT_CALLS[(self.winner, self.colour)]
            result = {"fr": fr, "en": en}
        return [totals, result]

    def result(self) -> dict[str, int | str | None]:
        """The totals and the result, as the score card and the hand's summary keep them."""
        return {
            "noir": self.noir,
            "rouge": self.rouge,
            "winner": self.winner,
            "colour": self.colour,
            "tie": self.tie,
        }

    def to_json(self) -> dict[str, object]:
        return {
            "noir": {"cards": list(self.noir_cards), "total": self.noir},
            "rouge": {"cards": list(self.rouge_cards), "total": self.rouge},
        }


def deal_coup(cards: list[str]) -> tuple[Coup | None, int]:
    """Turn the two rows from the top of ``cards`` (index 0 first) without changing the list.

    Returns the coup and how many cards it took, or ``(None, len(cards))`` when the cards run
    out before the second row passes 30 (the coup is then void, docs/rules.md §4.1).
    """
    points = POINTS
    count = len(cards)
    i = 0
    noir = 0
    while noir <= 30:
        if i == count:
            return None, count
        noir += points[cards[i]]
        i += 1
    split = i
    rouge = 0
    while rouge <= 30:
        if i == count:
            return None, count
        rouge += points[cards[i]]
        i += 1
    return Coup.of(cards[:split], cards[split:i], noir, rouge), i


def partial_rows(cards: list[str]) -> tuple[list[str], list[str]]:
    """The rows as far as ``cards`` go: how a void coup was turned before the cards ran out."""
    total = 0
    for i, card in enumerate(cards):
        total += POINTS[card]
        if total > 30:
            return cards[: i + 1], cards[i + 1 :]
    return list(cards), []
