#!/usr/bin/env python3
"""Candidate deals a second for ``dummy-spades deal``, in this process, on one core.

    python benches/deal_speed.py [--tries 3000000] [--seed 1]

For each case (no condition, the simple condition of the speed bar, the
study orders of docs/DEAL.md, a shape, a long expression) it parses and
compiles the conditions and deals ``--tries`` candidates with them
(``solver.dealer.deal_hands``: the stream, the shuffle and the compiled
conditions; a count no case reaches, so every case deals exactly
``--tries``), and prints the candidates a second (CPU time of the process)
and the acceptance rate. The bar: at least 100,000 candidates a second with
``spades(Carol) >= 5`` (PASS/FAIL line, exit code 1 when it fails).

The command itself reports the same figure for its dealing on stderr, e.g.
``dummy-spades deal --count 100000 --seed 1 --where "spades(Carol) >= 5"
--to pbn > /dev/null``; docs/BENCHMARKS.md ("Dealing") quotes both.
"""
from __future__ import annotations

import argparse
import time
from typing import List, Optional, Sequence, Tuple

from _util import ROOT  # noqa: F401  (puts the repository on sys.path)

from dummy_spades.solver.constraints import Table, parse_condition  # noqa: E402
from dummy_spades.solver.dealer import deal_hands  # noqa: E402

BAR = 100_000
BAR_CASE = "simple"
TABLE = Table(("Alice", "Bob", "Carol"), "Carol")

#: (label, conditions)
CASES: List[Tuple[str, Sequence[str]]] = [
    ("none", ()),
    ("simple", ("spades(Carol) >= 5",)),
    ("5+ spades, 12-14 points", ("spades(Carol) >= 5 and 12 <= hcp(Carol) <= 14",)),
    ("nil-worthy leader", ("qt(leader) == 0 and spades(leader) <= 3 and hcp(leader) <= 7 "
                           "and cards(leader, SA SK SQ SJ) == 0",)),
    ("balanced dummy", ("shape(dummy, any 4333 + any 4432 + any 5332)",)),
    ("three conditions", ("hcp(Alice) + hcp(dummy) >= 22", "spades(Alice) + spades(dummy) >= 8",
                          "not (has(Bob, SA) or has(Carol, SA))")),
]


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tries", type=int, default=3_000_000, help="candidates per case")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.tries < 1:
        ap.error("--tries must be at least 1")
    print(f"python benches/deal_speed.py --tries {args.tries} --seed {args.seed}\n")
    print(f"{'case':<26} {'candidates/s':>13} {'acceptance':>11}  conditions")
    speeds = {}
    for label, texts in CASES:
        start = time.process_time()
        conditions = [parse_condition(t, TABLE) for t in texts]
        dealt = deal_hands(args.tries + 1, args.seed, conditions, max_tries=args.tries)
        seconds = time.process_time() - start
        speeds[label] = dealt.tries / seconds
        print(f"{label:<26} {speeds[label]:>13,.0f} {100 * dealt.rate:>10.3g}%  "
              f"{' / '.join(texts) or '-'}")
    ok = speeds[BAR_CASE] >= BAR
    print(f"\n  {'PASS' if ok else 'FAIL'}  {speeds[BAR_CASE]:,.0f} candidates/s with "
          f"{CASES[1][1][0]!r}: at least {BAR:,}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
