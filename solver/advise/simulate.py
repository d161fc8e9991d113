"""Running `advise`: choose the layouts, solve them (in worker processes),
summarise (docs/ADVISE.md "Method").

:func:`advise` decides between exact and sampled mode by the number of
consistent layouts (``exact_limit``), hands the layouts to an executor in
order (the main process chooses them, so every figure is a function of the
seed whatever runs the solves), stops at a time limit or a precision
target, and summarises.
"""
from __future__ import annotations

import math
import time
from typing import Callable, Iterator, List, Optional, Tuple

from .. import run
from ..backend import Solver, make_solver
from ..bid.estimates import effective_samples
from ..bid.sampling import CONDITIONED
from ..bid.simulate import checkpoints
from ..deal import Deal
from .answers import LayoutAnswers, group_values, solve_layout
from .conditioning import Draws, Weighted, exact_layouts
from .layouts import Layout
from .outcome import Scorer
from .question import AdviseError, Question, question_of
from .summary import EXACT, SAMPLED, Advice, card_figures

DEFAULT_SAMPLES = 200
DEFAULT_SEED = 1
#: enumerate every consistent layout when there are at most this many
#: (docs/ADVISE.md "Exact mode" has the measurements behind it)
DEFAULT_EXACT_LIMIT = 5000
#: the largest --exact-limit: the layouts are listed in memory
EXACT_LIMIT_MAX = 1_000_000
#: transposition table per worker (MB): a layout's questions are small
DEFAULT_TT_MB = 64.0


def check_exact_limit(limit: int) -> int:
    if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= EXACT_LIMIT_MAX:
        raise AdviseError(f"exact limit {limit!r}", field="exact_limit",
                          expected=f"a whole number of layouts from 0 to {EXACT_LIMIT_MAX:,}")
    return limit


def check_samples(samples: int) -> int:
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise AdviseError(f"{samples!r} samples", field="samples",
                          expected="a whole number of samples, at least 1")
    return samples


def check_precision(target: Optional[float]) -> Optional[float]:
    if target is None:
        return None
    if isinstance(target, bool) or not isinstance(target, (int, float)) or not target > 0 \
            or math.isinf(target):
        raise AdviseError(f"precision {target!r}", field="precision",
                          expected="a positive number of points")
    return float(target)


def double_dummy(question: Question, real: Layout, solver: Solver) -> Tuple[int, ...]:
    """Each card group's double-dummy total on the real layout of the hidden
    hands (hindsight)."""
    q = question
    won = sum(w for s, w in enumerate(q.won) if q.side >> s & 1)
    solver.clear()
    return tuple(won + v for v in group_values(solver, q, real, q.side))


def advise(deal: Deal, player: Optional[str] = None, *, samples: int = DEFAULT_SAMPLES,
           seed: int = DEFAULT_SEED, sampling: str = CONDITIONED,
           exact_limit: int = DEFAULT_EXACT_LIMIT, precision: Optional[float] = None,
           time_limit: Optional[float] = None, executor: Optional[run.Executor] = None,
           solver: Optional[Solver] = None, tt_mb: float = DEFAULT_TT_MB,
           progress: Optional[Callable[[], None]] = None,
           update: Optional[Callable[[Advice], None]] = None,
           hindsight: bool = True) -> Advice:
    """Single-dummy advice for the card to play at ``deal``'s position, from
    the view of ``player`` (default: whoever chooses it): :func:`advise_on`
    the question of :func:`question_of`, with the deal's real layout for
    ``double_dummy`` when ``hindsight`` (the one place the hidden hands are
    read)."""
    q = question_of(deal, player)
    real: Optional[Layout] = None
    if hindsight:
        hands = deal.board().hands
        real = tuple(hands[s] for s in q.hidden)
    return advise_on(q, samples=samples, seed=seed, sampling=sampling, exact_limit=exact_limit,
                     precision=precision, time_limit=time_limit, executor=executor,
                     solver=solver, tt_mb=tt_mb, progress=progress, update=update, real=real)


def advise_on(question: Question, *, samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
              sampling: str = CONDITIONED, exact_limit: int = DEFAULT_EXACT_LIMIT,
              precision: Optional[float] = None, time_limit: Optional[float] = None,
              executor: Optional[run.Executor] = None, solver: Optional[Solver] = None,
              tt_mb: float = DEFAULT_TT_MB, progress: Optional[Callable[[], None]] = None,
              update: Optional[Callable[[Advice], None]] = None,
              real: Optional[Layout] = None) -> Advice:
    """Single-dummy advice on ``question``.

    ``executor`` runs the solves (default: this process, with ``solver`` if
    given); ``progress()`` is called after each layout; ``update(advice)``
    at each checkpoint of a sampled run (a live display); ``real``: the real
    layout of the hidden hands, solved for ``double_dummy`` (hindsight)."""
    check_samples(samples)
    check_exact_limit(exact_limit)
    precision = check_precision(precision)
    if time_limit is not None and not (time_limit >= 0 and math.isfinite(time_limit)):
        raise AdviseError(f"{time_limit!r} seconds", field="time_limit",
                          expected="a number of seconds, 0 or more")
    q = question
    scorer = Scorer(q)
    consistent = q.space.count()
    if consistent == 0:   # the real layout is always one: contradictory knowledge
        raise AdviseError("no layout of the hidden hands fits what the player has seen",
                          field="played", expected="a play the hands allow")
    exact = consistent <= exact_limit
    draws: Optional[Draws] = None
    if exact:
        items, report = exact_layouts(q, seed, sampling)
        requested = len(items)
        stream: Iterator[Weighted] = iter(items)
    else:
        draws = Draws(q, seed, sampling)
        requested = samples
        stream = draws.draws(samples)
    deadline = None if time_limit is None else time.monotonic() + time_limit
    runner: run.Executor = executor if executor is not None else run.Inline(solver)
    work = run.Work(solve_layout, q, make_solver, (tt_mb,))
    taken: List[Weighted] = []

    def items_of() -> Iterator[Tuple[int, Layout]]:
        for w in stream:
            taken.append(w)
            yield (w.index, w.layout)

    answers: List[LayoutAnswers] = []
    dd = None
    if real is not None:
        dd = double_dummy(q, real, solver if solver is not None else make_solver(tt_mb))

    def summary(stopped_by: str) -> Advice:
        weighted = [w.weight for w in taken[:len(answers)]]
        rep = draws.report() if draws is not None else report
        weights = weighted if rep.conditioned else None
        distinct = len({w.layout for w in taken[:len(answers)]})
        complete = exact and len(answers) == requested
        return Advice(
            question=q, players=scorer.players, method=EXACT if complete else SAMPLED,
            consistent=consistent, layouts=distinct, samples=len(answers),
            requested=requested,
            effective_samples=effective_samples(weighted) if rep.conditioned
            else float(len(answers)), seed=seed, stopped_by=stopped_by, sampling=rep,
            cards=card_figures(q, scorer, answers, weights, complete, dd),
            queries=sum(a.queries for a in answers), nodes=sum(a.nodes for a in answers),
            target=precision)

    marks = checkpoints()
    mark = next(marks)
    stopped_by = "layouts" if exact else "samples"
    results = runner.map(work, items_of(), deadline=deadline, total=requested)
    try:
        for _, answer in results:
            answers.append(answer)
            if progress is not None:
                progress()
            if len(answers) == mark and len(answers) < requested and not exact:
                mark = next(marks)
                a = summary("samples")
                if precision is not None and a.precision() <= precision:
                    stopped_by = "precision"
                    break
                if update is not None:
                    update(a)
    finally:
        results.close()     # stops the workers of a run left early
    if len(answers) < requested and stopped_by in ("samples", "layouts"):
        stopped_by = "draws" if draws is not None and draws.capped else "time"
    return summary(stopped_by)


__all__ = ["DEFAULT_EXACT_LIMIT", "DEFAULT_SAMPLES", "DEFAULT_SEED", "DEFAULT_TT_MB",
           "EXACT_LIMIT_MAX", "advise", "advise_on", "check_exact_limit", "check_precision",
           "check_samples", "double_dummy"]
