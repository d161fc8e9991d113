"""Differential tests for the split-side and nil bounds of the engine.

The engine's sure-trick bounds hold for any side and count masks (trump
tricks as a Hall deficiency per hand, for the counted seats and the others),
a nil hand is lost at once when its spades cannot all be covered and kept at
once when a partner covers it suit by suit, and the move ordering treats a
seat whose winning the trick does not help (the nil hand, a maximiser that
does not count, a counted minimiser) apart.  These tests aim random positions
at those code paths: count different from side, three against one, one agent
for all four seats (side 0 and 15), nil queries with spade-heavy and spadeless
nil hands; every result is compared with the reference twin.
"""
from __future__ import annotations

import random
from typing import Dict

import pytest

from dummy_spades.solver.cards import SUIT_MASK

from solver_checks import REF, check, query, random_position, tricks_left

engine = pytest.importorskip("dummy_spades.solver.engine", reason="compiled engine not built (pip install -e .)")

SPLITS = (13, 7, 11, 14, 1, 2, 4, 8, 0, 15)


def spade_rich(rng: random.Random, cards: int) -> Dict:
    """A random position where spades are plentiful (trump fights)."""
    while True:
        pos = random_position(rng, cards)
        n = sum(bin(h & SUIT_MASK[0]).count("1") for h in pos["hands"])
        if n >= cards + 1:
            return pos


def split_position(rng: random.Random, cards: int) -> Dict:
    pos = spade_rich(rng, cards) if rng.random() < 0.5 else random_position(rng, cards)
    pos["side"] = rng.choice(SPLITS)
    count = rng.randrange(16)
    while count == pos["side"]:
        count = rng.randrange(16)
    pos["count"] = count
    pos["nil_seat"] = None
    return pos


@pytest.mark.parametrize("seed", range(6))
def test_split_sides_count_differs(seed):
    """count != side, three against one, side 0 and 15; one table per seed."""
    rng = random.Random(8000 + seed)
    solver = engine.CompiledSolver(tt_mb=1)
    for i in range(120):
        pos = split_position(rng, rng.choice((1, 2, 3, 3, 4, 4)))
        check(pos, solver, f"seed {seed} split position {i}")


@pytest.mark.parametrize("seed", range(2))
def test_split_five_cards(seed):
    rng = random.Random(8100 + seed)
    solver = engine.CompiledSolver(tt_mb=2)
    for i in range(3):
        pos = split_position(rng, 5)
        want = REF.max_tricks(**query(pos))
        assert solver.max_tricks(**query(pos)) == want, f"seed {seed} position {i}: {pos}"


def _covered(hands, nil: int, side: int) -> bool:
    """The engine's sure-keep test, in Python (used only to aim positions)."""
    for q in range(4):
        if q == nil or not side >> q & 1:
            continue
        ok = True
        for s in (0, 1, 2, 3):
            mine = sorted((c for c in range(52) if hands[nil] >> c & 1 and c // 13 == s), reverse=True)
            theirs = sorted((c for c in range(52) if hands[q] >> c & 1 and c // 13 == s), reverse=True)
            if len(theirs) < len(mine) or any(t < m for t, m in zip(theirs, mine)):
                ok = False
                break
        if ok:
            return True
    return False


@pytest.mark.parametrize("seed", range(4))
def test_nil_spadeless_and_covered(seed):
    """Nil hands without spades, many of them covered by a partner (sure keep),
    the rest near misses; trick starts and tricks in progress."""
    rng = random.Random(8200 + seed)
    solver = engine.CompiledSolver(tt_mb=1)
    covered = tried = 0
    while tried < 80:
        pos = random_position(rng, rng.choice((2, 3, 3, 4)))
        pos["side"] = rng.choice((5, 10, 7, 13, 14, 11, 15))
        seats = [s for s in range(4) if pos["side"] >> s & 1 and not pos["hands"][s] & SUIT_MASK[0]]
        if not seats:
            continue
        pos["nil_seat"] = rng.choice(seats)
        pos["count"] = rng.choice((pos["side"], rng.randrange(16)))
        is_covered = not pos["trick"] and _covered(pos["hands"], pos["nil_seat"], pos["side"])
        if not is_covered and rng.random() < 0.85:
            continue
        covered += is_covered
        tried += 1
        want = check(pos, solver, f"seed {seed} nil position {tried}")
        assert solver.at_least(**query(pos), target=0) == (want >= 0), pos
    assert covered >= 8


@pytest.mark.parametrize("seed", range(4))
def test_nil_spade_heavy(seed):
    """Nil hands with spades against covering spades (sure loss or not)."""
    rng = random.Random(8300 + seed)
    solver = engine.CompiledSolver(tt_mb=1)
    for i in range(80):
        pos = spade_rich(rng, rng.choice((2, 3, 3, 4)))
        pos["side"] = rng.choice((5, 10, 7, 13, 14, 11, 15, 1, 8))
        seats = [s for s in range(4) if pos["side"] >> s & 1]
        pos["nil_seat"] = max(seats, key=lambda s: (bin(pos["hands"][s] & SUIT_MASK[0]).count("1"),
                                                    rng.random()))
        pos["count"] = rng.choice((pos["side"], rng.randrange(16)))
        check(pos, solver, f"seed {seed} spade nil position {i}")


def test_at_least_split_and_nil():
    """One null-window search per target, split sides and nil queries."""
    rng = random.Random(8400)
    solver = engine.CompiledSolver(tt_mb=1)
    for i in range(200):
        pos = split_position(rng, rng.choice((2, 3, 4)))
        if rng.random() < 0.4 and pos["side"]:
            pos["nil_seat"] = rng.choice([s for s in range(4) if pos["side"] >> s & 1])
        want = REF.max_tricks(**query(pos))
        for target in range(-1, tricks_left(pos) + 2):
            got = solver.at_least(**query(pos), target=target)
            assert got == (want >= target), f"position {i} target {target}: {pos}"
