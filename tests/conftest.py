"""Test-suite set-up shared by every test file.

The compiled engine: tests that need it skip themselves when it is not
built, so the pure-Python parts can be tested from a bare checkout. Where the
build is expected (``DUMMY_SPADES_REQUIRE_ENGINE=1``, which .ci/run sets), a
missing build stops the run with an error instead.

Solvers kept for the session (``session_solver``, ``independent_solver``;
tests/solver_checks.py): the bundled deals' expensive questions are searched
once per session, whichever test file asks them first.

Work over the workers (pytest-xdist, ``--dist loadscope``): a module is one
unit of work (a class in it one of its own), the modules that ask the same
questions about the bundled deals are one unit together (a worker keeps its
own answers), and the longest units go out first, so that the last unit
handed out is a short one.
"""
from __future__ import annotations

import importlib
import os
from typing import Any, Dict, Optional

import pytest

import solver_checks
from solver_checks import SessionSolver

REQUIRE_ENGINE = "DUMMY_SPADES_REQUIRE_ENGINE"
ENGINE_MODULE = "dummy_spades.solver._engine"
#: The compiled modules the switch requires: the engine and the dealer.
COMPILED_MODULES = (ENGINE_MODULE, "dummy_spades.solver._dealer")


def check_engine_built() -> None:
    """Raise pytest.UsageError when the engine is required but cannot be imported."""
    if os.environ.get(REQUIRE_ENGINE, "") not in ("", "0"):
        for module in COMPILED_MODULES:
            try:
                importlib.import_module(module)
            except ImportError as exc:
                raise pytest.UsageError(
                    f"{REQUIRE_ENGINE} is set but the compiled engine {module} cannot be "
                    f"imported ({exc}): build it with `pip install -e .` or "
                    f"`python setup.py build_ext --inplace`") from None


def pytest_configure(config: pytest.Config) -> None:
    check_engine_built()
    build_each_command_once()


def build_each_command_once() -> None:
    """Typer's CliRunner builds the click command of the Typer app at every
    ``invoke`` (signatures and type hints of every command: 12 ms for ours,
    about a thousand invokes in the suite); build it once per app instead.
    The command is the same every time (Typer builds it from the functions
    registered at import, and click makes a new context for each run).
    Nothing changes if Typer stops building it through this name."""
    import typer.testing

    build = getattr(typer.testing, "_get_command", None)
    if build is None or getattr(build, "built", None) is not None:
        return
    built: Dict[int, Any] = {}

    def command(app: Any) -> Any:
        key = id(app)
        if key not in built:
            built[key] = (app, build(app))  # the app kept alive: its id stays its own
        return built[key][1]

    command.built = built  # type: ignore[attr-defined]
    typer.testing._get_command = command


# ------------------------------------------------------------ solvers kept for the session
@pytest.fixture(scope="session")
def session_solver() -> SessionSolver:
    """The engine, its answers kept for the session (solver_checks.session_solver)."""
    return solver_checks.session_solver()


@pytest.fixture(scope="session")
def independent_solver() -> SessionSolver:
    """A second engine for independent checks (solver_checks.independent_solver)."""
    return solver_checks.independent_solver()


# ------------------------------------------------------------ work over the workers
#: Modules that ask the session's solvers the same questions about the
#: bundled deals (the full deals' card values and lines, the reference twin
#: on spade-breaking.yaml): one unit of work, so that one worker searches them.
BUNDLED_DEAL_UNIT = "tests/test_analysis.py+test_cli_solve_analyse.py+test_hands_golden.py"
UNIT_OF_MODULE = {f"tests/{name}": BUNDLED_DEAL_UNIT
                  for name in BUNDLED_DEAL_UNIT.split("/", 1)[1].split("+")}

#: The units that take longest (most CPU in the worker or in the processes it
#: starts), longest first: handed out before the others, which follow in
#: pytest-xdist's order (most tests first). A unit missing here is only
#: handed out later; no test depends on the order.
LONG_UNITS = (
    BUNDLED_DEAL_UNIT,
    "tests/test_engine_reference.py",
    "tests/test_duck.py",
    "tests/test_hostile.py",
    "tests/test_ci_readme.py",
    "tests/test_engine_split.py",
)


def scheduling_class() -> Any:
    """pytest-xdist's loadscope scheduling with the units and the order above."""
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            unit = UNIT_OF_MODULE.get(nodeid.split("::", 1)[0])
            return unit if unit is not None else str(super()._split_scope(nodeid))

        def _assign_work_unit(self, node: Any) -> None:
            for unit in LONG_UNITS:
                if unit in self.workqueue:
                    self.workqueue.move_to_end(unit, last=False)
                    break
            super()._assign_work_unit(node)

    return Scheduling


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Optional[Any]:
    """Our units and order for ``--dist loadscope`` (pyproject's default); any
    other ``--dist`` is pytest-xdist's own."""
    if config.getvalue("dist") != "loadscope":
        return None
    return scheduling_class()(config, log)
