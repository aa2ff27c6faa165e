"""The filters page templates use (`{{ created_at | when(now) }}`, `money`, `hide_glyphs`, ...),
and the escaping every printed value goes through: escape_output is what autoescaping does to
`{{ value }}`, without building a Markup per value (sentinel/web/fast_output.py makes templates
call it).
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from markupsafe import Markup, escape

from sentinel.world.state import parse_iso


def escape_text(text: str) -> str:
    """markupsafe's escaping of plain text (& < > " ' as &amp; &lt; &gt; &#34; &#39;, checked
    against markupsafe.escape in tests) without the Markup it wraps the result in. Most printed
    text has none of the five: five `in` tests find that without building anything."""
    if "&" in text or "<" in text or ">" in text or '"' in text or "'" in text:
        return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace('"', "&#34;").replace("'", "&#39;"))
    return text


# Escaped texts remembered: a page prints the same names, subjects, links and labels render
# after render, and looking one up costs less than checking it again. Texts longer than
# MEMO_CHARS (message bodies) are escaped each time; the memo starts over when full.
_ESCAPED: dict[str, str] = {}
MAX_ESCAPED = 8192
MEMO_CHARS = 200


def escape_output(value: Any) -> str:
    """What autoescaping does to `{{ value }}`, without wrapping each piece in a Markup: the
    piece goes straight into the page, so its type never matters. Markup and other objects with
    __html__ print as they are; everything else is converted to text and escaped as
    escape_text does. markupsafe.escape spends most of its time building the Markup (0.4 µs a
    value against 0.05 µs here), and a list page prints hundreds."""
    if value.__class__ is str:
        done = _ESCAPED.get(value)
        if done is None:
            done = escape_text(value)
            if len(value) <= MEMO_CHARS:
                if len(_ESCAPED) >= MAX_ESCAPED:
                    _ESCAPED.clear()
                _ESCAPED[value] = done
        return done
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape_text(str(value))


@lru_cache(maxsize=8192)
def _parsed(text: str) -> datetime:
    return parse_iso(text)


def _moment(value: str | datetime) -> datetime:
    return _parsed(value) if isinstance(value, str) else value


class _Moment(NamedTuple):
    """What the time filters need of one timestamp, computed once per distinct value."""

    moment: datetime
    date: str  # "Mar 3": what reltime says past a week
    time_open: str  # '<time datetime="…" title="…">' (the `when` filter's opening tag)


@lru_cache(maxsize=8192)  # a page lists dozens of the same few moments, page after page
def _moment_of(value: str | datetime) -> _Moment:
    moment = _moment(value)
    return _Moment(moment, f"{moment:%b} {moment.day}",
                   f'<time datetime="{escape(value)}" title="{escape(fulltime(value))}">')


# reltime's texts, built once: "N min ago" (1-59), "N h ago" (1-23), "N days ago" (2-6)
_MINUTES = tuple(f"{n} min ago" for n in range(60))
_HOURS = tuple(f"{n} h ago" for n in range(24))
_DAYS = ("", "yesterday", *(f"{n} days ago" for n in range(2, 7)))


def _relative(known: _Moment, now: datetime) -> str:
    """reltime's text for a moment already looked up."""
    seconds = (now - known.moment).total_seconds()
    if seconds < 60:
        return "just now"
    whole = int(seconds)  # positive here: truncating is flooring
    if whole < 3600:
        return _MINUTES[whole // 60]
    if whole < 86400:
        return _HOURS[whole // 3600]
    days = whole // 86400
    return _DAYS[days] if days < 7 else known.date


def reltime(value: str | datetime, now: datetime) -> str:
    """'just now', 'N min ago', 'N h ago', 'yesterday', 'N days ago', then 'Mar 3'."""
    return _relative(_moment_of(value), now)


@lru_cache(maxsize=8192)
def fulltime(value: str | datetime) -> str:
    moment = _moment(value)
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} UTC"


def when(value: str | datetime, now: datetime) -> Markup:
    """`{{ created_at | when(now) }}`: a <time> element with the relative time as its text and
    the full date-time in its title. The same markup as the `when` macro of common/macros.html,
    without a macro call per row (a list prints dozens). Its parts are escaped; reltime's own
    text ("3 min ago", "Mar 3") is letters, digits and spaces, so the result is built as Markup
    directly (Markup(text) would first ask the text for an __html__ it cannot have)."""
    known = _moment_of(value)
    text = known.time_open + _relative(known, now) + "</time>"
    return str.__new__(Markup, text)


def _luminance(hex_color: str) -> float | None:
    """WCAG relative luminance of #rgb / #rrggbb, or None for anything else."""
    digits = hex_color.strip().lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    if len(digits) != 6 or any(d not in "0123456789abcdefABCDEF" for d in digits):
        return None
    channels = [int(digits[i:i + 2], 16) / 255 for i in (0, 2, 4)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


@lru_cache(maxsize=256)
def avatar_colors(background: str | None) -> str:
    """`style="{{ person.avatar_color | avatar_colors }}"`: the avatar's background and the ink
    its initials need to be readable on it (white unless white falls below a 4.5:1 contrast)."""
    background = background or "#777"
    luminance = _luminance(background)
    ink = "#111" if luminance is not None and 1.05 / (luminance + 0.05) < 4.5 else "#fff"
    return f"background: {background}; color: {ink}"


def money(value: float) -> str:
    return f"${value:,.2f}"


def signed_money(value: float) -> str:
    sign = "+" if value >= 0 else "−"
    return f"{sign}${abs(value):,.2f}"


def percent(value: float) -> str:
    sign = "+" if value >= 0 else "−"
    return f"{sign}{abs(value):.2f}%"


def filesize(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


# Glyphs printed beside words as decoration (☆ Save, Liked ✓, ✓ checks passed, ← Back): a
# screen reader or an agent reading the accessibility tree should get the words alone. A glyph
# that stands for words on its own (✉ 3) needs those words in its template, not this.
DECORATIVE_GLYPHS = "★☆☐☑✓✗●◉○⊘✉❞📎▶♥♡♫💬⎇≡▸↗↙⚖▣←→‹›"
_GLYPH_RUN = re.compile(f"[{re.escape(DECORATIVE_GLYPHS)}]+")


@lru_cache(maxsize=1024)
def _hidden_glyphs(text: str) -> Markup:
    return Markup(_GLYPH_RUN.sub(lambda run: f'<span aria-hidden="true">{run.group()}</span>', escape_text(text)))


def hide_glyphs(text: Any) -> Markup:
    """`{{ label | hide_glyphs }}`: the label escaped, each run of DECORATIVE_GLYPHS in it wrapped
    in <span aria-hidden="true">: "Liked ✓ (click to unlike)" is named "Liked (click to unlike)"
    in the accessibility tree, and its text (what the text browser reads) stays the same."""
    if hasattr(text, "__html__"):
        return Markup(text.__html__())  # already HTML: left as it is
    return _hidden_glyphs(str(text))


# name → filter, as page templates know them (make_templates registers them all)
FILTERS = {"reltime": reltime, "fulltime": fulltime, "when": when, "money": money, "avatar_colors": avatar_colors,
           "signed_money": signed_money, "percent": percent, "filesize": filesize, "hide_glyphs": hide_glyphs}
# The filters whose value never depends on autoescape being on (only on their operands): the
# output rewrite may call them where autoescape is off.
AUTOESCAPE_FREE = (reltime, fulltime, when, money, signed_money, percent, filesize)
