"""The parts every game shares: actions and their templates, options, accounts and money, seating,
errors, the :class:`~app.games.core.game.Game` base, cards, card values and the registry."""
