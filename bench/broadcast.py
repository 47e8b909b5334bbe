"""Micro-benchmark of one broadcast (docs/performance.md §2): a real table core
(:class:`app.runtime.table.core.TableCore`) mid-hand, ``--players`` seated players each with a
connection (plus ``--spectators``), and its broadcast (:func:`app.runtime.table.views.broadcast`,
each frame handed to its connection) timed in a loop. The
connections write to sockets that take every frame at once and do nothing with it, so what
is measured is building and encoding the views and handing them to the connections.

::

    python -m bench.broadcast                      # Trianta Ena, 5 players
    python -m bench.broadcast --game all --json /tmp/broadcast.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

from bench.common import deal_next_hand

ROUNDS = 10


class NullSink:
    """A socket that takes every frame at once (so a connection writes it there and then,
    as it does to a real socket that is keeping up); it notes their sizes into ``sizes``."""

    def __init__(self) -> None:
        self.sizes: list[int] | None = None

    async def send_text(self, data: str) -> None:
        if self.sizes is not None:
            self.sizes.append(len(data))

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        return None


async def _table(game_id: str, players: int, spectators: int, seed: int) -> Any:
    """A table core with ``players`` seated and connected, mid-hand."""
    from app.core.config import Settings
    from app.games.core.registry import game_class
    from app.runtime.connection import Connection
    from app.runtime.records import SeatInfo
    from app.runtime.table.core import TableCore
    from app.simulate import seed_stream

    settings = Settings(
        environment="test",
        database_url="sqlite+aiosqlite:///:memory:",
        secret_key="bench-secret-key-0123456789",
        next_hand_seconds=3600,
        bot_delay_seconds=3600,
    )
    cls = game_class(game_id)
    core = TableCore(
        table_id="bench-table",
        name="bench",
        game_cls=cls,
        options={},
        settings=settings,
        clock=time.time,
        seeds=seed_stream(seed),
    )
    for seat in range(players):
        core.watchers.add(Connection(NullSink(), f"player-{seat}", f"p{seat}"))
        core.engine.sit(seat, core.engine.sim_stack(seat, 1000))
        core.roster[seat] = SeatInfo(f"player-{seat}", f"p{seat}")
    for n in range(spectators):
        core.watchers.add(Connection(NullSink(), None if n % 2 else f"watcher-{n}", None))
    rng = random.Random(seed)
    deal_next_hand(core, rng)
    # mid-hand: half the hand's usual number of actions (at least the bets of every player)
    steps = {"trianta-ena": 7, "greek-31": 7, "vingt-un": 5, "en-og-tredive": 12}.get(game_id, 1)
    for _ in range(steps):
        engine = core.engine
        if not engine.in_hand or not engine.to_act():
            break
        seat = min(engine.to_act())
        core.apply_for(seat, engine.bot_action(seat, rng))
    return core


def broadcast(core: Any) -> None:
    """One broadcast: every connection's state built and handed to it."""
    from app.runtime.table import views
    from app.runtime.table.effects import Effects

    fx = Effects()
    views.broadcast(core, fx)
    for conn, frame in fx.frames:
        conn.send(frame)


def measure(
    game_id: str, *, players: int, spectators: int, seconds: float, seed: int = 5
) -> dict[str, Any]:
    async def run() -> dict[str, Any]:
        core = await _table(game_id, players, spectators, seed)
        sizes: list[int] = []
        sinks = [conn.sink for conn in core.watchers]
        for sink in sinks:
            sink.sizes = sizes  # type: ignore[attr-defined]
        broadcast(core)
        for sink in sinks:
            sink.sizes = None  # type: ignore[attr-defined]
        rounds = []  # the machine is shared: the best of several short rounds
        for _ in range(ROUNDS):
            loops = 0
            started = time.perf_counter()
            deadline = started + seconds / ROUNDS
            while time.perf_counter() < deadline:
                for _ in range(50):
                    broadcast(core)
                loops += 50
            rounds.append((time.perf_counter() - started) / loops * 1e6)
        rounds.sort()
        return {
            "game": game_id,
            "phase": core.engine.view(None).get("phase"),
            "connections": len(core.watchers),
            "us_per_broadcast": round(rounds[0], 1),
            "us_per_broadcast_median": round(rounds[len(rounds) // 2], 1),
            "bytes_per_state": round(sum(sizes) / max(1, len(sizes))),
        }

    return asyncio.run(run())


def main(argv: list[str] | None = None) -> int:
    from app.games.core.registry import GAME_IDS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="trianta-ena", help="a game id, or 'all'")
    parser.add_argument("--players", type=int, default=None, help="default: 5 (or the seats)")
    parser.add_argument("--spectators", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    games = list(GAME_IDS) if args.game == "all" else [args.game]
    rows = []
    for game_id in games:
        from app.games.core.registry import game_class

        cls = game_class(game_id)
        players = args.players or min(5, cls({}).max_seats)
        row = measure(game_id, players=players, spectators=args.spectators, seconds=args.seconds)
        rows.append(row)
        print(
            f"{row['game']:<20} {row['phase']:<10} {row['connections']} connections: "
            f"{row['us_per_broadcast']:7.1f} µs/broadcast (best; median "
            f"{row['us_per_broadcast_median']:.1f}), {row['bytes_per_state']} B/state"
        )
    if args.json is not None:
        args.json.write_text(json.dumps({"broadcast": rows}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
