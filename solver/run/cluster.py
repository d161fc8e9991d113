"""A Dask cluster as an executor (``--cluster``).

Needs the optional extra: ``pip install 'dummy-spades[cluster]'`` (Dask's
distributed scheduler). docs/CLUSTER.md says how to start a cluster.

* ``local`` or ``local:N`` starts a ``LocalCluster`` of N single-threaded
  worker processes for the run (N defaults to the usable cores) and closes it
  afterwards: its workers start while the first chunks go out, and its Dask
  settings (:data:`LOCAL_SETTINGS`) keep its housekeeping out of the
  searches' way. Any other address (``tcp://host:8786``) connects to a
  running scheduler, giving up after ``timeout`` seconds.
* Before any work is sent to a cluster this process did not start, every
  worker's installed ``dummy-spades`` version is compared with this one; a
  worker with another version is refused. (A local cluster's workers run
  this very installation.)
* Work goes out in chunks of items (:func:`chunk_size`); each worker thread
  keeps one resource (an engine solver with its table) for the whole run,
  and every chunk of every run with the same settings reuses it.
* A worker that dies has its chunks run again on another worker (Dask's
  scheduler does this; a chunk that kills workers again and again ends the
  run with :class:`~.work.WorkerError`). Answers are taken once per item and
  yielded in input order (:func:`~.stream.stream`). A cluster that goes away
  ends the run with :class:`ClusterError`.
"""
from __future__ import annotations

import importlib.util
import logging
import math
import sys
import threading
import time
from typing import Any, Deque, Dict, Iterable, List, Optional, Tuple

from .. import __version__, limits
from .stream import Channel, Chunk, Done, stream
from .work import Answers, Executor, ParallelError, Work, WorkerError

INSTALL_HINT = "pip install 'dummy-spades[cluster]'"

#: Chunks aim at this many seconds of work each: the measured overhead of a
#: chunk on a local cluster is a few milliseconds (docs/CLUSTER.md), so about
#: 1% of the time goes on scheduling.
CHUNK_SECONDS = 0.5
#: ... while each worker still gets at least this many chunks of the input,
#: so that the work spreads evenly.
CHUNKS_PER_WORKER = 4
#: Chunks in flight per worker thread (one running, the others queued on it).
DEPTH = 3
#: Seconds between checks of the scheduler connection while waiting.
WAIT_STEP = 1.0
#: Seconds to wait for the scheduler and for a first worker (``--cluster-timeout``).
DEFAULT_TIMEOUT = 10.0


class ClusterError(ParallelError):
    """The cluster cannot be used: the extra is missing, the scheduler cannot
    be reached, a worker has another version, or the cluster went away."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(_MISSING) from None
    return distributed


_MISSING = f"--cluster needs Dask's distributed scheduler: {INSTALL_HINT}"


# ------------------------------------------------------------------ on the workers
_RESOURCES: Dict[int, Tuple[Any, Any]] = {}   # thread id -> (resource key, resource)
_RESOURCES_LOCK = threading.Lock()


def _resource(work: Work) -> Any:
    """This worker thread's resource for ``work``: made once per key and kept
    (one engine solver with its table per worker thread, whatever the task)."""
    me = threading.get_ident()
    key = work.resource_key
    held = _RESOURCES.get(me)
    if held is not None and held[0] == key:
        return held[1]
    with _RESOURCES_LOCK:
        _RESOURCES.pop(me, None)         # free the old table before making a new one
    resource = work.make(*work.make_args)
    with _RESOURCES_LOCK:
        _RESOURCES[me] = (key, resource)
    return resource


def run_chunk(work: Work, items: List[Any]) -> Tuple[List[Any], float]:
    """A cluster task: the answers to ``items`` and the seconds they took."""
    start = time.perf_counter()
    resource = _resource(work)
    answers = [work.solve(resource, work.context, item) for item in items]
    return answers, time.perf_counter() - start


def worker_version() -> str:
    """The ``dummy-spades`` version installed on a worker."""
    from .. import __version__ as version

    return version


#: Dask settings of a local cluster (its scheduler, its workers and the
#: client, all started by this process). A local cluster shares the cores
#: with the searches, so its housekeeping runs rarely.
LOCAL_SETTINGS: Dict[str, Any] = {
    # Dask's default fixes glibc's trim threshold in the workers, which also
    # fixes its mmap threshold: every table regrown after a clear (once per
    # deal) would then be a fresh mapping that the kernel zeroes page by page
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    # no statistical profiler sampling the search's thread every 10 ms (it
    # feeds the dashboard)
    "distributed.worker.profile.enabled": False,
    # event-loop watchdogs, memory and system monitors: seconds, not 20-500 ms
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    # chunks wait on the scheduler until a worker thread is free (Dask's
    # queueing), so there is nothing to steal
    "distributed.scheduler.work-stealing": False,
}
#: Imported once by the fork server that local workers are forked from.
FORKSERVER_PRELOAD = ["__main__", "distributed", "dummy_spades.solver.batch",
                      "dummy_spades.solver.bid", "dummy_spades.solver.engine"]


def _start_forkserver() -> bool:
    """Start the fork server that local workers are forked from, where the
    platform has one: a clean process that imports Python, Dask and the
    solver once (:data:`FORKSERVER_PRELOAD`, while this process imports
    Dask), so that each worker starts without importing them again. False
    where workers start as fresh interpreters."""
    import multiprocessing
    from multiprocessing import forkserver

    if "forkserver" not in multiprocessing.get_all_start_methods():
        return False
    preload = list(FORKSERVER_PRELOAD)
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None:   # python -m: each worker imports the main module by name
        preload.append(spec.name)
    forkserver.set_forkserver_preload(preload)
    forkserver.ensure_running()  # a no-op if it runs already
    return True


def _local_settings(forkserver: bool) -> Any:
    """Apply :data:`LOCAL_SETTINGS` (and the fork server as the workers'
    start method) and return the Dask setting to undo at close."""
    import dask

    settings = dict(LOCAL_SETTINGS)
    if forkserver:
        settings["distributed.worker.multiprocessing-method"] = "forkserver"
    setting: Any = dask.config.set(settings)  # dask.config.set is untyped
    setting.__enter__()
    return setting


def _quiet_logs() -> None:
    """Silence Dask's and Tornado's log lines in this process: problems reach
    the caller as one ClusterError instead."""
    prefixes = ("distributed", "tornado", "asyncio")
    names = [n for n in logging.root.manager.loggerDict if n.startswith(prefixes)]
    for name in set(names) | set(prefixes):
        log = logging.getLogger(name)
        log.setLevel(logging.CRITICAL + 1)
        if name in prefixes:
            log.handlers = [logging.NullHandler()]
            log.propagate = False


# ------------------------------------------------------------------ chunks
def chunk_size(seconds_per_item: Optional[float], left: Optional[int], workers: int,
               deadline: Optional[float]) -> int:
    """Items per chunk: enough for ``CHUNK_SECONDS`` of work at the rate
    measured so far, but no more than leaves ``CHUNKS_PER_WORKER`` chunks per
    worker of the ``left`` items not yet sent (where known), so that chunks
    shrink towards the end of the input and the workers finish together; one
    item until a rate is measured, and under a deadline at most a tenth of
    the time left."""
    if not seconds_per_item:
        return 1
    target = CHUNK_SECONDS
    if deadline is not None:
        target = min(target, max(0.0, deadline - time.monotonic()) / 10)
    size = max(1, int(target / seconds_per_item))
    if left is not None:
        size = min(size, max(1, math.ceil(left / (workers * CHUNKS_PER_WORKER))))
    return size


def parse_address(address: str) -> Tuple[Optional[int], str]:
    """``local`` -> (cores, ""), ``local:N`` -> (N, ""), anything else -> (None, address)."""
    text = address.strip()
    if text == "local":
        return limits.usable_cores(), ""
    if text.startswith("local:"):
        count = text[len("local:"):]
        top = limits.max_jobs()
        if not count.isdigit() or not 1 <= int(count) <= top:
            raise ClusterError(f"--cluster {address!r}: expected local:N with N from 1 to {top}")
        return int(count), ""
    if not text:
        raise ClusterError("--cluster '': expected a scheduler address such as "
                           "tcp://host:8786, or local, or local:N")
    return None, text


class DaskExecutor(Executor):
    """Answers on a Dask cluster (see the module doc)."""

    def __init__(self, address: str, timeout: float = DEFAULT_TIMEOUT, quiet: bool = True) -> None:
        local, target = parse_address(address)
        if local is not None:
            if importlib.util.find_spec("distributed") is None:
                raise ClusterError(_MISSING)
            forkserver = _start_forkserver()
        distributed = _distributed()
        if quiet:
            _quiet_logs()
        self.address = address
        self.timeout = timeout
        self.cluster = None
        self._settings: Any = None
        self.workers = local or 1
        self._joined = local is None     # a worker of a local cluster has joined
        self._started = time.monotonic()
        try:
            if local is not None:
                self._settings = _local_settings(forkserver)
                # the scheduler's HTTP server on a free port: clusters side by side do not
                # collide (and print no warning); the workers start while the first
                # chunks go out (they queue on the scheduler until a worker joins)
                self.cluster = distributed.LocalCluster(
                    n_workers=0, threads_per_worker=1, processes=True,
                    dashboard_address=":0", silence_logs=logging.CRITICAL + 1 if quiet else None)
                self.cluster.scale(local)
                # by address: a client of the cluster object would wait for its workers
                target = self.cluster.scheduler_address
            self.client = distributed.Client(target, timeout=timeout)
        except (OSError, TimeoutError, distributed.TimeoutError) as exc:
            self.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {address} within "
                               f"{timeout:g} s ({exc.__class__.__name__})") from None
        except ValueError as exc:        # Dask's parse of the address
            self.close()
            raise ClusterError(f"--cluster {address!r}: {exc}; expected a scheduler address "
                               "such as tcp://host:8786, or local, or local:N") from None
        except AssertionError:           # Dask's event loop did not start within its 10 s
            self.close()
            raise ClusterError(f"the Dask client for {address} could not start its event loop "
                               "(Dask waits 10 s for it; is the machine overloaded?)") from None
        except Exception:
            self.close()
            raise
        if local is not None:
            return   # its workers run this very installation: no version to check
        try:
            self.client.wait_for_workers(1, timeout=timeout)
            self.check_versions()
            self.workers = max(1, sum(self.client.nthreads().values()))
        except (OSError, TimeoutError, distributed.TimeoutError):
            self.close()
            raise ClusterError(f"no worker joined the Dask scheduler at {address} within "
                               f"{timeout:g} s") from None
        except BaseException:
            self.close()
            raise

    def check_versions(self) -> None:
        """Refuse the cluster if a worker runs another ``dummy-spades`` version."""
        try:
            versions = self.client.run(worker_version)
        except Exception as exc:  # a worker without the package at all
            raise ClusterError(f"the workers at {self.address} cannot run dummy-spades "
                               f"{__version__} ({exc}); install it there: "
                               "pip install 'dummy-spades[cluster]'") from None
        if not versions:
            raise ClusterError(f"the Dask scheduler at {self.address} has no workers")
        other = {w: v for w, v in versions.items() if v != __version__}
        if other:
            listed = ", ".join(f"{w} has {v}" for w, v in sorted(other.items()))
            raise ClusterError(f"workers at {self.address} run another dummy-spades version "
                               f"than this one ({__version__}): {listed}")

    def close(self) -> None:
        client = getattr(self, "client", None)
        if client is not None:
            try:
                client.close()
            except Exception:  # pragma: no cover - a cluster already gone
                pass
            self.client = None
        if self.cluster is not None:
            try:
                self.cluster.close()
            except Exception:  # pragma: no cover
                pass
            self.cluster = None
        if self._settings is not None:
            self._settings.__exit__(None, None, None)
            self._settings = None

    def map(self, work: Work, items: Iterable[Any], *, deadline: Optional[float] = None,
            total: Optional[int] = None) -> Answers:
        return stream(_DaskRun(self, work, total, deadline), items, deadline)

    def next_finished(self, running: Dict[Any, Any], deadline: Optional[float]) -> Any:
        """The next finished future; None once ``deadline`` passes first. A
        scheduler out of reach for longer than the connection timeout ends
        the run."""
        distributed = _distributed()
        lost_since: Optional[float] = None
        while True:
            step = WAIT_STEP
            if deadline is not None:
                step = min(step, max(0.0, deadline - time.monotonic()))
            try:
                finished = distributed.wait(list(running), timeout=step,
                                            return_when="FIRST_COMPLETED").done
            except distributed.TimeoutError:
                finished = set()
            except (distributed.CancelledError, OSError) as exc:  # OSError: CommClosedError
                raise self._gone(exc) from None
            if finished:
                return next(iter(finished))
            if deadline is not None and time.monotonic() >= deadline:
                return None
            self._check_joined()
            if self.client.status != "running":
                lost_since = lost_since or time.monotonic()
                if time.monotonic() - lost_since > self.timeout:
                    raise ClusterError(f"the cluster at {self.address} went away (no answer "
                                       f"for {self.timeout:g} s)")
            else:
                lost_since = None

    def _check_joined(self) -> None:
        """A local cluster whose workers have not joined within the timeout
        (they could not start) ends the run."""
        if self._joined:
            return
        try:
            self._joined = bool(self.client.nthreads())
        except OSError as exc:
            raise self._gone(exc) from None
        if not self._joined and time.monotonic() - self._started > self.timeout:
            raise ClusterError(f"no worker of the local cluster {self.address} started within "
                               f"{self.timeout:g} s")

    def _gone(self, exc: BaseException) -> ClusterError:
        return ClusterError(f"the cluster at {self.address} went away "
                            f"({exc.__class__.__name__})")

    def chunk_answers(self, future: Any, chunk: Chunk) -> Tuple[List[Any], float]:
        """A finished chunk's answers; an error of the work itself passes on."""
        distributed = _distributed()
        if future.status != "error" and future.status != "finished":
            raise ClusterError(f"the cluster at {self.address} went away (work {future.status})")
        try:
            answers: Tuple[List[Any], float] = future.result()
            return answers
        except distributed.KilledWorker:
            raise WorkerError("the work killed one cluster worker after another",
                              chunk.items) from None
        except (distributed.CancelledError, distributed.TimeoutError) as exc:
            raise self._gone(exc) from None
        except OSError as exc:  # the connection (CommClosedError), unless the work raised it
            if future.status == "error":
                raise
            raise self._gone(exc) from None


class _DaskRun(Channel):
    """One run on a :class:`DaskExecutor`: chunks sized from the rate
    measured so far, in flight on every worker thread."""

    def __init__(self, executor: DaskExecutor, work: Work, total: Optional[int],
                 deadline: Optional[float]) -> None:
        self.executor = executor
        self.work = work
        self.total = total
        self.deadline = deadline
        self.slots = executor.workers * DEPTH
        self.window = 2 * self.slots
        self.running: Dict[Any, Chunk] = {}     # future -> chunk
        self.rate: Optional[float] = None
        self.solved = 0
        self.spent = 0.0

    def start(self) -> None:
        if self.executor.client is None:
            raise ClusterError(f"the cluster at {self.executor.address} is closed")

    def next_block(self, ahead: int, read: int) -> Optional[Tuple[int, int]]:
        # a block fills every slot with chunks sized from the rate measured so
        # far; until a first chunk has come back, one block of single items
        if ahead >= self.window or (self.rate is None and self.running):
            return None
        left = None if self.total is None else max(0, self.total - read)
        chunk = chunk_size(self.rate, left, self.executor.workers, self.deadline)
        block = chunk * self.slots
        self.window = 2 * block
        return chunk, block

    def send(self, pending: Deque[Chunk]) -> None:
        client = self.executor.client
        while pending and len(self.running) < self.slots:
            chunk = pending.popleft()
            future = client.submit(run_chunk, self.work, chunk.items, pure=False)
            self.running[future] = chunk

    def idle(self) -> bool:
        return not self.running

    def wait(self, deadline: Optional[float], pending: Deque[Chunk]) -> Optional[List[Done]]:
        future = self.executor.next_finished(self.running, deadline)
        if future is None:
            return None
        chunk = self.running.pop(future)
        answers, seconds = self.executor.chunk_answers(future, chunk)
        self.solved += len(answers)
        self.spent += seconds
        self.rate = self.spent / self.solved if self.solved else None
        return [(chunk, answers)]

    def stop(self) -> None:
        for future in self.running:
            future.cancel()
