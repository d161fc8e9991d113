"""The one place a solver is made: the backend is chosen here.

Two backends meet the engine contract (:class:`solver.contract.Solver`).
As msgpack picks its compiled or pure-Python implementation in the module
its users import, while the implementations import only the shared
definitions, the analyses make every solver here:

* ``"engine"`` (the default): the compiled engine,
  :class:`solver.engine.CompiledSolver`, with a transposition table bounded
  by ``tt_mb`` megabytes (default :data:`solver.limits.DEFAULT_TT_MB`) that
  stays valid across positions and questions (reusing one solver speeds up
  related questions);
* ``"reference"``: the plain-minimax twin,
  :class:`solver.reference.ReferenceSolver`, slow and obviously correct
  (small positions only; it keeps no table).

Both import :mod:`solver.contract`, never this module; this module imports
them only when one is asked for, so a missing compiled engine is reported
(:class:`solver.contract.EngineNotBuiltError`) where a solver is made.
"""
from __future__ import annotations

from typing import Callable, Optional

from .contract import Solver

#: The backends :func:`make_solver` knows.
BACKENDS = ("engine", "reference")
DEFAULT_BACKEND = "engine"

#: A backend's solver class, called with ``tt_mb`` (``None``: its default).
SolverFactory = Callable[[Optional[float]], Solver]


def solver_class(backend: Optional[str] = None) -> SolverFactory:
    """The solver class of ``backend`` (default :data:`DEFAULT_BACKEND`).
    Raises :class:`~solver.contract.EngineNotBuiltError` (an ``ImportError``)
    if the engine is asked for and not built, ``ValueError`` for an unknown
    backend."""
    backend = DEFAULT_BACKEND if backend is None else backend
    if backend == "engine":
        from .engine import CompiledSolver  # raises EngineNotBuiltError
        return CompiledSolver
    if backend == "reference":
        from .reference import ReferenceSolver
        return ReferenceSolver
    raise ValueError(f"unknown backend {backend!r}; expected one of {', '.join(BACKENDS)}")


def make_solver(tt_mb: Optional[float] = None, backend: Optional[str] = None) -> Solver:
    """A fresh solver of ``backend`` (default: the compiled engine), with a
    transposition table of at most ``tt_mb`` megabytes (default: the
    engine's; the reference twin keeps no table)."""
    return solver_class(backend)(tt_mb)


__all__ = ["BACKENDS", "DEFAULT_BACKEND", "SolverFactory", "make_solver", "solver_class"]
