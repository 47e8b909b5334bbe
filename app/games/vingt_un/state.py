"""The state of a Vingt-un hand on the table (docs/rules.md §3): each hand's cards, face up or down,
its stake and how far it got. The table keeps the seats' hands and the dealer's
(:mod:`app.games.vingt_un.table`); the view shows them (:mod:`app.games.vingt_un.view`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.games.vingt_un.scoring import is_ace_and_ten, points


@dataclass
class Hand:
    """One hand on the table: its cards (face up or down), its stake and how far it got.

    ``stake`` is the stake in force, already doubled when the dealer called double.
    ``result`` is what the holder won (positive) or lost (negative) once it is settled.
    """

    cards: list[str]
    up: list[bool] = field(default_factory=list)
    stake: int = 0
    from_split: bool = False
    natural: bool = False
    stood: bool = False
    over: bool = False
    settled: bool = False
    gathered: bool = False
    result: int | None = None

    def add(self, card: str, *, up: bool) -> None:
        self.cards.append(card)
        self.up.append(up)

    def show(self) -> None:
        """Turn every card face up (a natural declared, a standing hand at settlement)."""
        self.up = [True] * len(self.cards)

    @property
    def total(self) -> int:
        return points(self.cards)

    @property
    def is_natural(self) -> bool:
        """An ace and a ten-value card as a dealt hand's first two cards (docs/rules.md §3)."""
        return not self.from_split and is_ace_and_ten(self.cards)

    @property
    def live(self) -> bool:
        """Still to be played: neither standing, over 21 nor settled."""
        return not (self.stood or self.over or self.settled)
