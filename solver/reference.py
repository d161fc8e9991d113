"""The reference twin: a plain, exhaustive minimax double-dummy solver.

Slow and obviously correct: it is the specification the compiled engine
(:mod:`solver.engine`) is tested against. :class:`ReferenceSolver` implements the
engine contract (:class:`solver.contract.Solver`; the position and the
arguments ``side``, ``count`` and ``nil_seat`` are described in
:mod:`solver.position`), so the same contract tests run on both.

It searches every legal card at every turn, with a memo of the positions of
one question only. ``bound`` answers with the exact value (a fail-soft
bound that is never loose); ``optimal_line`` plays the lowest best card at
each step; ``card_values`` searches every legal card on its own, and
``card_groups`` groups those values by the contract's equivalence
(:func:`solver.position.equivalent_groups`). Use it on small positions (a few cards per hand).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

from .cards import iter_cards
from .contract import CardGroups, best_first
from .position import (NIL_LOST, Card, Position, Seat, SeatMask, check_query, equivalent_groups,
                       play_card)
from .rules import legal_cards

#: The value of a line on which the nil seat wins a trick (below any count).
_NEG = -1000
#: A position in the search: the fields of :class:`Position` but ``breaking``
#: (fixed for one question), plain for speed.
_Key = Tuple[Tuple[int, int, int, int], int, Tuple[int, ...], bool]


def _value(key: _Key, breaking: bool, side: int, count: int, nil: int,
           memo: Dict[_Key, int]) -> int:
    """The value of the position ``key`` (``_NEG`` and below: the nil is lost)."""
    v = memo.get(key)
    if v is not None:
        return v
    hands, leader, trick, spades_broken = key
    seat = (leader + len(trick)) % 4
    if not hands[seat] and not trick:
        return 0
    maximise = side >> seat & 1
    best: Optional[int] = None
    for card in iter_cards(legal_cards(hands[seat], trick, spades_broken, breaking)):
        v = _after(key, card, breaking, side, count, nil, memo)
        if best is None or (v > best if maximise else v < best):
            best = v
    assert best is not None
    memo[key] = best
    return best


def _after(key: _Key, card: Card, breaking: bool, side: int, count: int, nil: int,
           memo: Dict[_Key, int]) -> int:
    """The value after ``card``, the trick it completes (if any) included."""
    child = play_card(*key, card)
    if child[2]:
        return _value(child, breaking, side, count, nil, memo)
    winner = child[1]
    if winner == nil:
        return _NEG
    return _value(child, breaking, side, count, nil, memo) + (count >> winner & 1)


class ReferenceSolver:
    """The reference twin of :class:`solver.engine.CompiledSolver`. ``tt_mb`` is
    accepted for a uniform :func:`solver.backend.make_solver` and ignored:
    the twin keeps no table between questions."""

    def __init__(self, tt_mb: Optional[float] = None) -> None:
        self._nodes = 0
        self._trick_nodes = 0

    @property
    def nodes(self) -> int:
        return self._nodes

    @property
    def trick_nodes(self) -> int:
        return self._trick_nodes

    def clear(self) -> None:
        self.reset_stats()

    def reset_stats(self) -> None:
        self._nodes = self._trick_nodes = 0

    def _count(self, memo: Dict[_Key, int]) -> None:
        """Add a question's search to the statistics: every node searched is
        one memo entry."""
        self._nodes += len(memo)
        self._trick_nodes += sum(1 for key in memo if not key[2])

    # ------------------------------------------------------------ questions
    def max_tricks(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                   nil_seat: Optional[Seat] = None) -> int:
        pos, side, count, nil = check_query(pos, side, count, nil_seat)
        memo: Dict[_Key, int] = {}
        v = _value(pos[:4], pos.breaking, side, count, nil, memo)
        self._count(memo)
        return v if v >= 0 else NIL_LOST

    def bound(self, pos: Position, side: SeatMask, target: int,
              count: Optional[SeatMask] = None, nil_seat: Optional[Seat] = None) -> int:
        return self.max_tricks(pos, side, count, nil_seat)

    def at_least(self, pos: Position, side: SeatMask, target: int,
                 count: Optional[SeatMask] = None, nil_seat: Optional[Seat] = None) -> bool:
        target = int(target)
        return self.bound(pos, side, target, count, nil_seat) >= target

    def card_values(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                    nil_seat: Optional[Seat] = None) -> Dict[Card, int]:
        return self._card_values(*check_query(pos, side, count, nil_seat))

    def _card_values(self, pos: Position, side: int, count: int, nil: int) -> Dict[Card, int]:
        memo: Dict[_Key, int] = {}
        out = {}
        for card in iter_cards(pos.legal_mask()):
            v = _after(pos[:4], card, pos.breaking, side, count, nil, memo)
            out[card] = v if v >= 0 else NIL_LOST
        self._count(memo)
        return out

    def card_groups(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                    nil_seat: Optional[Seat] = None) -> CardGroups:
        pos, side, count, nil = check_query(pos, side, count, nil_seat)
        values = self._card_values(pos, side, count, nil)
        groups = [(group, values[group[0]]) for group in equivalent_groups(pos)]
        return best_first(groups, bool(side >> pos.to_move & 1))

    def optimal_line(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                     nil_seat: Optional[Seat] = None) -> List[Card]:
        pos, side, count, nil = check_query(pos, side, count, nil_seat)
        memo: Dict[_Key, int] = {}
        line: List[Card] = []
        while not pos.is_over:
            maximise = bool(side >> pos.to_move & 1)
            best_card, best = -1, 0
            for card in iter_cards(pos.legal_mask()):
                v = _after(pos[:4], card, pos.breaking, side, count, nil, memo)
                if best_card < 0 or (v > best if maximise else v < best):
                    best_card, best = card, v
            line.append(best_card)
            pos = pos.play(best_card)
        self._count(memo)
        return line


__all__ = ["ReferenceSolver"]
