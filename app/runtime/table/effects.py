"""Effects: what a table's core asks its shell to do after a change (docs/architecture.md).

The core (:mod:`app.runtime.table.core`) decides; it never writes, sends or waits. Each of
its steps returns an :class:`Effects`, and the shell (:mod:`app.runtime.table.actor`) carries
it out in this order, which is the rule "announce only what is committed":

1. submit the :attr:`~Effects.jobs` to the database writer, in order, and wait until every
   one is committed (the :attr:`~Effects.background` ones are queued, not waited for);
2. should one fail, nothing below happens: the table stops (the core's ``suspend``);
3. else send the :attr:`~Effects.frames`, in order (an act's ack just before the state it
   made), close the :attr:`~Effects.closes`, and set or cancel the
   :attr:`~Effects.timers`.

A step with no job is told at once: most acts inside a hand write nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol


class Watcher(Protocol):
    """Someone the table tells things to (a socket, to the shell): who it is, and whether it
    is still there. The core addresses frames to watchers; it never writes to one."""

    @property
    def player_id(self) -> str | None: ...

    @property
    def name(self) -> str | None: ...

    @property
    def closed(self) -> bool: ...

    @property
    def locale(self) -> str:
        """The reader's language: the table's own words are worded in it."""
        ...


@dataclass(frozen=True, slots=True)
class Job:
    """A database job: ``run(session, *args, **kwargs)`` in the writer's transaction."""

    run: Callable[..., Awaitable[Any]]
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Timer:
    """Call the core back after ``seconds``; ``key`` tells a stale call from a due one."""

    seconds: float
    key: Any = None


DECISION = "decision"
"""The decision clock the engine asks for: its end plays the timeout actions."""
BOTS = "bots"
"""A bot is to act: it does after the bots' delay."""
NEXT_HAND = "next_hand"
"""The pause before the next hand is dealt."""


@dataclass(slots=True)
class Effects:
    """What one step of the core asks of the shell, in the order it carries it out."""

    jobs: list[Job] = field(default_factory=list)
    """Stored and committed before anything below happens."""
    background: list[Job] = field(default_factory=list)
    """Queued for the writer, not waited for (chat: it moves no chip)."""
    frames: list[tuple[Watcher, str]] = field(default_factory=list)
    """Encoded messages, each to one watcher, sent once the jobs are committed."""
    closes: list[tuple[Watcher, int, str]] = field(default_factory=list)
    """Sockets to close (code, reason) after the frames."""
    timers: dict[str, Timer | None] = field(default_factory=dict)
    """Timers to set (or, None, to cancel) once the jobs are committed."""
    stop: bool = False
    """The table's clocks stop for good (shut down, dropped, suspended)."""

    def store(self, run: Callable[..., Awaitable[Any]], /, *args: Any, **kwargs: Any) -> None:
        self.jobs.append(Job(run, args, kwargs))

    def queue(self, run: Callable[..., Awaitable[Any]], /, *args: Any, **kwargs: Any) -> None:
        self.background.append(Job(run, args, kwargs))

    def send(self, to: Watcher, frame: str) -> None:
        self.frames.append((to, frame))

    def close(self, to: Watcher, code: int, reason: str) -> None:
        self.closes.append((to, code, reason))  # worded and cut by the connection

    def __bool__(self) -> bool:
        return bool(
            self.jobs or self.background or self.frames or self.closes or self.timers or self.stop
        )
