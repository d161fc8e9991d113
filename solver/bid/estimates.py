"""Estimates: a sample mean or proportion with its standard error."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Dict, Optional, Sequence


@dataclass(frozen=True)
class Estimate:
    """A sample mean with its standard error and sample count (a probability
    when the samples are 0/1)."""

    value: float
    se: float
    n: int

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
    def share(cls, hits: int, n: int) -> "Estimate":
        """A proportion ``hits / n`` with the binomial standard error."""
        if n == 0:
            return cls(math.nan, math.nan, 0)
        p = hits / n
        return cls(p, math.sqrt(p * (1 - p) / n), n)

    def as_json(self, digits: int = 4) -> Dict[str, object]:
        def r(x: float) -> Optional[float]:
            return None if math.isnan(x) else round(x, digits)
        return {"value": r(self.value), "se": r(self.se), "n": self.n}
