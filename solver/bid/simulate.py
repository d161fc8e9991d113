"""Running a bid simulation: sample, solve (in worker processes), summarise;
and every player's bid beside the deal's actual result."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Dict, Iterator, List, Mapping, Optional, Tuple

from ..auction import STANDARD, Auction
from ..backend import make_solver
from ..limits import LAYOUT_TT_MB
from ..contract import Solver
from ..deal import Deal
from ..run import Executor, Work
from ..simulation import UNIFORM, Settings, Stopping
from .candidates import Candidate, check_candidate, file_bid, plan_for
from .control import DRAWS_PER_SAMPLE as CONTROL_DRAWS_PER_SAMPLE
from .control import MIN_DRAWS as CONTROL_MIN_DRAWS
from .control import MIN_SAMPLES as CONTROL_MIN_SAMPLES
from .control import ControlDraws
from .knowledge import Knowledge
from .layout import NilOrder, Plan, SampleResult, solve_layout
from .outcome import BidOutcome, sample_outcome, side_tricks
from .sampling import Draw, Sampler
from .summary import BidAnalysis, SummaryCache, summarise


def _solve_sample(solver: Solver, context: Tuple[Knowledge, Plan, NilOrder],
                  item: Tuple[int, Mapping[str, int]]) -> SampleResult:
    """One drawn layout (its index and hands), solved (the work of one
    worker, :mod:`solver.run`)."""
    k, plan, order = context
    index, layout = item
    return solve_layout(solver, k, layout, plan, index, order)


@dataclass
class Run:
    """A finished run: the results in draw order, the draws they solved,
    and why it stopped (``samples``, ``time``, ``precision`` or ``draws``)."""

    results: List[SampleResult]
    draws: List[Draw]
    stopped_by: str


def run(knowledge: Knowledge, plan: Plan, sampler: Sampler, settings: Settings,
        executor: Executor, progress: Optional[Callable[[], None]] = None,
        tt_mb: float = LAYOUT_TT_MB,
        enough: Optional[Callable[[List[SampleResult], List[Draw]], bool]] = None) -> Run:
    """Solve the sampler's accepted draws in order, at most ``settings.samples``.

    ``executor`` (:mod:`solver.run`) solves them, each worker with one
    engine solver (a table of ``tt_mb``) reused for all its samples.
    ``progress()`` is called after every sample. ``time_limit`` (seconds):
    stop once it has passed, with the samples solved by then (at least one;
    ``0``: just the first), as ``duck``'s time limit: the same seed gives
    the same numbers for the same ``n``, but ``n`` depends on the machine.
    ``enough(results, draws)`` is asked at each of the
    :func:`~solver.simulation.checkpoints`; True stops the run there. The
    draws are made in this process, in order, and each worker receives the
    layout it solves, so the answers are the same whatever runs the solves."""
    samples = settings.samples
    stopping = Stopping(settings)
    work = Work(_solve_sample, (knowledge, plan, NilOrder()), make_solver, (tt_mb,))
    taken: List[Draw] = []

    def items() -> Iterator[Tuple[int, Mapping[str, int]]]:
        for draw in sampler.draws(samples):
            taken.append(draw)
            yield (draw.index, draw.layout)

    out: List[SampleResult] = []
    stopped_by = "samples"
    answers = executor.map(work, items(), deadline=stopping.deadline, total=samples)
    try:
        for _, result in answers:
            out.append(result)
            if progress is not None:
                progress()
            if enough is not None and stopping.checkpoint(len(out)):
                if len(out) < samples and enough(out, taken[:len(out)]):
                    stopped_by = "precision"
                    break
    finally:
        answers.close()     # stops the workers of a run left early
    if len(out) < samples and stopped_by == "samples":
        stopped_by = "draws" if sampler.capped else "time"
    return Run(out, taken[:len(out)], stopped_by)


def run_samples(knowledge: Knowledge, plan: Plan, settings: Settings,
                progress: Optional[Callable[[], None]] = None, tt_mb: float = LAYOUT_TT_MB, *,
                executor: Executor) -> List[SampleResult]:
    """Solve the first ``settings.samples`` layouts of its seed drawn
    uniformly (:func:`run` with uniform sampling, whatever the settings'
    method); results in sample order."""
    return run(knowledge, plan, Sampler(knowledge, settings.seed, UNIFORM), settings, executor,
               progress, tt_mb).results


def analyse(knowledge: Knowledge, settings: Settings = Settings(),
            bid: Optional[Candidate] = None, progress: Optional[Callable[[], None]] = None,
            tt_mb: float = LAYOUT_TT_MB, update: Optional[Callable[[BidAnalysis], None]] = None,
            *, executor: Executor, controls: bool = True) -> BidAnalysis:
    """Sample, solve and summarise under ``settings``. ``bid``: a candidate
    to judge; the time limit and ``executor``: see :func:`run` (``samples``
    is then a maximum); the sampling method: ``conditioned`` or ``uniform``
    (:mod:`.sampling`); the precision: stop once every chance shown has a
    standard error of at most that many percentage points and the top two
    bids' score difference one of at most that many points
    (:meth:`BidAnalysis.precision`), checked at the
    :func:`~solver.simulation.checkpoints`; ``update(analysis)`` is called
    there too (a live display); ``controls``: the chances and mean tricks as
    control-variate estimates (:mod:`.control`; standard bidding only), with
    :data:`.control.DRAWS_PER_SAMPLE` control draws per layout solved."""
    k = knowledge
    samples, seed, precision = settings.samples, settings.seed, settings.precision
    if bid is not None:
        check_candidate(k, bid)
    plan = plan_for(k, [bid] if bid is not None else [])
    sampler = Sampler(k, seed, settings.sampling)
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

    r = run(k, plan, sampler, settings, executor, progress, tt_mb,
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


def check_all(deal: Deal, settings: Settings = Settings(),
              progress: Optional[Callable[[], None]] = None, tt_mb: float = LAYOUT_TT_MB, *,
              executor: Executor, controls: bool = True) -> List[PlayerCheck]:
    """Every player in bidding order: their bid (if made) judged at their
    turn under ``settings``, beside the deal's actual double-dummy result.
    The time limit is shared equally by the players' simulations;
    ``controls``: see :func:`analyse`."""
    time_limit = settings.time_limit
    auction = deal.auction or Auction(deal.players, deal.dealer)
    out = []
    solver = make_solver(tt_mb)
    players = auction.bidding_order[:len(auction.bids) + (0 if auction.is_complete else 1)]
    share = None if time_limit is None else time_limit / len(players)
    for player in players:
        k = Knowledge.from_deal(deal, player)
        cand = file_bid(deal, player)
        analysis = analyse(k, replace(settings, time_limit=share), cand, progress, tt_mb,
                           executor=executor, controls=controls)
        actual = actual_result(k, deal, analysis.plan, cand, solver)
        out.append(PlayerCheck(player, cand, analysis, actual))
    return out
