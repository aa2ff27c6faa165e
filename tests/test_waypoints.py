import pytest

from sentinel.waypoints import first_crossing, ramp_points, value_at


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
