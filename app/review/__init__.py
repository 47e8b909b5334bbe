"""The review side of the card room (issue 7): what players look back on after the games.

* :mod:`.access`: who may read a hand, a table's ledger, a player's exports;
* :mod:`.lists`: hand lists per table and per player, newest first, paged by cursor;
* :mod:`.steps`: a hand re-played step by step as one viewer was entitled to see it;
* :mod:`.export`: a hand as JSON (``schema_version``), a player's hands as JSON lines;
* :mod:`.fairness`: the proof of a fair shuffle (commitment, deal order, cards dealt);
* :mod:`.sessions`: sittings at tables from the ledger, and the ledger CSVs;
* :mod:`.stats` and :mod:`.chart`: the player page's figures and its SVG chart.

The re-play itself is :mod:`app.replay`; the record's per-viewer filter is :mod:`app.history`.
"""
