"""Settings (refusing the default secret outside development) and the command line:
``python -m app simulate`` and ``python -m app serve`` as real subprocesses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from app.core.config import DEFAULT_SECRET, Settings
from app.games.core.registry import GAME_IDS

ROOT = Path(__file__).resolve().parents[2]
PYTHON = str(ROOT / ".venv" / "bin" / "python") if (ROOT / ".venv").exists() else sys.executable
LONG_SECRET = "k3J9-some-long-random-secret-0123456789"
SETTINGS_VARS = (
    "ENVIRONMENT", "SECRET_KEY", "DATABASE_URL", "ADMIN_TOKEN", "JOIN_CODE", "ENABLED_GAMES",
    "PORT", "HOST",
)  # fmt: skip


def clean_env(**overrides: str) -> dict[str, str]:
    """This process's environment without any of the server's settings, plus ``overrides``."""
    env = {k: v for k, v in os.environ.items() if k.upper() not in SETTINGS_VARS}
    env["PYTHONPATH"] = str(ROOT)
    env.update(overrides)
    return env


# --------------------------------------------------------------------------- the secret


@pytest.mark.parametrize("environment", ["production", "staging", "Production", "prod"])
@pytest.mark.parametrize("secret", [DEFAULT_SECRET, "", "short-secret"])
def test_outside_development_the_default_or_a_short_secret_is_refused(
    environment: str, secret: str
) -> None:
    with pytest.raises(ValidationError) as caught:
        Settings(environment=environment, secret_key=secret)
    assert "SECRET_KEY" in str(caught.value)


def test_a_long_secret_passes_in_production() -> None:
    settings = Settings(environment="production", secret_key=LONG_SECRET)
    assert settings.secret_key == LONG_SECRET
    assert settings.environment == "production"


@pytest.mark.parametrize("environment", ["development", "test"])
def test_development_and_test_accept_the_default_secret(
    environment: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    settings = Settings(environment=environment)
    assert settings.secret_key == DEFAULT_SECRET


def test_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENVIRONMENT", "production")
    monkeypatch.setenv("SECRET_KEY", LONG_SECRET)
    monkeypatch.setenv("STARTING_BANKROLL", "250")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://u@db/x")
    settings = Settings()
    assert settings.starting_bankroll == 250
    assert not settings.is_sqlite
    monkeypatch.setenv("SECRET_KEY", DEFAULT_SECRET)
    with pytest.raises(ValidationError, match="SECRET_KEY"):
        Settings()


# --------------------------------------------------------------------------- ENABLED_GAMES


@pytest.mark.parametrize("value", ["all", "", "  all  ", " "])
def test_enabled_games_all(value: str) -> None:
    assert Settings(enabled_games=value).game_ids == GAME_IDS
    assert GAME_IDS == (
        "trianta-ena", "greek-31", "vingt-un", "trente-et-quarante", "en-og-tredive",
    )  # fmt: skip


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("greek-31", ("greek-31",)),
        ("vingt-un,trianta-ena", ("trianta-ena", "vingt-un")),
        (" en-og-tredive , greek-31 ", ("greek-31", "en-og-tredive")),
        ("greek-31,greek-31", ("greek-31",)),
    ],
)
def test_enabled_games_a_list_in_the_order_of_the_rules(
    value: str, expected: tuple[str, ...]
) -> None:
    assert Settings(enabled_games=value).game_ids == expected


def test_enabled_games_naming_an_unknown_game_is_an_error() -> None:
    with pytest.raises(ValueError, match="poker"):
        _ = Settings(enabled_games="greek-31,poker").game_ids


def test_enabled_games_naming_an_unknown_game_is_refused_at_once() -> None:
    with pytest.raises(ValidationError, match="poker"):
        Settings(enabled_games="poker")


def test_sqlite_is_the_default_database(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    settings = Settings()
    assert settings.is_sqlite and settings.database_url.endswith("table31.db")


# --------------------------------------------------------------------------- python -m app


def run_app(*args: str, timeout: float = 60, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [PYTHON, "-m", "app", *args],
        cwd=ROOT,
        env=clean_env(**env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_simulate_prints_one_json_report_the_same_for_the_same_seed() -> None:
    args = ("simulate", "trianta-ena", "--hands", "200", "--seed", "3")
    first = run_app(*args)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)  # the whole output is one JSON object
    assert isinstance(report, dict)
    assert report["hands"] == 200
    assert report["game"] == "trianta-ena" and report["seed"] == 3
    assert report["players"] == 5
    second = run_app(*args)
    assert second.returncode == 0, second.stderr
    assert second.stdout == first.stdout
    other = run_app("simulate", "trianta-ena", "--hands", "200", "--seed", "4")
    assert other.returncode == 0, other.stderr
    assert json.loads(other.stdout)["hands"] == 200
    assert other.stdout != first.stdout, "a different seed should play different hands"


def test_simulate_an_unknown_game_exits_non_zero_with_a_message() -> None:
    result = run_app("simulate", "poker", "--hands", "5")
    assert result.returncode != 0
    assert "unknown game 'poker'" in result.stderr
    assert "trianta-ena" in result.stderr
    assert result.stdout == ""


def test_serve_in_production_with_the_default_secret_exits_before_serving(
    tmp_path: Path,
) -> None:
    """The secret is checked first: the process exits with the reason, having opened
    nothing and served nothing. (The timeout is a deadline for a run that serves instead of
    exiting, never a measure of how soon it exits.)"""
    result = subprocess.run(
        [PYTHON, "-m", "app", "serve"],
        cwd=tmp_path,  # no .env file here
        env=clean_env(
            ENVIRONMENT="production",
            DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}",
            PORT="1",
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2, (result.returncode, result.stderr)
    assert "cannot start" in result.stderr and "SECRET_KEY" in result.stderr, result.stderr
    assert "open http://" not in result.stdout, "it got as far as serving"
    assert not (tmp_path / "db.sqlite").exists(), "nothing may be opened before the check"
