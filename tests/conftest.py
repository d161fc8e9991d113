"""Test-suite set-up shared by every test file.

The compiled engine: tests that need it skip themselves when it is not
built, so the pure-Python parts can be tested from a bare checkout. Where the
build is expected (``DUMMY_SPADES_REQUIRE_ENGINE=1``, which .ci/run sets), a
missing build stops the run with an error instead.

Solvers kept for the session (``session_solver``, ``independent_solver``;
tests/solver_checks.py): the bundled deals' expensive questions are searched
once per session, whichever test file asks them first.
"""
from __future__ import annotations

import importlib
import os

import pytest

import solver_checks
from solver_checks import SessionSolver

REQUIRE_ENGINE = "DUMMY_SPADES_REQUIRE_ENGINE"
ENGINE_MODULE = "dummy_spades.solver._engine"


def check_engine_built() -> None:
    """Raise pytest.UsageError when the engine is required but cannot be imported."""
    if os.environ.get(REQUIRE_ENGINE, "") not in ("", "0"):
        try:
            importlib.import_module(ENGINE_MODULE)
        except ImportError as exc:
            raise pytest.UsageError(
                f"{REQUIRE_ENGINE} is set but the compiled engine {ENGINE_MODULE} cannot be "
                f"imported ({exc}): build it with `pip install -e .` or "
                f"`python setup.py build_ext --inplace`") from None


def pytest_configure(config: pytest.Config) -> None:
    check_engine_built()


# ------------------------------------------------------------ solvers kept for the session
@pytest.fixture(scope="session")
def session_solver() -> SessionSolver:
    """The engine, its answers kept for the session (solver_checks.session_solver)."""
    return solver_checks.session_solver()


@pytest.fixture(scope="session")
def independent_solver() -> SessionSolver:
    """A second engine for independent checks (solver_checks.independent_solver)."""
    return solver_checks.independent_solver()
