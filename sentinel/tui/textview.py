"""TextView: a scrolling pane of rich Text drawn line by line, for the dashboard's detail pane.

Why not a Static in a VerticalScroll: a Static re-renders all of its lines whenever its text
changes, and a change of its height lays the whole screen out again (every widget repainted).
The detail pane changes at every tick (the selected session's sim clock) and grows while a
session runs (output lines, fired events). TextView wraps its text once per paragraph (kept
while the paragraph and the width stay the same), keeps one strip per line, and repaints only
the lines whose text changed. Its scrollable height grows in steps of HEIGHT_STEP lines and
never below the pane's own height, so a growing text lays the screen out only once per step.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from rich.text import Text
from textual.events import Key, Resize
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

HEIGHT_STEP = 16  # lines: the scrollable height grows by this much at a time
WRAP_CACHE = 512  # wrapped paragraphs kept


def paragraph_key(text: Text) -> tuple:
    return text.plain, tuple(text.spans), str(text.style)


class TextView(ScrollView):
    DEFAULT_CSS = """
    TextView { overflow-y: scroll; overflow-x: hidden; }
    """

    def __init__(self, text: Text | str = "", key_filter: Callable[[Key], bool] | None = None, **kwargs):
        """key_filter sees every key first and returns True for those it took (as RowList's)."""
        super().__init__(**kwargs)
        self.key_filter = key_filter
        self._text = Text(text) if isinstance(text, str) else text
        self._lines: list[Text] = []
        self._keys: list[tuple] = []
        self._strips: dict[tuple, Strip] = {}  # rendered lines by key
        self._wrapped: dict[tuple, list[Text]] = {}
        self._wrap_width = 0

    @property
    def text(self) -> Text:
        return self._text

    @property
    def plain(self) -> str:
        """The text shown, as plain text (what tests and captures read)."""
        return self._text.plain

    def update(self, text: Text | str) -> None:
        """Show text; only the lines that differ from what is shown are repainted."""
        self._text = Text(text) if isinstance(text, str) else text
        self._rewrap()

    def on_resize(self, event: Resize) -> None:
        self._rewrap()

    def on_key(self, event: Key) -> None:
        if self.key_filter is not None and self.key_filter(event):
            event.stop()
            event.prevent_default()

    def _width(self) -> int:
        return self.scrollable_content_region.width

    def _rewrap(self) -> None:
        width = self._width()
        if width <= 0:
            return
        if width != self._wrap_width:
            self._wrapped.clear()
            self._wrap_width = width
            self._keys = []  # every line is new at a new width
        lines = [line for paragraph in self._text.split("\n", allow_blank=True)
                 for line in self._wrap(paragraph, width)]
        keys = [paragraph_key(line) for line in lines]
        old = self._keys
        for n, key in enumerate(keys):
            if n >= len(old) or old[n] != key:
                self.refresh_line(n)
        for n in range(len(keys), len(old)):  # lines that are gone: blank them
            self.refresh_line(n)
        self._strips = {key: self._strips[key] for key in keys if key in self._strips}
        self._lines, self._keys = lines, keys
        self._grow_to(len(lines), width)

    def _wrap(self, paragraph: Text, width: int) -> list[Text]:
        key = paragraph_key(paragraph)
        lines = self._wrapped.get(key)
        if lines is None:
            if len(self._wrapped) >= WRAP_CACHE:
                self._wrapped.clear()
            lines = list(paragraph.wrap(self.app.console, width)) or [Text()]
            for line in lines:
                line.rstrip()
                line.end = ""
            self._wrapped[key] = lines
        return lines

    def _grow_to(self, count: int, width: int) -> None:
        """Set the scrollable height to fit count lines, changing it (a layout of the screen)
        only when the text outgrows it or shrinks by more than a step."""
        floor = max(self.scrollable_content_region.height, 1)
        height = self.virtual_size.height
        if height < max(count, floor) or height - HEIGHT_STEP > max(count, floor) or self.virtual_size.width != width:
            wanted = max(floor, -(-count // HEIGHT_STEP) * HEIGHT_STEP)
            self.virtual_size = Size(width, wanted)

    def render_line(self, y: int) -> Strip:
        index = y + self.scroll_offset.y
        width = self.scrollable_content_region.width
        if index >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        key = self._keys[index]
        strip = self._strips.get(key)
        if strip is None:
            segments = self._lines[index].render(self.app.console)
            strip = self._strips[key] = Strip(list(segments)).crop_extend(0, width, None).simplify()
        return Strip(Segment.apply_style(strip, self.rich_style), strip.cell_length)
