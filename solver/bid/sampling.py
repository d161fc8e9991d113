"""Layouts of the unseen cards consistent with a player's knowledge in the
auction, and the draws the simulation solves (:class:`Sampler`).

Draw ``i`` of a seed is always the same layout, :func:`sample_layout`: the
unseen cards dealt uniformly at random. Which draws are solved and with
what weight is the simulation floor's (:mod:`solver.simulation.conditioning`:
``uniform``, or ``conditioned`` on the earlier bids by rejection control);
here are the bid's own parts: the layouts, what each bidder saw, and the
later bidders' views (their hands in the layout, the dummy cards they saw)
for the later-bid model of :mod:`.outcome`.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..auction import STANDARD, Bid
from ..cards import SPADES, SUIT_MASK, iter_cards
from ..cards import count as popcount
from ..scoring import DUMMY, TRICKS_PER_HAND
from ..simulation import model
from ..simulation.conditioning import (CONDITIONED, UNIFORM, Rejection, SamplingReport,
                                       drawn_peeks)
from ..simulation.estimates import effective_samples
from ..simulation.settings import check_method
from .knowledge import Knowledge


def sample_rng(seed: int, index: int) -> random.Random:
    """The generator of sample ``index``: a function of (seed, index) only."""
    return random.Random(f"dummy-spades bid {int(seed)} {int(index)}")


def sample_layout(knowledge: Knowledge, seed: int, index: int) -> Dict[str, int]:
    """One layout consistent with ``knowledge``: hand name -> card mask.

    The unseen cards are shuffled and dealt to fill the dummy (its known
    cards stay in it) and the two other hands to 13 cards each: every
    consistent layout is equally likely."""
    k = knowledge
    if k.spades_known:
        return _sample_with_spade_counts(k, seed, index)
    cards = list(iter_cards(k.unknown))
    sample_rng(seed, index).shuffle(cards)
    need = TRICKS_PER_HAND - popcount(k.dummy_seen)
    left, right = k.others
    dummy = k.dummy_seen
    for c in cards[:need]:
        dummy |= 1 << c
    lh = rh = 0
    for c in cards[need:need + 13]:
        lh |= 1 << c
    for c in cards[need + 13:]:
        rh |= 1 << c
    return {k.player: k.hand, left: lh, DUMMY: dummy, right: rh}


def _sample_with_spade_counts(knowledge: Knowledge, seed: int, index: int) -> Dict[str, int]:
    """:func:`sample_layout` when some hands' spade counts are known (mirror
    bids): each such hand takes its count of the unseen spades and the rest
    of its cards from the unseen other cards, at random; the remaining cards
    fill the other hands as usual. Every consistent layout is equally likely."""
    k = knowledge
    rng = sample_rng(seed, index)
    spades = [c for c in iter_cards(k.unknown & SUIT_MASK[SPADES])]
    others = [c for c in iter_cards(k.unknown & ~SUIT_MASK[SPADES])]
    rng.shuffle(spades)
    rng.shuffle(others)
    layout = {k.player: k.hand, DUMMY: k.dummy_seen}
    for name, count in k.spades_known.items():
        hand = 0
        for c in spades[:count] + others[:TRICKS_PER_HAND - count]:
            hand |= 1 << c
        layout[name] = hand
        spades, others = spades[count:], others[TRICKS_PER_HAND - count:]
    rest = spades + others
    rng.shuffle(rest)
    for name in (DUMMY,) + k.others:
        if name in k.spades_known:
            continue
        need = TRICKS_PER_HAND - popcount(layout.get(name, 0))
        hand = layout.get(name, 0)
        for c in rest[:need]:
            hand |= 1 << c
        layout[name] = hand
        rest = rest[need:]
    left, right = k.others
    return {k.player: layout[k.player], left: layout[left], DUMMY: layout[DUMMY], right: layout[right]}


def dummy_seen_by(knowledge: Knowledge, layout: Dict[str, int], name: str, seed: int,
                  index: int) -> int:
    """The dummy cards another player saw before bidding, in this layout:
    flip-N, the cards face up (known to all); three/four-peeky, their own
    private peeks, unknown to the player, so drawn from the layout's dummy
    (seeded by draw and name); no-peeky, none."""
    k = knowledge
    return drawn_peeks(k.variant, k.dummy_seen, layout[DUMMY],
                       f"dummy-spades bid peeks {int(seed)} {int(index)} {name}")


@dataclass(frozen=True)
class LaterBidder:
    """A bidder after the player, as the later-bid model sees them in one
    layout: ``mean`` their trick estimate without the earlier bids' terms
    (:func:`model.base_estimate`), ``spread`` its error (:func:`model.spread`),
    ``nil`` their nil chance."""

    name: str
    position: int
    mean: float
    spread: float
    nil: float


@dataclass(frozen=True)
class Draw:
    """One accepted draw: the layout ``sample_layout(knowledge, seed, index)``
    with its importance ``weight``. ``drawn``: draws made up to this one
    (accepted or not). ``estimates``: the model's trick estimate of each
    other player's hand (:func:`model.worth`, ``knowledge.others`` order);
    ``uniform``: the running sums of those estimates over all ``drawn``
    draws (for the comparison with uniform sampling)."""

    index: int
    weight: float = 1.0
    drawn: int = 0
    later: Tuple[LaterBidder, ...] = ()
    estimates: Tuple[float, ...] = ()
    uniform: Tuple[float, ...] = ()
    evaluations: int = 0       # model evaluations made up to this draw (the pilot included)
    seconds: float = field(default=0.0, compare=False)   # their CPU time
    layout: Dict[str, int] = field(default_factory=dict, compare=False, repr=False)


@dataclass
class Sampler:
    """The accepted draws of ``knowledge`` for ``seed``, in order (iterate;
    the numbers are the same however far and in what pieces it is read):
    the simulation floor's :class:`~solver.simulation.conditioning.Rejection`
    over :func:`sample_layout`. Counts the model ``evaluations`` made and
    the CPU time they took (``seconds``, of the thread that draws)."""

    knowledge: Knowledge
    seed: int
    method: str = CONDITIONED
    condition: bool = True          # False: the model's later bids without conditioning
    evaluations: int = 0
    note: str = field(default="", init=False)
    modelled: bool = field(default=False, init=False)       # the model makes the later bids
    rejection: Rejection[Dict[str, int]] = field(init=False, repr=False)
    _views_seen: List[model.View] = field(default_factory=list, init=False, repr=False)
    _estimates: Tuple[float, ...] = field(default=(), init=False, repr=False)
    _sums: List[float] = field(default_factory=list, init=False, repr=False)

    def __post_init__(self) -> None:
        check_method(self.method)
        k = self.knowledge
        if self.method == CONDITIONED and k.bidding != STANDARD:
            self.method = UNIFORM
            self.note = (f"the bidding model covers standard bidding: under {k.bidding} the "
                         "layouts are sampled as with --sampling uniform")
        self.modelled = self.method == CONDITIONED
        conditioning = self.modelled and self.condition and bool(k.bids)
        self.rejection = Rejection(
            lambda index: sample_layout(k, self.seed, index),
            self._chances if conditioning else None, [b for b in k.bids],
            f"dummy-spades bid accept {int(self.seed)}",
            self._seen if self.modelled else None)
        self.rejection.start()

    @property
    def conditioning(self) -> bool:
        """Do the earlier bids weight the draws?"""
        return self.rejection.conditioning

    @property
    def threshold(self) -> Optional[float]:
        return self.rejection.threshold

    @property
    def ignored(self) -> Tuple[Bid, ...]:
        return self.rejection.ignored

    @property
    def capped(self) -> bool:
        return self.rejection.capped

    @property
    def max_draws(self) -> Optional[int]:
        return self.rejection.max_draws

    @property
    def seconds(self) -> float:
        return self.rejection.seconds

    # ------------------------------------------------------------ model
    def _views(self, layout: Dict[str, int], index: int,
               names: Sequence[str]) -> List[model.View]:
        k = self.knowledge
        out = []
        for name in names:
            position = k.order.index(name)
            earlier = tuple(b.tricks for b in k.bids[:position])
            out.append(model.View(layout[name], dummy_seen_by(k, layout, name, self.seed, index),
                                  position, earlier))
        return out

    def _chances(self, layout: Dict[str, int], index: int) -> List[float]:
        """The model's chance of each earlier bid, given the bidder's hand here."""
        k = self.knowledge
        views = self._views(layout, index, [b.player for b in k.bids])
        self.evaluations += len(views)
        return [model.call_chance(b, v) for b, v in zip(k.bids, views)]

    def _seen(self, index: int, layout: Dict[str, int]) -> None:
        """Every draw made: the model's worth of the other players' hands."""
        views = self._views_seen = self._views(layout, index, self.knowledge.others)
        self._estimates = tuple(model.worth(v.hand, v.dummy) for v in views)
        self.evaluations += len(views)
        for j, e in enumerate(self._estimates):
            self._sums[j] += e

    def draws(self, samples: int) -> Iterator[Draw]:
        """The first accepted draws, at most ``samples`` of them; stops early
        (``capped``) after ``max_draws`` draws."""
        k = self.knowledge
        self._sums = [0.0] * len(k.others)
        for w in self.rejection.draws(samples):
            if not self.modelled:
                yield Draw(w.index, w.weight, w.index + 1, layout=w.layout)
                continue
            later = tuple(LaterBidder(name, v.position, model.base_estimate(v), model.spread(v),
                                      model.nil_chance(v.hand))
                          for name, v in zip(k.others, self._views_seen)
                          if name in k.later_bidders)
            self.evaluations += len(later)
            yield Draw(w.index, w.weight, self.rejection.drawn, later, self._estimates,
                       tuple(self._sums), self.evaluations, self.seconds, w.layout)

    def report(self, draws: Sequence[Draw], stopped_by: str) -> SamplingReport:
        """The report of a run that solved ``draws`` (a prefix of :meth:`draws`)."""
        k = self.knowledge
        r = self.rejection
        note = self.note or r.note
        if not draws:
            return SamplingReport(self.method, False, 0, modelled=self.modelled,
                                  stopped_by=stopped_by, note=note)
        last = draws[-1]
        worth: Tuple[Tuple[str, float, float], ...] = ()
        weights = [d.weight for d in draws]
        if self.modelled:
            total = sum(weights)
            worth = tuple((name, sum(w * d.estimates[j] for w, d in zip(weights, draws)) / total,
                           last.uniform[j] / last.drawn) for j, name in enumerate(k.others))
        return SamplingReport(self.method, r.conditioning, last.drawn, r.threshold, r.ignored,
                              last.evaluations, last.seconds, r.max_draws, note, self.modelled,
                              len(draws), effective_samples(weights), stopped_by, worth)
