"""The statistics of the solved layouts and the recommendation
(:func:`summarise` -> :class:`BidAnalysis`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from ..auction import STANDARD
from ..scoring import DUMMY, TRICKS_PER_HAND
from .candidates import BIDS, Candidate, default_candidates
from .estimates import Estimate
from .knowledge import Knowledge
from .layout import Plan, SampleResult, certain_trick
from .outcome import sample_outcome, side_tricks


HONESTY = ("Double-dummy simulation assumes perfect information (every player sees all "
           "four hands), which favours the declarer's side: the declarer never misguesses. "
           "Treat chances when declaring as optimistic and chances when defending as "
           "pessimistic.")


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
    histogram: Tuple[int, ...]       # samples by the player's side's tricks, 0..13
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
    scores: Tuple[int, ...] = field(default=(), repr=False, compare=False)
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

    @property
    def stopped_early(self) -> bool:
        return self.samples < self.requested

    @property
    def solves(self) -> int:
        return self.queries


def roles(knowledge: Knowledge) -> Tuple[str, ...]:
    """The declarers of the player's possible roles: the player first, then
    the others clockwise."""
    k = knowledge
    return tuple(d for d in (k.player,) + k.others if d in k.declarers)


def solved_in(knowledge: Knowledge, results: Sequence[SampleResult],
              declarer: str) -> List[SampleResult]:
    """The samples in which the role of ``declarer`` was solved: all of them,
    but under mirror those whose spade counts make ``declarer`` declare."""
    i = knowledge.players.index(declarer)
    return [r for r in results if r.declarer_tricks[i] is not None]


def role_stats(knowledge: Knowledge, plan: Plan, results: Sequence[SampleResult]) -> List[RoleStats]:
    k = knowledge
    out = []
    for declarer in roles(k):
        results_in = solved_in(k, results, declarer)
        n = len(results_in)
        if n == 0:   # under mirror a role no sampled layout gives
            continue
        tricks = [side_tricks(k, r, declarer) for r in results_in]
        hist = [0] * (TRICKS_PER_HAND + 1)
        for t in tricks:
            hist[t] += 1
        make = []
        at_least = n
        for b in BIDS:
            make.append(Estimate.share(at_least, n))
            at_least -= hist[b]
        hands = [k.player] + ([DUMMY] if declarer == k.player else [])
        nils = []
        for hand in hands:
            if (declarer, hand) not in plan.nils:   # a bidding variant's bids never name it
                continue
            j = plan.nils.index((declarer, hand))
            kept = sum(1 for r in results_in if r.nils[j] >= 0)
            implied = hand == k.player and certain_trick(k.hand)
            nils.append(NilChance(hand, Estimate.share(kept, n), implied))
        partner = DUMMY if declarer == k.player else k.third(declarer)
        out.append(RoleStats(declarer, "declarer" if declarer == k.player else "defender",
                             partner, tuple(hist), Estimate.of(tricks), tuple(make), tuple(nils)))
    return out


def candidate_stats(knowledge: Knowledge, plan: Plan, candidate: Candidate,
                    results: Sequence[SampleResult]) -> CandidateStats:
    k = knowledge
    outcomes = [sample_outcome(k, plan, candidate, r) for r in results]
    n = len(outcomes)
    nil_stats = []
    for hand in candidate.nils:
        counted = [o for o in outcomes for h, _ in o.nils if h == hand]
        kept = sum(1 for o in outcomes for h, ok in o.nils if h == hand and ok)
        nil_stats.append(NilResultStats(hand, Estimate.share(len(counted), n),
                                        Estimate.share(kept, len(counted))))
    by_role, make_by_role, share = [], [], []
    for declarer in roles(k):
        forced = [sample_outcome(k, plan, candidate, r, declarer)
                  for r in solved_in(k, results, declarer)]
        by_role.append((declarer, Estimate.of([o.score for o in forced])))
        make_by_role.append((declarer, Estimate.share(sum(1 for o in forced if o.made), len(forced))))
        share.append((declarer, Estimate.share(sum(1 for o in outcomes if o.declarer == declarer), n)))
    scores = tuple(o.score for o in outcomes)
    return CandidateStats(
        candidate, candidate.call(k.player), Estimate.of(scores),
        Estimate.of([o.points for o in outcomes]), Estimate.of([o.bags for o in outcomes]),
        Estimate.share(sum(1 for o in outcomes if o.made), n),
        Estimate.share(sum(1 for o in outcomes if o.declarer == k.player), n),
        tuple(nil_stats), tuple(by_role), scores, tuple(make_by_role), tuple(share))


def judge(stats: CandidateStats, others: Sequence[CandidateStats]) -> Judgement:
    """``stats`` beside the best of ``others``, leaving out the candidate
    itself and those with the same score in every layout (the same bid with
    a nil that never counts)."""
    rest = [c for c in others if c.candidate != stats.candidate and c.scores != stats.scores]
    if not rest:
        rest = [c for c in others if c.candidate != stats.candidate]
    if not rest:   # the only legal bid (mirror): it is its own best alternative
        return Judgement(stats, stats, Estimate.of([0.0] * len(stats.scores)), 1)
    best = max(rest, key=lambda c: c.score.value)
    diff = Estimate.of([a - b for a, b in zip(stats.scores, best.scores)])
    rank = 1 + sum(1 for c in rest if c.score.value > stats.score.value)
    return Judgement(stats, best, diff, rank)


def summarise(knowledge: Knowledge, plan: Plan, results: Sequence[SampleResult], seed: int,
              bid: Optional[Candidate] = None, requested: Optional[int] = None) -> BidAnalysis:
    k = knowledge
    cands = default_candidates(k)
    if bid is not None and bid not in cands:
        cands.append(bid)
    stats = {c: candidate_stats(k, plan, c, results) for c in cands}
    ranked = sorted(stats.values(), key=lambda s: -s.score.value)  # stable: ties keep order
    judged = judge(stats[bid], ranked) if bid is not None else None
    plain = [Candidate(t) for t in BIDS] if k.bidding == STANDARD else default_candidates(k)
    return BidAnalysis(k, len(results), seed, plan, tuple(results), tuple(role_stats(k, plan, results)),
                       tuple(stats[c] for c in plain), tuple(ranked), ranked[0], judged,
                       sum(r.queries for r in results),
                       len(results) if requested is None else requested)
