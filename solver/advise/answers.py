"""The double-dummy answers of one layout (docs/ADVISE.md "Per layout").

For one layout of the hidden hands, :func:`solve_cards` asks one solver:

* the every-card question of the chooser's side (``Solver.card_groups``):
  for each group of equivalent legal cards, the side's tricks from the
  trick in progress on after that card, both sides playing the trick game
  double dummy;
* for each nil that counts and has not failed yet, the same question with
  the engine's nil-aware query (``nil_seat``): after each card, the most
  tricks the nil hand's side takes while keeping it trickless, or
  :data:`~solver.position.NIL_LOST` when the other side can break it.

The questions of one layout share the solver's table, which is cleared
before each layout (entries of another layout rarely match and crowd out
those of the layout in hand). This module never scores: the scores come
from these answers in the main process (:mod:`.outcome`).
"""
from __future__ import annotations

from typing import Dict, NamedTuple, Tuple

from ..contract import Solver
from ..seating import side_of
from ..simulation import Layout
from .question import Question


class LayoutAnswers(NamedTuple):
    """The answers of layout ``index``.

    ``tricks[g]``: the chooser's side's tricks from the trick in progress on
    after a card of ``question.groups[g]``. ``nils[j][g]``: for the seat
    ``question.nil_seats()[j]``, the most tricks its side takes from the
    trick in progress on while keeping it trickless after that card, or
    ``-1``. ``queries``: the solver questions asked (each every-card
    question counts once); ``nodes``: the search nodes they visited.
    """

    index: int  # type: ignore[assignment]  # a field named like tuple.index, which it shadows
    tricks: Tuple[int, ...]
    nils: Tuple[Tuple[int, ...], ...]
    queries: int
    nodes: int


def group_values(solver: Solver, question: Question, layout: Layout, side: int,
                 nil_seat: int = -1) -> Tuple[int, ...]:
    """One every-card question in ``layout``, its values in the order of
    ``question.groups``."""
    pos = question.board(layout).position
    by_card: Dict[int, int] = {}
    for cards, value in solver.card_groups(pos, side, nil_seat=None if nil_seat < 0 else nil_seat):
        for c in cards:
            by_card[c] = value
    return tuple(by_card[g[0]] for g in question.groups)


def solve_cards(solver: Solver, question: Question, item: Tuple[int, Layout]) -> LayoutAnswers:
    """The answers of one layout (``item``: its index and the hidden hands);
    the work of one worker (:mod:`solver.run`)."""
    index, layout = item
    solver.clear()
    tricks = group_values(solver, question, layout, question.side)
    nils = tuple(group_values(solver, question, layout, side_of(seat), seat)
                 for seat in question.nil_seats())
    return LayoutAnswers(index, tricks, nils, 1 + len(nils), solver.nodes)


__all__ = ["LayoutAnswers", "group_values", "solve_cards"]
