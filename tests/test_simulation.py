"""The simulation floor (solver/simulation/): one settings value checked
once, the exact-or-sampled decision, the stopping rules, and the interval a
chance at or near 0 or 1 is shown with (in text and JSON)."""
import math
import time

import pytest

from dummy_spades.cli.render import chance_text, estimate_json, points_text
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.simulation import Estimate, Settings, SimulationError, Stopping
from dummy_spades.solver.simulation.estimates import wilson


@pytest.mark.parametrize("field,kwargs", [
    ("samples", {"samples": 0}), ("samples", {"samples": True}), ("seed", {"seed": -1}),
    ("sampling", {"sampling": "magic"}), ("exact_limit", {"exact_limit": -1}),
    ("exact_limit", {"exact_limit": 10 ** 7}), ("precision", {"precision": 0}),
    ("precision", {"precision": math.inf}), ("time_limit", {"time_limit": -1}),
    ("time_limit", {"time_limit": math.nan}), ("node_budget", {"node_budget": -5}),
])
def test_each_setting_is_checked_and_named(field, kwargs):
    with pytest.raises(SimulationError) as err:
        Settings(**kwargs)
    assert err.value.field == field and isinstance(err.value, DealError)


def test_exact_or_sampled_is_decided_in_one_place():
    s = Settings(samples=30, exact_limit=100)
    assert s.exact(100) and s.planned(100) == 100
    assert not s.exact(101) and s.planned(101) == 30
    assert Settings(exact_limit=0).planned(1) == Settings().samples


def test_the_stopping_rules():
    stop = Stopping(Settings(precision=2.0, time_limit=0, node_budget=10))
    assert [n for n in range(1, 80) if stop.checkpoint(n)] == [20, 30, 40, 50, 60, 72]
    assert stop.precise(2.0) and not stop.precise(2.01)
    assert stop.over_budget(10) and not stop.over_budget(9)
    assert stop.timed_out()
    loose = Stopping(Settings())
    assert not loose.precise(0.0) and not loose.over_budget(10 ** 12) and not loose.timed_out()
    later = Stopping(Settings(time_limit=60))
    assert later.deadline is not None and later.deadline > time.monotonic() + 50


def test_wilson_interval():
    low, high = wilson(1.0, 10)
    assert math.isclose(low, 10 / (10 + 1.959964 ** 2), rel_tol=1e-6) and high == 1.0
    low, high = wilson(0.5, 100)
    assert math.isclose(low, 0.4038, abs_tol=1e-4) and math.isclose(high, 0.5962, abs_tol=1e-4)


def test_a_sampled_chance_at_0_or_1_carries_its_interval():
    kept = Estimate.share(10, 10)
    assert kept.se == 0 and kept.interval() == wilson(1.0, 10)
    assert chance_text(kept) == "100% (≥ 72%, 95%)"
    assert chance_text(kept, n=True) == "100% (≥ 72%, 95%; n=10)"
    lost = Estimate.share(0, 10)
    assert chance_text(lost) == "0% (≤ 28%, 95%)"
    near = Estimate.share(97, 100)               # 97% ± 1.96 x 1.7 reaches 100%
    assert chance_text(near) == "97% (92-99%, 95%)"
    json = estimate_json(kept)
    assert json["value"] == 1.0 and json["se"] == 0.0 and json["interval"] == [0.7225, 1.0]


def test_an_interval_only_where_the_plus_minus_misleads():
    middle = Estimate.share(60, 100)
    assert middle.interval() is None and chance_text(middle) == "60% ±4.9"
    assert "interval" not in estimate_json(middle)
    exact = Estimate.exact_mean([1.0, 1.0, 1.0], chance=True)
    assert exact.interval() is None and chance_text(exact) == "100%"
    mean = Estimate.of([13.0, 13.0, 13.0])       # not a chance: a ± of points
    assert mean.interval() is None and points_text(mean, 1) == "13.0 ±0.0"
    assert points_text(Estimate.exact_mean([2.0, 4.0]), 1) == "3.0"
    assert chance_text(Estimate.share(0, 0)) == "—"


def test_weighted_chances_use_the_effective_sample_size():
    e = Estimate.proportion([1, 1, 1, 1], [1.0, 1.0, 1.0, 9.0])
    assert e.chance and e.n_eff is not None and e.n_eff < 4
    assert e.interval() == wilson(1.0, e.n_eff)
    controlled = Estimate.controlled([1, 1, 1, 1], [0.9, 0.8, 0.95, 0.7], 0.9, 0.0001, chance=True)
    assert controlled.chance and controlled.interval() is not None


def test_paired_and_total():
    paired = Estimate.paired([3.0, 5.0, 4.0], [1.0, 2.0, 3.0], None, exact=False)
    assert paired.value == 2.0 and paired.n == 3
    assert Estimate.paired([3.0, 5.0], [1.0, 2.0], None, exact=True).se == 0.0
    both = Estimate.total([Estimate(1.0, 3.0, 10), Estimate(2.0, 4.0, 10)])
    assert both.value == 3.0 and both.se == 5.0 and not both.exact
    assert Estimate.total([Estimate.exact_mean([1.0]), Estimate.exact_mean([2.0])]).exact
    assert Estimate(2.0, 1.0, 5).negated() == Estimate(-2.0, 1.0, 5)
