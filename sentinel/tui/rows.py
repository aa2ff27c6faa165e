"""RowList: a scrolling list of rows of fixed-width cells with a cursor, for the dashboard.

Why not DataTable: any cell update there invalidates every cached cell, so a frame in which a
hundred sim clocks move re-renders every visible cell (~100 ms of CPU per frame on a small
machine). RowList is drawn line by line (Textual's line API): only the rows in the viewport are drawn,
each from one strip per row, rebuilt only when that row's text changes and built straight from
its cells' strings (no rich Text measuring, cropping and rendering: a row is a handful of
segments). A frame costs one strip per changed visible row. See benchmarks/tui_dashboard.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.cells import cell_len, set_cell_size
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

Cells = tuple[Text | str, ...]
GAP = 2  # spaces between columns
_PLAIN = Style()
_CONSOLE = Console(width=1000, color_system="truecolor", legacy_windows=False)  # renders the odd many-styled cell


def row_text(cells: Cells, columns: Sequence[tuple[str, int, str]]) -> Text:
    """One line: each cell cut or padded to its column's width and justification."""
    line = Text(no_wrap=True, overflow="ellipsis")
    for n, ((_, width, justify), cell) in enumerate(zip(columns, cells, strict=False)):
        text = cell.copy() if isinstance(cell, Text) else Text(str(cell))
        text.truncate(width, overflow="ellipsis")
        text.align(justify, width)  # type: ignore[arg-type]
        line.append(" " * GAP if n else "")
        line.append_text(text)
    return line


def row_strip(cells: Cells, columns: Sequence[tuple[str, int, str]]) -> Strip:
    """The strip row_text would render, built directly: one segment per cell and per gap.
    A cell with more than one style (spans) goes the long way, through row_text."""
    if any(isinstance(cell, Text) and cell.spans for cell in cells):
        return Strip(list(row_text(cells, columns).render(_CONSOLE)))
    segments = []
    for n, ((_, width, justify), cell) in enumerate(zip(columns, cells, strict=False)):
        if n:
            segments.append(Segment(" " * GAP, _PLAIN))
        plain = cell.plain if isinstance(cell, Text) else str(cell)
        style = cell.style if isinstance(cell, Text) else ""
        segments.append(Segment(fit(plain, width, justify), Style.parse(style) if isinstance(style, str) else style))
    return Strip(segments).simplify()


def fit(plain: str, width: int, justify: str) -> str:
    """plain cut (with an ellipsis) or padded to exactly `width` cells."""
    plain = plain.replace("\n", " ")
    length = cell_len(plain)
    if length > width:
        return set_cell_size(plain, width - 1) + "…"
    pad = " " * (width - length)
    if justify == "right":
        return pad + plain
    if justify == "center":
        return pad[: len(pad) // 2] + plain + pad[len(pad) // 2:]
    return plain + pad


def header_text(columns: Sequence[tuple[str, int, str]]) -> Text:
    return row_text(tuple(Text(label, style="bold") for label, _, _ in columns), columns)


class RowList(ScrollView, can_focus=True):
    COMPONENT_CLASSES = {"rowlist--cursor", "rowlist--even"}
    DEFAULT_CSS = """
    RowList > .rowlist--cursor { background: $primary 40%; }
    RowList:focus > .rowlist--cursor { background: $primary; text-style: bold; }
    RowList > .rowlist--even { background: $surface-lighten-1 30%; }
    """
    BINDINGS = [
        Binding("up", "move(-1)", show=False), Binding("down", "move(1)", show=False),
        Binding("pageup", "page(-1)", show=False), Binding("pagedown", "page(1)", show=False),
        Binding("home", "move(-1000000)", show=False), Binding("end", "move(1000000)", show=False),
    ]

    class Highlighted(Message):
        """The cursor moved to another row (key None: the list is empty)."""

        def __init__(self, key: str | None):
            super().__init__()
            self.key = key

    def __init__(self, columns: Sequence[tuple[str, int, str]],
                 key_filter: Callable[[events.Key], bool] | None = None, **kwargs):
        """columns: (label, width, justify) of each column. key_filter sees every key first and
        returns True for those it took (they then reach no binding)."""
        super().__init__(**kwargs)
        self.key_filter = key_filter
        self.columns = tuple(columns)
        self.cursor = 0
        self._keys: list[str] = []
        self._cells: dict[str, Cells] = {}
        self._strips: dict[str, Strip] = {}  # rendered rows, dropped when a row's text changes
        self._width = sum(width for _, width, _ in self.columns) + GAP * (len(self.columns) - 1)

    # --- content ---------------------------------------------------------------------
    def set_rows(self, rows: Sequence[tuple[str, Cells]]) -> None:
        """Replace every row; the cursor stays on the same key when it is still there."""
        selected = self.selected_key
        self._keys = [key for key, _ in rows]
        self._cells = dict(rows)
        self._strips.clear()
        self._fit_height()
        self.cursor = self._keys.index(selected) if selected in self._cells else 0
        self.refresh()
        self._cursor_moved()

    def _fit_height(self) -> None:
        """The scrollable height: the rows, but never less than the list's own height, so a
        filter that leaves a screenful or less changes no size (which would lay the whole
        screen out again) and shows no scrollbar."""
        size = Size(self._width, max(len(self._keys), self.scrollable_content_region.height))
        if size != self.virtual_size:
            self.virtual_size = size

    def on_resize(self, event: events.Resize) -> None:
        self._fit_height()

    def on_key(self, event: events.Key) -> None:
        if self.key_filter is not None and self.key_filter(event):
            event.stop()
            event.prevent_default()

    def update_row(self, key: str, cells: Cells) -> None:
        """Change a row's cells; it is redrawn only if its text changed."""
        if key not in self._cells or [str(c) for c in cells] == [str(c) for c in self._cells[key]]:
            return
        self._cells[key] = cells
        self._strips.pop(key, None)
        self.refresh_line(self._keys.index(key))

    def has_row(self, key: str) -> bool:
        return key in self._cells

    @property
    def selected_key(self) -> str | None:
        return self._keys[self.cursor] if 0 <= self.cursor < len(self._keys) else None

    def texts(self) -> dict[str, list[str]]:
        """Every row's cells as plain text (what tests and captures read)."""
        return {key: [str(c).strip() for c in self._cells[key]] for key in self._keys}

    # --- drawing -----------------------------------------------------------------------
    def render_line(self, y: int) -> Strip:
        index = y + self.scroll_offset.y
        width = max(self.size.width, self._width)
        if index >= len(self._keys):
            return Strip.blank(width, self.rich_style)
        key = self._keys[index]
        strip = self._strips.get(key)
        if strip is None:
            strip = self._strips[key] = row_strip(self._cells[key], self.columns)
        style = self.rich_style
        if index == self.cursor:
            style += self.get_component_rich_style("rowlist--cursor")
        elif index % 2:
            style += self.get_component_rich_style("rowlist--even")
        line = strip.crop_extend(self.scroll_offset.x, self.scroll_offset.x + self.size.width, None)
        return Strip(Segment.apply_style(line, style), line.cell_length)

    # --- moving --------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        self.move_to(self.cursor + step)

    def action_page(self, direction: int) -> None:
        self.move_to(self.cursor + direction * max(1, self.size.height - 1))

    def move_to(self, index: int) -> None:
        if not self._keys:
            return
        index = max(0, min(len(self._keys) - 1, index))
        if index == self.cursor:
            return
        self.refresh_line(self.cursor)
        self.cursor = index
        self.refresh_line(index)
        if index < self.scroll_offset.y:
            self.scroll_to(y=index, animate=False)
        elif index >= self.scroll_offset.y + self.size.height:
            self.scroll_to(y=index - self.size.height + 1, animate=False)
        self._cursor_moved()

    def on_click(self, event) -> None:
        self.move_to(event.y + self.scroll_offset.y)

    def _cursor_moved(self) -> None:
        self.post_message(self.Highlighted(self.selected_key))

