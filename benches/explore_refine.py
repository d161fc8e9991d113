#!/usr/bin/env python3
"""How fast the explorer's player view refines its single-dummy figures, and
what a computer player's card costs in practice.

    python benches/explore_refine.py [--seconds 10] [--samples 1000] [--seed 1] [DEAL ...]

For each deal (default: ``DEFAULT_DEALS``) at the file's position (after its
played cards; with none, the opening lead), the player's view as the
explorer runs it in its background thread (``Exploration.refine``: one
solver, layouts solved one at a time, the figures recomputed about every
0.2 s): the layouts solved in ``--seconds`` of wall time (or all of them,
up to ``--samples`` or the exact limit), samples per second, the seconds to
the first figures (the conditioned pilot included), and the largest SE of a
card's expected tricks at the end. Then a computer player's card in
practice (``Exploration.computer_card``: ``PRACTICE_SAMPLES`` samples, exact
when there are at most as many layouts): its wall seconds.

Time it under ``flock /work/quiet.lock chrt -r 10`` on a shared machine.
"""
from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import replace
from typing import List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.exploration import (PRACTICE_SAMPLES, Exploration,  # noqa: E402
                                             SingleDummy)
from dummy_spades.solver.simulation import Settings  # noqa: E402

DEFAULT_DEALS = ("hands/worked-example.yaml", "hands/three-peeky.yaml", "hands/nil-bets.yaml",
                 "hands/mid-play.yaml")


def refine_speed(paths: List[str], seconds: float, samples: int, seed: int) -> None:
    print(f"The player's view, one background thread, at most {seconds:g} s wall or "
          f"{samples} samples (seed {seed}):\n")
    print("| deal | cards played | chooser | consistent layouts | mode | samples | s | "
          "samples/s | s to first figures | largest SE (tricks) | computer card s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        deal = load_deal(os.path.join(ROOT, path))
        x = Exploration(deal, single=SingleDummy(Settings(samples, seed)))
        ref = x.single_dummy()
        assert ref is not None
        start = time.monotonic()
        first: List[float] = []

        def update(_advice: object) -> None:
            if not first:
                first.append(time.monotonic() - start)

        x.refine(ref, lambda: time.monotonic() - start > seconds, update)
        wall = time.monotonic() - start
        a = ref.advice
        assert a is not None
        worst = max(c.tricks.se for c in a.cards)
        t = time.monotonic()
        comp = Exploration(deal, single=SingleDummy(replace(SingleDummy().view, seed=seed)))
        comp.start_practice(deal.players[0] if comp.chooser != deal.players[0]
                            else deal.players[1])
        if comp.computer_to_play:
            card = comp.computer_card()
            comp.refine(card, lambda: False, lambda _a: None)
            card_s = f"{time.monotonic() - t:.2f}"
        else:                      # pragma: no cover - the chooser is always a real player
            card_s = "-"
        print(f"| {os.path.basename(path)} | {len(deal.played)} | {ref.player} "
              f"| {a.consistent:,} | {a.method} | {a.samples} | {wall:.1f} "
              f"| {a.samples / wall:.1f} | {first[0] if first else math.nan:.2f} "
              f"| {worst:.3f} | {card_s} |")
    print(f"\n(computer card: {PRACTICE_SAMPLES} samples, exact at most {PRACTICE_SAMPLES} "
          "layouts)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("deals", nargs="*", default=list(DEFAULT_DEALS))
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    refine_speed(args.deals, args.seconds, args.samples, args.seed)


if __name__ == "__main__":
    main()
