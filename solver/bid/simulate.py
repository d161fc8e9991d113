"""Running a bid simulation: sample, solve (in worker processes), summarise;
and every player's bid beside the deal's actual result."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from .. import parallel
from ..auction import Auction
from ..backend import Solver, make_solver
from ..deal import Deal
from .candidates import Candidate, check_candidate, file_bid, plan_for
from .knowledge import BidError, Knowledge
from .layout import DEFAULT_TT_MB, NilOrder, Plan, SampleResult, solve_layout
from .outcome import Outcome, sample_outcome, side_tricks
from .sampling import sample_layout
from .summary import BidAnalysis, summarise


DEFAULT_SAMPLES = 200


DEFAULT_SEED = 1


def _solve_sample(solver: Solver, context: Tuple[Knowledge, Plan, int, "NilOrder"],
                  index: int) -> SampleResult:
    """Sample ``index``'s layout, solved (the work of one worker, :mod:`solver.parallel`)."""
    k, plan, seed, order = context
    return solve_layout(solver, k, sample_layout(k, seed, index), plan, index, order)


def check_samples(samples: int) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise BidError(f"{samples!r} samples", field="samples",
                       expected="a whole number of samples, at least 1")
    return samples


def check_time_limit(seconds: Optional[float]) -> Optional[float]:
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds >= 0 \
            or math.isinf(seconds):
        raise BidError(f"{seconds!r} seconds", field="time_limit",
                       expected="a number of seconds, 0 or more (0: one sample)")
    return float(seconds)


def run_samples(knowledge: Knowledge, plan: Plan, samples: int, seed: int = DEFAULT_SEED,
                jobs: Optional[int] = None, progress: Optional[Callable[[], None]] = None,
                tt_mb: float = DEFAULT_TT_MB, solver=None,
                time_limit: Optional[float] = None,
                executor: Optional[parallel.Executor] = None) -> List[SampleResult]:
    """Sample and solve ``samples`` layouts; results in sample order.

    ``jobs``: worker processes (default: all cores), each with one engine
    solver reused for all its samples; ``1`` solves in this process (with
    ``solver`` if given); ``executor`` (:mod:`solver.parallel`) instead of
    ``jobs``, e.g. a cluster. ``progress()`` is called after every sample.
    ``time_limit`` (seconds): stop once it has passed, with the samples
    ``0..n-1`` solved by then (at least one; ``0``: just the first), as
    ``duck``'s time limit: the same seed gives the same numbers for the
    same ``n``, but ``n`` depends on the machine."""
    check_samples(samples)
    time_limit = check_time_limit(time_limit)
    try:
        jobs = parallel.check_jobs(jobs)
    except parallel.JobsError:
        raise BidError(f"{jobs!r} jobs", field="jobs",
                       expected=f"a number of processes, at least 1 and at most "
                                f"{parallel.limits.max_jobs()}") from None
    deadline = None if time_limit is None else time.monotonic() + time_limit
    work = parallel.Work(_solve_sample, (knowledge, plan, seed, NilOrder()), make_solver, (tt_mb,))
    runner = (parallel.Inline(solver) if jobs == 1 else parallel.ProcessPool(min(jobs, samples))) \
        if executor is None else executor
    out: List[SampleResult] = []
    for _, result in runner.map(work, range(samples), deadline=deadline, total=samples):
        out.append(result)
        if progress is not None:
            progress()
    return out


def analyse(knowledge: Knowledge, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
            jobs: Optional[int] = None, bid: Optional[Candidate] = None,
            progress: Optional[Callable[[], None]] = None, tt_mb: float = DEFAULT_TT_MB,
            solver=None, time_limit: Optional[float] = None,
            executor: Optional[parallel.Executor] = None) -> BidAnalysis:
    """Sample, solve and summarise. ``bid``: a candidate to judge;
    ``time_limit``, ``executor``: see :func:`run_samples` (``samples`` is
    then a maximum)."""
    k = knowledge
    if bid is not None:
        check_candidate(k, bid)
    plan = plan_for(k, [bid] if bid is not None else [])
    results = run_samples(k, plan, samples, seed, jobs, progress, tt_mb, solver, time_limit,
                          executor)
    return summarise(k, plan, results, seed, bid, samples)


@dataclass(frozen=True)
class ActualResult:
    """The deal's own double-dummy result for one player (same play model as
    the simulation: each side takes its double-dummy tricks; a nil side may
    keep its nil instead)."""

    player: str
    declarer: Optional[str]
    outcome: Optional[Outcome]            # None until the auction is complete
    side_tricks: Dict[str, int]           # the player's side's tricks per possible declarer


@dataclass(frozen=True)
class PlayerCheck:
    player: str
    bid: Optional[Candidate]              # the bid in the file (None if not made yet)
    analysis: BidAnalysis
    actual: ActualResult


def actual_result(knowledge: Knowledge, deal: Deal, plan: Plan, candidate: Optional[Candidate],
                  solver) -> ActualResult:
    """Solve the deal's real layout from ``knowledge.player``'s seat."""
    result = solve_layout(solver, knowledge, dict(deal.hands), plan)
    k = knowledge
    declarer = deal.declarer
    outcome = None
    if declarer is not None and candidate is not None:
        outcome = sample_outcome(k, plan, candidate, result, declarer)
    solved = [d for d in k.declarers if result.declarer_tricks[k.players.index(d)] is not None]
    return ActualResult(k.player, declarer, outcome, {d: side_tricks(k, result, d) for d in solved})


def check_all(deal: Deal, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
              jobs: Optional[int] = None, breaking: Optional[bool] = None,
              progress: Optional[Callable[[], None]] = None,
              tt_mb: float = DEFAULT_TT_MB,
              time_limit: Optional[float] = None,
              executor: Optional[parallel.Executor] = None) -> List[PlayerCheck]:
    """Every player in bidding order: their bid (if made) judged at their
    turn, beside the deal's actual double-dummy result. ``time_limit`` is
    shared equally by the players' simulations."""
    check_samples(samples)
    time_limit = check_time_limit(time_limit)
    auction = deal.auction or Auction(deal.players, deal.dealer)
    out = []
    solver = make_solver(tt_mb)
    players = auction.bidding_order[:len(auction.bids) + (0 if auction.is_complete else 1)]
    share = None if time_limit is None else time_limit / len(players)
    for player in players:
        k = Knowledge.from_deal(deal, player, breaking)
        cand = file_bid(deal, player)
        analysis = analyse(k, samples, seed, jobs, cand, progress, tt_mb,
                           solver if (jobs or parallel.default_jobs()) == 1 else None, share,
                           executor)
        actual = actual_result(k, deal, analysis.plan, cand, solver)
        out.append(PlayerCheck(player, cand, analysis, actual))
    return out
