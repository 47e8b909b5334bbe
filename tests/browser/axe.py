"""axe-core in a Playwright page: the accessibility rules a page must pass.

The rules engine is the npm package (``package.json``: ``axe-core``, exact version), installed in
``node_modules`` by ``npm ci`` (``make test`` does it). It is evaluated in the page through the
browser's debugging protocol, so the site's Content-Security-Policy (no inline script) does not
stand in its way and the page itself is left as it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
GRAVE = ("serious", "critical")
"""The impacts a page may not have: axe-core's two highest."""

_RUN = """async () => {
  const result = await window.axe.run(document, {
    resultTypes: ["violations"],
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] },
  });
  return result.violations.map((v) => ({
    id: v.id,
    impact: v.impact,
    help: v.help,
    nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })),
  }));
}"""


def violations(page: Any) -> list[dict[str, Any]]:
    """Every violation axe-core finds in the page as it stands: {id, impact, help, nodes}."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)")
    if not page.evaluate("() => Boolean(window.axe)"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;0")
    return list(page.evaluate(_RUN))


def grave(page: Any) -> list[dict[str, Any]]:
    """The violations of impact serious or critical, the ones no page may have."""
    return [v for v in violations(page) if v["impact"] in GRAVE]


def describe(found: list[dict[str, Any]]) -> str:
    """The violations in words, one per line with the elements it names."""
    lines = []
    for v in found:
        targets = ", ".join(n["target"] for n in v["nodes"][:6])
        lines.append(f"[{v['impact']}] {v['id']}: {v['help']} ({len(v['nodes'])}): {targets}")
    return "\n".join(lines)
