#!/usr/bin/env python3
"""What conditioning on the earlier bids costs ``dummy-spades bid``, without the solves.

    python benches/conditioning_cost.py --samples 200 --seed 1

Conditioned sampling draws layouts, weighs each by the bidding model's
chance of the earlier bids and drops most of the unlikely ones before any
double-dummy solve. Its whole cost is that drawing: this script runs only the
drawing (``solver.bid.sampling.Sampler``, over ``solver.simulation.Rejection``)
for the bundled cases with earlier bids and for two extreme auctions on the hands of
``hands/earlier-bid-high.yaml``, and prints per case the draws per layout
solved, n_eff of the accepted layouts, the bidding-model evaluations per
layout and their CPU time per layout (the drawing thread's). Compare the
last column with the solves' tens to hundreds of milliseconds per layout
(docs/BENCHMARKS.md, "Bid simulation").
"""
from __future__ import annotations

import argparse
import sys
import time
from typing import List, Optional, Sequence, Tuple

from _util import ROOT  # noqa: F401  (puts the repository on sys.path)

from dummy_spades.solver.auction import Auction  # noqa: E402
from dummy_spades.solver.bid import Knowledge  # noqa: E402
from dummy_spades.solver.bid.sampling import Sampler  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402

#: (label, deal file, player, the earlier calls instead of the file's auction)
CASES: List[Tuple[str, str, str, Optional[Sequence[str]]]] = [
    ("`hands/three-peeky.yaml --player Bob`", "hands/three-peeky.yaml", "Bob", None),
    ("`hands/nil-candidate.yaml --player Bob`", "hands/nil-candidate.yaml", "Bob", None),
    ("`hands/earlier-bid-high.yaml`", "hands/earlier-bid-high.yaml", "Carol", None),
    ("`hands/earlier-bid-low.yaml`", "hands/earlier-bid-low.yaml", "Carol", None),
    ("`hands/worked-example.yaml --player Carol`", "hands/worked-example.yaml", "Carol", None),
    ("Bob of `earlier-bid-high.yaml` after an opening 13", "hands/earlier-bid-high.yaml", "Bob",
     ["13"]),
    ("Carol of `earlier-bid-high.yaml` after 12 and 0 nil self", "hands/earlier-bid-high.yaml",
     "Carol", ["12", "0 nil self"]),
]


def knowledge(path: str, player: str, calls: Optional[Sequence[str]]) -> Knowledge:
    deal = load_deal(f"{ROOT}/{path}")
    k = Knowledge.from_deal(deal, player) if calls is None else Knowledge(
        player, deal.players, deal.dealer, deal.hands[player], deal.variant.known_to(player),
        Auction.from_calls(deal.players, deal.dealer, calls).bids)
    return k


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--samples", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.samples < 1:
        ap.error("--samples must be at least 1")
    print(f"python benches/conditioning_cost.py --samples {args.samples} --seed {args.seed}\n")
    print("| case (earlier bids) | draws per layout solved | n_eff of "
          f"{args.samples} | model evaluations per layout | CPU per layout |")
    print("|---|---|---|---|---|")
    for label, path, player, calls in CASES:
        k = knowledge(path, player, calls)
        start = time.thread_time()
        sampler = Sampler(k, args.seed)
        draws = list(sampler.draws(args.samples))
        cpu = time.thread_time() - start
        report = sampler.report(draws, "draws" if sampler.capped else "samples")
        n = max(1, report.accepted)
        bids = ", ".join(b.call() for b in k.bids)
        capped = f" (stopped by the draw cap at {report.accepted})" if sampler.capped else ""
        print(f"| {label} ({bids}){capped} | {report.drawn / n:.1f} | "
              f"{report.effective_samples:.1f} | {report.evaluations / n:.0f} | "
              f"{1000 * cpu / n:.2f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
