"""The layouts to solve and their weights (docs/ADVISE.md "Layouts" and
"Conditioning on the bids").

Every figure of `advise` is a weighted mean over layouts of the hidden
hands. The weights read the auction as `bid` reads the earlier bids
(docs/BID.md "Conditioned sampling"), with the same bidding model
(:mod:`solver.bid.model`) and the same rejection control
(:class:`solver.bid.sampling.RejectionControl`):

* a layout's likelihood is the product, over the other real players' bids,
  of the model's chance of the call they made with the 13 cards the layout
  deals them (the cards they still hold and those they have played) and
  the dummy cards they saw (flip-N: the cards face up; three/four-peeky:
  a private peek, unknown to the chooser, drawn from the dummy's 13 cards
  by a generator seeded from the seed, the layout and the bidder;
  no-peeky: none). The chooser's own bid weighs every layout alike and is
  left out;
* **sampled** (:class:`Draws`): draw ``i`` is :meth:`LayoutSpace.sample` with
  the generator seeded from ``dummy-spades advise <seed> <i>`` (every
  consistent layout equally likely); under ``conditioned`` it is accepted
  or rejected by rejection control before any solve and weighs what it
  says; under ``uniform`` every draw is solved and weighs 1;
* **exact** (:func:`exact_layouts`): every consistent layout, each
  weighing its likelihood (``conditioned``) or 1 (``uniform``).

Under a bidding variant (mirror, suicide) the model does not apply: the
layouts are uniform, and mirror's bids are spade counts that the layout
space already holds. A bid the model gives no chance on any layout (at
most the floor) is left out of the conditioning and named; when every bid
is, the layouts are uniform and a note says so: conditioning never leaves
nothing to solve.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Iterator, List, Optional, Tuple

from ..auction import STANDARD, Bid
from ..bid import model
from ..bid.sampling import (CONDITIONED, DRAWS_PER_SAMPLE, METHODS, PILOT, UNIFORM,
                            RejectionControl, drawn_peeks, ignored_bids, likelihood)
from ..seating import DUMMY_SEAT
from .layouts import Layout
from .question import AdviseError, Question


def layout_rng(seed: int, index: int) -> random.Random:
    """The generator of draw ``index``: a function of (seed, index) only."""
    return random.Random(f"dummy-spades advise {int(seed)} {int(index)}")


def check_method(method: str) -> str:
    if method not in METHODS:
        raise AdviseError(f"sampling {method!r}", field="sampling",
                          expected=f"one of {', '.join(METHODS)}")
    return method


def bid_chances(question: Question, layout: Layout, seed: int, index: int) -> List[float]:
    """The bidding model's chance of each of ``question.bidders``' calls in
    ``layout`` (layout ``index`` of ``seed``, for the drawn peeks)."""
    q = question
    dummy = q.original(layout, DUMMY_SEAT)
    out = []
    for b in q.bidders:
        seen = drawn_peeks(q.variant, q.knowledge.face_up, dummy,
                           f"dummy-spades advise peeks {int(seed)} {int(index)} {b.bid.player}")
        view = model.View(q.original(layout, b.seat), seen, b.position, b.earlier)
        out.append(model.call_chance(b.bid, view))
    return out


@dataclass(frozen=True)
class Weighted:
    """A layout to solve: its index (the draw, or its place in the
    enumeration), the hidden hands and its weight."""

    index: int
    layout: Layout
    weight: float = 1.0


@dataclass(frozen=True)
class SamplingReport:
    """How the layouts were chosen (the JSON's ``sampling``).

    ``method``: ``conditioned`` or ``uniform`` (as run: a bidding variant or
    bids that fit no layout make it uniform, ``note`` says why);
    ``conditioned``: the bids weighted the layouts; ``drawn``: draws made
    (sampled) or layouts listed (exact); ``threshold``: the rejection-control
    threshold (sampled, conditioned); ``ignored``: bids left out of the
    conditioning; ``evaluations``: bidding-model evaluations; ``seconds``:
    their CPU time; ``max_draws``: the draw cap (sampled)."""

    method: str
    conditioned: bool
    drawn: int
    threshold: Optional[float] = None
    ignored: Tuple[Bid, ...] = ()
    evaluations: int = 0
    seconds: float = field(default=0.0, compare=False)
    max_draws: Optional[int] = None
    note: str = ""


def _method_note(question: Question, method: str) -> Tuple[str, str]:
    """The method as run and why it differs from the one asked for."""
    if method == CONDITIONED and question.bidding != STANDARD:
        return UNIFORM, (f"the bidding model covers standard bidding: under "
                         f"{question.bidding} the layouts are uniform")
    return method, ""


NO_FIT = ("no layout fits the bids under the bidding model (each is given no chance on every "
          "layout): the layouts are uniform")
NO_DRAW_FITS = ("no layout drawn was accepted under the bidding model within the draw cap (the "
                "bids are too unlikely): the layouts are uniform")


@dataclass
class Draws:
    """The sampled layouts to solve, in order (iterate :meth:`draws`): the
    draws of ``seed``, each accepted by rejection control under conditioned
    sampling."""

    question: Question
    seed: int
    method: str = CONDITIONED
    evaluations: int = 0
    seconds: float = 0.0
    drawn: int = 0
    capped: bool = False
    max_draws: Optional[int] = None
    note: str = ""
    control: Optional[RejectionControl] = field(default=None, repr=False)
    _pilot: Optional[List[Layout]] = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.method, self.note = _method_note(self.question, check_method(self.method))

    def _chances(self, layout: Layout, index: int) -> List[float]:
        self.evaluations += len(self.question.bidders)
        return bid_chances(self.question, layout, self.seed, index)

    def _start_pilot(self) -> None:
        """The pilot draws and the rejection control, once, when first
        needed (a review prepares many runs before any is drawn)."""
        if self._pilot is not None:
            return
        self._pilot = []
        if self.method != CONDITIONED or not self.question.bidders:
            return
        start = time.thread_time()
        space = self.question.space
        self._pilot = [space.sample(layout_rng(self.seed, i)) for i in range(PILOT)]
        chances = [self._chances(layout, i) for i, layout in enumerate(self._pilot)]
        bids = tuple(b.bid for b in self.question.bidders)
        control = RejectionControl(bids, chances, f"dummy-spades advise accept {int(self.seed)}")
        if len(control.ignored) == len(bids):
            self.method, self.note = UNIFORM, NO_FIT
        else:
            self.control = control
        self.seconds += time.thread_time() - start

    @property
    def conditioning(self) -> bool:
        self._start_pilot()
        return self.control is not None

    def draws(self, samples: int) -> Iterator[Weighted]:
        """The first accepted draws, at most ``samples``; stops early
        (``capped``) after :attr:`max_draws` draws. When not one draw was
        accepted by then, the next ``samples`` draws are solved uniformly
        (``note`` says so)."""
        self._start_pilot()
        assert self._pilot is not None
        pilot = self._pilot
        space = self.question.space
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
                self.method, self.note = UNIFORM, NO_DRAW_FITS
                self.max_draws = index + samples
            if index < len(pilot):
                layout = pilot[index]
            else:
                layout = space.sample(layout_rng(self.seed, index))
            weight: Optional[float] = 1.0
            if control is not None:
                start = time.thread_time()
                likelihood = (control.pilot[index] if index < PILOT
                              else control.likelihood(self._chances(layout, index)))
                weight = control.weight(index, likelihood)
                self.seconds += time.thread_time() - start
            index += 1
            self.drawn = index
            if weight is not None:
                accepted += 1
                yield Weighted(index - 1, layout, weight)

    def report(self) -> SamplingReport:
        self._start_pilot()
        c = self.control
        return SamplingReport(self.method, c is not None, self.drawn,
                              None if c is None else c.threshold,
                              () if c is None else c.ignored, self.evaluations, self.seconds,
                              self.max_draws, self.note)


def exact_layouts(question: Question, seed: int,
                  method: str = CONDITIONED) -> Tuple[List[Weighted], SamplingReport]:
    """Every consistent layout with its weight: its likelihood (conditioned,
    each bid's chance floored, bids with no chance anywhere left out) or 1
    (uniform). Listed in an order shuffled by the seed, so that a run
    stopped by a time limit has solved layouts drawn without replacement."""
    q = question
    method, note = _method_note(q, check_method(method))
    layouts = list(q.space.layouts())
    random.Random(f"dummy-spades advise order {int(seed)}").shuffle(layouts)
    weights = [1.0] * len(layouts)
    ignored: Tuple[Bid, ...] = ()
    evaluations, seconds = 0, 0.0
    conditioned = method == CONDITIONED and bool(q.bidders) and bool(layouts)
    if conditioned:
        start = time.thread_time()
        chances = [bid_chances(q, layout, seed, i) for i, layout in enumerate(layouts)]
        evaluations = len(q.bidders) * len(layouts)
        bids = tuple(b.bid for b in q.bidders)
        ignored = ignored_bids(bids, chances)
        if len(ignored) == len(bids):
            method, note, conditioned, ignored = UNIFORM, NO_FIT, False, ()
        else:
            weights = [likelihood(bids, ignored, c) for c in chances]
        seconds = time.thread_time() - start
    report = SamplingReport(method, conditioned, len(layouts), None, ignored, evaluations,
                            seconds, None, note)
    return [Weighted(i, layout, w) for i, (layout, w) in enumerate(zip(layouts, weights))], report


__all__ = ["Draws", "NO_DRAW_FITS", "NO_FIT", "SamplingReport", "Weighted", "bid_chances",
           "check_method", "exact_layouts", "layout_rng"]
