import pytest

from sentinel.core.waypoints import (
    SHOWN,
    first_crossing,
    first_shown_crossing,
    first_time_holding,
    ramp_points,
    shown_value,
    value_at,
)


def test_interpolates_from_start_value_and_holds_after_last_point():
    points = [(100, 120.0), (200, 80.0)]
    assert value_at(points, 0, 100.0) == 100.0
    assert value_at(points, 50, 100.0) == pytest.approx(110.0)
    assert value_at(points, 150, 100.0) == pytest.approx(100.0)
    assert value_at(points, 500, 100.0) == 80.0


def test_equal_times_make_a_step():
    points = [(100, 50.0), (100, 70.0)]
    assert value_at(points, 99.999, 50.0) == pytest.approx(50.0)
    assert value_at(points, 100, 50.0) == 70.0


def test_ramp_points_start_where_the_path_is():
    assert ramp_points([(100, 200.0)], 100.0, 50, 300.0, 30) == [(50, 150.0), (80, 300.0)]


def test_first_crossing_rising_and_falling():
    points = [(100, 200.0)]
    assert first_crossing(points, 100.0, 150.0, rising=True, until=720) == pytest.approx(50.0)
    assert first_crossing(points, 100.0, 250.0, rising=True, until=720) is None
    dip = [(100, 100.0), (160, 80.0), (220, 80.0), (260, 100.0)]
    assert first_crossing(dip, 100.0, 90.0, rising=False, until=720) == pytest.approx(130.0)


def test_a_step_down_keeps_authored_order():
    points = [(10, 100.0), (10, 90.0)]  # a ramp_s = 0 event: from 100 straight to 90
    assert value_at(points, 10, 100.0) == 90.0
    assert first_crossing(points, 100.0, 95.0, rising=False, until=720) == 10.0


def test_shown_crossing_starts_where_rounding_first_shows_the_limit():
    points = [(100, 43.0)]  # 42.00 → 43.00 over 100 s: one cent per second
    # "at least 42.20" shows from 42.195 (rounded half up), i.e. at 19.5 s, not at 20 s
    assert first_shown_crossing(points, 42.0, "at_least", 42.2, until=720) == pytest.approx(19.5)
    # "above 42.20" first shows as 42.21, from 42.205
    assert first_shown_crossing(points, 42.0, "above", 42.2, until=720) == pytest.approx(20.5)
    assert first_shown_crossing(points, 42.0, "at_least", 43.01, until=720) is None
    assert first_shown_crossing(points, 42.0, "at_least", 42.5, until=30) is None  # after `until`


def test_shown_crossing_falling_and_whole_numbers():
    stars = [(100, 0.0)]  # 1000 stars → 0 over 100 s: 10 a second, shown as whole stars
    assert first_shown_crossing(stars, 1000.0, "at_most", 900, until=720, decimals=0) == pytest.approx(9.95)
    assert first_shown_crossing(stars, 1000.0, "below", 900, until=720, decimals=0) == pytest.approx(10.05)
    assert first_shown_crossing(stars, 1000.0, "at_least", 900, until=720, decimals=0) == 0.0  # holds already


def test_shown_crossing_agrees_with_the_displayed_value():
    points = [(37, 519.993), (90, 520.4), (200, 519.0)]
    for comparison, limit, start in (("at_least", 520.0, 500.0), ("above", 520.1, 500.0),
                                     ("at_most", 519.5, 530.0), ("below", 519.5, 530.0)):
        t = first_shown_crossing(points, start, comparison, limit, until=720)
        assert t is not None and t > 0
        holds = SHOWN[comparison]
        assert holds(shown_value(value_at(points, t + 1e-6, start), 2), limit)
        assert not holds(shown_value(value_at(points, t - 1e-3, start), 2), limit)


def test_unknown_comparison_is_refused():
    with pytest.raises(ValueError, match="comparison 'equals'"):
        first_shown_crossing([], 1.0, "equals", 1.0, until=10)


def test_first_time_holding_scans_then_bisects():
    assert first_time_holding(lambda t: t >= 3.14159, until=10) == pytest.approx(3.14159, abs=1e-5)
    assert first_time_holding(lambda t: True, until=10) == 0.0
    assert first_time_holding(lambda t: t > 11, until=10) is None
