"""The hypothesis settings of the property tests that play a real server (the restarts, the
storage faults): what the server does between two draws depends on timing, so an example does
not replay exactly; neither shrinking nor a database of failing examples would help, and the
draws of a failing example are in its report."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, Phase, settings


def live_examples(max_examples: int) -> Any:
    """``@live_examples(n)``: n examples, no deadline, generated only, no example database."""
    return settings(
        max_examples=max_examples,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        database=None,
        suppress_health_check=[
            HealthCheck.function_scoped_fixture,
            HealthCheck.too_slow,
            HealthCheck.data_too_large,
        ],
    )
