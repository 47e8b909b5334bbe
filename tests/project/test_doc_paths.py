"""Every file or folder the docs name by its path exists: a newcomer follows
docs/architecture.md (and the other docs) from the click to the database without meeting a
module that moved."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PATH = re.compile(
    r"(?<![\w/.-])((?:app|static|templates|tests|bench|migrations)/[A-Za-z0-9_./<>*{}-]*[A-Za-z0-9_/])"
)


def named_paths(text: str) -> set[str]:
    """The repository paths a document names (a pattern such as ``app/games/<game>/`` or a
    glob is left out: it names a kind of file, not one)."""
    return {p.rstrip("/") for p in PATH.findall(text) if not re.search(r"[<>*{}]", p)}


def missing_in(text: str) -> list[str]:
    return sorted(p for p in named_paths(text) if not (ROOT / p).exists())


def test_every_path_the_docs_name_exists() -> None:
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    missing = {
        str(doc.relative_to(ROOT)): gone for doc in docs if (gone := missing_in(doc.read_text()))
    }
    assert not missing, missing


def test_a_moved_module_is_caught() -> None:
    """The check sees a path that is not there, and lets patterns and real paths pass."""
    text = "see `app/games/trianta_ena.py`, `app/games/<game>/engine.py` and `app/db/ledger.py`"
    assert missing_in(text) == ["app/games/trianta_ena.py"]
    assert "app/db/ledger.py" in named_paths(text)
