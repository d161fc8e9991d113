"""The one loop of the executors that answer elsewhere (the local pool, a
Dask cluster): read the items in blocks, cut them into chunks, keep the
workers busy, hand the answers out in input order, stop at the deadline.

An executor supplies a :class:`Channel`: how big the next block and its
chunks are, how chunks are sent, how finished ones come back. :func:`stream`
does the rest, the same for both."""
from __future__ import annotations

import abc
import itertools
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from .work import Answers


@dataclass
class Chunk:
    """Items sent to a worker together, with their places in the input."""

    id: int
    indices: List[int]
    items: List[Any]
    attempts: int = 0


class Blocks:
    """Reads items from an iterator a block at a time, numbers them and cuts
    each block into chunks."""

    def __init__(self, items: Iterable[Any]) -> None:
        self.it = enumerate(items)
        self.read = 0
        self.exhausted = False
        self.ids = itertools.count()

    def next_block(self, chunk: int, block: int) -> List[Chunk]:
        """The chunks of ``chunk`` items of the next ``block`` items (at least one chunk's)."""
        block = max(block, chunk)
        numbered = list(itertools.islice(self.it, block))
        self.read += len(numbered)
        self.exhausted = len(numbered) < block
        return [Chunk(next(self.ids), [i for i, _ in part], [x for _, x in part])
                for part in (numbered[s:s + chunk] for s in range(0, len(numbered), chunk))]


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


#: A finished chunk and its answers, one per item.
Done = Tuple[Chunk, Sequence[Any]]


class Channel(abc.ABC):
    """One run's way to the workers of an executor."""

    def start(self) -> None:
        """Start what the run needs (the local pool's workers)."""

    @abc.abstractmethod
    def next_block(self, ahead: int, read: int) -> Optional[Tuple[int, int]]:
        """``(items per chunk, items per block)`` of the next block to read,
        or None to read nothing yet. ``ahead``: items read but not yet
        handed out; ``read``: items read so far."""

    @abc.abstractmethod
    def send(self, pending: Deque[Chunk]) -> None:
        """Send chunks from the front of ``pending`` while the workers have room."""

    @abc.abstractmethod
    def idle(self) -> bool:
        """Nothing to wait for: no chunk out, no worker to replace."""

    @abc.abstractmethod
    def wait(self, deadline: Optional[float], pending: Deque[Chunk]) -> Optional[List[Done]]:
        """The chunks finished next, once there are some; None once
        ``deadline`` has passed first. A chunk to run again goes back to the
        front of ``pending``."""

    @abc.abstractmethod
    def stop(self) -> None:
        """Stop the work still out (the run has ended, finished or not)."""


def stream(channel: Channel, items: Iterable[Any], deadline: Optional[float]) -> Answers:
    """Run ``items`` through ``channel``; yield ``(item, answer)`` in input
    order (see :meth:`.work.Executor.map` for the deadline)."""
    blocks = Blocks(items)
    order = Ordered()
    pending: Deque[Chunk] = deque()
    yielded = 0
    try:
        channel.start()
        while True:
            if not pending and not blocks.exhausted:
                size = channel.next_block(blocks.read - order.next, blocks.read)
                if size is not None:
                    pending.extend(blocks.next_block(*size))
            channel.send(pending)
            for answer in order.pop_ready():
                yield answer
                yielded += 1
                if deadline is not None and time.monotonic() >= deadline:
                    return
            if channel.idle():
                if blocks.exhausted and not pending:
                    return
                continue
            done = channel.wait(deadline if yielded else None, pending)
            if done is None:
                return  # the deadline passed while waiting
            for chunk, answers in done:
                for index, item, answer in zip(chunk.indices, chunk.items, answers):
                    order.put(index, (item, answer))
    finally:
        channel.stop()
