"""Layouts of the unseen cards consistent with a player's knowledge, and the
draws the simulation solves (:class:`Sampler`).

Draw ``i`` of a seed is always the same layout, :func:`sample_layout`: the
unseen cards dealt uniformly at random. The two sampling methods differ in
which draws are solved and with what weight:

* ``uniform``: every draw, weight 1 (the earlier bids shape nothing);
* ``conditioned``: each earlier bidder's hand weighted by the bidding
  model's chance of the call they made (:mod:`.model`), by *rejection
  control*: draw ``i``, with likelihood ``L`` (the product of those
  chances), is accepted with chance ``min(1, L / c)`` and then weighs
  ``max(1, L / c)``. Every accepted draw is solved; rejected ones cost a
  model evaluation per earlier bidder and no solve. The threshold ``c`` is
  the largest likelihood among the first :data:`PILOT` draws, lowered where
  needed so that at least :data:`MIN_ACCEPTANCE` of them would be accepted
  (weights then spread, which the effective sample size shows). Each
  bidder's chance is floored at :data:`FLOOR`; a bidder whose call the
  model gives no chance (at most the floor) on every pilot draw is left
  out of the conditioning (sampled uniformly) and named in the output.

The acceptance of draw ``i`` uses its own generator, so the accepted draws
and their weights are a function of the seed alone, whatever the number of
worker processes. Later bidders' views (their hands in the layout, the
dummy cards they saw) are worked out here too, for the later-bid model of
:mod:`.outcome`.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..auction import STANDARD, Bid
from ..cards import SPADES, SUIT_MASK, iter_cards
from ..cards import count as popcount
from ..deal import VARIANT_CARDS
from ..scoring import DUMMY, TRICKS_PER_HAND
from . import model
from .estimates import effective_samples
from .knowledge import BidError, Knowledge

UNIFORM, CONDITIONED = "uniform", "conditioned"
METHODS = (CONDITIONED, UNIFORM)
PILOT = 500
MIN_ACCEPTANCE = 0.01
FLOOR = 1e-9
#: at most this many draws per sample asked for (beyond the pilot)
DRAWS_PER_SAMPLE = 2000


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


@dataclass(frozen=True)
class SamplingReport:
    """How the solved layouts were drawn (the JSON's ``sampling``).

    ``modelled``: later bids by the bidding model (conditioned sampling);
    ``drawn`` / ``accepted``: draws made and solved; ``effective_samples``:
    Kish's n_eff of the weights; ``stopped_by``: ``samples``, ``time``,
    ``precision`` or ``draws`` (the draw cap); ``evaluations``: bidding-model
    evaluations (the cost of conditioning: no solve); ``threshold``: the
    rejection-control threshold; ``control_draws``: the draws predicted but
    not solved for the control variates (:mod:`.control`); ``ignored``:
    earlier bids the model gives
    no chance, left out of the conditioning; ``worth``: per other player,
    the model's worth of their hand (:func:`model.worth`), mean over the
    solved layouts (weighted) and over every draw (uniform); ``note``: why
    conditioned sampling was not used (a bidding variant)."""

    method: str
    modelled: bool
    drawn: int
    accepted: int
    effective_samples: float
    stopped_by: str
    evaluations: int = 0
    seconds: float = 0.0
    threshold: Optional[float] = None
    ignored: Tuple[Bid, ...] = ()
    worth: Tuple[Tuple[str, float, float], ...] = ()
    max_draws: Optional[int] = None
    note: str = ""
    control_draws: int = 0

    @property
    def conditioned(self) -> bool:
        """Did the earlier bids weight the layouts?"""
        return self.threshold is not None


@dataclass
class Sampler:
    """The accepted draws of ``knowledge`` for ``seed``, in order (iterate;
    the numbers are the same however far and in what pieces it is read).
    Counts ``drawn`` and the model ``evaluations`` made, and the CPU time
    they took (``seconds``, of the thread that draws)."""

    knowledge: Knowledge
    seed: int
    method: str = CONDITIONED
    condition: bool = True          # False: the model's later bids without conditioning
    evaluations: int = 0
    seconds: float = 0.0
    threshold: Optional[float] = None
    ignored: Tuple[Bid, ...] = ()
    max_draws: Optional[int] = None
    capped: bool = False
    note: str = field(default="", init=False)
    conditioning: bool = field(default=False, init=False)   # earlier bids weight the draws
    modelled: bool = field(default=False, init=False)       # the model makes the later bids
    control: Optional["RejectionControl"] = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.method not in METHODS:
            raise BidError(f"sampling {self.method!r}", field="sampling",
                           expected=f"one of {', '.join(METHODS)}")
        k = self.knowledge
        if self.method == CONDITIONED and k.bidding != STANDARD:
            self.method = UNIFORM
            self.note = (f"the bidding model covers standard bidding: under {k.bidding} the "
                         "layouts are sampled as with --sampling uniform")
        self.conditioning = self.method == CONDITIONED and self.condition and bool(k.bids)
        self.modelled = self.method == CONDITIONED
        if self.conditioning:
            self._start_pilot()

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

    def _start_pilot(self) -> None:
        start = time.thread_time()
        k = self.knowledge
        chances = [self._chances(sample_layout(k, self.seed, i), i) for i in range(PILOT)]
        self.control = RejectionControl(k.bids, chances, f"dummy-spades bid accept {int(self.seed)}")
        self.ignored = self.control.ignored
        self.threshold = self.control.threshold
        self.seconds += time.thread_time() - start

    def draws(self, samples: int) -> Iterator[Draw]:
        """The first accepted draws, at most ``samples`` of them; stops early
        (``capped``) after ``max_draws`` draws."""
        k = self.knowledge
        self.max_draws = PILOT + DRAWS_PER_SAMPLE * samples if self.conditioning else samples
        self.capped = False
        others = k.others
        sums = [0.0] * len(others)
        accepted = 0
        index = 0
        while accepted < samples:
            if index >= self.max_draws:
                self.capped = True
                return
            if not self.modelled:
                accepted += 1
                yield Draw(index, drawn=index + 1)
                index += 1
                continue
            start = time.thread_time()
            layout = sample_layout(k, self.seed, index)
            weight: Optional[float] = 1.0
            if self.conditioning:
                assert self.control is not None
                likelihood = (self.control.pilot[index] if index < PILOT
                              else self.control.likelihood(self._chances(layout, index)))
                weight = self.control.weight(index, likelihood)
            views = self._views(layout, index, others)
            estimates = tuple(model.worth(v.hand, v.dummy) for v in views)
            self.evaluations += len(views)
            for j, e in enumerate(estimates):
                sums[j] += e
            if weight is None:
                self.seconds += time.thread_time() - start
                index += 1
                continue
            later = tuple(LaterBidder(name, v.position, model.base_estimate(v), model.spread(v),
                                      model.nil_chance(v.hand))
                          for name, v in zip(others, views) if name in k.later_bidders)
            self.evaluations += len(later)
            self.seconds += time.thread_time() - start
            index += 1
            accepted += 1
            yield Draw(index - 1, weight, index, later, estimates, tuple(sums),
                       self.evaluations, self.seconds)

    def report(self, draws: Sequence[Draw], stopped_by: str) -> SamplingReport:
        """The report of a run that solved ``draws`` (a prefix of :meth:`draws`)."""
        k = self.knowledge
        if not draws:
            return SamplingReport(self.method, self.modelled, 0, 0, 0.0, stopped_by,
                                  note=self.note)
        last = draws[-1]
        worth: Tuple[Tuple[str, float, float], ...] = ()
        weights = [d.weight for d in draws]
        if self.modelled:
            total = sum(weights)
            worth = tuple((name, sum(w * d.estimates[j] for w, d in zip(weights, draws)) / total,
                           last.uniform[j] / last.drawn) for j, name in enumerate(k.others))
        return SamplingReport(self.method, self.modelled, last.drawn, len(draws),
                              effective_samples(weights), stopped_by, last.evaluations,
                              last.seconds, self.threshold, self.ignored, worth, self.max_draws,
                              self.note)


class RejectionControl:
    """Rejection control over a stream of draws 0, 1, 2, ... weighted by the
    likelihood of ``bids`` (docs/BID.md "Conditioned sampling").

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
