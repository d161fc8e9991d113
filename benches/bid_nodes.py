#!/usr/bin/env python3
"""The double-dummy work of the bid simulation, question by question.

    python benches/bid_nodes.py [--samples 100] [--seed 1] [--file F --player P]
    python benches/bid_nodes.py --nodes-out base.json      # then, after a change:
    python benches/bid_nodes.py --nodes-check base.json

For each case (default: the cases of benches/test_bench_bid.py) it solves
the first ``--samples`` layouts of the seed drawn uniformly (draw ``i`` is
``bid``'s draw ``i``; conditioned sampling solves a subset of them) exactly
as ``bid`` does (``solve_layout``: one engine ``Solver``, each question from
an empty table, the nil questions searched in the order learnt so far) and
counts, per kind of question, the questions searched, the null-window tests
(``Solver.bound`` calls; a full solve's MTD tests are the engine's own and
not counted), the search nodes and the CPU time:

* ``full``: one full-deal solve per role the auction leaves open;
* ``nil kept`` / ``nil lost``: the nil questions, by their answer (a kept
  nil is proved and its side's tricks counted; a lost one is refuted);
* ``zero``: whether the side can take no trick (only with two nils that
  count together, never for the default plan).

Node counts do not depend on the machine's load: compare builds with
``--nodes-out`` / ``--nodes-check`` (every question's answer and nodes; exit
code 1 when an answer differs).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Dict, List

from _util import ROOT, check_nodes, write_nodes

from dummy_spades.solver import bid as sim  # noqa: E402
from dummy_spades.solver.backend import make_solver  # noqa: E402
from dummy_spades.solver.bid.layout import NOT_ASKED, NilOrder, solve_layout  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.limits import LAYOUT_TT_MB  # noqa: E402
from dummy_spades.solver.simulation.model import certain_trick  # noqa: E402

CASES = [("hands/three-peeky.yaml", "Carol"), ("hands/flip-2.yaml", "Bob"),
         ("hands/nil-candidate.yaml", "Bob")]
KINDS = ("full", "nil kept", "nil lost", "zero")


class CountingSolver:
    """An engine ``Solver`` that files each question's nodes, tests and CPU
    time under its kind (the question starts at ``clear()``, as
    ``solve_layout`` asks each one)."""

    def __init__(self, tt_mb: float) -> None:
        self.solver = make_solver(tt_mb)
        self.rows: List[Dict[str, object]] = []
        self._open: Dict[str, object] = {}

    def _close(self) -> None:
        if self._open:
            o = self._open
            o["nodes"] = self.solver.nodes - o.pop("nodes0")
            o["trick_nodes"] = self.solver.trick_nodes - o.pop("trick0")
            o["cpu"] = time.process_time() - o.pop("cpu0")
            self.rows.append(o)
            self._open = {}

    def clear(self) -> None:
        self._close()
        self.solver.clear()
        self._open = {"nodes0": self.solver.nodes, "trick0": self.solver.trick_nodes,
                      "cpu0": time.process_time(), "tests": 0}

    def finish(self) -> None:
        self._close()

    def max_tricks(self, pos, side, count=None, nil_seat=None):
        self._open["kind"] = "full"
        v = self.solver.max_tricks(pos, side, count, nil_seat)
        self._open["answer"] = v
        return v

    def _test(self, kind, ask, *args):
        self._open["kind"] = kind
        self._open["tests"] += 1
        v = ask(*args)
        self._open["answer"] = int(v)
        return v

    def bound(self, pos, side, target, count=None, nil_seat=None):
        return self._test("nil", self.solver.bound, pos, side, target, count, nil_seat)

    def at_least(self, pos, side, target, count=None, nil_seat=None):
        return self._test("zero", self.solver.at_least, pos, side, target, count, nil_seat)


def run_case(path: str, player: str, samples: int, seed: int, tt_mb: float):
    k = sim.Knowledge.from_deal(load_deal(os.path.join(ROOT, path)), player)
    plan = sim.plan_for(k)
    counting = CountingSolver(tt_mb)
    order = NilOrder()
    rows: List[Dict[str, object]] = []
    for i in range(samples):
        layout = sim.sample_layout(k, seed, i)
        result = solve_layout(counting, k, layout, plan, i, order)
        counting.finish()
        # the nil questions searched, in plan order (the others were answered unsearched)
        searched = iter(t for (_, hand), t in zip(plan.nils, result.nils)
                        if t != NOT_ASKED and not certain_trick(layout[hand]))
        for row in counting.rows:
            if row["kind"] == "nil":
                row["answer"] = next(searched)
                row["kind"] = "nil kept" if int(row["answer"]) >= 0 else "nil lost"
            rows.append(row)
        counting.rows = []
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", help="deal file (default: the bundled cases)")
    ap.add_argument("--player", help="player (with --file; default the next bidder)")
    ap.add_argument("--samples", type=int, default=100, help="layouts per case (default 100)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tt-mb", type=float, default=LAYOUT_TT_MB)
    ap.add_argument("--nodes-out", metavar="FILE", help="write every question's answer and nodes")
    ap.add_argument("--nodes-check", metavar="FILE", help="compare with a --nodes-out file")
    args = ap.parse_args()
    cases = [(args.file, args.player)] if args.file else CASES
    runs = {}
    for path, player in cases:
        rows = run_case(path, player, args.samples, args.seed, args.tt_mb)
        name = f"{os.path.basename(path)} {player}"
        runs[name] = [{"answer": r["answer"], "nodes": r["nodes"], "trick_nodes": r["trick_nodes"]}
                      for r in rows]
        print(f"{name}, {args.samples} layouts (seed {args.seed}):")
        print(f"  {'question':<10} {'asked':>7} {'per layout':>10} {'tests':>7} {'nodes':>12} "
              f"{'nodes/question':>14} {'CPU s':>7}")
        total_nodes = sum(int(r["nodes"]) for r in rows)
        for kind in KINDS:
            sel = [r for r in rows if r["kind"] == kind]
            if not sel:
                continue
            nodes = sum(int(r["nodes"]) for r in sel)
            tests = sum(int(r["tests"]) for r in sel)
            cpu = sum(float(r["cpu"]) for r in sel)
            print(f"  {kind:<10} {len(sel):>7} {len(sel) / args.samples:>10.2f} {tests:>7} "
                  f"{nodes:>12,} {nodes / len(sel):>14,.0f} {cpu:>7.2f}")
        nil_nodes = sum(int(r["nodes"]) for r in rows if str(r["kind"]).startswith("nil"))
        print(f"  nil questions: {nil_nodes:,} nodes, {nil_nodes / max(1, total_nodes):.1%} "
              f"of all {total_nodes:,}")
    meta = {"samples": args.samples, "seed": args.seed, "tt_mb": args.tt_mb}
    if args.nodes_out:
        write_nodes(args.nodes_out, meta, runs)
    if args.nodes_check:
        return 0 if check_nodes(args.nodes_check, runs) else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
