"""The bankroll chart, drawn as SVG by the server (it renders with no network and
no script). A line of the player's total chips over time, the area under it shaded, the
highest and lowest values and the first and last dates written on the axes.
"""

from __future__ import annotations

from datetime import datetime
from html import escape

from app.review.stats import Point

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 24, 36


def _label(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def _chips(n: int) -> str:
    return f"{n:,}"


def bankroll_svg(points: list[Point], name: str) -> str:
    """A self-contained SVG document (no external fonts, styles or scripts)."""
    title = escape(f"{name}: chips over time")
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'width="{WIDTH}" height="{HEIGHT}" role="img" aria-labelledby="t d" '
        f'font-family="system-ui, sans-serif" font-size="12">'
        f'<title id="t">{title}</title>'
    )
    frame = (
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="10" fill="#0f241b"/>'
        f'<line x1="{LEFT}" y1="{HEIGHT - BOTTOM}" x2="{WIDTH - RIGHT}" '
        f'y2="{HEIGHT - BOTTOM}" stroke="#5d7d6c" stroke-width="1"/>'
        f'<line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{HEIGHT - BOTTOM}" '
        f'stroke="#5d7d6c" stroke-width="1"/>'
    )
    if not points:
        return (
            head
            + '<desc id="d">No chips have moved yet.</desc>'
            + frame
            + f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" fill="#cfe3d6" text-anchor="middle">'
            "No hands yet</text></svg>"
        )
    lowest = min(p.chips for p in points)
    highest = max(p.chips for p in points)
    pad = max(10, (highest - lowest) // 10)
    low, high = max(0, lowest - pad), highest + pad
    start, end = points[0].at.timestamp(), points[-1].at.timestamp()
    span = end - start
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int, p: Point) -> float:
        if span <= 0:
            return LEFT + inner_w * (i / max(1, len(points) - 1))
        return LEFT + inner_w * (p.at.timestamp() - start) / span

    def y(chips: int) -> float:
        return TOP + inner_h * (1 - (chips - low) / (high - low))

    coords = [(x(i, p), y(p.chips)) for i, p in enumerate(points)]
    if len(coords) == 1:
        coords.append((LEFT + inner_w, coords[0][1]))
    line = " ".join(f"{cx:.1f},{cy:.1f}" for cx, cy in coords)
    base = y(low)
    area = f"{coords[0][0]:.1f},{base:.1f} {line} {coords[-1][0]:.1f},{base:.1f}"
    last = points[-1]
    desc = escape(
        f"From {_chips(points[0].chips)} chips on {_label(points[0].at)} to "
        f"{_chips(last.chips)} on {_label(last.at)}; highest {_chips(highest)}, "
        f"lowest {_chips(lowest)}; {len(points)} points."
    )
    gridlines = "".join(
        f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{WIDTH - RIGHT}" y2="{y(v):.1f}" '
        f'stroke="#24503b" stroke-dasharray="3 4"/>'
        f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" fill="#cfe3d6" text-anchor="end">'
        f"{_chips(v)}</text>"
        for v in sorted({lowest, highest, (lowest + highest) // 2})
    )
    return (
        head
        + f'<desc id="d">{desc}</desc>'
        + frame
        + gridlines
        + f'<polygon points="{area}" fill="#e0b34a" fill-opacity="0.18"/>'
        + f'<polyline points="{line}" fill="none" stroke="#e0b34a" stroke-width="2" '
        'stroke-linejoin="round" stroke-linecap="round"/>'
        + f'<circle cx="{coords[-1][0]:.1f}" cy="{coords[-1][1]:.1f}" r="4" fill="#e0b34a"/>'
        + f'<text x="{LEFT}" y="{HEIGHT - 12}" fill="#cfe3d6">{_label(points[0].at)}</text>'
        + f'<text x="{WIDTH - RIGHT}" y="{HEIGHT - 12}" fill="#cfe3d6" text-anchor="end">'
        f"{_label(last.at)}</text>"
        + f'<text x="{WIDTH - RIGHT}" y="{TOP - 8}" fill="#ffffff" text-anchor="end" '
        f'font-weight="600">{_chips(last.chips)} chips</text>' + "</svg>"
    )
