#!/usr/bin/env python3
"""Side-by-side timing of our engine and DDS (endplay) on the same deals.

    python benches/compare_dds.py [--deals 200] [--seed 1] [--leader W]

On ``--deals`` random full deals of ``--seed`` (the deals of ``dummy-spades
deal --count DEALS --seed SEED --to pbn``), one opening leader,
spade-breaking rule off, one process:

1. our engine, a cold transposition table per deal: the most tricks of the
   leader's side (one ``max_tricks``);
2. the same with the spade-breaking rule on (no oracle for that one);
3. DDS through endplay: ``solve_board`` with target -1, solutions 1 (one
   optimal card and its trick count: the same question as one
   ``max_tricks``), on the same deals.

It checks that both engines agree on every deal (exit code 1 if not) and
prints median / p95 / max ms per engine, the ratio of the medians
(ours / DDS), the peak RSS of the process before DDS is loaded (ours) and at
the end, and the breaking-on median and its ratio to the breaking-off
median, then the performance bar (the speed targets), each line PASS or FAIL.

Our engine runs first so that its peak memory is measured before endplay
(which allocates about 80 MB when imported) is loaded.
"""
from __future__ import annotations

import argparse
import math
import resource
import sys
import time
from typing import List, Sequence

from _util import (SEATS, check_nodes, dds_board, dds_solve, deal_command, load_engine, pbn, random_deals,
                   side_of, solver_stats, write_nodes)

from dummy_spades.solver.position import Position  # noqa: E402

BAR_TOTAL_RATIO = 1.0       # ours / DDS, breaking off, total time
BAR_MEDIAN_RATIO = 1.0      # median of the per-deal ratios ours / DDS, breaking off
BAR_PEAK_MB = 160.0         # our process, peak RSS (DDS's one-thread figure)
BAR_BREAKING_RATIO = 1.0    # breaking on / breaking off, our total time


def peak_rss_mb() -> float:
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss / (1024.0 * 1024.0) if sys.platform == "darwin" else rss / 1024.0


def median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def p95(xs: Sequence[float]) -> float:
    s = sorted(xs)
    return s[max(1, math.ceil(0.95 * len(s))) - 1]


class Ours:
    """Our engine with a cold table for every deal."""

    def __init__(self, engine, tt_mb=None):
        self.solver = engine(tt_mb)

    def cold(self) -> None:
        """Empty the transposition table (outside the timed region)."""
        self.solver.clear()

    def max_tricks(self, hands, leader: int, side: int, breaking: bool) -> int:
        return self.solver.max_tricks(Position(hands, leader, breaking=breaking), side)

    def stats(self):
        """(nodes, trick starts) so far: the solver's public counters."""
        return solver_stats(self.solver)


def time_ours(ours: Ours, deals, leader: int, breaking: bool):
    """Tricks, ms per deal, and per deal ``{"answer", "nodes", "trick_nodes"}``."""
    tricks: List[int] = []
    ms: List[float] = []
    rows: List[dict] = []
    side = side_of(leader)
    for hands in deals:
        ours.cold()
        n0, t0_nodes = ours.stats()
        t0 = time.perf_counter()
        tricks.append(ours.max_tricks(hands, leader, side, breaking))
        ms.append((time.perf_counter() - t0) * 1000.0)
        n1, t1_nodes = ours.stats()
        rows.append({"answer": tricks[-1], "nodes": n1 - n0, "trick_nodes": t1_nodes - t0_nodes})
    return tricks, ms, rows


def time_against(ours: Ours, other: Ours, deals, leader: int, breaking: bool):
    """Both engines on every deal, back to back from cold tables, the order
    alternating: (ms per deal of ``ours``, of ``other``, deals whose answers
    differ)."""
    side = side_of(leader)
    ms: List[List[float]] = [[], []]
    differ = 0
    for i, hands in enumerate(deals):
        got = [0, 0]
        for k in ((0, 1) if i % 2 == 0 else (1, 0)):
            engine = (ours, other)[k]
            engine.cold()
            t0 = time.perf_counter()
            got[k] = engine.max_tricks(hands, leader, side, breaking)
            ms[k].append((time.perf_counter() - t0) * 1000.0)
        differ += got[0] != got[1]
    return ms[0], ms[1], differ


def against_off(engine, names: Sequence[str], args, deals, leader: int) -> int:
    """``--against-off``: our engine against itself without ``names``."""
    from dummy_spades.solver import _engine

    ours = Ours(engine, args.tt_mb)
    old = _engine.set_features(**{name: False for name in names})
    try:
        other = Ours(engine, args.tt_mb)
    finally:
        _engine.set_features(**old)
    warm = random_deals(1, args.seed + 10**6, args.cards)[0]
    for e in (ours, other):
        e.max_tricks(warm, leader, side_of(leader), False)
    print(f"ours against ours without {', '.join(names)}: {args.deals} deals of seed {args.seed}, "
          f"leader {args.leader}, each deal on both back to back")
    bad = 0
    for breaking in (False, True):
        a, b, differ = time_against(ours, other, deals, leader, breaking)
        bad += differ
        print(f"breaking {'on' if breaking else 'off'}: with {sum(a) / 1000:.2f} s, without "
              f"{sum(b) / 1000:.2f} s, total ratio {sum(a) / max(1e-9, sum(b)):.3f}, median of per-deal "
              f"ratios {median([x / y for x, y in zip(a, b) if y > 0]):.3f}; answers differ on {differ} deals")
    return 1 if bad else 0


def time_dds(deals, leader: int):
    boards = [dds_board(hands, leader) for hands in deals]
    dds_solve(boards[0])  # load and warm DDS, untimed
    tricks: List[int] = []
    ms: List[float] = []
    nodes: List[int] = []
    for board in boards:
        t0 = time.perf_counter()
        got, visited = dds_solve(board)  # target -1, solutions 1
        ms.append((time.perf_counter() - t0) * 1000.0)
        tricks.append(got)
        nodes.append(visited)
    return tricks, ms, nodes


def line(name: str, ms: Sequence[float]) -> str:
    return f"{name:<22} median {median(ms):9.2f} ms   p95 {p95(ms):9.2f} ms   max {max(ms):9.2f} ms"


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200, help="number of random deals (default 200)")
    ap.add_argument("--seed", type=int, default=1, help="random seed of the deals (default 1)")
    ap.add_argument("--leader", default="W", choices=list(SEATS), help="opening leader (default W)")
    ap.add_argument("--cards", type=int, default=13, help="cards per hand (default 13: full deals)")
    ap.add_argument("--tt-mb", type=int, default=None, help="our table size in MB (default: the engine's)")
    ap.add_argument("--nodes-out", metavar="FILE",
                    help="write each deal's answer, nodes and trick starts (both breaking settings) as JSON")
    ap.add_argument("--nodes-check", metavar="FILE",
                    help="compare answers, nodes and trick starts with a --nodes-out file (exit 1 if an answer differs)")
    ap.add_argument("--no-dds", action="store_true",
                    help="run our engine only (answers, nodes and times; no DDS, no bar)")
    ap.add_argument("--off", action="append", default=[], metavar="FEATURE",
                    help="switch one of our engine's techniques off (repeatable; the names of "
                         "_engine.FEATURES: tt, quick, sure, ...), to measure what it contributes")
    ap.add_argument("--on", action="append", default=[], metavar="FEATURE",
                    help="switch one of our engine's techniques on that is off by default "
                         "(repeatable; e.g. quick), to measure what it contributes")
    ap.add_argument("--against-off", action="append", default=[], metavar="FEATURE",
                    help="time our engine against itself with this technique off (repeatable): both "
                         "on every deal, back to back, breaking off and on; no DDS")
    ap.add_argument("--reference", action="store_true",
                    help="time the pure-Python reference twin instead (tiny --cards only; to test this script)")
    args = ap.parse_args(argv)
    if args.deals < 1 or not 1 <= args.cards <= 13:
        ap.error("--deals must be at least 1 and --cards 1..13")

    leader = SEATS.index(args.leader)
    deals = random_deals(args.deals, args.seed, args.cards)
    engine = load_engine(args.reference)
    for flag, names, on in (("--off", args.off, False), ("--on", args.on, True)):
        if not names:
            continue
        from dummy_spades.solver import _engine
        unknown = sorted(set(names) - set(_engine.FEATURES))
        if unknown:
            ap.error(f"{flag}: unknown technique {', '.join(unknown)} (known: {', '.join(_engine.FEATURES)})")
        _engine.set_features(**{name: on for name in names})
        print(f"techniques {'on' if on else 'off'}: {', '.join(names)}")
    if args.against_off:
        from dummy_spades.solver import _engine
        unknown = sorted(set(args.against_off) - set(_engine.FEATURES))
        if unknown:
            ap.error(f"--against-off: unknown technique {', '.join(unknown)} (known: {', '.join(_engine.FEATURES)})")
        return against_off(engine, args.against_off, args, deals, leader)
    ours = Ours(engine, args.tt_mb)
    # warm up code paths (not the table) on a throwaway deal
    ours.max_tricks(random_deals(1, args.seed + 10**6, args.cards)[0], leader, side_of(leader), False)

    print(f"{args.deals} random deals of {args.cards} cards per hand (seed {args.seed}: "
          f"{deal_command(args.deals, args.seed, args.cards)}), "
          f"leader {args.leader}, side {'NS' if leader % 2 == 0 else 'EW'} (the leader's side), one process")
    print(f"engine: {engine.__module__}; DDS: endplay solve_board target -1 solutions 1")

    our_tricks, our_ms, off_rows = time_ours(ours, deals, leader, breaking=False)
    _, on_ms, on_rows = time_ours(ours, deals, leader, breaking=True)
    our_peak = peak_rss_mb()
    runs = {"breaking off": off_rows, "breaking on": on_rows}
    same = True
    if args.nodes_out:
        write_nodes(args.nodes_out, {"deals": args.deals, "seed": args.seed, "leader": args.leader,
                                     "cards": args.cards}, runs)
    if args.nodes_check:
        same = check_nodes(args.nodes_check, runs)
    for name, rows, ms in (("breaking off", off_rows, our_ms), ("breaking on", on_rows, on_ms)):
        print(f"ours, {name}: nodes {sum(r['nodes'] for r in rows)}, trick starts "
              f"{sum(r['trick_nodes'] for r in rows)}, total {sum(ms) / 1000:.2f} s, "
              f"median {median(ms):.2f} ms, max {max(ms):.2f} ms")
    if args.no_dds:
        return 0 if same else 1

    dds_tricks, dds_ms, dds_nodes = time_dds(deals, leader)
    end_peak = peak_rss_mb()

    bad = [i for i, (a, b) in enumerate(zip(our_tricks, dds_tricks)) if a != b]
    for i in bad[:20]:
        print(f"MISMATCH deal {i}: ours {our_tricks[i]}, DDS {dds_tricks[i]}: {pbn(deals[i])}")

    ratio = median(our_ms) / median(dds_ms) if median(dds_ms) > 0 else math.inf
    per_deal = median([a / b for a, b in zip(our_ms, dds_ms) if b > 0])
    on_ratio = median(on_ms) / median(our_ms) if median(our_ms) > 0 else math.inf

    print()
    print(line("ours, breaking off", our_ms) + f"   total {sum(our_ms) / 1000:7.2f} s")
    print(line("DDS", dds_ms) + f"   total {sum(dds_ms) / 1000:7.2f} s")
    print(line("ours, breaking on", on_ms) + f"   total {sum(on_ms) / 1000:7.2f} s")
    print()
    print(f"agreement: {len(deals) - len(bad)}/{len(deals)} deals")
    print(f"median ratio ours/DDS (breaking off): {ratio:.2f}  (median of per-deal ratios {per_deal:.2f})")
    print(f"total ratio ours/DDS (breaking off): {sum(our_ms) / max(1e-9, sum(dds_ms)):.2f}")
    our_starts = sum(r["trick_nodes"] for r in off_rows)
    print(f"trick starts: ours {our_starts}, DDS {sum(dds_nodes)} (DDS's nodes): "
          f"ratio {our_starts / max(1, sum(dds_nodes)):.2f}")
    worst = max(range(len(deals)), key=lambda i: our_ms[i])
    dds_worst = max(range(len(deals)), key=lambda i: dds_ms[i])
    print(f"worst deal: ours #{worst} {our_ms[worst]:.1f} ms ({off_rows[worst]['trick_nodes']} trick starts), "
          f"DDS #{dds_worst} {dds_ms[dds_worst]:.1f} ms ({dds_nodes[dds_worst]} nodes): "
          f"ratio {our_ms[worst] / max(1e-9, dds_ms[dds_worst]):.2f}")
    print(f"breaking on / off median ratio (ours): {on_ratio:.2f}")
    print(f"peak RSS: ours {our_peak:.0f} MB (before endplay is loaded); whole run {end_peak:.0f} MB")
    print()
    total_ratio = sum(our_ms) / max(1e-9, sum(dds_ms))
    on_total = sum(on_ms) / max(1e-9, sum(our_ms))
    print("performance bar:")
    print(f"  {verdict(total_ratio <= BAR_TOTAL_RATIO)}  total time at most {BAR_TOTAL_RATIO}x DDS: "
          f"{total_ratio:.2f}x")
    print(f"  {verdict(per_deal <= BAR_MEDIAN_RATIO)}  median per-deal ratio at most "
          f"{BAR_MEDIAN_RATIO}x DDS: {per_deal:.2f}x")
    print(f"  {verdict(our_ms[worst] <= dds_ms[dds_worst])}  our slowest deal no slower than DDS's "
          f"slowest: {our_ms[worst]:.1f} / {dds_ms[dds_worst]:.1f} ms")
    print(f"  {verdict(our_peak < BAR_PEAK_MB)}  peak memory under {BAR_PEAK_MB:.0f} MB: {our_peak:.0f} MB")
    print(f"  {verdict(on_total <= BAR_BREAKING_RATIO)}  breaking on no slower than breaking off "
          f"(totals): {on_total:.2f}x")
    print(f"  {verdict(not bad)}  answers agree with DDS")
    return 1 if bad or not same else 0


if __name__ == "__main__":
    sys.exit(main())
