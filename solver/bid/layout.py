"""Solving one layout: the double-dummy questions of every role the player
can end up in (:func:`solve_layout`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Mapping, NamedTuple, Optional, Tuple

from ..auction import MIRROR, STANDARD, auction_winner, spade_count
from ..contract import Solver
from ..board import Board
from ..position import ALL_SEATS, NIL_LOST, Position
from ..scoring import TRICKS_PER_HAND
from ..seating import DECLARER_SIDE, Seating, side_of
from ..simulation.model import certain_trick
from .knowledge import Knowledge

NOT_ASKED = -2   # a nil question of a role the layout rules out (mirror): not searched



@dataclass(frozen=True)
class Plan:
    """The nil questions asked of each layout besides the three full solves.

    ``nils``: (declarer, nil hand) pairs: can the hand's side keep it
    trickless when that player declares? ``zeros``: declarers for which we
    ask whether the player's side can take no trick at all (multi-nil bids).
    """

    nils: Tuple[Tuple[str, str], ...] = ()
    zeros: Tuple[str, ...] = ()


class SampleResult(NamedTuple):
    """The double-dummy answers for one layout.

    ``declarer_tricks[i]``: declarer-side tricks when ``players[i]`` declares
    (``None`` when the auction already rules that out: not solved).
    ``nils[j]``: for ``plan.nils[j]``, the most tricks the nil hand's side
    takes while keeping it trickless, or ``-1`` when it cannot be kept.
    ``zeros[j]``: for ``plan.zeros[j]``, whether the player's side can take
    no trick at all. ``spades``: under a bidding variant, each player's spade
    count in the layout. ``queries``: the double-dummy questions searched (full
    solves, nil and zero questions not implied; each may take several
    null-window tests, not counted, so that the count does not depend on
    the search order).
    """

    index: int  # type: ignore[assignment]  # a field named like tuple.index, which it shadows
    declarer_tricks: Tuple[Optional[int], ...]  # one per player, in Knowledge.players order
    nils: Tuple[int, ...] = ()
    zeros: Tuple[bool, ...] = ()
    queries: int = 0
    spades: Tuple[int, ...] = ()     # each player's spade count in the layout (mirror's bids)


def layout_board(knowledge: Knowledge, layout: Mapping[str, int], declarer: str) -> Board:
    """The board of ``layout`` (hand name -> cards) at the opening lead,
    with ``declarer`` and the rules the player knows."""
    return Board.opening(Seating.for_deal(knowledge.players, knowledge.dealer, declarer), layout,
                         knowledge.rules)


class NilOrder:
    """Which way to search each planned nil question, learnt from the
    answers so far (in one process). It changes only the cost, never an
    answer: see :func:`nil_tricks`."""

    def __init__(self) -> None:
        self.kept: Dict[int, int] = {}
        self.broken: Dict[int, int] = {}

    def top_first(self, j: int) -> bool:
        return self.kept.get(j, 0) > self.broken.get(j, 0)

    def record(self, j: int, tricks: int) -> None:
        book = self.kept if tricks >= 0 else self.broken
        book[j] = book.get(j, 0) + 1


def nil_tricks(solver: Solver, pos: Position, side: int, seat: int, high: int,
               top_first: bool) -> int:
    """The most tricks ``side`` takes while keeping ``seat`` trickless
    (``NIL_LOST`` if it cannot), by fail-soft null-window tests
    (``solver.bound``), knowing it is at most ``high`` (the side's full
    double-dummy tricks).

    ``top_first``: test at the upper bound, then at each fail-soft bound
    below it (MTD from the top): a success there gives the value and proves
    the nil kept in one test, the common case for a hand that nils safely.
    Otherwise first test whether it can be kept at all (target 0: one test
    for the common broken nil), then narrow down from ``high``. Both give
    the exact value."""
    if top_first:
        t = high
        while True:
            v = solver.bound(pos, side, t, nil_seat=seat)
            if v >= t:
                return t
            if v < 0:
                return NIL_LOST
            t = v
    low = solver.bound(pos, side, 0, nil_seat=seat)
    if low < 0:
        return NIL_LOST
    while low < high:
        v = solver.bound(pos, side, high, nil_seat=seat)
        if v >= high:
            low = v
        else:
            high = v
    return low


def solve_layout(solver: Solver, knowledge: Knowledge, layout: Mapping[str, int], plan: Plan,
                 index: int = 0, order: Optional[NilOrder] = None) -> SampleResult:
    """Solve one layout: the full solves of the roles the auction leaves open
    (:func:`mirror_declarers`) and their planned nil questions.

    Each question starts from an empty table (``solver.clear()``; the
    null-window tests of one question share it). Entries kept from other
    layouts, from another seating of the same cards or from another question
    on the same position rarely match and crowd out the entries of the
    question in hand (DDS, too, starts each new deal from an empty table).

    A nil question is answered by :func:`nil_tricks`, searching the way
    ``order`` (if given) has found cheaper so far."""
    k = knowledge
    queries = 0
    active = mirror_declarers(k, layout)
    declarer_tricks: List[Optional[int]] = []
    for declarer in k.players:
        if declarer not in active:
            declarer_tricks.append(None)
            continue
        pos = layout_board(k, layout, declarer).position
        solver.clear()
        declarer_tricks.append(solver.max_tricks(pos, DECLARER_SIDE))
        queries += 1
    nils = []
    for j, (declarer, hand) in enumerate(plan.nils):
        if declarer not in active:
            nils.append(NOT_ASKED)
            continue
        if certain_trick(layout[hand]):
            nils.append(NIL_LOST)
            continue
        board = layout_board(k, layout, declarer)
        pos, seat = board.position, board.names.index(hand)
        side = side_of(seat)
        full = declarer_tricks[k.players.index(declarer)]
        assert full is not None
        high = full if side == DECLARER_SIDE else TRICKS_PER_HAND - full
        solver.clear()
        tricks = nil_tricks(solver, pos, side, seat, high,
                            order is not None and order.top_first(j))
        queries += 1
        if order is not None:
            order.record(j, tricks)
        nils.append(tricks)
    zeros = []
    for declarer in plan.zeros:
        if declarer not in active:
            zeros.append(False)
            continue
        board = layout_board(k, layout, declarer)
        pos, own = board.position, side_of(board.names.index(k.player))
        if any(certain_trick(pos.hands[s]) for s in range(4) if own >> s & 1):
            zeros.append(False)
            continue
        # the opponents play to hand the player's side a trick; can it avoid every trick?
        queries += 1
        solver.clear()
        zeros.append(not solver.at_least(pos, own ^ ALL_SEATS, 1, count=own))
    spades = () if k.bidding == STANDARD else tuple(spade_count(layout[p]) for p in k.players)
    return SampleResult(index, tuple(declarer_tricks), tuple(nils), tuple(zeros), queries, spades)


def mirror_declarers(knowledge: Knowledge, layout: Mapping[str, int]) -> Tuple[str, ...]:
    """The roles :func:`solve_layout` solves: :attr:`Knowledge.declarers`;
    under mirror only the one the layout's spade counts make declarer (the
    bids are the counts, so no other role can happen in it)."""
    k = knowledge
    if k.bidding != MIRROR:
        return k.declarers
    declarer = auction_winner((p, spade_count(layout[p])) for p in k.order)
    assert declarer is not None  # three calls of 0 or more: one of them holds the auction
    return (declarer,)
