"""How often one address may make a new player or try a recovery code.

Each ``POST /api/session`` that would create a player, and each ``POST /api/session/recover``,
takes a token from its address's bucket (``SIGNUPS_PER_HOUR`` tokens an hour, up to
``SIGNUP_BURST`` at once; the two routes have buckets of their own). An empty bucket answers
``429`` with ``Retry-After``. Without this, one address made 1,773 players (and so 1,773,000
chips) in 30 seconds; with it, the same address makes ``SIGNUP_BURST`` and then one every few
minutes. Returning players (a valid cookie or bearer token) take nothing.

The buckets live in this process's memory (a restart forgets them) and are bounded: at most
``MAX_ADDRESSES`` are kept, the least recently used dropped first. A dropped bucket had been
refilling longest, so the address it belonged to loses little by starting afresh.
"""

from __future__ import annotations

import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import HTTPException, Request

from app.i18n.messages import Plural

MAX_ADDRESSES = 10_000
"""Buckets kept at most per route (about 150 bytes each)."""


def request_address(request: Request, trust_proxy: bool) -> str:
    """The client's address, as the table socket takes it (``client_address`` in
    app/api/ws.py): behind a trusted proxy the LAST ``X-Forwarded-For`` hop, the one the proxy
    itself added. Earlier hops come from the client, who could write anything there."""
    if trust_proxy:
        forwarded = request.headers.get("x-forwarded-for", "")
        if forwarded:
            return forwarded.split(",")[-1].strip()
    return request.client.host if request.client else "unknown"


@dataclass(slots=True)
class Bucket:
    tokens: float
    stamp: float


class AddressBuckets:
    """A token bucket per address, ``per_hour`` tokens an hour up to ``burst``; at most
    ``max_addresses`` buckets (least recently used dropped). ``per_hour == 0``: no limit."""

    def __init__(
        self,
        per_hour: float,
        burst: int,
        *,
        max_addresses: int = MAX_ADDRESSES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = per_hour / 3600.0
        self.burst = float(burst)
        self.max_addresses = max_addresses
        self.clock = clock
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def take(self, address: str) -> float:
        """Take a token for ``address``: 0 when there was one, else the seconds until there
        is (nothing is taken then)."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = Bucket(self.burst, now)
            self._buckets[address] = bucket
            while len(self._buckets) > self.max_addresses:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
            bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.stamp) * self.rate)
            bucket.stamp = now
        if bucket.tokens >= 1.0:
            bucket.tokens -= 1.0
            return 0.0
        return (1.0 - bucket.tokens) / self.rate


@dataclass
class SignupLimits:
    """The buckets of the two routes that let an anonymous client in."""

    signups: AddressBuckets
    recoveries: AddressBuckets


def signup_limits(request: Request) -> SignupLimits:
    """This app's buckets, made on first use from its settings (one set per app, so each
    test's server starts with full buckets)."""
    state = request.app.state
    limits: SignupLimits | None = getattr(state, "signup_limits", None)
    if limits is None:
        settings = state.services.settings
        limits = SignupLimits(
            AddressBuckets(settings.signups_per_hour, settings.signup_burst),
            AddressBuckets(settings.signups_per_hour, settings.signup_burst),
        )
        state.signup_limits = limits
    return limits


def charge(request: Request, buckets: AddressBuckets, what: str) -> None:
    """Take a token for this request's address, or refuse with 429 and ``Retry-After``."""
    settings = request.app.state.services.settings
    wait = buckets.take(request_address(request, settings.trust_proxy_headers))
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise HTTPException(
            429,
            Plural(
                "too many {what} from your address: try again in about {n} minute",
                "too many {what} from your address: try again in about {n} minutes",
                n=max(1, round(seconds / 60)),
                what=what,
            ),
            headers={"Retry-After": str(seconds)},
        )
