"""The rule book in the app: each game's section of docs/rules.md as a page, and a table's
options told in words."""
