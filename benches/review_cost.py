#!/usr/bin/env python3
"""The cost of ``dummy-spades review`` against one full solve of the same hand.

    python benches/review_cost.py [--deals 30] [--seed 1] [--mistakes 0.1]

For each of the first ``--deals`` deals of ``benches/deals/full-50.pbn`` (as
a deal file would hold them: Alice declares, Alice leads; spade breaking on)
and for ``hands/bag-penalty.yaml``: a played hand is made by following an
optimal line with one card in ``1 / --mistakes`` chosen at random among the
legal cards (seeded). Then, each with a fresh solver of the same size, in
one process: one full solve from the opening lead (one ``max_tricks``, the
question of ``solve``) and the whole review (``solver.review.review``:
every card judged, the scores at each mistake). It prints the CPU seconds
and engine nodes of both, per deal and in total, and the ratios
review / full solve (total, median and max per deal).
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from dummy_spades.solver import analysis  # noqa: E402
from dummy_spades.solver.auction import Auction, Bid  # noqa: E402
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.limits import DEFAULT_TT_MB  # noqa: E402
from dummy_spades.solver.batch import read_deals  # noqa: E402
from dummy_spades.solver.deal import Deal  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.review import review  # noqa: E402
from dummy_spades.solver.seating import DECLARER_SIDE  # noqa: E402

PLAYERS = ("Alice", "Bob", "Carol")
AUCTION = Auction(PLAYERS, "Carol", (Bid("Alice", 7), Bid("Bob", 3), Bid("Carol", 2)))


def played_hand(deal: Deal, rng: random.Random, mistakes: float) -> Deal:
    """The deal with a whole hand played: an optimal line, with a random
    legal card instead at a rate of ``mistakes``."""
    board = deal.board()
    solver = make_solver()
    while not board.is_over:
        if rng.random() < mistakes:
            board.push(rng.choice(board.legal_moves()))
        else:
            board.push(analysis.optimal_line(board, solver).cards[0])
    return deal.with_played(board.moves)


def measure(deal: Deal, tt_mb: float):
    start = deal.opening_board()
    solver = make_solver(tt_mb)
    t = time.process_time()
    analysis.dd_side_tricks(start, DECLARER_SIDE, solver)
    full = time.process_time() - t, solver.nodes
    solver = make_solver(tt_mb)
    t = time.process_time()
    r = review(deal, solver)
    whole = time.process_time() - t, solver.nodes
    return full, whole, len(r.mistakes)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--mistakes", type=float, default=0.1)
    ap.add_argument("--tt-mb", type=float, default=DEFAULT_TT_MB)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cases = [("hands/bag-penalty.yaml", load_deal(os.path.join(ROOT, "hands", "bag-penalty.yaml")))]
    for i, d in enumerate(read_deals(os.path.join(ROOT, "benches", "deals", "full-50.pbn"))):
        if i >= args.deals:
            break
        deal = Deal.from_pbn(d.pbn, PLAYERS, "Carol", auction=AUCTION)
        cases.append((f"full-50 #{i + 1}", played_hand(deal, rng, args.mistakes)))
    print(f"{'deal':<24} {'full s':>8} {'nodes':>10} {'review s':>9} {'nodes':>10} "
          f"{'ratio':>6} {'mistakes':>8}")
    ratios, tf, tr, nf, nr = [], 0.0, 0.0, 0, 0
    for name, deal in cases:
        (fs, fn), (rs, rn), m = measure(deal, args.tt_mb)
        ratio = rs / fs if fs else float("inf")
        print(f"{name:<24} {fs:8.3f} {fn:10d} {rs:9.3f} {rn:10d} {ratio:6.1f} {m:8d}")
        if name.startswith("full-50"):
            ratios.append(ratio)
            tf, tr, nf, nr = tf + fs, tr + rs, nf + fn, nr + rn
    print(f"\nfull-50 deals: {len(ratios)}; total CPU full solve {tf:.2f} s, review {tr:.2f} s: "
          f"ratio {tr / tf:.2f} (nodes {nr / nf:.2f}); per deal median {statistics.median(ratios):.2f}, "
          f"max {max(ratios):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
