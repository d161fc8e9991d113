"""Every limit on input and resources, in one place (docs/LIMITS.md lists them).

Limits keep hostile or mistaken input from costing more than a bounded amount
of time and memory: a limit is checked before the work it bounds, and its
message names the limit. The command-line options take their ranges from
here (``cli/options.py``).
"""
from __future__ import annotations

import os

# ------------------------------------------------------------------ deal files
#: A deal file is a few kilobytes; larger files are refused unread.
DEAL_FILE_MAX_BYTES = 1 << 20
#: Nesting of YAML collections in a deal file (the format needs 4).
YAML_MAX_DEPTH = 16
#: YAML nodes (scalars, lists, mappings) in a deal file (a full deal with
#: every card listed one by one and 52 played cards has about 250).
YAML_MAX_NODES = 10_000

# ------------------------------------------------------------------ batch files
#: Characters in one line of a batch file (a 13-card deal line is ~70).
BATCH_LINE_MAX_CHARS = 4096
#: Bytes of deal lines ``batch -`` reads from standard input (copied to a
#: temporary file to be checked whole first): about 1.9 million 13-card deals.
BATCH_STDIN_MAX_BYTES = 128 << 20
#: Bad lines of a batch file reported one by one; the rest are counted.
BATCH_ERRORS_SHOWN = 20
#: Solve times kept exactly for batch's summary (8 bytes each); longer runs
#: take the median and p95 from a histogram of buckets 0.1% wide.
SUMMARY_EXACT_SOLVES = 20_000

# ------------------------------------------------------------------ dealing
#: Deals one ``deal`` command makes (all are kept until they are written:
#: 32 bytes each).
DEAL_COUNT_MAX = 1_000_000
#: Deal files one ``deal --out DIR`` writes.
DEAL_FILES_MAX = 10_000
#: The largest ``--max-tries``: candidates a ``deal`` command may deal
#: before it gives up (hours at a few million a second; Ctrl-C stops it).
DEAL_TRIES_MAX = 10 ** 11
#: Characters of one ``--where`` expression, and ``--where`` options.
WHERE_MAX_CHARS = 2000
WHERE_MAX_CONDITIONS = 100
#: Nesting of parentheses and operators in one expression.
WHERE_MAX_DEPTH = 40

# ------------------------------------------------------------------ resources
#: Worker processes per usable core: more only share the same cores, each
#: with its own transposition table.
JOBS_PER_CORE = 4
#: Samples of one bid analysis: every sample's result is kept for the
#: statistics (a few hundred bytes each).
SAMPLES_MAX = 1_000_000
#: Seeds are whole numbers from 0 to 2**64 - 1.
SEED_MAX = 2 ** 64 - 1
#: A solver's transposition table when none is given, in megabytes: the one
#: solver of solve, analyse, review and explore, and each of batch's workers.
DEFAULT_TT_MB = 128.0
#: The table of each worker that solves sampled layouts (bid, advise, review
#: --single-dummy), in megabytes: the full solves need little, but proving a
#: nil kept and counting the tricks beside it fills 16 MB (docs/BENCHMARKS.md
#: "The bid simulation's table").
LAYOUT_TT_MB = 64.0
#: The largest lookahead of the αμ search (``advise --lookahead``): the
#: declarer's side plays 26 cards in a hand.
LOOKAHEAD_MAX = 26
#: The work one lookahead search may spend: αμ nodes, double-dummy leaves
#: (each a question to the engine) and the engine's nodes, about a minute
#: of one core (docs/ADVISE.md "Without hindsight: αμ").
LOOKAHEAD_NODE_BUDGET = 20_000_000
#: The table of each of duck's solvers (one per kind of question), in megabytes.
DUCK_TT_MB = 32.0
#: Fallback for the transposition-table cap where the memory size is unknown.
TT_MB_FALLBACK = 65536.0


def usable_cores() -> int:
    """The cores this process may run on (its CPU affinity where known)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def max_jobs() -> int:
    """The most worker processes a command starts: ``JOBS_PER_CORE`` per core."""
    return JOBS_PER_CORE * usable_cores()


def tt_mb_max() -> float:
    """The largest transposition table (MB): the machine's physical memory."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        size = os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return TT_MB_FALLBACK
    if pages <= 0 or size <= 0:  # pragma: no cover
        return TT_MB_FALLBACK
    return float(pages * size // (1 << 20))
