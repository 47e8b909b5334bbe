"""Command line: ``python -m app serve``, ``python -m app simulate GAME`` and
``python -m app verify HAND_ID`` (docs/fairness.md)."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import sys
from collections.abc import Iterator
from typing import Any

SWITCH_INTERVAL = 0.001
"""Seconds a thread may hold the interpreter lock while another waits (CPython: 0.005)."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app", description="Table 31")
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("serve", help="serve on HOST:PORT (run migrations first)")
    sim = commands.add_parser("simulate", help="bots play a game; prints a JSON summary")
    sim.add_argument("game", help="a game id, e.g. trianta-ena")
    sim.add_argument("--hands", type=int, default=10_000)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--players", type=int, default=None)
    sim.add_argument("--options", default="{}", help="table options as JSON")
    sim.add_argument(
        "--check", action="store_true", help="check every bot action against legal (slower)"
    )
    check = commands.add_parser("verify", help="the proof of a fair shuffle of a hand")
    check.add_argument("hand_id")
    check.add_argument("--json", action="store_true", help="print the whole proof as JSON")
    args = parser.parse_args(argv)

    if args.command == "verify":
        from app.core.config import get_settings
        from app.review.cli import run

        return run(get_settings().database_url, args.hand_id, as_json=args.json)

    if args.command == "simulate":
        from app.games.registry import GAME_IDS
        from app.simulate import simulate

        if args.game not in GAME_IDS:
            parser.error(f"unknown game {args.game!r}; one of: {', '.join(GAME_IDS)}")
        report = simulate(
            args.game,
            hands=args.hands,
            seed=args.seed,
            players=args.players,
            options=json.loads(args.options),
            check=args.check,
        )
        print(json.dumps(report, indent=2))
        return 0

    return serve()


def serve() -> int:
    """Serve until SIGINT/SIGTERM; then shut down gracefully: stop accepting, void the hands
    in play (stakes back), flush the database queue, close every socket with a reason."""
    import asyncio

    import uvicorn

    from app.core.config import get_settings
    from app.main import create_app
    from app.ops import collector, logs, memory

    try:
        settings = get_settings()
    except Exception as exc:  # a refused setting (e.g. the default SECRET_KEY in production)
        print(f"table31: cannot start: {exc}", file=sys.stderr)
        return 2
    logs.configure(json_lines=settings.log_format == "json")
    if settings.database_writer == "thread":
        # A writer thread (app/runtime/writer.py) hands the interpreter lock back and forth
        # with the event loop's thread at each statement. CPython lets a thread keep the lock
        # for 5 ms before it must hand it over, which starves the writer while the loop is
        # busy (docs/performance.md); 1 ms keeps both moving. The writer process (the
        # default) shares no lock with the loop.
        sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(settings)

    class GracefulServer(uvicorn.Server):
        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)  # the app's start-up: tables recovered
            collector.settle_after_start()
            collector.COLLECTOR.start()  # young collections on a clock, survivors frozen
            memory.TRIMMER.start()  # freed heap pages back to the system every 2 s

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            # uvicorn raises the signal that stopped it again once it has shut down, and the
            # process ends there: the log lines still queued are written before that
            with super().capture_signals():
                try:
                    yield
                finally:
                    logs.flush()

        async def shutdown(self, sockets: list[Any] | None = None) -> None:
            memory.TRIMMER.stop()
            collector.COLLECTOR.stop()
            await app.state.services.lobby.shutdown("The server is restarting; back shortly")
            await super().shutdown(sockets)

    config = uvicorn.Config(
        app,
        # JSON views are small; compressing each costs more CPU and memory per socket than
        # the bandwidth it saves a card table (docs/performance.md)
        ws_per_message_deflate=False,
        # the access log would record ?token= in socket URLs; the app logs what matters
        access_log=False,
        host=settings.host,
        port=settings.port,
        ws_max_size=65536,
        timeout_graceful_shutdown=10,
        log_config=None,
        proxy_headers=settings.trust_proxy_headers,
    )
    server = GracefulServer(config)
    try:
        try:
            import uvloop  # uvicorn[standard] brings it: a faster event loop
        except ImportError:
            asyncio.run(server.serve())
        else:
            uvloop.run(server.serve())
        logging.getLogger("table31").info("stopped")
    finally:
        logs.stop()  # the lines still queued are written before the process ends
    return 0


if __name__ == "__main__":
    sys.exit(main())
