"""TextView (sentinel/tui/textview.py): wrapped text drawn line by line, repainting only the
lines that changed, and growing without laying the screen out at every new line."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.screen import Screen

from sentinel.tui.textview import HEIGHT_STEP, TextView


class Pane(App):
    def compose(self) -> ComposeResult:
        yield TextView(id="pane")


def lines(count: int, clock: float = 0.0) -> Text:
    out = Text()
    out.append(f"sim {clock:.1f} s\n", style="bold")
    out.append("A prompt long enough to wrap over more than one line of this narrow pane, twice over.\n")
    for n in range(count):
        out.append(f"  output line {n}\n")
    return out


async def test_only_changed_lines_are_redrawn_and_long_lines_wrap():
    app = Pane()
    drawn: list[int] = []
    original = TextView.render_line

    def counting(self, y):
        drawn.append(y + self.scroll_offset.y)
        return original(self, y)

    TextView.render_line = counting  # type: ignore[method-assign]
    try:
        async with app.run_test(size=(40, 30)) as pilot:
            pane = app.query_one(TextView)
            pane.update(lines(5))
            await pilot.pause()
            shown = [str(line) for line in pane._lines]
            assert shown[0] == "sim 0.0 s" and len(shown[1]) <= pane.scrollable_content_region.width
            assert "output line 4" in shown[-2] or "output line 4" in shown[-1]
            assert "".join(shown[1:4]).replace(" ", "") .startswith("Apromptlongenough")
            drawn.clear()
            pane.update(lines(5, clock=12.5))  # only the clock line differs
            await pilot.pause()
            assert drawn == [0] and pane.plain.startswith("sim 12.5 s")
    finally:
        TextView.render_line = original  # type: ignore[method-assign]


async def test_a_growing_text_lays_the_screen_out_once_per_step_not_per_line():
    app = Pane()
    layouts = [0]
    original = Screen._refresh_layout

    def counting(self, *args, **kwargs):
        layouts[0] += 1
        return original(self, *args, **kwargs)

    Screen._refresh_layout = counting  # type: ignore[method-assign]
    try:
        async with app.run_test(size=(40, 12)) as pilot:
            pane = app.query_one(TextView)
            await pilot.pause()
            layouts[0] = 0
            for count in range(1, 41):  # from less than a screen to 40 more lines
                pane.update(lines(count))
                await pilot.pause()
            assert pane.virtual_size.height >= len(pane._lines) and pane.virtual_size.height % HEIGHT_STEP == 0
            assert layouts[0] <= 40 // HEIGHT_STEP + 2
            pane.scroll_end(animate=False)
            await pilot.pause()
            assert pane.scroll_offset.y > 0  # the text can still be scrolled to its end
    finally:
        Screen._refresh_layout = original  # type: ignore[method-assign]
