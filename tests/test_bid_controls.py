"""Control variates of the bid simulation (solver/bid/control.py): the
controlled estimates are unbiased and their standard errors honest.

The standard error an estimate reports must match the spread of the
estimate over independent runs (seeds): over many seeds, the mean of the
reported variances is compared with the empirical variance of the values,
and the values with the truth where it is known. A standard error that left
out the control mean's own uncertainty, or the residuals' degrees of
freedom, or used the wrong weights, fails these tests.
"""
from __future__ import annotations

import math
import random
import statistics
from pathlib import Path
from typing import List, Tuple

import pytest

from dummy_spades.solver.bid import Knowledge
from dummy_spades.solver.bid import control
from dummy_spades.solver.bid import simulate as sim
from dummy_spades.solver.simulation import Estimate, Settings
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.run import Inline
from test_bid import FakeSolver

HANDS = Path(__file__).resolve().parent.parent / "hands"


def _draw(rng: random.Random, weighted: bool) -> Tuple[float, float, float]:
    """A sample (y, x, w): x a control, y a 0/1 outcome with chance
    Phi(x) (so E[y] = E[Phi(x)]), w a weight (self-normalised importance
    sampling: the target weighs x up by exp(x / 2); 1 when unweighted)."""
    x = rng.gauss(0.0, 1.0)
    y = 1.0 if rng.random() < 0.5 * (1 + math.erf(x / math.sqrt(2))) else 0.0
    return y, x, math.exp(x / 2) if weighted else 1.0


def _run(rng: random.Random, n: int, m: int, weighted: bool) -> Estimate:
    """One controlled estimate of P(y = 1): ``n`` samples of (y, x), the
    control's mean from ``m`` other samples of x (weighted alike)."""
    ys, xs, ws = zip(*(_draw(rng, weighted) for _ in range(n)))
    others = [_draw(rng, weighted) for _ in range(m)]
    total = sum(w for _, _, w in others)
    mu = sum(w * x for _, x, w in others) / total
    var = sum((w * (x - mu)) ** 2 for _, x, w in others) / total ** 2 * m / (m - 1)
    return Estimate.controlled(ys, xs, mu, var, list(ws) if weighted else None, chance=True)


@pytest.mark.parametrize("weighted,m", [(False, 40), (False, 400), (True, 60)])
def test_controlled_se_matches_spread_over_seeds(weighted, m):
    """3000 independent estimates from 40 samples each: the mean reported
    variance equals the variance of the values (within 10%, the spread of
    a variance estimate over 3000 runs being under 3%), and the mean value
    is the truth (within 3 standard errors of the mean; the truth by a
    million samples: 0.5 unweighted, P under the tilted target weighted).
    With the control mean from only 40 other samples its own uncertainty is
    a third of the variance: leaving it out fails."""
    rng = random.Random(20261201 + m + weighted)
    runs = [_run(rng, 40, m, weighted) for _ in range(3000)]
    values = [e.value for e in runs]
    empirical = statistics.pvariance(values)
    reported = statistics.fmean(e.se ** 2 for e in runs)
    assert reported == pytest.approx(empirical, rel=0.10), (reported, empirical)
    if weighted:
        big = random.Random(7)
        pairs = [_draw(big, True) for _ in range(200000)]
        truth = sum(w * y for y, _, w in pairs) / sum(w for _, _, w in pairs)
    else:
        truth = 0.5
    assert abs(statistics.fmean(values) - truth) < 3 * math.sqrt(empirical / len(values)) + 0.004


def test_controlled_beats_plain_and_falls_back():
    """A good control shrinks the standard error against the plain
    proportion; a constant control, or fewer than three samples, gives the
    plain estimate exactly; a chance stays in 0..1."""
    rng = random.Random(3)
    ys, xs, _ = zip(*(_draw(rng, False) for _ in range(400)))
    mu = 0.0
    controlled = Estimate.controlled(ys, xs, mu, 0.0, chance=True)
    plain = Estimate.proportion(ys)
    assert controlled.se < 0.85 * plain.se
    assert Estimate.controlled(ys, [1.0] * 400, 1.0, 0.0, chance=True) == plain
    assert Estimate.controlled(ys[:2], xs[:2], mu, 0.0, chance=True) == Estimate.proportion(ys[:2])
    edge = Estimate.controlled([1.0] * 10, [float(i) for i in range(10)], -50.0, 0.0, chance=True)
    assert 0.0 <= edge.value <= 1.0


def test_predicted_tricks_tracks_the_high_cards():
    """The predictor: more high cards and trumps, more tricks; a side with
    every ace, king and the long spades is predicted near 13."""
    deck = list(range(52))
    strong = sum(1 << c for c in deck if c % 13 >= 8 or c < 6)    # T-A of every suit, low spades
    side = (strong & ((1 << 26) - 1), strong >> 26 << 26)
    weak = [sum(1 << c for c in deck if not strong >> c & 1 and c % 2 == 0),
            sum(1 << c for c in deck if not strong >> c & 1 and c % 2 == 1)]
    assert control.predicted_tricks(side, weak) > 11
    assert control.predicted_tricks(weak, list(side)) < 2
    assert control.at_least(8.0, 8) > 0.5 > control.at_least(6.0, 8)


def _role_estimates(seed: int, samples: int, controls: bool) -> List[Estimate]:
    k = Knowledge.from_deal(load_deal(HANDS / "three-peeky.yaml"), "Carol")
    a = sim.analyse(k, Settings(samples=samples, seed=seed), executor=Inline(FakeSolver()),
                    controls=controls)
    return [e for r in a.roles for e in r.make] + [c.make for c in a.bids] + \
        [c.declare for c in a.bids]


@pytest.mark.slow
def test_bid_controlled_se_over_seeds():
    """The whole simulation (a stand-in solver whose tricks follow the side's
    high cards, three-peeky's Carol, 40 layouts a run): over 120 seeds, for
    each chance the report shows that is neither 0 nor 1, the reported
    variance against the spread of the values (pooled over the chances, the
    ratio within 0.75-1.33), and the controlled values' mean against the
    plain estimates' mean (the same quantity: within 4 standard errors)."""
    runs = [_role_estimates(seed, 40, True) for seed in range(120)]
    plain = [_role_estimates(seed, 40, False) for seed in range(120)]
    ratios: List[float] = []
    for j in range(len(runs[0])):
        values = [r[j].value for r in runs]
        reported = statistics.fmean(r[j].se ** 2 for r in runs)
        empirical = statistics.pvariance(values)
        if empirical < 1e-4:
            continue
        ratios.append(reported / empirical)
        base = [p[j].value for p in plain]
        gap = statistics.fmean(values) - statistics.fmean(base)
        spread = math.sqrt((empirical + statistics.pvariance(base)) / len(values))
        assert abs(gap) < 4 * spread + 0.005, (j, gap, spread)
    assert len(ratios) >= 20
    pooled = statistics.fmean(ratios)
    assert 0.75 < pooled < 1.33, pooled


def test_controls_from_thirty_layouts_on():
    """Under control.MIN_SAMPLES layouts the figures are the plain means
    (and no control draw is made); from there on the chances change and the
    control draws are counted."""
    k = Knowledge.from_deal(load_deal(HANDS / "three-peeky.yaml"), "Carol")

    def run(samples: int, controls: bool):
        return sim.analyse(k, Settings(samples=samples, seed=4), executor=Inline(FakeSolver()),
                           controls=controls)

    few, plain_few = run(control.MIN_SAMPLES - 1, True), run(control.MIN_SAMPLES - 1, False)
    assert few.roles == plain_few.roles and few.candidates == plain_few.candidates
    assert few.sampling.control_draws == 0
    many, plain_many = run(control.MIN_SAMPLES, True), run(control.MIN_SAMPLES, False)
    assert many.roles != plain_many.roles
    assert many.sampling.control_draws == control.DRAWS_PER_SAMPLE * control.MIN_SAMPLES
