"""The interface: what every worker does (:class:`Work`), what runs it
(:class:`Executor`), and the executor of this process (:class:`Inline`)."""
from __future__ import annotations

import abc
import time
from dataclasses import dataclass
from typing import Any, Callable, Generator, Hashable, Iterable, Optional, Sequence, Tuple

#: What an executor yields for each item: the item and its answer.
Answer = Tuple[Any, Any]
Answers = Generator[Answer, None, None]


class ParallelError(RuntimeError):
    """Parallel work that could not be completed (not a problem of the input)."""


class WorkerError(ParallelError):
    """A worker process died twice on the same chunk (or kept dying).

    ``items`` are the items of that chunk, so that a caller can say which
    input was not answered."""

    def __init__(self, message: str, items: Sequence[Any] = ()) -> None:
        super().__init__(message)
        self.items = list(items)


@dataclass(frozen=True)
class Work:
    """What every worker does. ``make`` and ``solve`` are module-level
    functions (a cluster sends them by name); ``context`` is plain data,
    sent to each worker once per run.

    ``make(*make_args)`` builds a worker's resource once (an engine solver
    with its table), ``solve(resource, context, item)`` answers one item
    with it: the resource is the state a worker keeps from item to item."""

    solve: Callable[[Any, Any, Any], Any]        # solve(resource, context, item) -> answer
    context: Any
    make: Callable[..., Any]                     # make(*make_args) -> resource
    make_args: Tuple[Any, ...] = ()

    @property
    def resource_key(self) -> Hashable:
        """What identifies the resource: a worker keeps one per key."""
        return (self.make.__module__, self.make.__qualname__, self.make_args)


class Executor(abc.ABC):
    """Runs a :class:`Work` over items; answers come back in input order.

    A caller takes the answers as they come and may stop at any point:
    closing the generator that :meth:`map` returns (leaving a ``for`` loop
    over it, or its ``close()``) stops the work still running."""

    #: how many items are answered at the same time
    workers: int = 1

    @abc.abstractmethod
    def map(self, work: Work, items: Iterable[Any], *, deadline: Optional[float] = None,
            total: Optional[int] = None) -> Answers:
        """Yield ``(item, work.solve(resource, work.context, item))`` for each item, in order.

        ``deadline`` (a :func:`time.monotonic` time): stop once it has passed
        and at least one answer was yielded; the answers are then those of a
        prefix of ``items``. ``total``: the number of items, if known (it
        sets the chunk size)."""

    def close(self) -> None:
        """Release the workers (a no-op for executors that hold none)."""

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Inline(Executor):
    """Answers in this process, one item after the other. ``resource``: an
    existing resource to use instead of making one; otherwise the one made
    is kept for the next runs with the same :attr:`Work.resource_key`."""

    def __init__(self, resource: Any = None) -> None:
        self.resource = resource
        self._held: Optional[Tuple[Hashable, Any]] = None

    def _resource(self, work: Work) -> Any:
        if self.resource is not None:
            return self.resource
        key = work.resource_key
        if self._held is None or self._held[0] != key:
            self._held = None               # free the old table before making a new one
            self._held = (key, work.make(*work.make_args))
        return self._held[1]

    def map(self, work: Work, items: Iterable[Any], *, deadline: Optional[float] = None,
            total: Optional[int] = None) -> Answers:
        resource = self._resource(work)
        for item in items:
            yield item, work.solve(resource, work.context, item)
            if deadline is not None and time.monotonic() >= deadline:
                return

    def close(self) -> None:
        self._held = None
