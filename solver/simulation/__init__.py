"""The simulation floor: what every sampled analysis (``bid``, ``advise``,
the single-dummy review, the explorer's single-dummy figures) stands on.

* :mod:`.settings`: one :class:`Settings` value (samples, seed, sampling
  method, exact limit, precision, time limit, node budget), each checked
  once; the exact-or-sampled decision; the stopping rules and the
  checkpoints at which a run takes stock;
* :mod:`.layouts`: the space of the layouts of the unseen cards, counted,
  drawn uniformly and listed;
* :mod:`.model` and :mod:`.coefficients`: the bidding model (what a real
  player bids from what they know), fitted by ``tools/fit_bid_model.py``;
* :mod:`.conditioning`: the draws weighted by the earlier bids (the one
  rejection loop, :class:`Rejection`, and the one :class:`SamplingReport`);
* :mod:`.estimates`: :class:`Estimate`, a mean or a chance with its
  standard error, plain, importance-weighted, paired or with a control
  variate, and the interval shown for a chance.

Nothing here solves a layout or knows what an analysis asks of it.
"""
from __future__ import annotations

from . import model
from .conditioning import (DRAWS_PER_SAMPLE, FLOOR, MIN_ACCEPTANCE, NO_DRAW_FITS, NO_FIT, PILOT,
                           Rejection, RejectionControl, SamplingReport, Weighted,
                           acceptance_threshold, drawn_peeks, exact_weights, ignored_bids,
                           likelihood)
from .estimates import Estimate, effective_samples
from .layouts import Layout, LayoutError, LayoutSpace
from .settings import (CONDITIONED, DEFAULT_EXACT_LIMIT, DEFAULT_SAMPLES, DEFAULT_SEED,
                       EXACT_LIMIT_MAX, METHODS, UNIFORM, Settings, SimulationError, Stopping,
                       check_method, checkpoints)

#: what every double-dummy simulation assumes (docs/BID.md "Honesty statement")
DOUBLE_DUMMY_HONESTY = (
    "Double-dummy simulation assumes perfect information: every player sees all four hands, so "
    "a declarer never misguesses a finesse or a drop, and the defence always finds the best "
    "opening lead. In bridge, where this has been measured, the two nearly cancel: over about "
    "30 million OKBridge deals actual declarer play took 0.10 tricks more than double dummy "
    "(+0.37 at the one level, about 0 at the four level, -0.09 in slams; Cheung), and in "
    "79,942 expert contracts the actual result beat double dummy except at slam level, mainly "
    "because double dummy gives the defence a perfect opening lead (Pavlicek). No such data "
    "exists for Spades: these chances are not known to favour either side.")

__all__ = [
    "DOUBLE_DUMMY_HONESTY", "model", "DRAWS_PER_SAMPLE", "FLOOR", "MIN_ACCEPTANCE",
    "NO_DRAW_FITS", "NO_FIT", "PILOT",
    "Rejection", "RejectionControl", "SamplingReport", "Weighted", "acceptance_threshold",
    "drawn_peeks", "exact_weights", "ignored_bids", "likelihood", "Estimate",
    "effective_samples", "Layout", "LayoutError", "LayoutSpace", "CONDITIONED",
    "DEFAULT_EXACT_LIMIT", "DEFAULT_SAMPLES", "DEFAULT_SEED", "EXACT_LIMIT_MAX", "METHODS",
    "UNIFORM", "Settings", "SimulationError", "Stopping", "check_method", "checkpoints",
]
