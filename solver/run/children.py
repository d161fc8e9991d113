"""The rules every child process of this one follows (the local pool's
workers, :func:`~.limited.run_limited`'s child):

* it dies with this process: ``PR_SET_PDEATHSIG`` on Linux, plus a check of
  the parent's pid right after the start, so that a parent killed with
  SIGKILL leaves no child behind;
* it ignores Ctrl-C (the terminal sends it to the whole process group; the
  parent stops its children) and prints no traceback on SIGTERM or a
  closed pipe;
* it cannot be interrupted while it starts (:class:`Forking`).
"""
from __future__ import annotations

import multiprocessing
import os
import pickle
import signal
import sys
from typing import Any

from .work import ParallelError

#: The signals a child handles differently from its parent.
CHILD_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _set_parent_death_signal() -> None:
    """Ask Linux to SIGKILL this process when its parent dies (no-op elsewhere)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        PR_SET_PDEATHSIG = 1
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):  # pragma: no cover - no prctl
        pass


def become_child(parent: int) -> None:
    """The first thing a child process does: die with ``parent``, leave
    Ctrl-C to it, die quietly on SIGTERM, then accept signals again (the
    parent blocked them around the fork, see :class:`Forking`)."""
    _set_parent_death_signal()
    if os.getppid() != parent:  # the parent died before the death signal was set
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, CHILD_SIGNALS)


class Forking:
    """Block SIGINT and SIGTERM while a child starts, so that it cannot be
    interrupted before it has set up its own handlers."""

    def __enter__(self) -> None:
        self.old = (signal.pthread_sigmask(signal.SIG_BLOCK, CHILD_SIGNALS)
                    if hasattr(signal, "pthread_sigmask") else None)

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def start_method() -> Any:
    """fork where the platform has it (fast; the work need not be pickled)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def portable(exc: BaseException) -> BaseException:
    """``exc`` if it can cross a pipe, else a ParallelError with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return ParallelError(f"{type(exc).__name__}: {exc}")


def how_it_ended(process: Any) -> str:
    """How a child process ended, in words: the signal that killed it or its exit code."""
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:  # pragma: no cover
            return f"killed by signal {-code}"
    return f"exit code {code}"
