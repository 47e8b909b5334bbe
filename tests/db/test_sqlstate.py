"""The SQLSTATE of a refusal wherever it is wrapped (app/db/sqlstate.py): the writer's retry
of a conflicted transaction and the cluster's fence both read it through the same chain."""

from __future__ import annotations

from app.cluster.fence import FENCE_SQLSTATE, is_fenced
from app.db.writer.batch import conflicted


class DriverError(Exception):
    def __init__(self, state: str) -> None:
        super().__init__(f"driver said {state}")
        self.sqlstate = state


class Wrapped(Exception):
    """As SQLAlchemy's DBAPIError holds the driver's error."""

    def __init__(self, orig: BaseException) -> None:
        super().__init__("wrapped")
        self.orig = orig


def raised_from(cause: BaseException) -> RuntimeError:
    try:
        raise RuntimeError("the job failed") from cause
    except RuntimeError as err:
        return err


def test_a_conflict_is_read_through_orig_and_cause() -> None:
    assert conflicted(DriverError("40P01"))
    assert conflicted(Wrapped(DriverError("40001")))
    assert conflicted(raised_from(Wrapped(DriverError("40P01"))))
    assert not conflicted(Wrapped(DriverError("23505")))  # a unique violation: not retried
    assert not conflicted(RuntimeError("no state at all"))


def test_the_fence_is_read_the_same_way_and_a_loop_ends() -> None:
    assert is_fenced(raised_from(Wrapped(DriverError(FENCE_SQLSTATE))))
    assert not is_fenced(raised_from(Wrapped(DriverError("40P01"))))
    looped = RuntimeError("a")
    other = RuntimeError("b")
    looped.__cause__, other.__cause__ = other, looped
    assert not conflicted(looped) and not is_fenced(looped)
