"""A played hand judged single dummy (``review --single-dummy``;
docs/REVIEW.md "Single dummy").

Every card that had a choice (two groups of equivalent legal cards or
more) is judged also by ``advise`` (its public face, :mod:`solver.advise`) from the view of the player who chose
it, at the point where it was played: their knowledge then
(:meth:`solver.knowledge.Knowledge.from_board`), the layouts consistent
with it, weighted by the bids. Beside the double-dummy judgement of
:mod:`.double_dummy` each such card gets

* its **single-dummy loss**: the expected tricks and the chooser's
  expected score of the single-dummy best card minus those of the card
  played, paired over the same layouts, ± one standard error;
* a **verdict**: the card is *clearly worse* single dummy when its loss
  in points is more than two standard errors and at least
  :data:`MIN_LOSS` (a point, the value of one bag); ``unlucky`` (not
  clearly worse, but it lost double dummy), ``lucky`` (clearly worse, no
  double-dummy loss), ``mistake`` (bad both ways) or ``fine``.

**Allotting the samples** (:class:`Allotment`, run by
:func:`single_dummy_review`), in rounds, under one
:class:`~solver.simulation.Settings`: late in the hand a card's layouts
are exact (``exact_limit``), all solved in the first round. Before that, a card first gets ``first`` samples; then,
round after round, each card whose verdict is not yet *settled* doubles
its samples, up to ``samples`` a card, the cheapest cards first (by their
search nodes per layout so far), as far as the search nodes spent in all
are expected to stay within ``node_budget``; the review stops at the
layout whose answer brings them to the budget (the first round is solved
whatever it costs). A sampled verdict is settled, from
:data:`MIN_SETTLED` samples on, when two standard errors cannot move it
across :data:`MIN_LOSS`: the loss less two standard errors is at least
:data:`MIN_LOSS` (clearly worse), or every other card's paired gain over
the card played, plus two standard errors, is below it (not clearly
worse). The standard errors are those of the layouts taken; since the
stopping looks at them, the two-standard-error test is approximate, which
is why a verdict needs :data:`MIN_SETTLED` samples to settle. Every
decision depends on the answers only (a layout's search nodes too: each
layout starts from an empty table of the same size), so the review is a
function of the seed whatever runs the solves. A ``time_limit`` stops it
where it is (each card keeps the layouts solved in its order of draws, so
its figures are those of its first layouts; a card not reached is not
judged). A round's layouts go to one executor in one stream, taking the
cards in turn (the workers keep their solver from card to card).
"""
from __future__ import annotations

import dataclasses
import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from .. import run
from ..advise import (CLOSE_SE, EXACT, Advice, CardFigures, LayoutAnswers, Lookahead, Question,
                      Solving, automatic_lookahead, chooser_scores, default_goal,
                      lookahead_figures, question, solve_cards)
from ..backend import make_solver
from ..contract import Solver
from ..deal import Deal
from ..knowledge import Knowledge
from ..limits import LAYOUT_TT_MB
from ..simulation import Estimate, Layout, Settings, Stopping
from .double_dummy import CardJudgement

UNLUCKY, LUCKY, MISTAKE, FINE = "unlucky", "lucky", "mistake", "fine"
VERDICTS = (UNLUCKY, LUCKY, MISTAKE, FINE)
#: the smallest expected loss (points) that makes a card clearly worse: one
#: point, the value of a bag, the smallest step of the score
MIN_LOSS = 1.0
#: samples a judged card gets at most by default
DEFAULT_SAMPLES = 2000
#: samples every sampled card gets in the first round
FIRST_SAMPLES = 25
#: a sampled verdict can be settled from this many samples on (fewer
#: layouts can miss a difference that shows in one layout in twenty)
MIN_SETTLED = 100
#: the search nodes a review spends in all by default (the first round is
#: solved whatever it costs): a whole hand in about a minute on two cores
#: or less (docs/REVIEW.md "Speed" has the measurements)
DEFAULT_NODE_BUDGET = 750_000_000
#: how a review samples by default
DEFAULT_SETTINGS = Settings(samples=DEFAULT_SAMPLES, node_budget=DEFAULT_NODE_BUDGET)
#: a later round gives a card fewer samples than this only to finish it
MIN_BATCH = 20
#: why a card's sampling ended (``stopped_by``)
SETTLED, BUDGET = "settled", "budget"


def clearly_worse(loss: Estimate) -> bool:
    """A loss (points, paired, ± SE) more than :data:`CLOSE_SE` standard
    errors and at least :data:`MIN_LOSS`: clearly worse. Exact (SE 0): at
    least :data:`MIN_LOSS`. A single layout (no SE) tells nothing."""
    if math.isnan(loss.se):
        return False
    return loss.value >= MIN_LOSS and loss.value > CLOSE_SE * loss.se


def settled(loss: Estimate, gains: Sequence[Estimate], exact: bool = False) -> bool:
    """Can two standard errors not move the verdict across :data:`MIN_LOSS`?
    ``loss``: against the best card; ``gains``: every other card's paired
    gain over the card played, each over at least :data:`MIN_SETTLED`
    layouts. Exact figures are settled."""
    if exact:
        return True
    if loss.n < MIN_SETTLED or math.isnan(loss.se) or any(math.isnan(g.se) for g in gains):
        return False
    return loss.value - CLOSE_SE * loss.se >= MIN_LOSS or \
        all(g.value + CLOSE_SE * g.se < MIN_LOSS for g in gains)


@dataclass(frozen=True)
class SingleDummyJudgement:
    """One card that had a choice, judged from its chooser's view.

    ``card``: the double-dummy judgement (:class:`.double_dummy.CardJudgement`);
    ``advice``: what ``advise`` said at that point; ``played``: the figures
    of the played card's group there; ``gains``: each other group's expected
    score for the chooser minus the played card's, paired (``advice.cards``
    order)."""

    card: CardJudgement
    advice: Advice
    played: CardFigures
    gains: Tuple[Estimate, ...] = ()

    @property
    def best(self) -> CardFigures:
        return self.advice.recommended

    @property
    def tricks_loss(self) -> Estimate:
        """Expected tricks of the single-dummy best card minus the played one's (paired)."""
        return self.played.tricks_diff.negated()

    @property
    def score_loss(self) -> Estimate:
        """The chooser's expected score of the best card minus the played one's (paired)."""
        return self.played.diff.negated()

    @property
    def chance_loss(self) -> Optional[float]:
        """With the figures without hindsight (an ending of the declarer's
        side, docs/REVIEW.md "Single dummy"): the best card's chance of the
        contract without hindsight minus the played card's; else None."""
        la = self.advice.lookahead
        if la is None:
            return None
        return la.fusion_free_of(self.best.cards).value - la.fusion_free_of(self.played.cards).value

    @property
    def single_dummy_best(self) -> bool:
        """The played card is not clearly worse than the single-dummy best
        (it is the best, within two standard errors of it, or less than
        :data:`MIN_LOSS` worse); with the figures without hindsight, its
        chance of the contract without hindsight is the best one."""
        loss = self.chance_loss
        if loss is not None:
            return loss <= 0
        return not clearly_worse(self.score_loss)

    @property
    def settled(self) -> bool:
        """Two standard errors cannot move the verdict (exact: always)."""
        return settled(self.score_loss, self.gains, self.advice.method == EXACT)

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
    """Every judged card, the players' sums, and how the samples were
    allotted: the ``settings`` (``samples`` a card at most, the node budget,
    the time limit...), ``first`` samples in the first round, ``nodes``
    spent, ``rounds``, and whether the time limit stopped the review
    (``timed_out``)."""

    judgements: Tuple[SingleDummyJudgement, ...]
    players: Tuple[PlayerLoss, ...]
    settings: Settings
    first: int = FIRST_SAMPLES
    nodes: int = 0
    rounds: int = 0
    timed_out: bool = False
    unjudged: Tuple[int, ...] = ()   # the numbers of cards with a choice the time left unjudged

    def judgement_of(self, number: int) -> Optional[SingleDummyJudgement]:
        """The judgement of the ``number``-th card played (None: no choice)."""
        return next((j for j in self.judgements if j.card.number == number), None)

    @property
    def unsettled(self) -> int:
        """Judged cards whose verdict two standard errors could still move."""
        return sum(1 for j in self.judgements if not j.settled)


def _solve_at(solver: Solver, questions: Tuple[Question, ...],
              item: Tuple[int, Tuple[int, Layout]]) -> LayoutAnswers:
    """One layout of the judged card ``item[0]`` (the work of one worker)."""
    which, inner = item
    return solve_cards(solver, questions[which], inner)


@dataclass
class Allotment:
    """A review's running state: the judged cards (those with a choice)
    and, for each, the layouts to solve at that point
    (:class:`solver.advise.Solving`), with the samples allotted so far
    (module docstring)."""

    deal: Deal
    cards: List[CardJudgement]
    solvings: List[Solving]
    settings: Settings
    first: int = FIRST_SAMPLES
    streams: List[Iterator[Tuple[int, Layout]]] = field(default_factory=list)
    nodes: List[int] = field(default_factory=list)       # spent on each card
    why: Dict[int, str] = field(default_factory=dict)    # cards whose sampling has ended
    lookaheads: Dict[int, Optional[Lookahead]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.streams = [s.items() for s in self.solvings]
        self.nodes = [0] * len(self.solvings)

    def judgement(self, which: int) -> SingleDummyJudgement:
        """The judgement of card ``which`` from its answers so far."""
        c, s = self.cards[which], self.solvings[which]
        advice = s.advice(self.why.get(which))
        figures = self.lookahead(which)
        if figures is not None:
            advice = dataclasses.replace(advice, lookahead=figures)
        played = next(g for g in advice.cards if c.card in g.cards)
        return SingleDummyJudgement(c, advice, played, self._gains(which, advice, played))

    def lookahead(self, which: int) -> Optional[Lookahead]:
        """The figures without hindsight of card ``which``, to the end of the
        hand, where `advise` runs them by itself (the declarer's side to
        choose, every layout solved, an ending: :func:`solver.advise.automatic_lookahead`);
        else None. Searched once."""
        if which not in self.lookaheads:
            s = self.solvings[which]
            m = automatic_lookahead(s.question, s.complete)
            self.lookaheads[which] = None if m is None else lookahead_figures(
                s.question, [w.layout for w in s.taken[:len(s.answers)]], s.answers,
                s.weights(), True, m, default_goal(s.question))
        return self.lookaheads[which]

    def _gains(self, which: int, advice: Advice, played: CardFigures) -> Tuple[Estimate, ...]:
        s = self.solvings[which]
        groups = s.question.groups
        mine = chooser_scores(s.scorer, s.answers, groups.index(played.cards))
        weights = s.weights()
        return tuple(
            Estimate.paired(chooser_scores(s.scorer, s.answers, groups.index(c.cards)), mine,
                            weights, s.complete)
            for c in advice.cards if c is not played)

    def first_round(self) -> List[Tuple[int, int]]:
        """``(card, samples)``: every exact card's layouts, ``first`` samples of the others."""
        return [(i, s.requested if s.exact else min(self.first, s.requested))
                for i, s in enumerate(self.solvings)]

    def items(self, batch: Sequence[Tuple[int, int]]) -> List[Tuple[int, Tuple[int, Layout]]]:
        """The layouts of ``batch`` (``(card, samples)``), drawn in each
        card's order, the cards taken in turn (so that a time limit leaves
        each card its first layouts)."""
        drawn = [[(which, item) for item in itertools.islice(self.streams[which], count)]
                 for which, count in batch]
        return [item for layer in itertools.zip_longest(*drawn) for item in layer
                if item is not None]

    def next_round(self, spent: int) -> List[Tuple[int, int]]:
        """``(card, samples)`` of the next round: each card whose verdict is
        not settled doubles its samples (up to ``samples``), cheapest first,
        within the node budget (``spent``: the nodes of the rounds so far).
        A card left out has its sampling ended (``why``)."""
        candidates = []
        for i, s in enumerate(self.solvings):
            n = len(s.answers)
            if i in self.why or s.exact or s.done or n == 0 or \
                    (s.draws is not None and s.draws.capped):
                continue
            if self.judgement(i).settled:
                self.why[i] = SETTLED
                continue
            more = min(n, s.requested - n)
            per_layout = self.nodes[i] / n
            candidates.append((more * per_layout, i, more, per_layout))
        budget = self.settings.node_budget
        left = math.inf if budget is None else float(budget - spent)
        out = []
        for cost, i, more, per_layout in sorted(candidates):
            if cost > left:
                more = int(left // per_layout) if per_layout > 0 else more
                if more < MIN_BATCH:
                    self.why[i] = BUDGET
                    continue
                cost = more * per_layout
            out.append((i, more))
            left -= cost
        return out

    def end(self, why: Optional[str] = None) -> None:
        """Sampling stops here: each card still sampling is settled, or was
        stopped by ``why`` (:data:`BUDGET`; None: the time limit)."""
        for i, s in enumerate(self.solvings):
            if i in self.why or s.exact or s.done or not s.answers:
                continue
            if self.judgement(i).settled:
                self.why[i] = SETTLED
            elif why is not None:
                self.why[i] = why


def allot(deal: Deal, cards: Sequence[CardJudgement], settings: Settings = DEFAULT_SETTINGS,
          first: int = FIRST_SAMPLES) -> Allotment:
    """The single-dummy questions of every card of ``cards`` (``deal``'s
    played cards, judged double dummy by :func:`.double_dummy.review`) that
    had a choice, each from its chooser's knowledge at that point, to be
    sampled under ``settings`` (``first`` samples a card in the first round)."""
    Settings(samples=first)     # checked as a number of samples
    board = deal.opening_board()
    solvings: List[Solving] = []
    judged: List[CardJudgement] = []
    for c in cards:
        if c.choices > 1:
            knowledge = Knowledge.from_board(board.copy(), c.player)
            solvings.append(Solving(question(knowledge), settings))
            judged.append(c)
        board.push(c.card)
    return Allotment(deal, judged, solvings, settings, first)


def single_dummy_review(plan: Allotment, *, executor: Optional[run.Executor] = None,
                        solver: Optional[Solver] = None, tt_mb: float = LAYOUT_TT_MB,
                        progress: Optional[Callable[[int, int], None]] = None
                        ) -> SingleDummyReview:
    """Solve the layouts of ``plan`` round after round (module docstring)
    through one executor (default: this process, with ``solver`` if given)
    and judge each card. ``progress(done, planned)`` is called after each
    layout (the layouts planned grow round by round); the settings' time
    limit stops the review where it is once passed."""
    stopping = Stopping(plan.settings)
    deadline = stopping.deadline
    questions = tuple(s.question for s in plan.solvings)
    runner: run.Executor = executor if executor is not None else run.Inline(solver)
    work = run.Work(_solve_at, questions, make_solver, (tt_mb,))
    batch = plan.first_round()
    spent = done = planned = rounds = 0
    timed_out = False
    while batch:
        items = plan.items(batch)
        if not items:
            break
        planned += len(items)
        rounds += 1
        results = runner.map(work, items, total=len(items), deadline=deadline)
        over = False
        try:
            for (which, _), answer in results:
                plan.solvings[which].add(answer)
                plan.nodes[which] += answer.nodes
                spent += answer.nodes
                done += 1
                if progress is not None:
                    progress(done, planned)
                if rounds > 1 and stopping.over_budget(spent):
                    over = True     # the answers come in order: the same cut on any executor
                    break
        finally:
            results.close()
        if stopping.timed_out():
            timed_out = True
            plan.end()
            break
        if over:
            plan.end(BUDGET)
            break
        batch = plan.next_round(spent)
    out = tuple(plan.judgement(i) for i, s in enumerate(plan.solvings) if s.answers)
    unjudged = tuple(c.number for c, s in zip(plan.cards, plan.solvings) if not s.answers)
    return SingleDummyReview(out, player_losses(plan.deal.players, out), plan.settings,
                             plan.first, spent, rounds, timed_out, unjudged)


def player_losses(players: Sequence[str],
                  judgements: Sequence[SingleDummyJudgement]) -> Tuple[PlayerLoss, ...]:
    out = []
    for p in players:
        mine = [j for j in judgements if j.card.player == p]
        counts: Dict[str, int] = {v: sum(1 for j in mine if j.verdict == v) for v in VERDICTS}
        out.append(PlayerLoss(p, len(mine), Estimate.total([j.tricks_loss for j in mine]),
                              Estimate.total([j.score_loss for j in mine]),
                              tuple((v, counts[v]) for v in VERDICTS)))
    return tuple(out)


__all__ = ["Allotment", "BUDGET", "DEFAULT_NODE_BUDGET", "DEFAULT_SAMPLES", "DEFAULT_SETTINGS",
           "FINE", "FIRST_SAMPLES", "LUCKY", "MIN_BATCH", "MIN_LOSS", "MIN_SETTLED", "MISTAKE",
           "PlayerLoss", "SETTLED", "SingleDummyJudgement", "SingleDummyReview", "UNLUCKY",
           "VERDICTS", "allot", "clearly_worse", "player_losses", "settled",
           "single_dummy_review"]
