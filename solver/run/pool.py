"""The local process pool: ``jobs`` worker processes on this machine (``--jobs``).

Each run (:meth:`ProcessPool.map`) starts its workers, forked from this
process, each making the work's resource once; they follow the rules of
:mod:`.children` and end with the run. A worker that dies (killed by the
out-of-memory killer, say) has its chunk retried once on a fresh worker; a
chunk whose worker dies a second time stops the run with
:class:`~.work.WorkerError`.
"""
from __future__ import annotations

import multiprocessing.connection
import os
import time
from dataclasses import dataclass, field
from typing import Any, Deque, Iterable, List, Optional, Tuple

from .children import Forking, become_child, how_it_ended, portable, start_method
from .stream import Channel, Chunk, Done, stream
from .work import Answers, Executor, Work, WorkerError

#: Items per chunk sent to a worker at most, and chunks per worker aimed at.
CHUNK_MAX = 16
CHUNKS_PER_WORKER = 16
#: Chunks each worker holds at once (one running, one waiting).
DEPTH = 2


def chunk_size(total: Optional[int], workers: int, deadline: Optional[float]) -> int:
    """Items per chunk: about ``CHUNKS_PER_WORKER`` chunks per worker, at
    most ``CHUNK_MAX`` items; one under a deadline (so that the run stops
    without solving far ahead)."""
    if deadline is not None or total is None:
        return 1 if deadline is not None else CHUNK_MAX
    return max(1, min(CHUNK_MAX, total // (workers * CHUNKS_PER_WORKER)))


def _worker_main(conn: Any, work: Work, parent: int) -> None:
    """A pool worker: answer chunks until told to stop or the parent is gone."""
    become_child(parent)
    try:
        try:
            resource = work.make(*work.make_args)
            failed: Optional[BaseException] = None
        except Exception as exc:  # reported with the first chunk
            resource, failed = None, portable(exc)
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
                conn.send((chunk_id, False, portable(exc)))
            else:
                conn.send((chunk_id, True, answers))
    except (EOFError, OSError, KeyboardInterrupt):
        pass  # the parent went away or is stopping us: nothing to report
    finally:
        os._exit(0)


@dataclass
class _Worker:
    process: Any
    conn: Any
    chunks: List[Chunk] = field(default_factory=list)
    gone: bool = False       # a send failed: it died


class ProcessPool(Executor):
    """Answers in ``jobs`` worker processes on this machine (see the module doc)."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._live: List[_Worker] = []

    def _start(self, work: Work) -> _Worker:
        ctx = start_method()
        here, there = ctx.Pipe(duplex=True)
        with Forking():
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

    def map(self, work: Work, items: Iterable[Any], *, deadline: Optional[float] = None,
            total: Optional[int] = None) -> Answers:
        return stream(_PoolRun(self, work, total, deadline), items, deadline)


class _PoolRun(Channel):
    """One run of a :class:`ProcessPool`: its workers and the chunks they hold."""

    def __init__(self, pool: ProcessPool, work: Work, total: Optional[int],
                 deadline: Optional[float]) -> None:
        self.pool = pool
        self.work = work
        self.jobs = pool.workers if total is None else max(1, min(pool.workers, total))
        self.chunk = chunk_size(total, self.jobs, deadline)
        self.block = self.chunk * self.jobs * DEPTH * 4
        self.workers: List[_Worker] = []
        self.deaths_idle = 0

    def start(self) -> None:
        self.workers = [self.pool._start(self.work) for _ in range(self.jobs)]

    def next_block(self, ahead: int, read: int) -> Optional[Tuple[int, int]]:
        return (self.chunk, self.block) if ahead < 2 * self.block else None

    def send(self, pending: Deque[Chunk]) -> None:
        for w in self.workers:
            while pending and len(w.chunks) < DEPTH and not w.gone:
                c = pending.popleft()
                try:
                    w.conn.send((c.id, c.items))
                except OSError:  # it died: its sentinel tells in wait
                    pending.appendleft(c)
                    w.gone = True
                else:
                    w.chunks.append(c)

    def idle(self) -> bool:
        return not any(w.chunks or w.gone for w in self.workers)

    def wait(self, deadline: Optional[float], pending: Deque[Chunk]) -> Optional[List[Done]]:
        timeout = None if deadline is None else max(0.0, deadline - time.monotonic())
        busy = [w for w in self.workers if w.chunks]
        ready = multiprocessing.connection.wait(
            [w.conn for w in busy] + [w.process.sentinel for w in self.workers], timeout)
        if not ready:
            return None
        done: List[Done] = []
        for w in list(self.workers):
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
                    done.append((c, payload))
            if dead:
                self._replace(w, pending)
        return done

    def _replace(self, w: _Worker, pending: Deque[Chunk]) -> None:
        """A dead worker's chunks go back to ``pending``, a fresh worker takes its place."""
        self.workers.remove(w)
        lost = w.chunks
        self.pool._stop(w)
        if not lost:
            self.deaths_idle += 1
            if self.deaths_idle > self.jobs:
                raise WorkerError("worker processes keep dying before they take any work")
        else:  # the first was being answered, the others waited behind it
            lost[0].attempts += 1
            if lost[0].attempts > 1:
                raise WorkerError(f"a worker process died twice ({how_it_ended(w.process)}) "
                                  "on the same work", lost[0].items)
        pending.extendleft(reversed(lost))
        self.workers.append(self.pool._start(self.work))

    def stop(self) -> None:
        self.pool.close()
