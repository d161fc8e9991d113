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
from typing import Annotated, List, Optional

import typer

from dummy_spades.solver.batch import (
    SEAT_LETTERS,
    BatchOptions,
    BatchResult,
    DealsFileError,
    format_side,
    parse_leaders,
    parse_side,
    read_deals,
    run_batch,
    summarise,
)

from .common import err_console, escape_markup, fail, handle_errors, progress_bar
from .solve import TtMbOpt

HELP = """Solve many deals, one per line: N:<declarer> <left defender> <dummy> <right defender>.

Hands are in PBN dot notation (spades first, e.g. AKT73.QJ2.984.A52), all of
the same length (1 to 13 cards). Blank lines and # comments are ignored. Every
line is checked before anything is solved.
"""

TABLE_HEADER = f"{'line':>5}  {'leader':<6}  {'side':<4}  {'tricks':>6}  {'ms':>9}  {'nodes':>11}  deal"


def _table_row(r: BatchResult) -> str:
    return (
        f"{r.line:>5}  {SEAT_LETTERS[r.leader]:<6}  {format_side(r.side):<4}  {r.tricks:>6}  "
        f"{r.ms:>9.1f}  {r.nodes:>11}  {r.deal}"
    )


@handle_errors
def batch(
    deals: Annotated[Path, typer.Argument(metavar="DEALS", help="Deals file: one PBN deal per line.", show_default=False)],
    leader: Annotated[str, typer.Option("--leader", "-l", metavar="N|E|S|W|all", help="Opening leader: N, E, S, W or all.")] = "W",
    side: Annotated[
        str,
        typer.Option("--side", metavar="SEATS", help="Seats whose tricks are maximised and counted, e.g. NS, EW, NES."),
    ] = "NS",
    no_spade_breaking: Annotated[
        bool, typer.Option("--no-spade-breaking", help="Switch the spade-breaking rule off (bridge play).")
    ] = False,
    spades_broken: Annotated[
        bool, typer.Option("--spades-broken", help="Start with spades already broken.")
    ] = False,
    jobs: Annotated[
        Optional[int], typer.Option("--jobs", "-j", metavar="J", min=1, help="Worker processes (default: all cores).", show_default=False)
    ] = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="One JSON object per line per deal and leader.")
    ] = False,
    tt_mb: TtMbOpt = None,
) -> None:
    if tt_mb is not None and not tt_mb > 0:
        fail(f"--tt-mb must be a positive number of megabytes, not {tt_mb:g}")
    options = BatchOptions(
        leaders=tuple(parse_leaders(leader)),
        side=parse_side(side),
        breaking=not no_spade_breaking,
        spades_broken=spades_broken,
        tt_mb=tt_mb,
    )
    try:
        parsed = read_deals(deals)
    except DealsFileError as exc:
        for message in exc.messages:
            err_console.print(f"[bold red]error:[/] {escape_markup(message)}", highlight=False, soft_wrap=True)
        raise typer.Exit(1)

    results: List[BatchResult] = []
    out = sys.stdout
    if not json_out:
        out.write(TABLE_HEADER + "\n")
    start = time.perf_counter()
    with progress_bar(len(parsed), "solving") as advance:
        for r in run_batch(parsed, options, jobs=jobs, on_deal=advance):
            results.append(r)
            out.write((json.dumps(r.as_json()) if json_out else _table_row(r)) + "\n")
    out.flush()
    summary = summarise(results, time.perf_counter() - start)
    err_console.print(str(summary), highlight=False, soft_wrap=True)


def register(app: typer.Typer) -> None:
    app.command("batch", help=HELP)(batch)
