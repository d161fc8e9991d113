"""The statistics of the solved layouts and the recommendation
(:func:`summarise` -> :class:`BidAnalysis`).

Every figure is a mean over the layouts, each weighing its importance
weight (all 1 under uniform sampling; :mod:`.estimates`) and, for the
figures that depend on who declares, averaged over the declarers each
layout allows with their chances (:mod:`.outcome`). Per-role figures ("if
Bob declares") need no model of the later bids.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from ..auction import STANDARD, nil_counts
from ..scoring import DUMMY, TRICKS_PER_HAND
from ..simulation import DOUBLE_DUMMY_HONESTY, Estimate, SamplingReport
from ..simulation.model import certain_trick
from .candidates import BIDS, Candidate, default_candidates
from .control import MIN_SAMPLES as CONTROL_MIN_SAMPLES
from .control import ODDS_SHARE, ControlDraws, at_least
from .knowledge import Knowledge
from .layout import Plan, SampleResult
from .outcome import Odds, BidOutcome, declarer_for, declarer_odds, sample_outcome, side_tricks
from .sampling import Draw


HONESTY = DOUBLE_DUMMY_HONESTY
MODEL_HONESTY = ("Conditioned sampling rests on a bidding model fitted to double-dummy "
                 "results: the earlier bids weight the sampled hands by it and the later bids "
                 "come from it. Each bidder is assumed to bid the model's estimate of their "
                 "side's tricks as declarer from their own hand and the dummy cards they saw, "
                 "give or take its error, and to bid nil on their own hand as often as the "
                 "model's chance of keeping it. Real players also weigh scores, bags and style; "
                 "--sampling uniform ignores the bids.")


TOP = 6   # candidates in the report's "best bids" table


@dataclass(frozen=True)
class NilChance:
    hand: str
    kept: Estimate       # over the samples in which the question was asked
    implied: bool        # answered without search in every sample (a certain trick)


@dataclass(frozen=True)
class RoleStats:
    """The player's side when ``declarer`` declares (over all samples)."""

    declarer: str
    role: str                        # "declarer" or "defender"
    partner: str                     # "dummy" or the other defender
    histogram: Tuple[float, ...]     # samples by the player's side's tricks, 0..13
                                     # (weighted: the weights, scaled to sum to the samples)
    tricks: Estimate                 # mean side tricks
    make: Tuple[Estimate, ...]       # chance the side takes at least b tricks, b = 0..13
    nils: Tuple[NilChance, ...]      # own nil (and the dummy's when declaring)

    @property
    def label(self) -> str:
        if self.role == "declarer":
            return "declarer (with dummy)"
        return f"defender ({self.declarer} declares)"


@dataclass(frozen=True)
class NilResultStats:
    hand: str
    counts: Estimate     # chance the nil counts (the player on the hand's side)
    kept: Estimate       # chance it is kept, over the samples where it counts


@dataclass(frozen=True)
class CandidateStats:
    candidate: Candidate
    call: str
    score: Estimate                  # expected hand score (bag penalty included if known)
    points: Estimate                 # expected hand points before any bag penalty
    bags: Estimate                   # expected bags taken
    make: Estimate                   # chance the contract makes
    declare: Estimate                # chance the player ends up declarer
    nils: Tuple[NilResultStats, ...]
    by_role: Tuple[Tuple[str, Estimate], ...]  # declarer -> expected score if they declare
    scores: Tuple[float, ...] = field(default=(), repr=False, compare=False)  # per layout
    make_by_role: Tuple[Tuple[str, Estimate], ...] = ()   # declarer -> chance it makes if they declare
    declarer_share: Tuple[Tuple[str, Estimate], ...] = ()  # declarer -> chance they declare
    # by_role and make_by_role are over the samples solved for that role: all of them, but
    # under mirror those in which that player declares (so the figures are "when X declares")

    @property
    def tricks(self) -> int:
        return self.candidate.tricks


@dataclass(frozen=True)
class Judgement:
    """One bid set beside the best alternative."""

    stats: CandidateStats
    best_alternative: CandidateStats
    difference: Estimate             # paired: this bid's score minus the alternative's
    rank: int                        # 1 = best among the candidates and this bid


@dataclass(frozen=True)
class BidAnalysis:
    knowledge: Knowledge
    samples: int
    seed: int
    plan: Plan
    results: Tuple[SampleResult, ...]
    roles: Tuple[RoleStats, ...]
    bids: Tuple[CandidateStats, ...]         # plain bids 0..13
    candidates: Tuple[CandidateStats, ...]   # every candidate, best first
    recommended: CandidateStats
    judged: Optional[Judgement] = None
    queries: int = 0
    requested: int = 0                       # samples asked for (more than ``samples``
                                             # when a time limit stopped the run)
    sampling: Optional[SamplingReport] = None
    draws: Tuple[Draw, ...] = field(default=(), repr=False)
    target: Optional[float] = None           # --precision: the largest standard error wanted

    @property
    def weighted(self) -> bool:
        """Conditioned sampling: figures are weighted, later bids modelled."""
        return self.sampling is not None and self.sampling.modelled

    @property
    def effective_samples(self) -> float:
        return self.sampling.effective_samples if self.sampling is not None else self.samples

    def chances_shown(self) -> List[Estimate]:
        """Every chance the report shows: per role, each bid's chance and the
        nils kept; per plain bid, its chance and the chance of declaring;
        the top candidates' chances and nils."""
        out: List[Estimate] = []
        for r in self.roles:
            out.extend(r.make)
            out.extend(n.kept for n in r.nils)
        for c in self.bids + self.candidates[:TOP]:
            out.extend((c.make, c.declare))
            out.extend(e for n in c.nils for e in (n.counts, n.kept))
        return out

    def top_two(self) -> Optional[Estimate]:
        """The expected-score difference between the two best candidates
        (paired over the layouts)."""
        if len(self.candidates) < 2:
            return None
        return judge(self.candidates[0], self.candidates, self.weights).difference

    @property
    def weights(self) -> Optional[List[float]]:
        return [d.weight for d in self.draws] if self.weighted else None

    def precision(self) -> float:
        """The largest standard error of the chances shown (in percentage
        points) and of the top-two difference (in points): what
        ``--precision`` compares with its target."""
        worst = 0.0
        for e in self.chances_shown():
            if e.n and math.isnan(e.se):
                return math.inf
            if not math.isnan(e.se):
                worst = max(worst, 100 * e.se)
        diff = self.top_two()
        if diff is not None:
            worst = max(worst, math.inf if math.isnan(diff.se) else diff.se)
        return worst

    @property
    def stopped_early(self) -> bool:
        return self.samples < self.requested

    @property
    def solves(self) -> int:
        return self.queries


@dataclass
class SummaryCache:
    """What one run's summaries share (a run summarises again at each
    checkpoint, over more layouts): per draw number, the declarer odds of
    each bid, which depend on the draw alone (a few tuples a layout; the
    outcomes, one per layout, declarer and candidate, are worked out again
    each time: kept, they would hold hundreds of bytes per layout and
    candidate)."""

    odds: Dict[Tuple[int, int], Odds] = field(default_factory=dict)


class Layouts:
    """The solved layouts with their weights (``None``: equal) and, per
    layout and bid, who declares with what chance; with ``controls``
    (:mod:`.control`) the predictions of the solved layouts (``indices``:
    their draw numbers) and the control draws."""

    def __init__(self, knowledge: Knowledge, results: Sequence[SampleResult],
                 draws: Optional[Sequence[Draw]] = None,
                 controls: Optional[ControlDraws] = None,
                 indices: Sequence[int] = (), cache: Optional[SummaryCache] = None) -> None:
        self.knowledge = knowledge
        self.results = results
        self.draws = draws
        self.weights = None if draws is None else [d.weight for d in draws]
        # the cache's keys: the draw numbers of a run's cache, else the positions
        self.numbers = [r.index for r in results] if cache is not None else \
            list(range(len(results)))
        self.cache = cache or SummaryCache()
        self.controls = controls
        self.predictions = [] if controls is None else [controls.solved(i) for i in indices]

    def odds(self, i: int, tricks: int) -> Odds:
        if self.draws is None:
            return ((declarer_for(self.knowledge, tricks, self.results[i]), 1),)
        key = (self.numbers[i], tricks)
        odds = self.cache.odds.get(key)
        if odds is None:
            odds = self.cache.odds[key] = declarer_odds(self.knowledge, tricks,
                                                        self.draws[i].later)
        return odds

    def chance_at_least(self, values: Sequence[float], declarer: str, tricks: int,
                        indices: Sequence[int], weights: Optional[Sequence[float]]) -> Estimate:
        """The chance of ``values`` (0/1 per layout of ``indices``: the side
        takes at least ``tricks`` when ``declarer`` declares), controlled by
        the predictor's chance of it where there are controls."""
        c = self.controls
        if c is None:
            return Estimate.proportion(values, weights)
        mu, var = c.mean(("at least", declarer, tricks),
                         lambda j: at_least(c.predictions[j][declarer], tricks))
        xs = [at_least(self.predictions[i][declarer], tricks) for i in indices]
        return Estimate.controlled(values, xs, mu, var, weights, chance=True)

    def modelled_chance(self, values: Sequence[float], key: object,
                        control: Callable[[Odds, Dict[str, float]], float],
                        weights: Optional[Sequence[float]]) -> Estimate:
        """A chance over all layouts under the later-bid model, controlled by
        ``control(odds, predictions)`` (the odds of the bid in question, for
        a layout or a control draw) where there are controls and the later
        bids are modelled (under uniform sampling they are double-dummy:
        the control draws cannot tell them)."""
        c = self.controls
        if c is None or self.draws is None:
            return Estimate.proportion(values, weights)
        tricks = key[1]  # type: ignore[index]
        mu, var = c.mean(key, lambda j: control(c.odds(j, tricks), c.predictions[j]), ODDS_SHARE)
        xs = [control(self.odds(i, tricks), self.predictions[i]) for i in range(len(self.results))]
        return Estimate.controlled(values, xs, mu, var, weights, chance=True)


def roles(knowledge: Knowledge) -> Tuple[str, ...]:
    """The declarers of the player's possible roles: the player first, then
    the others clockwise."""
    k = knowledge
    return tuple(d for d in (k.player,) + k.others if d in k.declarers)


def solved(knowledge: Knowledge, results: Sequence[SampleResult], declarer: str) -> List[int]:
    """The indices of the samples in which the role of ``declarer`` was
    solved: all of them, but under mirror those whose spade counts make
    ``declarer`` declare."""
    i = knowledge.players.index(declarer)
    return [j for j, r in enumerate(results) if r.declarer_tricks[i] is not None]


def solved_in(knowledge: Knowledge, results: Sequence[SampleResult],
              declarer: str) -> List[SampleResult]:
    """The samples of :func:`solved`."""
    return [results[j] for j in solved(knowledge, results, declarer)]


def _subset(weights: Optional[Sequence[float]], indices: Sequence[int]) -> Optional[List[float]]:
    return None if weights is None else [weights[j] for j in indices]


def role_stats(knowledge: Knowledge, plan: Plan, results: Sequence[SampleResult],
               weights: Optional[Sequence[float]] = None,
               layouts: Optional[Layouts] = None) -> List[RoleStats]:
    k = knowledge
    layouts = layouts or Layouts(k, results)
    out = []
    for declarer in roles(k):
        indices = solved(k, results, declarer)
        n = len(indices)
        if n == 0:   # under mirror a role no sampled layout gives
            continue
        results_in = [results[j] for j in indices]
        w = _subset(weights, indices)
        tricks = [side_tricks(k, r, declarer) for r in results_in]
        hist: List[float] = [0] * (TRICKS_PER_HAND + 1)
        for i, t in enumerate(tricks):
            hist[t] += 1 if w is None else w[i]
        if w is not None:
            total = sum(w)
            hist = [h * n / total for h in hist]
        make = tuple(layouts.chance_at_least([1 if t >= b else 0 for t in tricks], declarer, b,
                                             indices, w) for b in BIDS)
        hands = [k.player] + ([DUMMY] if declarer == k.player else [])
        nils = []
        for hand in hands:
            if (declarer, hand) not in plan.nils:   # a bidding variant's bids never name it
                continue
            j = plan.nils.index((declarer, hand))
            kept = [1 if r.nils[j] >= 0 else 0 for r in results_in]
            implied = hand == k.player and certain_trick(k.hand)
            nils.append(NilChance(hand, Estimate.proportion(kept, weights), implied))
        partner = DUMMY if declarer == k.player else k.third(declarer)
        out.append(RoleStats(declarer, "declarer" if declarer == k.player else "defender",
                             partner, tuple(hist), _tricks(layouts, tricks, declarer, indices, w), make,
                             tuple(nils)))
    return out


def _tricks(layouts: Layouts, tricks: Sequence[int], declarer: str, indices: Sequence[int],
            weights: Optional[Sequence[float]]) -> Estimate:
    """The mean side tricks when ``declarer`` declares, controlled by the
    predicted tricks where there are controls."""
    c = layouts.controls
    if c is None:
        return Estimate.mean(tricks, weights)
    mu, var = c.mean(("tricks", declarer), lambda j: c.predictions[j][declarer])
    return Estimate.controlled(tricks, [layouts.predictions[i][declarer] for i in indices],
                               mu, var, weights)


def candidate_stats(knowledge: Knowledge, plan: Plan, candidate: Candidate,
                    layouts: Layouts) -> CandidateStats:
    k = knowledge
    w = layouts.weights
    known: Dict[Tuple[int, str], BidOutcome] = {}

    def outcome(i: int, declarer: str) -> BidOutcome:
        """The candidate's outcome in layout ``i`` with ``declarer`` (each worked out once)."""
        o = known.get((i, declarer))
        if o is None:
            o = known[(i, declarer)] = sample_outcome(k, plan, candidate, layouts.results[i],
                                                      declarer)
        return o

    outcomes = [[(p, outcome(i, d)) for d, p in layouts.odds(i, candidate.tricks)]
                for i in range(len(layouts.results))]

    def each(value: Callable[[BidOutcome], float]) -> List[float]:
        return [sum(p * value(o) for p, o in layout) for layout in outcomes]

    b = candidate.tricks
    p = k.player
    nil_stats = []
    for hand in candidate.nils:
        counts = each(lambda o: any(h == hand for h, _ in o.nils))
        kept = each(lambda o: any(h == hand and ok for h, ok in o.nils))
        nil_stats.append(NilResultStats(
            hand, layouts.modelled_chance(
                counts, ("counts", b, hand),
                lambda odds, _: sum(c for d, c in odds if nil_counts(p, hand, d)), w),
            Estimate.ratio(kept, counts, w)))
    by_role, make_by_role, share = [], [], []
    for declarer in roles(k):
        indices = solved(k, layouts.results, declarer)
        forced = [outcome(j, declarer) for j in indices]
        sub = _subset(w, indices)
        by_role.append((declarer, Estimate.mean([o.score for o in forced], sub)))
        make_by_role.append((declarer, layouts.chance_at_least(
            [1 if o.made else 0 for o in forced], declarer, b, indices, sub)))
        share.append((declarer, layouts.modelled_chance(
            each(lambda o: o.declarer == declarer), ("declares", b, declarer),
            lambda odds, _: sum(c for d, c in odds if d == declarer), w)))
    scores = each(lambda o: o.score)
    return CandidateStats(
        candidate, candidate.call(k.player), Estimate.mean(scores, w),
        Estimate.mean(each(lambda o: o.points), w), Estimate.mean(each(lambda o: o.bags), w),
        layouts.modelled_chance(
            each(lambda o: o.made), ("make", b),
            lambda odds, predicted: sum(c * at_least(predicted[d], b) for d, c in odds), w),
        layouts.modelled_chance(
            each(lambda o: o.declarer == p), ("declares", b, p),
            lambda odds, _: sum(c for d, c in odds if d == p), w),
        tuple(nil_stats), tuple(by_role), tuple(scores), tuple(make_by_role), tuple(share))


def judge(stats: CandidateStats, others: Sequence[CandidateStats],
          weights: Optional[Sequence[float]] = None) -> Judgement:
    """``stats`` beside the best of ``others``, leaving out the candidate
    itself and those with the same score in every layout (the same bid with
    a nil that never counts)."""
    rest = [c for c in others if c.candidate != stats.candidate and c.scores != stats.scores]
    if not rest:
        rest = [c for c in others if c.candidate != stats.candidate]
    if not rest:   # the only legal bid (mirror): it is its own best alternative
        return Judgement(stats, stats, Estimate.mean([0.0] * len(stats.scores), weights), 1)
    best = max(rest, key=lambda c: c.score.value)
    diff = Estimate.mean([a - b for a, b in zip(stats.scores, best.scores)], weights)
    rank = 1 + sum(1 for c in rest if c.score.value > stats.score.value)
    return Judgement(stats, best, diff, rank)


def summarise(knowledge: Knowledge, plan: Plan, results: Sequence[SampleResult], seed: int,
              bid: Optional[Candidate] = None, requested: Optional[int] = None,
              sampling: Optional[SamplingReport] = None,
              draws: Sequence[Draw] = (), target: Optional[float] = None,
              controls: Optional[ControlDraws] = None,
              cache: Optional[SummaryCache] = None) -> BidAnalysis:
    """The statistics of ``results``. With ``sampling`` from the conditioned
    method, ``draws`` (aligned with ``results``) give the weights and the
    later bidders' views; otherwise every layout weighs the same and the
    later bids are the double-dummy ones. With ``controls`` (and ``draws``;
    from :data:`.control.MIN_SAMPLES` layouts on) the chances and mean
    tricks are controlled estimates (:mod:`.control`).
    ``cache``: shared by the summaries of one run's layouts (whose draw
    numbers, ``SampleResult.index``, name the same layout each time)."""
    k = knowledge
    modelled = sampling is not None and sampling.modelled
    if len(results) < CONTROL_MIN_SAMPLES:
        controls = None
    layouts = Layouts(k, results, draws if modelled else None, controls,
                      [d.index for d in draws] if controls is not None else (), cache)
    cands = default_candidates(k)
    if bid is not None and bid not in cands:
        cands.append(bid)
    stats = {c: candidate_stats(k, plan, c, layouts) for c in cands}
    ranked = sorted(stats.values(), key=lambda s: -s.score.value)  # stable: ties keep order
    judged = judge(stats[bid], ranked, layouts.weights) if bid is not None else None
    plain = [Candidate(t) for t in BIDS] if k.bidding == STANDARD else default_candidates(k)
    return BidAnalysis(k, len(results), seed, plan, tuple(results),
                       tuple(role_stats(k, plan, results, layouts.weights, layouts)),
                       tuple(stats[c] for c in plain), tuple(ranked), ranked[0], judged,
                       sum(r.queries for r in results),
                       len(results) if requested is None else requested, sampling, tuple(draws),
                       target)
