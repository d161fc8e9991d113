"""The compiled double-dummy engine behind the engine contract.

:class:`CompiledSolver` implements :class:`solver.contract.Solver` over the
compiled core (``solver._engine``): it checks each question once
(:func:`solver.position.check_query`) and hands the position to the core's
``cpdef`` entry point for that question (one per question). Make one with
:func:`solver.backend.make_solver` (or ``CompiledSolver(tt_mb)``): ``tt_mb`` bounds
the transposition table's memory (megabytes); the table starts small and
grows up to the bound, then replaces old entries. Entries stay valid across
positions and questions, so reusing a solver speeds up related questions;
keep one solver per thread or process.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Protocol, Tuple

from .cards import iter_cards
from .contract import CardGroups, EngineNotBuiltError, best_first
from .limits import DEFAULT_TT_MB
from .position import Card, Position, Seat, SeatMask, check_query

try:
    from . import _engine  # type: ignore[attr-defined]  # compiled: no stub
except ImportError as exc:  # pragma: no cover - depends on the build
    raise EngineNotBuiltError() from exc


class _Core(Protocol):
    """The compiled core's door (``cdef class Core`` of solver/_engine.pyx):
    one ``cpdef`` per question on a checked question (``count`` given,
    ``nil_seat`` -1 for none); cards of a group as one mask."""

    @property
    def tt_mb(self) -> float: ...
    @property
    def nodes(self) -> int: ...
    @property
    def trick_nodes(self) -> int: ...
    @property
    def tt_entries(self) -> int: ...
    @property
    def tt_bytes(self) -> int: ...
    def clear(self) -> None: ...
    def reset_stats(self) -> None: ...
    def max_tricks(self, pos: Position, side: int, count: int, nil_seat: int) -> int: ...
    def bound(self, pos: Position, side: int, count: int, nil_seat: int, target: int) -> int: ...
    def card_groups(self, pos: Position, side: int, count: int,
                    nil_seat: int) -> List[Tuple[int, int]]: ...
    def optimal_line(self, pos: Position, side: int, count: int, nil_seat: int) -> List[int]: ...


class CompiledSolver:
    """A double-dummy solver owning one transposition table of at most
    ``tt_mb`` megabytes (default :data:`solver.limits.DEFAULT_TT_MB`)."""

    def __init__(self, tt_mb: Optional[float] = None) -> None:
        if tt_mb is None:
            tt_mb = DEFAULT_TT_MB
        try:
            tt_mb = float(tt_mb)
        except (TypeError, ValueError):
            raise ValueError(f"tt_mb must be a number of megabytes, not {tt_mb!r}") from None
        if not tt_mb > 0:
            raise ValueError(f"tt_mb must be a positive number of megabytes, not {tt_mb!r}")
        self._core: _Core = _engine.Core(tt_mb)

    @property
    def tt_mb(self) -> float:
        return self._core.tt_mb

    @property
    def nodes(self) -> int:
        return self._core.nodes

    @property
    def trick_nodes(self) -> int:
        return self._core.trick_nodes

    @property
    def tt_entries(self) -> int:
        """Transposition-table entries in use."""
        return self._core.tt_entries

    @property
    def tt_bytes(self) -> int:
        """Bytes the transposition table holds now."""
        return self._core.tt_bytes

    def clear(self) -> None:
        """Empty the transposition table (a cold start) and zero the statistics."""
        self._core.clear()

    def reset_stats(self) -> None:
        self._core.reset_stats()

    def max_tricks(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                   nil_seat: Optional[Seat] = None) -> int:
        return self._core.max_tricks(*check_query(pos, side, count, nil_seat))

    def bound(self, pos: Position, side: SeatMask, target: int,
              count: Optional[SeatMask] = None, nil_seat: Optional[Seat] = None) -> int:
        return self._core.bound(*check_query(pos, side, count, nil_seat), int(target))

    def at_least(self, pos: Position, side: SeatMask, target: int,
                 count: Optional[SeatMask] = None, nil_seat: Optional[Seat] = None) -> bool:
        target = int(target)
        return self.bound(pos, side, target, count, nil_seat) >= target

    def card_groups(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                    nil_seat: Optional[Seat] = None) -> CardGroups:
        pos, side, count, nil = check_query(pos, side, count, nil_seat)
        groups = [(tuple(iter_cards(mask)), value)
                  for mask, value in self._core.card_groups(pos, side, count, nil)]
        return best_first(groups, bool(side >> pos.to_move & 1))

    def card_values(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                    nil_seat: Optional[Seat] = None) -> Dict[Card, int]:
        values = {c: v for cards, v in self.card_groups(pos, side, count, nil_seat) for c in cards}
        return dict(sorted(values.items()))

    def optimal_line(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                     nil_seat: Optional[Seat] = None) -> List[Card]:
        return self._core.optimal_line(*check_query(pos, side, count, nil_seat))


__all__ = ["CompiledSolver"]
