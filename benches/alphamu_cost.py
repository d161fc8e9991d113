#!/usr/bin/env python3
"""The cost of αμ (``advise --lookahead M``) against the double-dummy
average (PIMC, M = 1) on the same layouts.

    python benches/alphamu_cost.py endings [--cards 3 4 5 6] [--count 10] [--seed 1]
                                           [--lookahead 1 2 3 4] [--time-limit 20]
    python benches/alphamu_cost.py bundled [--tricks-left 3 4 5 6] [--lookahead 1 2 3 4]
                                           [--time-limit 20] [DEAL ...]
    python benches/alphamu_cost.py cuts [--cards 4 5] [--count 10] [--seed 1] [--lookahead 3]

``endings``: the seeded endings of ``dummy-spades deal --count N --seed S
--cards K --to pbn`` (the project's dealer), the declarer on lead, every
layout of the defenders' cards between them (C(2K, K) worlds: 20, 70, 252,
924 for K = 3 to 6), the goal the median over the layouts of the declarer
side's double-dummy tricks (at least 1), so that it is reached in some
layouts and missed in others. ``bundled``: each bundled deal with an auction, played on along
an optimal line to the first card the declarer's side chooses with at
most ``--tricks-left`` tricks left; the layouts are advise's (every
consistent one, uniform), the goal the declarer's bid.

``cuts``: on the ``endings`` positions, the work of each search with every
cut and with each cut turned off (:class:`solver.alphamu.Cuts`): αμ nodes,
double-dummy leaves and the engine's nodes, summed over the positions (the
answers are checked equal). Node counts do not depend on the load.

Each search runs alone in this process with one solver (its table cleared
first) under ``--time-limit`` seconds. Prints, per cards left and M, the
median and largest CPU seconds, the median ratio to M = 1 on the same
position, the median αμ nodes and double-dummy leaves, and how many
searches the limit stopped. CPU time; run under ``flock /tmp/bench.lock
chrt -r 10`` on a shared machine.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from itertools import combinations
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from dummy_spades.solver import advise as sd  # noqa: E402
from dummy_spades.solver import alphamu  # noqa: E402
from dummy_spades.solver.backend import make_solver  # noqa: E402
from dummy_spades.solver.cards import iter_cards  # noqa: E402
from dummy_spades.solver.contract import Solver  # noqa: E402
from dummy_spades.solver.dealer import random_seat_deals  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.position import Position  # noqa: E402
from dummy_spades.solver.seating import DECLARER_SIDE, side_of  # noqa: E402

BUNDLED = ("hands/worked-example.yaml", "hands/mid-play.yaml", "hands/spade-breaking.yaml",
           "hands/no-spade-breaking.yaml", "hands/flip-2.yaml")

Case = Tuple[str, int, List[Position], int]     # name, cards left, worlds, need


def defender_layouts(pos: Position) -> List[Position]:
    """Every layout of the defenders' cards between them, sizes kept."""
    pool = list(iter_cards(pos.hands[1] | pos.hands[3]))
    size = bin(pos.hands[1]).count("1")
    out = []
    for chosen in combinations(pool, size):
        left = sum(1 << c for c in chosen)
        right = (pos.hands[1] | pos.hands[3]) & ~left
        out.append(Position((pos.hands[0], left, pos.hands[2], right), pos.leader, pos.trick,
                            pos.spades_broken, pos.breaking))
    return out


def ending_cases(cards: Sequence[int], count: int, seed: int, solver: Solver) -> List[Case]:
    cases = []
    for k in cards:
        for i, hands in enumerate(random_seat_deals(count, seed, k)):
            pos = Position((hands[0], hands[1], hands[2], hands[3]), 0)
            worlds = defender_layouts(pos)
            tricks = sorted(solver.max_tricks(w, DECLARER_SIDE) for w in worlds)
            need = max(1, tricks[len(tricks) // 2])    # reached in about half the layouts
            cases.append((f"seed {seed} #{i}", k, worlds, need))
    return cases


def bundled_cases(paths: Sequence[str], tricks_left: Sequence[int], solver: Solver) -> List[Case]:
    cases = []
    for path in paths:
        deal = load_deal(os.path.join(ROOT, path))
        if deal.auction is None:
            continue
        for left in tricks_left:
            board = deal.board()
            line = solver.optimal_line(board.position, side_of(board.to_move or 0))
            played = list(deal.played)
            for card in line:
                seat = board.to_move
                if seat is None:
                    break
                if board.tricks_left <= left and side_of(seat) == DECLARER_SIDE \
                        and board.current_trick.cards == ():
                    break
                board.push(card)
                played.append(card)
            if board.is_over or side_of(board.to_move or 0) != DECLARER_SIDE:
                continue
            q = sd.question_of(deal.with_played(played))
            listed, _ = sd.exact_layouts(q, 1, "uniform") if q.space.count() <= 5000 \
                else ([], None)
            if not listed:
                continue
            won = board.side_won(DECLARER_SIDE)
            goal = sd.default_goal(q)
            cases.append((os.path.basename(path), board.tricks_left,
                          [q.position(w.layout) for w in listed], goal - won))
    return cases


def measure(cases: List[Case], lookaheads: Sequence[int], time_limit: float,
            solver: Solver) -> None:
    rows: Dict[Tuple[int, int], List[Tuple[float, float, int, int, bool]]] = {}
    for name, left, worlds, need in cases:
        base: Optional[float] = None
        for m in lookaheads:
            solver.clear()
            start = time.process_time()
            found = alphamu.search(worlds, DECLARER_SIDE, need, m, solver,
                                   deadline=time.monotonic() + time_limit)
            cpu = time.process_time() - start
            if m == 1:
                base = cpu
            ratio = cpu / base if base else float("nan")
            rows.setdefault((left, m), []).append(
                (cpu, ratio, found.nodes, found.leaves, found.stopped_by is not None))
            print(f"  {name}: {left} cards, {len(worlds)} layouts, M={m}: {cpu:.3f} s, "
                  f"x{ratio:.1f}, completed {found.completed}"
                  + (f" ({found.stopped_by})" if found.stopped_by else ""), file=sys.stderr)
    print("| cards left | M | positions | median s | largest s | median ratio to M=1 "
          "| median αμ nodes | median leaves | stopped |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (left, m), r in sorted(rows.items()):
        print(f"| {left} | {m} | {len(r)} | {statistics.median(x[0] for x in r):.3f} "
              f"| {max(x[0] for x in r):.3f} | {statistics.median(x[1] for x in r):.1f} "
              f"| {statistics.median(x[2] for x in r):,.0f} "
              f"| {statistics.median(x[3] for x in r):,.0f} | {sum(x[4] for x in r)} |")


def cut_work(cases: List[Case], lookahead: int, time_limit: float, solver: Solver) -> None:
    variants = {"all cuts": alphamu.ALL_CUTS, "no early cut": alphamu.Cuts(early=False),
                "no cut on win": alphamu.Cuts(win=False),
                "no transposition table": alphamu.Cuts(table=False),
                "none": alphamu.Cuts(False, False, False)}
    totals = {name: [0, 0, 0, 0.0, 0] for name in variants}
    for name, left, worlds, need in cases:
        answers = None
        for label, cuts in variants.items():
            solver.clear()
            start = time.process_time()
            found = alphamu.search(worlds, DECLARER_SIDE, need, lookahead, solver, cuts=cuts,
                                   deadline=time.monotonic() + time_limit)
            t = totals[label]
            t[0] += found.nodes
            t[1] += found.leaves
            t[2] += found.engine_nodes
            t[3] += time.process_time() - start
            t[4] += found.stopped_by is not None
            got = [c.value for c in found.cards] if found.stopped_by is None else None
            if answers is None:
                answers = got
            elif got is not None and got != answers:
                raise SystemExit(f"{name}: {label} changed the answers: {got} != {answers}")
    print(f"M = {lookahead}, {len(cases)} positions, sums:\n")
    print("| cuts | αμ nodes | leaves | engine nodes | CPU s | stopped |")
    print("| --- | --- | --- | --- | --- | --- |")
    for label, (nodes, leaves, engine, cpu, stopped) in totals.items():
        print(f"| {label} | {nodes:,} | {leaves:,} | {engine:,} | {cpu:.2f} | {stopped} |")


def main(argv: Optional[List[str]] = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    e = sub.add_parser("endings")
    e.add_argument("--cards", type=int, nargs="+", default=[3, 4, 5, 6])
    e.add_argument("--count", type=int, default=10)
    e.add_argument("--seed", type=int, default=1)
    c = sub.add_parser("cuts")
    c.add_argument("--cards", type=int, nargs="+", default=[4, 5])
    c.add_argument("--count", type=int, default=10)
    c.add_argument("--seed", type=int, default=1)
    b = sub.add_parser("bundled")
    b.add_argument("--tricks-left", type=int, nargs="+", default=[3, 4, 5, 6])
    b.add_argument("deals", nargs="*", default=list(BUNDLED))
    for p in (e, b, c):
        p.add_argument("--lookahead", type=int, nargs="+", default=[1, 2, 3, 4])
        p.add_argument("--time-limit", type=float, default=20.0)
        p.add_argument("--tt-mb", type=float, default=64.0)
    args = ap.parse_args(argv)
    solver = make_solver(args.tt_mb)
    lookaheads = sorted(set([1] + list(args.lookahead)))
    if args.what == "cuts":
        cases = ending_cases(args.cards, args.count, args.seed, solver)
        cut_work(cases, max(args.lookahead), args.time_limit, solver)
        return
    if args.what == "endings":
        cases = ending_cases(args.cards, args.count, args.seed, solver)
    else:
        cases = bundled_cases(args.deals, args.tricks_left, solver)
    measure(cases, lookaheads, args.time_limit, solver)


if __name__ == "__main__":
    main()
