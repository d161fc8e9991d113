"""``dummy-spades batch DEALS``: double-dummy tricks for many PBN deal lines.

Thin: options -> solver.batch (parsing, validation, the process pool and the
statistics) -> a plain text table or JSON lines on stdout, a summary (and a
progress bar when stderr is a terminal) on stderr.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

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
from dummy_spades.solver.parallel import Executor, ParallelError
from dummy_spades.solver.seating import PBN_DIRECTIONS

from .common import err_console, error_line, fail, handle_errors, progress_bar
from .options import Cluster, ClusterTimeout, Jobs, NoSpadeBreaking, executor_for, json_option
from .solve import TtMb

HELP = """Solve many deals, one per line: N:<declarer> <left defender> <dummy> <right defender>.

Hands are in PBN dot notation (spades first, e.g. AKT73.QJ2.984.A52), all of
the same length (1 to 13 cards). Blank lines and # comments are ignored. Every
line is checked before anything is solved.
"""

TABLE_HEADER = f"{'line':>5}  {'leader':<6}  {'side':<4}  {'tricks':>6}  {'ms':>9}  {'nodes':>11}  deal"


def _table_row(r: BatchResult) -> str:
    return (
        f"{r.line:>5}  {PBN_DIRECTIONS[r.leader]:<6}  {format_side(r.side):<4}  {r.tricks:>6}  "
        f"{r.ms:>9.1f}  {r.nodes:>11}  {r.deal}"
    )


@handle_errors
def batch(
    file: Annotated[Path, typer.Argument(metavar="DEALS", help="Deals file: one PBN deal per line.",
                                         show_default=False)],
    leader: Annotated[str, typer.Option("--leader", "-l", metavar="N|E|S|W|all", help="Opening leader: N, E, S, W or all.")] = "W",
    side: Annotated[
        str,
        typer.Option("--side", metavar="SEATS", help="Seats whose tricks are maximised and counted, e.g. NS, EW, NES."),
    ] = "NS",
    no_spade_breaking: NoSpadeBreaking = False,
    spades_broken: Annotated[
        bool, typer.Option("--spades-broken", metavar="", help="Start with spades already broken.")
    ] = False,
    jobs: Jobs = None,
    cluster: Cluster = None,
    cluster_timeout: ClusterTimeout = 10.0,
    json_out: Annotated[bool, json_option(help="One JSON object per line per deal and leader.")] = False,
    tt_mb: TtMb = None,
) -> None:
    make_runner = executor_for(jobs, cluster, cluster_timeout)
    options = BatchOptions(
        leaders=tuple(parse_leaders(leader)),
        side=parse_side(side),
        breaking=not no_spade_breaking,
        spades_broken=spades_broken,
        tt_mb=tt_mb,
    )
    try:
        deals = open_deals(file)
    except DealsFileError as exc:
        for message in exc.messages:
            err_console.print(error_line(message), highlight=False, soft_wrap=True)
        raise typer.Exit(1)
    with make_runner() as runner:
        solve_and_write(deals, options, runner, json_out)


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
            for r in run_batch(deals, options, on_deal=advance, executor=runner):
                tally.add(r)
                solved = tally.deals
                out.write((json.dumps(r.as_json()) if json_out else _table_row(r)) + "\n")
                out.flush()
    except ParallelError as exc:
        fail(f"{deals.path}: {exc}; {_unsolved(deals, solved)}")
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
