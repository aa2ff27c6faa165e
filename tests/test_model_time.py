"""Model-time policies and the thinking meter (sentinel/core/model_time.py), on a ManualTime."""

import pytest

from sentinel.core.clock import ManualTime
from sentinel.core.errors import SentinelError
from sentinel.core.model_time import ModelTime, ThinkingMeter, resolve_model_time


@pytest.mark.parametrize(("text", "policy", "fixed_s"), [
    ("wall", "wall", 0.0), ("measured", "measured", 0.0), ("free", "free", 0.0), ("fixed:2", "fixed", 2.0),
    (" fixed:0.5 ", "fixed", 0.5),
])
def test_a_policy_parses_from_its_text(text, policy, fixed_s):
    assert ModelTime.parse(text) == ModelTime(policy, fixed_s)


@pytest.mark.parametrize(("text", "says"), [
    ("slow", "not a policy"), ("fixed", "needs sim seconds"), ("fixed:x", "needs sim seconds"),
    ("fixed:0", "0 < S"), ("fixed:-1", "0 < S"), ("fixed:nan", "0 < S"), ("fixed:1e9", "0 < S"),
    ("measured:3", "takes no value"),
])
def test_a_bad_policy_is_one_clear_error(text, says):
    with pytest.raises(SentinelError, match=says):
        ModelTime.parse(text)


def test_each_policy_charges_its_own_sim_time():
    charges = {text: ModelTime.parse(text).charge(3.5) for text in ("wall", "measured", "fixed:2", "free")}
    assert charges == {"wall": 0.0, "measured": 3.5, "fixed:2": 2.0, "free": 0.0}


def test_the_text_of_a_policy_reads_back():
    assert [str(ModelTime.parse(t)) for t in ("wall", "fixed:2", "fixed:0.25")] == ["wall", "fixed:2", "fixed:0.25"]


def test_the_virtual_clock_defaults_to_fixed_2_and_refuses_wall():
    assert resolve_model_time("virtual", None) == ModelTime("fixed", 2.0)
    assert resolve_model_time("wall", None) == ModelTime("wall")
    with pytest.raises(SentinelError, match="cannot run on --clock virtual"):
        resolve_model_time("virtual", "wall")
    with pytest.raises(SentinelError, match="not a clock"):
        resolve_model_time("sundial", None)


class Recorder:
    def __init__(self, running: bool = True):
        self.log: list = []
        self.running = running  # what hold() answers: whether the session's clock was running

    def hold(self) -> bool:
        self.log.append("hold")
        return self.running

    def release(self, sim_s):
        self.log.append(("release", sim_s))


def meter_for(text: str, running: bool = True) -> tuple[ThinkingMeter, Recorder, ManualTime]:
    wall, seen = ManualTime(100.0), Recorder(running)
    return ThinkingMeter(ModelTime.parse(text), seen.hold, seen.release, wall), seen, wall


def test_one_call_holds_the_clock_and_charges_its_measured_wall_time():
    meter, seen, wall = meter_for("measured")
    meter.begin("proxy:1")
    wall.advance(3.0)
    meter.end("proxy:1")
    assert seen.log == ["hold", ("release", 3.0)]
    assert meter.thinking.as_record() == {"model_calls": 1, "paused_wall_s": 3.0, "charged_sim_s": 3.0}


def test_overlapping_sources_count_once():
    meter, seen, wall = meter_for("fixed:2")
    meter.begin("proxy:1")
    wall.advance(1.0)
    meter.begin("mcp-gap")
    wall.advance(1.0)
    meter.end("proxy:1")
    assert meter.in_flight
    wall.advance(1.0)
    meter.end("mcp-gap")
    assert seen.log == ["hold", ("release", 2.0)]
    assert meter.thinking.as_record() == {"model_calls": 1, "paused_wall_s": 3.0, "charged_sim_s": 2.0}


def test_opening_an_open_source_or_closing_a_closed_one_changes_nothing():
    meter, seen, wall = meter_for("free")
    meter.end("mcp-gap")
    meter.begin("mcp-gap")
    meter.begin("mcp-gap")
    wall.advance(0.5)
    meter.end("mcp-gap")
    meter.end("mcp-gap")
    assert seen.log == ["hold", ("release", 0.0)]
    assert meter.thinking.model_calls == 1


def test_the_wall_policy_counts_calls_but_never_holds_the_clock():
    meter, seen, wall = meter_for("wall")
    meter.begin("proxy:1")
    wall.advance(2.0)
    meter.end("proxy:1")
    assert seen.log == ["hold"]  # asked only whether its clock runs
    assert meter.thinking.as_record() == {"model_calls": 1, "paused_wall_s": 0.0, "charged_sim_s": 0.0}


def test_end_all_closes_what_is_open_as_one_interval():
    meter, seen, wall = meter_for("measured")
    meter.begin("a")
    meter.begin("b")
    wall.advance(4.0)
    meter.end_all()
    assert seen.log == ["hold", ("release", 4.0)]
    assert not meter.in_flight


def test_an_interval_on_a_clock_that_is_not_running_is_neither_counted_nor_charged():
    meter, seen, wall = meter_for("fixed:2", running=False)  # before /start, stepped, or after the report
    meter.begin("proxy:1")
    wall.advance(3.0)
    meter.end("proxy:1")
    assert seen.log == ["hold"]  # never released: it never paused
    assert meter.thinking.as_record() == {"model_calls": 0, "paused_wall_s": 0.0, "charged_sim_s": 0.0}


def test_the_paused_time_so_far_includes_the_open_interval():
    meter, seen, wall = meter_for("measured")
    meter.begin("mcp-gap")
    wall.advance(1.5)
    assert meter.paused_wall_s() == 1.5
    meter.end("mcp-gap")
    wall.advance(10.0)
    assert meter.paused_wall_s() == 1.5
