#!/usr/bin/env python3
"""Calibration of ``dummy-spades bid``'s chances on deals nobody picked.

    python benches/calibrate_bid.py --deals 200 --samples 12 --seed 1 --jobs 2 --save calibration.jsonl

(about 50 minutes of both cores; ``--save`` keeps each deal as it is done,
so a stopped run resumes where it was, and a report on fewer deals, say
``--deals 50``, is printed from the saved ones without solving again).

For each of ``--deals`` random deals (deal ``i`` of seed ``S`` shuffled by
``random.Random(f"dummy-spades calibrate {S} {i}")``; players A, B, C,
dealer C, so A bids first and leads) it:

1. lets the bidding model make the earlier bids: A's call drawn from the
   model on A's hand, then B's on B's hand and A's number (a nil with the
   model's nil chance, else a number), seeded per deal;
2. asks ``bid``'s simulation, for the second bidder (B) and the third (C),
   for their chance that each plain bid 0-13 makes (the report's "makes":
   ``candidate_stats(...).make``; ``--samples`` layouts; only the full
   double-dummy solves, no nil question), by each method:

   * ``uniform``: ``--sampling uniform`` (uniform layouts,
     each later bidder bids their double-dummy tricks);
   * ``uniform+model``: uniform layouts, later bids by the model (the
     second bidder only; for the third it is ``uniform``);
   * ``conditioned``: ``--sampling conditioned`` with plain means
     (``--no-control-variates``);
   * ``conditioned+controls``: the same layouts with the control variates,
     ``bid``'s default (its paired difference from ``conditioned`` is
     printed too);

3. compares those chances with the deal's actual outcome: the player bids
   b, the later bidder (for B: C) calls by the model on their real hand
   (seeded per deal and bid), the auction rule names the declarer, and the
   real deal's double-dummy tricks say whether the player's side takes at
   least b.

It prints, per bidder and method, the Brier score (mean squared difference
of chance and outcome over the 14 bids of every deal; lower is better) with
its standard error over the deals, the paired difference from ``uniform``,
the effective sample size and the cost of the conditioning (model
evaluations and their time per solved layout), and a reliability table:
the chances in ten bins beside the frequency with which the bids made.
Layouts are solved once per deal and bidder and shared by the methods that
draw them. docs/BID.md quotes the output.
"""
from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import sys
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from _util import ROOT  # noqa: F401  (puts the repository on sys.path)

from dummy_spades.solver.auction import Bid, auction_winner  # noqa: E402
from dummy_spades.solver.bid import Knowledge  # noqa: E402
from dummy_spades.solver.simulation import model  # noqa: E402
from dummy_spades.solver.backend import make_solver  # noqa: E402
from dummy_spades.solver.bid.candidates import Candidate  # noqa: E402
from dummy_spades.solver.bid.layout import Plan, solve_layout  # noqa: E402
from dummy_spades.solver.bid.outcome import sample_outcome  # noqa: E402
from dummy_spades.solver.bid.sampling import Sampler, sample_layout  # noqa: E402
from dummy_spades.solver.simulation import CONDITIONED, UNIFORM  # noqa: E402
from dummy_spades.solver.bid.control import DRAWS_PER_SAMPLE as CONTROL_DRAWS_PER_SAMPLE  # noqa: E402
from dummy_spades.solver.bid.control import MIN_DRAWS as CONTROL_MIN_DRAWS  # noqa: E402
from dummy_spades.solver.bid.control import ControlDraws  # noqa: E402
from dummy_spades.solver.bid.summary import Layouts, candidate_stats  # noqa: E402
from dummy_spades.solver.scoring import DUMMY, TRICKS_PER_HAND  # noqa: E402

PLAYERS = ("A", "B", "C")
DEALER = "C"
METHODS = ("uniform", "uniform+model", "conditioned", "conditioned+controls")
BINS = 10


def deal(seed: int, index: int) -> Dict[str, int]:
    deck = list(range(52))
    random.Random(f"dummy-spades calibrate {seed} {index}").shuffle(deck)
    names = PLAYERS + (DUMMY,)
    return {n: sum(1 << c for c in deck[13 * i:13 * i + 13]) for i, n in enumerate(names)}


def model_call(rng: random.Random, name: str, hand: int, position: int,
               earlier: Sequence[int]) -> Bid:
    """A call drawn from the bidding model: nil on the own hand (bid 0) with
    the model's nil chance, else a number."""
    if rng.random() < model.nil_chance(hand):
        return Bid(name, 0, (name,))
    view = model.View(hand, 0, position, tuple(earlier))
    u, acc = rng.random(), 0.0
    chances = model.number_chances(model.estimate(view), model.spread(view))
    number = next((b for b, p in enumerate(chances) if u < (acc := acc + p)), TRICKS_PER_HAND)
    return Bid(name, number)


def earlier_bids(seed: int, index: int, hands: Dict[str, int]) -> Tuple[Bid, Bid]:
    rng = random.Random(f"dummy-spades calibrate bids {seed} {index}")
    first = model_call(rng, "A", hands["A"], 0, ())
    return first, model_call(rng, "B", hands["B"], 1, (first.tricks,))


_SOLVER: List[Any] = []


def calibrate_deal(job: Tuple[int, int, int]) -> Dict[str, Any]:
    """The predicted chances and the outcomes of one deal, per bidder and method."""
    seed, index, samples = job
    if not _SOLVER:
        _SOLVER.append(make_solver())
    solver = _SOLVER[0]
    hands = deal(seed, index)
    bids = earlier_bids(seed, index, hands)
    truth = Knowledge("A", PLAYERS, DEALER, hands["A"])
    plan = Plan()                                     # full solves only: plain bids
    real = solve_layout(solver, truth, hands, plan)
    out: Dict[str, Any] = {"seed": seed, "samples": samples, "index": index,
                           "bids": [b.call() for b in bids]}
    for position in (1, 2):
        player = PLAYERS[position]
        k = Knowledge(player, PLAYERS, DEALER, hands[player], bids=bids[:position])
        sample_seed = seed * 1_000_000 + index
        solved: Dict[int, object] = {}
        rows: Dict[str, Any] = {}
        for method in METHODS:
            if method == "uniform+model" and position == 2:
                continue
            conditioned = method.startswith("conditioned")
            sampler = Sampler(k, sample_seed, UNIFORM if method == "uniform" else CONDITIONED,
                              condition=conditioned)
            draws = list(sampler.draws(samples))
            results = []
            for d in draws:
                if d.index not in solved:
                    layout = sample_layout(k, sample_seed, d.index)
                    solved[d.index] = solve_layout(solver, k, layout, plan, d.index)
                results.append(solved[d.index])
            controls = None
            if method == "conditioned+controls":
                controls = ControlDraws(k, sample_seed, CONDITIONED)
                controls.extend(max(CONTROL_MIN_DRAWS, CONTROL_DRAWS_PER_SAMPLE * len(results)))
            layouts = Layouts(k, results, None if method == "uniform" else draws, controls,
                              [d.index for d in draws])
            chances = [candidate_stats(k, plan, Candidate(b), layouts).make.value
                       for b in range(TRICKS_PER_HAND + 1)]
            report = sampler.report(draws, "samples")
            rows[method] = {"chances": chances, "n_eff": report.effective_samples,
                            "drawn": report.drawn, "evaluations": report.evaluations,
                            "model_seconds": report.seconds}
        outcomes = []
        for b in range(TRICKS_PER_HAND + 1):
            calls = [(x.player, x.tricks) for x in bids[:position]] + [(player, b)]
            if position == 1:
                rng = random.Random(f"dummy-spades calibrate outcome {seed} {index} {b}")
                call = model_call(rng, "C", hands["C"], 2, [t for _, t in calls])
                calls.append(("C", call.tricks))
            declarer = auction_winner(calls)
            outcomes.append(sample_outcome(k, plan, Candidate(b), real, declarer).made)
        out[player] = {"methods": rows, "outcomes": outcomes}
    return out


def mean_se(values: Sequence[float]) -> Tuple[float, float]:
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, math.nan
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1) / n)


def brier(chances: Sequence[float], outcomes: Sequence[bool]) -> float:
    return sum((p - o) ** 2 for p, o in zip(chances, outcomes)) / len(chances)


def report(deals: List[Dict[str, Any]], samples: int) -> str:
    lines = []
    for player, label in (("B", "second bidder"), ("C", "third bidder")):
        lines.append(f"\n{label} ({player}), {len(deals)} deals, Brier score over bids 0-13 "
                     "(± one standard error over the deals):\n")
        lines.append("| method | Brier | minus uniform (paired) | mean n_eff | draws per layout "
                     "| model evaluations per layout | model ms per layout |")
        lines.append("|---|---|---|---|---|---|---|")
        base = [brier(d[player]["methods"]["uniform"]["chances"], d[player]["outcomes"])
                for d in deals]
        for method in METHODS:
            if method not in deals[0][player]["methods"]:
                continue
            rows = [d[player]["methods"][method] for d in deals]
            scores = [brier(r["chances"], d[player]["outcomes"]) for r, d in zip(rows, deals)]
            m, se = mean_se(scores)
            dm, dse = mean_se([a - b for a, b in zip(scores, base)])
            n_eff = sum(r["n_eff"] for r in rows) / len(rows)
            drawn = sum(r["drawn"] for r in rows) / len(rows) / samples
            evals = sum(r["evaluations"] for r in rows) / len(rows) / samples
            ms = 1000 * sum(r["model_seconds"] for r in rows) / len(rows) / samples
            diff = "—" if method == "uniform" else f"{dm:+.4f} ± {dse:.4f}"
            lines.append(f"| {method} | {m:.4f} ± {se:.4f} | {diff} | {n_eff:.1f} | {drawn:.1f} "
                         f"| {evals:.0f} | {ms:.1f} |")
        if "conditioned+controls" in deals[0][player]["methods"]:
            plain = [brier(d[player]["methods"]["conditioned"]["chances"], d[player]["outcomes"])
                     for d in deals]
            controlled = [brier(d[player]["methods"]["conditioned+controls"]["chances"],
                                d[player]["outcomes"]) for d in deals]
            dm, dse = mean_se([a - b for a, b in zip(controlled, plain)])
            lines.append(f"\nconditioned+controls minus conditioned (paired): {dm:+.4f} ± {dse:.4f}")
        lines.append(f"\nreliability ({label}): predicted chance in bins against the observed "
                     "frequency of making\n")
        methods = [m for m in METHODS if m in deals[0][player]["methods"]]
        lines.append("| chance | " + " | ".join(f"{m}: pairs, predicted, observed" for m in methods)
                     + " |")
        lines.append("|---|" + "---|" * len(methods))
        for b in range(BINS):
            lo, hi = b / BINS, (b + 1) / BINS
            cells = []
            for method in methods:
                pairs = [(p, o) for d in deals
                         for p, o in zip(d[player]["methods"][method]["chances"],
                                         d[player]["outcomes"])
                         if lo <= p < hi or (b == BINS - 1 and p == 1.0)]
                if not pairs:
                    cells.append("0")
                    continue
                pred = sum(p for p, _ in pairs) / len(pairs)
                obs = sum(o for _, o in pairs) / len(pairs)
                se = math.sqrt(max(obs * (1 - obs), 1e-12) / len(pairs))
                cells.append(f"{len(pairs)}, {pred:.3f}, {obs:.3f} ± {se:.3f}")
            lines.append(f"| {lo:.1f}-{hi:.1f} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def load_saved(path: Optional[str], seed: int, samples: int) -> Dict[int, Dict[str, Any]]:
    """The deals of an earlier run saved in ``path`` with the same seed and samples."""
    if not path or not os.path.exists(path):
        return {}
    saved = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d["seed"] == seed and d["samples"] == samples:
                saved[d["index"]] = d
    return saved


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--samples", type=int, default=12)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--save", metavar="FILE",
                    help="append each deal's chances and outcomes to FILE (JSON lines) as it "
                         "is done, and take the deals already there (same seed and samples) "
                         "instead of solving them again")
    args = ap.parse_args(argv)
    for name in ("deals", "samples", "jobs"):
        if getattr(args, name) < 1:
            ap.error(f"--{name} must be at least 1")
    start = time.monotonic()
    saved = load_saved(args.save, args.seed, args.samples)
    jobs = [(args.seed, i, args.samples) for i in range(args.deals) if i not in saved]
    out = open(args.save, "a", encoding="utf-8") if args.save else None
    try:
        with multiprocessing.get_context().Pool(args.jobs) as pool:
            for done, d in enumerate(pool.imap_unordered(calibrate_deal, jobs), 1):
                saved[d["index"]] = d
                if out is not None:
                    out.write(json.dumps(d) + "\n")
                    out.flush()
                if done % 10 == 0:
                    print(f"  {done}/{len(jobs)} deals, {time.monotonic() - start:.0f} s",
                          file=sys.stderr, flush=True)
    finally:
        if out is not None:
            out.close()
    deals = [saved[i] for i in range(args.deals)]
    print(f"python benches/calibrate_bid.py --deals {args.deals} --samples {args.samples} "
          f"--seed {args.seed}  ({time.monotonic() - start:.0f} s)")
    print(report(deals, args.samples))
    return 0


if __name__ == "__main__":
    sys.exit(main())
