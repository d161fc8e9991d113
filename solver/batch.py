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

The whole file is validated before anything is solved: :func:`open_deals`
reads it line by line (a regular file only; each line at most
``BATCH_LINE_MAX_CHARS`` characters), collects one message for each of the
first ``BATCH_ERRORS_SHOWN`` malformed lines, counts the others and raises
:class:`DealsFileError`. A valid file is then read a second time, line by
line, while it is solved: memory does not grow with the number of deals.
Standard input (``batch -``) is copied to a temporary file first
(:func:`solver.files.spooled`) and read the same way.

:func:`run_batch` solves every deal for one or more leaders through the
executor it is given (:mod:`solver.run`: this process, a local process
pool or a cluster; each worker owns one solver, reused across
deals) and yields :class:`BatchResult` in input order.
"""
from __future__ import annotations

import math
import os
import time
from array import array
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from .backend import make_solver, solver_class

from .contract import Solver
from .board import Board
from .cards import HandsError, check_hands, count, format_cards
from .errors import DealError
from .files import InputFileError, open_regular
from .limits import BATCH_ERRORS_SHOWN, BATCH_LINE_MAX_CHARS, SUMMARY_EXACT_SOLVES
from .pbn import DEAL_FORM, format_pbn_deal, parse_pbn_deal
from .position import Position
from .rules import DEFAULT_DEAL_RULES, Rules
from .run import Executor, Work
from .seating import PBN_DIRECTIONS


class BatchError(DealError):
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
    """One deal line as the file gives it: the four hands (seats N E S W)
    and where it came from. Each leader's board is :func:`board_of`."""

    hands: Tuple[int, int, int, int]
    line: int = 0

    @property
    def pbn(self) -> str:
        """The deal as a PBN string with N first."""
        return format_pbn_deal(self.hands)

    @property
    def cards_per_hand(self) -> int:
        return count(self.hands[0])


def parse_deal(text: str) -> Tuple[int, int, int, int]:
    """Parse one PBN deal ``N:h1 h2 h3 h4``; return the hands of seats N E S W.

    Raises :class:`DealLineError` saying what was expected.
    """
    try:
        hands = parse_pbn_deal(text.split("#", 1)[0])
    except DealError as exc:
        raise DealLineError(str(exc)) from None
    try:
        check_hands(hands, PBN_DIRECTIONS)
    except HandsError as err:
        if err.cards:
            raise DealLineError(
                f"card(s) {format_cards(err.cards)} of {PBN_DIRECTIONS[err.hand]} also appear in "
                "an earlier hand; expected each card in at most one hand") from None
        listing = ", ".join(f"{PBN_DIRECTIONS[i]} {n}" for i, n in enumerate(err.sizes))
        raise DealLineError(
            f"hands have unequal lengths ({listing}); expected all four hands "
            "of the same length, 1 to 13 cards"
        ) from None
    if not hands[0]:
        raise DealLineError("hands are empty; expected 1 to 13 cards in each hand")
    return hands[0], hands[1], hands[2], hands[3]


class _Errors:
    """The messages of the first ``BATCH_ERRORS_SHOWN`` bad lines; the rest counted."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.messages: List[str] = []
        self.more = 0

    def add(self, message: str) -> None:
        if len(self.messages) < BATCH_ERRORS_SHOWN:
            self.messages.append(message)
        else:
            self.more += 1

    def raise_any(self) -> None:
        if self.messages:
            extra = ([f"{self.source}: and {self.more} more bad line{'s' if self.more != 1 else ''}"]
                     if self.more else [])
            raise DealsFileError(self.messages + extra)


def _deals(lines: Iterable[Tuple[int, str]], errors: _Errors) -> Iterator[BatchDeal]:
    """The deals of numbered lines; malformed lines go to ``errors``."""
    for no, raw in lines:
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            yield BatchDeal(parse_deal(text), no)
        except DealLineError as exc:
            errors.add(f"{errors.source}:{no}: {exc}")


def parse_deals(lines: Iterable[str], source: str = "<deals>") -> List[BatchDeal]:
    """Parse every line; collect the problems, then raise one DealsFileError."""
    errors = _Errors(source)
    deals = list(_deals(enumerate(lines, start=1), errors))
    errors.raise_any()
    return deals


def _file_problem(name: str, exc: BaseException) -> DealsFileError:
    if isinstance(exc, FileNotFoundError):
        return DealsFileError([f"{name}: no such file; expected a deals file, one PBN deal per line"])
    if isinstance(exc, IsADirectoryError):
        return DealsFileError([f"{name}: is a directory; expected a deals file"])
    if isinstance(exc, InputFileError):
        return DealsFileError([f"{name}: {exc}"])
    strerror = getattr(exc, "strerror", None)
    return DealsFileError([f"{name}: cannot read ({strerror or exc}); expected a readable deals file"])


def read_lines(path: str | os.PathLike[str], name: Optional[str] = None) -> Iterator[Tuple[int, str]]:
    """``(line number, text)`` for each line of a regular UTF-8 text file,
    read one line at a time; a line longer than ``BATCH_LINE_MAX_CHARS``
    ends the reading with a :class:`DealsFileError` naming it. Messages
    name the file ``name`` (default: its path)."""
    name = name or os.fspath(path)
    cap = BATCH_LINE_MAX_CHARS
    try:
        fh = open_regular(path, "a deals file (a regular file, one PBN deal per line)")
    except (OSError, InputFileError) as exc:
        raise _file_problem(name, exc) from None
    with fh:
        no = 0
        while True:
            try:
                raw = fh.readline(4 * cap + 1)   # UTF-8: at most 4 bytes a character
            except OSError as exc:
                raise _file_problem(name, exc) from None
            if not raw:
                return
            no += 1
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                if len(raw) > 4 * cap:   # cut inside a character
                    line = raw[:exc.start].decode("utf-8")
                else:
                    raise DealsFileError([f"{name}:{no}: not UTF-8 text ({exc.reason}); "
                                          "expected a text deals file"]) from None
            if len(line.rstrip("\r\n")) > cap:
                raise DealsFileError([f"{name}:{no}: the line is longer than {cap:,} characters "
                                      "(the limit); expected one PBN deal per line"])
            yield no, line


class DealsFile:
    """A validated deals file: ``len()`` deals, read again line by line when
    iterated (see :func:`open_deals`); ``name`` is how messages name it."""

    def __init__(self, path: str | os.PathLike[str], count: int, name: Optional[str] = None) -> None:
        self.path = os.fspath(path)
        self.count = count
        self.name = name or self.path

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[BatchDeal]:
        errors = _Errors(self.name)
        yield from _deals(read_lines(self.path, self.name), errors)
        errors.raise_any()  # the file changed since it was checked


def open_deals(path: str | os.PathLike[str], name: Optional[str] = None) -> DealsFile:
    """Check a deals file line by line (see the module docstring); messages
    name it ``name`` (default: its path; standard input copied to a
    temporary file is named ``<stdin>``)."""
    name = name or os.fspath(path)
    errors = _Errors(name)
    count = 0
    for _ in _deals(read_lines(path, name), errors):
        count += 1
    errors.raise_any()
    if not count:
        raise DealsFileError([f"{name}: no deals found; expected one '{DEAL_FORM}' per line"])
    return DealsFile(path, count, name)


def read_deals(path: str | os.PathLike[str]) -> List[BatchDeal]:
    """Read and validate a deals file into a list (:func:`open_deals` streams)."""
    return list(open_deals(path))


def parse_leaders(text: str) -> List[int]:
    """``N|E|S|W|all`` -> the leading seats (``all`` = N E S W)."""
    t = text.strip()
    if t.lower() == "all":
        return [0, 1, 2, 3]
    if len(t) == 1 and t.upper() in PBN_DIRECTIONS:
        return [PBN_DIRECTIONS.index(t.upper())]
    raise BatchError(f"--leader {text!r}: expected one of N, E, S, W or all")


def parse_side(text: str) -> int:
    """Seat letters (e.g. ``NS``, ``NES``) -> seat bitmask; a non-empty proper subset."""
    t = text.strip().upper()
    mask = 0
    for ch in t:
        if ch not in PBN_DIRECTIONS:
            raise BatchError(
                f"--side {text!r}: unknown seat {ch!r}; expected seat letters from N, E, S, W "
                "(e.g. NS, EW, NES)"
            )
        b = 1 << PBN_DIRECTIONS.index(ch)
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
    return "".join(PBN_DIRECTIONS[s] for s in range(4) if mask >> s & 1)


# --------------------------------------------------------------------------
# solving


@dataclass(frozen=True)
class BatchOptions:
    """How to solve every deal: the leaders, the maximising side, the rules
    (the command line's ``--no-spade-breaking`` is in them), whether spades
    start broken, the table size."""

    leaders: Tuple[int, ...] = (3,)
    side: int = 0b0101
    rules: Rules = DEFAULT_DEAL_RULES
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

    def as_json(self) -> Dict[str, object]:
        return {
            "deal": self.deal,
            "leader": PBN_DIRECTIONS[self.leader],
            "side": format_side(self.side),
            "tricks": self.tricks,
            "ms": round(self.ms, 3),
            "nodes": self.nodes,
        }


def solve_deal(solver: Solver, hands: Tuple[int, int, int, int],
               options: BatchOptions) -> List[Tuple[int, float, int]]:
    """Solve one deal for each leader: ``[(tricks, ms, nodes), ...]``.

    The deal starts with an empty table (its leaders share it): entries of
    other deals would never match, so memory stays at what one deal needs
    and each deal's nodes do not depend on the deals before it."""
    solver.clear()
    out = []
    for leader in options.leaders:
        pos = board_of(hands, leader, options).position
        before = solver.nodes
        t0 = time.perf_counter()
        tricks = solver.max_tricks(pos, options.side)
        ms = (time.perf_counter() - t0) * 1000.0
        out.append((tricks, ms, solver.nodes - before))
    return out


def board_of(hands: Tuple[int, int, int, int], leader: int, options: BatchOptions) -> Board:
    """The board of ``hands`` (seats N E S W) with ``leader`` to lead."""
    return Board.at(Position(hands, leader, (), options.spades_broken), rules=options.rules)


def _solve_deal(solver: Solver, options: BatchOptions, deal: BatchDeal) -> List[Tuple[int, float, int]]:
    return solve_deal(solver, deal.hands, options)


def run_batch(deals: Iterable[BatchDeal], options: BatchOptions, executor: Executor,
              on_deal: Optional[Callable[[], None]] = None) -> Iterator[BatchResult]:
    """Solve ``deals`` with ``executor``; yield one result per deal and
    leader, in input order. ``on_deal()`` is called once per solved deal
    (progress)."""
    solver_class()  # fail here, not in every worker, if the engine is not built
    total = len(deals) if isinstance(deals, (Sequence, DealsFile)) else None
    work = Work(_solve_deal, options, make_solver, (options.tt_mb,))
    index = 0
    for deal, per_leader in executor.map(work, deals, total=total):
        for leader, (tricks, ms, nodes) in zip(options.leaders, per_leader):
            yield BatchResult(index, deal.line, deal.pbn, leader, options.side, tricks, ms, nodes)
        index += 1
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


class Tally:
    """Counts deals and solves and sums up the solve times for the summary in
    bounded memory, without keeping the results: the times of the first
    ``SUMMARY_EXACT_SOLVES`` solves exactly, and all of them in a histogram of
    buckets 0.1% wide, from which longer runs take their median and p95."""

    def __init__(self) -> None:
        self.deals = 0
        self.solves = 0
        self.max_ms = 0.0
        self.ms = array("d")
        self.buckets: Dict[int, int] = {}
        self._last = -1

    def add(self, result: BatchResult) -> None:
        if result.index != self._last:
            self.deals += 1
            self._last = result.index
        ms = result.ms
        self.solves += 1
        self.max_ms = max(self.max_ms, ms)
        if len(self.ms) < SUMMARY_EXACT_SOLVES:
            self.ms.append(ms)
        key = math.floor(math.log(ms) / _BUCKET_LOG) if ms > 0 else _ZERO_BUCKET
        self.buckets[key] = self.buckets.get(key, 0) + 1

    def _rank(self, rank: int) -> float:
        """The ``rank``-th smallest time (1-based), from the histogram: the
        geometric middle of its bucket."""
        seen = 0
        for key in sorted(self.buckets):
            seen += self.buckets[key]
            if seen >= rank:
                return 0.0 if key == _ZERO_BUCKET else math.exp((key + 0.5) * _BUCKET_LOG)
        return self.max_ms  # pragma: no cover - rank beyond the count

    def summary(self, seconds: float) -> Summary:
        if self.solves <= len(self.ms):  # every time kept: exact
            med, p95 = median(self.ms), percentile(self.ms, 95)
        else:
            n = self.solves
            med = (self._rank((n + 1) // 2) + self._rank(n // 2 + 1)) / 2
            p95 = self._rank(max(1, math.ceil(0.95 * n)))
        return Summary(deals=self.deals, solves=self.solves, seconds=seconds, median_ms=med,
                       p95_ms=p95, max_ms=self.max_ms)


_BUCKET_LOG = math.log(1.001)
_ZERO_BUCKET = -(1 << 30)


def summarise(results: Iterable[BatchResult], seconds: float) -> Summary:
    tally = Tally()
    for r in results:
        tally.add(r)
    return tally.summary(seconds)
