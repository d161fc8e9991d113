"""--cluster: batch and bid on a real Dask LocalCluster (two worker processes).

Same answers in the same order as the local pool, a killed worker's chunks
run again, an unreachable scheduler, a worker with another version, the
missing extra, and a scheduler that goes away. Each test is bounded in time.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver import __version__
from dummy_spades.solver.run import Work, executor

distributed = pytest.importorskip("distributed")
from dummy_spades.solver.run.cluster import ClusterError, DaskExecutor, chunk_size  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "hands"
runner = CliRunner()


def run(*args: object, env=None):
    return runner.invoke(app, [str(a) for a in args], env=env)


def slow_square(offset: int, context: dict, item: int) -> int:
    time.sleep(context["pause"])
    return item * item + offset


def make_offset(offset: int) -> int:
    return offset


def batch_file(tmp_path: Path, deals: int, cards: int, seed: int = 5) -> Path:
    sys.path.insert(0, str(ROOT))
    from benches._util import pbn, random_deals

    path = tmp_path / "deals.pbn"
    path.write_text("\n".join(pbn(h) for h in random_deals(deals, seed=seed, cards=cards)) + "\n")
    return path


@pytest.fixture(scope="module")
def local2():
    with DaskExecutor("local:2", timeout=60) as ex:
        ex.client.wait_for_workers(2, timeout=60)   # the tests ask the workers directly
        yield ex


# ------------------------------------------------------------------ same answers
@pytest.mark.timeout(240)
def test_batch_on_the_cluster_writes_what_the_pool_writes(tmp_path):
    path = batch_file(tmp_path, 60, 5)
    pool = run("batch", path, "--jobs", "2", "--json", "--leader", "all")
    dask = run("batch", path, "--cluster", "local:2", "--json", "--leader", "all")
    assert pool.exit_code == 0 and dask.exit_code == 0, dask.output

    def answers(out):
        return [{k: v for k, v in json.loads(line).items() if k not in ("ms", "nodes")}
                for line in out.splitlines()]

    assert answers(dask.stdout) == answers(pool.stdout)
    assert len(answers(dask.stdout)) == 240


@pytest.mark.timeout(240)
def test_bid_on_the_cluster_equals_one_job():
    args = ["bid", HANDS / "worked-example.yaml", "--player", "Bob", "--samples", "12",
            "--seed", "4", "--json"]
    one = run(*args, "--jobs", "1")
    dask = run(*args, env={"DUMMY_SPADES_CLUSTER": "local:2"})
    assert one.exit_code == 0 and dask.exit_code == 0, dask.output
    answers = [json.loads(dask.stdout), json.loads(one.stdout)]
    for data in answers:
        del data["sampling"]["model_seconds"]              # a timing field
    assert answers[0] == answers[1]


@pytest.mark.timeout(120)
def test_library_answers_in_order(local2):
    work = Work(slow_square, {"pause": 0.001}, make_offset, (3,))
    got = list(local2.map(work, iter(range(200))))
    assert got == [(i, i * i + 3) for i in range(200)]


@pytest.mark.timeout(120)
def test_a_deadline_keeps_a_prefix(local2):
    work = Work(slow_square, {"pause": 0.05}, make_offset, (0,))
    start = time.monotonic()
    got = list(local2.map(work, range(1000), deadline=start + 1.0, total=1000))
    assert 1 <= len(got) < 1000 and got == [(i, i * i) for i in range(len(got))]
    assert time.monotonic() - start < 10


def test_chunk_rule():
    assert chunk_size(None, 1000, 2, None) == 1                    # nothing measured yet
    assert chunk_size(0.001, 100_000, 2, None) == 500              # half a second of work
    assert chunk_size(0.001, 1000, 2, None) == 125                 # 4 chunks per worker
    assert chunk_size(2.0, 1000, 2, None) == 1                     # slow items go one by one
    assert chunk_size(0.001, None, 2, time.monotonic() + 1.0) <= 100


# ------------------------------------------------------------------ failures
@pytest.mark.timeout(180)
def test_a_killed_worker_loses_nothing(local2):
    work = Work(slow_square, {"pause": 0.02}, make_offset, (1,))
    pids = sorted(local2.client.run(os.getpid).values())
    got = []
    for n, answer in enumerate(local2.map(work, range(300), total=300)):
        got.append(answer)
        if n == 20:
            os.kill(pids[0], signal.SIGKILL)      # the nanny starts a new worker
    assert got == [(i, i * i + 1) for i in range(300)]


@pytest.mark.timeout(60)
def test_an_unreachable_scheduler_ends_within_the_timeout(tmp_path):
    with socket.socket() as s:   # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    start = time.monotonic()
    result = run("batch", ROOT / "tests" / "data" / "batch_small.pbn", "--cluster", address,
                 "--cluster-timeout", "2")
    assert result.exit_code == 1, result.output
    assert address in result.stderr and "within 2 s" in result.stderr
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1
    assert time.monotonic() - start < 20


def test_a_malformed_address_names_the_option():
    result = run("batch", ROOT / "tests" / "data" / "batch_small.pbn", "--cluster", "bogus::addr")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output and len(result.stderr.strip().splitlines()) == 1
    assert result.stderr.startswith("error: --cluster 'bogus::addr': ")
    assert "expected a scheduler address" in result.stderr


def test_a_client_whose_event_loop_does_not_start_is_a_cluster_error(monkeypatch):
    def stalled(*args, **kwargs):
        raise AssertionError      # what Dask raises when its loop thread is not up in 10 s
    monkeypatch.setattr(distributed, "Client", stalled)
    with pytest.raises(ClusterError, match="could not start its event loop"):
        DaskExecutor("tcp://127.0.0.1:1", timeout=1)


@pytest.mark.timeout(60)
def test_local_workers_that_never_start_end_the_run(monkeypatch):
    monkeypatch.setattr(distributed.LocalCluster, "scale", lambda self, n: None)
    start = time.monotonic()
    with DaskExecutor("local:2", timeout=2) as ex:
        with pytest.raises(ClusterError, match=r"no worker of the local cluster local:2 started "
                                               r"within 2 s"):
            list(ex.map(Work(slow_square, {"pause": 0}, make_offset, (0,)), range(5)))
    assert time.monotonic() - start < 40      # ends: 2 s on an idle machine, 60 s seen at load 8


@pytest.mark.timeout(60)
def test_a_worker_with_another_version_is_refused(local2):
    def set_version(v):
        import dummy_spades.solver as package
        package.__version__ = v

    local2.client.run(set_version, "0.0.0-other")
    try:
        with pytest.raises(ClusterError, match=r"another dummy-spades version .*0\.0\.0-other"):
            local2.check_versions()
    finally:
        local2.client.run(set_version, __version__)
    local2.check_versions()


def test_the_missing_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # as if it were not installed
    with pytest.raises(ClusterError, match=r"pip install 'dummy-spades\[cluster\]'"):
        executor(cluster="local:2")
    result = run("batch", ROOT / "tests" / "data" / "batch_small.pbn", "--cluster", "local:2")
    assert result.exit_code == 1
    assert result.stderr.strip().splitlines() == [
        "error: --cluster needs Dask's distributed scheduler: pip install 'dummy-spades[cluster]'"]


@pytest.mark.parametrize("args", [["--jobs", "2", "--cluster", "local:2"],
                                  ["--cluster", "local:0"], ["--cluster-timeout", "0"],
                                  ["--cluster-timeout", "inf"]])
def test_bad_cluster_options(args):
    result = run("batch", ROOT / "tests" / "data" / "batch_small.pbn", *args)
    assert result.exit_code in (1, 2) and "Traceback" not in result.output
    assert ("--cluster" in result.output) or ("local:0" in result.output)
    if args[0] == "--jobs" or args[0] == "--cluster-timeout":
        assert result.exit_code == 2


@pytest.mark.timeout(180)
def test_a_scheduler_that_goes_away_stops_batch_with_whole_lines(tmp_path):
    """A real scheduler and worker (Dask's own commands); the scheduler is
    killed part way: one message, exit 1, the lines written are whole and the
    message names the first line not solved."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    bin_dir = Path(sys.executable).parent
    scheduler = subprocess.Popen([str(bin_dir / "dask"), "scheduler", "--host", "127.0.0.1",
                                  "--port", str(port), "--no-dashboard"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 start_new_session=True)
    worker = subprocess.Popen([str(bin_dir / "dask"), "worker", address, "--nthreads", "1",
                               "--nworkers", "1", "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)
    try:
        path = batch_file(tmp_path, 300, 8, seed=11)
        out = tmp_path / "out.jsonl"
        with out.open("wb") as sink:
            proc = subprocess.Popen([sys.executable, "-m", "dummy_spades.cli", "batch", path,
                                     "--json", "--cluster", address, "--cluster-timeout", "30"],
                                    stdout=sink, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 90
        while b"\n" not in out.read_bytes():   # the cluster is working
            assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read()
            time.sleep(0.05)
        os.killpg(scheduler.pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 1, err
        lines = out.read_text().splitlines()
        assert out.read_bytes().endswith(b"\n") and 1 <= len(lines) < 300
        for line in lines:
            json.loads(line)
        message = err.decode().strip().splitlines()
        assert len(message) == 1 and address in message[0] and "went away" in message[0]
        assert f"from line {len(lines) + 1} on were not solved" in message[0]
    finally:
        for p in (scheduler, worker):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait(10)
