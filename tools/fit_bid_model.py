#!/usr/bin/env python3
"""Fit the bidding model of ``dummy-spades bid`` (solver/simulation/model.py) to
the engine's double-dummy answers on random deals, and write its
coefficients (solver/simulation/coefficients.py).

    python tools/fit_bid_model.py --deals 3000 --seed 1 --jobs 2 --write
    python tools/fit_bid_model.py --refit --write     # fit again from the stored answers

The shipped coefficients come from the first command (seed 1, 3000 deals;
9000 full solves and about 5500 nil tests, about an hour of CPU). It stores the
engine's answers in ``tools/bid_model_dd.txt``, so ``--refit`` (a few
seconds) reproduces the fit exactly, and tests/test_bid_model.py checks
both: the stored answers against the engine on a few deals, and the
shipped coefficients against a refit.

The data. Deal ``i`` of seed ``S`` shuffles the deck with
``random.Random(f"dummy-spades bid-model {S} {i}")`` and gives 13 cards each
to the first, second and third bidder and the dummy (the first bidder leads,
as in the game). For each bidder the engine answers, spade breaking on:

* the declarer side's double-dummy tricks when that bidder declares;
* whether their hand can be kept trickless when they defend (declarer: the
  next player clockwise on even deals, the one after on odd deals; nil
  search as ``bid``'s); hands with a sure spade trick are not asked.

The fit. Deals ``0.8 N`` and above are held out; everything is fitted on
the rest:

1. the nil chance: a logistic regression of "kept" on the nil features;
2. for each bidding position in turn, a least-squares fit of the tricks on
   the hand features, from two rows per deal: one with no dummy card seen
   and one with 1-12 cards of the dummy seen (drawn at random, as peeks or
   flips would show them); position 1 and 2 also on the numbers bid before
   them, which the model itself draws for every deal once the earlier
   positions are fitted (seeded: ``bid-model bids S i``). The squared
   residuals, fitted linearly on the number of dummy cards seen, give the
   model's ``VARIANCE`` (the error shrinks as more of the dummy is seen).

It prints the fit quality on the held-out deals (R² and mean absolute
error of the tricks, per position, with and without dummy cards seen; the
nil chance's Brier score beside the base rate's), which docs/BID.md quotes.
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from dummy_spades.solver.simulation import model  # noqa: E402
from dummy_spades.solver.simulation.model import certain_trick  # noqa: E402
from dummy_spades.solver.position import Position  # noqa: E402
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE  # noqa: E402

TABLE = os.path.join(ROOT, "tools", "bid_model_dd.txt")
MODULE = os.path.join(ROOT, "solver", "bid", "coefficients.py")
DEFAULT_DEALS, DEFAULT_SEED = 3000, 1
HELD_OUT = 0.2
DUMMY = 3                    # hand index of the dummy; bidders are 0, 1, 2 in bidding order
TT_MB = 64.0
DIGITS = 4                   # decimals of the written coefficients


# ------------------------------------------------------------------ data
def deal(seed: int, index: int) -> Tuple[int, int, int, int]:
    """Deal ``index`` of ``seed``: the hands of bidders 0, 1, 2 and the dummy."""
    deck = list(range(52))
    random.Random(f"dummy-spades bid-model {int(seed)} {int(index)}").shuffle(deck)
    return tuple(sum(1 << c for c in deck[13 * h:13 * h + 13]) for h in range(4))  # type: ignore


def seating(declarer: int) -> Tuple[int, int, int, int]:
    """Hand indices by play seat when bidder ``declarer`` declares
    (declarer, next bidder clockwise, dummy, the remaining one)."""
    return (declarer, (declarer + 1) % 3, DUMMY, (declarer + 2) % 3)


@dataclass(frozen=True)
class Answers:
    """The engine's answers for one deal: ``tricks[p]`` the declarer side's
    tricks when bidder ``p`` declares; ``kept[p]`` whether ``p``'s nil can
    be kept when defending (``None``: a sure spade trick, not asked)."""

    index: int
    tricks: Tuple[int, int, int]
    kept: Tuple[Optional[bool], Optional[bool], Optional[bool]]

    def line(self) -> str:
        kept = " ".join("-" if k is None else str(int(k)) for k in self.kept)
        return f"{self.index} {' '.join(map(str, self.tricks))} {kept}"

    @classmethod
    def parse(cls, line: str) -> "Answers":
        f = line.split()
        return cls(int(f[0]), tuple(int(x) for x in f[1:4]),  # type: ignore[arg-type]
                   tuple(None if x == "-" else x == "1" for x in f[4:7]))  # type: ignore[arg-type]


def nil_declarer(index: int, bidder: int) -> int:
    return (bidder + 1 + index % 2) % 3


_SOLVER: list = []


def solve_deal(job: Tuple[int, int]) -> Answers:
    """The engine's answers for deal ``index`` of ``seed`` (one solver per process)."""
    seed, index = job
    if not _SOLVER:
        from dummy_spades.solver.backend import make_solver
        _SOLVER.append(make_solver(TT_MB))
    solver = _SOLVER[0]
    hands = deal(seed, index)
    tricks = []
    for p in range(3):
        names = seating(p)
        tricks.append(solver.max_tricks(Position(tuple(hands[n] for n in names), names.index(0)),
                                        DECLARER_SIDE))
    kept: List[Optional[bool]] = []
    for p in range(3):
        if certain_trick(hands[p]):
            kept.append(None)
            continue
        names = seating(nil_declarer(index, p))
        kept.append(solver.at_least(Position(tuple(hands[n] for n in names), names.index(0)),
                                    DEFENDER_SIDE, 0, nil_seat=names.index(p)))
    return Answers(index, tuple(tricks), tuple(kept))  # type: ignore[arg-type]


def solve(seed: int, deals: int, jobs: int, progress: bool = True) -> List[Answers]:
    out: List[Answers] = []
    start = time.monotonic()
    with multiprocessing.get_context().Pool(jobs) as pool:
        for a in pool.imap(solve_deal, [(seed, i) for i in range(deals)], 4):
            out.append(a)
            if progress and len(out) % 100 == 0:
                print(f"  {len(out)}/{deals} deals solved, {time.monotonic() - start:.0f} s",
                      file=sys.stderr, flush=True)
    return out


def write_table(answers: Sequence[Answers], seed: int, path: str = TABLE) -> None:
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# dummy-spades bid model: engine answers, seed {seed}, {len(answers)} deals "
                "(tools/fit_bid_model.py)\n# index, tricks when bidder 0/1/2 declares, "
                "nil kept when bidder 0/1/2 defends (1/0, - = sure spade trick)\n")
        for a in answers:
            f.write(a.line() + "\n")


def read_table(path: str = TABLE) -> Tuple[int, List[Answers]]:
    """(seed, answers) from the stored table."""
    seed = None
    answers = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                if seed is None and " seed " in line:
                    seed = int(line.split(" seed ")[1].split(",")[0])
                continue
            if line.strip():
                answers.append(Answers.parse(line))
    if seed is None:
        raise SystemExit(f"{path}: no seed in the header")
    return seed, answers


# ------------------------------------------------------- linear algebra
def solve_linear(a: List[List[float]], b: List[float]) -> List[float]:
    """``x`` with ``a x = b`` (Gaussian elimination, partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        if abs(m[col][col]) < 1e-12:
            raise ArithmeticError(f"singular system (column {col})")
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                row, top = m[r], m[col]
                for c in range(col, n + 1):
                    row[c] -= f * top[c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def least_squares(rows: Sequence[Sequence[float]], y: Sequence[float],
                  weights: Optional[Sequence[float]] = None) -> List[float]:
    """Weighted least squares through the normal equations."""
    k = len(rows[0])
    xtx = [[0.0] * k for _ in range(k)]
    xty = [0.0] * k
    for i, (x, t) in enumerate(zip(rows, y)):
        w = 1.0 if weights is None else weights[i]
        for a in range(k):
            wa = w * x[a]
            if wa:
                xty[a] += wa * t
                ra = xtx[a]
                for b in range(a, k):
                    ra[b] += wa * x[b]
    for a in range(k):
        for b in range(a):
            xtx[a][b] = xtx[b][a]
    return solve_linear(xtx, xty)


def logistic(rows: Sequence[Sequence[float]], y: Sequence[bool], iterations: int = 25,
             ridge: float = 1.0) -> List[float]:
    """Logistic regression by Newton's method (iteratively reweighted least
    squares), with an L2 penalty ``ridge`` (keeps a feature that separates
    the few examples it has, such as a void, from an infinite coefficient)."""
    k = len(rows[0])
    beta = [0.0] * k
    for _ in range(iterations):
        hess = [[0.0] * k for _ in range(k)]
        grad = [0.0] * k
        for x, t in zip(rows, y):
            z = sum(b * v for b, v in zip(beta, x))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            w = p * (1.0 - p)
            r = (1.0 if t else 0.0) - p
            for a in range(k):
                if x[a]:
                    grad[a] += r * x[a]
                    wa = w * x[a]
                    ha = hess[a]
                    for b in range(a, k):
                        ha[b] += wa * x[b]
        for a in range(k):
            hess[a][a] += ridge
            grad[a] -= ridge * beta[a]
            for b in range(a):
                hess[a][b] = hess[b][a]
        step = solve_linear(hess, grad)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-10:
            break
    return beta


def dot(c: Sequence[float], x: Sequence[float]) -> float:
    return sum(a * b for a, b in zip(c, x))


def sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, z))))


# ------------------------------------------------------------------- fit
@dataclass
class Fit:
    seed: int
    deals: int
    nil: List[float]
    tricks: Dict[int, List[float]]
    sigma: Dict[int, List[float]]
    quality: List[str]


def dummy_views(seed: int, index: int, dummy: int) -> Tuple[int, int]:
    """The dummy cards seen in the two rows of each bidder of a deal: none,
    and 1-12 cards of the dummy at random (one draw per deal and bidder)."""
    rng = random.Random(f"dummy-spades bid-model views {seed} {index}")
    cards = [c for c in range(52) if dummy >> c & 1]
    out = []
    for _ in range(3):
        seen = rng.sample(cards, rng.randint(1, 12))
        out.append(sum(1 << c for c in seen))
    return tuple(out)  # type: ignore[return-value]


def draw_call(rng: random.Random, mean: float, sigma: float, nil: float) -> int:
    """A number bid drawn from the model (a nil bids 0)."""
    if rng.random() < nil:
        return 0
    u = rng.random()
    acc = 0.0
    chances = model.number_chances(mean, sigma)
    for b, p in enumerate(chances):
        acc += p
        if u < acc:
            return b
    return len(chances) - 1


def r2_mae(y: Sequence[float], pred: Sequence[float]) -> Tuple[float, float]:
    mean = sum(y) / len(y)
    ss_tot = sum((t - mean) ** 2 for t in y)
    ss_res = sum((t - p) ** 2 for t, p in zip(y, pred))
    return 1.0 - ss_res / ss_tot, sum(abs(t - p) for t, p in zip(y, pred)) / len(y)


def fit(seed: int, answers: Sequence[Answers]) -> Fit:
    n = len(answers)
    train_end = n - int(round(HELD_OUT * n))
    hands = [deal(seed, a.index) for a in answers]
    quality = [f"seed {seed}, {n} deals: fitted on deals 0-{train_end - 1}, "
               f"held out {train_end}-{n - 1} ({n - train_end} deals)"]

    # nil chance
    nil_x, nil_y, nil_test = [], [], []
    for i, a in enumerate(answers):
        for p in range(3):
            if a.kept[p] is None:
                continue
            row = (model.nil_features(hands[i][p]), a.kept[p])
            (nil_x if i < train_end else nil_test).append(row)
    nil_beta = logistic([x for x, _ in nil_x], [t for _, t in nil_x])
    base = sum(t for _, t in nil_x) / len(nil_x)
    brier = sum((sigmoid(dot(nil_beta, x)) - t) ** 2 for x, t in nil_test) / len(nil_test)
    brier0 = sum((base - t) ** 2 for _, t in nil_test) / len(nil_test)
    quality.append(f"nil kept when defending: {len(nil_x)} fitted hands without a sure spade "
                   f"trick, {base:.1%} kept; held out {len(nil_test)}: Brier {brier:.4f} "
                   f"(base rate alone {brier0:.4f})")

    def nil_chance(hand: int) -> float:
        return 0.0 if certain_trick(hand) else sigmoid(dot(nil_beta, model.nil_features(hand)))

    views = [dummy_views(seed, a.index, hands[i][DUMMY]) for i, a in enumerate(answers)]
    rngs = [random.Random(f"dummy-spades bid-model bids {seed} {a.index}") for a in answers]
    earlier: List[List[int]] = [[] for _ in answers]
    tricks: Dict[int, List[float]] = {}
    sigmas: Dict[int, List[float]] = {}
    for p in range(3):
        rows: List[List[float]] = []
        y: List[float] = []
        test: Dict[bool, Tuple[List[float], List[float]]] = {False: ([], []), True: ([], [])}
        for i, a in enumerate(answers):
            for seen in (0, views[i][p]):
                x = model.hand_features(hands[i][p], seen) + earlier[i]
                if i < train_end:
                    rows.append(x)
                    y.append(a.tricks[p])
                else:
                    test[bool(seen)][0].append(x)
                    test[bool(seen)][1].append(a.tricks[p])
        beta = least_squares(rows, y)
        seen = [x[model.FEATURES.index("dummy_known")] for x in rows]
        squares = [(t - dot(beta, x)) ** 2 for x, t in zip(rows, y)]
        variance = least_squares([[1.0, k] for k in seen], squares)
        sigma = math.sqrt(variance[0])
        tricks[p], sigmas[p] = beta, variance
        for seen, (xs, ts) in test.items():
            r2, mae = r2_mae(ts, [dot(beta, x) for x in xs])
            quality.append(f"bidder {p + 1} tricks as declarer, {'1-12' if seen else 'no'} dummy "
                           f"cards seen: held-out R² {r2:.3f}, mean absolute error {mae:.2f} "
                           f"tricks ({len(ts)} deals)")
        quality.append(f"bidder {p + 1} residual sd: {sigma:.3f} tricks with no dummy card seen, "
                       f"{model.spread_of(variance, 3):.3f} with 3, "
                       f"{model.spread_of(variance, 12):.3f} with 12")
        if p < 2:
            for i in range(n):
                x = model.hand_features(hands[i][p]) + earlier[i]
                earlier[i].append(draw_call(rngs[i], dot(beta, x), model.spread_of(variance, 0),
                                            nil_chance(hands[i][p])))
    return Fit(seed, n, nil_beta, tricks, sigmas, quality)


# ---------------------------------------------------------------- output
def module_text(f: Fit) -> str:
    def table(names: Sequence[str], values: Sequence[float], indent: str) -> str:
        return "".join(f"{indent}{v:+.{DIGITS}f},  # {name}\n" for name, v in zip(names, values))

    names = model.FEATURES + model.EARLIER_BIDS
    out = [
        '"""The bidding model\'s coefficients (solver/simulation/model.py), as written by\n',
        f"``python tools/fit_bid_model.py --deals {f.deals} --seed {f.seed} --write``.\n\n",
        "Fit quality on the held-out deals (docs/BID.md):\n\n",
        "".join(f"* {q}\n" for q in f.quality),
        '"""\n\n',
        "#: trick estimate per bidding position (0 = first to bid): one coefficient per\n",
        "#: ``model.FEATURES``, then one per earlier bid (``model.EARLIER_BIDS``)\n",
        "TRICKS = {\n",
    ]
    for p in range(3):
        out.append(f"    {p}: (\n")
        out.append(table(names[:len(model.FEATURES) + p], f.tricks[p], "        "))
        out.append("    ),\n")
    out.append("}\n\n#: variance of the trick estimate's error per position: (v0, v1) for\n"
               "#: ``v0 + v1 x`` the number of dummy cards seen (``model.spread``)\n")
    out.append("VARIANCE = {\n" + "".join(
        f"    {p}: ({f.sigma[p][0]:+.{DIGITS}f}, {f.sigma[p][1]:+.{DIGITS}f}),\n" for p in range(3))
        + "}\n\n")
    out.append("#: nil chance: logistic coefficients of ``model.NIL_FEATURES``\nNIL = (\n")
    out.append(table(model.NIL_FEATURES, f.nil, "    "))
    out.append(")\n")
    return "".join(out)


def shipped_equal(f: Fit, tolerance: float = 2 * 10 ** -DIGITS) -> List[str]:
    """Differences between ``f`` and the shipped coefficients beyond ``tolerance``."""
    from dummy_spades.solver.simulation import coefficients as shipped

    bad = []
    for p in range(3):
        for name, a, b in zip(model.FEATURES + model.EARLIER_BIDS, f.tricks[p], shipped.TRICKS[p]):
            if abs(a - b) > tolerance:
                bad.append(f"TRICKS[{p}] {name}: fitted {a:.6f}, shipped {b:.6f}")
        for j, (a, b) in enumerate(zip(f.sigma[p], shipped.VARIANCE[p])):
            if abs(a - b) > tolerance:
                bad.append(f"VARIANCE[{p}][{j}]: fitted {a:.6f}, shipped {b:.6f}")
    for name, a, b in zip(model.NIL_FEATURES, f.nil, shipped.NIL):
        if abs(a - b) > tolerance:
            bad.append(f"NIL {name}: fitted {a:.6f}, shipped {b:.6f}")
    return bad


def main(argv: Optional[Sequence[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=DEFAULT_DEALS)
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--refit", action="store_true",
                    help=f"fit from the stored engine answers ({os.path.relpath(TABLE, ROOT)})")
    ap.add_argument("--write", action="store_true",
                    help="write the answers (unless --refit) and the coefficients module")
    args = ap.parse_args(argv)
    if args.refit:
        seed, answers = read_table()
    else:
        seed = args.seed
        answers = solve(seed, args.deals, args.jobs)
        if args.write:
            write_table(answers, seed)
    f = fit(seed, answers)
    print("\n".join(f.quality))
    if args.write:
        with open(MODULE, "w", encoding="utf-8") as out:
            out.write(module_text(f))
        print(f"wrote {os.path.relpath(MODULE, ROOT)}")
    else:
        print(module_text(f))
    return 0


if __name__ == "__main__":
    sys.exit(main())
