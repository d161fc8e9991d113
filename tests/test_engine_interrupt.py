"""The compiled search gives way to signals: a signal handler that raises
(Ctrl-C's KeyboardInterrupt) ends a solve within a second, whatever the
solve, and the solver's table keeps only finished results; the table size
is bounded."""
from __future__ import annotations

import os
import random
import signal
import threading
import time

import pytest
from model_helpers import dealt

_engine = pytest.importorskip("dummy_spades.solver._engine")

from dummy_spades.solver import engine  # noqa: E402
from dummy_spades.solver.pbn import parse_pbn_deal  # noqa: E402
from dummy_spades.solver.position import Position  # noqa: E402

NS = 0b0101


def random_hands(rng: random.Random) -> tuple:
    """A deal of the project's dealer, its seed drawn from ``rng`` (model_helpers.dealt)."""
    return dealt(rng)


def interrupt_after(seconds: float, sent: list) -> None:
    """Send this process SIGINT after ``seconds``; ``sent`` gets the time
    sent.  Call it inside ``pytest.raises``: on a busy machine the signal
    may land at once."""

    def fire() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Timer(seconds, fire).start()


# A deal plain alpha-beta takes hours over (120 million nodes in its first
# five seconds); with every technique on it is a fraction of a second.
HEAVY = "N:85.AT32.K.KJ7653 QT743.K754.JT3.4 AK6.Q.AQ7654.AT2 J92.J986.982.Q98"


def test_ctrl_c_ends_a_search_that_would_run_for_hours_within_a_second():
    old = _engine.set_features(**{name: False for name in _engine.FEATURES})
    try:
        core = _engine.Core(8)            # plain alpha-beta
    finally:
        _engine.set_features(**old)
    pos = Position(tuple(parse_pbn_deal(HEAVY)), 3)
    sent: list = []
    with pytest.raises(KeyboardInterrupt):
        interrupt_after(0.3, sent)
        core.max_tricks(pos, NS, NS, -1)
    assert sent and time.monotonic() - sent[0] < 1.0


def test_an_interrupted_solver_keeps_answering_right():
    rng = random.Random(11)
    deals = [random_hands(rng) for _ in range(6)]
    solver = engine.CompiledSolver(16)
    sent: list = []
    with pytest.raises(KeyboardInterrupt):
        interrupt_after(0.05, sent)
        for _ in range(1000):               # until the signal lands, mid-search or between
            for hands in deals:
                solver.card_groups(Position(hands, 3), NS ^ 15)
    assert sent
    fresh = engine.CompiledSolver(16)
    for hands in deals:
        pos = Position(hands, 3)
        assert solver.max_tricks(pos, NS ^ 15) == fresh.max_tricks(pos, NS ^ 15)


@pytest.mark.parametrize("tt_mb", [0.0, -1.0, float("nan"), float("inf"), 2e6])
def test_the_table_size_is_bounded(tt_mb):
    with pytest.raises(ValueError, match="tt_mb"):
        _engine.Core(tt_mb)
