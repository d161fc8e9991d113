"""The options shared by the commands, each defined once with its constraints.

A value out of range is a usage error (exit 2) reported by Typer before the
command runs; the ranges come from :mod:`dummy_spades.solver.limits`
(docs/LIMITS.md). A flag needs no ``metavar``: the app shows no type beside
any flag (:mod:`dummy_spades.cli.app`).

Options whose help names a command's own document or default are built by
a small function (``json_option("docs/SOLVE.md")``); the others are ready
``Annotated`` types (``Jobs``, ``Seed``...).
"""
from __future__ import annotations

import enum
import math
from pathlib import Path
from typing import Annotated, Any, List, Optional

import typer

from dummy_spades.solver import limits, run
from dummy_spades.solver.errors import DealError
from dummy_spades.solver.limits import DEFAULT_TT_MB, LOOKAHEAD_MAX
from dummy_spades.solver.scoring import TRICKS_PER_HAND
from dummy_spades.solver.simulation import CONDITIONED, EXACT_LIMIT_MAX, UNIFORM

DEAL_FILE_HELP = "A YAML deal file (docs/FORMAT.md)."
NO_BREAKING_HELP = "Switch the spade-breaking rule off (spades may be led at any time: bridge play)."


def _finite(value: Optional[float]) -> Optional[float]:
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number")
    return value


def _positive_finite(value: Optional[float]) -> Optional[float]:
    if value is not None and not (math.isfinite(value) and value > 0):
        raise typer.BadParameter(f"{value} is not a positive number of megabytes")
    return value


def _positive_seconds(value: float) -> float:
    if not (math.isfinite(value) and value > 0):
        raise typer.BadParameter(f"{value} is not a positive number of seconds")
    return value


# ------------------------------------------------------------------ the deal
DealFile = Annotated[Path, typer.Argument(metavar="FILE", help=DEAL_FILE_HELP, show_default=False)]
NoSpadeBreaking = Annotated[bool, typer.Option("--no-spade-breaking", help=NO_BREAKING_HELP)]


def json_option(doc: str = "", help: Optional[str] = None) -> Any:
    """``--json``: the documented JSON of the command (``doc`` names where)."""
    text = help or ("Print the documented JSON fields instead"
                    + (f" ({doc})." if doc else "."))
    return typer.Option("--json", help=text)


def html_option(doc: str) -> Any:
    """``--html PATH``: the report also as one self-contained page (``doc``
    names the document that describes it); checked by
    :func:`dummy_spades.cli.page.html_target` before the analysis runs."""
    return typer.Option(
        "--html", metavar="PATH", show_default=False,
        help="Also write the report as one self-contained HTML page at PATH (no network: "
             f"inline CSS, script and charts; the --json fields drawn for people; {doc}).")


def declarer_option(help: str) -> Any:
    """``--declarer NAME``: a player as the declarer (``help`` says of what)."""
    return typer.Option("--declarer", metavar="NAME", show_default=False, help=help)


#: The declarer of an analysis (analyse, explore).
Declarer = Annotated[Optional[str], declarer_option(
    "The declarer, when the file has no complete auction; or a what-if declarer "
    "in place of the auction's (before any card is played).")]


def player_option(help: str) -> Any:
    """``--player NAME`` / ``-p``: the player a command answers for."""
    return typer.Option("--player", "-p", metavar="NAME", show_default=False, help=help)


def dealer_option(help: str) -> Any:
    """``--dealer NAME``."""
    return typer.Option("--dealer", metavar="NAME", show_default=False, help=help)


def players_option(help: str) -> Any:
    """``--players A,B,C`` (read with :func:`parse_players`)."""
    return typer.Option("--players", metavar="A,B,C", help=help)


class Target(str, enum.Enum):
    """--to: what is written, PBN deal strings or YAML deal files."""

    pbn = "pbn"
    yaml = "yaml"


def to_option(help: str) -> Any:
    """``--to pbn|yaml``."""
    return typer.Option("--to", show_default=False, help=help)


def parse_players(text: str) -> List[str]:
    """``--players A,B,C``: three names, clockwise (checked further by the deal)."""
    names = [n.strip() for n in text.split(",")]
    if len(names) != 3 or not all(names):
        raise DealError(f"--players {text!r} does not name three players",
                        field="--players", expected="three names separated by commas, clockwise")
    return names


# ------------------------------------------------------------------ resources
TT_MB_MAX = limits.tt_mb_max()
JOBS_MAX = limits.max_jobs()


def tt_mb_option(default_mb: float, per: str = "", defaults: str = "") -> Any:
    """``--tt-mb MB``: the transposition table's memory bound, ``per`` solver
    (`` per worker``); ``defaults`` says it where the option sizes tables of
    more than one kind, each with its default."""
    return typer.Option(
        "--tt-mb", metavar="MB", max=TT_MB_MAX, callback=_positive_finite, show_default=False,
        help=f"Transposition-table memory bound in megabytes{per} "
             f"({defaults or f'default {default_mb:g}'}); "
             f"more than 0, at most the machine's memory ({TT_MB_MAX:g} here).")


#: ``--tt-mb`` of a command that makes one solver (or one per worker at the engine's default).
TtMb = Annotated[Optional[float], tt_mb_option(DEFAULT_TT_MB)]

Jobs = Annotated[Optional[int], typer.Option(
    "--jobs", "-j", metavar="J", min=1, max=JOBS_MAX, show_default=False,
    help=f"Worker processes (default: one per core, {limits.usable_cores()} here); the "
         f"answers do not depend on it. At most {limits.JOBS_PER_CORE} per core "
         f"({JOBS_MAX} here): more only share the same cores, each with its own table.")]


def seconds_option(name: str, help: str, show_default: bool = False) -> Any:
    """``NAME SECONDS``: a positive finite number of seconds (or ``None``)."""
    def positive(value: Optional[float]) -> Optional[float]:
        return None if value is None else _positive_seconds(value)
    return typer.Option(name, metavar="SECONDS", callback=positive, show_default=show_default,
                        help=help)


def time_limit_option(help: str) -> Any:
    """``--time-limit SECONDS``: a finite number of seconds, 0 or more."""
    return typer.Option("--time-limit", "-t", metavar="SECONDS", min=0, callback=_finite,
                        show_default=False, help=help)


# ------------------------------------------------------------------ simulation
def seed_option(help: str, show_default: bool = True) -> Any:
    """``--seed S``: 0 to 2**64-1."""
    return typer.Option("--seed", metavar="S", min=0, max=limits.SEED_MAX,
                        show_default=show_default, help=help)


Seed = Annotated[int, seed_option(
    "Random seed (0 to 2**64-1): the same seed gives the same samples.")]


def samples_option(help: str) -> Any:
    """``--samples N`` / ``-n``: 1 to :data:`~solver.limits.SAMPLES_MAX`."""
    return typer.Option("--samples", "-n", metavar="N", min=1, max=limits.SAMPLES_MAX, help=help)


Samples = Annotated[int, samples_option(
    f"Random layouts to solve (1 to {limits.SAMPLES_MAX:,}).")]


def exact_limit_option(help: str) -> Any:
    """``--exact-limit N``: 0 to :data:`~solver.simulation.EXACT_LIMIT_MAX` layouts."""
    return typer.Option("--exact-limit", metavar="N", min=0, max=EXACT_LIMIT_MAX, help=help)


class Sampling(str, enum.Enum):
    """--sampling: how the layouts are drawn (docs/BID.md "Sampling")."""

    conditioned = CONDITIONED
    uniform = UNIFORM


def sampling_option(help: str) -> Any:
    """``--sampling conditioned|uniform``."""
    return typer.Option("--sampling", metavar="METHOD", help=help)


def precision_option(unit: str, help: str) -> Any:
    """``--precision X``: a positive finite number (``unit`` names what X counts)."""
    def positive(value: Optional[float]) -> Optional[float]:
        if value is not None and not 0 < value < float("inf"):
            raise typer.BadParameter(f"{value} is not a positive number ({unit})")
        return value
    return typer.Option("--precision", metavar="X", callback=positive, show_default=False,
                        help=help)


# ------------------------------------------------------------------ without hindsight
def lookahead_option(help: str) -> Any:
    """``--lookahead M``: 1 to :data:`~solver.limits.LOOKAHEAD_MAX` moves."""
    return typer.Option("--lookahead", metavar="M", min=1, max=LOOKAHEAD_MAX,
                        show_default=False, help=help)


def goal_option(help: str) -> Any:
    """``--goal N``: 0 to 13 tricks."""
    return typer.Option("--goal", metavar="N", min=0, max=TRICKS_PER_HAND, show_default=False,
                        help=help)


# ------------------------------------------------------------------ where the work runs
CLUSTER_ENV = "DUMMY_SPADES_CLUSTER"
Cluster = Annotated[Optional[str], typer.Option(
    "--cluster", metavar="ADDRESS", envvar=CLUSTER_ENV, show_envvar=False, show_default=False,
    help="Solve on a Dask cluster instead of local processes: a scheduler address "
         "(tcp://host:8786), or local / local:N for a cluster of N processes on this machine "
         f"for the run. Also settable as {CLUSTER_ENV}. Excludes --jobs; --tt-mb is per worker. "
         "Needs pip install 'dummy-spades[cluster]' (docs/CLUSTER.md).")]
CLUSTER_TIMEOUT = run.DEFAULT_TIMEOUT
ClusterTimeout = Annotated[float, typer.Option(
    "--cluster-timeout", metavar="SECONDS", callback=_positive_seconds,
    help="Seconds to wait for the cluster's scheduler before giving up.")]


def where(jobs: Optional[int], cluster: Optional[str], cluster_timeout: float) -> run.Where:
    """Where the command's work runs, from ``--jobs``, ``--cluster`` and
    ``--cluster-timeout`` (:func:`run.where`); the command starts its
    executor once the input is known to be good (a cluster takes time to
    start). Both options given is a usage error, reported at once."""
    try:
        return run.where(jobs, cluster, cluster_timeout)
    except run.JobsError as exc:
        raise typer.BadParameter(str(exc), param_hint=f"--cluster (or {CLUSTER_ENV})") from None
