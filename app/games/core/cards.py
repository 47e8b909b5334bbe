"""Cards, shoes and provably fair shuffles (docs/rules.md §0.2 and "Randomness").

A card is a two-character code: rank ``A 2 3 4 5 6 7 8 9 T J Q K`` then suit ``S H D C``;
the joker is ``XX``. A shoe of *n* decks holds *n* copies of each card.

The shuffle is deterministic from a 32-byte seed so that a hand can be re-dealt exactly:

1. Start from the shoe in *canonical order*: for each deck in turn, suits ``S H D C``, each
   suit in rank order ``A 2 … K``, then the jokers (if any) at the end.
2. Draw a stream of 64-bit numbers: block *i* is ``SHA-256(seed || i)`` with *i* as 8 bytes
   big-endian, read as four big-endian 64-bit numbers in order.
3. Fisher-Yates from the end: for ``j`` from ``n-1`` down to ``1`` take the next number ``r``
   from the stream, rejecting any ``r >= 2**64 - (2**64 % (j+1))`` (no modulo bias), and swap
   positions ``j`` and ``r % (j+1)``.
4. The result is the deal order: index 0 is the first card dealt (the top of the stock).

Before the first card is seen the server publishes the commitment ``SHA-256(seed)`` in hex;
when the shoe is retired it publishes the seed, and anyone can re-run :func:`shuffled` to check.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

RANKS = "A23456789TJQK"
SUITS = "SHDC"
JOKER = "XX"
RED_SUITS = frozenset("HD")
TEN_VALUE_RANKS = frozenset("TJQK")
FACE_RANKS = frozenset("JQK")

SeedSource = Callable[[], bytes]
"""Where a new shuffle's 32-byte seed comes from: the CSPRNG in play, a fixed list in tests."""


def csprng_seed() -> bytes:
    """A fresh 32-byte seed from the operating system's CSPRNG (docs/rules.md §0)."""
    return os.urandom(32)


def fixed_seeds(*seeds: bytes) -> SeedSource:
    """A seed source for tests and replays: the given seeds in turn, then derived ones."""
    queue = list(seeds)
    counter = [0]

    def next_seed() -> bytes:
        if queue:
            return queue.pop(0)
        counter[0] += 1
        return hashlib.sha256(b"table31-test-seed" + counter[0].to_bytes(8, "big")).digest()

    return next_seed


def seeded_source(seed: bytes) -> SeedSource:
    """A deterministic seed source for tests: the n-th seed drawn is ``SHA-256(seed || n)``
    (n from 0, 8 bytes big-endian), so two tables given the same seed shuffle alike, shuffle
    after shuffle. Never in play: the server accepts it only with ``ENVIRONMENT=test``
    (``POST /api/admin/tables/{id}/seed``, docs/protocol.md)."""
    counter = [0]

    def next_seed() -> bytes:
        n = counter[0]
        counter[0] += 1
        return hashlib.sha256(seed + n.to_bytes(8, "big")).digest()

    return next_seed


def rank(card: str) -> str:
    """The rank character of a card code (``"T"`` for ``"TH"``); ``"X"`` for the joker."""
    return card[0]


def suit(card: str) -> str:
    """The suit character of a card code (``"H"`` for ``"TH"``); ``"X"`` for the joker."""
    return card[1]


def is_red(card: str) -> bool:
    """Hearts and diamonds are red; spades and clubs black (docs/rules.md §0)."""
    return card[1] in RED_SUITS


def is_valid_card(code: object) -> bool:
    """True for a well-formed card code such as ``"AS"`` or the joker ``"XX"``."""
    return isinstance(code, str) and (
        code == JOKER or (len(code) == 2 and code[0] in RANKS and code[1] in SUITS)
    )


def deck(*, jokers: int = 0) -> list[str]:
    """One deck in canonical order: suits S H D C, ranks A..K within a suit, then jokers."""
    return [r + s for s in SUITS for r in RANKS] + [JOKER] * jokers


def canonical_shoe(decks: int = 1, *, jokers: int = 0) -> list[str]:
    """``decks`` decks in canonical order, each deck followed by nothing; jokers at the end."""
    return [card for _ in range(decks) for card in deck()] + [JOKER] * jokers


def commitment(seed: bytes) -> str:
    """The published commitment to a seed: SHA-256 of the 32 seed bytes, in hex."""
    return hashlib.sha256(seed).hexdigest()


def _random_stream(seed: bytes) -> Iterator[int]:
    block = 0
    while True:
        digest = hashlib.sha256(seed + block.to_bytes(8, "big")).digest()
        for offset in range(0, 32, 8):
            yield int.from_bytes(digest[offset : offset + 8], "big")
        block += 1


_SPAN = 1 << 64


def shuffled(cards: list[str], seed: bytes) -> list[str]:
    """Return ``cards`` shuffled by the documented algorithm above; index 0 is dealt first."""
    if len(seed) != 32:
        raise ValueError("a shuffle seed is exactly 32 bytes")
    order = list(cards)
    stream = _random_stream(seed)
    for j in range(len(order) - 1, 0, -1):
        bound = j + 1
        limit = _SPAN - (_SPAN % bound)
        r = next(stream)
        while r >= limit:
            r = next(stream)
        k = r % bound
        order[j], order[k] = order[k], order[j]
    return order


@dataclass
class Shuffle:
    """One shuffle: its seed, its public commitment, the cards it took and the order it made."""

    seed: bytes
    commit: str
    source: list[str]
    order: list[str]

    @classmethod
    def of(cls, cards: list[str], seed: bytes) -> Shuffle:
        return cls(
            seed=seed, commit=commitment(seed), source=list(cards), order=shuffled(cards, seed)
        )

    def to_json(self) -> dict[str, object]:
        """The shuffle's private record: seed (hex), commitment and the cards it took in order."""
        return {"seed": self.seed.hex(), "commit": self.commit, "source": list(self.source)}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Shuffle:
        seed = bytes.fromhex(str(data["seed"]))
        source = data["source"]
        assert isinstance(source, list)
        return cls.of([str(c) for c in source], seed)


@dataclass
class Stock:
    """A face-down stock dealt from the top (index 0), and the shuffle that last made it.

    A stock never shuffles itself: the game calls :meth:`app.games.core.game.Game.shuffle_into`,
    which draws a fresh seed, publishes the commitment in the hand's log and retires the
    shuffle it replaces (so the runtime can reveal that seed).
    """

    cards: list[str] = field(default_factory=list)
    shuffle: Shuffle | None = None

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self) -> str:
        """Take the top card. Raises IndexError when the stock is empty."""
        if not self.cards:
            raise IndexError("the stock is empty")
        return self.cards.pop(0)

    def put_bottom(self, cards: list[str]) -> None:
        """Put cards under the stock in the order given (the first given goes in first)."""
        self.cards.extend(cards)

    def to_json(self) -> dict[str, object]:
        return {
            "cards": list(self.cards),
            "shuffle": self.shuffle.to_json() if self.shuffle else None,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Stock:
        cards = data.get("cards", [])
        assert isinstance(cards, list)
        shuffle = data.get("shuffle")
        return cls(
            cards=[str(c) for c in cards],
            shuffle=Shuffle.from_json(shuffle) if isinstance(shuffle, dict) else None,
        )
