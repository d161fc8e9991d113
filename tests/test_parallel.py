"""solver.run: answers in input order, dying workers, deadlines, no orphans.

Every test that starts processes is bounded in time (a hang fails by a
timeout) and checks that no process it started is left.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from process_helpers import alive, children_of

from dummy_spades.solver import limits, run
from dummy_spades.solver.run import (Inline, JobsError, ProcessPool, Work, WorkerError, check_jobs,
                                     run_limited)
from dummy_spades.solver.run.stream import Blocks

ROOT = Path(__file__).resolve().parents[1]
#: processes this test process had before these tests (a resource tracker...)
EARLIER: set = set()


@pytest.fixture(autouse=True, scope="module")
def _earlier_children():
    EARLIER.update(children_of(os.getpid()))


def new_children() -> list:
    """Child processes of this test process started by these tests."""
    return [pid for pid in children_of(os.getpid()) if pid not in EARLIER]


# ------------------------------------------------------------------ work for the tests
def make_offset(offset: int) -> int:
    return offset


def add_offset(offset: int, context: dict, item: int) -> int:
    """item + offset, after a pause that makes later items finish first."""
    time.sleep(context.get("pause", 0.0) * ((7 * item) % 5))
    return item + offset


def die_on(offset: int, context: dict, item: int) -> int:
    """Kill this worker on ``context["die"]``: every time, or only the first
    time when ``context["once"]`` names a marker file."""
    if item == context["die"]:
        marker = context.get("once")
        if marker is None or not os.path.exists(marker):
            if marker is not None:
                Path(marker).write_text("died")
            os.kill(os.getpid(), signal.SIGKILL)
    return item + offset


def fail_on(offset: int, context: dict, item: int) -> int:
    if item == context["fail"]:
        raise ValueError(f"item {item} is bad")
    return item


MADE: list = []


def make_token(tag: str) -> object:
    """A new resource each time, noted in MADE."""
    MADE.append(tag)
    return object()


def token_of(token: object, context: None, item: int) -> int:
    return id(token)


# ------------------------------------------------------------------ job count
def test_check_jobs():
    assert check_jobs(None) == run.default_jobs() >= 1
    assert check_jobs(1) == 1
    top = limits.max_jobs()
    assert check_jobs(top) == top
    for bad in (0, -1, top + 1, True, 2.0, "2"):
        with pytest.raises(JobsError, match="at least 1"):
            check_jobs(bad)


def test_executor_choice():
    assert isinstance(run.executor(1), Inline)
    pool = run.executor(2)
    assert isinstance(pool, ProcessPool) and pool.workers == 2
    with pytest.raises(JobsError, match="exclude each other"):
        run.executor(2, cluster="local:2")


def test_where_checks_the_choice_and_starts_nothing():
    assert run.where() == run.Where(run.default_jobs())
    assert run.where(3) == run.Where(3)
    nobody = "tcp://127.0.0.1:9"     # nothing listens there: where() does not connect
    assert run.where(cluster=nobody, timeout=2.0) == run.Where(cluster=nobody, timeout=2.0)
    with pytest.raises(JobsError, match="exclude each other"):
        run.where(1, cluster=nobody)
    with pytest.raises(run.ClusterError, match="local:N with N from 1"):
        run.where(cluster="local:0")
    with pytest.raises(JobsError, match="at least 1"):
        run.where(0)
    assert isinstance(run.Where(1).start(), Inline)
    assert new_children() == []


def test_inline_keeps_its_resource_for_the_same_work():
    MADE.clear()
    inline = Inline()
    first = Work(token_of, None, make_token, ("a",))
    ids = {answer for _, answer in inline.map(first, range(3))}
    ids |= {answer for _, answer in inline.map(first, range(3))}
    assert MADE == ["a"] and len(ids) == 1          # made once, for both runs
    list(inline.map(Work(token_of, None, make_token, ("b",)), range(2)))
    assert MADE == ["a", "b"]                       # other settings: another resource
    given = object()
    assert {a for _, a in Inline(given).map(first, range(2))} == {id(given)}
    assert MADE == ["a", "b"]


# ------------------------------------------------------------------ order
@pytest.mark.timeout(60)
@pytest.mark.parametrize("runner", [Inline(), ProcessPool(2)], ids=["inline", "pool"])
def test_answers_come_in_input_order(runner):
    work = Work(add_offset, {"pause": 0.002}, make_offset, (100,))
    items = list(range(40))
    with runner:
        got = list(runner.map(work, iter(items), total=None))
    assert got == [(i, i + 100) for i in items]
    assert new_children() == []


def test_blocks_cut_chunks_in_input_order():
    blocks = Blocks(range(10))
    first = blocks.next_block(chunk=2, block=6)
    assert [c.items for c in first] == [[0, 1], [2, 3], [4, 5]]
    assert [c.indices for c in first] == [[0, 1], [2, 3], [4, 5]] and not blocks.exhausted
    rest = blocks.next_block(chunk=2, block=6)
    assert [c.items for c in rest] == [[6, 7], [8, 9]] and blocks.exhausted


# ------------------------------------------------------------------ errors and dying workers
@pytest.mark.timeout(60)
def test_an_error_in_a_worker_reaches_the_caller():
    work = Work(fail_on, {"fail": 5}, make_offset, (0,))
    with pytest.raises(ValueError, match="item 5 is bad"):
        with ProcessPool(2) as pool:
            list(pool.map(work, range(20), total=20))
    assert new_children() == []


@pytest.mark.timeout(60)
def test_a_killed_worker_is_replaced_and_its_chunk_retried(tmp_path):
    work = Work(die_on, {"die": 7, "once": str(tmp_path / "died")}, make_offset, (1,))
    with ProcessPool(2) as pool:
        got = list(pool.map(work, range(30), total=30))
    assert got == [(i, i + 1) for i in range(30)]   # nothing lost, nothing twice
    assert (tmp_path / "died").exists()
    assert new_children() == []


@pytest.mark.timeout(60)
def test_a_chunk_that_kills_its_worker_twice_stops_the_run():
    work = Work(die_on, {"die": 3}, make_offset, (0,))
    with pytest.raises(WorkerError, match="died twice .*SIGKILL") as info:
        with ProcessPool(2) as pool:
            list(pool.map(work, range(12), total=12))
    assert 3 in info.value.items
    assert new_children() == []


@pytest.mark.timeout(60)
def test_a_killed_worker_does_not_stop_a_deadline():
    """A worker killed from outside (as the out-of-memory killer would) during
    a run under a deadline: the run still ends at about the deadline."""
    work = Work(add_offset, {"pause": 0.2}, make_offset, (0,))
    start = time.monotonic()
    got = []
    with ProcessPool(2) as pool:
        for n, answer in enumerate(pool.map(work, range(1000), deadline=start + 2.0, total=1000)):
            got.append(answer)
            if n == 0:
                os.kill(new_children()[0], signal.SIGKILL)
    assert time.monotonic() - start < 6
    assert got and got == [(i, i) for i in range(len(got))]
    assert new_children() == []


# ------------------------------------------------------------------ deadlines
@pytest.mark.timeout(60)
@pytest.mark.parametrize("runner", [Inline(), ProcessPool(2)], ids=["inline", "pool"])
def test_a_deadline_keeps_a_prefix_of_at_least_one(runner):
    work = Work(add_offset, {"pause": 0.05}, make_offset, (0,))
    with runner:
        got = list(runner.map(work, range(100), deadline=time.monotonic(), total=100))
    assert got == [(0, 0)]
    with runner:
        got = list(runner.map(work, range(100), deadline=time.monotonic() + 0.5, total=100))
    assert 1 <= len(got) < 100 and got == [(i, i) for i in range(len(got))]


# ------------------------------------------------------------------ run_limited
@pytest.mark.timeout(60)
def test_run_limited_stops_a_slow_child():
    def tasks():
        yield ("a",), 1
        time.sleep(30)
        yield ("b",), 2

    start = time.monotonic()
    out, finished = run_limited(tasks, 1.0)
    assert out == {("a",): 1} and not finished
    assert time.monotonic() - start < 10
    assert run_limited(tasks, 0) == ({}, False)
    out, finished = run_limited(lambda: iter([(("x",), 3)]), 1e7)  # huge limits are waited in steps
    assert out == {("x",): 3} and finished
    assert new_children() == []


@pytest.mark.timeout(60)
def test_run_limited_passes_errors_on():
    def tasks():
        yield ("a",), 1
        raise ValueError("bad position")

    with pytest.raises(ValueError, match="bad position"):
        run_limited(tasks, 10.0)


# ------------------------------------------------------------------ no orphans
ORPHAN_SCRIPT = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {tests!r})
    from dummy_spades.solver import run
    from test_parallel import add_offset, make_offset
    kind = sys.argv[1]
    if kind == "pool":
        work = run.Work(add_offset, {{"pause": 10.0}}, make_offset, (0,))
        with run.ProcessPool(2) as pool:
            for answer in pool.map(work, range(10), total=10):
                pass
    else:
        def tasks():
            time.sleep(60)
            yield ("x",), 1
        run.run_limited(tasks, 60.0)
""")


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["pool", "run_limited"])
def test_children_die_with_a_killed_parent(kind):
    script = ORPHAN_SCRIPT.format(tests=str(Path(__file__).parent))
    parent = subprocess.Popen([sys.executable, "-c", script, kind])
    try:
        deadline = time.monotonic() + 20
        while len(children_of(parent.pid)) < (2 if kind == "pool" else 1):
            assert time.monotonic() < deadline, "the children did not start"
            time.sleep(0.05)
        children = children_of(parent.pid)
        parent.kill()
        parent.wait(10)
        time.sleep(1.0)
        left = [pid for pid in children if alive(pid)]
        assert left == [], f"children outlived their parent: {left}"
    finally:
        parent.kill()
        parent.wait(10)


@pytest.mark.timeout(60)
def test_ctrl_c_reaches_only_the_parent_and_leaves_no_traceback():
    script = ORPHAN_SCRIPT.format(tests=str(Path(__file__).parent))
    parent = subprocess.Popen([sys.executable, "-c", script, "pool"], stderr=subprocess.PIPE,
                              start_new_session=True, text=True)
    try:
        deadline = time.monotonic() + 20
        while len(children_of(parent.pid)) < 2:
            assert time.monotonic() < deadline, "the children did not start"
            time.sleep(0.05)
        children = children_of(parent.pid)
        os.killpg(parent.pid, signal.SIGINT)    # as a terminal's Ctrl-C: the whole group
        _, err = parent.communicate(timeout=20)
        # the parent's own KeyboardInterrupt is the script's; no worker prints one
        assert err.count("KeyboardInterrupt") <= 1 and "ForkPoolWorker" not in err
        assert "Process " not in err
        time.sleep(0.5)
        assert [pid for pid in children if alive(pid)] == []
    finally:
        parent.kill()
        parent.wait(10)
