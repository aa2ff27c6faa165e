"""MicroHood's scenario kinds: the knobs change what a draw holds (validity of every kind's
draws is covered by tests/test_generate.py, which runs validate's checks on them)."""

import random

import pytest

from sentinel.core.catalog import Catalog
from sentinel.core.config import load_config
from sentinel.core.kinds import Knobs
from sentinel.envs import environments
from sentinel.envs.microhood.kinds import BUYING_POWER, KINDS, held, value_at

ENV = environments()["microhood"]
BY_NAME = {k.name: k for k in KINDS}


@pytest.fixture(scope="module")
def catalog():
    return Catalog.of(ENV, load_config(None).catalogs_dir)


def draw(catalog, kind, seed=3, **knobs):
    return BY_NAME[kind].draw(random.Random(seed), catalog, Knobs(**{**BY_NAME[kind].knobs.to_dict(), **knobs}))


def notes(data, word):
    return [e for e in data["events"] if word in e.get("_note", "")]


def test_the_ten_authored_scenarios_are_kinds():
    authored = {p.stem for p in (load_config(None).scenarios_dir / "microhood").glob("*.yaml")}
    assert {k.name for k in KINDS} == authored


@pytest.mark.parametrize("kind", ["price_target", "buy_at_threshold", "sell_at_threshold"])
def test_near_miss_one_stops_a_cent_short(catalog, kind):
    data = draw(catalog, kind, near_miss=1.0)
    level = data["solution"][0]["until"]["at_least"]
    (near,) = notes(data, "a near miss")
    assert near["price"] == pytest.approx(level - 0.01)
    far = draw(catalog, kind, near_miss=0.0)
    far_level = far["solution"][0]["until"]["at_least"]
    assert far_level - notes(far, "a near miss")[0]["price"] > 0.02 * far_level


def test_decoys_knob_sets_the_look_alikes(catalog):
    assert len(notes(draw(catalog, "price_target", decoys=0), "decoy")) == 0
    assert len(notes(draw(catalog, "price_target", decoys=5), "decoy")) == 5
    assert len(notes(draw(catalog, "news_more", decoys=6), "decoy")) == 6


def test_hold_s_sets_the_passing_window(catalog):
    short, long = draw(catalog, "buy_the_dip", hold_s=70), draw(catalog, "buy_the_dip", hold_s=200)
    assert short["condition_until"] - short["condition_at"] == 70
    assert long["condition_until"] - long["condition_at"] == min(200, 705 - long["condition_at"])


def test_density_adds_background(catalog):
    quiet, busy = draw(catalog, "sell_at_threshold", density=0.0), draw(catalog, "sell_at_threshold", density=5.0)
    assert len(busy["events"]) > len(quiet["events"]) + 40


def test_portfolio_near_miss_stays_under_the_goal(catalog):
    data = draw(catalog, "portfolio_target", near_miss=1.0)
    goal = data["solution"][0]["until"]["at_least"]
    points = data["events"][0]["price_waypoints"]
    at_near = BUYING_POWER + sum(n * points[s][1][1] for s, n in held(catalog).items())
    assert goal * 0.998 < at_near < goal
    assert value_at(catalog, 1.0) == pytest.approx(sum(n * catalog.raw("stocks")[s]["start_price"]
                                                       for s, n in held(catalog).items()))
