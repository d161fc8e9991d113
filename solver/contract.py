"""The engine contract: the questions every double-dummy solver answers.

:class:`Solver` is the contract, a protocol: one typed entry point per
question about a :class:`~solver.position.Position` (the arguments
``side``, ``count`` and ``nil_seat`` are described in
:mod:`solver.position`). The compiled engine (:mod:`solver.engine`) and its
reference twin (:mod:`solver.reference`) implement it and import this
module; :mod:`solver.backend` chooses between them. The same contract tests
run against both. A backend that cannot be loaded raises
:class:`EngineNotBuiltError`.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Protocol, Tuple, runtime_checkable

from .position import Card, Position, Seat, SeatMask

ENGINE_NOT_BUILT = ("the compiled engine dummy_spades.solver._engine is not built: run "
                    "`pip install -e .` (or `python setup.py build_ext --inplace`) in the "
                    "dummy-spades checkout")


class EngineNotBuiltError(ImportError):
    """A backend that cannot be loaded: the compiled extension
    ``dummy_spades.solver._engine`` is missing (raised by importing
    :mod:`solver.engine`, so by :func:`solver.backend.make_solver` for the
    default backend)."""

    def __init__(self, message: str = ENGINE_NOT_BUILT) -> None:
        super().__init__(message)


#: Groups of equivalent legal cards (each group's cards ascending) with their values.
CardGroups = List[Tuple[Tuple[Card, ...], int]]


@runtime_checkable
class Solver(Protocol):
    """The questions a double-dummy solver answers about a position.

    Every entry point takes the position, ``side`` (the maximising seats),
    ``count`` (the counted seats, default ``side``) and ``nil_seat``; it
    checks them with :func:`solver.position.check_query` and raises
    :class:`~solver.position.PositionError` for a position it cannot search.

    ``nodes`` counts the search nodes visited and ``trick_nodes`` those at
    trick starts (what DDS counts as nodes), since the solver was made or
    since :meth:`clear` / :meth:`reset_stats`.

    A structural type: a solver meets it by having these members (the two
    backends, :class:`solver.engine.CompiledSolver` and
    :class:`solver.reference.ReferenceSolver`, and the tests' stand-ins); none
    inherits from it.
    """

    @property
    def nodes(self) -> int:
        """Search nodes visited."""
        ...

    @property
    def trick_nodes(self) -> int:
        """Search nodes at trick starts."""
        ...

    def clear(self) -> None:
        """Forget everything learnt (a cold start) and zero the statistics."""
        ...

    def reset_stats(self) -> None:
        """Zero the statistics, keeping what was learnt."""
        ...

    def max_tricks(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                   nil_seat: Optional[Seat] = None) -> int:
        """The most tricks (of the seats in ``count``) the side can take from
        the trick in progress on; :data:`~solver.position.NIL_LOST` when the
        nil of ``nil_seat`` cannot be kept."""
        ...

    def bound(self, pos: Position, side: SeatMask, target: int,
              count: Optional[SeatMask] = None, nil_seat: Optional[Seat] = None) -> int:
        """One null-window search at ``target``, fail-soft: a result
        ``v >= target`` means ``max_tricks(...) >= v``, a result ``v < target``
        means ``max_tricks(...) <= v`` (``-1``: the nil cannot be kept).
        Lets a caller narrow a value in few searches."""
        ...

    def at_least(self, pos: Position, side: SeatMask, target: int,
                 count: Optional[SeatMask] = None, nil_seat: Optional[Seat] = None) -> bool:
        """Is ``max_tricks(...) >= target``? One null-window search, cheaper
        than the exact value. With ``nil_seat`` and ``target=0``: can the side
        keep that seat from winning any trick?"""
        ...

    def card_groups(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                    nil_seat: Optional[Seat] = None) -> CardGroups:
        """The legal cards of the seat to move in groups of equivalent cards
        (adjacent cards of one suit in its hand once the cards of finished
        tricks are removed), each with its value (:meth:`max_tricks` after
        playing it, the trick in progress included), like DDS's all-cards
        mode. Every legal card is in exactly one group. Groups are listed best
        value first for the player to move, then by their lowest card; each
        group's cards ascend."""
        ...

    def card_values(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                    nil_seat: Optional[Seat] = None) -> Dict[Card, int]:
        """The value of every legal card of the seat to move (never omitting
        one), by ascending card."""
        ...

    def optimal_line(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                     nil_seat: Optional[Seat] = None) -> List[Card]:
        """The cards of one optimal play-out from the position to the end of the hand."""
        ...


def best_first(groups: CardGroups, maximise: bool) -> CardGroups:
    """``groups`` in the documented order: best value first for the player
    to move (highest when it maximises), then by lowest card."""
    sign = -1 if maximise else 1
    return sorted(groups, key=lambda g: (sign * g[1], g[0][0]))


__all__ = ["ENGINE_NOT_BUILT", "CardGroups", "EngineNotBuiltError", "Solver", "best_first"]
