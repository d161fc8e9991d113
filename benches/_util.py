"""Shared helpers of the benchmarks: seeded random deals and the engine.

Importable both from ``benches/conftest.py`` (pytest puts benches/ on
sys.path) and from ``benches/compare_dds.py`` run as a script.
"""
from __future__ import annotations

import os
import sys
from typing import List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from dummy_spades.solver.cards import format_hand  # noqa: E402
from dummy_spades.solver.dealer import random_seat_deals  # noqa: E402

Hands = Tuple[int, int, int, int]
NS, EW = 0b0101, 0b1010
SEATS = "NESW"


def random_deals(n: int, seed: int, cards: int = 13) -> List[Hands]:
    """The first ``n`` random deals of ``seed``, ``cards`` cards a hand, by
    seat N E S W: the deals of :func:`deal_command` (the project's dealer)."""
    return random_seat_deals(n, seed, cards)


def deal_command(n: int, seed: int, cards: int = 13) -> str:
    """The command line that prints the deals of ``random_deals(n, seed, cards)``."""
    return (f"dummy-spades deal --count {n} --seed {seed}"
            + (f" --cards {cards}" if cards != 13 else "") + " --to pbn")


def pbn(hands: Hands) -> str:
    return "N:" + " ".join(format_hand(h) for h in hands)


def dds_board(hands: Hands, leader: int):
    """An endplay ``Deal`` of ``hands`` (seats N E S W), spades trump, ``leader`` on lead."""
    from endplay.types import Deal, Denom, Player

    board = Deal(pbn(hands))
    board.trump = Denom.spades
    board.first = Player(leader)
    return board


def dds_solve(board) -> Tuple[int, int]:
    """DDS's ``SolveBoard`` with target -1, solutions 1 (the call behind
    endplay's ``solve_board(deal, SolveMode.OptimalOne)``: one optimal card
    and its trick count, the question of one ``max_tricks``): the tricks of
    the side on lead, and DDS's node count (``futureTricks.nodes``: the
    trick starts it visited)."""
    from endplay import _dds

    fut = _dds.futureTricks()
    _dds.SolveBoard(board._data, -1, 1, 1, fut, 0)
    return fut.score[0], fut.nodes


def side_of(seat: int) -> int:
    return NS if seat % 2 == 0 else EW


def load_engine(reference: bool = False):
    """Our Solver class, called with ``tt_mb``: the compiled engine (or the
    reference twin, for tiny deals). Exits with the engine-not-built message."""
    from dummy_spades.solver.backend import solver_class

    try:
        return solver_class("reference" if reference else "engine")
    except ImportError as exc:
        raise SystemExit(str(exc)) from exc


def solver_stats(solver) -> Tuple[int, int]:
    """The solver's public counters: search nodes and trick starts."""
    return int(solver.nodes), int(solver.trick_nodes)


def write_nodes(path: str, meta: dict, runs: dict) -> None:
    """Write per-deal answers and counters (``runs``: name -> list of
    ``{"answer", "nodes", "trick_nodes"}``) as JSON, for comparing builds."""
    import json

    with open(path, "w") as f:
        json.dump({"meta": meta, "runs": runs}, f, indent=0)


def check_nodes(path: str, runs: dict) -> bool:
    """Compare ``runs`` with a file written by :func:`write_nodes`: print, per
    run, whether every answer is the same and the node and trick-start
    totals side by side (with the count of deals whose counts differ).
    False when an answer differs."""
    import json

    with open(path) as f:
        base = json.load(f)["runs"]
    same = True
    for name, rows in runs.items():
        old = base.get(name)
        if old is None:
            print(f"nodes check {name}: not in {path}")
            continue
        if len(old) != len(rows):
            print(f"nodes check {name}: comparing the first {min(len(old), len(rows))} rows")
            old, rows = old[:len(rows)], rows[:len(old)]
        answers = sum(1 for a, b in zip(old, rows) if a["answer"] != b["answer"])
        same &= answers == 0
        parts = []
        for key in ("nodes", "trick_nodes"):
            a = sum(r[key] for r in old)
            b = sum(r[key] for r in rows)
            diff = sum(1 for x, y in zip(old, rows) if x[key] != y[key])
            parts.append(f"{key} {a} -> {b} ({(b - a) / max(1, a):+.2%}, {diff} deals differ)")
        print(f"nodes check {name}: {answers} answers differ; " + "; ".join(parts))
    return same
