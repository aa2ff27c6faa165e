"""Calendar arithmetic and layout, pure: month grids, weeks, clock labels, overlapping events side by side."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from typing import Any

CATEGORIES = ("work", "personal", "family")
CATEGORY_LABELS = {"work": "Work", "personal": "Personal", "family": "Family"}
DAY_STARTS = time(9, 0)  # the time of day at sim 0 (docs/environments.md#microlendar)
WEEK_STARTS_ON = 6  # Sunday (date.weekday(): Monday 0 … Sunday 6), as Google Calendar in the US


def calendar_now(today: date, sim_seconds: float) -> datetime:
    return datetime.combine(today, DAY_STARTS) + timedelta(seconds=sim_seconds)


def clock(text: str) -> str:
    """'09:00' → '9:00am', '13:30' → '1:30pm', '00:15' → '12:15am'."""
    hours, minutes = int(text[:2]), int(text[3:5])
    return f"{(hours % 12) or 12}:{minutes:02d}{'am' if hours < 12 else 'pm'}"


def minutes_of(text: str) -> int:
    """'YYYY-MM-DDTHH:MM' (or 'HH:MM') → minutes after midnight."""
    return int(text[-5:-3]) * 60 + int(text[-2:])


def week_start(day: date) -> date:
    return day - timedelta(days=(day.weekday() - WEEK_STARTS_ON) % 7)


def week_days(day: date) -> list[date]:
    first = week_start(day)
    return [first + timedelta(days=i) for i in range(7)]


def month_grid(year: int, month: int) -> list[list[date]]:
    """The 6×7 grid of a month view: six weeks from the week that holds the 1st."""
    first = week_start(date(year, month, 1))
    return [[first + timedelta(days=7 * w + d) for d in range(7)] for w in range(6)]


def shift_month(year: int, month: int, by: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + by
    return index // 12, index % 12 + 1


def long_date(day: date) -> str:
    """'Tuesday, June 17, 2025'."""
    return f"{day:%A}, {day:%B} {day.day}, {day.year}"


def short_date(day: date) -> str:
    """'Tue, Jun 17'."""
    return f"{day:%a}, {day:%b} {day.day}"


def time_range(start_at: str, end_at: str, all_day: int) -> str:
    return "All day" if all_day else f"{clock(start_at[11:16])} – {clock(end_at[11:16])}"


@dataclass(frozen=True)
class Placed:
    """A timed event placed in its day column: column `col` of `cols` side by side."""

    event: Any
    col: int
    cols: int
    top: int  # minutes after midnight
    length: int  # minutes (at least 15, so a short event stays readable)


def side_by_side(events: Sequence[Any]) -> list[Placed]:
    """Lay out one day's timed events: overlapping ones share the width in columns. Events are taken by start
    time; a cluster is a run of transitively overlapping events, each in the first column free at its start."""
    ordered = sorted(events, key=lambda e: (e["start_at"], e["end_at"]))
    placed: list[Placed] = []
    cluster: list[tuple[Any, int, int, int]] = []  # event, col, start, end
    column_ends: list[int] = []
    cluster_end = -1

    def flush() -> None:
        for event, col, start, end in cluster:
            placed.append(Placed(event, col, len(column_ends), start, max(15, end - start)))

    for event in ordered:
        start, end = minutes_of(event["start_at"]), max(minutes_of(event["end_at"]), minutes_of(event["start_at"]) + 1)
        if cluster and start >= cluster_end:
            flush()
            cluster, column_ends = [], []
        col = next((i for i, last in enumerate(column_ends) if last <= start), len(column_ends))
        if col == len(column_ends):
            column_ends.append(end)
        column_ends[col] = end
        cluster.append((event, col, start, end))
        cluster_end = max(cluster_end, end)
    flush()
    return placed
