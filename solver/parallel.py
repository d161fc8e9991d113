"""Running independent work units in parallel: one place for the process pool,
the job count, the time limit and the order of the results.

``batch`` (deals), ``bid`` (sample indices) and ``duck`` (its optional
searches) run their work here. A :class:`Work` says what one worker does:
``make(*make_args)`` builds the worker's resource once (an engine solver with
its table), and ``solve(resource, context, item)`` answers one item. An
:class:`Executor` runs a work over a stream of items and yields the answers in
input order, whatever order they finish in:

* :class:`Inline` answers in this process (``--jobs 1``);
* :class:`ProcessPool` answers in worker processes on this machine;
* ``dummy_spades.solver.cluster.DaskExecutor`` answers on a Dask cluster
  (``--cluster``; the optional ``cluster`` extra).

:func:`executor` chooses one from the command's options. Every executor takes
the same arguments to :meth:`Executor.map`: a ``deadline`` (stop once it has
passed, after at least one answer: ``bid --time-limit``), a ``cost`` per item
(the costliest items of each block of input go out first, so that the last
chunks of a run are short ones; the answers keep their order) and a ``total``
(how many items, where known: it sets the chunk size).

The worker processes of :class:`ProcessPool`:

* die with this process: ``PR_SET_PDEATHSIG`` on Linux, plus a check of the
  parent's pid right after the start, so that a parent killed with SIGKILL
  leaves no worker behind;
* ignore Ctrl-C (the terminal sends it to the whole process group; the
  parent stops them) and print no traceback on SIGTERM or a closed pipe;
* are watched: a worker that dies (killed by the out-of-memory killer, say)
  has its chunk retried once on a fresh worker; a chunk whose worker dies a
  second time stops the run with :class:`WorkerError`.

:func:`run_limited` runs one generator in a forked child for at most a given
time (``duck --time-limit``), with the same rules for the child.
"""
from __future__ import annotations

import abc
import collections
import multiprocessing
import multiprocessing.connection
import os
import pickle
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import (Any, Callable, Deque, Dict, Hashable, Iterable, Iterator, List, Optional,
                    Sequence, Tuple, TypeVar)

from . import limits

K = TypeVar("K", bound=Hashable)

#: The signals a worker handles differently from its parent (see module doc).
_CHILD_SIGNALS = {signal.SIGINT, signal.SIGTERM}
#: Items per chunk sent to a local worker at most, and chunks per worker aimed at.
LOCAL_CHUNK_MAX = 16
LOCAL_CHUNKS_PER_WORKER = 16
#: Chunks each local worker holds at once (one running, one waiting).
LOCAL_DEPTH = 2


class ParallelError(RuntimeError):
    """Parallel work that could not be completed (not a problem of the input)."""


class WorkerError(ParallelError):
    """A worker process died twice on the same chunk (or kept dying).

    ``items`` are the items of that chunk, so that a caller can say which
    input was not answered."""

    def __init__(self, message: str, items: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.items = list(items)


class JobsError(ValueError):
    """A number of worker processes out of range."""


# ------------------------------------------------------------------ job count
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


# ------------------------------------------------------------------ the work
@dataclass(frozen=True)
class Work:
    """What every worker does. ``make`` and ``solve`` are module-level
    functions (a cluster sends them by name); ``context`` is plain data,
    sent to each worker once per run."""

    solve: Callable[[Any, Any, Any], Any]        # solve(resource, context, item) -> answer
    context: Any
    make: Callable[..., Any]                     # make(*make_args) -> resource
    make_args: Tuple[Any, ...] = ()

    @property
    def resource_key(self) -> Tuple[str, str, Tuple[Any, ...]]:
        """What identifies the resource: a worker keeps one per key."""
        return (self.make.__module__, self.make.__qualname__, self.make_args)


class Executor(abc.ABC):
    """Runs a :class:`Work` over items; answers come back in input order."""

    #: how many items are answered at the same time
    workers: int = 1

    @abc.abstractmethod
    def map(self, work: Work, items: Iterable[Any], *, deadline: Optional[float] = None,
            cost: Optional[Callable[[Any], float]] = None,
            total: Optional[int] = None) -> Iterator[Any]:
        """Yield ``(item, work.solve(resource, work.context, item))`` for each item, in order.

        ``deadline`` (a :func:`time.monotonic` time): stop once it has passed
        and at least one answer was yielded; the answers are then those of a
        prefix of ``items``. ``cost(item)``: higher-cost items are started
        first within each block of input. ``total``: the number of items, if
        known (it sets the chunk size)."""

    def close(self) -> None:
        """Release the workers (a no-op for executors that hold none)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def executor(jobs: Optional[int] = None, cluster: Optional[str] = None,
             cluster_timeout: float = 10.0) -> Executor:
    """The executor for a command's options: a Dask cluster for ``cluster``
    (an address, ``local`` or ``local:N``), else a pool of ``jobs`` local
    processes (default one per core; ``1``: this process)."""
    if cluster is not None:
        if jobs is not None:
            raise JobsError("--jobs and --cluster exclude each other: --jobs is the local "
                            "process pool, --cluster a Dask cluster")
        from .cluster import DaskExecutor
        return DaskExecutor(cluster, timeout=cluster_timeout)
    jobs = check_jobs(jobs)
    return Inline() if jobs == 1 else ProcessPool(jobs)


# ------------------------------------------------------------------ in process
class Inline(Executor):
    """Answers in this process, one item after the other. ``resource``: an
    existing resource to use instead of making one."""

    def __init__(self, resource: Any = None) -> None:
        self.resource = resource

    def map(self, work: Work, items: Iterable[Any], *, deadline: Optional[float] = None,
            cost: Optional[Callable[[Any], float]] = None,
            total: Optional[int] = None) -> Iterator[Any]:
        resource = self.resource if self.resource is not None else work.make(*work.make_args)
        for item in items:
            yield item, work.solve(resource, work.context, item)
            if deadline is not None and time.monotonic() >= deadline:
                return


# ------------------------------------------------------------------ worker processes
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
    parent blocked them around the fork, see :func:`_forking`)."""
    _set_parent_death_signal()
    if os.getppid() != parent:  # the parent died before the death signal was set
        os._exit(1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _CHILD_SIGNALS)


class _forking:
    """Block SIGINT and SIGTERM while a child starts, so that it cannot be
    interrupted before it has set up its own handlers."""

    def __enter__(self) -> None:
        self.old = (signal.pthread_sigmask(signal.SIG_BLOCK, _CHILD_SIGNALS)
                    if hasattr(signal, "pthread_sigmask") else None)

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def _context() -> Any:
    """fork where the platform has it (fast; the work need not be pickled)."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it can cross a pipe, else a ParallelError with its text."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:
        return ParallelError(f"{type(exc).__name__}: {exc}")


def _worker_main(conn: Any, work: Work, parent: int) -> None:
    """A pool worker: answer chunks until told to stop or the parent is gone."""
    become_child(parent)
    try:
        try:
            resource = work.make(*work.make_args)
            failed: Optional[BaseException] = None
        except Exception as exc:  # reported with the first chunk
            resource, failed = None, _portable(exc)
        while True:
            message = conn.recv()
            if message is None:
                break
            chunk_id, items = message
            if failed is not None:
                conn.send((chunk_id, False, failed))
                continue
            try:
                answers = [work.solve(resource, work.context, item) for item in items]
            except Exception as exc:
                conn.send((chunk_id, False, _portable(exc)))
            else:
                conn.send((chunk_id, True, answers))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the parent went away or is stopping us: nothing to report
    finally:
        os._exit(0)


@dataclass
class _Chunk:
    id: int
    indices: List[int]
    items: List[Any]
    attempts: int = 0


@dataclass
class _Worker:
    process: Any
    conn: Any
    chunks: List[_Chunk] = field(default_factory=list)
    gone: bool = False       # a send failed: it died


def local_chunk_size(total: Optional[int], workers: int, deadline: Optional[float]) -> int:
    """Items per chunk for the local pool: about ``LOCAL_CHUNKS_PER_WORKER``
    chunks per worker, at most ``LOCAL_CHUNK_MAX`` items; one under a deadline
    (so that the run stops without solving far ahead)."""
    if deadline is not None or total is None:
        return 1 if deadline is not None else LOCAL_CHUNK_MAX
    return max(1, min(LOCAL_CHUNK_MAX, total // (workers * LOCAL_CHUNKS_PER_WORKER)))


class Ordered:
    """Answers that arrive in any order, handed out in input order."""

    def __init__(self) -> None:
        self.ready: Dict[int, Any] = {}
        self.next = 0

    def put(self, index: int, answer: Any) -> None:
        self.ready[index] = answer

    def pop_ready(self) -> Iterator[Any]:
        while self.next in self.ready:
            answer = self.ready.pop(self.next)
            self.next += 1
            yield answer


class Blocks:
    """Reads items from an iterator in blocks, numbers them, and cuts each
    block into chunks, the costliest items first when ``cost`` is given."""

    def __init__(self, items: Iterable[Any], chunk: int, block: int,
                 cost: Optional[Callable[[Any], float]]) -> None:
        self.it = iter(items)
        self.chunk = chunk
        self.block = max(block, chunk)
        self.cost = cost
        self.read = 0
        self.exhausted = False
        self.ids = 0

    def next_block(self) -> List[_Chunk]:
        numbered: List[Tuple[int, Any]] = []
        for item in self.it:
            numbered.append((self.read, item))
            self.read += 1
            if len(numbered) >= self.block:
                break
        else:
            self.exhausted = True
        if self.cost is not None:
            cost = self.cost
            numbered.sort(key=lambda pair: -cost(pair[1]))
        chunks = []
        for start in range(0, len(numbered), self.chunk):
            part = numbered[start:start + self.chunk]
            chunks.append(_Chunk(self.ids, [i for i, _ in part], [x for _, x in part]))
            self.ids += 1
        return chunks


class ProcessPool(Executor):
    """Answers in ``jobs`` worker processes on this machine (see the module doc)."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._live: List[_Worker] = []

    # -------------------------------------------------------------- workers
    def _start(self, work: Work) -> _Worker:
        ctx = _context()
        here, there = ctx.Pipe(duplex=True)
        with _forking():
            process = ctx.Process(target=_worker_main, args=(there, work, os.getpid()),
                                  daemon=True)
            process.start()
        there.close()
        worker = _Worker(process, here)
        self._live.append(worker)
        return worker

    def _stop(self, worker: _Worker) -> None:
        if worker in self._live:
            self._live.remove(worker)
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()
        worker.conn.close()

    def close(self) -> None:
        for worker in list(self._live):
            self._stop(worker)

    # -------------------------------------------------------------- map
    def map(self, work: Work, items: Iterable[Any], *, deadline: Optional[float] = None,
            cost: Optional[Callable[[Any], float]] = None,
            total: Optional[int] = None) -> Iterator[Any]:
        jobs = self.workers if total is None else max(1, min(self.workers, total))
        chunk = local_chunk_size(total, jobs, deadline)
        blocks = Blocks(items, chunk, chunk * jobs * LOCAL_DEPTH * 4, cost)
        window = 2 * blocks.block
        pending: Deque[_Chunk] = collections.deque()
        order = Ordered()
        deaths_idle = 0
        yielded = 0
        try:
            workers = [self._start(work) for _ in range(jobs)]
            while True:
                if not pending and not blocks.exhausted and blocks.read - order.next < window:
                    pending.extend(blocks.next_block())
                for w in workers:
                    while pending and len(w.chunks) < LOCAL_DEPTH and not w.gone:
                        c = pending.popleft()
                        try:
                            w.conn.send((c.id, c.items))
                        except OSError:  # it died: its sentinel tells below
                            pending.appendleft(c)
                            w.gone = True
                        else:
                            w.chunks.append(c)
                for answer in order.pop_ready():
                    yield answer
                    yielded += 1
                    if deadline is not None and time.monotonic() >= deadline:
                        return
                busy = [w for w in workers if w.chunks]
                if not busy and not pending and not any(w.gone for w in workers):
                    if blocks.exhausted:
                        return
                    continue
                timeout = None
                if deadline is not None and yielded:
                    timeout = max(0.0, deadline - time.monotonic())
                ready = multiprocessing.connection.wait(
                    [w.conn for w in busy] + [w.process.sentinel for w in workers], timeout)
                if not ready:
                    return  # the deadline passed while waiting
                for w in list(workers):
                    dead = w.process.sentinel in ready
                    if w.conn in ready:
                        try:
                            chunk_id, ok, payload = w.conn.recv()
                        except (EOFError, OSError):
                            dead = True
                        else:
                            c = next(c for c in w.chunks if c.id == chunk_id)
                            w.chunks.remove(c)
                            if not ok:
                                raise payload
                            for index, item, answer in zip(c.indices, c.items, payload):
                                order.put(index, (item, answer))
                    if not dead:
                        continue
                    workers.remove(w)
                    lost = w.chunks
                    self._stop(w)
                    if not lost:
                        deaths_idle += 1
                        if deaths_idle > jobs:
                            raise WorkerError("worker processes keep dying before they "
                                              "take any work")
                    if lost:  # the first was being answered, the others waited behind it
                        lost[0].attempts += 1
                        if lost[0].attempts > 1:
                            raise WorkerError(
                                f"a worker process died twice ({_how(w.process)}) on the "
                                "same work", lost[0].items)
                    pending.extendleft(reversed(lost))
                    workers.append(self._start(work))
        finally:
            self.close()


def _how(process: Any) -> str:
    code = process.exitcode
    if code is not None and code < 0:
        try:
            return f"killed by {signal.Signals(-code).name}"
        except ValueError:  # pragma: no cover
            return f"killed by signal {-code}"
    return f"exit code {code}"


# ------------------------------------------------------------------ one child, a time limit
#: The longest single wait (seconds); longer limits wait in steps of this.
_WAIT_STEP = 3600.0


def run_limited(tasks: Callable[[], Iterator[Tuple[K, object]]],
                seconds: Optional[float]) -> Tuple[Dict[K, object], bool]:
    """Run the generator ``tasks()`` of ``(key, value)`` results for at most
    ``seconds``, in a forked child process killed when time is up (``None``:
    in this process, no limit; ``0``: not at all). Returns the results that
    arrived and whether the generator finished. The child dies with this
    process and leaves Ctrl-C to it (see :func:`become_child`)."""
    if seconds is None:
        return dict(tasks()), True
    if not seconds > 0:
        return {}, False
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    parent = os.getpid()

    def work() -> None:
        become_child(parent)
        try:
            for item in tasks():
                send.send(("item", item))
            send.send(("done", None))
        except (EOFError, OSError, KeyboardInterrupt):
            pass
        except BaseException as exc:
            try:
                send.send(("error", _portable(exc)))
            except OSError:
                pass
        finally:
            os._exit(0)

    with _forking():
        proc = ctx.Process(target=work, daemon=True)
        proc.start()
    send.close()
    out: Dict[K, object] = {}
    finished = False
    deadline = time.monotonic() + seconds
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                break
            if not recv.poll(min(left, _WAIT_STEP)):
                continue
            try:
                kind, payload = recv.recv()
            except EOFError:
                break
            if kind == "item":
                key, value = payload
                out[key] = value
            elif kind == "done":
                finished = True
                break
            else:
                raise payload
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    return out, finished


__all__ = ["Executor", "Inline", "JobsError", "ParallelError", "ProcessPool", "Work",
           "WorkerError", "check_jobs", "default_jobs", "executor", "run_limited",
           "become_child"]
