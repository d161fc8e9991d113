"""The layouts to solve and their weights (docs/ADVISE.md "Layouts" and
"Conditioning on the bids").

Every figure of `advise` is a weighted mean over layouts of the hidden
hands. The weights read the auction as `bid` reads the earlier bids
(docs/BID.md "Conditioned sampling"), with the same bidding model
(:mod:`solver.simulation.model`) and the same rejection control
(:class:`solver.simulation.Rejection`):

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
from typing import Iterator, List, Optional, Tuple

from ..auction import STANDARD, Bid
from ..seating import DUMMY_SEAT
from ..simulation import (CONDITIONED, NO_FIT, UNIFORM, Layout, Rejection, SamplingReport,
                          Weighted, check_method, drawn_peeks, exact_weights, model)
from .question import Question


def layout_rng(seed: int, index: int) -> random.Random:
    """The generator of draw ``index``: a function of (seed, index) only."""
    return random.Random(f"dummy-spades advise {int(seed)} {int(index)}")


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


def _method_note(question: Question, method: str) -> Tuple[str, str]:
    """The method as run and why it differs from the one asked for."""
    if method == CONDITIONED and question.bidding != STANDARD:
        return UNIFORM, (f"the bidding model covers standard bidding: under "
                         f"{question.bidding} the layouts are uniform")
    return method, ""


class Draws:
    """The sampled layouts to solve, in order (iterate :meth:`draws`): the
    draws of ``seed`` (:meth:`LayoutSpace.sample`), each accepted by
    rejection control under conditioned sampling (the simulation floor's
    :class:`~solver.simulation.Rejection`, its pilot drawn when first
    needed: a review prepares many runs before any is drawn)."""

    def __init__(self, question: Question, seed: int, method: str = CONDITIONED) -> None:
        self.question = q = question
        self.seed = seed
        self.method, self.note = _method_note(q, check_method(method))
        self.evaluations = 0
        conditioned = self.method == CONDITIONED and bool(q.bidders)
        self.rejection: Rejection[Layout] = Rejection(
            lambda index: q.space.sample(layout_rng(seed, index)),
            self._chances if conditioned else None, [b.bid for b in q.bidders],
            f"dummy-spades advise accept {int(seed)}")

    def _chances(self, layout: Layout, index: int) -> List[float]:
        self.evaluations += len(self.question.bidders)
        return bid_chances(self.question, layout, self.seed, index)

    @property
    def conditioning(self) -> bool:
        return self.rejection.conditioning

    @property
    def capped(self) -> bool:
        return self.rejection.capped

    def draws(self, samples: int) -> Iterator[Weighted[Layout]]:
        """The first accepted draws, at most ``samples``; stops early
        (``capped``) after the draw cap. When not one draw was accepted by
        then, the next ``samples`` draws are solved uniformly (``note``
        says so)."""
        return self.rejection.draws(samples)

    def report(self) -> SamplingReport:
        r = self.rejection
        conditioned = r.conditioning
        method, note = (self.method, self.note) if conditioned or not r.note \
            else (UNIFORM, r.note)
        return SamplingReport(method, conditioned, r.drawn, r.threshold, r.ignored,
                              self.evaluations, r.seconds, r.max_draws, note)


def exact_layouts(question: Question, seed: int,
                  method: str = CONDITIONED) -> Tuple[List[Weighted[Layout]], SamplingReport]:
    """Every consistent layout with its weight: its likelihood (conditioned,
    :func:`~solver.simulation.exact_weights`) or 1 (uniform). Listed in an
    order shuffled by the seed, so that a run stopped by a time limit has
    solved layouts drawn without replacement."""
    q = question
    method, note = _method_note(q, check_method(method))
    layouts = list(q.space.layouts())
    random.Random(f"dummy-spades advise order {int(seed)}").shuffle(layouts)
    weights: Optional[List[float]] = None
    ignored: Tuple[Bid, ...] = ()
    evaluations, seconds = 0, 0.0
    if method == CONDITIONED and q.bidders and layouts:
        start = time.thread_time()
        chances = [bid_chances(q, layout, seed, i) for i, layout in enumerate(layouts)]
        evaluations = len(q.bidders) * len(layouts)
        weights, ignored = exact_weights([b.bid for b in q.bidders], chances)
        if weights is None:
            method, note = UNIFORM, NO_FIT
        seconds = time.thread_time() - start
    report = SamplingReport(method, weights is not None, len(layouts), None, ignored, evaluations,
                            seconds, None, note)
    listed = [Weighted(i, layout, 1.0 if weights is None else weights[i])
              for i, layout in enumerate(layouts)]
    return listed, report


__all__ = ["Draws", "bid_chances", "exact_layouts", "layout_rng"]
