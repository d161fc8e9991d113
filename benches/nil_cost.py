#!/usr/bin/env python3
"""The price of the nil-aware every-card question against the plain one.

    python benches/nil_cost.py [--deals 100] [--seed 1] [--nodes-out F | --nodes-check F]

On ``--deals`` seeded full deals with a plausible nil hand, at the opening
lead, one process, our engine only:

* the deal: in most deals (``--low``, default 80%) the nil hand's 13 cards
  are drawn from the deal's 26 lowest (ranks 2-7 and two of the four 8s,
  chosen at random), in the rest any 13; the other 39 cards are dealt at
  random to the other three hands.  The nil seat, the leader and the
  spade-breaking rule (on in two deals of three) are drawn per deal;
* the plain question: ``card_groups(pos, side)`` for the nil hand's side
  (two partners, their tricks counted), from a cold table;
* the nil-aware question: ``card_groups(pos, side, nil_seat=seat)``, from
  a cold table.

It prints the total time of each and their ratio (nil / plain), the median
and the worst per-deal ratio, the node totals and their ratio, the slowest
deals, and checks the bar: total ratio <= 2, worst per-deal ratio <= 5.
``--nodes-out`` / ``--nodes-check`` write / compare every deal's answers,
nodes and trick starts (exit 1 if an answer differs); ``--off NAME`` / ``--on
NAME`` switch techniques (``_engine.FEATURES``) for both questions.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from typing import List, Sequence, Tuple

from _util import SEATS, check_nodes, load_engine, pbn, write_nodes

from dummy_spades.solver.position import Position  # noqa: E402

BAR_TOTAL = 2.0      # nil / plain, total time
BAR_WORST = 5.0      # nil / plain, the worst deal
RANKS = 13


def nil_deal(rng: random.Random, low: bool) -> Tuple[Tuple[int, int, int, int], int]:
    """Four hands (seats N E S W) and the nil seat: its 13 cards from the 26
    lowest of the deck (``low``; ties among the 8s broken at random) or any 13."""
    deck = list(range(52))
    rng.shuffle(deck)
    seat = rng.randrange(4)
    if low:
        pool = sorted(deck, key=lambda c: c % RANKS)[:26]   # stable: the 8s in shuffled order
    else:
        pool = deck
    nil_cards = set(rng.sample(pool, 13))
    rest = [c for c in deck if c not in nil_cards]
    hands = [0, 0, 0, 0]
    for c in nil_cards:
        hands[seat] |= 1 << c
    others = [q for q in range(4) if q != seat]
    for i, c in enumerate(rest):
        hands[others[i // 13]] |= 1 << c
    return (hands[0], hands[1], hands[2], hands[3]), seat


def nil_deals(n: int, seed: int, low_share: float):
    """``n`` deals: (hands, nil seat, leader, breaking)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        hands, seat = nil_deal(rng, rng.random() < low_share)
        leader = rng.randrange(4)
        breaking = rng.random() < 2 / 3
        out.append((hands, seat, leader, breaking))
    return out


def median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def ask(solver, pos: Position, side: int, nil_seat):
    """One every-card question from a cold table: (answer, nodes, trick starts, seconds)."""
    solver.clear()
    t0 = time.perf_counter()
    groups = solver.card_groups(pos, side, nil_seat=nil_seat)
    dt = time.perf_counter() - t0
    answer = sorted([sorted(cards), v] for cards, v in groups)
    return answer, solver.nodes, solver.trick_nodes, dt


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=100, help="number of deals (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="random seed of the deals (default 1)")
    ap.add_argument("--low", type=float, default=0.8,
                    help="share of deals whose nil hand is drawn from the 26 lowest cards (default 0.8)")
    ap.add_argument("--tt-mb", type=float, default=None, help="table size in MB (default: the engine's)")
    ap.add_argument("--nodes-out", metavar="FILE", help="write each deal's answers, nodes and trick starts as JSON")
    ap.add_argument("--nodes-check", metavar="FILE",
                    help="compare with a --nodes-out file (exit 1 if an answer differs)")
    ap.add_argument("--off", action="append", default=[], metavar="FEATURE",
                    help="switch a technique off (repeatable; names in _engine.FEATURES)")
    ap.add_argument("--on", action="append", default=[], metavar="FEATURE",
                    help="switch a technique on (repeatable)")
    ap.add_argument("--slowest", type=int, default=5, help="list this many of the dearest deals (default 5)")
    args = ap.parse_args(argv)
    if args.deals < 1 or not 0.0 <= args.low <= 1.0:
        ap.error("--deals must be at least 1 and --low in 0..1")
    engine = load_engine()
    if args.off or args.on:
        from dummy_spades.solver import _engine
        unknown = sorted(set(args.off + args.on) - set(_engine.FEATURES))
        if unknown:
            ap.error(f"unknown technique {', '.join(unknown)} (known: {', '.join(_engine.FEATURES)})")
        _engine.set_features(**{name: False for name in args.off}, **{name: True for name in args.on})
        print(f"techniques off: {', '.join(args.off) or '-'}; on: {', '.join(args.on) or '-'}")
    solver = engine(args.tt_mb)
    deals = nil_deals(args.deals, args.seed, args.low)
    # warm the code paths (not the table) on a throwaway deal
    h, s, ld, br = nil_deals(1, args.seed + 10**6, args.low)[0]
    ask(solver, Position(h, ld, breaking=br), 5 if s % 2 == 0 else 10, s)

    print(f"{args.deals} deals of seed {args.seed}, nil hand from the 26 lowest cards in "
          f"{args.low:.0%} of them; the every-card question at the opening lead, cold table each; "
          f"engine {engine.__module__}")
    rows = {"plain": [], "nil": []}
    ratios: List[float] = []
    tot = {"plain": 0.0, "nil": 0.0}
    per_deal = []
    for i, (hands, seat, leader, breaking) in enumerate(deals):
        pos = Position(hands, leader, breaking=breaking)
        side = 5 if seat % 2 == 0 else 10
        res = {}
        for name, nil in (("plain", None), ("nil", seat)):
            answer, nodes, tn, dt = ask(solver, pos, side, nil)
            rows[name].append({"answer": answer, "nodes": nodes, "trick_nodes": tn})
            tot[name] += dt
            res[name] = (dt, nodes)
        r = res["nil"][0] / res["plain"][0]
        ratios.append(r)
        per_deal.append((r, i, seat, leader, breaking, res))
    nodes = {k: sum(r["nodes"] for r in v) for k, v in rows.items()}
    same = True
    if args.nodes_out:
        write_nodes(args.nodes_out, {"deals": args.deals, "seed": args.seed, "low": args.low}, rows)
    if args.nodes_check:
        same = check_nodes(args.nodes_check, rows)
    total = tot["nil"] / tot["plain"]
    worst = max(ratios)
    print(f"plain: total {tot['plain']:.2f} s, nodes {nodes['plain']:,}")
    print(f"nil:   total {tot['nil']:.2f} s, nodes {nodes['nil']:,}")
    print(f"nil / plain: total {total:.2f}x (nodes {nodes['nil'] / nodes['plain']:.2f}x), "
          f"median per deal {median(ratios):.2f}x, worst {worst:.2f}x")
    kept = sum(1 for row in rows["nil"] if max(v for _, v in row["answer"]) >= 0)
    print(f"deals where some card keeps the nil: {kept}/{args.deals}")
    print("dearest deals (ratio, deal, nil seat, leader, breaking, plain ms/nodes, nil ms/nodes):")
    for r, i, seat, leader, breaking, res in sorted(per_deal, reverse=True)[:args.slowest]:
        print(f"  {r:6.2f}x  #{i} nil {SEATS[seat]} lead {SEATS[leader]} breaking {'on' if breaking else 'off'}  "
              f"{res['plain'][0] * 1000:.1f} ms / {res['plain'][1]:,}  {res['nil'][0] * 1000:.1f} ms / "
              f"{res['nil'][1]:,}  {pbn(deals[i][0])}")
    ok_total, ok_worst = total <= BAR_TOTAL, worst <= BAR_WORST
    print(f"bar: total <= {BAR_TOTAL}x {'PASS' if ok_total else 'FAIL'}; worst <= {BAR_WORST}x "
          f"{'PASS' if ok_worst else 'FAIL'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
