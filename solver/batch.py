"""Batch double-dummy solving of PBN deal lines (``dummy-spades batch``).

A deals file holds one deal per line in PBN form::

    N:<declarer> <left defender> <dummy> <right defender>

Seats N E S W are the engine seats 0 1 2 3 (clockwise play order: declarer,
left defender, dummy, right defender). Hands are in PBN dot notation, spades
first (``AKT73.QJ2.984.A52``, void suits empty); the four hands are disjoint
and of equal length, 1 to 13 cards. A line may also start with ``E:``, ``S:``
or ``W:`` (the PBN's first-seat letter); its hands are then rotated so that
the first hand belongs to that seat. Blank lines and ``#`` comments (whole
lines or line ends) are ignored.

The whole file is validated before anything is solved: :func:`read_deals`
collects one message per malformed line and raises :class:`DealsFileError`.

:func:`run_batch` solves every deal for one or more leaders, in a process
pool (each worker owns one engine ``Solver``, reused across deals) or in
this process for ``jobs=1``, and yields :class:`BatchResult` in input order.
"""
from __future__ import annotations

import math
import multiprocessing
import os
import time
from dataclasses import dataclass
from typing import Iterable, Iterator, List, Optional, Sequence, Tuple

from .cards import CardError, count, format_hand, parse_hand

SEAT_LETTERS = "NESW"
SEAT_NAMES = ("declarer", "left defender", "dummy", "right defender")
DEAL_FORM = "N:<declarer> <left defender> <dummy> <right defender>"
HAND_FORM = "PBN dot notation, spades first, e.g. AKT73.QJ2.984.A52"


class BatchError(ValueError):
    """A batch option or deal that cannot be used."""


class DealLineError(BatchError):
    """One malformed deal line (the message says what was expected)."""


class DealsFileError(BatchError):
    """A deals file that cannot be read or has malformed lines.

    ``messages`` holds one message per problem (``file:line: ...``)."""

    def __init__(self, messages: Sequence[str]):
        self.messages = list(messages)
        super().__init__("\n".join(self.messages))


# --------------------------------------------------------------------------
# parsing


@dataclass(frozen=True)
class BatchDeal:
    """One deal line: the four hands (seats N E S W) and where it came from."""

    hands: Tuple[int, int, int, int]
    line: int = 0

    @property
    def pbn(self) -> str:
        """The deal as a PBN string with N first."""
        return "N:" + " ".join(format_hand(h) for h in self.hands)

    @property
    def cards_per_hand(self) -> int:
        return count(self.hands[0])


def parse_deal(text: str) -> Tuple[int, int, int, int]:
    """Parse one PBN deal ``N:h1 h2 h3 h4``; return the hands of seats N E S W.

    Raises :class:`DealLineError` saying what was expected.
    """
    s = text.split("#", 1)[0].strip()
    if len(s) < 2 or s[1] != ":" or s[0].upper() not in SEAT_LETTERS:
        raise DealLineError(
            f"{_clip(s)!r} is not a deal; expected '{DEAL_FORM}' "
            "(first seat letter N, E, S or W, then a colon)"
        )
    first = SEAT_LETTERS.index(s[0].upper())
    fields = s[2:].split()
    if len(fields) != 4:
        raise DealLineError(
            f"found {len(fields)} hand{'s' if len(fields) != 1 else ''}; "
            f"expected four hands separated by spaces: '{DEAL_FORM}'"
        )
    hands = [0, 0, 0, 0]
    for i, field in enumerate(fields):
        seat = (first + i) % 4
        try:
            hands[seat] = parse_hand(field)
        except CardError as exc:
            raise DealLineError(
                f"hand {i + 1} ({SEAT_LETTERS[seat]}, {SEAT_NAMES[seat]}): {exc}"
            ) from None
    sizes = [count(h) for h in hands]
    if len(set(sizes)) != 1:
        listing = ", ".join(f"{SEAT_LETTERS[i]} {n}" for i, n in enumerate(sizes))
        raise DealLineError(
            f"hands have unequal lengths ({listing}); expected all four hands "
            "of the same length, 1 to 13 cards"
        )
    if sizes[0] == 0:
        raise DealLineError("hands are empty; expected 1 to 13 cards in each hand")
    seen = 0
    for seat, h in enumerate(hands):
        dup = seen & h
        if dup:
            raise DealLineError(
                f"card(s) {_dup_names(dup)} of {SEAT_LETTERS[seat]} also appear in an "
                "earlier hand; expected each card in at most one hand"
            )
        seen |= h
    return hands[0], hands[1], hands[2], hands[3]


def _dup_names(mask: int) -> str:
    from .cards import format_card, iter_cards

    return " ".join(format_card(c) for c in iter_cards(mask))


def _clip(s: str, n: int = 40) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


def parse_deals(lines: Iterable[str], source: str = "<deals>") -> List[BatchDeal]:
    """Parse every line; collect all problems, then raise one DealsFileError."""
    deals: List[BatchDeal] = []
    errors: List[str] = []
    for no, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            deals.append(BatchDeal(parse_deal(text), no))
        except DealLineError as exc:
            errors.append(f"{source}:{no}: {exc}")
    if errors:
        raise DealsFileError(errors)
    return deals


def read_deals(path: str | os.PathLike) -> List[BatchDeal]:
    """Read and validate a deals file (see the module docstring)."""
    name = os.fspath(path)
    try:
        with open(name, encoding="utf-8") as fh:
            text = fh.read()
    except FileNotFoundError:
        raise DealsFileError([f"{name}: no such file; expected a deals file, one PBN deal per line"]) from None
    except IsADirectoryError:
        raise DealsFileError([f"{name}: is a directory; expected a deals file"]) from None
    except UnicodeDecodeError as exc:
        raise DealsFileError([f"{name}: not UTF-8 text ({exc.reason}); expected a text deals file"]) from None
    except OSError as exc:
        raise DealsFileError([f"{name}: cannot read ({exc.strerror or exc}); expected a readable deals file"]) from None
    deals = parse_deals(text.splitlines(), name)
    if not deals:
        raise DealsFileError([f"{name}: no deals found; expected one '{DEAL_FORM}' per line"])
    return deals


def parse_leaders(text: str) -> List[int]:
    """``N|E|S|W|all`` -> the leading seats (``all`` = N E S W)."""
    t = text.strip()
    if t.lower() == "all":
        return [0, 1, 2, 3]
    if len(t) == 1 and t.upper() in SEAT_LETTERS:
        return [SEAT_LETTERS.index(t.upper())]
    raise BatchError(f"--leader {text!r}: expected one of N, E, S, W or all")


def parse_side(text: str) -> int:
    """Seat letters (e.g. ``NS``, ``NES``) -> seat bitmask; a non-empty proper subset."""
    t = text.strip().upper()
    mask = 0
    for ch in t:
        if ch not in SEAT_LETTERS:
            raise BatchError(
                f"--side {text!r}: unknown seat {ch!r}; expected seat letters from N, E, S, W "
                "(e.g. NS, EW, NES)"
            )
        b = 1 << SEAT_LETTERS.index(ch)
        if mask & b:
            raise BatchError(f"--side {text!r}: seat {ch} given twice; expected each seat at most once")
        mask |= b
    if mask == 0 or mask == 0b1111:
        raise BatchError(
            f"--side {text!r}: expected between one and three of the seats N, E, S, W "
            "(the maximising side; the other seats are its opponents)"
        )
    return mask


def format_side(mask: int) -> str:
    return "".join(SEAT_LETTERS[s] for s in range(4) if mask >> s & 1)


# --------------------------------------------------------------------------
# solving


def engine_module():
    """The compiled engine (:mod:`solver.engine`); BatchError if it is not built."""
    try:
        from . import engine
    except ImportError as exc:
        raise BatchError(f"cannot solve: {exc}") from None
    return engine


def make_solver(tt_mb: Optional[float] = None):
    """One engine ``Solver`` (its own transposition table)."""
    engine = engine_module()
    return engine.Solver() if tt_mb is None else engine.Solver(tt_mb=tt_mb)


@dataclass(frozen=True)
class BatchOptions:
    leaders: Tuple[int, ...] = (3,)
    side: int = 0b0101
    breaking: bool = True
    spades_broken: bool = False
    tt_mb: Optional[float] = None


@dataclass(frozen=True)
class BatchResult:
    index: int          # position of the deal in the input (0-based)
    line: int           # line number in the file
    deal: str           # PBN, N first
    leader: int
    side: int
    tricks: int
    ms: float
    nodes: int

    def as_json(self) -> dict:
        return {
            "deal": self.deal,
            "leader": SEAT_LETTERS[self.leader],
            "side": format_side(self.side),
            "tricks": self.tricks,
            "ms": round(self.ms, 3),
            "nodes": self.nodes,
        }


def solve_deal(solver, hands: Sequence[int], options: BatchOptions) -> List[Tuple[int, float, int]]:
    """Solve one deal for each leader: ``[(tricks, ms, nodes), ...]``."""
    out = []
    for leader in options.leaders:
        before = solver.nodes
        t0 = time.perf_counter()
        tricks = solver.max_tricks(
            hands, leader, options.side,
            spades_broken=options.spades_broken, breaking=options.breaking,
        )
        ms = (time.perf_counter() - t0) * 1000.0
        out.append((int(tricks), ms, int(solver.nodes) - int(before)))
    return out


# one Solver per worker process, created by the pool initializer
_WORKER_SOLVER = None
_WORKER_OPTIONS: Optional[BatchOptions] = None


def _worker_init(options: BatchOptions) -> None:
    global _WORKER_SOLVER, _WORKER_OPTIONS
    _WORKER_SOLVER = make_solver(options.tt_mb)
    _WORKER_OPTIONS = options


def _worker_solve(hands: Tuple[int, int, int, int]) -> List[Tuple[int, float, int]]:
    return solve_deal(_WORKER_SOLVER, hands, _WORKER_OPTIONS)


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def run_batch(deals: Sequence[BatchDeal], options: BatchOptions, jobs: Optional[int] = None,
              on_deal=None) -> Iterator[BatchResult]:
    """Solve ``deals``; yield one result per deal and leader, in input order.

    ``jobs``: worker processes (default: all cores; ``1`` solves in this
    process). ``on_deal()`` is called once per solved deal (progress).
    """
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise BatchError(f"--jobs {jobs}: expected a number of processes, at least 1")
    jobs = min(jobs, max(1, len(deals)))
    hands = [d.hands for d in deals]
    engine_module()  # fail here, not in every pool worker, when the engine is not built
    if jobs == 1:
        solver = make_solver(options.tt_mb)
        stream: Iterable = (solve_deal(solver, h, options) for h in hands)
        yield from _results(deals, options, stream, on_deal)
        return
    chunk = max(1, min(16, len(deals) // (jobs * 16)))
    with multiprocessing.get_context().Pool(jobs, _worker_init, (options,)) as pool:
        yield from _results(deals, options, pool.imap(_worker_solve, hands, chunk), on_deal)


def _results(deals, options, stream, on_deal) -> Iterator[BatchResult]:
    for index, (deal, per_leader) in enumerate(zip(deals, stream)):
        for leader, (tricks, ms, nodes) in zip(options.leaders, per_leader):
            yield BatchResult(index, deal.line, deal.pbn, leader, options.side, tricks, ms, nodes)
        if on_deal is not None:
            on_deal()


# --------------------------------------------------------------------------
# statistics


@dataclass(frozen=True)
class Summary:
    deals: int
    solves: int
    seconds: float
    median_ms: float
    p95_ms: float
    max_ms: float

    @property
    def deals_per_second(self) -> float:
        return self.deals / self.seconds if self.seconds > 0 else math.inf

    def __str__(self) -> str:
        return (
            f"{self.deals} deals ({self.solves} solves) in {self.seconds:.2f} s: "
            f"{self.deals_per_second:.1f} deals/s; per solve median {self.median_ms:.1f} ms, "
            f"p95 {self.p95_ms:.1f} ms, max {self.max_ms:.1f} ms"
        )


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (``q`` in 0..100) of a non-empty sequence."""
    if not values:
        return 0.0
    s = sorted(values)
    k = max(1, math.ceil(q / 100.0 * len(s)))
    return s[k - 1]


def median(values: Sequence[float]) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2.0


def summarise(results: Sequence[BatchResult], seconds: float) -> Summary:
    ms = [r.ms for r in results]
    return Summary(
        deals=len({r.index for r in results}),
        solves=len(results),
        seconds=seconds,
        median_ms=median(ms),
        p95_ms=percentile(ms, 95),
        max_ms=max(ms) if ms else 0.0,
    )
