"""Where the work runs, decided in one place.

The commands that fan out (``batch`` over deals; ``bid``, ``advise`` and
``review --single-dummy`` over samples) turn ``--jobs`` / ``--cluster``
into a :class:`Where` with
:func:`where`, which checks the choice and starts nothing, then start its
:class:`Executor` (:meth:`Where.start`) once their input is known to be
good. The library's functions take that executor and never choose one.

An executor runs a :class:`Work` over a stream of items (:meth:`Executor.map`)
and yields the answers in input order, whatever order they finish in; the
caller may stop taking them at any point (a precision reached), and a
deadline stops the run after at least one answer. Each worker makes the
work's resource once (an engine solver with its table) and keeps it from
item to item. The executors:

* :class:`Inline` answers in this process (``--jobs 1``), :mod:`.work`;
* :class:`ProcessPool` in worker processes on this machine, :mod:`.pool`;
* :class:`DaskExecutor` on a Dask cluster (``--cluster``; the optional
  ``cluster`` extra), :mod:`.cluster`.

The pool and the cluster share one loop (:mod:`.stream`): blocks of items
cut into chunks, the answers put back in order, the deadline. Besides,
:func:`run_limited` runs one generator in a child process for at most a
given time (``duck --time-limit``), :mod:`.limited`. Every child process
follows the rules of :mod:`.children` (it dies with this process, leaves
Ctrl-C to it).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .. import limits
from .cluster import DEFAULT_TIMEOUT, ClusterError, DaskExecutor, parse_address
from .limited import run_limited
from .pool import ProcessPool
from .work import Answers, Executor, Inline, ParallelError, Work, WorkerError


class JobsError(ValueError):
    """A number of worker processes out of range, or ``--jobs`` beside ``--cluster``."""


def default_jobs() -> int:
    """The default number of worker processes: one per usable core."""
    return limits.usable_cores()


def check_jobs(jobs: Optional[int]) -> int:
    """``jobs`` (``None``: :func:`default_jobs`) if it is a whole number from 1
    to :func:`limits.max_jobs`; :class:`JobsError` otherwise."""
    if jobs is None:
        return default_jobs()
    top = limits.max_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not 1 <= jobs <= top:
        raise JobsError(f"--jobs {jobs!r}: expected a number of processes, at least 1 and at "
                        f"most {top} ({limits.JOBS_PER_CORE} per core)")
    return jobs


@dataclass(frozen=True)
class Where:
    """Where a run's work goes: ``jobs`` processes on this machine (``1``:
    this process), or the Dask cluster at ``cluster`` (an address, ``local``
    or ``local:N``), waiting at most ``timeout`` seconds for it."""

    jobs: int = 1
    cluster: Optional[str] = None
    timeout: float = DEFAULT_TIMEOUT

    def start(self) -> Executor:
        """The executor (a cluster connects, a local one starts here)."""
        if self.cluster is not None:
            return DaskExecutor(self.cluster, timeout=self.timeout)
        return Inline() if self.jobs == 1 else ProcessPool(self.jobs)


def where(jobs: Optional[int] = None, cluster: Optional[str] = None,
          timeout: float = DEFAULT_TIMEOUT) -> Where:
    """The choice of a command's options, checked: a Dask cluster for
    ``cluster``, else ``jobs`` local processes (default one per core).
    Both at once is a :class:`JobsError`; a malformed address a
    :class:`ClusterError`."""
    if cluster is not None:
        if jobs is not None:
            raise JobsError("--jobs and --cluster exclude each other (--jobs is the local "
                            "process pool; --cluster a Dask cluster)")
        parse_address(cluster)
        return Where(cluster=cluster, timeout=timeout)
    return Where(check_jobs(jobs))


def executor(jobs: Optional[int] = None, cluster: Optional[str] = None,
             timeout: float = DEFAULT_TIMEOUT) -> Executor:
    """The started executor of :func:`where`'s choice."""
    return where(jobs, cluster, timeout).start()


__all__ = ["Answers", "ClusterError", "DEFAULT_TIMEOUT", "DaskExecutor", "Executor", "Inline",
           "JobsError", "ParallelError", "ProcessPool", "Where", "Work", "WorkerError",
           "check_jobs", "default_jobs", "executor", "run_limited", "where"]
