"""Settings from the environment and an optional ``.env`` file (pydantic-settings)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_SECRET = "change-me"


class Settings(BaseSettings):
    """Every knob of the server; each field is the environment variable of the same name."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    environment: str = Field("development", description="development, test or production")
    database_url: str = Field(
        default_factory=lambda: f"sqlite+aiosqlite:///{Path.cwd() / 'table31.db'}",
        description="SQLAlchemy URL; SQLite file in the working folder by default",
    )
    host: str = "127.0.0.1"
    port: int = 8000
    admin_token: str = ""
    secret_key: str = DEFAULT_SECRET
    join_code: str | None = None
    starting_bankroll: int = Field(1000, ge=0)
    house_float: int = Field(100_000, ge=0, description="chips granted to the house at start")
    players_may_open_tables: bool = True
    enabled_games: str = Field(
        "all", description="comma-separated game ids this server offers, or 'all'"
    )

    # table runtime
    next_hand_seconds: float = Field(3.0, ge=0, description="pause between hands")
    bot_delay_seconds: float = Field(0.6, ge=0, description="how long a bot 'thinks'")
    database_writer: Literal["process", "thread"] = Field(
        "process",
        description="where the database writer runs: a process of its own (on another core) "
        "or a thread of the server's",
    )
    writer_backlog: int = Field(
        2000,
        ge=1,
        description="database jobs queued beyond which tables wait to deal their next hand",
    )
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: int = 40
    max_connections_per_address: int = 30
    address_messages_per_second: float = 100.0
    address_message_burst: int = 200
    trust_proxy_headers: bool = Field(
        False, description="take the client's address from X-Forwarded-For (behind a proxy)"
    )
    log_format: str = Field("json", description="json (one object a line) or text")

    @model_validator(mode="after")
    def _check_games(self) -> Settings:
        self.game_ids  # noqa: B018 - raises for an unknown game id, at start-up
        return self

    @model_validator(mode="after")
    def _refuse_default_secret(self) -> Settings:
        if self.environment not in ("development", "test") and (
            not self.secret_key or self.secret_key == DEFAULT_SECRET or len(self.secret_key) < 16
        ):
            raise ValueError(
                "SECRET_KEY is missing or the default: set a long random SECRET_KEY "
                "(e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`) "
                "or ENVIRONMENT=development"
            )
        return self

    @property
    def game_ids(self) -> tuple[str, ...]:
        """The games this server offers, in the order of RULES.md."""
        from app.games.registry import GAME_IDS

        if self.enabled_games.strip() in ("", "all"):
            return GAME_IDS
        wanted = {g.strip() for g in self.enabled_games.split(",") if g.strip()}
        unknown = wanted - set(GAME_IDS)
        if unknown:
            raise ValueError(f"ENABLED_GAMES names unknown games: {sorted(unknown)}")
        return tuple(g for g in GAME_IDS if g in wanted)

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()
