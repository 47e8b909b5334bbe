"""The analyses' notes: what each analysis assumed, in a sentence (a decision's ``note``,
docs/analysis.md), marked for translation here (docs/i18n.md, "The analyses' notes").

Each note is whole, one constant per way a game's analysis works, the values in it named
(``{stands_on}``, ``{samples}``): the analysers write them in English, as a kept analysis
stores them. :func:`worded` turns a note as stored back into the message it was made from,
a :class:`~app.i18n.messages.Text` (its ``str`` the same English) that the API words in the
reader's language; a note this module does not list (an analysis kept by an older method)
stays as it was, in English.
"""

from __future__ import annotations

import functools
import re

from app.i18n.messages import N_, Text

# app/analysis/en_og_tredive.py
EN_OG_TREDIVE = N_(
    "Estimated by simulation: the cards you could not see dealt afresh (a card you saw an "
    "opponent take stays with them), the round played out by the steady bot for everyone, "
    "you included, and the later rounds by a model of the match; win: your chance to win the "
    "match; ev: the match's chips you can expect from now on, less your bets in front of you."
)

# app/analysis/greek_31.py
GREEK_31_EXACT = N_(
    "Exact: every order of the unseen cards (the last shuffle's cards not yet dealt, and the "
    "dealer's concealed card: any that leaves an ordinary stand), your later draws played to "
    "the most chips; ev in chips for the hand."
)
GREEK_31_STAKE = N_(
    "Estimated by simulation: the unseen cards dealt afresh, the steady bot playing the "
    "dealer and your later draws; one chip's result scaled to each stake; ev in chips."
)
GREEK_31_DEALER = N_(
    "Estimated by simulation: the unseen cards dealt afresh, the steady bot playing your "
    "later draws and every player's; ev in chips over every stake."
)

# app/analysis/trianta_ena.py
TRIANTA_ENA_TURN = N_(
    "Exact over the unseen cards (the discard pile counted unseen); the banker draws to "
    "{stands_on}; your later hits played at best; the players after you left out."
)
TRIANTA_ENA_BET = N_(
    "Estimated by {samples} simulated rounds: the unseen cards dealt afresh, the others "
    "betting and everyone hitting as the steady bot; a fold is exact."
)
TRIANTA_ENA_BANK = N_("Between hands: no chip of a hand depends on it; not analysed.")

# app/analysis/trente_et_quarante.py
TRENTE_ET_QUARANTE_WINDOW = N_(
    "The coup's chances exact from the shoe's unseen cards; your stakes as the option leaves "
    "them; at a 31 tie the better of sharing and prison; a stake in prison at what it is "
    "expected to bring back, later coups dealt like this one."
)
TRENTE_ET_QUARANTE_WINDOW_QUICK = N_(
    "The coup's chances quick (the two rows taken as independent) from the shoe's unseen "
    "cards; your stakes as the option leaves them; at a 31 tie the better of sharing and "
    "prison; a stake in prison at what it is expected to bring back, later coups dealt like "
    "this one."
)
TRENTE_ET_QUARANTE_UN_APRES = N_(
    "After a 31 tie: a stake shared comes back half; one in prison counts at what it is "
    "expected to bring back, the next coup's chances from the cards left, later coups dealt "
    "alike; your other choices the best."
)

# app/analysis/vingt_un.py
VINGT_UN_STAKE = N_(
    "Estimated: the unseen cards dealt afresh and the hand played out by the steady rule (the "
    "dealer doubling on an ace or a ten, drawing below 17); chips for the hand."
)
VINGT_UN_DOUBLE = N_(
    "Estimated: the players' cards dealt afresh and the hand played out by the steady rule; "
    "the dealer's chips for the hand, over every player."
)
VINGT_UN_DEALER = N_(
    "Estimated: the players' face-down cards dealt afresh (a standing hand not over 21, a "
    "dealt one no natural), the dealer drawing below 17 afterwards; the dealer's chips for "
    "the hand."
)
VINGT_UN_PLAYER_EXACT = N_(
    "Draw and stand exact: the unseen cards enumerated, the dealer's two cards no natural, "
    "the dealer drawing below 17, your later draws the best; chips for the hand."
)
VINGT_UN_PLAYER_EXACT_SPLIT = N_(
    "Draw and stand exact: the unseen cards enumerated, the dealer's two cards no natural, "
    "the dealer drawing below 17, your later draws the best; a split estimated by playing the "
    "hand out by the steady rule; chips for the hand."
)
VINGT_UN_PLAYER_REMOVAL = N_(
    "Draw and stand by enumeration, the dealer's odds approximated by the effects of removal; "
    "chips for the hand."
)
VINGT_UN_PLAYER_REMOVAL_SPLIT = N_(
    "Draw and stand by enumeration, the dealer's odds approximated by the effects of removal; "
    "a split estimated by playing the hand out by the steady rule; chips for the hand."
)
VINGT_UN_PLAYER_ESTIMATED = N_(
    "Estimated (several hands left to play): the unseen cards dealt afresh, the dealer's two "
    "cards no natural, the hands played out by the steady rule; chips for the hand."
)

NOTES: tuple[str, ...] = (
    EN_OG_TREDIVE,
    GREEK_31_EXACT,
    GREEK_31_STAKE,
    GREEK_31_DEALER,
    TRIANTA_ENA_TURN,
    TRIANTA_ENA_BET,
    TRIANTA_ENA_BANK,
    TRENTE_ET_QUARANTE_WINDOW,
    TRENTE_ET_QUARANTE_WINDOW_QUICK,
    TRENTE_ET_QUARANTE_UN_APRES,
    VINGT_UN_STAKE,
    VINGT_UN_DOUBLE,
    VINGT_UN_DEALER,
    VINGT_UN_PLAYER_EXACT,
    VINGT_UN_PLAYER_EXACT_SPLIT,
    VINGT_UN_PLAYER_REMOVAL,
    VINGT_UN_PLAYER_REMOVAL_SPLIT,
    VINGT_UN_PLAYER_ESTIMATED,
)
"""Every note an analysis writes (each value in it a whole number)."""

_VALUE = re.compile(r"\\\{(\w+)\\\}")


@functools.cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each note as a pattern of its English, a value in it as a group of digits."""
    return tuple((re.compile(_VALUE.sub(r"(?P<\1>\\d+)", re.escape(note))), note) for note in NOTES)


def worded(note: str | None) -> str | None:
    """A note as stored, as the message it was made from (a :class:`Text` whose values are
    whole numbers, its English unchanged); a note not listed, or None, as it is."""
    if not note:
        return note
    for pattern, msgid in _patterns():
        found = pattern.fullmatch(note)
        if found:
            values = {name: int(value) for name, value in found.groupdict().items()}
            return Text(msgid, **values) if values else Text(msgid)
    return note
