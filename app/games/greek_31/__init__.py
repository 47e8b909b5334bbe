"""Greek 31 (docs/rules.md §2): a banking game against a dealer who draws in secret.

Its parts are those of every game (:mod:`app.games`)."""
