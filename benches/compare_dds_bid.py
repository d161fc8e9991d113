#!/usr/bin/env python3
"""The bid simulation's full solves, side by side with DDS (endplay).

    python benches/compare_dds_bid.py [--samples 60] [--seed 1] [--file F --player P]

For each case (default: the cases of benches/test_bench_bid.py) it deals
``--samples`` layouts exactly as ``dummy-spades bid`` does and, for each
layout, times the three full-deal solves a sample needs (one per real player
as declarer, the first bidder on lead):

1. our engine with the spade-breaking rule off, one ``CompiledSolver`` kept for the
   whole run and each solve started from an empty table, as in ``bid``;
2. DDS through endplay on the same deals (``solve_board``, target -1,
   solutions 1, spades trump), which has no spade-breaking rule;
3. our engine with the rule on (what ``bid`` runs for a default deal).

It checks that ours and DDS agree on every solve (exit code 1 if not) and
prints the mean full-solve CPU per sample for each, their ratio, the trick
starts each engine visited (DDS reports those as its nodes) and the CPU per
trick start, ours with the rule on against DDS, and what the bid speed bar
(1000 samples in 40 s wall on 2 cores, i.e. 80 ms of CPU per sample) leaves:
how long 1000 samples of the three full solves alone would take on 2 cores
at each engine's speed, before any nil question.
Times are CPU time of this process (``time.process_time``), which drifts
less than wall time on a shared machine.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import List

from _util import ROOT, check_nodes, dds_board, dds_solve, solver_stats, write_nodes

from dummy_spades.solver import bid as sim  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.limits import LAYOUT_TT_MB  # noqa: E402
from dummy_spades.solver.seating import DECLARER_SIDE  # noqa: E402

CASES = [("hands/three-peeky.yaml", "Carol"), ("hands/flip-2.yaml", "Bob"),
         ("hands/nil-candidate.yaml", "Bob")]
BAR_SECONDS = 40.0                                  # 1000 samples, wall, 2 cores
BAR_CPU_MS_PER_SAMPLE = BAR_SECONDS * 2 * 1000 / 1000


def layouts(path: str, player: str, samples: int, seed: int):
    """(positions per sample, knowledge): one opening Position per declarer."""
    k = sim.Knowledge.from_deal(load_deal(os.path.join(ROOT, path)), player)
    out = []
    for i in range(samples):
        layout = sim.sample_layout(k, seed, i)
        out.append([sim.layout_board(k, layout, declarer).position for declarer in k.players])
    return out, k


def time_ours(samples, breaking: bool) -> (List[int], List[float], int, List[dict]):
    """Tricks, CPU ms per sample, trick starts visited (what DDS counts as
    nodes), and per sample ``{"answer", "nodes", "trick_nodes"}``. Each
    solve starts from an empty table, as in ``bid`` (solve_layout)."""
    from dummy_spades.solver.engine import CompiledSolver

    solver = CompiledSolver(LAYOUT_TT_MB)
    tricks: List[int] = []
    ms: List[float] = []
    rows: List[dict] = []
    total_trick_nodes = 0
    for positions in samples:
        nodes = trick_nodes = 0
        cpu = 0.0
        answer = []
        for pos in positions:
            t0 = time.process_time()
            solver.clear()
            answer.append(solver.max_tricks(pos._replace(breaking=breaking), DECLARER_SIDE))
            cpu += time.process_time() - t0
            n, s = solver_stats(solver)
            nodes += n
            trick_nodes += s
        ms.append(cpu * 1000.0)
        tricks.extend(answer)
        total_trick_nodes += trick_nodes
        rows.append({"answer": answer, "nodes": nodes, "trick_nodes": trick_nodes})
    return tricks, ms, total_trick_nodes, rows


def time_dds(samples) -> (List[int], List[float], int):
    """Declarer-side tricks, CPU ms per sample, and DDS's node count (trick starts)."""
    boards = [[(dds_board(pos.hands, pos.leader), DECLARER_SIDE >> pos.leader & 1) for pos in positions]
              for positions in samples]
    dds_solve(boards[0][0][0])  # load and warm DDS, untimed
    tricks: List[int] = []
    ms: List[float] = []
    nodes = 0
    for row in boards:
        t0 = time.process_time()
        got = [(dds_solve(board), on_lead) for board, on_lead in row]
        ms.append((time.process_time() - t0) * 1000.0)
        for (t, n), on_lead in got:
            # DDS counts the tricks of the side on lead
            tricks.append(t if on_lead else 13 - t)
            nodes += n
    return tricks, ms, nodes


def mean(xs) -> float:
    return sum(xs) / len(xs)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", help="deal file (default: the bundled cases)")
    ap.add_argument("--player", help="player (with --file; default the next bidder)")
    ap.add_argument("--samples", type=int, default=60, help="layouts per case (default 60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--nodes-out", metavar="FILE",
                    help="write each sample's answers, nodes and trick starts (both breaking settings) as JSON")
    ap.add_argument("--nodes-check", metavar="FILE",
                    help="compare answers, nodes and trick starts with a --nodes-out file (exit 1 if an answer differs)")
    ap.add_argument("--no-dds", action="store_true", help="run our engine only (answers, nodes, times)")
    args = ap.parse_args(argv)
    if args.samples < 1:
        ap.error("--samples must be at least 1")
    cases = [(args.file, args.player)] if args.file else CASES
    ok = True
    print(f"per sample: the three full solves of `bid` (first bidder on lead); CPU ms; "
          f"{args.samples} samples per case, seed {args.seed}")
    runs = {}
    for path, player in cases:
        samples, k = layouts(path, player, args.samples, args.seed)
        ours, ours_ms, ours_starts, off_rows = time_ours(samples, breaking=False)
        _, on_ms, _, on_rows = time_ours(samples, breaking=True)
        runs[f"{path} {k.player} breaking off"] = off_rows
        runs[f"{path} {k.player} breaking on"] = on_rows
        for name, rows, ms in (("breaking off", off_rows, ours_ms), ("breaking on", on_rows, on_ms)):
            print(f"{path} --player {k.player}, ours, {name}: nodes {sum(r['nodes'] for r in rows)}, "
                  f"trick starts {sum(r['trick_nodes'] for r in rows)}, CPU {sum(ms) / 1000:.2f} s")
        if args.no_dds:
            continue
        dds, dds_ms, dds_starts = time_dds(samples)
        bad = sum(1 for a, b in zip(ours, dds) if a != b)
        ok &= bad == 0
        print(f"\n{path} --player {k.player}: {len(ours)} solves, {len(ours) - bad} agree with DDS")
        for name, ms in (("ours, breaking off", ours_ms), ("DDS", dds_ms), ("ours, breaking on", on_ms)):
            wall = mean(ms) * 1000 / 2 / 1000
            print(f"  {name:<20} {mean(ms):8.1f} ms per sample   -> 1000 samples on 2 cores: "
                  f"{wall:6.1f} s (full solves only)")
        print(f"  trick starts visited (breaking off): ours {ours_starts}, DDS {dds_starts} "
              f"({ours_starts / max(1, dds_starts):.2f}x); CPU per trick start: ours "
              f"{1e6 * sum(ours_ms) / max(1, ours_starts):.0f} ns, DDS "
              f"{1e6 * sum(dds_ms) / max(1, dds_starts):.0f} ns")
        print(f"  ratio ours/DDS: breaking off {mean(ours_ms) / mean(dds_ms):.2f}, breaking on "
              f"{mean(on_ms) / mean(dds_ms):.2f}; the {BAR_SECONDS:.0f} s bar "
              f"allows {BAR_CPU_MS_PER_SAMPLE:.0f} ms of CPU per sample for everything: DDS's "
              f"full solves alone take {mean(dds_ms) / BAR_CPU_MS_PER_SAMPLE:.1f}x that, "
              f"ours (breaking on) {mean(on_ms) / BAR_CPU_MS_PER_SAMPLE:.1f}x")
    if args.nodes_out:
        write_nodes(args.nodes_out, {"samples": args.samples, "seed": args.seed,
                                     "cases": [list(c) for c in cases]}, runs)
    if args.nodes_check:
        ok &= check_nodes(args.nodes_check, runs)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
