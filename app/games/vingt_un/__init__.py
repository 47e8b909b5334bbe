"""Vingt-un (docs/rules.md §3): a dealer banks against one to eight players.

Its parts are those of every game (:mod:`app.games`)."""
