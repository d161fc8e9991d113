"""The engine's nil-aware questions against the reference twin.

Random positions with a nil seat: endings of one to four cards a hand (five
in the slow check), at trick starts and in tricks in progress, the
spade-breaking rule on and off, spades broken or not, the nil hand often
dealt from the low cards (a plausible nil, kept or broken by a trick or
two), the nil seat on either side of the table, its side its partnership,
three seats or itself alone, and ``count`` now and then different from
``side``.  Every entry point (``max_tricks``, ``card_values``,
``card_groups``, ``optimal_line``, and ``bound`` and ``at_least`` at every
target) must agree with the twin, and so must the engine without its nil
rules (``sure``, which holds them, and ``forced``).  Seeded, so every run
checks the same positions; the seed and the position are in
every failure message.  A quick check runs in the normal suite, a larger
one with ``-m slow``.
"""
from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from typing import Dict

import pytest

from solver_checks import check, check_null_window, random_deck, random_trick

engine = pytest.importorskip("dummy_spades.solver.engine", reason="compiled engine not built (pip install -e .)")
_engine = engine._engine

#: The techniques that hold the nil rules, switched off for the second
#: solver of each check.
NIL_TECHNIQUES = ("sure", "forced")


def nil_position(rng: random.Random, cards: int) -> Dict:
    """A random position with a nil question (``cards`` cards a hand before
    the trick in progress)."""
    nil_seat = rng.randrange(4)
    deck = random_deck(rng, cards, fewest_suits=2)
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    if rng.random() < 0.7:
        # a plausible nil: the nil hand from the lower half of the cards dealt
        dealt = deck[:4 * cards]
        low = sorted(dealt, key=lambda c: c % 13)[:2 * cards]
        mine = rng.sample(low, cards)
        rest = [c for c in dealt if c not in mine]
    else:
        mine = deck[:cards]
        rest = deck[cards:4 * cards]
    hands[nil_seat] = sum(1 << c for c in mine)
    others = [q for q in range(4) if q != nil_seat]
    for i, c in enumerate(rest):
        hands[others[i // cards]] |= 1 << c
    leader = rng.randrange(4)
    breaking = rng.random() < 0.5
    broken = rng.random() < 0.4
    trick = random_trick(rng, hands, leader, broken, breaking, (0, 0, 1, 2, 3))
    roll = rng.random()
    if roll < 0.6:
        side = (1 << nil_seat) | (1 << (nil_seat ^ 2))             # the partnership across
    elif roll < 0.75:
        side = (1 << nil_seat) | (1 << rng.choice(others))          # any partner
    elif roll < 0.9:
        side = 15 & ~(1 << rng.choice(others))                      # three seats
    else:
        side = 1 << nil_seat                                        # the nil hand alone
    count = side if rng.random() < 0.7 else rng.randrange(16)
    return dict(hands=hands, leader=leader, side=side, trick=tuple(trick), spades_broken=broken,
                breaking=breaking, count=count, nil_seat=nil_seat)


def without_nil_techniques() -> "engine.CompiledSolver":
    old = _engine.set_features(**{name: False for name in NIL_TECHNIQUES})
    try:
        return engine.CompiledSolver(tt_mb=1)
    finally:
        _engine.set_features(**old)


def check_nil_positions(seed: int, n: int, sizes) -> None:
    """``n`` positions of seed ``seed``: one solver with the default
    techniques and one without the nil rules, each keeping its table
    across the positions."""
    rng = random.Random(seed)
    solvers = (engine.CompiledSolver(tt_mb=1), without_nil_techniques())
    for i in range(n):
        pos = nil_position(rng, rng.choice(sizes))
        label = f"seed {seed} position {i}"
        for solver in solvers:
            want = check(pos, solver, label)
            check_null_window(pos, solver, label, want)


@pytest.mark.parametrize("seed", range(3))
def test_nil_questions_against_reference(seed):
    check_nil_positions(12000 + seed, 45, (1, 2, 3, 3, 4))


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(24))
def test_nil_questions_against_reference_many(seed):
    check_nil_positions(12100 + seed, 150, (2, 3, 4, 4, 5))


def load_bench():
    """benches/nil_cost.py as a module (it imports benches/_util)."""
    root = Path(__file__).resolve().parent.parent
    if str(root / "benches") not in sys.path:
        sys.path.append(str(root / "benches"))
    spec = importlib.util.spec_from_file_location("nil_cost", root / "benches" / "nil_cost.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_nil_cost_bench(tmp_path, capsys):
    """benches/nil_cost.py: its deals hold a plausible nil (from the 26
    lowest cards unless drawn from all), it reports the ratios and the
    bar, and its --nodes-check finds its own --nodes-out answers equal."""
    bench = load_bench()
    deals = bench.nil_deals(20, 5, 0.8)
    low = sorted(range(52), key=lambda c: c % 13)[:24]      # ranks 2-7
    eights = {c for c in range(52) if c % 13 == 6}
    lows = [hands[seat] for hands, seat, _, _ in deals
            if all(c in low or c in eights for c in range(52) if hands[seat] >> c & 1)]
    assert 10 <= len(lows) < 20
    assert all(bin(sum(hands)).count("1") == 52 and all(bin(h).count("1") == 13 for h in hands)
               for hands, _, _, _ in deals)
    out = tmp_path / "nodes.json"
    assert bench.main(["--deals", "1", "--nodes-out", str(out)]) == 0
    assert bench.main(["--deals", "1", "--nodes-check", str(out)]) == 0
    text = capsys.readouterr().out
    assert "nil / plain: total" in text and "bar: total <= 2.0x" in text
    assert "nodes check nil: 0 answers differ" in text
    assert set(json.loads(out.read_text())["runs"]) == {"plain", "nil"}
