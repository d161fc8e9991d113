"""Estimates: a sample mean or proportion with its standard error, from
equally weighted samples or from importance-weighted ones.

Weighted (self-normalised importance sampling, samples ``y_i`` with weights
``w_i``):

* value ``sum(w y) / sum(w)``;
* standard error ``sqrt(sum(w^2 (y - value)^2)) / sum(w)``, times
  ``sqrt(n / (n - 1))`` for a mean (so that equal weights give the usual
  ``s / sqrt(n)``; a proportion keeps the binomial ``sqrt(p (1 - p) / n)``);
* ``n_eff`` = Kish's effective sample size ``sum(w)^2 / sum(w^2)``: the
  number of equally weighted samples that would give the same precision.

A chance over the samples where something happens (a nil kept, over the
layouts where it counts) is a ratio of two weighted sums (:meth:`Estimate.ratio`);
its standard error is the delta method's.

With a control variate (a second number per sample whose mean is known,
or estimated from other samples: :meth:`Estimate.controlled`) the value is
the regression estimator and the standard error that of its residuals plus
what the control's mean is uncertain by.

A chance estimated from finite samples at or near 0 or 1 (where ``value ±
1.96 se`` leaves 0..1: ten kept nils in ten give ``1 ± 0``) is given with
its 95% Wilson score interval (:meth:`Estimate.interval`), with ``n_eff``
as the sample count when the samples are weighted; exact figures (every
layout enumerated: :meth:`Estimate.exact_mean`) have a standard error of 0
and no interval.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Optional, Sequence, Tuple

#: the normal quantile of the intervals shown (95%, two-sided)
Z95 = 1.959964


def effective_samples(weights: Sequence[float]) -> float:
    """Kish's effective sample size ``sum(w)^2 / sum(w^2)`` (0 for no weight)."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares > 0 else 0.0


def wilson(p: float, n: float, z: float = Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion ``p`` observed over ``n``
    samples (``n`` may be an effective sample size)."""
    if n <= 0 or math.isnan(p):
        return (0.0, 1.0)
    z2 = z * z
    centre = p + z2 / (2 * n)
    half = z * math.sqrt(max(0.0, p * (1 - p)) / n + z2 / (4 * n * n))
    scale = 1 + z2 / n
    low = 0.0 if p <= 0 else max(0.0, (centre - half) / scale)
    high = 1.0 if p >= 1 else min(1.0, (centre + half) / scale)
    return (low, high)


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and sample count; ``n_eff``
    with weighted samples; ``chance``: a probability (the mean of 0/1
    outcomes, or of chances of them); ``exact``: over every layout, no
    sampling error."""

    value: float
    se: float
    n: int
    n_eff: Optional[float] = None
    chance: bool = False
    exact: bool = False

    @classmethod
    def of(cls, values: Sequence[float]) -> "Estimate":
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, 0)
        mean = sum(values) / n
        if n < 2:
            return cls(mean, math.nan, n)
        var = sum((v - mean) ** 2 for v in values) / (n - 1)
        return cls(mean, math.sqrt(var / n), n)

    @classmethod
    def share(cls, hits: float, n: int) -> "Estimate":
        """A proportion ``hits / n`` with the binomial standard error."""
        if n == 0:
            return cls(math.nan, math.nan, 0, chance=True)
        p = hits / n
        return cls(p, math.sqrt(p * (1 - p) / n), n, chance=True)

    @classmethod
    def mean(cls, values: Sequence[float], weights: Optional[Sequence[float]] = None) -> "Estimate":
        """The mean of ``values``: :meth:`of` without weights."""
        if weights is None:
            return cls.of(values)
        return cls._weighted(values, weights, corrected=True)

    @classmethod
    def proportion(cls, values: Sequence[float],
                   weights: Optional[Sequence[float]] = None) -> "Estimate":
        """The mean of ``values`` in 0..1 (0/1 outcomes, or chances of them):
        :meth:`share` without weights."""
        if weights is None:
            return cls.share(sum(values, 0), len(values))
        return cls._weighted(values, weights, corrected=False, chance=True)

    @classmethod
    def ratio(cls, hits: Sequence[float], counted: Sequence[float],
              weights: Optional[Sequence[float]] = None) -> "Estimate":
        """``sum(w hits) / sum(w counted)``: a chance over the samples where
        something counts (``counted`` 0..1 per sample, ``hits <= counted``).
        ``n`` is the number of samples where it can count."""
        if weights is None:
            return cls.share(sum(hits, 0), sum(1 for c in counted if c))
        wc = [w * c for w, c in zip(weights, counted)]
        total = sum(wc)
        n = sum(1 for c in wc if c > 0)
        if total <= 0:
            return cls(math.nan, math.nan, 0, 0.0, chance=True)
        value = sum(w * h for w, h in zip(weights, hits)) / total
        spread = sum((w * (h - value * c)) ** 2 for w, h, c in zip(weights, hits, counted))
        return cls(value, math.sqrt(spread) / total, n, effective_samples(wc), chance=True)

    @classmethod
    def _weighted(cls, values: Sequence[float], weights: Sequence[float],
                  corrected: bool, chance: bool = False) -> "Estimate":
        n = len(values)
        total = sum(weights)
        if n == 0 or total <= 0:
            return cls(math.nan, math.nan, 0, 0.0, chance)
        value = sum(w * v for w, v in zip(weights, values)) / total
        n_eff = effective_samples(weights)
        if n < 2:
            return cls(value, math.nan, n, n_eff, chance)
        spread = sum((w * (v - value)) ** 2 for w, v in zip(weights, values)) / total ** 2
        if corrected:
            spread *= n / (n - 1)
        return cls(value, math.sqrt(spread), n, n_eff, chance)

    @classmethod
    def exact_mean(cls, values: Sequence[float], weights: Optional[Sequence[float]] = None,
                   chance: bool = False) -> "Estimate":
        """The (weighted) mean of ``values`` over a whole population (every
        layout): exact, its standard error 0."""
        n = len(values)
        if n == 0:
            return cls(math.nan, math.nan, 0, chance=chance, exact=True)
        w = [1.0] * n if weights is None else list(weights)
        total = sum(w)
        return cls(sum(x * v for x, v in zip(w, values)) / total, 0.0, n,
                   None if weights is None else effective_samples(w), chance, True)

    @classmethod
    def controlled(cls, values: Sequence[float], controls: Sequence[float], control_mean: float,
                   control_variance: float, weights: Optional[Sequence[float]] = None,
                   chance: bool = False) -> "Estimate":
        """The mean of ``values`` with a control variate: ``controls`` (one
        per sample, a function of the sample alone), whose mean over the
        population is ``control_mean``, estimated apart (from other
        samples) with variance ``control_variance``.

        Value ``y_mean - beta (x_mean - control_mean)`` (weighted means),
        ``beta`` the slope that minimises the variance,
        ``sum(w^2 (y - y_mean)(x - x_mean)) / sum(w^2 (x - x_mean)^2)``;
        squared standard error: the residuals' ``sum(w^2 r^2) / sum(w)^2``
        times ``n / (n - 2)`` (two fitted numbers), plus ``beta^2`` times
        ``control_variance``. With fewer than three samples or controls that
        do not vary, the plain estimate (:meth:`mean`, or :meth:`proportion`
        for a ``chance``, which is then kept in 0..1)."""
        n = len(values)
        w = [1.0] * n if weights is None else list(weights)
        total = sum(w)
        plain = cls.proportion(values, weights) if chance else cls.mean(values, weights)
        if n < 3 or total <= 0:
            return plain
        y_mean = sum(a * y for a, y in zip(w, values)) / total
        x_mean = sum(a * x for a, x in zip(w, controls)) / total
        sxx = sum((a * (x - x_mean)) ** 2 for a, x in zip(w, controls))
        if sxx <= 1e-12:
            return plain
        sxy = sum(a * a * (y - y_mean) * (x - x_mean) for a, y, x in zip(w, values, controls))
        beta = sxy / sxx
        value = y_mean - beta * (x_mean - control_mean)
        spread = sum((a * ((y - y_mean) - beta * (x - x_mean))) ** 2
                     for a, y, x in zip(w, values, controls)) / total ** 2 * n / (n - 2)
        se = math.sqrt(spread + beta * beta * control_variance)
        if chance:
            value = min(1.0, max(0.0, value))
        return cls(value, se, n, plain.n_eff, chance)

    @classmethod
    def over(cls, values: Sequence[float], weights: Optional[Sequence[float]], exact: bool,
             chance: bool = False) -> "Estimate":
        """The (weighted) mean of ``values``: :meth:`exact_mean` over every
        layout, else :meth:`proportion` for a ``chance``, else :meth:`mean`."""
        if exact:
            return cls.exact_mean(values, weights, chance)
        if chance:
            return cls.proportion(values, weights)
        return cls.mean(values, weights)

    @classmethod
    def paired(cls, values: Sequence[float], base: Sequence[float],
               weights: Optional[Sequence[float]], exact: bool) -> "Estimate":
        """The paired difference: the mean of ``values[i] - base[i]`` over the
        same samples, so that the sample-to-sample spread they share cancels."""
        return cls.over([a - b for a, b in zip(values, base)], weights, exact)

    @classmethod
    def total(cls, estimates: Sequence["Estimate"]) -> "Estimate":
        """The sum of independent estimates (standard errors in quadrature;
        exact when every one is)."""
        if not estimates:
            return cls(0.0, 0.0, 0, exact=True)
        se = math.sqrt(sum(e.se ** 2 for e in estimates)) \
            if not any(math.isnan(e.se) for e in estimates) else math.nan
        return cls(sum(e.value for e in estimates), se, len(estimates),
                   exact=all(e.exact for e in estimates))

    def negated(self) -> "Estimate":
        return replace(self, value=-self.value)

    def interval(self) -> Optional[Tuple[float, float]]:
        """The 95% Wilson score interval of a sampled chance at or near 0 or
        1 (where ``value ± 1.96 se`` leaves 0..1), over ``n_eff`` samples
        when weighted, else ``n``; None for any other estimate (its ± says
        it: a mean, a chance well inside 0..1, an exact figure, no value)."""
        if not self.chance or self.exact or math.isnan(self.value) or self.n == 0:
            return None
        se = 0.0 if math.isnan(self.se) else self.se
        if 0.0 < self.value - Z95 * se and self.value + Z95 * se < 1.0:
            return None
        return wilson(self.value, self.n if self.n_eff is None else self.n_eff)
