"""A played hand judged single dummy (``review --single-dummy``;
docs/REVIEW.md "Single dummy").

Every card that had a choice (two groups of equivalent legal cards or
more) is judged also by ``advise`` from the view of the player who chose
it, at the point where it was played: their knowledge then
(:meth:`solver.knowledge.Knowledge.from_board`), the layouts consistent
with it, weighted by the bids. Beside the double-dummy judgement of
:mod:`solver.review` each such card gets

* its **single-dummy loss**: the expected tricks and the chooser's
  expected score of the single-dummy best card minus those of the card
  played, paired over the same layouts, ± one standard error;
* a **verdict**: ``unlucky`` (the card was single-dummy best, or within two
  standard errors of it, but lost double dummy), ``lucky`` (clearly worse
  single dummy, more than two standard errors, but no double-dummy loss),
  ``mistake`` (bad both ways) or ``fine``.

The layouts of every judged card go to one executor in one stream (the
workers keep their solver from card to card); each card's layouts are
exact late in the hand (``exact_limit``) and sampled before.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .. import run
from ..backend import make_solver
from ..limits import LAYOUT_TT_MB
from ..contract import Solver
from ..bid.estimates import Estimate
from ..bid.sampling import CONDITIONED
from ..deal import Deal
from ..knowledge import Knowledge
from ..review import CardJudgement
from .answers import LayoutAnswers, solve_layout
from .layouts import Layout
from .question import Question, question
from .simulate import DEFAULT_EXACT_LIMIT, DEFAULT_SEED, Solving
from .summary import Advice, CardFigures, within

UNLUCKY, LUCKY, MISTAKE, FINE = "unlucky", "lucky", "mistake", "fine"
VERDICTS = (UNLUCKY, LUCKY, MISTAKE, FINE)
#: samples per judged card by default: a whole hand in about a minute on
#: two cores (docs/REVIEW.md "Single dummy" has the measurements)
DEFAULT_SAMPLES = 2000


def negated(e: Estimate) -> Estimate:
    return Estimate(-e.value, e.se, e.n, e.n_eff)


def total(estimates: Sequence[Estimate]) -> Estimate:
    """The sum of independent estimates (standard errors in quadrature)."""
    if not estimates:
        return Estimate(0.0, 0.0, 0)
    se = math.sqrt(sum(e.se ** 2 for e in estimates)) \
        if not any(math.isnan(e.se) for e in estimates) else math.nan
    return Estimate(sum(e.value for e in estimates), se, len(estimates))


@dataclass(frozen=True)
class SingleDummyJudgement:
    """One card that had a choice, judged from its chooser's view.

    ``card``: the double-dummy judgement (:class:`solver.review.CardJudgement`);
    ``advice``: what ``advise`` said at that point; ``played``: the figures
    of the played card's group there."""

    card: CardJudgement
    advice: Advice
    played: CardFigures

    @property
    def best(self) -> CardFigures:
        return self.advice.recommended

    @property
    def tricks_loss(self) -> Estimate:
        """Expected tricks of the single-dummy best card minus the played one's (paired)."""
        return negated(self.played.tricks_diff)

    @property
    def score_loss(self) -> Estimate:
        """The chooser's expected score of the best card minus the played one's (paired)."""
        return negated(self.played.diff)

    @property
    def single_dummy_best(self) -> bool:
        """The played card is the single-dummy best, or within two standard errors of it."""
        return self.played is self.best or within(self.played)

    @property
    def verdict(self) -> str:
        lost = self.card.lost > 0
        if self.single_dummy_best:
            return UNLUCKY if lost else FINE
        return MISTAKE if lost else LUCKY


@dataclass(frozen=True)
class PlayerLoss:
    """A real player's single-dummy losses over the cards they chose
    (the declarer's include the dummy's): their sums, standard errors in
    quadrature (the cards' layouts are drawn independently), and the
    verdicts."""

    player: str
    cards: int
    tricks_loss: Estimate
    score_loss: Estimate
    verdicts: Tuple[Tuple[str, int], ...]

    def count(self, verdict: str) -> int:
        return dict(self.verdicts).get(verdict, 0)


@dataclass(frozen=True)
class SingleDummyReview:
    judgements: Tuple[SingleDummyJudgement, ...]
    players: Tuple[PlayerLoss, ...]
    samples: int
    seed: int
    sampling: str
    exact_limit: int

    def judgement_of(self, number: int) -> Optional[SingleDummyJudgement]:
        """The judgement of the ``number``-th card played (None: no choice)."""
        return next((j for j in self.judgements if j.card.number == number), None)


def _solve_at(solver: Solver, questions: Tuple[Question, ...],
              item: Tuple[int, Tuple[int, Layout]]) -> LayoutAnswers:
    """One layout of the judged card ``item[0]`` (the work of one worker)."""
    which, inner = item
    return solve_layout(solver, questions[which], inner)


@dataclass
class Plan:
    """The judged cards (those with a choice) and, for each, the layouts to
    solve at that point (:class:`~.simulate.Solving`)."""

    deal: Deal
    cards: List[CardJudgement]
    solvings: List[Solving]
    samples: int
    seed: int
    sampling: str
    exact_limit: int

    @property
    def total(self) -> int:
        """Layouts to solve in all."""
        return sum(s.requested for s in self.solvings)


def plan(deal: Deal, cards: Sequence[CardJudgement], *, samples: int = DEFAULT_SAMPLES,
         seed: int = DEFAULT_SEED, sampling: str = CONDITIONED,
         exact_limit: int = DEFAULT_EXACT_LIMIT) -> Plan:
    """The single-dummy questions of every card of ``cards`` (``deal``'s
    played cards, judged double dummy by :func:`solver.review.review`) that
    had a choice, each from its chooser's knowledge at that point."""
    board = deal.opening_board()
    solvings: List[Solving] = []
    judged: List[CardJudgement] = []
    for c in cards:
        if c.choices > 1:
            knowledge = Knowledge.from_board(board.copy(), c.player)
            solvings.append(Solving(question(knowledge), samples, seed,
                                    sampling, exact_limit))
            judged.append(c)
        board.push(c.card)
    return Plan(deal, judged, solvings, samples, seed, sampling, exact_limit)


def single_dummy_review(plan: Plan, *, executor: Optional[run.Executor] = None,
                        solver: Optional[Solver] = None, tt_mb: float = LAYOUT_TT_MB,
                        progress: Optional[Callable[[], None]] = None) -> SingleDummyReview:
    """Solve every layout of ``plan`` through one executor (default: this
    process, with ``solver`` if given) and judge each card; ``progress()``
    is called after each layout."""
    solvings = plan.solvings
    questions = tuple(s.question for s in solvings)

    def items() -> Iterator[Tuple[int, Tuple[int, Layout]]]:
        for which, s in enumerate(solvings):
            for item in s.items():
                yield which, item

    runner: run.Executor = executor if executor is not None else run.Inline(solver)
    work = run.Work(_solve_at, questions, make_solver, (tt_mb,))
    results = runner.map(work, items(), total=plan.total)
    try:
        for (which, _), answer in results:
            solvings[which].add(answer)
            if progress is not None:
                progress()
    finally:
        results.close()
    out = []
    for c, s in zip(plan.cards, solvings):
        advice = s.advice()
        played = next(g for g in advice.cards if c.card in g.cards)
        out.append(SingleDummyJudgement(c, advice, played))
    return SingleDummyReview(tuple(out), player_losses(plan.deal.players, out), plan.samples,
                             plan.seed, plan.sampling, plan.exact_limit)


def player_losses(players: Sequence[str],
                  judgements: Sequence[SingleDummyJudgement]) -> Tuple[PlayerLoss, ...]:
    out = []
    for p in players:
        mine = [j for j in judgements if j.card.player == p]
        counts: Dict[str, int] = {v: sum(1 for j in mine if j.verdict == v) for v in VERDICTS}
        out.append(PlayerLoss(p, len(mine), total([j.tricks_loss for j in mine]),
                              total([j.score_loss for j in mine]),
                              tuple((v, counts[v]) for v in VERDICTS)))
    return tuple(out)


__all__ = ["DEFAULT_SAMPLES", "FINE", "LUCKY", "MISTAKE", "Plan", "PlayerLoss",
           "SingleDummyJudgement", "SingleDummyReview", "UNLUCKY", "VERDICTS", "negated", "plan",
           "player_losses", "single_dummy_review", "total"]
