"""Running a stream of results for at most a number of seconds."""
from __future__ import annotations

from typing import Callable, Dict, Hashable, Iterator, Optional, Tuple, TypeVar

K = TypeVar("K", bound=Hashable)


def run_limited(tasks: Callable[[], Iterator[Tuple[K, object]]],
                seconds: Optional[float]) -> Tuple[Dict[K, object], bool]:
    """Run the generator ``tasks()`` of ``(key, value)`` results, for at most
    ``seconds`` (in a forked worker process, killed when time is up; ``None``:
    in this process, no limit; ``0``: not at all). Returns the results that arrived and whether
    the generator finished."""
    if seconds is None:
        return dict(tasks()), True
    if seconds <= 0:
        return {}, False
    import multiprocessing as mp
    import time

    ctx = mp.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)

    def work() -> None:
        try:
            for item in tasks():
                send.send(("item", item))
            send.send(("done", None))
        except BaseException as exc:  # pragma: no cover - reported to the parent
            send.send(("error", exc))

    proc = ctx.Process(target=work, daemon=True)
    proc.start()
    send.close()
    out: Dict[K, object] = {}
    finished = False
    deadline = time.monotonic() + max(0.0, seconds)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0 or not recv.poll(left):
                break
            try:
                kind, payload = recv.recv()
            except EOFError:
                break
            if kind == "item":
                key, value = payload  # type: ignore[misc]
                out[key] = value
            elif kind == "done":
                finished = True
                break
            else:
                raise payload  # type: ignore[misc]
    finally:
        if proc.is_alive():
            proc.kill()
        proc.join()
        recv.close()
    return out, finished
