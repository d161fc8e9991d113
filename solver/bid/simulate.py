"""Running a bid simulation: sample, solve (in worker processes), summarise;
and every player's bid beside the deal's actual result."""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace
from typing import Callable, Dict, Iterator, List, Optional, Tuple

from ..auction import STANDARD, Auction
from ..backend import make_solver
from ..limits import LAYOUT_TT_MB
from ..contract import Solver
from ..deal import Deal
from ..run import Executor, Work
from .candidates import Candidate, check_candidate, file_bid, plan_for
from .control import DRAWS_PER_SAMPLE as CONTROL_DRAWS_PER_SAMPLE
from .control import MIN_DRAWS as CONTROL_MIN_DRAWS
from .control import MIN_SAMPLES as CONTROL_MIN_SAMPLES
from .control import ControlDraws
from .knowledge import BidError, Knowledge
from .layout import NilOrder, Plan, SampleResult, solve_layout
from .outcome import BidOutcome, sample_outcome, side_tricks
from .sampling import CONDITIONED, UNIFORM, Draw, Sampler, sample_layout
from .summary import BidAnalysis, SummaryCache, summarise


DEFAULT_SAMPLES = 200


DEFAULT_SEED = 1


def _solve_sample(solver: Solver, context: Tuple[Knowledge, Plan, int, NilOrder],
                  index: int) -> SampleResult:
    """Draw ``index``'s layout, solved (the work of one worker, :mod:`solver.run`)."""
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


def check_precision(target: Optional[float]) -> Optional[float]:
    if target is None:
        return None
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not target > 0 \
            or math.isinf(target):
        raise BidError(f"precision {target!r}", field="precision",
                       expected="a positive number (percentage points for chances, points for "
                                "the score difference)")
    return float(target)


def checkpoints() -> Iterator[int]:
    """The sample counts at which a run with a precision target (or a live
    display) takes stock: 20, 30, 40, 50, 60, 72, ... (at least 10 more and
    20% more each time), the same whatever the executor, so the stopping point
    is a function of the seed."""
    n = 20
    while True:
        yield n
        n = max(n + 10, math.ceil(n * 1.2))


@dataclass
class Run:
    """A finished run: the results in draw order, the draws they solved,
    and why it stopped (``samples``, ``time``, ``precision`` or ``draws``)."""

    results: List[SampleResult]
    draws: List[Draw]
    stopped_by: str


def run(knowledge: Knowledge, plan: Plan, sampler: Sampler, samples: int, executor: Executor,
        progress: Optional[Callable[[], None]] = None, tt_mb: float = LAYOUT_TT_MB,
        time_limit: Optional[float] = None,
        enough: Optional[Callable[[List[SampleResult], List[Draw]], bool]] = None) -> Run:
    """Solve the sampler's accepted draws in order, at most ``samples``.

    ``executor`` (:mod:`solver.run`) solves them, each worker with one
    engine solver (a table of ``tt_mb``) reused for all its samples.
    ``progress()`` is called after every sample. ``time_limit`` (seconds):
    stop once it has passed, with the samples solved by then (at least one;
    ``0``: just the first), as ``duck``'s time limit: the same seed gives
    the same numbers for the same ``n``, but ``n`` depends on the machine.
    ``enough(results, draws)`` is asked at each of :func:`checkpoints`; True
    stops the run there. The draws are chosen in this process, in order, so
    the answers are the same whatever runs the solves."""
    check_samples(samples)
    time_limit = check_time_limit(time_limit)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    work = Work(_solve_sample, (knowledge, plan, sampler.seed, NilOrder()), make_solver, (tt_mb,))
    taken: List[Draw] = []

    def indices() -> Iterator[int]:
        for draw in sampler.draws(samples):
            taken.append(draw)
            yield draw.index

    out: List[SampleResult] = []
    marks = checkpoints()
    mark = next(marks)
    stopped_by = "samples"
    answers = executor.map(work, indices(), deadline=deadline, total=samples)
    try:
        for _, result in answers:
            out.append(result)
            if progress is not None:
                progress()
            if enough is not None and len(out) == mark:
                mark = next(marks)
                if len(out) < samples and enough(out, taken[:len(out)]):
                    stopped_by = "precision"
                    break
    finally:
        answers.close()     # stops the workers of a run left early
    if len(out) < samples and stopped_by == "samples":
        stopped_by = "draws" if sampler.capped else "time"
    return Run(out, taken[:len(out)], stopped_by)


def run_samples(knowledge: Knowledge, plan: Plan, samples: int, seed: int = DEFAULT_SEED,
                progress: Optional[Callable[[], None]] = None, tt_mb: float = LAYOUT_TT_MB,
                time_limit: Optional[float] = None, *, executor: Executor) -> List[SampleResult]:
    """Solve the first ``samples`` layouts of ``seed`` drawn uniformly
    (:func:`run` with uniform sampling); results in sample order."""
    return run(knowledge, plan, Sampler(knowledge, seed, UNIFORM), samples, executor, progress,
               tt_mb, time_limit).results


def analyse(knowledge: Knowledge, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
            bid: Optional[Candidate] = None, progress: Optional[Callable[[], None]] = None,
            tt_mb: float = LAYOUT_TT_MB, time_limit: Optional[float] = None,
            sampling: str = CONDITIONED, precision: Optional[float] = None,
            update: Optional[Callable[[BidAnalysis], None]] = None, *,
            executor: Executor, controls: bool = True) -> BidAnalysis:
    """Sample, solve and summarise. ``bid``: a candidate to judge;
    ``time_limit``, ``executor``: see :func:`run` (``samples`` is then a
    maximum);
    ``sampling``: ``conditioned`` or ``uniform`` (:mod:`.sampling`);
    ``precision``: stop once every chance shown has a standard error of at
    most that many percentage points and the top two bids' score difference
    one of at most that many points (:meth:`BidAnalysis.precision`), checked
    at :func:`checkpoints`; ``update(analysis)`` is called there too (a live
    display); ``controls``: the chances and mean tricks as control-variate
    estimates (:mod:`.control`; standard bidding only), with
    :data:`.control.DRAWS_PER_SAMPLE` control draws per layout solved."""
    k = knowledge
    if bid is not None:
        check_candidate(k, bid)
    precision = check_precision(precision)
    plan = plan_for(k, [bid] if bid is not None else [])
    sampler = Sampler(k, seed, sampling)
    control = ControlDraws(k, seed, sampler.method) \
        if controls and k.bidding == STANDARD else None
    cache = SummaryCache()

    def summary(results: List[SampleResult], draws: List[Draw], stopped_by: str) -> BidAnalysis:
        report = sampler.report(draws, stopped_by)
        if control is not None and len(results) >= CONTROL_MIN_SAMPLES:
            control.extend(max(CONTROL_MIN_DRAWS, CONTROL_DRAWS_PER_SAMPLE * len(results)))
            report = replace(report, control_draws=len(control.weights))
        return summarise(k, plan, results, seed, bid, samples, report, draws, precision,
                         control if results else None, cache)

    def enough(results: List[SampleResult], draws: List[Draw]) -> bool:
        a = summary(results, draws, "samples")
        done = precision is not None and a.precision() <= precision
        if update is not None and not done:
            update(a)
        return done

    r = run(k, plan, sampler, samples, executor, progress, tt_mb, time_limit,
            enough if precision is not None or update is not None else None)
    return summary(r.results, r.draws, r.stopped_by)


@dataclass(frozen=True)
class ActualResult:
    """The deal's own double-dummy result for one player (same play model as
    the simulation: each side takes its double-dummy tricks; a nil side may
    keep its nil instead)."""

    player: str
    declarer: Optional[str]
    outcome: Optional[BidOutcome]            # None until the auction is complete
    side_tricks: Dict[str, int]           # the player's side's tricks per possible declarer


@dataclass(frozen=True)
class PlayerCheck:
    player: str
    bid: Optional[Candidate]              # the bid in the file (None if not made yet)
    analysis: BidAnalysis
    actual: ActualResult


def actual_result(knowledge: Knowledge, deal: Deal, plan: Plan, candidate: Optional[Candidate],
                  solver: Solver) -> ActualResult:
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
              progress: Optional[Callable[[], None]] = None,
              tt_mb: float = LAYOUT_TT_MB,
              time_limit: Optional[float] = None, sampling: str = CONDITIONED,
              precision: Optional[float] = None, *,
              executor: Executor, controls: bool = True) -> List[PlayerCheck]:
    """Every player in bidding order: their bid (if made) judged at their
    turn, beside the deal's actual double-dummy result. ``time_limit`` is
    shared equally by the players' simulations; ``controls``: see
    :func:`analyse`."""
    check_samples(samples)
    time_limit = check_time_limit(time_limit)
    auction = deal.auction or Auction(deal.players, deal.dealer)
    out = []
    solver = make_solver(tt_mb)
    players = auction.bidding_order[:len(auction.bids) + (0 if auction.is_complete else 1)]
    share = None if time_limit is None else time_limit / len(players)
    for player in players:
        k = Knowledge.from_deal(deal, player)
        cand = file_bid(deal, player)
        analysis = analyse(k, samples, seed, cand, progress, tt_mb, share, sampling, precision,
                           executor=executor, controls=controls)
        actual = actual_result(k, deal, analysis.plan, cand, solver)
        out.append(PlayerCheck(player, cand, analysis, actual))
    return out
