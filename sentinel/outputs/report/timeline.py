"""One session on one time axis: fired events above, the agent's requests below, and the
moments the condition held and the agent made contact. The axis is wall seconds after the
session clock started (sim time = wall × speed until contact freezes the world)."""

from __future__ import annotations

import json
from html import escape

from sentinel.outputs.plots import FONT, GRID, format_number, nice_ticks, svg_text
from sentinel.outputs.report.data import SessionData

WIDTH = 860
HEIGHT = 178
LEFT = 84
RIGHT = WIDTH - 24
EVENTS_Y = 70
SHOTS_Y = 50
REQUESTS_TOP, REQUESTS_BOTTOM = 94, 122
AXIS_Y = 134

COLORS = {"event": "#009E73", "page": "#0072B2", "live": "#9fb3c8", "error": "#D55E00", "contact": "#E69F00",
          "condition": "#1a7f37", "shot": "#CC79A7"}


def request_kind(record: dict) -> str:
    if record.get("path", "").startswith("/contact"):
        return "contact"
    if int(record.get("status") or 0) >= 400:
        return "error"
    return "live" if record.get("live") else "page"


def shorten(value, limit: int = 160) -> str:
    text = value if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def condition_wall_s(session: SessionData) -> float | None:
    r = session.result
    return None if r.condition_at is None else r.condition_at / r.speed


def contact_wall_s(session: SessionData) -> float | None:
    """Contact happened at completion_s wall seconds (grading measures it so)."""
    r = session.result
    return r.completion_s if r.contact_at is not None else None


def timeline_svg(session: SessionData, shot_links: dict[str, str] | None = None) -> str:
    """The session's time axis; `shot_links` maps a screenshot's file to the address its marker opens."""
    requests = [q for q in session.requests if not str(q.get("path", "")).startswith("/static/")]
    moments = [float(e.get("actual_wall_s") or 0) for e in session.events]
    moments += [float(q.get("wall_s") or 0) for q in requests]
    moments += [m for m in (condition_wall_s(session), contact_wall_s(session), session.result.completion_s) if m]
    ticks = nice_ticks(0.0, (max(moments, default=1.0) or 1.0) * 1.03, 8)

    def x(seconds: float) -> float:
        return LEFT + seconds / ticks[-1] * (RIGHT - LEFT)

    title = f"Timeline of {session.result.scenario_id}"
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="{WIDTH}" height="{HEIGHT}" '
             f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}" {FONT}>',
             f"<title>{escape(title)}</title>", f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#fff"/>']
    parts += _axis(ticks, x)
    parts.append(svg_text(LEFT - 10, EVENTS_Y + 4, "events", anchor="end", fill="#444"))
    parts.append(svg_text(LEFT - 10, (REQUESTS_TOP + REQUESTS_BOTTOM) / 2 + 4, "requests", anchor="end", fill="#444"))
    parts += _markers(session, x)
    parts += [_event(e, x) for e in session.events]
    parts += _request_ticks(requests, x)
    if session.shots:
        parts.append(svg_text(LEFT - 10, SHOTS_Y + 4, "screens", anchor="end", fill="#444"))
        parts += _shot_marks(session, x, shot_links or {})
    parts.append("</svg>")
    return "\n".join(parts)


def _axis(ticks: list[float], x) -> list[str]:
    step = ticks[1] - ticks[0]
    parts = [f'<line x1="{LEFT}" x2="{RIGHT}" y1="{AXIS_Y}" y2="{AXIS_Y}" stroke="#555"/>']
    for tick in ticks:
        parts.append(f'<line x1="{x(tick):.1f}" x2="{x(tick):.1f}" y1="44" y2="{AXIS_Y + 4}" stroke="{GRID}"/>')
        parts.append(svg_text(x(tick), AXIS_Y + 17, format_number(tick, step), fill="#555"))
    parts.append(svg_text((LEFT + RIGHT) / 2, HEIGHT - 6, "wall seconds after the session clock started", fill="#333"))
    return parts


def _markers(session: SessionData, x) -> list[str]:
    """The condition and contact moments: vertical lines, labels on two rows so they never touch."""
    parts = []
    r = session.result
    for row, seconds, color, label in (
            (16, condition_wall_s(session), COLORS["condition"], f"condition holds · sim {r.condition_at or 0:g} s"),
            (34, contact_wall_s(session), COLORS["contact"], f"contact · sim {r.contact_at or 0:.2f} s")):
        if seconds is None:
            continue
        at = x(seconds)
        anchor = "start" if at < (LEFT + RIGHT) / 2 else "end"
        parts.append(f'<line x1="{at:.1f}" x2="{at:.1f}" y1="{row + 4}" y2="{AXIS_Y}" stroke="{color}" '
                     f'stroke-width="2" stroke-dasharray="5 3"/>')
        parts.append(svg_text(at + (4 if anchor == "start" else -4), row, label, anchor=anchor, fill=color,
                              weight="600"))
    return parts


def _event(event: dict, x) -> str:
    at = x(float(event.get("actual_wall_s") or 0))
    y = EVENTS_Y
    tip = (f"event #{event.get('index')} {event.get('type')} · scheduled sim {event.get('at')} s · "
           f"fired {float(event.get('actual_wall_s') or 0):.3f} wall s, {event.get('lateness_ms')} ms late · "
           f"{shorten(event.get('fields', {}))}")
    return (f'<path d="M{at:.1f},{y - 7} L{at + 6:.1f},{y} L{at:.1f},{y + 7} L{at - 6:.1f},{y} Z" '
            f'fill="{COLORS["event"]}" fill-opacity="0.85" stroke="#fff"><title>{escape(tip)}</title></path>')


def _request_ticks(requests: list[dict], x) -> list[str]:
    """One tick per pixel column and kind, so thousands of polls stay a small drawing."""
    columns: dict[tuple[int, str], list[dict]] = {}
    for record in requests:
        columns.setdefault((round(x(float(record.get("wall_s") or 0))), request_kind(record)), []).append(record)
    order = {"live": 0, "page": 1, "error": 2, "contact": 3}
    parts = []
    for (column, kind), records in sorted(columns.items(), key=lambda item: order[item[0][1]]):
        first = records[0]
        tip = (f"{len(records)} request(s) · {first.get('method')} {shorten(first.get('path', ''), 90)} → "
               f"{first.get('status')} at {float(first.get('wall_s') or 0):.3f} wall s (sim {first.get('sim')})")
        width = 3 if kind == "contact" else 1.5
        parts.append(f'<line x1="{column}" x2="{column}" y1="{REQUESTS_TOP}" y2="{REQUESTS_BOTTOM}" '
                     f'stroke="{COLORS[kind]}" stroke-width="{width}"><title>{escape(tip)}</title></line>')
    return parts


def _shot_marks(session: SessionData, x, links: dict[str, str]) -> list[str]:
    """One small square per screenshot, at its sim time on the wall axis, opening the picture."""
    speed = session.result.speed or 1.0
    parts = []
    for shot in session.shots:
        at = x(shot.sim / speed)
        tip = f"screenshot {shot.file} ({shot.reason}) of {shot.path} at sim {shot.sim:g} s"
        mark = (f'<rect x="{at - 3:.1f}" y="{SHOTS_Y - 4}" width="6" height="8" fill="{COLORS["shot"]}">'
                f"<title>{escape(tip)}</title></rect>")
        href = links.get(shot.file)
        parts.append(f'<a href="{escape(href)}">{mark}</a>' if href else mark)
    return parts
