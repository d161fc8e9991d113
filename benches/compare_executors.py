#!/usr/bin/env python3
"""The executors side by side: the local process pool and a Dask cluster.

    python benches/compare_executors.py [--deals 200] [--cards 13] [--samples 400]
                                        [--only jobs1,jobs2,local1,local2] [--no-bid] [--no-batch]
                                        [--repeat 1]

For each executor (``--jobs 1``, ``--jobs 2``, ``--cluster local:1``,
``--cluster local:2``) it times, wall clock, start-up included:

* ``batch`` on ``--deals`` random deals (seeded; ``--cards`` a hand), leader
  W, side NS, the spade-breaking rule on: deals/s;
* ``bid`` on ``--bid-file`` (hands/three-peeky.yaml) for ``--bid-player``
  (Carol) with ``--samples`` samples (seed 1): samples/s.

``--repeat N`` runs the executors N times in turn (a line each). It checks
that every executor gives the same tricks and the same bid analysis (exit 1
if not), prints the wall-time ratio of ``local:2`` to ``--jobs 2`` on the
batch for each round and their median (the bar: at most 1.15), then
measures the
per-chunk overhead of a cluster (empty chunks through a one-worker local
cluster) and projects deals/s to N workers from it and the single-worker
rate (the table of docs/CLUSTER.md; how it is computed is printed below it).
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from typing import Dict, List, Tuple

from _util import ROOT, deal_command, pbn, random_deals

from dummy_spades.solver import bid as sim  # noqa: E402
from dummy_spades.solver import run  # noqa: E402
from dummy_spades.solver.batch import BatchDeal, BatchOptions, run_batch  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.simulation import Settings  # noqa: E402

EXECUTORS = {"jobs1": (1, None), "jobs2": (2, None), "local1": (None, "local:1"),
             "local2": (None, "local:2")}
BAR = 1.15


def make(name: str) -> run.Executor:
    jobs, cluster = EXECUTORS[name]
    return run.executor(jobs, cluster, 60.0)


def time_batch(name: str, deals: List[BatchDeal]) -> Tuple[float, List[int]]:
    start = time.perf_counter()
    with make(name) as ex:
        tricks = [r.tricks for r in run_batch(deals, BatchOptions(), ex)]
    return time.perf_counter() - start, tricks


def time_bid(name: str, samples: int, path: str, player: str) -> Tuple[float, object]:
    k = sim.Knowledge.from_deal(load_deal(os.path.join(ROOT, path)), player)
    start = time.perf_counter()
    with make(name) as ex:
        analysis = sim.analyse(k, Settings(samples=samples, seed=1), executor=ex)
    return time.perf_counter() - start, analysis.results


def chunk_overhead(chunks: int = 2000) -> Tuple[float, float, float]:
    """Seconds of a one-worker local cluster: ``(start, first answer and
    close, a chunk's sequential round trip, a chunk with chunks queued)``
    (empty chunks, sent as :class:`DaskExecutor` sends them)."""
    from dummy_spades.solver.run.cluster import DaskExecutor, run_chunk

    work = run.Work(_echo, None, _nothing)
    start = time.perf_counter()
    with DaskExecutor("local:1", timeout=60) as ex:
        list(ex.map(work, [0], total=1))
    startup = time.perf_counter() - start
    with DaskExecutor("local:1", timeout=60) as ex:
        client = ex.client
        client.submit(run_chunk, work, [0], pure=False).result()      # warm up
        start = time.perf_counter()
        for i in range(200):
            client.submit(run_chunk, work, [i], pure=False).result()
        round_trip = (time.perf_counter() - start) / 200
        start = time.perf_counter()
        futures = [client.submit(run_chunk, work, [i], pure=False) for i in range(chunks)]
        client.gather(futures)
        queued = (time.perf_counter() - start) / chunks
    return startup, round_trip, queued


def _nothing() -> None:
    return None


def _echo(resource: None, context: None, item: int) -> int:
    return item


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--cards", type=int, default=13)
    ap.add_argument("--samples", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--only", default=",".join(EXECUTORS))
    ap.add_argument("--no-bid", action="store_true")
    ap.add_argument("--no-batch", action="store_true")
    ap.add_argument("--bid-file", default="hands/three-peeky.yaml")
    ap.add_argument("--bid-player", default="Carol")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    names = [n for n in args.only.split(",") if n]
    deals = [BatchDeal(h, i + 1) for i, h in enumerate(random_deals(args.deals, args.seed, args.cards))]
    print(f"batch: {args.deals} deals of {args.cards} cards a hand "
          f"({deal_command(args.deals, args.seed, args.cards)}; first "
          f"{pbn(deals[0].hands)}); bid: {args.samples} samples, {args.bid_file}, "
          f"{args.bid_player}")
    print(f"{'executor':<10} {'batch s':>8} {'deals/s':>8} {'bid s':>8} {'samples/s':>10}")
    walls: Dict[str, List[float]] = {name: [] for name in names}
    answers: Dict[str, object] = {}
    bids: Dict[str, object] = {}
    for _ in range(max(1, args.repeat)):
        for name in names:
            line = f"{name:<10}"
            if args.no_batch:
                line += f" {'-':>8} {'-':>8}"
            else:
                wall, tricks = time_batch(name, deals)
                walls[name].append(wall)
                answers[name] = tricks
                line += f" {wall:>8.2f} {len(deals) / wall:>8.2f}"
            if not args.no_bid:
                bwall, results = time_bid(name, args.samples, args.bid_file, args.bid_player)
                bids[name] = results
                line += f" {bwall:>8.2f} {args.samples / bwall:>10.2f}"
            print(line, flush=True)
    same = len({tuple(t) for t in answers.values()}) <= 1 and \
        all(r == next(iter(bids.values())) for r in bids.values())
    print("same answers from every executor:", "yes" if same else "NO")
    if walls.get("jobs2") and walls.get("local2"):
        ratios = [c / p for p, c in zip(walls["jobs2"], walls["local2"])]
        ratio = statistics.median(ratios)
        print(f"local:2 / jobs 2 wall on the batch: {' '.join(f'{r:.3f}' for r in ratios)}; "
              f"median {ratio:.3f} (bar {BAR}: {'met' if ratio <= BAR else 'NOT met'})")
    startup, round_trip, queued = chunk_overhead()
    print(f"cluster overhead: {startup:.2f} s to start local:1, answer a chunk and close; a chunk "
          f"{1000 * round_trip:.2f} ms a round trip, {1000 * queued:.2f} ms with chunks queued")
    if walls.get("local1"):
        per_deal = max(1e-6, statistics.median(walls["local1"]) - startup) / len(deals)
        chunk = max(1, min(int(0.5 / per_deal), 1_000_000))
        print(f"projection (single worker {per_deal * 1000:.1f} ms a deal, chunk {chunk} "
              f"deal(s), {1000 * queued:.2f} ms a chunk at the scheduler):")
        print(f"{'workers':>8} {'deals/s':>10} {'limited by':>12}")
        for n in (1, 2, 4, 8, 16, 32, 64, 128, 256):
            workers_rate = n / (per_deal + queued / chunk)
            scheduler_rate = chunk / queued
            rate = min(workers_rate, scheduler_rate)
            print(f"{n:>8} {rate:>10.1f} {'workers' if workers_rate <= scheduler_rate else 'scheduler':>12}")
        print("deals/s(N) = min(N / (t + o / c), c / o): t the single worker's seconds a deal "
              "((local:1 wall - start, first answer and close) / deals), o the seconds a chunk costs at the "
              "scheduler with chunks queued, c deals a chunk (0.5 s of work); start-up not counted")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
