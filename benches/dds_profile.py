#!/usr/bin/env python3
"""Where our engine and DDS differ: work counts, no timing.

    python benches/dds_profile.py solve ours|dds [--deals 20] [--seed 1]
    python benches/dds_profile.py sizes [--deals 200] [--seed 1] [--tests 2]

``solve``: one engine's solves of the question of ``compare_dds.py`` (the
leader's side, breaking off, a cold table per deal, leader W) and nothing
else, to be run under ``valgrind --tool=callgrind`` (ours:
``--collect-atstart=no --toggle-collect='*engine_root_value'``; DDS:
``--toggle-collect='*SolveBoard*'``); prints the summed answers and trick
starts.

``sizes``: trick starts of both engines deal by deal (DDS's ``nodes``
count trick starts too), grouped in fifths by DDS's count, the easiest
first; then, on every ``--tests``-th of the easiest fifth of the deals, the
two null-window tests around the value, each from a cold table: "at least
the value" (it holds) and "at least one more" (it fails), ours against
DDS's ``SolveBoard`` with that target (DDS keeps its table when asked about
the same deal again, so another deal is solved before each test).
"""
from __future__ import annotations

import argparse
import statistics
import sys
from typing import List, Sequence, Tuple

from _util import dds_board, random_deals, side_of

from dummy_spades.solver.position import Position  # noqa: E402

LEADER = 3      # W, as compare_dds.py's default


def dds_test(hands, target: int) -> Tuple[bool, int]:
    """DDS's ``SolveBoard`` with ``target`` tricks for the side on lead:
    (does it make them, trick starts)."""
    from endplay import _dds

    fut = _dds.futureTricks()
    _dds.SolveBoard(dds_board(hands, LEADER)._data, target, 1, 1, fut, 0)
    return fut.score[0] >= target, fut.nodes


def dds_value(hands) -> Tuple[int, int]:
    from endplay import _dds

    fut = _dds.futureTricks()
    _dds.SolveBoard(dds_board(hands, LEADER)._data, -1, 1, 1, fut, 0)
    return fut.score[0], fut.nodes


def solve(engine: str, deals: Sequence) -> None:
    total = starts = 0
    if engine == "ours":
        from dummy_spades.solver import _engine

        side = side_of(LEADER)
        core = _engine.Core(128.0)
        for hands in deals:
            core.clear()
            total += core.max_tricks(Position(hands, LEADER, breaking=False), side, side, -1)
            starts += core.trick_nodes
    else:
        for hands in deals:
            value, visited = dds_value(hands)
            total += value
            starts += visited
    print(f"{engine}: {len(deals)} deals, tricks {total}, trick starts {starts}")


def sizes(deals: Sequence, every: int) -> None:
    from dummy_spades.solver import _engine

    side = side_of(LEADER)
    core = _engine.Core(128.0)
    ours: List[int] = []
    values: List[int] = []
    dds: List[int] = []
    for hands in deals:
        core.clear()
        values.append(core.max_tricks(Position(hands, LEADER, breaking=False), side, side, -1))
        ours.append(core.trick_nodes)
        value, visited = dds_value(hands)
        if value != values[-1]:
            raise SystemExit(f"answers differ: ours {values[-1]}, DDS {value}")
        dds.append(visited)
    order = sorted(range(len(deals)), key=lambda i: dds[i])
    fifth = max(1, len(deals) // 5)
    print("fifths of the deals by DDS's trick starts: mean trick starts DDS / ours, "
          "ratio of the sums, median per-deal ratio")
    for k in range(0, len(order), fifth):
        part = order[k:k + fifth]
        d = sum(dds[i] for i in part)
        o = sum(ours[i] for i in part)
        print(f"  {k // fifth + 1}: {d / len(part):9.0f} / {o / len(part):9.0f}   {o / max(1, d):5.2f}   "
              f"{statistics.median(ours[i] / max(1, dds[i]) for i in part):5.2f}")
    print(f"all: {sum(dds)} / {sum(ours)}   {sum(ours) / max(1, sum(dds)):.2f}   "
          f"{statistics.median(ours[i] / max(1, dds[i]) for i in range(len(deals))):.2f}")
    print("null-window tests from a cold table, trick starts ours / DDS "
          "(\"at least v\" holds, \"at least v+1\" fails):")
    sums = {True: [0, 0], False: [0, 0]}
    for i in order[:fifth:every]:
        row = []
        for target in (values[i], values[i] + 1):
            core.clear()
            got = core.bound(Position(deals[i], LEADER, breaking=False), side, side, -1, target)
            # DDS keeps its table for a deal asked again: another deal
            # first, so that each test starts cold
            dds_value(deals[order[0] if i != order[0] else order[1]])
            made, visited = dds_test(deals[i], target) if target <= 13 else (False, 0)
            if (got >= target) != made:
                raise SystemExit(f"deal #{i}: the test of {target} differs")
            row.append(f">= {target:2d}: {core.trick_nodes:7d} / {visited:6d}")
            sums[target == values[i]][0] += core.trick_nodes
            sums[target == values[i]][1] += visited
        print(f"  #{i:<4d} value {values[i]:2d}   " + "   ".join(row))
    print(f"sums: \"at least v\" {sums[True][0]} / {sums[True][1]}, "
          f"\"at least v+1\" {sums[False][0]} / {sums[False][1]}")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sp = sub.add_parser("solve", help="one engine's solves, for callgrind")
    sp.add_argument("engine", choices=["ours", "dds"])
    sp.add_argument("--deals", type=int, default=20)
    sp.add_argument("--seed", type=int, default=1)
    sz = sub.add_parser("sizes", help="trick starts of both engines, by deal size, and the tests around the value")
    sz.add_argument("--deals", type=int, default=200)
    sz.add_argument("--seed", type=int, default=1)
    sz.add_argument("--tests", type=int, default=2, help="test every N-th deal of the easiest fifth (default 2)")
    args = ap.parse_args(argv)
    if args.deals < 1 or (args.command == "sizes" and args.tests < 1):
        ap.error("--deals and --tests must be at least 1")
    deals = random_deals(args.deals, args.seed)
    if args.command == "solve":
        solve(args.engine, deals)
    else:
        sizes(deals, args.tests)
    return 0


if __name__ == "__main__":
    sys.exit(main())
