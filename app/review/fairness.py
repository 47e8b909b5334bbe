"""The proof of a fair shuffle for one hand (docs/rules.md §0.3; docs/fairness.md).

Every shuffle is made from a fresh 32-byte seed by the documented algorithm of
:mod:`app.games.core.cards`; its commitment, SHA-256 of the seed, is published before its first
card is seen (the ``shuffle`` event of the hand that made it); the seed is published when the
shoe is retired (replaced by the next shuffle, or the table closed). Then anyone can check:

1. **commitment**: SHA-256(seed) is the commitment published before the deal;
2. **deal order**: the order is recomputed from the seed and the cards the shuffle took;
3. **continuity**: the stock at the start of the hand continues that order (the cards dealt
   from the shoe in earlier hands came first). In a game that gathers used cards back under
   the stock (Greek 31) the stock is derived instead: the hands dealt from the shoe since its
   shuffle are re-played in turn, each from the stock the one before it left (the first from
   the published seed), and the stock they leave must be this hand's;
4. **cards dealt**: the hand is dealt again from that stock, with the revealed seeds for the
   shuffles made during the hand, and the recorded actions re-applied: every event of the
   hand (every card dealt, shown or kept hidden) and every chip moved must be the recorded
   ones, and the shuffles must have the recorded commitments.

While a shoe the hand drew from is still in play its seed stays secret, and the proof says
"not yet revealed". A record changed after the fact (a card, a seed, a stake) fails.

Each check says what it found in a marked message (a :class:`~app.i18n.messages.Text`, its
``str`` the English), which the API also words in the reader's language (docs/i18n.md); a
check's name is a code, worded by :data:`CHECK_WORDS`.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.games.core.cards import Shuffle, commitment, shuffled
from app.i18n.messages import N_, Plural, Text, said
from app.review.replay import ReplayError, start

VERIFIED, FAILED, NOT_YET_REVEALED = "verified", "failed", "not_yet_revealed"

CHECK_WORDS = {
    "record": N_("record"),
    "commitment": N_("commitment"),
    "deal order": N_("deal order"),
    "continuity": N_("continuity"),
    "cards dealt": N_("cards dealt"),
    "settlement": N_("settlement"),
    "shuffles": N_("shuffles"),
    "reveal": N_("reveal"),
}
"""Each check's name (its code) in words, for the translators."""


@dataclass
class StoredShoe:
    """A shoe as the database keeps it (``shoes``): the seed is published once retired."""

    commit: str
    seed: str
    source: list[str]
    retired_at: datetime | None

    def revealed(self, table_closed: bool) -> bool:
        return self.retired_at is not None or table_closed


@dataclass
class Proof:
    """The outcome: each check with its result, and the shoes with what may be published."""

    status: str = VERIFIED
    checks: list[dict[str, Any]] = field(default_factory=list)
    shoes: list[dict[str, Any]] = field(default_factory=list)

    def check(self, name: str, ok: bool, detail: str) -> bool:
        """Note a check (``detail``: a marked message, a :class:`Text` with values)."""
        self.checks.append({"check": name, "ok": ok, "detail": detail})
        if not ok:
            self.status = FAILED
        return ok

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "checks": self.checks, "shoes": self.shoes}


def shuffles_in(state: Any) -> list[dict[str, Any]]:
    """Every stock (``{"cards": [...], "shuffle": {...}}``) in an engine's snapshot."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("cards"), list) and "shuffle" in node:
                found.append(node)
                return
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(state)
    return found


def order_digest(order: list[str]) -> str:
    """SHA-256 of the deal order written as the card codes joined by spaces."""
    return hashlib.sha256(" ".join(order).encode()).hexdigest()


GATHERING_GAMES = frozenset({"greek-31"})
"""Games whose used cards go under the stock without a shuffle (docs/rules.md §2.9)."""


def continuity(stock: list[str], order: list[str], *, gathers: bool = False) -> int | None:
    """How many cards of ``order`` were dealt before ``stock``, or None when the stock does
    not continue the order. The stock must be exactly the rest of the order; in a game that
    gathers used cards under the stock (``gathers``) it must begin with the rest of the order,
    the gathered cards (all seen in play) coming after."""
    if not gathers:
        k = len(order) - len(stock)
        return k if k >= 0 and order[k:] == stock else None
    for k in range(len(order) + 1):
        rest = order[k:]
        if stock[: len(rest)] == rest:
            return k
    return None


def _plain(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k != "t"}


def _stock_of(state: Any, commit: str) -> dict[str, Any] | None:
    """The stock in an engine's snapshot that shoe ``commit`` made, if any."""
    for stock in shuffles_in(state):
        shuffle = stock.get("shuffle")
        if isinstance(shuffle, dict) and shuffle.get("commit") == commit:
            return stock
    return None


def derive_stock(
    commit: str, shoes: dict[str, StoredShoe], earlier: Sequence[dict[str, Any]]
) -> tuple[list[str] | None, str]:
    """The stock shoe ``commit`` was left as by the hands ``earlier`` (the table's hands
    before this one, oldest first, back to the one that shuffled the shoe): the hand that
    shuffled it re-played with the published seeds, then each later hand re-played from the
    stock the one before it left. Only the seed and the recorded decisions decide it: no
    stored stock after the shuffle is taken on trust. Returns the stock (None when it cannot
    be derived) and what was done or went wrong."""
    maker = next(
        (
            i
            for i in range(len(earlier) - 1, -1, -1)
            if commit in ((earlier[i].get("shuffles") or {}).get("new") or [])
        ),
        None,
    )
    if maker is None:
        return None, Text(
            N_("the hand that shuffled shoe {shoe}… is not in the table's history"),
            shoe=commit[:12],
        )
    stock: dict[str, Any] | None = None
    for j, rec in enumerate(earlier[maker:]):
        number = rec.get("number")
        private = copy.deepcopy(rec.get("private"))
        if not isinstance(private, dict) or "start_state" not in private:
            return None, Text(N_("hand {number} has no full record"), number=number)
        if j == 0:
            seeds = []
            for made in (rec.get("shuffles") or {}).get("new") or []:
                stored = shoes.get(made)
                if stored is None:
                    return None, Text(
                        N_("hand {number} shuffled shoe {shoe}…, never published"),
                        number=number,
                        shoe=made[:12],
                    )
                seeds.append(stored.seed)
            private["shuffle_seeds"] = seeds
        else:
            node = _stock_of(private["start_state"], commit)
            if node is None:
                return None, Text(
                    N_("hand {number} did not deal from shoe {shoe}…"),
                    number=number,
                    shoe=commit[:12],
                )
            node.clear()  # the stock as the hand before left it, not as this record says
            node.update(copy.deepcopy(stock or {}))
        try:
            replay = start({**rec, "private": private}).finish()
        except (ReplayError, ValueError) as err:
            why = said(err)
            return None, Text(N_("hand {number} does not re-play: {why}"), number=number, why=why)
        node = _stock_of(replay.engine.snapshot(), commit)
        if node is None:
            return None, Text(
                N_("re-played, hand {number} leaves no stock of shoe {shoe}…"),
                number=number,
                shoe=commit[:12],
            )
        stock = copy.deepcopy(node)
    assert stock is not None
    hands = len(earlier) - maker
    return list(stock["cards"]), Plural(
        "{n} hand re-played since its shuffle", "{n} hands re-played since its shuffle", n=hands
    )


def verify(
    record: dict[str, Any],
    shoes: dict[str, StoredShoe],
    table_closed: bool,
    *,
    earlier: Sequence[dict[str, Any]] | None = None,
) -> Proof:
    """Check the hand of ``record`` against the shoes' published commitments and seeds.

    ``earlier``: for a game that gathers used cards under the stock, the table's hands
    before this one back to the one that shuffled its shoe (read by
    :func:`app.review.shoe_chain.earlier_hands`); without them such a hand's stock cannot be
    tied to the seed, and the proof fails."""
    proof = Proof()
    private = record.get("private")
    if not isinstance(private, dict) or "start_state" not in private:
        proof.check("record", False, N_("the hand has no full record (a void hand?)"))
        return proof
    starting = [s for s in shuffles_in(private["start_state"]) if s.get("shuffle")]
    made = list((record.get("shuffles") or {}).get("new") or [])
    pending: list[str] = []
    for stock in starting:
        shuffle = stock["shuffle"]
        commit = str(shuffle.get("commit"))
        stored = shoes.get(commit)
        entry: dict[str, Any] = {"commit": commit, "made_in_this_hand": False}
        proof.shoes.append(entry)
        stored = _published(proof, entry, stored, table_closed, pending)
        if stored is None:
            continue
        if str(shuffle.get("seed")) != stored.seed or list(shuffle.get("source") or []) != list(
            stored.source
        ):
            proof.check(
                "continuity",
                False,
                Text(N_("the stock at the start is not shoe {shoe}…"), shoe=commit[:12]),
            )
            continue
        order = shuffled(list(stored.source), bytes.fromhex(stored.seed))
        gathers = record.get("game") in GATHERING_GAMES
        if gathers:
            _derived_continuity(proof, entry, stock, order, shoes, earlier)
            continue
        dealt = continuity(list(stock["cards"]), order, gathers=gathers)
        entry["dealt_before_hand"] = dealt
        found = (
            Plural(
                "the stock at the start of the hand continues shoe {shoe}… after {n} card",
                "the stock at the start of the hand continues shoe {shoe}… after {n} cards",
                n=dealt,
                shoe=commit[:12],
            )
            if dealt is not None
            else Text(
                N_("the stock at the start of the hand does not continue shoe {shoe}…"),
                shoe=commit[:12],
            )
        )
        if proof.check("continuity", dealt is not None, found):
            entry["gathered_under"] = len(stock["cards"]) - (len(order) - (dealt or 0))
    seeds: list[bytes] = []
    for commit in made:
        stored = shoes.get(commit)
        entry = {"commit": commit, "made_in_this_hand": True}
        proof.shoes.append(entry)
        stored = _published(proof, entry, stored, table_closed, pending)
        if stored is None:
            continue
        seeds.append(bytes.fromhex(stored.seed))
    if proof.status == FAILED:
        return proof
    if pending:
        proof.status = NOT_YET_REVEALED
        proof.checks.append(
            {
                "check": "reveal",
                "ok": None,
                "detail": Plural(
                    "{n} shoe still in play: the seed is published when the shoe is retired",
                    "{n} shoes still in play: the seed is published when the shoe is retired",
                    n=len(pending),
                ),
            }
        )
        return proof
    _check_deal(proof, record, seeds, [shoes[c] for c in made])
    return proof


def _derived_continuity(
    proof: Proof,
    entry: dict[str, Any],
    stock: dict[str, Any],
    order: list[str],
    shoes: dict[str, StoredShoe],
    earlier: Sequence[dict[str, Any]] | None,
) -> None:
    """Continuity where used cards go under the stock: the stock at the start of the hand
    must be the one derived from the seed and the hands since the shuffle."""
    commit = str(stock["shuffle"].get("commit"))
    if earlier is None:
        proof.check(
            "continuity",
            False,
            Text(
                N_("shoe {shoe}…: the hands dealt from it before this one are needed"),
                shoe=commit[:12],
            ),
        )
        return
    derived, how = derive_stock(commit, shoes, earlier)
    cards = list(stock["cards"])
    if derived is None:
        proof.check("continuity", False, Text(N_("shoe {shoe}…: {how}"), shoe=commit[:12], how=how))
        return
    ok = derived == cards
    dealt = continuity(cards, order, gathers=True) if ok else None
    entry["dealt_before_hand"] = dealt
    found = Text(
        N_("the stock at the start of the hand is the one shoe {shoe}… was left as ({how})")
        if ok
        else N_(
            "the stock at the start of the hand is NOT the one shoe {shoe}… was left as ({how})"
        ),
        shoe=commit[:12],
        how=how,
    )
    if proof.check("continuity", ok, found):
        entry["gathered_under"] = len(cards) - (len(order) - (dealt or 0))


def _published(
    proof: Proof,
    entry: dict[str, Any],
    stored: StoredShoe | None,
    table_closed: bool,
    pending: list[str],
) -> StoredShoe | None:
    """The shoe, when it can be checked now: published, and its seed revealed (then its
    commitment is checked); a shoe never published fails the proof, one still in play is
    noted as pending (None for both)."""
    commit = entry["commit"]
    if stored is None:
        proof.check(
            "commitment", False, Text(N_("shoe {shoe}… was never published"), shoe=commit[:12])
        )
        return None
    if not stored.revealed(table_closed):
        entry["revealed"] = False
        pending.append(commit)
        return None
    _check_shoe(proof, entry, stored)
    return stored


def _check_shoe(proof: Proof, entry: dict[str, Any], stored: StoredShoe) -> None:
    """Commitment and deal order of one revealed shoe."""
    entry.update(revealed=True, seed=stored.seed, source=list(stored.source))
    try:
        seed = bytes.fromhex(stored.seed)
    except ValueError:
        proof.check(
            "commitment",
            False,
            Text(N_("shoe {shoe}…: the seed is not hex"), shoe=stored.commit[:12]),
        )
        return
    ok = len(seed) == 32 and commitment(seed) == stored.commit
    proof.check(
        "commitment",
        ok,
        Text(
            N_("SHA-256(seed) = {digest}… is the commitment {commit}…")
            if ok
            else N_("SHA-256(seed) = {digest}… is NOT the commitment {commit}…"),
            digest=commitment(seed)[:16],
            commit=stored.commit[:16],
        ),
    )
    if ok:
        order = Shuffle.of(list(stored.source), seed).order
        entry["order"] = order
        entry["order_sha256"] = order_digest(order)
        proof.check(
            "deal order",
            True,
            Plural(
                "shoe {shoe}…: {n} card recomputed from the seed",
                "shoe {shoe}…: {n} cards recomputed from the seed",
                n=len(order),
                shoe=stored.commit[:12],
            ),
        )


def _check_deal(
    proof: Proof, record: dict[str, Any], seeds: list[bytes], made: list[StoredShoe]
) -> None:
    """Deal the hand again with the published seeds: same events, chips and shuffles (the
    same commitments, and each shuffle taking the cards its shoe says it took)."""
    replayable = dict(record)
    replayable["private"] = {**record["private"], "shuffle_seeds": [s.hex() for s in seeds]}
    try:
        replay = start(replayable)
        events: list[dict[str, Any]] = []
        for step in replay.run():
            events.extend(step.events)
    except ReplayError as err:
        proof.check(
            "cards dealt",
            False,
            Text(N_("the recorded actions do not re-play: {why}"), why=said(err)),
        )
        return
    recorded = [_plain(e) for e in record.get("events") or []]
    tail = recorded[len(recorded) - len(events) :] if len(events) <= len(recorded) else None
    same = tail is not None and tail == [_plain(e) for e in events]
    cards = sum(1 for e in events if "card" in e or "cards" in e)
    if same:
        dealt = Plural(
            "dealt again from the revealed order: {n} event ({cards} with cards) matches the"
            " record",
            "dealt again from the revealed order: {n} events ({cards} with cards) match the record",
            n=len(events),
            cards=cards,
        )
    else:
        dealt = Plural(
            "dealt again from the revealed order: {n} event ({cards} with cards) does NOT match"
            " the record",
            "dealt again from the revealed order: {n} events ({cards} with cards) do NOT match"
            " the record",
            n=len(events),
            cards=cards,
        )
    proof.check("cards dealt", same, dealt)
    # what moved, from where to where, and why in English (a record's ``reason_coded`` is
    # newer than some records: the English says the same)
    kept = ("from", "to", "amount", "reason")
    moved = [{k: row.get(k) for k in kept} for row in (t.to_json() for t in replay.transfers)]
    settled = [{k: row.get(k) for k in kept} for row in record.get("settlement") or []]
    if moved == settled:
        matched = Plural("{n} chip movement matches", "{n} chip movements match", n=len(moved))
    else:
        matched = Plural(
            "{n} chip movement does NOT match", "{n} chip movements do NOT match", n=len(moved)
        )
    proof.check("settlement", moved == settled, matched)
    completed = replay.completed
    again = list(completed.new_shuffles) if completed is not None else []
    same = [(s.commit, s.source) for s in again] == [(m.commit, list(m.source)) for m in made]
    shuffles: str = N_("the shuffles made during the hand do NOT match the published shoes")
    if same:
        shuffles = Plural(
            "{n} shuffle made during the hand, of the cards and with the commitment published",
            "{n} shuffles made during the hand, of the cards and with the commitments published",
            n=len(again),
        )
    proof.check("shuffles", same, shuffles)
