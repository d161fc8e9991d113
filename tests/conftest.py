"""Test-suite set-up shared by every test file.

The compiled engine: tests that need it skip themselves when it is not
built, so the pure-Python parts can be tested from a bare checkout. Where the
build is expected (``DUMMY_SPADES_REQUIRE_ENGINE=1``, which .ci/run sets), a
missing build stops the run with an error instead.
"""
from __future__ import annotations

import copy
import importlib
import os
from typing import Any, Dict

import pytest

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


# ------------------------------------------------------------ answers kept for the session
class SessionSolver:
    """A solver whose answers are kept for the whole test session: each
    question (entry point and arguments) is searched once, by ``solver``,
    and asked again it is answered from memory (a copy).

    For tests about what is built on the engine's answers (the analyses,
    the commands' output) over the bundled deals, whose positions several
    test files ask about. Tests of the engine itself, and the independent
    checks of the goldens, use solvers of their own. Everything else
    (statistics, ``clear``) is the wrapped solver's.
    """

    QUESTIONS = frozenset({"max_tricks", "bound", "at_least", "card_values", "card_groups",
                           "optimal_line"})

    def __init__(self, solver: Any) -> None:
        self._solver = solver
        self._answers: Dict[str, Any] = {}
        self.searched = 0  # questions searched, not answered from memory

    def __getattr__(self, name: str) -> Any:
        entry = getattr(self._solver, name)
        if name not in self.QUESTIONS:
            return entry

        def answer(*args: Any, **kwargs: Any) -> Any:
            key = repr((name, args, sorted(kwargs.items())))
            if key not in self._answers:
                self._answers[key] = entry(*args, **kwargs)
                self.searched += 1
            return copy.deepcopy(self._answers[key])

        return answer
