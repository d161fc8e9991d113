"""The draws a sampled analysis solves, weighted by the earlier bids
(docs/BID.md "Conditioned sampling", docs/ADVISE.md "Conditioning on the
bids").

Draw ``i`` of a seed is always the same layout, drawn uniformly at random
from those consistent with what the player knows (the analysis says how:
:func:`.layouts.sample_layout` before the play, :meth:`.layouts.LayoutSpace.sample`
in it). The two sampling methods differ in which draws are solved and with
what weight:

* ``uniform``: every draw, weight 1 (the earlier bids shape nothing);
* ``conditioned``: each earlier bidder's hand weighted by the bidding
  model's chance of the call they made (:mod:`.model`), by *rejection
  control* (:class:`Rejection`, the one loop): draw ``i``, with likelihood
  ``L`` (the product of those chances), is accepted with chance
  ``min(1, L / c)`` and then weighs ``max(1, L / c)``. Every accepted draw
  is solved; rejected ones cost a model evaluation per earlier bidder and
  no solve. The threshold ``c`` is the largest likelihood among the first
  :data:`PILOT` draws, lowered where needed so that at least
  :data:`MIN_ACCEPTANCE` of them would be accepted (weights then spread,
  which the effective sample size shows). Each bidder's chance is floored
  at :data:`FLOOR`; a bidder whose call the model gives no chance (at most
  the floor) on every pilot draw is left out of the conditioning (sampled
  uniformly) and named in the output; when every bidder is, the draws are
  uniform and a note says so (:data:`NO_FIT`).

The acceptance of draw ``i`` uses its own generator, so the accepted draws
and their weights are a function of the seed alone, whatever the number of
worker processes. Exact enumeration weighs every layout by its likelihood
instead (:func:`exact_weights`).
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Callable, Generic, Iterator, List, Optional, Sequence, Tuple, TypeVar

from ..auction import Bid
from ..deal import VARIANT_CARDS
from ..cards import iter_cards
from .settings import CONDITIONED, METHODS, UNIFORM, check_method

PILOT = 500
MIN_ACCEPTANCE = 0.01
FLOOR = 1e-9
#: at most this many draws per sample asked for (beyond the pilot)
DRAWS_PER_SAMPLE = 2000

NO_FIT = ("no layout fits the bids under the bidding model (each is given no chance on every "
          "layout): the layouts are uniform")
NO_DRAW_FITS = ("no layout drawn was accepted under the bidding model within the draw cap (the "
                "bids are too unlikely): the layouts are uniform")


def drawn_peeks(variant: str, face_up: int, dummy: int, name: str) -> int:
    """The dummy cards a bidder saw under ``variant`` (its dummy-visibility
    name) when the player asking does not know them: flip-N, the cards
    ``face_up``; three/four-peeky, a private peek of that many of the cards
    of ``dummy`` (the dummy's 13 cards), drawn by a generator seeded from
    the text ``name``; no-peeky, none."""
    n = VARIANT_CARDS[variant]
    if n == 0:
        return 0
    if variant.startswith("flip"):
        return face_up
    rng = random.Random(name)
    return sum(1 << c for c in rng.sample(list(iter_cards(dummy)), n))


@dataclass(frozen=True)
class SamplingReport:
    """How the solved layouts were chosen (the JSON's ``sampling``).

    ``method``: ``conditioned`` or ``uniform`` as run; ``conditioned``: the
    bids weighted the layouts; ``drawn``: draws made (sampled) or layouts
    listed (exact); ``threshold``: the rejection-control threshold
    (sampled, conditioned); ``ignored``: bids the model gives no chance,
    left out of the conditioning; ``evaluations``: bidding-model
    evaluations (the cost of conditioning: no solve) and ``seconds`` their
    CPU time; ``max_draws``: the draw cap (sampled); ``note``: why the
    layouts are uniform when conditioned sampling was asked for.

    A bid simulation adds: ``modelled``, later bids by the bidding model;
    ``accepted``, draws solved; ``effective_samples``, Kish's n_eff of the
    weights; ``stopped_by``: ``samples``, ``time``, ``precision`` or
    ``draws`` (the draw cap); ``worth``: per other player, the model's worth
    of their hand, mean over the solved layouts (weighted) and over every
    draw (uniform); ``control_draws``: the draws predicted but not solved
    for the control variates."""

    method: str
    conditioned: bool
    drawn: int
    threshold: Optional[float] = None
    ignored: Tuple[Bid, ...] = ()
    evaluations: int = 0
    seconds: float = field(default=0.0, compare=False)
    max_draws: Optional[int] = None
    note: str = ""
    modelled: bool = False
    accepted: int = 0
    effective_samples: float = 0.0
    stopped_by: str = ""
    worth: Tuple[Tuple[str, float, float], ...] = ()
    control_draws: int = 0


class RejectionControl:
    """Rejection control over a stream of draws 0, 1, 2, ... weighted by the
    likelihood of ``bids``.

    ``pilot``: the model's chance of each bid on each of the first
    :data:`PILOT` draws. A bid whose chance is at most :data:`FLOOR` on every
    pilot draw is left out (:attr:`ignored`); the likelihood of a draw is the
    product of the other bids' chances, each floored at :data:`FLOOR`; the
    threshold is :func:`acceptance_threshold` of the pilot's likelihoods.
    Draw ``i`` is accepted by its own generator, seeded from the text
    ``f"{name} {i}"``, so the accepted draws are a function of ``name`` (which
    holds the seed) alone."""

    def __init__(self, bids: Sequence[Bid], pilot: Sequence[Sequence[float]], name: str) -> None:
        self.bids = tuple(bids)
        self.name = name
        self.ignored = ignored_bids(self.bids, pilot)
        self.pilot = [self.likelihood(c) for c in pilot]
        self.threshold = acceptance_threshold(self.pilot)

    def likelihood(self, chances: Sequence[float]) -> float:
        """The product of the chances of the bids not ignored, each floored."""
        return likelihood(self.bids, self.ignored, chances)

    def weight(self, index: int, likelihood: float) -> Optional[float]:
        """The weight of draw ``index`` (of this likelihood) if accepted, else None."""
        c = self.threshold
        if likelihood >= c:
            return likelihood / c
        u = random.Random(f"{self.name} {int(index)}").random()
        return 1.0 if u * c < likelihood else None


def ignored_bids(bids: Sequence[Bid], chances: Sequence[Sequence[float]]) -> Tuple[Bid, ...]:
    """The bids the model gives no chance (at most :data:`FLOOR`) in every
    row of ``chances`` (one row per draw, one chance per bid)."""
    return tuple(b for j, b in enumerate(bids) if max(c[j] for c in chances) <= FLOOR)


def likelihood(bids: Sequence[Bid], ignored: Sequence[Bid], chances: Sequence[float]) -> float:
    """The product of the chances of the bids not ``ignored``, each floored
    at :data:`FLOOR`."""
    out = 1.0
    for bid, p in zip(bids, chances):
        if bid not in ignored:
            out *= max(p, FLOOR)
    return out


def acceptance_threshold(likelihoods: List[float]) -> float:
    """The largest ``c`` (at most the largest likelihood) with which at least
    :data:`MIN_ACCEPTANCE` of these draws would be accepted."""
    top = max(likelihoods)

    def rate(c: float) -> float:
        return sum(min(1.0, x / c) for x in likelihoods) / len(likelihoods)

    if rate(top) >= MIN_ACCEPTANCE:
        return top
    low, high = min(likelihoods), top      # rate(low) = 1
    for _ in range(60):
        mid = (low + high) / 2
        if rate(mid) >= MIN_ACCEPTANCE:
            low = mid
        else:
            high = mid
    return low


def exact_weights(bids: Sequence[Bid], chances: Sequence[Sequence[float]]
                  ) -> Tuple[Optional[List[float]], Tuple[Bid, ...]]:
    """The weight of every layout of an enumeration (one row of ``chances``
    each): its likelihood, with the bids no layout gives a chance left out
    (returned); ``None`` when every bid is (the layouts are uniform)."""
    ignored = ignored_bids(bids, chances)
    if len(ignored) == len(bids):
        return None, ()
    return [likelihood(bids, ignored, c) for c in chances], ignored


Layout = TypeVar("Layout")


@dataclass(frozen=True)
class Weighted(Generic[Layout]):
    """A layout to solve: its index (the draw, or its place in the
    enumeration), the layout and its weight."""

    index: int
    layout: Layout
    weight: float = 1.0


class Rejection(Generic[Layout]):
    """The accepted draws of one seed, in order: draw ``index`` is
    ``layout(index)``; with ``chances`` (the model's chance of each of
    ``bids`` in a layout, by index) they are weighted by rejection control,
    whose acceptance stream is named ``name`` (which holds the seed). The
    pilot is drawn once, when first needed. ``seen(index, layout)``, if
    given, is called on every draw made, accepted or not.

    ``note`` says why the draws are uniform when the bids were to weight
    them: no bid fits any pilot draw (:data:`NO_FIT`), or not one draw was
    accepted within the cap (:data:`NO_DRAW_FITS`, then the next draws are
    taken uniformly). ``seconds``: the CPU time of the model's work."""

    def __init__(self, layout: Callable[[int], Layout],
                 chances: Optional[Callable[[Layout, int], Sequence[float]]] = None,
                 bids: Sequence[Bid] = (), name: str = "",
                 seen: Optional[Callable[[int, Layout], None]] = None) -> None:
        self.layout = layout
        self.chances = chances
        self.bids = tuple(bids)
        self.name = name
        self.seen = seen
        self.control: Optional[RejectionControl] = None
        self.note = ""
        self.seconds = 0.0
        self.drawn = 0
        self.capped = False
        self.max_draws: Optional[int] = None
        self._pilot: Optional[List[Layout]] = None

    def start(self) -> None:
        """The pilot draws and the rejection control, once."""
        if self._pilot is not None:
            return
        self._pilot = []
        if self.chances is None or not self.bids:
            return
        start = time.thread_time()
        self._pilot = [self.layout(i) for i in range(PILOT)]
        rows = [self.chances(layout, i) for i, layout in enumerate(self._pilot)]
        control = RejectionControl(self.bids, rows, self.name)
        if len(control.ignored) == len(self.bids):
            self.note = NO_FIT
        else:
            self.control = control
        self.seconds += time.thread_time() - start

    @property
    def conditioning(self) -> bool:
        """Do the bids weight the draws?"""
        self.start()
        return self.control is not None

    @property
    def threshold(self) -> Optional[float]:
        self.start()
        return None if self.control is None else self.control.threshold

    @property
    def ignored(self) -> Tuple[Bid, ...]:
        """The bids left out of the conditioning (none when it is off)."""
        self.start()
        return () if self.control is None else self.control.ignored

    def draws(self, samples: int) -> Iterator[Weighted[Layout]]:
        """The first accepted draws, at most ``samples``; stops early
        (``capped``) after :attr:`max_draws` draws (past the pilot,
        :data:`DRAWS_PER_SAMPLE` a sample asked for)."""
        self.start()
        assert self._pilot is not None
        pilot = self._pilot
        control = self.control
        self.max_draws = PILOT + DRAWS_PER_SAMPLE * samples if control is not None else samples
        self.capped = False
        accepted = index = 0
        while accepted < samples:
            if index >= self.max_draws:
                if accepted or control is None:
                    self.capped = True
                    return
                # no draw fitted the bids within the cap: uniform draws, with a note
                self.control = control = None
                self.note = NO_DRAW_FITS
                self.max_draws = index + samples
            layout = pilot[index] if index < len(pilot) else self.layout(index)
            weight: Optional[float] = 1.0
            start = time.thread_time()
            if control is not None:
                assert self.chances is not None
                like = (control.pilot[index] if index < PILOT
                        else control.likelihood(self.chances(layout, index)))
                weight = control.weight(index, like)
            if self.seen is not None:
                self.seen(index, layout)
            self.seconds += time.thread_time() - start
            index += 1
            self.drawn = index
            if weight is not None:
                accepted += 1
                yield Weighted(index - 1, layout, weight)


__all__ = ["CONDITIONED", "DRAWS_PER_SAMPLE", "FLOOR", "METHODS", "MIN_ACCEPTANCE", "NO_DRAW_FITS",
           "NO_FIT", "PILOT", "Rejection", "RejectionControl", "SamplingReport", "UNIFORM",
           "Weighted", "acceptance_threshold", "check_method", "drawn_peeks", "exact_weights",
           "ignored_bids", "likelihood"]
