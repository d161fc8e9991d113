"""``dummy-spades batch DEALS``: double-dummy tricks for many PBN deal lines.

Thin: options -> solver.batch (parsing, validation, the statistics), solved
on the executor of --jobs / --cluster -> a plain text table or JSON lines on
stdout, a summary (and a progress bar when stderr is a terminal) on stderr.
"""
from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Annotated, Iterator

import typer

from dummy_spades.solver.batch import (
    BatchOptions,
    BatchResult,
    DealsFile,
    DealsFileError,
    Tally,
    format_side,
    open_deals,
    parse_leaders,
    parse_side,
    run_batch,
)
from dummy_spades.solver.files import STDIN_NAME, InputFileError, spooled
from dummy_spades.solver.limits import BATCH_STDIN_MAX_BYTES
from dummy_spades.solver.rules import Rules
from dummy_spades.solver.run import Executor, ParallelError
from dummy_spades.solver.seating import PBN_DIRECTIONS

from .common import command_rules, err_console, error_line, fail, handle_errors, progress_bar
from .options import (CLUSTER_TIMEOUT, Cluster, ClusterTimeout, Jobs, NoSpadeBreaking, TtMb,
                      json_option, where)

HELP = """Solve many deals, one per line: N:<declarer> <left defender> <dummy> <right defender>.

Hands are in PBN dot notation (spades first, e.g. AKT73.QJ2.984.A52), all of
the same length (1 to 13 cards). Blank lines and # comments are ignored. Every
line is checked before anything is solved. DEALS "-" reads standard input
(dummy-spades deal ... --to pbn | dummy-spades batch -).
"""

TABLE_HEADER = f"{'line':>5}  {'leader':<6}  {'side':<4}  {'tricks':>6}  {'ms':>9}  {'nodes':>11}  deal"


def _table_row(r: BatchResult) -> str:
    return (
        f"{r.line:>5}  {PBN_DIRECTIONS[r.leader]:<6}  {format_side(r.side):<4}  {r.tricks:>6}  "
        f"{r.ms:>9.1f}  {r.nodes:>11}  {r.deal}"
    )


@handle_errors
def batch(
    file: Annotated[Path, typer.Argument(
        metavar="DEALS", help="Deals file: one PBN deal per line; - reads standard input.",
        show_default=False)],
    leader: Annotated[str, typer.Option("--leader", "-l", metavar="N|E|S|W|all", help="Opening leader: N, E, S, W or all.")] = "W",
    side: Annotated[
        str,
        typer.Option("--side", metavar="SEATS", help="Seats whose tricks are maximised and counted, e.g. NS, EW, NES."),
    ] = "NS",
    no_spade_breaking: NoSpadeBreaking = False,
    spades_broken: Annotated[
        bool, typer.Option("--spades-broken", help="Start with spades already broken.")
    ] = False,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_timeout: ClusterTimeout = CLUSTER_TIMEOUT,
    json_out: Annotated[bool, json_option(help="One JSON object per line per deal and leader.")] = False,
    tt_mb: TtMb = None,
) -> None:
    runs_on = where(jobs, cluster, cluster_timeout)
    options = BatchOptions(
        leaders=tuple(parse_leaders(leader)),
        side=parse_side(side),
        rules=command_rules(Rules(), no_spade_breaking),
        spades_broken=spades_broken,
        tt_mb=tt_mb,
    )
    try:
        with opened(file) as deals, runs_on.start() as runner:
            solve_and_write(deals, options, runner, json_out)
    except DealsFileError as exc:
        for message in exc.messages:
            err_console.print(error_line(message), highlight=False, soft_wrap=True)
        raise typer.Exit(1)


@contextlib.contextmanager
def opened(file: Path) -> Iterator[DealsFile]:
    """The checked deals of ``file``; ``-`` is standard input, copied to a
    temporary file (within ``BATCH_STDIN_MAX_BYTES``) so that it can be
    checked whole and then read again while it is solved."""
    if str(file) != "-":
        yield open_deals(file)
        return
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise DealsFileError([f"{STDIN_NAME}: standard input is closed; expected deal lines"])
    try:
        with spooled(stream, BATCH_STDIN_MAX_BYTES,
                     "at most that much on standard input (a larger set: a deals file)") as path:
            yield open_deals(path, STDIN_NAME)
    except InputFileError as exc:
        raise DealsFileError([f"{STDIN_NAME}: {exc}"]) from None


def solve_and_write(deals: DealsFile, options: BatchOptions, runner: Executor,
                    json_out: bool) -> None:
    """Solve ``deals`` with ``runner``, one complete line per result on
    stdout as it comes (in input order), the summary on stderr. A run
    stopped part way (a worker that keeps dying, a cluster gone) leaves the
    lines written so far whole and says which input lines were not solved."""
    tally = Tally()
    out = sys.stdout
    if not json_out:
        out.write(TABLE_HEADER + "\n")
    start = time.perf_counter()
    solved = 0
    try:
        with progress_bar(len(deals), "solving") as advance:
            for r in run_batch(deals, options, runner, on_deal=advance):
                tally.add(r)
                solved = tally.deals
                out.write((json.dumps(r.as_json()) if json_out else _table_row(r)) + "\n")
                out.flush()
    except ParallelError as exc:
        fail(f"{deals.name}: {exc}; {_unsolved(deals, solved)}")
    summary = tally.summary(time.perf_counter() - start)
    err_console.print(str(summary), highlight=False, soft_wrap=True)


def _unsolved(deals: DealsFile, solved: int) -> str:
    """Which input lines have no answer when a run stops after ``solved`` deals."""
    first = next((d.line for i, d in enumerate(deals) if i == solved), None)
    if first is None:
        return "every deal was solved"
    return f"the deals from line {first} on were not solved ({len(deals) - solved} of {len(deals)})"


def register(app: typer.Typer) -> None:
    app.command("batch", help=HELP)(batch)
