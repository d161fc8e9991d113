"""The engine contract, and the one place a solver is made.

:class:`Solver` is the contract every double-dummy solver meets: one typed
entry point per question about a :class:`~solver.position.Position` (the
arguments ``side``, ``count`` and ``nil_seat`` are described in
:mod:`solver.position`). Two backends implement it, and the same contract
tests run against both:

* ``"engine"`` (the default): the compiled engine, :class:`solver.engine.Solver`,
  with a transposition table bounded by ``tt_mb`` megabytes that stays valid
  across positions and questions (reusing one solver speeds up related
  questions);
* ``"reference"``: the plain-minimax twin, :class:`solver.reference.Solver`,
  slow and obviously correct (small positions only; it keeps no table).

:func:`make_solver` is the only place a backend is chosen.
"""
from __future__ import annotations

from typing import Callable, Dict, List, Optional, Protocol, Tuple, runtime_checkable

from .position import Card, Position, Seat, SeatMask

#: The compiled engine's default transposition-table bound (megabytes).
DEFAULT_TT_MB = 128.0
#: The backends :func:`make_solver` knows.
BACKENDS = ("engine", "reference")
DEFAULT_BACKEND = "engine"

ENGINE_NOT_BUILT = ("the compiled engine dummy_spades.solver._engine is not built: run "
                    "`pip install -e .` (or `python setup.py build_ext --inplace`) in the "
                    "dummy-spades checkout")


class EngineNotBuiltError(ImportError):
    """The compiled extension ``dummy_spades.solver._engine`` is missing."""

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

    A backend implements :meth:`max_tricks`, :meth:`bound`,
    :meth:`card_groups` and :meth:`optimal_line`; subclassing this protocol
    gives it :meth:`at_least` and :meth:`card_values` in their terms.
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
        target = int(target)
        return self.bound(pos, side, target, count, nil_seat) >= target

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
        values = {c: v for cards, v in self.card_groups(pos, side, count, nil_seat) for c in cards}
        return dict(sorted(values.items()))

    def optimal_line(self, pos: Position, side: SeatMask, count: Optional[SeatMask] = None,
                     nil_seat: Optional[Seat] = None) -> List[Card]:
        """The cards of one optimal play-out from the position to the end of the hand."""
        ...


def best_first(groups: CardGroups, maximise: bool) -> CardGroups:
    """``groups`` in the documented order: best value first for the player
    to move (highest when it maximises), then by lowest card."""
    sign = -1 if maximise else 1
    return sorted(groups, key=lambda g: (sign * g[1], g[0][0]))


#: A backend's Solver class, called with ``tt_mb`` (``None``: its default).
SolverFactory = Callable[[Optional[float]], Solver]


def solver_class(backend: Optional[str] = None) -> SolverFactory:
    """The Solver class of ``backend`` (default :data:`DEFAULT_BACKEND`).
    Raises :class:`EngineNotBuiltError` if the engine is asked for and not
    built, ``ValueError`` for an unknown backend."""
    backend = DEFAULT_BACKEND if backend is None else backend
    if backend == "engine":
        from .engine import Solver as EngineSolver  # raises EngineNotBuiltError
        return EngineSolver
    if backend == "reference":
        from .reference import Solver as ReferenceSolver
        return ReferenceSolver
    raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")


def make_solver(tt_mb: Optional[float] = None, backend: Optional[str] = None) -> Solver:
    """A fresh solver of ``backend`` (default: the compiled engine), with a
    transposition table of at most ``tt_mb`` megabytes (default: the
    engine's; the reference twin keeps no table)."""
    return solver_class(backend)(tt_mb)


__all__ = ["BACKENDS", "CardGroups", "DEFAULT_BACKEND", "DEFAULT_TT_MB", "ENGINE_NOT_BUILT", "EngineNotBuiltError",
           "Solver", "SolverFactory", "best_first", "make_solver", "solver_class"]
