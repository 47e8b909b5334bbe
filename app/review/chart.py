"""The bankroll chart, drawn as SVG by the server (it renders with no network and
no script). A line of the player's total chips over time, the area under it shaded, the
highest and lowest values and the first and last dates written on the axes.

Its words (the title, the description a screen reader reads, "1,000 chips") are the reader's
language's, its numbers written as that language writes them (docs/i18n.md); the dates are
written the same in every language (``2026-11-28 21:04``).
"""

from __future__ import annotations

from datetime import datetime
from html import escape

from app.i18n.catalogs import translations
from app.i18n.formats import number
from app.i18n.messages import N_
from app.review.stats import Point

WIDTH, HEIGHT = 720, 260
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 24, 36


def _label(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M")


def bankroll_svg(points: list[Point], name: str, locale: str = "en") -> str:
    """A self-contained SVG document (no external fonts, styles or scripts), its words in
    ``locale``."""
    catalog = translations(locale)

    def figure(n: int) -> str:
        return number(n, locale)

    def chips_words(n: int) -> str:
        return catalog.ngettext("{n} chip", "{n} chips", n).format(n=figure(n))

    title = escape(catalog.gettext(N_("{name}: chips over time")).format(name=name))
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
        nothing_moved = catalog.gettext(N_("No chips have moved yet."))
        no_hands = catalog.gettext(N_("No hands yet"))
        return (
            head
            + f'<desc id="d">{escape(nothing_moved)}</desc>'
            + frame
            + f'<text x="{WIDTH / 2}" y="{HEIGHT / 2}" fill="#cfe3d6" text-anchor="middle">'
            f"{escape(no_hands)}</text></svg>"
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
        catalog.ngettext(
            "From {first} on {start} to {last} on {end}; highest {highest}, lowest {lowest};"
            " {n} point.",
            "From {first} on {start} to {last} on {end}; highest {highest}, lowest {lowest};"
            " {n} points.",
            len(points),
        ).format(
            first=chips_words(points[0].chips),
            start=_label(points[0].at),
            last=chips_words(last.chips),
            end=_label(last.at),
            highest=figure(highest),
            lowest=figure(lowest),
            n=figure(len(points)),
        )
    )
    gridlines = "".join(
        f'<line x1="{LEFT}" y1="{y(v):.1f}" x2="{WIDTH - RIGHT}" y2="{y(v):.1f}" '
        f'stroke="#24503b" stroke-dasharray="3 4"/>'
        f'<text x="{LEFT - 6}" y="{y(v) + 4:.1f}" fill="#cfe3d6" text-anchor="end">'
        f"{figure(v)}</text>"
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
        f'font-weight="600">{escape(chips_words(last.chips))}</text>' + "</svg>"
    )
