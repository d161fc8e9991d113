"""Control variates for the bid simulation: a cheap predictor of each
role's tricks, and draws that are predicted but never solved.

A figure of the report is a (weighted) mean of ``y_i`` over the solved
layouts. Beside it each layout has a *control* ``x_i``, a function of the
layout alone that tracks ``y_i`` (for "the side takes at least b tricks",
the predictor's chance of that). Its mean ``mu`` over the layouts the
sampling targets is estimated from many more draws, predicted but not
solved (:class:`ControlDraws`, a stream of draws of their own, independent
of the solved ones). The controlled estimate is

    y_mean - beta (x_mean - mu),

``beta`` the (weighted) least-squares slope of ``y`` on ``x`` over the
solved layouts (:meth:`.estimates.Estimate.controlled`). For any fixed
``beta`` it is unbiased; the slope estimated from the same layouts adds a
bias of order ``1 / n`` (the classical regression estimator's), far below
the standard error. Its variance is the residuals' plus ``beta^2`` times
the variance of ``mu``'s estimate, and both are in the standard error.

The predictor (:func:`predicted_tricks`) is a linear fit of double-dummy
results on a partnership's high cards, trump lengths and shortness (the
fit the engine uses for its first guess, solver/_engine.pyx
``first_guess``): it explains about 80% of the variance of a role's tricks
on the bundled deals' layouts, so a chance near one half needs 35-45% of
the layouts for the same standard error (with the control draws' own
uncertainty).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from ..cards import SPADES, SUIT_MASK
from ..scoring import DUMMY, TRICKS_PER_HAND
from .knowledge import Knowledge
from .outcome import Odds, declarer_odds
from .sampling import Draw, LaterBidder, Sampler, sample_layout

#: seeds are below 2^64 (docs/LIMITS.md), so the control draws of seed S
#: (drawn as seed S + 2^64) never meet a user's seed
CONTROL_SEED_OFFSET = 1 << 64
#: control draws per solved layout, at least and at most this many (the
#: cap bounds the memory they hold: a run's figures need the control draws
#: kept; past it their mean's own variance, in every standard error, stops
#: shrinking)
DRAWS_PER_SAMPLE = 12
MIN_DRAWS = 200
MAX_DRAWS = 20000
#: the share of the control draws that a control needing the later bids'
#: odds (a model evaluation per call and bid) is evaluated on
ODDS_SHARE = 0.25
#: the fewest solved layouts with which the controls are used (with fewer the
#: slope is poorly known: the regression estimator's bias and the variance
#: its estimated slope adds are of order 1 / n; measured at 12 layouts,
#: benches/calibrate_bid.py's Brier score was no better with them)
MIN_SAMPLES = 30
#: the spread of the double-dummy tricks around the prediction (the scale
#: of the chance that turns a prediction into "at least b tricks")
SPREAD = 0.9

_SPADES = SUIT_MASK[SPADES]
_HONOURS = tuple((4 - j, 1 << (13 * s + 12 - j)) for s in range(4) for j in range(4))


def _spades(hand: int) -> int:
    return bin(hand & _SPADES).count("1")


def predicted_tricks(side: Sequence[int], others: Sequence[int]) -> float:
    """A linear prediction of the double-dummy tricks a partnership (the
    two hands ``side``, card masks of 13 cards) takes against ``others``:
    0.387 a high-card point (A 4, K 3, Q 2, J 1), 0.571 a trump of the
    side, 0.416 a trump of its longer trump hand, -0.317 a trump of the
    opponents' longer one, 0.093 a missing card of a side suit shorter than
    three in a hand with trumps, 0.151 a top-three trump of the side,
    minus 5.986."""
    hcp = trumps = longest = short = 0
    held = 0
    for hand in side:
        n = _spades(hand)
        held |= hand
        trumps += n
        longest = max(longest, n)
        hcp += sum(points for points, card in _HONOURS if hand & card)
        if n:
            for s in (1, 2, 3):
                m = bin(hand & SUIT_MASK[s]).count("1")
                if m < 3:
                    short += 3 - m
    their_longest = max(_spades(hand) for hand in others)
    top = bin(held & (0b111 << 10)).count("1")
    return (0.387 * hcp + 0.571 * trumps + 0.416 * longest - 0.317 * their_longest
            + 0.093 * short + 0.151 * top - 5.986)


def at_least(predicted: float, tricks: int) -> float:
    """The predictor's chance that the side takes at least ``tricks``."""
    return 0.5 * (1.0 + math.erf((predicted - tricks + 0.5) / (SPREAD * math.sqrt(2.0))))


def role_predictions(knowledge: Knowledge, layout: Mapping[str, int]) -> Dict[str, float]:
    """The predicted tricks of the player's side when each player of
    :attr:`Knowledge.declarers` declares (with the dummy)."""
    k = knowledge
    out = {}
    for declarer in k.declarers:
        t = predicted_tricks((layout[declarer], layout[DUMMY]),
                             [layout[p] for p in k.players if p != declarer])
        out[declarer] = t if declarer == k.player else TRICKS_PER_HAND - t
    return out


@dataclass
class ControlDraws:
    """Draws of their own stream (seed + :data:`CONTROL_SEED_OFFSET`, the
    same sampling method), predicted and never solved: the population means
    of the controls (:meth:`mean`). ``weights``, ``predictions`` (per draw,
    :func:`role_predictions`) and ``later`` (the later bidders' views, for
    the later-bid model) grow with :meth:`extend`."""

    knowledge: Knowledge
    seed: int
    method: str
    weights: List[float] = field(default_factory=list)
    predictions: List[Dict[str, float]] = field(default_factory=list)
    later: List[Tuple[LaterBidder, ...]] = field(default_factory=list)
    _sums: Dict[object, List[float]] = field(default_factory=dict, repr=False)
    _solved: Dict[int, Dict[str, float]] = field(default_factory=dict, repr=False)
    _odds: Dict[Tuple[int, int], Odds] = field(default_factory=dict, repr=False)
    _draws: Optional[Iterator[Draw]] = field(default=None, repr=False)

    def extend(self, count: int) -> None:
        """Draw until there are at least ``count`` (fewer when the sampler's
        draw cap is reached)."""
        k = self.knowledge
        count = min(count, MAX_DRAWS)
        if self._draws is None:
            seed = self.seed + CONTROL_SEED_OFFSET
            self._sampler = Sampler(k, seed, self.method)
            self._draws = self._sampler.draws(1 << 40)
        while len(self.weights) < count:
            draw = next(self._draws, None)
            if draw is None:
                return
            layout = draw.layout
            self.weights.append(draw.weight)
            self.predictions.append(role_predictions(k, layout))
            self.later.append(draw.later)

    def solved(self, index: int) -> Dict[str, float]:
        """The predictions of draw ``index`` of the solved stream (seed
        ``seed``), kept once worked out."""
        p = self._solved.get(index)
        if p is None:
            p = self._solved[index] = role_predictions(
                self.knowledge, sample_layout(self.knowledge, self.seed, index))
        return p

    def odds(self, j: int, tricks: int) -> Odds:
        """Who declares control draw ``j`` if the player bids ``tricks``
        (the later-bid model, :func:`.outcome.declarer_odds`)."""
        key = (j, tricks)
        o = self._odds.get(key)
        if o is None:
            o = self._odds[key] = declarer_odds(self.knowledge, tricks, self.later[j])
        return o

    def mean(self, key: object, control: Callable[[int], float],
             share: float = 1.0) -> Tuple[float, float]:
        """The weighted mean of ``control(j)`` over the draws ``j`` (the
        first ``share`` of them, for a control dear to evaluate) and the
        variance of that mean (``key`` names the control: its sums are kept
        and extended as draws are added)."""
        sums = self._sums.setdefault(key, [0.0] * 6)   # drawn, sum w, w x, w^2, w^2 x, w^2 x^2
        for j in range(int(sums[0]), math.ceil(len(self.weights) * share)):
            w, x = self.weights[j], control(j)
            sums[0] += 1
            sums[1] += w
            sums[2] += w * x
            sums[3] += w * w
            sums[4] += w * w * x
            sums[5] += w * w * x * x
        drawn, total = sums[0], sums[1]
        if drawn < 2 or total <= 0:
            return math.nan, math.inf
        mu = sums[2] / total
        spread = max(0.0, sums[5] - 2 * mu * sums[4] + mu * mu * sums[3])
        return mu, spread / total ** 2 * drawn / (drawn - 1)
