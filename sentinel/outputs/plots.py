"""Small SVG charts drawn by hand: scatter, histogram and bars. No dependencies, no network.

Each function returns one `<svg>` element as a string, ready to inline in HTML or to save as an
.svg file. Text is escaped; sizes are in CSS pixels. Data comes in `Series`:

    from sentinel.outputs.plots import Series, scatter_svg, histogram_svg, bars_svg

    svg = scatter_svg([Series("poll", points=[(60, 0.02), (300, 0.11)]),
                       Series("diff", points=[(60, 0.01), (300, 0.03)])],
                      x_label="condition_at (sim s)", y_label="cost ($)", title="Cost against condition time")
    svg = histogram_svg([Series("oracle", values=[0.1, 0.4, 0.2])], x_label="reaction (s)", title="Reaction")
    svg = bars_svg(["micromail", "microhood"], [Series("oracle", values=[0.9, 1.0], errors=[0.05, 0.0])],
                   y_label="success", title="Success by environment", percent=True)

Each series gets a colour of its own (the Okabe–Ito palette, readable by colour-blind people)
unless it names one, and several series get a legend.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#8C6D00", "#000000")
FONT = 'font-family="system-ui, -apple-system, Segoe UI, Helvetica, Arial, sans-serif"'
CHAR_W = 6.8  # average width of a 12 px character, for laying out labels
AXIS = "#555"
GRID = "#e3e3e3"


@dataclass(frozen=True)
class Series:
    """One named set of data. scatter_svg reads `points` ((x, y) or (x, y, label) — the label
    becomes the point's tooltip); histogram_svg reads `values` (raw samples); bars_svg reads
    `values` (one per category) and optional `errors` (drawn as ± whiskers)."""
    name: str
    points: Sequence[tuple] = ()
    values: Sequence[float] = ()
    errors: Sequence[float] = ()
    color: str | None = None


def series_color(index: int, series: Series | None = None) -> str:
    """The colour of the index-th series (its own colour if it names one)."""
    if series is not None and series.color:
        return series.color
    return PALETTE[index % len(PALETTE)]


# --- scales and ticks ------------------------------------------------------------------------

def nice_step(span: float, count: int = 5) -> float:
    """A round step (1, 2, 2.5 or 5 × 10^n) that cuts span into about count parts."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 2.5, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power


def nice_ticks(low: float, high: float, count: int = 5, integers: bool = False) -> list[float]:
    """Round tick values covering [low, high] (the first ≤ low, the last ≥ high); with
    integers=True the step is a whole number (for counts such as k)."""
    if high <= low:
        high = low + 1
    step = nice_step(high - low, count)
    if integers:
        step = max(1.0, round(step))
    start = math.floor(low / step + 1e-9) * step
    ticks = []
    value = start
    while value < high + step * 0.999:
        ticks.append(round(value, 10))
        value += step
    if len(ticks) < 2:
        ticks.append(round(start + step, 10))
    return ticks


def format_number(value: float, step: float = 0.0, percent: bool = False) -> str:
    """A tick label: as many decimals as the step needs; percent shows 0.25 as 25%."""
    if percent:
        value, step = value * 100, step * 100
    if step:
        decimals = next(d for d in range(7) if abs(round(step, d) - step) < 1e-9 * max(1.0, step) or d == 6)
    else:
        decimals = 0 if value == int(value) else (2 if abs(value) < 10 else 1)
    text = f"{value:,.{decimals}f}"
    return text + "%" if percent else text


@dataclass(frozen=True)
class Frame:
    """The plotting area inside the svg and the data ranges it maps."""
    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    x_ticks: Sequence[float]
    y_ticks: Sequence[float]

    def x(self, value: float) -> float:
        low, high = self.x_ticks[0], self.x_ticks[-1]
        return self.left + (value - low) / (high - low) * (self.right - self.left)

    def y(self, value: float) -> float:
        low, high = self.y_ticks[0], self.y_ticks[-1]
        return self.bottom - (value - low) / (high - low) * (self.bottom - self.top)


# --- pieces of a chart ------------------------------------------------------------------------

def svg_text(x: float, y: float, text: str, *, size: int = 12, anchor: str = "middle", weight: str = "normal",
             fill: str = "#222", extra: str = "") -> str:
    """One escaped <text> element (extra: more attributes, e.g. a transform)."""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}" {extra}>{escape(text)}</text>')


def _open(width: int, height: int, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {FONT}>',
            f"<title>{escape(title)}</title>",
            f'<rect width="{width}" height="{height}" fill="#fff"/>',
            svg_text(width / 2, 20, title, size=14, weight="600")]


def _legend(series: Sequence[Series], width: int, y: float) -> list[str]:
    """One row of colour keys, centred under the title; nothing for a single series."""
    if len(series) < 2:
        return []
    widths = [24 + len(s.name) * CHAR_W for s in series]
    x = max(4.0, (width - sum(widths)) / 2)
    parts = []
    for i, (s, w) in enumerate(zip(series, widths, strict=True)):
        parts.append(f'<rect x="{x:.1f}" y="{y - 9:.1f}" width="12" height="12" rx="2" fill="{series_color(i, s)}"/>')
        parts.append(svg_text(x + 16, y + 1, s.name, anchor="start"))
        x += w
    return parts


def _top(series: Sequence[Series]) -> float:
    return 58.0 if len(series) > 1 else 36.0


def _axes(frame: Frame, x_label: str, y_label: str, *, x_percent: bool = False, y_percent: bool = False,
          x_labels: bool = True) -> list[str]:
    """Grid lines, tick labels, axis lines and axis titles."""
    parts = []
    y_step = frame.y_ticks[1] - frame.y_ticks[0]
    for tick in frame.y_ticks:
        y = frame.y(tick)
        parts.append(f'<line x1="{frame.left:.1f}" x2="{frame.right:.1f}" y1="{y:.1f}" y2="{y:.1f}" '
                     f'stroke="{GRID}"/>')
        parts.append(svg_text(frame.left - 6, y + 4, format_number(tick, y_step, y_percent), anchor="end", fill=AXIS))
    if x_labels:
        x_step = frame.x_ticks[1] - frame.x_ticks[0]
        for tick in frame.x_ticks:
            x = frame.x(tick)
            parts.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{frame.bottom:.1f}" y2="{frame.bottom + 4:.1f}" '
                         f'stroke="{AXIS}"/>')
            parts.append(svg_text(x, frame.bottom + 17, format_number(tick, x_step, x_percent), fill=AXIS))
    parts.append(f'<line x1="{frame.left:.1f}" x2="{frame.right:.1f}" y1="{frame.bottom:.1f}" '
                 f'y2="{frame.bottom:.1f}" stroke="{AXIS}"/>')
    parts.append(f'<line x1="{frame.left:.1f}" x2="{frame.left:.1f}" y1="{frame.top:.1f}" '
                 f'y2="{frame.bottom:.1f}" stroke="{AXIS}"/>')
    parts.append(svg_text((frame.left + frame.right) / 2, frame.height - 8, x_label, fill="#333"))
    middle = (frame.top + frame.bottom) / 2
    parts.append(svg_text(14, middle, y_label, fill="#333", extra=f'transform="rotate(-90 14 {middle:.1f})"'))
    return parts


def _close(parts: list[str], frame: Frame, empty: bool) -> str:
    """End the svg; a chart without data says so in its middle."""
    if empty:
        parts.append(svg_text((frame.left + frame.right) / 2, (frame.top + frame.bottom) / 2, "no data", size=13,
                              fill="#888"))
    return "\n".join(parts + ["</svg>"])


def _left_margin(ticks: Sequence[float], percent: bool) -> float:
    step = ticks[1] - ticks[0]
    longest = max(len(format_number(t, step, percent)) for t in ticks)
    return 30 + longest * CHAR_W


def _frame(width: int, height: int, top: float, x_ticks, y_ticks, *, bottom_margin: float = 46,
           y_percent: bool = False) -> Frame:
    return Frame(width, height, left=_left_margin(y_ticks, y_percent), top=top, right=width - 18,
                 bottom=height - bottom_margin, x_ticks=x_ticks, y_ticks=y_ticks)


# --- charts -------------------------------------------------------------------------------------

def scatter_svg(series: Sequence[Series], *, x_label: str, y_label: str, title: str, width: int = 640,
                height: int = 360, lines: bool = False, y_percent: bool = False, x_integers: bool = False,
                x_range: tuple[float, float] | None = None, y_range: tuple[float, float] | None = None) -> str:
    """Points of each series (lines=True joins them in x order). y_percent labels 0.5 as 50%;
    x_integers puts x ticks on whole numbers only. Both axes start at 0 (or below, for negative
    data) unless x_range / y_range fix them."""
    xs = [p[0] for s in series for p in s.points]
    ys = [p[1] for s in series for p in s.points]
    x_ticks = nice_ticks(*(x_range or _padded(xs)), integers=x_integers)
    y_ticks = nice_ticks(*(y_range or _padded(ys)))
    frame = _frame(width, height, _top(series), x_ticks, y_ticks, y_percent=y_percent)
    parts = _open(width, height, title) + _legend(series, width, 44) + _axes(frame, x_label, y_label,
                                                                                y_percent=y_percent)
    for i, s in enumerate(series):
        color = series_color(i, s)
        if lines and len(s.points) > 1:
            path = " ".join(f"{frame.x(p[0]):.1f},{frame.y(p[1]):.1f}" for p in sorted(s.points))
            parts.append(f'<polyline points="{path}" fill="none" stroke="{color}" stroke-width="2"/>')
        for point in s.points:
            label = point[2] if len(point) > 2 else f"{s.name}: ({point[0]:g}, {point[1]:g})"
            parts.append(f'<circle cx="{frame.x(point[0]):.1f}" cy="{frame.y(point[1]):.1f}" r="4.5" '
                         f'fill="{color}" fill-opacity="0.8" stroke="#fff" stroke-width="1">'
                         f"<title>{escape(str(label))}</title></circle>")
    return _close(parts, frame, empty=not xs)


def _padded(values: Sequence[float]) -> tuple[float, float]:
    """From 0 (or the lowest value) to a little above the highest, so no point sits on the frame."""
    low, high = min([0.0, *values]), max(values, default=1.0)
    return low, high + (high - low) * 0.04


def histogram_bins(values: Sequence[float], bins: int = 12) -> tuple[float, float, int]:
    """(start, bin width, number of bins) with round edges that cover every value."""
    low, high = min(values, default=0.0), max(values, default=1.0)
    width = nice_step(high - low if high > low else max(abs(high), 1.0), bins)
    start = math.floor(low / width + 1e-9) * width
    count = max(1, math.floor((high - start) / width + 1e-9) + 1)
    return start, width, count


def histogram_svg(series: Sequence[Series], *, x_label: str, title: str, y_label: str = "sessions",
                  bins: int = 12, width: int = 640, height: int = 360) -> str:
    """How the `values` of each series are spread, on shared round bins (side by side per bin)."""
    values = [v for s in series for v in s.values]
    start, bin_w, count = histogram_bins(values, bins)
    counts = [[0] * count for _ in series]
    for i, s in enumerate(series):
        for v in s.values:
            counts[i][min(count - 1, int((v - start) // bin_w))] += 1
    x_ticks = nice_ticks(start, start + count * bin_w, 6)
    tallest = max((c for row in counts for c in row), default=0)
    y_ticks = nice_ticks(0, max(tallest, 1), min(5, max(tallest, 1)))
    y_ticks = [t for t in y_ticks if t == int(t)] if tallest <= 5 else y_ticks
    frame = _frame(width, height, _top(series), x_ticks, y_ticks)
    parts = _open(width, height, title) + _legend(series, width, 44) + _axes(frame, x_label, y_label)
    drawn = [i for i, s in enumerate(series) if s.values]  # an empty series takes no room in a bin
    slot = (frame.x(start + bin_w) - frame.x(start)) / max(1, len(drawn))
    for place, i in enumerate(drawn):
        s = series[i]
        for b, n in enumerate(counts[i]):
            if not n:
                continue
            x = frame.x(start + b * bin_w) + place * slot
            y = frame.y(n)
            edges = f"{start + b * bin_w:g} – {start + (b + 1) * bin_w:g}"
            parts.append(f'<rect x="{x + 0.5:.1f}" y="{y:.1f}" width="{max(1.0, slot - 1):.1f}" '
                         f'height="{frame.bottom - y:.1f}" fill="{series_color(i, s)}" fill-opacity="0.85">'
                         f"<title>{escape(s.name)}: {n} in {escape(edges)}</title></rect>")
    return _close(parts, frame, empty=not values)


def bars_svg(categories: Sequence[str], series: Sequence[Series], *, y_label: str, title: str,
             width: int = 640, height: int = 360, percent: bool = False, y_max: float | None = None) -> str:
    """Grouped bars: for each category one bar per series (its `values[i]`, ± `errors[i]`).
    percent=True labels 0.5 as 50% and, without y_max, fixes the axis at 0–100%."""
    tops = [v + (s.errors[j] if j < len(s.errors) else 0) for s in series for j, v in enumerate(s.values)]
    y_max = y_max if y_max is not None else (1.0 if percent else max(tops, default=1.0))
    y_ticks = nice_ticks(0, max(y_max, 1e-9))
    slot_w = (width - _left_margin(y_ticks, percent) - 18) / max(1, len(categories))
    longest = max((len(c) * CHAR_W for c in categories), default=0)
    tilted = longest > slot_w - 6
    bottom = 30 + (longest * 0.55 if tilted else 0)
    frame = _frame(width, height, _top(series), [0, max(1, len(categories))], y_ticks,
                   bottom_margin=bottom, y_percent=percent)
    parts = _open(width, height, title) + _legend(series, width, 44)
    parts += _axes(frame, "", y_label, y_percent=percent, x_labels=False)
    bar_w = slot_w * 0.8 / max(1, len(series))
    for c, name in enumerate(categories):
        x0 = frame.left + c * slot_w + slot_w * 0.1
        for i, s in enumerate(series):
            if c >= len(s.values):
                continue
            value = s.values[c]
            x, y = x0 + i * bar_w, frame.y(min(value, y_ticks[-1]))
            shown = format_number(value, 0.01, percent=True) if percent else format_number(value)
            parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{max(1.0, bar_w - 2):.1f}" '
                         f'height="{frame.bottom - y:.1f}" fill="{series_color(i, s)}">'
                         f"<title>{escape(s.name)} · {escape(name)}: {shown}</title></rect>")
            if c < len(s.errors) and s.errors[c]:
                parts.append(_whisker(frame, x + (bar_w - 2) / 2, value, s.errors[c]))
            elif bar_w >= len(shown) * CHAR_W * 0.85 + 4:  # room for the value: inside a tall bar, else above
                inside = frame.bottom - y > 20
                parts.append(svg_text(x + (bar_w - 2) / 2, y + 14 if inside else y - 4, shown, size=11,
                                      fill="#fff" if inside else AXIS))
        label_x, label_y = frame.left + (c + 0.5) * slot_w, frame.bottom + 17
        if tilted:
            parts.append(svg_text(label_x, label_y, name, anchor="end", fill=AXIS,
                               extra=f'transform="rotate(-35 {label_x:.1f} {label_y - 4:.1f})"'))
        else:
            parts.append(svg_text(label_x, label_y, name, fill=AXIS))
    return _close(parts, frame, empty=not categories)


def _whisker(frame: Frame, x: float, value: float, error: float) -> str:
    low = frame.y(max(frame.y_ticks[0], value - error))
    high = frame.y(min(frame.y_ticks[-1], value + error))
    return (f'<path d="M{x:.1f},{low:.1f} V{high:.1f} M{x - 4:.1f},{low:.1f} H{x + 4:.1f} '
            f'M{x - 4:.1f},{high:.1f} H{x + 4:.1f}" stroke="#222" stroke-width="1.2" fill="none"/>')


def steps_svg(series: Sequence[Series], *, x_label: str, y_label: str, title: str, x_max: float,
              width: int = 640, height: int = 360, y_percent: bool = True,
              marker: tuple[float, str] | None = None) -> str:
    """Step curves from x = 0 to x_max on a 0–1 y axis: each series' `points` are (x, y) corners
    in x order, y holding until the next corner. marker = (x, label) draws a dashed vertical line."""
    x_ticks = nice_ticks(0.0, x_max, 6)
    y_ticks = nice_ticks(0.0, 1.0)
    frame = _frame(width, height, _top(series), x_ticks, y_ticks, y_percent=y_percent)
    parts = _open(width, height, title) + _legend(series, width, 44) + _axes(frame, x_label, y_label,
                                                                                y_percent=y_percent)
    if marker is not None and 0 <= marker[0] <= x_ticks[-1]:
        at = frame.x(marker[0])
        parts.append(f'<line x1="{at:.1f}" x2="{at:.1f}" y1="{frame.top:.1f}" y2="{frame.bottom:.1f}" '
                     f'stroke="{AXIS}" stroke-width="1.2" stroke-dasharray="5 4"/>')
        parts.append(svg_text(at + 4, frame.top + 12, marker[1], anchor="start", fill=AXIS, size=11))
    for i, s in enumerate(series):
        corners = sorted((float(p[0]), float(p[1])) for p in s.points if 0 <= p[0] <= x_max)
        if not corners:
            continue
        path = [f"M{frame.x(corners[0][0]):.1f},{frame.y(corners[0][1]):.1f}"]
        for x, y in corners[1:]:
            path.append(f"H{frame.x(x):.1f} V{frame.y(y):.1f}")
        path.append(f"H{frame.x(x_max):.1f}")
        last = corners[-1][1]
        shown = format_number(last, 0.001, percent=True) if y_percent else format_number(last)
        parts.append(f'<path d="{" ".join(path)}" fill="none" stroke="{series_color(i, s)}" stroke-width="2.2">'
                     f"<title>{escape(s.name)}: {shown} at {format_number(x_max)}</title></path>")
    return _close(parts, frame, empty=not any(s.points for s in series))
