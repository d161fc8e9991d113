"""Hostile input, runaway options, dying workers and orphaned processes.

Each case is bounded in time: one that would hang fails by its timeout. The
ones that start processes run the real command (``python -m
dummy_spades.cli``) and check that none of its processes is left behind.
The limits themselves are listed in docs/LIMITS.md (checked at the end).
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from process_helpers import alive, children_of, cpu_seconds
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver import limits

ROOT = Path(__file__).resolve().parents[1]
HANDS = ROOT / "hands"
MID_PLAY = (HANDS / "mid-play.yaml").read_text(encoding="utf-8")
SMALL_DEALS = ROOT / "tests" / "data" / "batch_small.pbn"
runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def one_error(result, code: int = 1) -> str:
    """The single error message of a failed command (and no traceback)."""
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), result.stderr
    return lines[0]


def write(tmp_path: Path, text: str, name: str = "deal.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def command(*args: object) -> list:
    return [sys.executable, "-m", "dummy_spades.cli", *map(str, args)]


def wait_for_children(proc: subprocess.Popen, n: int, seconds: float = 30) -> list:
    deadline = time.monotonic() + seconds
    while len(children_of(proc.pid)) < n:
        assert proc.poll() is None, f"the command ended early: {proc.returncode}"
        if time.monotonic() >= deadline:
            proc.kill()     # a failed test leaves no command running (its workers die with it)
            proc.wait(10)
            raise AssertionError("the workers did not start")
        time.sleep(0.05)
    return children_of(proc.pid)


def assert_gone(pids: list, seconds: float = 1.0) -> None:
    time.sleep(seconds)
    left = [pid for pid in pids if alive(pid)]
    for pid in left:  # do not leave them to the next test either
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"processes outlived their parent: {left}"


# ------------------------------------------------------------------ YAML bombs
BOMB = "\n".join(["a: &a [SA, SA, SA, SA, SA, SA, SA, SA, SA, SA]"] +
                 [f"{chr(98 + i)}: &{chr(98 + i)} [" + ", ".join([f"*{chr(97 + i)}"] * 10) + "]"
                  for i in range(8)])


@pytest.mark.timeout(20)
@pytest.mark.parametrize("where", ["played", "hand", "nil"])
def test_billion_laughs_is_refused_at_the_first_alias(tmp_path, where):
    text = MID_PLAY.replace("played:", "bomb: x\nplayed:", 1)
    anchors = BOMB.replace("a: &a", "x-a: &a")
    body = {
        "played": MID_PLAY.split("played:")[0] + anchors + "\nplayed: *i\n",
        "hand": MID_PLAY.replace("  Alice: A.AQT94.82.KT932", "  Alice: *i").replace(
            "players:", anchors + "\nplayers:", 1),
        "nil": MID_PLAY.replace("{player: Alice, bid: 5}", "{player: Alice, bid: 5, nil: *i}").replace(
            "players:", anchors + "\nplayers:", 1),
    }[where]
    del text
    start = time.monotonic()
    message = one_error(run("show", write(tmp_path, body)))
    assert "a YAML alias" in message and "deal.yaml:" in message
    assert time.monotonic() - start < 5


@pytest.mark.timeout(20)
def test_a_self_referencing_alias_is_refused(tmp_path):
    text = MID_PLAY.split("played:")[0] + "played: &r [SA, *r]\n"
    message = one_error(run("show", write(tmp_path, text)))
    assert "a YAML alias (*r)" in message


@pytest.mark.timeout(20)
def test_deep_nesting_is_refused(tmp_path):
    text = MID_PLAY.split("played:")[0] + "played: " + "[" * 500 + "]" * 500 + "\n"
    message = one_error(run("show", write(tmp_path, text)))
    assert f"nested more than {limits.YAML_MAX_DEPTH} deep" in message


@pytest.mark.timeout(20)
def test_a_huge_played_list_is_refused_by_size_then_by_count(tmp_path):
    start = time.monotonic()
    big = MID_PLAY.split("played:")[0] + "played:\n" + "  - SA\n" * 400_000   # 2.8 MB
    message = one_error(run("show", write(tmp_path, big)))
    assert "more than the limit of 1,048,576" in message
    under = MID_PLAY.split("played:")[0] + "played: [" + "SA," * 200_000 + "]\n"  # < 1 MB
    message = one_error(run("show", write(tmp_path, under)))
    assert f"more than {limits.YAML_MAX_NODES:,} YAML values" in message
    assert time.monotonic() - start < 10


# ------------------------------------------------------------------ not regular files
@pytest.mark.timeout(20)
@pytest.mark.parametrize("cmd", ["show", "solve", "bid", "batch"])
def test_endless_devices_are_refused(cmd):
    message = one_error(run(cmd, "/dev/zero"))
    assert "/dev/zero" in message and "character device, not a regular file" in message


@pytest.mark.timeout(20)
@pytest.mark.parametrize("cmd", ["show", "batch"])
def test_a_fifo_without_a_writer_is_refused_at_once(tmp_path, cmd):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    message = one_error(run(cmd, fifo))
    assert "FIFO" in message and str(fifo) in message


# ------------------------------------------------------------------ runaway options
@pytest.mark.timeout(20)
@pytest.mark.parametrize("args", [
    ["solve", HANDS / "worked-example.yaml", "--tt-mb", "inf"],
    ["solve", HANDS / "worked-example.yaml", "--tt-mb", "1.8e13"],
    ["batch", SMALL_DEALS, "--tt-mb", "inf"],
    ["batch", SMALL_DEALS, "--tt-mb", "nan"],
    ["duck", HANDS / "mid-play.yaml", "--time-limit", "inf"],
    ["bid", HANDS / "worked-example.yaml", "--time-limit", "nan"],
    ["bid", HANDS / "worked-example.yaml", "--jobs", "500", "--time-limit", "5"],
    ["bid", HANDS / "worked-example.yaml", "--jobs", str(limits.max_jobs() + 1)],
    ["batch", SMALL_DEALS, "--jobs", "1000"],
    ["bid", HANDS / "worked-example.yaml", "--samples", str(limits.SAMPLES_MAX + 1)],
])
def test_out_of_range_options_are_usage_errors(args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and args[2] in result.stderr


@pytest.mark.timeout(60)
def test_a_huge_finite_time_limit_is_accepted():
    result = run("duck", HANDS / "mid-play.yaml", "--time-limit", "1e7", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["complete"] is True


# ------------------------------------------------------------------ names are data
NAMES = ["[/]", "[link=http://example.com]Bob[/link]", "[bold red]Bob[/]", ":thumbs_up:"]


def renamed(name: str) -> str:
    """mid-play with the declarer Carol renamed ``name`` (YAML-quoted)."""
    body = MID_PLAY.split("\n", 1)[1]  # without the title
    return body.replace("Carol", json.dumps(name))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", NAMES)
def test_names_print_as_written(tmp_path, name):
    path = write(tmp_path, renamed(name))
    for args in (["show"], ["solve"], ["duck", "--time-limit", "0"], ["analyse", "--declarer", name],
                 ["score", "--declarer-tricks", "7"], ["bid", "--player", "Alice", "--samples", "2",
                                                     "--jobs", "1"]):
        result = run(args[0], path, *args[1:])
        assert result.exit_code == 0, (args, result.output)
        assert name in result.stdout, args
    result = run("convert", path, "--declarer", name, "--to", "pbn")
    assert result.exit_code == 0 and result.stdout.startswith("N:")
    # and in error messages: an unknown player named like markup
    message = one_error(run("analyse", path, "--declarer", f"{name}x"))
    assert f"{name}x" in message


@pytest.mark.timeout(20)
@pytest.mark.parametrize("name", ["\\e[2J", "\\e]0;title\\a", "Bo\\x7fb", "\\x9b31m"])
def test_control_characters_in_names_are_refused(tmp_path, name):
    text = MID_PLAY.replace("Carol", f'"{name}"')
    message = one_error(run("show", write(tmp_path, text)))
    assert "control characters" in message and "players[2]" in message
    assert "\x1b" not in message and "\x07" not in message


@pytest.mark.timeout(20)
def test_control_characters_in_messages_are_shown_not_sent(tmp_path):
    message = one_error(run("show", tmp_path / "\x1b[2Jmissing.yaml"))
    assert "\x1b" not in message and "\\x1b[2Jmissing.yaml" in message


# ------------------------------------------------------------------ exit codes
@pytest.mark.timeout(20)
def test_an_unreadable_file_is_bad_input_like_a_missing_one(tmp_path, monkeypatch):
    path = write(tmp_path, MID_PLAY)
    if os.geteuid() == 0:  # root reads anything: refuse the open instead
        import dummy_spades.solver.files as files

        real_open = files.os.open

        def refuse(p, *a, **k):
            if str(p) == str(path):
                raise PermissionError(13, "Permission denied", str(p))
            return real_open(p, *a, **k)

        monkeypatch.setattr(files.os, "open", refuse)
    else:  # pragma: no cover - depends on the user
        path.chmod(0)
    assert "Permission denied" in one_error(run("show", path))
    assert str(path) in one_error(run("batch", path))
    assert "cannot read the file" in one_error(run("show", tmp_path / "missing.yaml"))


@pytest.mark.timeout(20)
def test_a_nul_byte_is_reported_with_its_line(tmp_path):
    text = MID_PLAY.replace("dealer: Carol", "dealer: Ca\0rol")
    line = text.split("\n").index("dealer: Ca\0rol") + 1
    message = one_error(run("show", write(tmp_path, text)))
    assert f"deal.yaml:{line}:" in message and "U+0000" in message


@pytest.mark.timeout(20)
def test_bad_utf8_is_reported_with_its_line(tmp_path):
    path = tmp_path / "deal.yaml"
    path.write_bytes(MID_PLAY.encode().replace(b"dealer: Carol", b"dealer: Car\xffol"))
    line = MID_PLAY.split("\n").index("dealer: Carol") + 1
    assert f"deal.yaml:{line}:" in one_error(run("show", path))


@pytest.mark.timeout(60)
def test_many_bad_batch_lines_give_twenty_messages_and_a_count(tmp_path):
    path = write(tmp_path, "N:A... K... Q...\n" * 100_000, "bad.pbn")
    result = run("batch", path)
    assert result.exit_code == 1
    errors = result.stderr.strip().splitlines()
    assert len(errors) == limits.BATCH_ERRORS_SHOWN + 1
    assert errors[-1] == f"error: {path}: and {100_000 - limits.BATCH_ERRORS_SHOWN} more bad lines"
    assert len(result.stderr) < 10_000 and result.stdout == ""


@pytest.mark.timeout(20)
def test_an_endless_batch_line_is_refused_at_the_cap(tmp_path):
    path = tmp_path / "long.pbn"
    path.write_text("N:A.K.. K.A.. .Q.A. Q...A\n" + "x" * 50_000_000, encoding="ascii")
    start = time.monotonic()
    message = one_error(run("batch", path))
    assert f"{path}:2: the line is longer than {limits.BATCH_LINE_MAX_CHARS:,}" in message
    assert time.monotonic() - start < 5


@pytest.mark.timeout(30)
def test_bid_names_the_file_for_an_unknown_player():
    message = one_error(run("bid", HANDS / "worked-example.yaml", "--player", "Zed"))
    assert "worked-example.yaml" in message and "unknown player 'Zed'" in message


# ------------------------------------------------------------------ pipes and signals
@pytest.mark.timeout(60)
def test_batch_into_a_closed_pipe_stops_quietly(tmp_path):
    path = write(tmp_path, "N:A.K.. K.A.. .Q.A. Q...A\n" * 20_000, "many.pbn")
    for jobs in ("1", "2"):
        proc = subprocess.Popen(command("batch", path, "--jobs", jobs), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        first = proc.stdout.readline()
        proc.stdout.close()   # as `| head -1` does
        err = proc.stderr.read().decode()
        proc.wait(30)
        assert first.startswith(b" line") and err == ""
        assert proc.returncode == 141
        assert children_of(proc.pid) == []


def wait_for_output(path: Path, seconds: float = 60) -> None:
    """Until the command has written a first whole line to ``path``."""
    deadline = time.monotonic() + seconds
    while b"\n" not in path.read_bytes():
        assert time.monotonic() < deadline, "no output"
        time.sleep(0.05)


def slow_batch(tmp_path: Path, deals: int = 100) -> Path:
    """``deals`` full deals (about 10 ms each on two workers): a batch that
    a signal or a kill sent after its first line lands in the middle of."""
    sys.path.insert(0, str(ROOT))
    from benches._util import pbn, random_deals

    lines = [pbn(hands) for hands in random_deals(deals, seed=3, cards=13)]
    return write(tmp_path, "\n".join(lines) + "\n", "slow.pbn")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig, code, word", [(signal.SIGTERM, 143, "terminated"),
                                            (signal.SIGINT, 130, "interrupted")])
def test_a_signal_stops_batch_with_whole_lines_and_no_traceback(tmp_path, sig, code, word):
    path = slow_batch(tmp_path, 400)      # seconds of work: the signal comes long before the end
    out = tmp_path / "out.jsonl"
    with out.open("wb") as sink:
        proc = subprocess.Popen(command("batch", path, "--jobs", "2", "--json"), stdout=sink,
                                stderr=subprocess.PIPE, start_new_session=True)
    workers = wait_for_children(proc, 2)
    wait_for_output(out)
    os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == code
    assert err.decode().strip() == f"error: {word}"
    lines = out.read_bytes().decode().splitlines()
    assert out.read_bytes().endswith(b"\n") and 1 <= len(lines) < 400
    for line in lines:
        json.loads(line)                      # every line written is whole
    assert_gone(workers)


#: one full deal that takes seconds of CPU with a tiny table
HEAVY = "N:85.AT32.K.KJ7653 QT743.K754.JT3.4 AK6.Q.AQ7654.AT2 J92.J986.982.Q98\n"


@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig, code, word", [(signal.SIGTERM, 143, "terminated"),
                                            (signal.SIGINT, 130, "interrupted")])
def test_a_signal_stops_one_long_solve_within_a_second(tmp_path, sig, code, word):
    """The compiled search gives way to signals: a solve in progress in the
    command's own process (--jobs 1) ends within a second of Ctrl-C or
    SIGTERM, with the usual message and exit code and no result line."""
    path = write(tmp_path, HEAVY, "heavy.pbn")
    proc = subprocess.Popen(command("batch", path, "--jobs", "1", "--tt-mb", "0.05", "--json"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while cpu_seconds(proc.pid) < 1.2:        # start-up is ~0.4 s of CPU, the solve several seconds
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the solve did not start"
        time.sleep(0.02)
    sent = time.monotonic()
    os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 1.0
    assert proc.returncode == code
    assert err.decode().strip() == f"error: {word}"
    assert out == b""


@pytest.mark.timeout(120)
@pytest.mark.parametrize("tries", range(3))
def test_ctrl_c_during_bid_leaves_no_traceback(tries):
    proc = subprocess.Popen(command("bid", HANDS / "worked-example.yaml", "--player", "Bob", "--jobs", "2",
                                    "--samples", "2000"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    workers = wait_for_children(proc, 2)
    time.sleep(0.3 * tries)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.decode().strip() == "error: interrupted"
    assert_gone(workers)


# ------------------------------------------------------------------ dying workers
@pytest.mark.timeout(180)
def test_batch_survives_a_killed_worker(tmp_path):
    path = slow_batch(tmp_path, 60)
    out = tmp_path / "out.jsonl"
    with out.open("wb") as sink:
        proc = subprocess.Popen(command("batch", path, "--jobs", "2", "--json"), stdout=sink,
                                stderr=subprocess.PIPE)
    workers = wait_for_children(proc, 2)
    wait_for_output(out)
    os.kill(workers[0], signal.SIGKILL)      # as the out-of-memory killer would
    _, err = proc.communicate(timeout=150)
    assert proc.returncode == 0, err
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    expected = [line for line in path.read_text().splitlines()]
    assert [x["deal"] for x in lines] == expected    # none lost, none twice, in order
    assert "60 deals" in err.decode()
    assert_gone(workers, 0.1)


@pytest.mark.timeout(120)
def test_bid_time_limit_holds_when_a_worker_is_killed():
    start = time.monotonic()
    proc = subprocess.Popen(command("bid", HANDS / "worked-example.yaml", "--player", "Bob", "--jobs", "2",
                                    "--samples", "5000", "--time-limit", "4", "--json"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    workers = wait_for_children(proc, 2)
    time.sleep(1.0)
    os.kill(workers[0], signal.SIGKILL)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    data = json.loads(out)
    assert data["stopped_early"] and 1 <= data["samples"] < 5000
    assert time.monotonic() - start < 20
    assert_gone(workers, 0.1)


# ------------------------------------------------------------------ orphans
@pytest.mark.timeout(120)
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_duck_search_child_dies_with_duck(sig):
    proc = subprocess.Popen(command("duck", HANDS / "duck-worked-example.yaml", "--time-limit", "60"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    child = wait_for_children(proc, 1, 60)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    if sig == signal.SIGTERM:
        assert proc.returncode == 143 and err.decode().strip() == "error: terminated"
    assert_gone(child)


@pytest.mark.timeout(120)
@pytest.mark.parametrize("cmd", ["batch", "bid"])
def test_pool_workers_die_with_a_killed_parent(tmp_path, cmd):
    args = (["batch", slow_batch(tmp_path), "--jobs", "2"] if cmd == "batch" else
            ["bid", HANDS / "worked-example.yaml", "--player", "Bob", "--jobs", "2", "--samples", "2000"])
    proc = subprocess.Popen(command(*args), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers = wait_for_children(proc, 2)
    proc.kill()
    proc.wait(10)
    assert_gone(workers)


# ------------------------------------------------------------------ soak
def peak_rss_kb(args: list) -> int:
    proc = subprocess.Popen(command(*args), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, proc.stderr.read()
    return usage.ru_maxrss


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_batch_memory_does_not_grow_with_the_deals(tmp_path):
    """100,000 small deals take no more memory than 10,000 (both read line by
    line; the timing summary is bounded, docs/LIMITS.md)."""
    line = "N:A.K.. K.A.. .Q.A. Q...A\n"
    small = write(tmp_path, line * 10_000, "small.pbn")
    large = write(tmp_path, line * 100_000, "large.pbn")
    base = peak_rss_kb(["batch", small, "--jobs", "1", "--json"])
    peak = peak_rss_kb(["batch", large, "--jobs", "1", "--json"])
    assert peak - base < 2048, (base, peak)   # KB: allocator noise, not 90,000 more deals


# ------------------------------------------------------------------ the limits are documented
def test_every_limit_is_in_docs():
    doc = (ROOT / "docs" / "LIMITS.md").read_text(encoding="utf-8")
    for value in (f"{limits.DEAL_FILE_MAX_BYTES:,}", f"{limits.YAML_MAX_DEPTH} levels",
                  f"{limits.YAML_MAX_NODES:,}", f"{limits.BATCH_LINE_MAX_CHARS:,} characters",
                  f"({limits.BATCH_STDIN_MAX_BYTES:,} bytes;",
                  f"the first {limits.BATCH_ERRORS_SHOWN}", f"{limits.JOBS_PER_CORE} per usable core",
                  f"1 to {limits.SAMPLES_MAX:,}", "2^64 - 1",
                  f"1 to {limits.LOOKAHEAD_MAX} moves",
                  f"at most {limits.LOOKAHEAD_NODE_BUDGET:,} nodes",
                  f"first {limits.SUMMARY_EXACT_SOLVES:,} solve times",
                  f"1 to {limits.DEAL_COUNT_MAX:,} (with `--out`, at most {limits.DEAL_FILES_MAX:,}",
                  f"1 to 10^{len(str(limits.DEAL_TRIES_MAX)) - 1} (default 10,000,000",
                  f"at most {limits.WHERE_MAX_CHARS:,} characters, nested at most "
                  f"{limits.WHERE_MAX_DEPTH} deep; the option at most {limits.WHERE_MAX_CONDITIONS} times"):
        assert value in doc, value
    assert re.search(r"\| 130 \|.*\n\| 141 \|.*\n\| 143 \|", doc)
