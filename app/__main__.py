"""Command line: ``python -m app serve``, ``python -m app simulate GAME``,
``python -m app verify HAND_ID`` (docs/fairness.md), ``python -m app check-db`` (``make run``
runs it before the migrations: a bad ``DATABASE_URL`` is one line, not Alembic's traceback)
and ``python -m app cluster`` (several nodes behind nginx: app/cluster/launcher.py)."""

from __future__ import annotations

import argparse
import json
import logging
import sys

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
    commands.add_parser(
        "check-db",
        help="can DATABASE_URL be migrated? one line and status 2 if not (make run, first)",
    )
    check = commands.add_parser("verify", help="the proof of a fair shuffle of a hand")
    check.add_argument("hand_id")
    check.add_argument("--json", action="store_true", help="print the whole proof as JSON")
    # listed here for --help; its own options are the launcher's (app/cluster/launcher.py)
    commands.add_parser(
        "cluster", help="several nodes behind nginx (PostgreSQL, Redis); --help for its options"
    )
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["cluster"]:
        from app.cluster import launcher

        return launcher.main(argv[1:])
    args = parser.parse_args(argv)

    if args.command == "check-db":
        return check_db()

    if args.command == "verify":
        from app.core.config import get_settings
        from app.review.cli import run

        return run(get_settings().database_url, args.hand_id, as_json=args.json)

    if args.command == "simulate":
        from app.games.core.registry import GAME_IDS
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
    """Serve until SIGINT/SIGTERM; then shut down gracefully: void the hands in play (stakes
    back) and close every socket with a reason (app/server.py, :func:`drain_first`), stop
    accepting, flush the database queue (the app's lifespan)."""
    import asyncio
    import gc
    import signal

    # Off until the app has started (app/ops/collector.py, settle_after_start: one full
    # collection, then what start-up built is frozen). What the imports build lives as long
    # as the process, yet CPython walked it again and again while they ran: a sixth of the
    # start's CPU, paid by every server (and the test suite starts hundreds).
    gc.disable()
    from app.core.config import get_settings, with_host_token

    try:
        settings = get_settings()
    except Exception as exc:  # a refused setting (e.g. the default SECRET_KEY in production)
        print(f"table31: cannot start: {one_line(exc)}", file=sys.stderr)
        return 2
    problem = database_problem(settings.database_url)
    if problem:
        print(f"table31: cannot start: {problem}", file=sys.stderr)
        return 2
    from app.server import listening_socket, raise_open_file_limit, uvicorn_config

    try:
        # bound now: a port in use is refused before any table is recovered (uvicorn binds
        # a port it is given only after the app's start-up)
        sock = listening_socket(settings.host, settings.port)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        print(
            f"table31: cannot start: cannot listen on {settings.host}:{settings.port}: {reason}",
            file=sys.stderr,
        )
        return 2
    # the app itself only now: a start refused above is told in a fraction of the time
    import uvicorn

    from app.main import create_app
    from app.ops import logs

    logs.configure(json_lines=settings.log_format == "json")
    settings, token_file = with_host_token(settings)
    shown = "localhost" if settings.host in ("0.0.0.0", "::", "") else settings.host
    where = f"[{shown}]" if ":" in shown else shown
    print(f"table31: open http://{where}:{settings.port}/ in a browser", flush=True)
    if token_file is not None:
        print(
            f"table31: the host's page is /admin; its token: {settings.admin_token}"
            f" (kept in {token_file}; set ADMIN_TOKEN to choose your own)",
            flush=True,
        )
    if settings.database_writer == "thread":
        # A writer thread (app/db/writer/thread.py) hands the interpreter lock back and forth
        # with the event loop's thread at each statement. CPython lets a thread keep the lock
        # for 5 ms before it must hand it over, which starves the writer while the loop is
        # busy (docs/performance.md); 1 ms keeps both moving. The writer process (the
        # default) shares no lock with the loop.
        sys.setswitchinterval(SWITCH_INTERVAL)
    app = create_app(settings, served=True)
    config = uvicorn_config(app, settings)
    limit = raise_open_file_limit()
    logging.getLogger("table31").info("open file limit %d", limit)
    server = uvicorn.Server(config)
    # uvicorn raises the signal that stopped it again once it has shut down and put back
    # the handlers it found: this one writes the log lines still queued, then the signal
    # ends the process as it would have
    signal.signal(signal.SIGTERM, end_by_signal)
    try:
        try:
            import uvloop  # uvicorn[standard] brings it: a faster event loop
        except ImportError:
            asyncio.run(server.serve(sockets=[sock]))
        else:
            uvloop.run(server.serve(sockets=[sock]))
        logging.getLogger("table31").info("stopped")
    finally:
        logs.stop()  # the lines still queued are written before the process ends
    return 0


def end_by_signal(signum: int, frame: object) -> None:
    """The log lines still queued are written, then ``signum`` ends the process."""
    import signal

    from app.ops import logs

    logs.stop()
    signal.signal(signum, signal.SIG_DFL)
    signal.raise_signal(signum)


def one_line(exc: Exception) -> str:
    """A refused setting as one line: ``SETTING: why`` for each (pydantic says it in five)."""
    from pydantic import ValidationError

    if not isinstance(exc, ValidationError):
        return " ".join(str(exc).split())
    parts = []
    for error in exc.errors():
        message = str(error["msg"]).removeprefix("Value error, ")
        where = ".".join(str(part) for part in error["loc"]).upper()
        parts.append(f"{where}: {message}" if where else message)
    return "; ".join(parts)


def check_db() -> int:
    """``make run``'s first step: is ``DATABASE_URL`` a URL this server can use, and can it
    be opened? One line on stderr and status 2 if not (so ``alembic upgrade head`` is never
    reached with it); nothing, status 0, if so. An SQLite file that does not exist yet is
    fine (the migrations create it) if its folder exists; nothing is created here."""
    try:
        from app.core.config import get_settings

        url = get_settings().database_url
    except Exception as exc:  # a refused setting
        print(f"table31: cannot migrate: {one_line(exc)}", file=sys.stderr)
        return 2
    problem = reachable_problem(url)
    if problem:
        print(f"table31: cannot migrate: {problem}", file=sys.stderr)
        return 2
    return 0


def reachable_problem(url: str) -> str | None:
    """Why the database at ``url`` cannot be migrated (not a URL this server can use, a
    folder that does not exist, a server that cannot be reached), in one line; or None."""
    import asyncio
    from pathlib import Path

    from app.db.preflight import DatabaseProblem, parse_database_url, redacted

    try:
        parsed = parse_database_url(url)
    except DatabaseProblem as problem:
        return str(problem)
    if parsed.get_backend_name() == "sqlite":
        folder = Path(str(parsed.database)).resolve().parent
        if not folder.is_dir():
            return (
                f"DATABASE_URL {redacted(url)!r}: cannot open: the folder {folder} does not exist"
            )
        return None

    from app.db.ping import ping_url

    try:
        asyncio.run(ping_url(url, connect_seconds=10, answer_seconds=15))
    except Exception as exc:
        cause = getattr(exc, "orig", None) or exc
        reason = one_line(cause) if str(cause).strip() else type(cause).__name__
        if isinstance(cause, TimeoutError):
            reason = "no answer within 10 s"
        return f"DATABASE_URL {redacted(url)!r}: cannot connect: {reason}"
    return None


def database_problem(url: str) -> str | None:
    """Why the database at ``url`` cannot serve (app/db/preflight.py), or None."""
    import asyncio

    from app.db.preflight import DatabaseProblem, check_database

    try:
        asyncio.run(check_database(url))
    except DatabaseProblem as problem:
        return str(problem)
    except Exception as exc:  # an error the checks do not know: still one line
        return f"cannot check the database: {type(exc).__name__}: {one_line(exc)}"
    return None


if __name__ == "__main__":
    sys.exit(main())
