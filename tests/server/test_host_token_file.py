"""Without ADMIN_TOKEN the host's token is made once and kept beside the SQLite database, so
it is the same at every restart (app/core/config.py: with_host_token); with ADMIN_TOKEN no
file is made; ``python -m app serve`` prints the address to open and that token."""

from __future__ import annotations

import stat
from pathlib import Path

from app.core.config import Settings, with_host_token


def settings_for(db: Path, token: str = "") -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{db}", admin_token=token)


def test_the_token_is_made_once_and_kept(tmp_path: Path) -> None:
    first, path = with_host_token(settings_for(tmp_path / "data" / "t.db"))
    assert path == (tmp_path / "data" / "admin_token").resolve()
    assert len(first.admin_token) >= 24
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    again, _ = with_host_token(settings_for(tmp_path / "data" / "t.db"))
    assert again.admin_token == first.admin_token


def test_admin_token_set_makes_no_file(tmp_path: Path) -> None:
    chosen, path = with_host_token(settings_for(tmp_path / "t.db", token="mine"))
    assert chosen.admin_token == "mine" and path is None
    assert not (tmp_path / "admin_token").exists()


def test_a_database_in_memory_keeps_no_file() -> None:
    settings, path = with_host_token(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    assert path is None and settings.admin_token == ""
