"""Advice without hindsight for the declarer's side (docs/ADVISE.md
"Without hindsight: αμ"): the αμ search of :mod:`solver.alphamu` over the
layouts `advise` solved, for the goal that the declarer's side takes at
least N tricks in the hand.

:func:`lookahead_figures` takes the question, the layouts with their
weights and their double-dummy answers (the hindsight figures, which are
also the αμ figures at M = 1), and deepens from M = 2 within a deadline
and a node budget. :func:`lookahead_order` is the recommendation: the best
figure without hindsight first, ties in the order of the hindsight advice.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple

from .. import alphamu, run
from ..analysis import AnalysisError
from ..backend import make_solver
from ..contract import Solver
from ..limits import LAYOUT_TT_MB, LOOKAHEAD_MAX, LOOKAHEAD_NODE_BUDGET
from ..position import Position, equivalent_groups
from ..scoring import TRICKS_PER_HAND
from ..seating import DECLARER_SIDE
from ..simulation import Estimate, Layout
from .answers import LayoutAnswers
from .question import Question
from .summary import Lookahead



HONESTY = ("The figures without hindsight (--lookahead M) let the declarer's side learn "
           "nothing of the layout during its next M moves but what the cards played show, and "
           "take the defenders to see every card (each layout gets its own best defence): a "
           "cautious figure for the declarer. Their goal is tricks only (a nil on the "
           "declarer's side is not part of it).")


#: advise searches the declarer's side without hindsight by itself, to the
#: end of the hand, from this many tricks left when every layout is listed
#: (docs/BENCHMARKS.md "Advice without hindsight": at most 0.2 s of one core
#: on seeded three-card endings; four cards take up to 20 s)
AUTO_LOOKAHEAD_TRICKS = 3


class LookaheadError(AnalysisError):
    """A lookahead asked where it does not apply (a defender to move), or a
    goal out of range."""


def check_goal(goal: int) -> int:
    if isinstance(goal, bool) or not isinstance(goal, int) or not 0 <= goal <= TRICKS_PER_HAND:
        raise LookaheadError(f"goal {goal!r}", field="goal",
                             expected=f"a whole number of tricks from 0 to {TRICKS_PER_HAND}")
    return goal


def check_declarer_to_choose(question: Question) -> None:
    """The lookahead is the declarer's side's: the declarer must choose."""
    if question.side != DECLARER_SIDE:
        raise LookaheadError(
            f"{question.player} is a defender: the lookahead searches the declarer's choices "
            "only", field="lookahead",
            expected=f"a position where the declarer ({question.names[0]}) chooses the card")


def automatic_lookahead(question: Question, exact: bool) -> Optional[int]:
    """The lookahead `advise` runs without being asked: to the end of the
    hand when the declarer's side chooses, every layout is listed
    (``exact``) and at most :data:`AUTO_LOOKAHEAD_TRICKS` tricks are left;
    else None."""
    if question.side != DECLARER_SIDE or not exact \
            or TRICKS_PER_HAND - question.tricks_played > AUTO_LOOKAHEAD_TRICKS:
        return None
    return LOOKAHEAD_MAX


def default_goal(question: Question) -> int:
    """The declarer's bid: the goal is the contract."""
    for g in question.goals:
        if g.kind == "contract":
            return g.bid
    raise LookaheadError("no contract to reach", field="goal", expected="a declarer's bid")


def hindsight_vector(question: Question, answers: Sequence[LayoutAnswers], group: int,
                     need: int) -> int:
    """The layouts where the side reaches ``need`` more tricks double dummy
    after a card of ``question.groups[group]``: the αμ vector at M = 1."""
    v = 0
    for w, a in enumerate(answers):
        if a.tricks[group] >= need:
            v |= 1 << w
    return v


@dataclass(frozen=True)
class RootSearch:
    """What each worker of a lookahead is given: the worlds and their
    weights, the tricks still needed, the M to reach, the deadline as wall
    time (``time.time()``: a worker on another machine reads it on its own
    clock) and each root card's share of the node budget."""

    worlds: Tuple[Position, ...]
    weights: Optional[Tuple[float, ...]]
    need: int
    lookahead: int
    wall_deadline: Optional[float]
    node_budget: Optional[int]


def search_root(solver: Solver, context: RootSearch, root: int) -> alphamu.Search:
    """The αμ search of one root card group (a worker's item), from M = 2."""
    c = context
    deadline = None if c.wall_deadline is None else \
        time.monotonic() + (c.wall_deadline - time.time())
    solver.clear()
    return alphamu.search(c.worlds, DECLARER_SIDE, c.need, c.lookahead, solver,
                          weights=c.weights, deadline=deadline, node_budget=c.node_budget,
                          start=2, roots=(root,))


def search_roots(worlds: Sequence[Position], weights: Optional[Sequence[float]], need: int,
                 lookahead: int, executor: run.Executor, tt_mb: float,
                 deadline: Optional[float], node_budget: Optional[int]
                 ) -> Tuple[int, List[int], Optional[str], int, int, int]:
    """αμ from M = 2 to ``lookahead`` with each root card group searched
    apart on ``executor`` (``deadline``: ``time.monotonic()``; the node
    budget shared among the groups). Returns the M every group completed
    (0: none), each group's vector at it (:func:`equivalent_groups` order),
    what stopped a group, and the work: αμ nodes, leaves, engine nodes."""
    groups = equivalent_groups(worlds[0])
    wall = None if deadline is None else time.time() + max(0.0, deadline - time.monotonic())
    share = None if node_budget is None else max(1, node_budget // len(groups))
    context = RootSearch(tuple(worlds), None if weights is None else tuple(weights), need,
                         lookahead, wall, share)
    found: List[alphamu.Search] = []
    answers = executor.map(run.Work(search_root, context, make_solver, (tt_mb,)),
                           range(len(groups)), total=len(groups))
    try:
        for _, search in answers:
            found.append(search)
    finally:
        answers.close()
    completed = min(f.completed for f in found)
    vectors = [f.depths[completed - 2][0].vector for f in found] if completed >= 2 else []
    stopped = next((f.stopped_by for f in found if f.stopped_by is not None), None)
    return (completed, vectors, stopped, sum(f.nodes for f in found),
            sum(f.leaves for f in found), sum(f.engine_nodes for f in found))


def lookahead_figures(question: Question, layouts: Sequence[Layout],
                      answers: Sequence[LayoutAnswers], weights: Optional[Sequence[float]],
                      exact: bool, lookahead: int, goal: int, *,
                      executor: Optional[run.Executor] = None, solver: Optional[Solver] = None,
                      tt_mb: float = LAYOUT_TT_MB, deadline: Optional[float] = None,
                      node_budget: Optional[int] = LOOKAHEAD_NODE_BUDGET) -> Lookahead:
    """αμ over ``layouts`` (with their double-dummy ``answers``; ``weights``
    per layout, None: alike; ``exact``: they are every consistent layout),
    the goal ``goal`` tricks in the hand for the declarer's side; the root
    card groups searched apart on ``executor`` (default: this process, with
    ``solver`` if given)."""
    check_declarer_to_choose(question)
    alphamu.check_lookahead(lookahead)
    check_goal(goal)
    q = question
    won = sum(w for s, w in enumerate(q.won) if DECLARER_SIDE >> s & 1)
    need = goal - won
    worlds = [q.board(layout).position for layout in layouts]
    n = len(worlds)
    vectors = [hindsight_vector(q, answers, g, need) for g in range(len(q.groups))]
    covering = max(1, alphamu.side_moves_left(worlds[0], DECLARER_SIDE))
    target = min(lookahead, covering)
    completed, stopped = 1, None
    nodes = leaves = engine = 0
    fusion = list(vectors)
    if target > 1:
        runner = executor if executor is not None else run.Inline(solver)
        depth, found, stopped, nodes, leaves, engine = search_roots(
            worlds, weights, need, target, runner, tt_mb, deadline, node_budget)
        if depth:
            completed = depth
            by_card = {c: v for g, v in zip(equivalent_groups(worlds[0]), found) for c in g}
            fusion = [by_card[g[0]] for g in q.groups]

    def figure(v: int) -> Estimate:
        return Estimate.over([float(v >> w & 1) for w in range(n)], weights, exact, chance=True)

    return Lookahead(target, covering, completed, goal, q.groups,
                     tuple(figure(v) for v in fusion),
                     tuple(figure(v) for v in vectors), exact and completed >= covering,
                     stopped, nodes, leaves, engine)


__all__ = ["AUTO_LOOKAHEAD_TRICKS", "HONESTY", "Lookahead", "LookaheadError", "RootSearch",
           "automatic_lookahead", "check_declarer_to_choose", "check_goal", "default_goal",
           "hindsight_vector", "lookahead_figures", "search_root", "search_roots"]
