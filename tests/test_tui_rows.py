"""RowList (sentinel/tui/rows.py): rows built straight as segments, only the rows in view drawn,
and the dashboard's list over 100 sessions: filters, search and the ticking sim clocks."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text
from textual.strip import Strip

from sentinel.tui.dashboard import COLUMNS, DashboardApp
from sentinel.tui.rows import RowList, row_strip, row_text
from sentinel.tui.simulate import START_WALL, SimulatedRun
from sentinel.tui.state import FILTERS, RUNNING, RunState

SIZE = (160, 40)


def styled_segments(strip: Strip) -> list[tuple[str, str]]:
    return [(segment.text, str(segment.style)) for segment in strip.simplify()]


def test_a_row_built_as_segments_looks_exactly_like_the_rendered_rich_text():
    console = Console(width=300, color_system="truecolor")
    for cells in [
        ("micromail", "attachment_name", Text("running", style="cyan"), "309.9", Text("pass", style="bold green")),
        ("microhood", "a_session_name_longer_than_its_column", Text("graded", style="bold"), "1.0", Text("")),
        ("ééé", "日本語の長いセッション名です", Text("waiting", style="dim"), "12345678901", Text("fail (kept)")),
    ]:
        rendered = Strip(list(row_text(cells, COLUMNS).render(console)))
        built = row_strip(cells, COLUMNS)
        assert styled_segments(built) == styled_segments(rendered)
        assert built.cell_length == rendered.cell_length == sum(w for _, w, _ in COLUMNS) + 2 * (len(COLUMNS) - 1)


def simulated(sessions: int, seconds: float) -> tuple[SimulatedRun, RunState, list[float]]:
    run = SimulatedRun(sessions)
    now = [START_WALL + seconds]
    state = RunState(run.rows(), speed=50.0, deadline_wall_s=42.0, now=lambda: now[0])
    for message in run.messages(now[0]):
        state.apply(message)
    return run, state, now


async def test_only_the_rows_in_view_are_drawn_and_a_changed_row_out_of_view_costs_nothing():
    _, state, _ = simulated(100, 6.0)
    app = DashboardApp(state)
    drawn: list[int] = []
    original = RowList.render_line

    def counting(self, y):
        drawn.append(y + self.scroll_offset.y)
        return original(self, y)

    RowList.render_line = counting  # type: ignore[method-assign]
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            height = app.rows.size.height
            assert 0 < height < 100 and len(app.rows.texts()) == 100
            assert drawn and max(drawn) < height  # never a row below the viewport
            drawn.clear()
            app.rows.update_row(state.sessions[list(state.sessions)[90]].key, ("x", "y", "z", "1.0", ""))
            await pilot.pause()
            assert drawn == []  # row 90 is out of view: nothing repainted
            app.rows.update_row(list(state.sessions)[3], ("x", "y", "z", "1.0", ""))
            await pilot.pause()
            assert drawn == [3]
            await pilot.press("end")  # the cursor to the last row scrolls it into view
            assert app.rows.scroll_offset.y == 100 - height and app.rows.selected_key == list(state.sessions)[99]
    finally:
        RowList.render_line = original  # type: ignore[method-assign]


async def test_the_filter_key_over_a_hundred_sessions_shows_exactly_the_matching_rows():
    _, state, _ = simulated(100, 9.0)
    app = DashboardApp(state)
    async with app.run_test(size=SIZE) as pilot:
        for wanted in (*FILTERS[1:], FILTERS[0]):
            await pilot.press("f")
            assert app.state_filter == wanted
            assert list(app.rows.texts()) == [view.key for view in state.visible(wanted)]
            assert f"filter {wanted}" in str(app._shown["#summary"][0])
        counts = {f: len(state.visible(f)) for f in FILTERS}
        assert counts["all"] == 100
        assert 0 < counts["failed"] < counts["passed"] < 100
        assert counts["active"] > 0


async def test_a_typed_search_edits_in_the_summary_bar_and_keys_do_not_act_while_typing():
    run, state, _ = simulated(20, 3.0)
    app = DashboardApp(state)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("slash", *"noo", "q", "backspace", "p")  # q types, it does not quit
        assert app.is_running and app.typing == "noop"
        assert "search: noop" in str(app._shown["#summary"][0]) and len(app.rows.texts()) == 20
        await pilot.press("enter")
        assert app.typing is None and app.search == "noop"
        assert list(app.rows.texts()) == [run.key(i) for i in range(20) if run.is_noop(i)]
        await pilot.press("f")  # keys act again
        assert app.state_filter == "active"
        await pilot.press("slash", "x", "escape")
        assert app.search == ""
        assert app.typing is None
        assert "search:" not in str(app._shown["#summary"][0])


async def test_the_sim_clock_column_ticks_with_the_wall_clock():
    _, state, now = simulated(10, 1.0)
    app = DashboardApp(state)
    async with app.run_test(size=SIZE) as pilot:
        running = [key for key, view in state.sessions.items() if view.state == RUNNING]
        assert running
        before = {key: float(app.rows.texts()[key][3]) for key in running}
        now[0] += 1.0
        app.refresh_view()
        await pilot.pause()
        after = {key: float(app.rows.texts()[key][3]) for key in running}
        assert all(after[key] - before[key] == 50.0 for key in running)  # one wall second at speed 50
