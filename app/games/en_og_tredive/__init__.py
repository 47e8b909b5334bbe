"""En og tredive (docs/rules.md §5): a draw-and-discard 31 without a bank, played as a match.

Its parts are those of every game (:mod:`app.games`)."""
