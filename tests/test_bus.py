"""The bus: typed, frozen messages; a failing subscriber is reported and skipped, never fatal."""

from __future__ import annotations

import dataclasses
import io

import pytest

from sentinel.cli.display import PlainLines
from sentinel.core.bus import Bus, Contacted, RunStarted, SessionMessage, SessionStarted


def test_messages_are_frozen_and_session_messages_name_their_session():
    contact = Contacted(key="microhood/rise", sim=61.5, wall=10.0)
    assert isinstance(contact, SessionMessage)
    assert contact.session == "microhood/rise"
    assert contact.wall == 10.0
    assert RunStarted(run="r", total=2, to_run=1, agent="oracle", speed=50.0).session is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        contact.sim = 1.0  # type: ignore[misc]


def test_a_failing_subscriber_is_reported_and_the_others_still_receive(capsys):
    bus = Bus()
    got: list = []

    def broken(message):
        raise ValueError("boom")

    bus.subscribe(broken)
    unsubscribe = bus.subscribe(got.append)
    bus.publish(SessionStarted(key="a/b"))
    assert [m.key for m in got] == ["a/b"]
    assert "a subscriber failed on SessionStarted: ValueError('boom')" in capsys.readouterr().err
    unsubscribe()
    bus.publish(SessionStarted(key="a/c"))
    assert len(got) == 1


def test_plain_lines_read_the_typed_fields():
    out = io.StringIO()
    lines = PlainLines(out)
    lines(RunStarted(run="r", total=3, to_run=2, agent="oracle", speed=50.0))
    lines(Contacted(key="microhood/rise", sim=61.5))
    text = out.getvalue()
    assert "run r: 2 of 3 sessions to run, agent oracle, speed 50" in text
    assert "contact   microhood/rise at sim 61.50 s" in text
