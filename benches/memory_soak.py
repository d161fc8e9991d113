#!/usr/bin/env python3
"""Memory soak: long ``batch`` and ``bid`` runs, the RSS of every process
sampled over the run.

    python benches/memory_soak.py                    # batch 20,000 deals, bid 5,000 samples
    python benches/memory_soak.py --deals 2000 --samples 300 --interval 0.2

Runs, one after the other, each as its own process tree with ``--jobs 2``:

* ``dummy-spades batch DEALS --jobs 2 --tt-mb MB --json`` on ``--deals``
  random full deals (seed 1, written to a temporary PBN file first);
* ``dummy-spades bid hands/three-peeky.yaml --player Carol --samples N
  --jobs 2 --tt-mb MB --json``.

Every ``--interval`` seconds it reads the resident set size (``VmRSS`` in
``/proc/PID/status``) of the command and of each of its descendants (the
worker processes). For each process it prints the number of readings, the
RSS after the first tenth of the run (once the table has grown), the
median of the first and of the second half of its readings, the largest
and the last, and says whether the process stayed flat: the second half's
median at most 8 MB (``--slack``) above the first half's (a leak grows
with the work done; a deal or a nil proof that fills the table for a
moment does not), and every process under
``--tt-mb`` plus the stated overhead of a process (docs/LIMITS.md: about 40
MB, Python, the command and the engine with an empty table; 60 MB allowed
here for the bid's statistics). Exit code 1 when a process fails either.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from statistics import median
from typing import Dict, List

from _util import ROOT, pbn, random_deals

OVERHEAD_MB = 60.0


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024.0
    except OSError:
        pass
    return -1.0


def descendants(pid: int) -> List[int]:
    """``pid`` and every process below it (from /proc's parent links)."""
    parents: Dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                parents[int(name)] = int(fields[1])
            except OSError:
                continue
    out, frontier = [pid], [pid]
    while frontier:
        frontier = [p for p, parent in parents.items() if parent in frontier]
        out.extend(frontier)
    return out


def soak(name: str, command: List[str], interval: float, tt_mb: float, slack: float) -> bool:
    readings: Dict[int, List[float]] = {}
    start = time.perf_counter()
    with open(os.devnull, "w") as sink:
        proc = subprocess.Popen(command, stdout=sink, stderr=subprocess.PIPE, text=True)
        while proc.poll() is None:
            for pid in descendants(proc.pid):
                mb = rss_mb(pid)
                if mb >= 0:
                    readings.setdefault(pid, []).append(mb)
            time.sleep(interval)
        err = proc.stderr.read() if proc.stderr else ""
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        print(f"{name}: exit code {proc.returncode}: {err.strip()}")
        return False
    print(f"{name}: {wall:.0f} s wall; RSS per process (MB), readings every {interval:g} s:")
    ok = True
    limit = tt_mb + OVERHEAD_MB
    for pid, values in readings.items():
        if len(values) < 10:
            continue
        half = len(values) // 2
        first, second = median(values[:half]), median(values[half:])
        top = max(values)
        flat = second - first <= slack
        under = top <= limit
        ok &= flat and under
        print(f"  pid {pid}{' (command)' if pid == proc.pid else ''}: {len(values)} readings, "
              f"median {first:.1f} in the first half, {second:.1f} in the second, largest "
              f"{top:.1f}, last {values[-1]:.1f}; {'flat' if flat else 'GROWS'}, "
              f"{'under' if under else 'OVER'} {limit:g} (--tt-mb {tt_mb:g} + {OVERHEAD_MB:g})")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--samples", type=int, default=5000)
    ap.add_argument("--tt-mb", type=float, default=64.0)
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--only", choices=("batch", "bid"), help="run one of the two only")
    ap.add_argument("--slack", type=float, default=8.0,
                    help="MB a process's median RSS may grow from the first half of the run "
                         "to the second")
    args = ap.parse_args()
    cli = [sys.executable, "-m", "dummy_spades.cli"]
    tt = ["--tt-mb", f"{args.tt_mb:g}"]
    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        if args.only == "bid":
            args.deals = 0
        deals = os.path.join(tmp, "deals.pbn")
        with open(deals, "w") as f:
            for hands in random_deals(args.deals, 1):
                f.write(pbn(hands) + "\n")
        if args.deals:
            ok &= soak(f"batch, {args.deals} deals", cli + ["batch", deals, "--jobs", "2", "--json"] + tt,
                       args.interval, args.tt_mb, args.slack)
    if args.only == "batch":
        return 0 if ok else 1
    ok &= soak(f"bid, {args.samples} samples",
               cli + ["bid", os.path.join(ROOT, "hands/three-peeky.yaml"), "--player", "Carol",
                      "--samples", str(args.samples), "--jobs", "2", "--json"] + tt,
               args.interval, args.tt_mb, args.slack)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
