#!/usr/bin/env python3
"""Every-card analysis beside one solve and beside DDS's all-cards mode.

    python benches/compare_dds_cards.py [--deals 100] [--seed 1] [--leader W]

On ``--deals`` random full deals (seeded, the deals of
``benches/compare_dds.py``), at the opening lead, spade-breaking rule off,
one process, each question from a cold table:

1. ours, one solve: ``max_tricks`` of the leader's side;
2. ours, every card: ``card_values`` (the value of every legal lead);
3. DDS through endplay, one solve: ``SolveBoard`` target -1, solutions 1;
4. DDS, every card: ``SolveBoard`` target -1, solutions 3 (all cards with
   their scores, equal cards folded into ``equals``).

It checks that the card values agree with DDS's (exit code 1 if not) and
prints each total and median, and the two ratios the speed targets name:
our every-card time over our one solve, and our every-card time over DDS's.
Times are CPU time of this process (``time.process_time``).
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import Dict, List, Sequence, Tuple

from _util import SEATS, dds_board, deal_command, load_engine, pbn, random_deals, side_of

from dummy_spades.solver.position import Position  # noqa: E402

BAR_EVERY_CARD_OVER_ONE = 2.5    # ours: every-card time / one-solve time
BAR_EVERY_CARD_OVER_DDS = 1.0    # every-card time: ours / DDS


def dds_card_values(board, solutions: int) -> Dict[int, int]:
    """DDS's ``SolveBoard`` (target -1): ``{card: tricks of the side on
    lead}`` for every card it reports (solutions 3: every legal card, the
    ``equals`` ranks unfolded; solutions 1: one best card)."""
    from endplay import _dds

    fut = _dds.futureTricks()
    _dds.SolveBoard(board._data, -1, solutions, 1, fut, 0)
    values: Dict[int, int] = {}
    for i in range(fut.cards):
        suit = fut.suit[i]
        for rank in [fut.rank[i]] + [r for r in range(2, 15) if fut.equals[i] >> r & 1]:
            values[suit * 13 + rank - 2] = fut.score[i]
    return values


def median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def timed(fn) -> Tuple[object, float]:
    t0 = time.process_time()
    out = fn()
    return out, (time.process_time() - t0) * 1000.0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100, help="number of random deals (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="random seed of the deals (default 1)")
    ap.add_argument("--leader", default="W", choices=list(SEATS), help="opening leader (default W)")
    ap.add_argument("--no-dds", action="store_true", help="run our engine only (no DDS, no check)")
    args = ap.parse_args(argv)
    if args.deals < 1:
        ap.error("--deals must be at least 1")

    leader = SEATS.index(args.leader)
    side = side_of(leader)
    deals = random_deals(args.deals, args.seed, 13)
    solver = load_engine()(None)
    print(f"{args.deals} random full deals (seed {args.seed}: {deal_command(args.deals, args.seed)}), "
          f"leader {args.leader}, opening lead, "
          f"breaking off, cold table per question; CPU ms")

    one_ms: List[float] = []
    every_ms: List[float] = []
    ours: List[Dict[int, int]] = []
    for hands in deals:
        pos = Position(hands, leader, breaking=False)
        solver.clear()
        _, ms = timed(lambda: solver.max_tricks(pos, side))
        one_ms.append(ms)
        solver.clear()
        values, ms = timed(lambda: solver.card_values(pos, side))
        every_ms.append(ms)
        ours.append(values)  # type: ignore[arg-type]
    print(f"ours, one solve        total {sum(one_ms) / 1000:7.2f} s   median {median(one_ms):7.2f} ms")
    print(f"ours, every card       total {sum(every_ms) / 1000:7.2f} s   median {median(every_ms):7.2f} ms")
    over_one = sum(every_ms) / max(1e-9, sum(one_ms))
    print(f"every card / one solve (ours): total {over_one:.2f}x, median of per-deal ratios "
          f"{median([e / o for e, o in zip(every_ms, one_ms) if o > 0]):.2f}x "
          f"(target at most {BAR_EVERY_CARD_OVER_ONE}x)")
    if args.no_dds:
        return 0

    boards = [dds_board(hands, leader) for hands in deals]
    dds_card_values(dds_board(random_deals(1, args.seed + 10**6, 13)[0], leader), 1)  # load, warm
    # one pass per mode: DDS keeps its table while the deal stays the same,
    # and empties it for a new deal, so each question starts cold
    dds_one = [timed(lambda: dds_card_values(board, 1))[1] for board in boards]
    dds_every: List[float] = []
    bad = 0
    for i, board in enumerate(boards):
        want, ms = timed(lambda: dds_card_values(board, 3))
        dds_every.append(ms)
        if want != ours[i]:
            bad += 1
            if bad <= 10:
                print(f"MISMATCH deal {i}: {pbn(deals[i])}")
    print(f"DDS, one solve         total {sum(dds_one) / 1000:7.2f} s   median {median(dds_one):7.2f} ms")
    print(f"DDS, every card        total {sum(dds_every) / 1000:7.2f} s   median {median(dds_every):7.2f} ms")
    print(f"every card / one solve (DDS): total {sum(dds_every) / max(1e-9, sum(dds_one)):.2f}x")
    over_dds = sum(every_ms) / max(1e-9, sum(dds_every))
    print(f"every card, ours / DDS: total {over_dds:.2f}x, median of per-deal ratios "
          f"{median([o / d for o, d in zip(every_ms, dds_every) if d > 0]):.2f}x "
          f"(target at most {BAR_EVERY_CARD_OVER_DDS}x)")
    print(f"agreement: {len(deals) - bad}/{len(deals)} deals, every card's value")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
