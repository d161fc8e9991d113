"""How a sampled analysis samples and when it stops: one :class:`Settings`
value, each setting declared and checked here once, and the stopping rules
every sampled analysis follows (:class:`Stopping`).

* **exact or sampled** (:meth:`Settings.exact`): every consistent layout
  is solved (exact figures) when there are at most ``exact_limit`` of them,
  else ``samples`` seeded draws; :meth:`Settings.planned` is the number of
  layouts a run solves at most (the length of its progress bar);
* **precision**: a run with a target takes stock at :func:`checkpoints`
  and stops once its figures' standard errors are within it;
* **time**: a wall-clock limit (:meth:`Settings.deadline`), the layouts
  solved by then kept (at least one);
* **budget**: search nodes spent in all (:meth:`Stopping.over_budget`).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Iterator, Optional

from ..errors import DealError

UNIFORM, CONDITIONED = "uniform", "conditioned"
METHODS = (CONDITIONED, UNIFORM)

DEFAULT_SAMPLES = 200
DEFAULT_SEED = 1
#: enumerate every consistent layout when there are at most this many
#: (docs/ADVISE.md "Exact mode" has the measurements behind it)
DEFAULT_EXACT_LIMIT = 5000
#: the largest exact limit: the layouts are listed in memory
EXACT_LIMIT_MAX = 1_000_000


class SimulationError(DealError):
    """A setting of a sampled analysis out of its range (samples, seed,
    sampling method, exact limit, precision, time limit, node budget)."""


def check_method(method: str) -> str:
    """``method`` if it is a sampling method (:data:`METHODS`)."""
    if method not in METHODS:
        raise SimulationError(f"sampling {method!r}", field="sampling",
                              expected=f"one of {', '.join(METHODS)}")
    return method


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) \
        and not math.isnan(value) and not math.isinf(value)


@dataclass(frozen=True)
class Settings:
    """How to sample: ``samples`` (at most, when sampled), ``seed``,
    ``sampling`` (``conditioned``: the layouts weighted by the bids;
    ``uniform``), ``exact_limit`` (enumerate when there are at most this
    many consistent layouts), ``precision`` (stop once the standard errors
    shown are at most this: percentage points for chances, points for
    scores), ``time_limit`` (seconds, 0: one layout) and ``node_budget``
    (search nodes in all; None: none). Each is checked here (a
    :class:`SimulationError` naming it)."""

    samples: int = DEFAULT_SAMPLES
    seed: int = DEFAULT_SEED
    sampling: str = CONDITIONED
    exact_limit: int = DEFAULT_EXACT_LIMIT
    precision: Optional[float] = None
    time_limit: Optional[float] = None
    node_budget: Optional[int] = None

    def __post_init__(self) -> None:
        if not _whole(self.samples) or self.samples < 1:
            raise SimulationError(f"{self.samples!r} samples", field="samples",
                                  expected="a whole number of samples, at least 1")
        if not _whole(self.seed) or self.seed < 0:
            raise SimulationError(f"seed {self.seed!r}", field="seed",
                                  expected="a whole number, 0 or more")
        check_method(self.sampling)
        if not _whole(self.exact_limit) or not 0 <= self.exact_limit <= EXACT_LIMIT_MAX:
            raise SimulationError(f"exact limit {self.exact_limit!r}", field="exact_limit",
                                  expected=f"a whole number of layouts from 0 to "
                                           f"{EXACT_LIMIT_MAX:,}")
        if self.precision is not None:
            if not _number(self.precision) or not self.precision > 0:
                raise SimulationError(
                    f"precision {self.precision!r}", field="precision",
                    expected="a positive number (percentage points for chances, points for "
                             "scores)")
            object.__setattr__(self, "precision", float(self.precision))
        if self.time_limit is not None:
            if not _number(self.time_limit) or not self.time_limit >= 0:
                raise SimulationError(f"{self.time_limit!r} seconds", field="time_limit",
                                      expected="a number of seconds, 0 or more (0: one layout)")
            object.__setattr__(self, "time_limit", float(self.time_limit))
        if self.node_budget is not None and (not _whole(self.node_budget)
                                             or self.node_budget < 0):
            raise SimulationError(f"node budget {self.node_budget!r}", field="node_budget",
                                  expected="a whole number of search nodes, 0 or more")

    def exact(self, consistent: int) -> bool:
        """Are ``consistent`` layouts few enough to solve every one?"""
        return consistent <= self.exact_limit

    def planned(self, consistent: int) -> int:
        """The layouts a run over ``consistent`` layouts solves at most."""
        return consistent if self.exact(consistent) else self.samples

    def deadline(self) -> Optional[float]:
        """The ``time.monotonic()`` at which a run started now stops."""
        return None if self.time_limit is None else time.monotonic() + self.time_limit


def checkpoints() -> Iterator[int]:
    """The sample counts at which a run with a precision target (or a live
    display) takes stock: 20, 30, 40, 50, 60, 72, ... (at least 10 more and
    20% more each time), the same whatever the executor, so the stopping point
    is a function of the seed."""
    n = 20
    while True:
        yield n
        n = max(n + 10, math.ceil(n * 1.2))


class Stopping:
    """The stopping rules of one run under ``settings``: :meth:`checkpoint`
    (is this count of layouts one of :func:`checkpoints`?), :meth:`precise`
    (is a figure's precision within the target?), :meth:`timed_out` and
    :meth:`over_budget` (search nodes spent)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.deadline = settings.deadline()
        self._marks = checkpoints()
        self._mark = next(self._marks)

    def checkpoint(self, n: int) -> bool:
        if n != self._mark:
            return False
        self._mark = next(self._marks)
        return True

    def precise(self, precision: float) -> bool:
        target = self.settings.precision
        return target is not None and precision <= target

    def timed_out(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def over_budget(self, nodes: int) -> bool:
        budget = self.settings.node_budget
        return budget is not None and nodes >= budget


__all__ = ["CONDITIONED", "DEFAULT_EXACT_LIMIT", "DEFAULT_SAMPLES", "DEFAULT_SEED",
           "EXACT_LIMIT_MAX", "METHODS", "Settings", "SimulationError", "Stopping", "UNIFORM",
           "check_method", "checkpoints"]
