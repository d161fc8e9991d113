"""``dummy-spades deal``: PBN lines for batch in its seating, deal files the
other commands load, JSON, the seed, and bad input (exit 2 with the option
and the position; rare conditions exit 1 with the rate seen; Ctrl-C 130)."""
from __future__ import annotations

import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from process_helpers import cpu_seconds
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver.batch import parse_deal
from dummy_spades.solver.cards import SUIT_MASK, count, parse_hand
from dummy_spades.solver.constraints import Table, parse_condition
from dummy_spades.solver.dealer import random_seat_deals
from dummy_spades.solver.dealfile import load_deal, loads_deal
from dummy_spades.solver.pbn import format_pbn_deal

pytestmark = pytest.mark.skipif(importlib.util.find_spec("dummy_spades.solver._dealer") is None,
                                reason="the compiled dealer is not built")

ROOT = Path(__file__).resolve().parents[1]
runner = CliRunner()
TABLE = Table(("Alice", "Bob", "Carol"), "Carol")


def run(*args: object, **kwargs):
    return runner.invoke(app, ["deal", *map(str, args)], **kwargs)


def deal_lines(stdout: str):
    return [line for line in stdout.splitlines() if line and not line.startswith("#")]


def one_error(result, code: int) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output and result.stdout == ""
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("error:")]
    assert len(errors) == 1, result.stderr
    return errors[0]


def command(*args: object) -> list:
    return [sys.executable, "-m", "dummy_spades.cli", *map(str, args)]


# ------------------------------------------------------------------ PBN
def test_pbn_lines_are_the_seeds_deals_in_batchs_seats():
    result = run("--count", 20, "--seed", 1)
    assert result.exit_code == 0, result.output
    lines = deal_lines(result.stdout)
    assert lines == [format_pbn_deal(h) for h in random_seat_deals(20, 1)]
    assert all(parse_deal(line) for line in lines)   # batch reads every line
    header = [ln for ln in result.stdout.splitlines() if ln.startswith("#")]
    assert header == [
        "# dummy-spades deal: 20 deals, seed 1, 13 cards a hand; players Alice, Bob, Carol, dealer Carol",
        "# N:<declarer> <left defender> <dummy> <right defender>: N Bob, E Carol, S dummy, "
        "W Alice; Alice (W) leads first: batch --leader W",
    ]
    assert "20 deals of 20 candidates (seed 1): acceptance rate 100%" in result.stderr


def test_every_deal_satisfies_every_where_and_the_seating_names_the_hands():
    wheres = ["spades(Carol) >= 5", "12 <= hcp(Carol) <= 14", "not has(leader, SA)"]
    result = run("--count", 30, "--seed", 4, *[a for w in wheres for a in ("--where", w)])
    assert result.exit_code == 0, result.output
    conditions = [parse_condition(w, TABLE) for w in wheres]
    for line in deal_lines(result.stdout):
        n, e, s, w = parse_deal(line)          # N Bob, E Carol, S dummy, W Alice
        assert all(c.holds((w, n, e, s)) for c in conditions)
    assert [f"# where {w}" for w in wheres] == [ln for ln in result.stdout.splitlines()
                                                if ln.startswith("# where")]
    assert re.search(r"30 deals of [\d,]+ candidates \(seed 4\): acceptance rate [\d.]+% ± [\d.]+%",
                     result.stderr)


@pytest.mark.parametrize("args, seats, leader", [
    ((), "N Bob, E Carol, S dummy, W Alice", "Alice (W)"),
    (("--declarer", "Alice"), "N Alice, E Bob, S dummy, W Carol", "Alice (N)"),
    (("--declarer", "Carol"), "N Carol, E Alice, S dummy, W Bob", "Alice (E)"),
    (("--dealer", "Alice"), "N Carol, E Alice, S dummy, W Bob", "Bob (W)"),
    (("--auction", "4, 7, 5"), "N Bob, E Carol, S dummy, W Alice", "Alice (W)"),
    (("--auction", "8, 7, 5"), "N Alice, E Bob, S dummy, W Carol", "Alice (N)"),
    (("--players", "Ann,Ben,Cy", "--dealer", "Ben"), "N Ann, E Ben, S dummy, W Cy", "Cy (W)"),
])
def test_the_seating_follows_the_declarer(args, seats, leader):
    result = run("--seed", 2, *args)
    assert result.exit_code == 0, result.output
    assert f"{seats}; {leader} leads first" in result.stdout


def test_the_same_hands_whatever_the_seating():
    plain = deal_lines(run("--count", 5, "--seed", 3).stdout)
    other = deal_lines(run("--count", 5, "--seed", 3, "--declarer", "Carol").stdout)
    for a, b in zip(plain, other):
        n, e, s, w = parse_deal(a)       # Bob Carol dummy Alice
        assert parse_deal(b) == (e, w, s, n)   # Carol Alice dummy Bob


def test_endings_deal_fewer_cards():
    result = run("--count", 10, "--seed", 8, "--cards", 8)
    assert result.exit_code == 0, result.output
    lines = deal_lines(result.stdout)
    assert lines == [format_pbn_deal(h) for h in random_seat_deals(10, 8, cards=8)]
    assert all(count(h) == 8 for line in lines for h in parse_deal(line))


def test_without_a_seed_the_seed_used_is_shown_and_repeats_the_run():
    first = run("--count", 3)
    seed = int(re.search(r"seed (\d+)", first.stderr).group(1))
    again = run("--count", 3, "--seed", seed)
    assert deal_lines(again.stdout) == deal_lines(first.stdout)
    assert f"seed {seed}," in first.stdout


# ------------------------------------------------------------------ batch reads it
def test_piped_into_batch(tmp_path):
    deal = subprocess.Popen(command("deal", "--count", 12, "--seed", 1, "--where",
                                    "spades(Carol) >= 5", "--to", "pbn"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    batch = subprocess.run(command("batch", "-", "--jobs", 2, "--json"), stdin=deal.stdout,
                           capture_output=True, text=True, timeout=120)
    deal.stdout.close()
    deal.wait(timeout=30)
    assert deal.returncode == 0 and batch.returncode == 0, batch.stderr
    results = [json.loads(line) for line in batch.stdout.splitlines()]
    assert len(results) == 12
    assert all(r["leader"] == "W" and r["side"] == "NS" and 0 <= r["tricks"] <= 13 for r in results)
    for r in results:
        carol = parse_deal(r["deal"])[1]       # E
        assert count(carol & SUIT_MASK[0]) >= 5


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_the_done_when_command():
    """dummy-spades deal --count 1000 --seed 1 --where "spades(Carol) >= 5" --to pbn
    | dummy-spades batch -"""
    deal = subprocess.Popen(command("deal", "--count", 1000, "--seed", 1, "--where",
                                    "spades(Carol) >= 5", "--to", "pbn"), stdout=subprocess.PIPE)
    batch = subprocess.run(command("batch", "-"), stdin=deal.stdout, capture_output=True,
                           text=True, timeout=580)
    deal.stdout.close()
    assert deal.wait(timeout=30) == 0 and batch.returncode == 0, batch.stderr
    rows = batch.stdout.splitlines()[1:]
    assert len(rows) == 1000 and "1000 deals (1000 solves)" in batch.stderr


# ------------------------------------------------------------------ deal files
def test_deal_files_load_and_hold_the_dealt_hands(tmp_path):
    out = tmp_path / "set"
    result = run("--count", 12, "--seed", 5, "--out", out, "--where", "qt(leader) == 0")
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    files = sorted(out.iterdir())
    assert [f.name for f in files] == [f"deal-{i:03d}.yaml" for i in range(1, 13)]
    pbn = deal_lines(run("--count", 12, "--seed", 5, "--where", "qt(leader) == 0").stdout)
    for i, (f, line) in enumerate(zip(files, pbn), start=1):
        deal = load_deal(f)
        assert deal.players == ("Alice", "Bob", "Carol") and deal.dealer == "Carol"
        n, e, s, w = parse_deal(line)
        assert dict(deal.hands) == {"Alice": w, "Bob": n, "Carol": e, "dummy": s}
        assert deal.title == f"Random deal {i} of 12 (seed 5)"
        assert deal.notes == "where qt(leader) == 0"
        assert deal.auction is None


def test_one_deal_file_on_stdout_works_with_the_commands(tmp_path):
    result = run("--seed", 7, "--to", "yaml")
    assert result.exit_code == 0, result.output
    path = tmp_path / "one.yaml"
    path.write_text(result.stdout)
    for args in (["show", path], ["solve", path, "--json"], ["bid", path, "--samples", "4", "--jobs", "1"],
                 ["analyse", path, "--declarer", "Bob"], ["convert", path]):
        shown = runner.invoke(app, [str(a) for a in args])
        assert shown.exit_code == 0, (args, shown.output)


def test_the_explorer_opens_a_dealt_deal(tmp_path):
    from dummy_spades.solver.exploration import Exploration

    deal = loads_deal(run("--seed", 7, "--to", "yaml").stdout)
    assert Exploration(deal, "Bob", None) is not None


def test_variants_write_what_the_deal_file_needs(tmp_path):
    peeky = loads_deal(run("--seed", 3, "--to", "yaml", "--variant", "three-peeky").stdout)
    assert peeky.variant.name == "three-peeky"
    assert set(peeky.variant.seen) == {"Alice", "Bob", "Carol"}
    assert all(count(m) == 3 and m & ~peeky.dummy == 0 for m in peeky.variant.seen.values())
    flip = loads_deal(run("--seed", 3, "--to", "yaml", "--variant", "flip-4").stdout)
    masks = list(flip.variant.seen.values())
    assert count(masks[0] | masks[1] | masks[2]) == 12      # flipped cards stay face up
    mirror = loads_deal(run("--seed", 3, "--to", "yaml", "--variant", "mirror").stdout)
    assert mirror.variant.bidding == "mirror" and mirror.declarer is not None
    for bid in mirror.auction.bids:
        assert bid.tricks == count(mirror.hands[bid.player] & SUIT_MASK[0])
    auctioned = loads_deal(run("--seed", 3, "--to", "yaml", "--auction", "5, 0 nil self").stdout)
    assert [b.call() for b in auctioned.auction.bids] == ["5", "0 nil self"]
    suicide = loads_deal(run("--seed", 3, "--to", "yaml", "--variant", "suicide",
                             "--auction", "0 nil self, 5 nil dummy, 6 nil dummy").stdout)
    assert suicide.declarer == "Carol"
    same = loads_deal(run("--seed", 3, "--to", "yaml").stdout)
    assert dict(same.hands) == dict(peeky.hands) == dict(mirror.hands)   # the same stream


def test_existing_files_are_kept_without_force(tmp_path):
    out = tmp_path / "set"
    assert run("--count", 3, "--seed", 1, "--out", out).exit_code == 0
    before = {f.name: f.read_text() for f in out.iterdir()}
    message = one_error(run("--count", 3, "--seed", 2, "--out", out), 1)
    assert "deal-001.yaml and 2 more already exist; expected --force" in message
    assert {f.name: f.read_text() for f in out.iterdir()} == before
    assert run("--count", 3, "--seed", 2, "--out", out, "--force").exit_code == 0
    assert {f.name: f.read_text() for f in out.iterdir()} != before


def test_force_without_out_is_a_usage_error():
    assert one_error(run("--force"), 2) == \
        "error: --force applies with --out only; expected --out, or no --force"


def test_out_must_be_a_directory(tmp_path):
    path = tmp_path / "file"
    path.write_text("x")
    assert "is not a directory" in one_error(run("--out", path), 1)


def test_an_out_under_a_file_is_refused_before_dealing(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = run("--out", blocker / "set" / "more")
    message = one_error(result, 1)
    assert f"{blocker} is not a writable directory" in message and "(--out)" in message
    assert "candidates" not in result.stderr          # refused before dealing
    assert blocker.read_text() == "x"


def test_a_failed_write_leaves_no_deal_file(tmp_path):
    from dummy_spades.cli.deal import write_files
    import typer
    out = tmp_path / "set"
    targets = [out / "deal-001.yaml", out / "deal-002.yaml"]
    out.mkdir()
    targets[1].mkdir()            # replacing a directory by a file fails
    with pytest.raises(typer.Exit):
        write_files(out, targets, ["a: 1\n", "b: 2\n"], force=True)
    assert sorted(p.name for p in out.iterdir()) == ["deal-002.yaml"]
    assert targets[1].is_dir()


# ------------------------------------------------------------------ JSON
def test_json_fields():
    result = run("--count", 3, "--seed", 1, "--where", "spades(Carol) >= 5", "--json")
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert list(out) == ["seed", "count", "cards", "players", "dealer", "where", "candidates",
                         "acceptance_rate", "acceptance_se", "seconds", "seating", "deals", "files"]
    assert out["seating"] == {"N": "Bob", "E": "Carol", "S": "dummy", "W": "Alice",
                              "opening_leader": "W"}
    assert out["acceptance_rate"] == pytest.approx(3 / out["candidates"])
    pbn = deal_lines(run("--count", 3, "--seed", 1, "--where", "spades(Carol) >= 5").stdout)
    assert [d["pbn"] for d in out["deals"]] == pbn
    for d in out["deals"]:
        assert count(parse_hand(d["hands"]["Carol"]) & SUIT_MASK[0]) >= 5
    yaml_out = json.loads(run("--count", 2, "--seed", 1, "--to", "yaml", "--json").stdout)
    assert loads_deal(yaml_out["deals"][1]["yaml"]).title == "Random deal 2 of 2 (seed 1)"


# ------------------------------------------------------------------ bad input
USAGE = [
    # an expression: the option, the position
    (["--where", "spades(Carol) >= 5 and"], "--where 'spades(Carol) >= 5 and', position 23: found the end"),
    (["--where", "spades(Carl) >= 5"], "--where 'spades(Carl) >= 5', position 8: unknown player 'Carl'; "
                                       "expected one of Alice, Bob, Carol, dummy (or leader or dealer)"),
    (["--where", "hcp(Bob, Z) >= 5"], "--where 'hcp(Bob, Z) >= 5', position 10: unknown suit 'Z'"),
    (["--where", "spades(Bob) >= 14"], "--where 'spades(Bob) >= 14', position 16: 14 is out of reach: "
                                       "spades(Bob) is 0 to 13"),
    (["--where", "hcp(Bob) >= 40"], "--where 'hcp(Bob) >= 40', position 13: 40 is out of reach: "
                                    "hcp(Bob) is 0 to 37"),
    (["--where", "spades(Bob) >= 1", "--where", "clubs(Bob) > 13"], "--where 'clubs(Bob) > 13', position 12"),
    (["--players", "Ann,Ben,Cy", "--where", "spades(Alice) >= 1"], "unknown player 'Alice'"),
    # the other options
    (["--players", "Ann,Ben"], "--players 'Ann,Ben': --players 'Ann,Ben' does not name three players"),
    (["--players", "Ann,dummy,Cy"], "cannot be a player's name"),
    (["--dealer", "Dan"], "--dealer 'Dan': unknown dealer 'Dan'"),
    (["--declarer", "Dan"], "--declarer 'Dan': unknown player"),
    (["--variant", "five-peeky"], "--variant 'five-peeky': unknown variant"),
    (["--auction", "5, 14"], "--auction '5, 14': auction[1].bid: bid 14 is not allowed"),
    (["--auction", "5, 6, 7, 8"], "at most three bids"),
    (["--auction", "3", "--variant", "suicide"], "under suicide a player bids nil or at least 4"),
    (["--auction", "5", "--variant", "mirror"], "under mirror every bid is the bidder's number of spades"),
    (["--to", "yaml", "--count", "2"], "--to yaml with --count 2: one deal file per deal"),
    (["--to", "pbn", "--out", "somewhere"], "--out writes deal files (--to yaml)"),
    (["--to", "yaml", "--cards", "8"], "--cards 8 with --to yaml"),
    (["--cards", "8", "--where", "spades(Bob) >= 1"], "--where with --cards 8"),
    (["--to", "yaml", "--declarer", "Bob"], "--declarer seats PBN lines"),
    (["--out", "somewhere", "--count", "10001"], "expected at most 10,000 deal files"),
]


@pytest.mark.parametrize("args, words", USAGE, ids=[" ".join(a) for a, _ in USAGE])
def test_bad_options_are_one_usage_error(args, words, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = one_error(run(*args), 2)
    assert words in message
    assert list(tmp_path.iterdir()) == []   # nothing written


@pytest.mark.parametrize("args", [["--count", "0"], ["--count", "1000001"], ["--seed", "-1"],
                                  ["--seed", str(2 ** 64)], ["--max-tries", "0"], ["--cards", "14"],
                                  ["--to", "tex"]])
def test_out_of_range_options_are_usage_errors(args):
    result = run(*args)
    assert result.exit_code == 2 and args[0] in result.stderr and result.stdout == ""


def test_contradictory_conditions_stop_at_the_cap_with_the_rate(tmp_path):
    out = tmp_path / "set"
    message = one_error(run("--count", 5, "--where", "spades(Alice) >= 7", "--where",
                            "spades(Bob) >= 7", "--max-tries", 100_000, "--out", out), 1)
    assert ("no deal of 100,000 candidates passed --where (acceptance rate 0: below 3.0e-05 with "
            "95% confidence)") in message
    assert not out.exists()


def test_rare_conditions_stop_at_the_cap_with_the_rate_seen():
    result = run("--count", 100, "--seed", 1, "--where", "spades(Alice) >= 8", "--max-tries", 20_000)
    message = one_error(result, 1)
    m = re.search(r"only (\d+) of 100 deals passed --where in 20,000 candidates \(acceptance rate "
                  r"([\d.e+-]+)% ± [\d.e+-]+%\): the conditions are too rare for --max-tries 20,000; "
                  r"expected --max-tries of about ([\d,]+)", message)
    assert m, message
    found = int(m.group(1))
    assert 0 < found < 100 and float(m.group(2)) == pytest.approx(100 * found / 20_000, rel=1e-2)
    assert "of 20,000 candidates (seed 1)" in result.stderr   # the summary before it


@pytest.mark.timeout(30)
@pytest.mark.parametrize("sig, code, word", [(signal.SIGINT, 130, "interrupted"),
                                            (signal.SIGTERM, 143, "terminated")])
def test_a_signal_stops_a_long_search_at_once(sig, code, word):
    proc = subprocess.Popen(command("deal", "--where", "spades(Alice) == 13", "--max-tries", 10 ** 11),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 20
    while cpu_seconds(proc.pid) < 1.5:     # past the start (about 0.5 s of CPU): dealing
        assert proc.poll() is None and time.monotonic() < deadline
        time.sleep(0.1)
    start = time.monotonic()
    os.killpg(proc.pid, sig) if sig == signal.SIGINT else proc.send_signal(sig)
    out, err = proc.communicate(timeout=10)
    assert time.monotonic() - start < 2
    assert proc.returncode == code and out == b""
    assert err.decode().strip() == f"error: {word}"


def test_a_closed_pipe_ends_quietly():
    proc = subprocess.Popen(command("deal", "--count", 200_000, "--seed", 1), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    _, err = proc.communicate(timeout=60)
    assert first.startswith(b"# dummy-spades deal")
    assert proc.returncode == 141 and b"Traceback" not in err


# ------------------------------------------------------------------ the benchmarks' deals
@pytest.mark.parametrize("name, args", [("full-50.pbn", ["--count", 50, "--seed", 1]),
                                        ("endings-8-cards-50.pbn", ["--count", 50, "--seed", 8,
                                                                    "--cards", 8])])
def test_the_bench_deal_files_are_the_commands_output(name, args):
    """benches/deals/full-50.pbn: the first 50 deals of benches/compare_dds.py's default run."""
    result = run(*args, "--to", "pbn")
    assert result.stdout == (ROOT / "benches" / "deals" / name).read_text(encoding="utf-8")
    if name == "full-50.pbn":
        sys.path.insert(0, str(ROOT / "benches"))
        from _util import random_deals

        assert deal_lines(result.stdout) == [format_pbn_deal(h) for h in random_deals(200, 1)[:50]]
