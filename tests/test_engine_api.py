"""The compiled engine's own side of the contract: full deals, the
transposition table's options and statistics, and the message when the
extension is not built. The contract itself (both backends):
test_solver_contract.py."""
from __future__ import annotations

import inspect
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from model_helpers import dealt

from dummy_spades.solver import contract, limits, reference
from dummy_spades.solver.cards import parse_hand
from dummy_spades.solver.position import Position

from solver_checks import REF

engine = pytest.importorskip("dummy_spades.solver.engine", reason="compiled engine not built (pip install -e .)")

# N holds every spade; E every heart; S every diamond; W every club.
SUITED = (parse_hand("AKQJT98765432..."), parse_hand(".AKQJT98765432.."),
          parse_hand("..AKQJT98765432."), parse_hand("...AKQJT98765432"))


def test_signatures_match_the_reference():
    for name in ("max_tricks", "bound", "at_least", "card_values", "card_groups", "optimal_line"):
        want = inspect.signature(getattr(contract.Solver, name))
        assert inspect.signature(getattr(engine.CompiledSolver, name)) == want, name
        assert inspect.signature(getattr(reference.ReferenceSolver, name)) == want, name


def test_default_table_bound_is_the_cores():
    from dummy_spades.solver import _engine
    assert limits.DEFAULT_TT_MB == engine.CompiledSolver().tt_mb
    with pytest.raises(TypeError):
        _engine.Core()                 # the core has no default of its own


def test_one_suit_each():
    # spades are trump: N wins every trick whoever leads
    s = engine.CompiledSolver()
    for leader in range(4):
        pos = Position(SUITED, leader, breaking=False)
        assert s.max_tricks(pos, 0b0101) == 13
        assert s.max_tricks(pos, 0b1010) == 0
        assert s.max_tricks(pos, 0b0001, count=0b0100) == 0


def test_ending_against_reference_all_queries():
    s = engine.CompiledSolver(tt_mb=1)
    ending = (parse_hand("A2.K.."), parse_hand("K3..A."), parse_hand("Q.Q..2"), parse_hand("4..K.3"))
    for leader in range(4):
        for side in (5, 10, 7, 8):
            for breaking in (False, True):
                pos = Position(ending, leader, breaking=breaking)
                assert s.max_tricks(pos, side) == REF.max_tricks(pos, side)
                assert s.card_values(pos, side) == REF.card_values(pos, side)
                assert s.card_groups(pos, side) == REF.card_groups(pos, side)


def test_solver_options_and_stats():
    with pytest.raises(ValueError):
        engine.CompiledSolver(tt_mb=0)
    with pytest.raises(ValueError):
        engine.CompiledSolver(tt_mb="lots")
    s = engine.CompiledSolver(tt_mb=2)
    assert s.tt_mb == 2 and s.nodes == 0 and s.trick_nodes == 0
    pos = Position((parse_hand("AKQJ.T98.765.432"), parse_hand("T98.765.432.AKQJ"),
                    parse_hand("765.432.AKQJ.T98"), parse_hand("432.AKQJ.T98.765")), 3, breaking=False)
    v = s.max_tricks(pos, 5)
    assert 0 <= v <= 13
    assert s.nodes > 0 and 0 < s.trick_nodes < s.nodes and s.tt_entries > 0
    assert s.tt_bytes <= 2 * 1048576
    s.clear()
    assert s.nodes == 0 and s.tt_entries == 0
    assert s.max_tricks(pos, 5) == v


def test_clear_is_a_cold_start():
    """After clear() a deal costs the same nodes as in a new Solver, whatever
    was searched before (the table's size, contents and growth counters,
    and the cutoff-card cache, all start afresh)."""
    rng = random.Random(12)
    deals = [dealt(rng) for _ in range(6)]
    positions = [Position(hands, 3, breaking=False) for hands in deals]
    fresh = []
    for pos in positions:
        s = engine.CompiledSolver()
        fresh.append((s.max_tricks(pos, 0b0101), s.nodes))
    s = engine.CompiledSolver()
    again = []
    for pos in reversed(positions):
        s.clear()
        again.append((s.max_tricks(pos, 0b0101), s.nodes))
    assert again[::-1] == fresh


def test_missing_extension_gives_a_clear_import_error():
    code = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "dummy_spades.solver._engine":
                    raise ImportError("blocked")
        sys.meta_path.insert(0, Block())
        from dummy_spades.solver.backend import make_solver
        make_solver(backend="reference")
        for attempt in (lambda: __import__("dummy_spades.solver.engine"), make_solver):
            try:
                attempt()
            except ImportError as exc:
                print(type(exc).__name__, exc)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=str(Path(__file__).resolve().parents[1]))
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and lines[0] == lines[1], out
    assert lines[0].startswith("EngineNotBuiltError") and "pip install -e ." in lines[0]


def test_each_technique_switched_off_gives_the_same_answers():
    """set_features switches a technique off for the Solvers made afterwards:
    the work changes, never an answer (every value and card group on random
    positions of 4 and 6 cards a hand, split sides and nils included)."""
    import random

    from dummy_spades.solver import _engine
    from solver_checks import query, random_position

    rng = random.Random(91)
    cases = [query(random_position(rng, cards)) for cards in (4, 6) for _ in range(40)]
    full = engine.CompiledSolver(tt_mb=4)
    want = [(full.max_tricks(**q), full.card_groups(**q)) for q in cases]
    for name in _engine.FEATURES:
        old = _engine.set_features(**{name: False})
        try:
            assert _engine.features()[name] is False
            solver = engine.CompiledSolver(tt_mb=4)
        finally:
            _engine.set_features(**old)
        assert _engine.features() == old
        got = [(solver.max_tricks(**q), solver.card_groups(**q)) for q in cases]
        assert got == want, name
    with pytest.raises(ValueError, match="unknown feature"):
        _engine.set_features(killer=False)



def test_a_growing_table_stays_within_tt_mb():
    """While the table doubles, the old half and the new table are held
    together: the cap is set so that their sum fits in ``tt_mb`` (5 MB: a
    table of 1024 buckets, 2 MB, may not double to 4 MB)."""
    tt_mb = 5
    s = engine.CompiledSolver(tt_mb=tt_mb)
    slots = s.tt_bytes // 2240 * 32          # 32 slots a bucket of 2240 bytes (with its directory entries)
    rng = random.Random(5)
    held = fullest = 0
    for _ in range(40):
        hands = dealt(rng)
        before = s.tt_bytes
        s.max_tricks(Position(hands, 3, breaking=False), 0b0101)
        held = max(held, before + s.tt_bytes if s.tt_bytes > before else before)
        fullest = max(fullest, s.tt_entries / slots)
    assert fullest > 0.75                    # full enough to grow, were it allowed
    assert held <= tt_mb * 1048576
