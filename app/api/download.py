"""The ``Content-Disposition`` of a download, safe for any file name (RFC 6266, RFC 5987).

A header value must be latin-1 (Starlette encodes it so, and raised on ``ledger-€.csv``: a
500), and a quote or a line break in it would end it early. The name therefore goes twice:
``filename="…"`` with every character outside ``[A-Za-z0-9._-]`` replaced by ``_``, for old
clients, and ``filename*=UTF-8''…``, percent-encoded, which every current browser prefers.
"""

from __future__ import annotations

import re
from urllib.parse import quote

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]")


def attachment(filename: str) -> str:
    """``attachment; filename="plain"; filename*=UTF-8''encoded`` for ``filename``."""
    plain = _UNSAFE.sub("_", filename) or "download"
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"
