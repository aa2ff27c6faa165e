"""SVG charts: well-formed, one mark per datum, a colour per series, escaped text, round ticks."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from sentinel.outputs.plots import (
    PALETTE,
    Series,
    bars_svg,
    format_number,
    histogram_bins,
    histogram_svg,
    nice_ticks,
    scatter_svg,
    steps_svg,
)

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iterfind(".//svg:text", NS)]


def test_nice_ticks_are_round_and_cover_the_range():
    assert nice_ticks(0, 1) == [0, 0.2, 0.4, 0.6, 0.8, 1.0]
    assert nice_ticks(3, 97) == [0, 20, 40, 60, 80, 100]
    assert nice_ticks(60, 60)[0] <= 60 <= nice_ticks(60, 60)[-1]
    assert nice_ticks(1, 3, integers=True) == [1, 2, 3]
    assert nice_ticks(-0.3, 0.25) == [-0.4, -0.2, 0, 0.2, 0.4]
    assert format_number(7.5, 2.5) == "7.5" and format_number(0.25, 0.05, percent=True) == "25%"
    assert format_number(12000, 2000) == "12,000"


def test_scatter_draws_every_point_in_its_series_colour_with_a_legend():
    svg = scatter_svg([Series("poll", points=[(60, 0.02), (300, 0.11), (580, 0.2)]),
                       Series("diff", points=[(60, 0.01, "microhood-rise: $0.01")])],
                      x_label="condition_at (sim s)", y_label="cost ($)", title="Cost")
    root = parse(svg)
    circles = root.findall(".//svg:circle", NS)
    assert [c.get("fill") for c in circles] == [PALETTE[0]] * 3 + [PALETTE[1]]
    assert circles[3].find("svg:title", NS).text == "microhood-rise: $0.01"
    labels = texts(root)
    assert {"Cost", "poll", "diff", "condition_at (sim s)", "cost ($)"} <= set(labels)
    assert root.get("width") == "640" and root.get("height") == "360"
    # every point lies inside the plotting area
    for c in circles:
        assert 0 < float(c.get("cx")) < 640 and 0 < float(c.get("cy")) < 360


def test_scatter_lines_join_points_and_a_single_series_has_no_legend():
    root = parse(scatter_svg([Series("only", points=[(2, 0.5), (1, 0.25), (3, 1.0)])], x_label="k", y_label="p",
                             title="t", lines=True, y_percent=True, x_integers=True))
    assert len(root.findall(".//svg:polyline", NS)) == 1
    assert "only" not in texts(root) and "100%" in texts(root)
    assert "1.5" not in texts(root)  # whole-number ticks only


def test_histogram_counts_every_value_once():
    values = [0.11, 0.12, 0.35, 0.36, 0.37, 1.9]
    root = parse(histogram_svg([Series("oracle", values=values), Series("eager", values=[0.5])],
                               x_label="reaction (s)", title="Reaction"))
    bars = root.findall(".//svg:rect[@fill-opacity]", NS)
    counted = {}
    for bar in bars:
        name, rest = bar.find("svg:title", NS).text.split(": ")
        counted[name] = counted.get(name, 0) + int(rest.split(" ")[0])
    assert counted == {"oracle": 6, "eager": 1}
    start, width, count = histogram_bins(values)
    assert start <= min(values) and start + count * width > max(values)


def test_bars_with_errors_escape_names_and_tilt_long_labels():
    names = ["micromail", "microhood", "a<b>&c", "microscholar-with-a-long-name"]
    svg = bars_svg(names, [Series("run <1>", values=[1.0, 0.5, 0.0, 0.25], errors=[0.0, 0.1, 0.0, 0.05]),
                           Series("run 2", values=[0.5, 0.5, 0.5, 0.5])],
                   y_label="success", title="Success & more", percent=True)
    assert "<b>" not in svg
    assert "a&lt;b&gt;&amp;c" in svg
    assert "run &lt;1&gt;" in svg
    root = parse(svg)
    bars = [r for r in root.findall(".//svg:rect", NS) if r.find("svg:title", NS) is not None]
    assert len(bars) == 8
    assert len(root.findall(".//svg:path", NS)) == 2  # whiskers where the error is not zero
    tilted = [t for t in root.iterfind(".//svg:text", NS) if "rotate(-35" in (t.get("transform") or "")]
    assert len(tilted) == 4  # one label too long for its slot tilts all of them


@pytest.mark.parametrize("chart", [
    lambda: scatter_svg([], x_label="x", y_label="y", title="empty"),
    lambda: histogram_svg([Series("a")], x_label="x", title="empty"),
    lambda: bars_svg([], [], y_label="y", title="empty"),
])
def test_empty_data_says_so(chart):
    labels = texts(parse(chart()))
    assert any(label.startswith("no ") for label in labels)


def test_steps_draw_one_step_path_per_series_with_the_marker():
    svg = steps_svg([Series("oracle", points=[(0, 0.0), (2.5, 0.5), (4, 1.0)]),
                     Series("blind", points=[(0, 0.0), (300, 0.25)]), Series("empty")],
                    x_label="tau", y_label="passed", title="Within tau <of> the condition", x_max=600,
                    marker=(60, "on time ≤ 60 s"))
    root = parse(svg)
    paths = root.findall(".//svg:path", NS)
    assert len(paths) == 2  # the empty series draws nothing
    assert [p.get("stroke") for p in paths] == [PALETTE[0], PALETTE[1]]
    oracle = paths[0].get("d")
    assert oracle.startswith("M")
    assert oracle.count("V") == 2
    assert oracle.endswith(tuple("0123456789"))
    assert "100.0% at 600" in paths[0].find("svg:title", NS).text
    assert "on time ≤ 60 s" in texts(root) and "Within tau <of> the condition" in texts(root)
    assert root.find(".//svg:line[@stroke-dasharray]", NS) is not None
    assert "100%" in texts(root) and "600" in texts(root)


def test_steps_without_data_say_so():
    assert "no data" in texts(parse(steps_svg([Series("a")], x_label="t", y_label="p", title="T", x_max=600)))
