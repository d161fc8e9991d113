#!/usr/bin/env python3
"""The bid speed bar, measured against DDS in the same run.

    python benches/bid_bar.py                      # the bar case, then flip-2 and nil-candidate
    python benches/bid_bar.py --case three-peeky   # the bar case only
    python benches/bid_bar.py --bid-option=--no-controls   # bid without control variates

For each case it times, one after the other in this order:

1. DDS (endplay's ``SolveBoard``, one thread, target -1, solutions 1) on
   the 200 deals of ``benches/compare_dds.py`` (seed 1, leader W), total
   wall time;
2. ``dummy-spades bid FILE --player P --precision 1.6 --samples 6000
   --jobs 2 --json`` as its own process, wall time (start-up, sampling,
   solving in two worker processes, statistics);
3. DDS on the same 200 deals again.

The figure is the bid's wall time over the mean of the two DDS times: the
machine is the yardstick, so the ratio carries between machines where
seconds do not. The bar: at most 6 on ``hands/three-peeky.yaml --player
Carol``; the other two cases are reported beside it. Also printed: the
samples the precision needed and the bid's largest standard error. Run it
on a quiet machine (``flock /work/quiet.lock chrt -r 10 python
benches/bid_bar.py``); the bid's JSON is written to ``--out DIR`` if given.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from typing import List, Tuple

from _util import ROOT, random_deals
from compare_dds import time_dds

CASES = {"three-peeky": ("hands/three-peeky.yaml", "Carol"),
         "flip-2": ("hands/flip-2.yaml", "Bob"),
         "nil-candidate": ("hands/nil-candidate.yaml", "Bob")}
BAR_CASE = "three-peeky"
BAR = 6.0
LEADER_W = 3


def dds_seconds(deals) -> float:
    _, ms, _ = time_dds(deals, LEADER_W)
    return sum(ms) / 1000.0


def bid_seconds(path: str, player: str, options: List[str]) -> Tuple[float, dict]:
    command = [sys.executable, "-m", "dummy_spades.cli", "bid", os.path.join(ROOT, path),
               "--player", player, "--precision", "1.6", "--samples", "6000", "--jobs", "2",
               "--json", *options]
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return time.perf_counter() - start, json.loads(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", action="append", choices=list(CASES),
                    help="a case (repeatable; default all three, the bar case first)")
    ap.add_argument("--bid-option", action="append", default=[], metavar="OPTION",
                    help="an extra option for the bid command (repeatable)")
    ap.add_argument("--out", metavar="DIR", help="write each bid's JSON there")
    args = ap.parse_args()
    deals = random_deals(200, 1)
    ok = True
    for name in args.case or list(CASES):
        path, player = CASES[name]
        before = dds_seconds(deals)
        wall, report = bid_seconds(path, player, args.bid_option)
        after = dds_seconds(deals)
        dds = (before + after) / 2
        ratio = wall / dds
        if args.out:
            with open(os.path.join(args.out, f"{name}.json"), "w") as f:
                json.dump(report, f, indent=1)
        largest = report["sampling"].get("precision", {}).get("largest_se")
        bar = f" (bar: at most {BAR:g}: {'PASS' if ratio <= BAR else 'FAIL'})" if name == BAR_CASE else ""
        print(f"{name} ({os.path.basename(path)} --player {player}): bid {wall:.1f} s wall, "
              f"{report['samples']} samples (largest SE {largest}, stopped by "
              f"{report['sampling']['stopped_by']}); DDS 200 deals {before:.2f} s before, "
              f"{after:.2f} s after, mean {dds:.2f} s; bid / DDS = {ratio:.2f}{bar}", flush=True)
        if name == BAR_CASE:
            ok &= ratio <= BAR
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
