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
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Optional, Sequence


def effective_samples(weights: Sequence[float]) -> float:
    """Kish's effective sample size ``sum(w)^2 / sum(w^2)`` (0 for no weight)."""
    squares = sum(w * w for w in weights)
    return sum(weights) ** 2 / squares if squares > 0 else 0.0


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and sample count (a probability
    when the samples are 0/1); ``n_eff`` with weighted samples."""

    value: float
    se: float
    n: int
    n_eff: Optional[float] = None

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
            return cls(math.nan, math.nan, 0)
        p = hits / n
        return cls(p, math.sqrt(p * (1 - p) / n), n)

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
        return cls._weighted(values, weights, corrected=False)

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
            return cls(math.nan, math.nan, 0, 0.0)
        value = sum(w * h for w, h in zip(weights, hits)) / total
        spread = sum((w * (h - value * c)) ** 2 for w, h, c in zip(weights, hits, counted))
        return cls(value, math.sqrt(spread) / total, n, effective_samples(wc))

    @classmethod
    def _weighted(cls, values: Sequence[float], weights: Sequence[float],
                  corrected: bool) -> "Estimate":
        n = len(values)
        total = sum(weights)
        if n == 0 or total <= 0:
            return cls(math.nan, math.nan, 0, 0.0)
        value = sum(w * v for w, v in zip(weights, values)) / total
        n_eff = effective_samples(weights)
        if n < 2:
            return cls(value, math.nan, n, n_eff)
        spread = sum((w * (v - value)) ** 2 for w, v in zip(weights, values)) / total ** 2
        if corrected:
            spread *= n / (n - 1)
        return cls(value, math.sqrt(spread), n, n_eff)

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
        return cls(value, se, n, plain.n_eff)

    def as_json(self, digits: int = 4) -> Dict[str, object]:
        def r(x: float) -> Optional[float]:
            return None if math.isnan(x) else round(x, digits)
        out: Dict[str, object] = {"value": r(self.value), "se": r(self.se), "n": self.n}
        if self.n_eff is not None:
            out["n_eff"] = round(self.n_eff, 1)
        return out
