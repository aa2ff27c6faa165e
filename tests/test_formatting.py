"""sentinel/outputs/formatting.py: durations and money as the CLI, the TUI and the report show them."""

from sentinel.outputs.formatting import MISSING, dollars, seconds


def test_a_duration_has_two_decimals_unless_asked_for_more():
    assert seconds(1.25) == "1.25 s"
    assert seconds(0.2) == "0.20 s"
    assert seconds(0.2, digits=3) == "0.200 s"
    assert seconds(0) == "0.00 s"


def test_money_is_dollars_to_a_hundredth_of_a_cent():
    assert dollars(0.0123) == "$0.0123"
    assert dollars(1.5) == "$1.5000"
    assert dollars(0.0) == "$0.0000"


def test_no_value_reads_as_a_dash():
    assert MISSING == "—"
    assert seconds(None) == MISSING
    assert seconds(None, digits=3) == MISSING
    assert dollars(None) == MISSING
