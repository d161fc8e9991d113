"""One generator in a child process for at most a given time (``duck --time-limit``)."""
from __future__ import annotations

import multiprocessing
import os
import time
from typing import Callable, Dict, Hashable, Iterator, Optional, Tuple, TypeVar

from .children import Forking, become_child, portable

K = TypeVar("K", bound=Hashable)

#: The longest single wait (seconds); longer limits wait in steps of this.
_WAIT_STEP = 3600.0


def run_limited(tasks: Callable[[], Iterator[Tuple[K, object]]],
                seconds: Optional[float]) -> Tuple[Dict[K, object], bool]:
    """Run the generator ``tasks()`` of ``(key, value)`` results for at most
    ``seconds``, in a forked child process killed when time is up (``None``:
    in this process, no limit; ``0``: not at all). Returns the results that
    arrived and whether the generator finished. The child follows the rules
    of :mod:`.children`."""
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
                send.send(("error", portable(exc)))
            except OSError:
                pass
        finally:
            os._exit(0)

    with Forking():
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
