"""The bidding model (solver/simulation/model.py) and its fit (tools/fit_bid_model.py).

The fit is reproducible: the engine's answers it was fitted to are stored
(tools/bid_model_dd.txt), a few of them are solved again here, and a refit
from the stored answers gives the shipped coefficients (solver/bid/
coefficients.py).
"""
from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path

import pytest

from dummy_spades.solver.auction import Bid
from dummy_spades.solver.simulation import coefficients, model
from dummy_spades.solver.cards import parse_hand

ROOT = Path(__file__).resolve().parent.parent


def load_fit_script():
    spec = importlib.util.spec_from_file_location("fit_bid_model", ROOT / "tools" / "fit_bid_model.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module        # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


fit_script = load_fit_script()

try:
    import dummy_spades.solver.engine  # noqa: F401
    HAVE_ENGINE = True
except ImportError:  # pragma: no cover - depends on the build
    HAVE_ENGINE = False

STRONG = parse_hand("AKQJ5.A32.A3.A32")
WEAK = parse_hand("2.5432.5432.6543")
AVERAGE = parse_hand("K75.QJ4.T962.A83")


# --------------------------------------------------------------- the model
def test_coefficients_have_one_value_per_feature():
    for p in range(3):
        assert len(coefficients.TRICKS[p]) == len(model.FEATURES) + p
        assert coefficients.VARIANCE[p][0] > 0 > coefficients.VARIANCE[p][1]
    assert len(coefficients.NIL) == len(model.NIL_FEATURES)


def test_estimates_order_strong_average_weak_hands():
    for p in range(3):
        est = [model.estimate(model.View(h, 0, p, (5,) * p)) for h in (STRONG, AVERAGE, WEAK)]
        assert est[0] > est[1] > est[2]
    assert model.estimate(model.View(STRONG)) > 8 and model.estimate(model.View(WEAK)) < 4


def test_dummy_cards_seen_count():
    aces = parse_hand("A.A.A.A")
    assert model.worth(AVERAGE, aces) > model.worth(AVERAGE) + 1.5


@pytest.mark.parametrize("mean", [-3.0, 0.2, 5.5, 12.9, 20.0])
def test_number_chances_are_a_distribution(mean):
    chances = model.number_chances(mean, 2.0)
    assert len(chances) == 14 and all(p >= 0 for p in chances)
    assert math.isclose(sum(chances), 1.0, abs_tol=1e-12)
    for b in range(14):
        assert math.isclose(model.number_chance(b, mean, 2.0), chances[b], abs_tol=1e-12)


def test_nil_chance():
    assert model.nil_chance(parse_hand("A...")) == 0.0          # a sure spade trick
    assert model.nil_chance(WEAK) > 0.5 > model.nil_chance(AVERAGE)
    for hand in (STRONG, AVERAGE, WEAK):
        chances = model.bid_chances(model.View(hand))
        assert math.isclose(sum(chances), 1.0, abs_tol=1e-12)


def test_call_chances():
    view = model.View(WEAK, 0, 0)
    q = model.nil_chance(WEAK)
    assert model.call_chance(Bid("A", 0, ("A",)), view) == q
    assert model.call_chance(Bid("A", 3, ("A",)), view) == q       # the number of a nil call
    three = model.number_chance(3, model.estimate(view), model.spread(view))
    assert math.isclose(model.call_chance(Bid("A", 3), view), (1 - q) * three)
    assert model.call_chance(Bid("A", 3, ("dummy",)), view) == model.call_chance(Bid("A", 3), view)
    strong = model.View(STRONG)
    assert model.call_chance(Bid("A", 10), strong) > model.call_chance(Bid("A", 3), strong)


def test_earlier_bids_enter_linearly():
    view = model.View(AVERAGE, 0, 2, (4, 9))
    terms = model.earlier_terms(2, (4, 9))
    assert math.isclose(model.estimate(view), model.base_estimate(view) + terms)
    assert terms == pytest.approx(4 * coefficients.TRICKS[2][-2] + 9 * coefficients.TRICKS[2][-1])


# ------------------------------------------------------------------ the fit
def test_fit_script_deals_and_seating():
    hands = fit_script.deal(1, 0)
    assert len(hands) == 4 and all(h.bit_count() == 13 for h in hands)
    assert hands[0] | hands[1] | hands[2] | hands[3] == (1 << 52) - 1
    assert fit_script.deal(1, 0) == hands != fit_script.deal(1, 1)
    assert fit_script.seating(1) == (1, 2, 3, 0)


def test_linear_algebra_helpers():
    rows = [[1.0, x] for x in range(10)]
    beta = fit_script.least_squares(rows, [3 + 2 * x for x in range(10)])
    assert beta == pytest.approx([3.0, 2.0])
    xs = [[1.0, x / 10] for x in range(-30, 31)]
    ys = [(x / 10) > 0 for x in range(-30, 31)]
    b = fit_script.logistic(xs, ys, ridge=1.0)
    assert b[1] > 2 and abs(b[0]) < 0.5


@pytest.mark.skipif(not HAVE_ENGINE, reason="the compiled engine is not built")
def test_stored_answers_are_the_engines():
    """The first stored deals solved again give the same answers."""
    seed, answers = fit_script.read_table()
    for a in answers[:4]:
        assert fit_script.solve_deal((seed, a.index)) == a


def test_shipped_coefficients_are_what_the_script_fits():
    """tools/fit_bid_model.py --refit reproduces solver/simulation/coefficients.py."""
    seed, answers = fit_script.read_table()
    assert (seed, len(answers)) == (fit_script.DEFAULT_SEED, fit_script.DEFAULT_DEALS)
    assert [a.index for a in answers] == list(range(len(answers)))
    fit = fit_script.fit(seed, answers)
    assert fit_script.shipped_equal(fit) == []
