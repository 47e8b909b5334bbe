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
    signups_per_hour: float = Field(
        10.0,
        ge=0,
        description="new players an address may make an hour, after its burst (and as many "
        "recovery-code tries); 0: no limit",
    )
    signup_burst: int = Field(10, ge=1, description="new players an address may make at once")
    token_days: float = Field(
        180.0,
        gt=0,
        le=3650,
        description="a device's sign-in token expires this many days after its last use",
    )
    enabled_games: str = Field(
        "all", description="comma-separated game ids this server offers, or 'all'"
    )

    # table runtime
    next_hand_seconds: float = Field(3.0, ge=0, description="pause between hands")
    bot_delay_seconds: float = Field(0.6, ge=0, description="how long a bot 'thinks'")
    bot_table_idle_seconds: float = Field(
        120.0,
        ge=0,
        description="a table where no person has been (no socket, no person seated) for this "
        "long deals no new hand until someone comes; 0: bots play on regardless",
    )
    max_tables_per_player: int = Field(
        5, ge=0, description="open tables one player may have opened (the host: any); 0: no limit"
    )
    empty_table_close_minutes: float = Field(
        30.0,
        ge=0,
        description="a table with no person seated and no socket open for this many minutes "
        "closes by itself, as its opener's close does (freeing the opener's open tables); "
        "0: never",
    )
    max_bots_per_table: int = Field(
        4, ge=0, description="bots a table's opener may seat (the host: any); 0: no limit"
    )
    max_tables_per_hour: int = Field(
        20,
        ge=0,
        description="tables one player may open in any hour, closed ones included (the host: "
        "any; 429 beyond, saying when the next may be opened); 0: no limit",
    )
    bots_float: int | None = Field(
        None,
        ge=0,
        description="chips the host's grant puts in the bots' bank when it opens (the first "
        "bot seated, or the host's page): every bot buys in from that one account; unset: 10 "
        "times STARTING_BANKROLL",
    )
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
    analysis_after_hand: bool = Field(
        True,
        description="analyse each finished hand in the background as soon as it is stored "
        "(app/runtime/analyses.py); off, a hand is analysed when first asked for",
    )
    analysis_samples: int = Field(
        1000,
        ge=1,
        description="hands simulated for each option of a finished hand's analysis where its "
        "figures are estimates (docs/analysis.md §2); fewer: sooner, with wider intervals",
    )
    analysis_niceness: int = Field(
        10,
        ge=0,
        le=19,
        description="how much lower the analysis's worker process's CPU priority is than the "
        "server's (os.nice; app/runtime/analysis_worker.py)",
    )
    analysis_busy_share: float = Field(
        0.5,
        ge=0,
        description="the share of one core the server's own process may be using (over the "
        "last second) for finished hands to be analysed in the background; busier, they wait, "
        "and a reader's request does not (app/runtime/analyses.py); 0: never wait",
    )
    storage_retry_seconds: float = Field(
        1.0,
        gt=0,
        description="after a storage failure, the first wait before the server tries to write "
        "again (it doubles up to storage_retry_max_seconds; app/runtime/storage.py)",
    )
    storage_retry_max_seconds: float = Field(15.0, gt=0)
    max_message_bytes: int = 4096
    messages_per_second: float = 20.0
    message_burst: int = 40
    max_connections_per_address: int = 30
    address_messages_per_second: float = 100.0
    address_message_burst: int = 200
    chat_messages_per_second: float = Field(
        1.0, gt=0, description="chat messages and reactions a person may send a second, at a table"
    )
    chat_burst: int = Field(
        5, ge=1, description="chat messages and reactions a person may send at once"
    )
    trust_proxy_headers: bool = Field(
        False, description="take the client's address from X-Forwarded-For (behind a proxy)"
    )
    log_format: str = Field("json", description="json (one object a line) or text")
    pseudo_locale: bool = Field(
        False,
        description="serve the pseudo-locale qps to a reader whose language cookie asks for "
        "it (the tests' check for untranslated and overflowing text, docs/i18n.md)",
    )

    # HTTP hardening (app/api/middleware.py, app/server.py; docs/protocol.md "Security")
    max_body_bytes: int = Field(
        16384, ge=1024, description="largest request body accepted, in bytes (413 above)"
    )
    http_header_timeout: float = Field(
        10.0, gt=0, description="seconds a request's headers may take to arrive in full"
    )
    http_body_timeout: float = Field(
        30.0, gt=0, description="seconds a request's body may take to arrive, once its headers have"
    )
    http_keep_alive_timeout: int = Field(
        5, ge=1, description="seconds an idle keep-alive connection is kept open"
    )
    max_http_connections_per_address: int = Field(
        128,
        ge=1,
        description="HTTP connections open at once from one address (not behind a trusted proxy)",
    )

    # cluster mode (docs/scaling.md, app/cluster/): on when NODE_ID and REDIS_URL are both set
    node_id: str = Field(
        "",
        pattern=r"^$|^[a-z0-9][a-z0-9-]{0,31}$",
        description="this node's name in a cluster (lower-case letters, digits, '-'); empty: "
        "one process on its own",
    )
    redis_url: str = Field("", description="redis://host:port/db of the cluster's Redis")
    redis_prefix: str = Field(
        "t31:",
        pattern=r"^[A-Za-z0-9:_.-]{0,32}$",
        description="the start of every Redis key and channel the cluster uses (several "
        "clusters, or tests, may share one Redis)",
    )
    node_address: str = Field(
        "",
        description="host:port at which the front (nginx) reaches this node; HOST:PORT if empty",
    )
    lease_seconds: float = Field(
        10.0,
        ge=1.0,
        le=300.0,
        description="a node's lease on its tables: another node takes them this long after "
        "the node's last renewal (the database's clock)",
    )

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
        """The games this server offers, in the order of docs/rules.md."""
        from app.games.core.registry import GAME_IDS

        if self.enabled_games.strip() in ("", "all"):
            return GAME_IDS
        wanted = {g.strip() for g in self.enabled_games.split(",") if g.strip()}
        unknown = wanted - set(GAME_IDS)
        if unknown:
            raise ValueError(f"ENABLED_GAMES names unknown games: {sorted(unknown)}")
        return tuple(g for g in GAME_IDS if g in wanted)

    @model_validator(mode="after")
    def _cluster_needs_postgresql(self) -> Settings:
        if self.cluster and self.is_sqlite:
            raise ValueError(
                "cluster mode (NODE_ID and REDIS_URL) needs PostgreSQL: set DATABASE_URL to a "
                "postgresql+asyncpg:// URL, or leave NODE_ID empty to run one process on SQLite"
            )
        return self

    @property
    def bots_bank_float(self) -> int:
        """The bots' bank's opening float: ``BOTS_FLOAT``, else 10 starting bankrolls."""
        return 10 * self.starting_bankroll if self.bots_float is None else self.bots_float

    @property
    def cluster(self) -> bool:
        """Cluster mode: this process is one node of several (app/cluster/)."""
        return bool(self.node_id and self.redis_url)

    @property
    def advertised_address(self) -> str:
        """host:port at which the front reaches this node."""
        return self.node_address or f"{self.host}:{self.port}"

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()


HOST_TOKEN_FILE = "admin_token"
"""Beside the SQLite database: the host's token when ADMIN_TOKEN is not set, kept across
restarts (made once, readable by its owner only)."""


def host_token_file(settings: Settings) -> Path | None:
    """Where the host's token is kept: the SQLite database's folder (None for another database
    or one in memory)."""
    if not settings.is_sqlite:
        return None
    path = settings.database_url.split("///", 1)[-1].split("?", 1)[0]
    if not path or path == ":memory:" or "://" in path:
        return None
    return Path(path).resolve().parent / HOST_TOKEN_FILE


def with_host_token(settings: Settings) -> tuple[Settings, Path | None]:
    """The settings with the host's token: ADMIN_TOKEN when set (no file), else the one kept in
    the data folder, made there the first time. Returns the file it came from."""
    if settings.admin_token:
        return settings, None
    path = host_token_file(settings)
    if path is None:
        return settings, None
    token = path.read_text().strip() if path.exists() else ""
    if not token:
        import os
        import secrets

        token = secrets.token_urlsafe(24)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(token + "\n")
    return settings.model_copy(update={"admin_token": token}), path
