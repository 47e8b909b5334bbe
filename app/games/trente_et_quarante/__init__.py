"""Trente et Quarante (docs/rules.md §4): bettors against the house on two rows of cards.

Its parts are those of every game (:mod:`app.games`)."""
