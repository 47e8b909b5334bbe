"""House sync: a house-banked game offers at a table only what the house can put at risk
there now (app/runtime/house.py), and publishes new limits when the house moved elsewhere.
"""

from __future__ import annotations

import asyncio

from app.games.core.house import HouseBanked
from app.ops.logs import set_context
from app.runtime.table.state import TableState

HOUSE_REFRESH_SECONDS = 0.05
"""How soon a house-banked table republishes its limits after the house moved elsewhere."""


class HouseSync(TableState):
    """Keeps a house-banked engine's ``house_available`` current."""

    def _sync_house(self) -> None:
        """Tell a house-banked game what the house can put at risk at this table now."""
        if self.house is not None and isinstance(self.engine, HouseBanked):
            self.engine.house_available = self.house.available_for(self.table_id)

    def _house_moved(self) -> None:
        """The house's balance or another table's exposure changed: publish this table's new
        limits soon (at most every ``HOUSE_REFRESH_SECONDS``, however busy the others are)."""
        if self._house_refresh is None and not self.closed:
            self._house_refresh = asyncio.get_running_loop().call_later(
                HOUSE_REFRESH_SECONDS, self._spawn_house_refresh
            )

    def _spawn_house_refresh(self) -> None:
        self._spawn(self._refresh_from_house())

    async def _refresh_from_house(self) -> None:
        async with self.lock:
            self._house_refresh = None
            if self.closed or self.house is None or not isinstance(self.engine, HouseBanked):
                return
            offered = self.engine.house_available
            if offered == self.house.available_for(self.table_id):
                return  # nothing this table offers has changed
            set_context(self.table_id, self.hand_id)
            self._changed()
