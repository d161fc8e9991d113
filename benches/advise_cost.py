#!/usr/bin/env python3
"""The cost of ``dummy-spades advise``.

    python benches/advise_cost.py sample [--layouts 30] [--seed 1] [DEAL ...]
    python benches/advise_cost.py exact [--seed 1] [DEAL ...]
    python benches/advise_cost.py run [--samples 200] [--jobs 2] [--seed 1] [DEAL ...]
    python benches/advise_cost.py review [--jobs 2] [DEAL ...]

``sample``: at the opening lead of each deal (default: the three of
``DEFAULT_DEALS``), for the first ``--layouts`` layouts ``advise`` would
sample (seed ``--seed``), one sample's work (``solver.advise.solve_cards``:
the every-card question of the chooser's side and, per nil that counts, the
nil-aware one) against one full solve of the same layout (one
``max_tricks`` of the chooser's side from an empty table, the question of
``solve``), in one process with one solver. Prints the CPU milliseconds and
nodes of both, per deal, and the ratio sample / solve.

``exact``: for each deal played on along an optimal line, the positions
where the consistent layouts first number at most 10,000: the number of
layouts, the CPU seconds of the exact run (every layout, one process) and
the cost per layout. What ``--exact-limit``'s default rests on.

``run``: ``advise`` at the opening lead of each deal with ``--samples``
samples on ``--jobs`` worker processes, the wall time and CPU time of the
whole command (``dummy-spades advise FILE -n N --jobs J --json``).
``review``: ``dummy-spades review FILE --single-dummy --jobs J --json`` (default
deal ``hands/bag-penalty.yaml``; default samples), wall and CPU time, the
cards judged and each player's single-dummy points lost.

Time ``run`` and ``review`` under ``flock /work/quiet.lock chrt -r 10`` on a
shared machine.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from typing import Any, Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from dummy_spades.solver import advise as sd  # noqa: E402
from dummy_spades.solver.simulation import Settings  # noqa: E402
from dummy_spades.solver.backend import make_solver  # noqa: E402
from dummy_spades.solver.dealfile import load_deal  # noqa: E402
from dummy_spades.solver.limits import LAYOUT_TT_MB  # noqa: E402
from dummy_spades.solver.seating import side_of  # noqa: E402

DEFAULT_DEALS = ("hands/worked-example.yaml", "hands/three-peeky.yaml", "hands/nil-bets.yaml")


def sample_cost(paths: List[str], layouts: int, seed: int, tt_mb: float) -> None:
    print(f"One sample against one full solve of the same layout, opening lead, "
          f"{layouts} layouts of seed {seed}, one process, CPU time:\n")
    print("| deal | chooser | nils that count | solve ms | sample ms | ratio | solve nodes "
          "| sample nodes | queries per sample |")
    print("|---|---|---|---|---|---|---|---|---|")
    for path in paths:
        q = sd.question_of(load_deal(os.path.join(ROOT, path)))
        solver = make_solver(tt_mb)
        solve_t = sample_t = 0.0
        solve_n = sample_n = queries = 0
        for i in range(layouts):
            layout = q.space.sample(sd.layout_rng(seed, i))
            solver.clear()
            t = time.process_time()
            solver.max_tricks(q.board(layout).position, q.side)
            solve_t += time.process_time() - t
            solve_n += solver.nodes
            t = time.process_time()
            a = sd.solve_cards(solver, q, (i, layout))
            sample_t += time.process_time() - t
            sample_n += a.nodes
            queries += a.queries
        print(f"| {os.path.basename(path)} | {q.player} | {len(q.nil_seats())} "
              f"| {1000 * solve_t / layouts:.1f} | {1000 * sample_t / layouts:.1f} "
              f"| {sample_t / solve_t:.2f} | {solve_n // layouts:,} | {sample_n // layouts:,} "
              f"| {queries / layouts:.1f} |")


def exact_cost(paths: List[str], seed: int, tt_mb: float, top: int = 10_000) -> None:
    print("Exact runs (every consistent layout, uniform, one process), at the first "
          f"position of an optimal line with at most {top:,} layouts, and on:\n")
    print("| deal | cards played | hidden hands' cards | layouts | CPU s | ms per layout |")
    print("|---|---|---|---|---|---|")
    solver = make_solver(tt_mb)
    for path in paths:
        deal = load_deal(os.path.join(ROOT, path))
        board = deal.board()
        line = solver.optimal_line(board.position, side_of(board.to_move or 0))
        shown = 0
        for k in range(len(line)):
            d = deal.with_played(list(deal.played) + line[:k])
            q = sd.question_of(d)
            n = q.space.count()
            if n > top or n < 2 or len(q.groups) < 2:
                continue
            t = time.process_time()
            a = sd.advise(d, solver=solver, hindsight=False,
                          settings=Settings(sampling="uniform", exact_limit=top, seed=seed))
            cpu = time.process_time() - t
            assert a.method == sd.EXACT
            print(f"| {os.path.basename(path)} | {len(d.played)} | "
                  f"{'+'.join(str(s) for s in q.space.sizes)} | {n:,} | {cpu:.2f} "
                  f"| {1000 * cpu / n:.2f} |")
            shown += 1
            if shown == 3:
                break


def timed_command(*args: str) -> Tuple[float, float, Dict[str, Any]]:
    """``dummy-spades ARGS --json``: its wall time, the CPU time of the
    command and its workers, and its JSON."""
    exe = os.path.join(os.path.dirname(sys.executable), "dummy-spades")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.monotonic()
    out = subprocess.run([exe, *args, "--json"], check=True, capture_output=True,
                         text=True).stdout
    wall = time.monotonic() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(out)


def run_cost(paths: List[str], samples: int, jobs: int, seed: int) -> None:
    print(f"`dummy-spades advise FILE -n {samples} --jobs {jobs} --seed {seed} --json` at the "
          "opening lead (wall time; CPU of the command and its workers):\n")
    print("| deal | chooser | wall s | CPU s | recommended | its expected score |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        wall, cpu, data = timed_command("advise", os.path.join(ROOT, path), "-n", str(samples),
                                        "--jobs", str(jobs), "--seed", str(seed))
        best = data["cards"][0]
        print(f"| {os.path.basename(path)} | {data['player']} | {wall:.1f} | {cpu:.1f} "
              f"| {' '.join(best['cards'])} | {best['score']['value']:+.1f} ± "
              f"{best['score']['se']:.1f} |")


def review_cost(paths: List[str], jobs: int) -> None:
    print(f"`dummy-spades review FILE --single-dummy --jobs {jobs} --json` (wall time; CPU of "
          "the command and its workers):\n")
    print("| deal | wall s | CPU s | cards judged | exact | points lost (Alice, Bob, Carol...) |")
    print("|---|---|---|---|---|---|")
    for path in paths:
        wall, cpu, data = timed_command("review", os.path.join(ROOT, path), "--single-dummy",
                                        "--jobs", str(jobs))
        judged = [c["single_dummy"] for c in data["cards"] if c["single_dummy"]]
        exact = sum(1 for j in judged if j["method"] == "exact")
        losses = ", ".join(f"{p['player']} {p['score_loss']['value']:.1f} ± "
                           f"{p['score_loss']['se']:.1f}" for p in data["single_dummy"]["players"])
        print(f"| {os.path.basename(path)} | {wall:.1f} | {cpu:.1f} | {len(judged)} | {exact} "
              f"| {losses} |")


def main(argv: List[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("sample", "exact", "run", "review"))
    parser.add_argument("deals", nargs="*")
    parser.add_argument("--layouts", type=int, default=30)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--tt-mb", type=float, default=LAYOUT_TT_MB)
    args = parser.parse_intermixed_args(argv)
    if not args.deals:
        args.deals = ["hands/bag-penalty.yaml"] if args.what == "review" else list(DEFAULT_DEALS)
    if args.what == "review":
        review_cost(args.deals, args.jobs)
    elif args.what == "sample":
        sample_cost(args.deals, args.layouts, args.seed, args.tt_mb)
    elif args.what == "exact":
        exact_cost(args.deals, args.seed, args.tt_mb)
    else:
        run_cost(args.deals, args.samples, args.jobs, args.seed)


if __name__ == "__main__":
    main(sys.argv[1:])
