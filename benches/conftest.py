"""pytest-benchmark suites of the engine (not part of the default test run:
pyproject's testpaths is tests/). Run with ``python -m pytest benches``;
see docs/BENCHMARKS.md.

Options: ``--bench-deals N`` (deals per suite, default 10), ``--bench-seed S``:
the deals of K cards a hand are ``dummy-spades deal --count N --seed 1000*S+K
--cards K --to pbn`` (``_util.random_deals``).
"""
from __future__ import annotations

import pytest

from _util import load_engine, random_deals


def pytest_addoption(parser):
    group = parser.getgroup("dummy-spades benches")
    group.addoption("--bench-deals", type=int, default=10, help="deals per benchmark (default 10)")
    group.addoption("--bench-seed", type=int, default=1, help="seed of the random deals (default 1)")


@pytest.fixture(scope="session")
def engine():
    try:
        return load_engine()
    except SystemExit as exc:
        pytest.skip(str(exc))


@pytest.fixture(scope="session")
def deal_source(request):
    n = request.config.getoption("--bench-deals")
    seed = request.config.getoption("--bench-seed")

    def deals(cards: int = 13):
        return random_deals(n, seed * 1000 + cards, cards)

    return deals


@pytest.fixture(scope="session")
def solver(engine):
    """One engine Solver; the suites clear its table before every deal."""
    return engine(None)
