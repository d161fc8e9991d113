"""Running `advise`: choose the layouts, solve them (in worker processes),
summarise (docs/ADVISE.md "Method").

:func:`advise` decides between exact and sampled mode by the number of
consistent layouts (``exact_limit``), hands the layouts to an executor in
order (the main process chooses them, so every figure is a function of the
seed whatever runs the solves), stops at a time limit or a precision
target, and summarises.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Callable, Iterator, List, Optional, Tuple

from .. import run
from ..backend import make_solver
from ..contract import Solver
from ..deal import Deal
from ..limits import LAYOUT_TT_MB, LOOKAHEAD_NODE_BUDGET
from ..simulation import (Layout, SamplingReport, Settings, Stopping, Weighted,
                          effective_samples)
from .answers import LayoutAnswers, group_values, solve_cards
from .conditioning import Draws, exact_layouts
from .lookahead import check_declarer_to_choose, check_goal, default_goal, lookahead_figures
from .outcome import Scorer
from .question import AdviseError, Question, question_of
from .summary import EXACT, SAMPLED, Advice, card_figures


def double_dummy(question: Question, real: Layout, solver: Solver) -> Tuple[int, ...]:
    """Each card group's double-dummy total on the real layout of the hidden
    hands (hindsight)."""
    q = question
    won = sum(w for s, w in enumerate(q.won) if q.side >> s & 1)
    solver.clear()
    return tuple(won + v for v in group_values(solver, q, real, q.side))


def advise(deal: Deal, player: Optional[str] = None, settings: Settings = Settings(), *,
           executor: Optional[run.Executor] = None, solver: Optional[Solver] = None,
           tt_mb: float = LAYOUT_TT_MB,
           progress: Optional[Callable[[], None]] = None,
           update: Optional[Callable[[Advice], None]] = None,
           hindsight: bool = True, lookahead: Optional[int] = None,
           goal: Optional[int] = None) -> Advice:
    """Single-dummy advice for the card to play at ``deal``'s position, from
    the view of ``player`` (default: whoever chooses it), sampled by
    ``settings``: :func:`advise_on` the question of :func:`question_of`, with
    the deal's real layout for ``double_dummy`` when ``hindsight`` (the one
    place the hidden hands are read). ``lookahead``: the figures without
    hindsight too (αμ, the declarer's side only), for ``goal`` whole-hand
    tricks (default: the declarer's bid) within the settings' node budget."""
    q = question_of(deal, player)
    real: Optional[Layout] = None
    if hindsight:
        hands = deal.board().hands
        real = tuple(hands[s] for s in q.hidden)
    return advise_on(q, settings, executor=executor, solver=solver, tt_mb=tt_mb,
                     progress=progress, update=update, real=real, lookahead=lookahead, goal=goal)


class Solving:
    """The layouts one advice solves and the answers so far: the layouts
    chosen (:meth:`items`, in order, exact or sampled), the answers added
    (:meth:`add`), and the advice they give (:meth:`advice`). An advice is
    one of these run over an executor (:func:`advise_on`); a review runs
    many through one executor (:mod:`.review`)."""

    def __init__(self, question: Question, settings: Settings,
                 double_dummy: Optional[Tuple[int, ...]] = None) -> None:
        self.question = q = question
        self.settings = settings
        self.seed = seed = settings.seed
        self.double_dummy = double_dummy
        self.scorer = Scorer(q)
        self.consistent = q.space.count()
        if self.consistent == 0:   # the real layout is always one: contradictory knowledge
            raise AdviseError("no layout of the hidden hands fits what the player has seen",
                              field="played", expected="a play the hands allow")
        self.exact = settings.exact(self.consistent)
        self.requested = settings.planned(self.consistent)
        self.draws: Optional[Draws] = None
        if self.exact:
            listed, self.report = exact_layouts(q, seed, settings.sampling)
            self.stream: Iterator[Weighted[Layout]] = iter(listed)
        else:
            self.draws = Draws(q, seed, settings.sampling)
            self.stream = self.draws.draws(settings.samples)
        self.taken: List[Weighted[Layout]] = []
        self.answers: List[LayoutAnswers] = []

    def items(self) -> Iterator[Tuple[int, Layout]]:
        """The layouts to solve, in order, as ``(index, layout)`` items."""
        for w in self.stream:
            self.taken.append(w)
            yield (w.index, w.layout)

    def add(self, answer: LayoutAnswers) -> None:
        self.answers.append(answer)

    @property
    def done(self) -> bool:
        return len(self.answers) >= self.requested

    def stopped_by(self) -> str:
        """Why a run that ended here stopped, when nothing stopped it on purpose."""
        if self.done:
            return "layouts" if self.exact else "samples"
        return "draws" if self.draws is not None and self.draws.capped else "time"

    @property
    def complete(self) -> bool:
        """Exact mode with every consistent layout solved: the figures are exact."""
        return self.exact and len(self.answers) == self.requested

    def sampling(self) -> SamplingReport:
        return self.draws.report() if self.draws is not None else self.report

    def weights(self) -> Optional[List[float]]:
        """The weights of the layouts answered so far (None: all equal)."""
        if not self.sampling().conditioned:
            return None
        return [w.weight for w in self.taken[:len(self.answers)]]

    def advice(self, stopped_by: Optional[str] = None) -> Advice:
        """The advice of the answers so far."""
        q, answers = self.question, self.answers
        taken = self.taken[:len(answers)]
        weighted = [w.weight for w in taken]
        report = self.sampling()
        weights = weighted if report.conditioned else None
        complete = self.complete
        return Advice(
            question=q, players=self.scorer.players, method=EXACT if complete else SAMPLED,
            consistent=self.consistent, layouts=len({w.layout for w in taken}),
            samples=len(answers), requested=self.requested,
            effective_samples=effective_samples(weighted) if report.conditioned
            else float(len(answers)), seed=self.seed,
            stopped_by=stopped_by or self.stopped_by(), sampling=report,
            cards=card_figures(q, self.scorer, answers, weights, complete, self.double_dummy),
            queries=sum(a.queries for a in answers), nodes=sum(a.nodes for a in answers),
            target=self.settings.precision)


def layout_work(question: object, tt_mb: float) -> run.Work:
    """The work of solving layouts (``context``: a question, or what
    :func:`solve_cards` is given by the caller)."""
    return run.Work(solve_cards, question, make_solver, (tt_mb,))


def advise_on(question: Question, settings: Settings = Settings(), *,
              executor: Optional[run.Executor] = None, solver: Optional[Solver] = None,
              tt_mb: float = LAYOUT_TT_MB, progress: Optional[Callable[[], None]] = None,
              update: Optional[Callable[[Advice], None]] = None,
              real: Optional[Layout] = None, lookahead: Optional[int] = None,
              goal: Optional[int] = None) -> Advice:
    """Single-dummy advice on ``question``, sampled by ``settings``.

    ``executor`` runs the solves (default: this process, with ``solver`` if
    given); ``progress()`` is called after each layout; ``update(advice)``
    at each checkpoint of a sampled run (a live display); ``real``: the real
    layout of the hidden hands, solved for ``double_dummy`` (hindsight);
    ``lookahead``: M, the figures without hindsight for the declarer's side
    (docs/ADVISE.md "Without hindsight: αμ") for ``goal`` whole-hand tricks
    (default: the declarer's bid), searched after the layouts are solved,
    within the same time limit and the settings' node budget (default
    :data:`~solver.limits.LOOKAHEAD_NODE_BUDGET`)."""
    if lookahead is not None:
        check_declarer_to_choose(question)
        goal = check_goal(default_goal(question) if goal is None else goal)
    dd = None
    if real is not None:
        dd = double_dummy(question, real, solver if solver is not None else make_solver(tt_mb))
    solving = Solving(question, settings, dd)
    stopping = Stopping(settings)
    runner: run.Executor = executor if executor is not None else run.Inline(solver)
    stopped_by: Optional[str] = None
    results = runner.map(layout_work(question, tt_mb), solving.items(),
                         deadline=stopping.deadline, total=solving.requested)
    try:
        for _, answer in results:
            solving.add(answer)
            if progress is not None:
                progress()
            if stopping.checkpoint(len(solving.answers)) and not solving.done \
                    and not solving.exact:
                a = solving.advice("samples")
                if stopping.precise(a.precision()):
                    stopped_by = "precision"
                    break
                if update is not None:
                    update(a)
    finally:
        results.close()     # stops the workers of a run left early
    advice = solving.advice(stopped_by)
    if lookahead is None or goal is None:
        return advice
    n = len(solving.answers)
    figures = lookahead_figures(
        question, [w.layout for w in solving.taken[:n]], solving.answers, solving.weights(),
        solving.complete, lookahead, goal, executor=runner, tt_mb=tt_mb,
        deadline=stopping.deadline,
        node_budget=LOOKAHEAD_NODE_BUDGET if settings.node_budget is None
        else settings.node_budget)
    return dataclasses.replace(advice, lookahead=figures)


__all__ = ["Solving", "advise", "advise_on", "double_dummy", "layout_work"]
