"""The games: pure state machines, one package each, over the shared parts in :mod:`.core`.

This is the pattern a new game follows; ``tests/games/test_layout.py`` and
``tests/games/test_contract.py`` check every game of the registry against it.

**What a game implements.** Its engine class is a :class:`~app.games.core.game.Game` (itself a
:class:`~app.games.core.seats.Seats`). Abstract, so every game writes them:

* ``max_seats`` (a property: seats numbered ``0 .. max_seats - 1``);
* ``can_start``, ``deal`` (the game's own start of a hand; ``start_hand`` calls it);
* ``legal_actions`` (exact), ``play`` (the handler for an action ``apply`` has checked),
  ``to_act``, ``timer``, ``default_action``;
* ``view`` (the single place hidden cards are filtered);
* ``snapshot`` and ``restore`` (the between-hands state).

Class attributes every game sets: ``id`` (the game id of docs/rules.md), ``title``, ``BLURB``
(what the game is, in a sentence, for the lobby), ``OPTIONS_MODEL`` (a
:class:`~app.games.core.options.TableOptions`; ``OPTIONS``, the listing of ``GET /api/games``,
is its ``specs()``), ``ACTION_KINDS``, ``STATS`` (a :class:`~app.games.core.hand.GameStats`).
With a default: ``MIN_PLAYERS`` (2), ``USES_HOUSE``
(False; a house-banked game builds on :class:`~app.games.core.house.HouseBanked`),
``SIM_PLAYERS`` (4), ``SIM_OPTIONS`` (none). Hooks with a default a game overrides when its rules
say otherwise: ``on_sit``, ``on_leave``, ``can_leave``, ``buy_in_limits``, ``can_top_up``,
``top_up_limit``, ``cannot_play``, ``table_over``, ``table_seats``, ``house_exposure``,
``sim_stack``, ``release_all``, ``clock_actions``, ``timeout_actions``, ``bot_action``, ``views``
(several viewers at once), ``seats_named``, ``on_void``. Chips move only by ``pay``; a hand ends
with ``end_hand``; events go to ``log``.

**Sentences for people** (a view's ``status``, a hand's note, ``cannot_play``, ``table_over``,
``leave_cost``) are each a :class:`~app.games.core.coded.Coded`: the English, with a code and
its values, which the view sends beside it as ``<field>_coded`` for each reader's client to word
in its own language. A new code is worded in static/js/engine-words.js
(``tests/i18n/test_engine_words.py`` fails on one it lacks, and on a sentence without a code).

**Which module holds what.** Every package has these parts:

* ``engine.py``: the engine class, exported as ``GAME``; it plays a hand (``deal``,
  ``legal_actions``, ``play``, the timers, ``bot_action`` calling ``bot.py``);
* ``table.py``: the table between hands, the engine's base class (seats, money, the deal's
  rotation, ``snapshot``/``restore``) and **the chip-moving settlement**: the methods that call
  ``pay`` when a hand is settled (Greek 31, Vingt-un, En og tredive). Exceptions: Trianta Ena
  settles each bet in ``engine.py`` (``scoring.py`` decides the outcome), and Trente et Quarante
  settles a coup in ``scoring.py`` (its house, chances and prison);
* ``state.py``: the data of a hand and **what the view reads of the table**: a ``Protocol``
  (``<Game>State``) naming the engine's attributes the view uses (Trianta Ena, Trente et
  Quarante, En og tredive). Exceptions: the views of Greek 31 and Vingt-un read their table class
  (``table.py``) directly;
* ``scoring.py``: hand values, rankings and what a settlement owes (pure functions);
* ``view.py``: ``table_view``/``table_views``, what each viewer sees; the engine's ``view`` and
  ``views`` call them;
* ``bot.py``: the bot's strategy; ``stats.py``: what a simulation counts (the ``STATS`` class);
* ``options.py``: the options model, each option's range, default and description, and beside
  them ``WORDS``: the options in words for the pages, each a sentence's code and values
  (:mod:`app.games.core.phrases`; an option left out is told by the common phrases or by its
  description);
* and the game's own parts (Trianta Ena's ``bank``, Trente et Quarante's ``coup``, ``stakes``
  and ``window``).

No part imports the engine but the registry.

**Outside the package**, a new game needs only what follows; its title and ``BLURB`` reach the
lobby and the review pages from the class, and its options' words from its ``WORDS``:

* its title, ``BLURB`` and options' sentences worded for the catalogs: the title and sentence
  in app/rulebook/game_words.py, each new code of its ``WORDS`` in
  app/rulebook/option_sentences.py, and its options' names, help and choices in
  app/rulebook/option_names.py (tests/i18n/test_game_words.py and tests/rulebook/ hold all
  three to the games);
* its engine module in :data:`app.games.core.registry.GAME_MODULES` (the order there is the
  order of the rule book);
* its section in docs/rules.md, numbered by its place in the registry (the sixth game is §6;
  the appendix after the games has no number), naming its ``Game id `...```, with an
  ``N.M Table options`` table listing every option (``tests/project/test_docs.py`` and
  ``tests/rulebook/`` check both; the rule-book page ``/games/<id>/rules`` is drawn from it,
  and the players' "How to play" page from docs/how-to-play/<id>.md);
* its page docs/protocol/<id>.md (the view's fields, the actions and every option), and a row
  for it in docs/protocol.md's index (the games' pages are §7 to §11 there, §12 and §13 follow:
  a new game's page takes the next free number);
* optionally ``static/js/games/<id>.js``, its table drawing: without one,
  ``static/js/game-module.js`` falls back to a generic module that plays any game; and
  optionally ``static/css/games/<id>.css``, its drawing's styles (the table page links it
  whether or not it is there, so a game without one costs a 404 for the stylesheet).
"""
