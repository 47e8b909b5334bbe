"""The review side of the card room: what players look back on after the games.

* :mod:`.access`: who may read a hand, a table's ledger, a player's exports;
* :mod:`.lists`: hand lists per table and per player, newest first, paged by cursor;
* :mod:`.steps`: a hand re-played step by step as one viewer was entitled to see it;
* :mod:`.export`: a hand as JSON (``schema_version``), a player's hands as JSON lines;
* :mod:`.fairness`: the proof of a fair shuffle (commitment, deal order, cards dealt);
* :mod:`.sessions`: sittings at tables from the ledger, and the ledger CSVs;
* :mod:`.stats` and :mod:`.chart`: the player page's figures and its SVG chart;
* :mod:`.replay`: the re-play itself, a stored hand's engine run again from its record;
* :mod:`.history`: the record's per-viewer filter (also the live table's story's);
* :mod:`.results`: a hand's result, what each player won or lost and why (also told live).
* :mod:`.nets`, :mod:`.settle` and :mod:`.settle_words`: settling up, each player's net over
  a span, the fewest payments that settle it, and both in words and as CSV.
"""
