"""The stock page's inline SVG price chart: a polyline through the path's corners over [0, now]
draws it exactly. It is marked safe: it is made of numbers and the escaped symbol."""

from __future__ import annotations

from markupsafe import Markup, escape

from sentinel.envs.microhood.prices import Point

WIDTH, HEIGHT = 640, 200
PAD_X, PAD_Y = 8, 14


def price_chart(symbol: str, corners: list[Point], start: float, low: float, high: float) -> Markup:
    until = corners[-1][0]
    span_t = until if until > 0 else 1.0
    values = [v for _, v in corners]
    top, bottom = max(values), min(values)
    if top - bottom < start * 0.002:  # a flat line: give it some room
        top, bottom = top + start * 0.01, bottom - start * 0.01

    def x(t: float) -> float:
        return PAD_X + (t / span_t) * (WIDTH - 2 * PAD_X)

    def y(v: float) -> float:
        return PAD_Y + (top - v) / (top - bottom) * (HEIGHT - 2 * PAD_Y)

    if until > 0:
        line = " ".join(f"{x(t):.1f},{y(v):.1f}" for t, v in corners)
    else:  # the clock has not started: one flat segment at the start price
        line = f"{PAD_X:.1f},{y(start):.1f} {WIDTH - PAD_X:.1f},{y(start):.1f}"
    last = corners[-1][1]
    colour = "#1a7f37" if last >= start else "#c62828"
    label = (f"Price chart for {escape(symbol)} from the open until now: "
             f"open ${start:,.2f}, low ${low:,.2f}, high ${high:,.2f}")
    base_y = y(start)
    return Markup(
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" width="100%" role="img" aria-label="{label}">'
        f"<title>{label}</title>"
        f'<line x1="{PAD_X}" y1="{base_y:.1f}" x2="{WIDTH - PAD_X}" y2="{base_y:.1f}" '
        f'stroke="#98a2ad" stroke-dasharray="4 4" stroke-width="1"/>'
        f'<polyline fill="none" stroke="{colour}" stroke-width="2" stroke-linejoin="round" points="{line}"/>'
        f"</svg>"
    )
