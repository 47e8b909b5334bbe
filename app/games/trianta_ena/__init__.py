"""Trianta Ena (docs/rules.md §1): players against a rotating banker, closest to 31.

Its parts are those of every game (:mod:`app.games`)."""
