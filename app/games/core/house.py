"""A game banked by the house (docs/rules.md §0.6): the house is not a seat but a bankroll held
outside the table, which covers the stakes of every table of the game.

A house-banked engine says so by being a :class:`HouseBanked`. The runtime then tells it, before
every decision, how many chips the house can put at risk at this table (:attr:`house_available`),
and reads back the most the stakes down now could cost the house (:meth:`house_exposure`). A bare
engine (a test, a replay) plays against a house of :data:`UNLIMITED_HOUSE` chips.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import ClassVar

from app.games.core.game import Game

UNLIMITED_HOUSE = 10**15
"""The house's cover until the runtime says what the house holds (a bare engine, a test)."""


class HouseBanked(Game):
    """The base of a game whose bank is the house."""

    USES_HOUSE: ClassVar[bool] = True
    house_available: int = UNLIMITED_HOUSE
    """The chips the house can put at risk for this table now (set by the runtime)."""

    @abstractmethod
    def house_exposure(self) -> int:
        """The most the house could have to pay on the stakes down now."""
