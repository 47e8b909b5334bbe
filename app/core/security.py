"""Comparing secrets (tokens, codes) in constant time, whatever characters they hold."""

from __future__ import annotations

import secrets


def same_secret(given: str, expected: str) -> bool:
    """True when ``given`` equals ``expected``; compares bytes, so any Unicode is safe."""
    return secrets.compare_digest(given.encode(), expected.encode())
