"""The batch command: PBN deal-line parsing, validation, options, output.

Deals are tiny (1-3 cards per hand) so the expected tricks come from the
reference twin; the batch itself runs the compiled engine.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver.batch import (
    BatchError,
    BatchOptions,
    BatchDeal,
    DealsFileError,
    DealLineError,
    median,
    parse_deal,
    parse_deals,
    parse_leaders,
    parse_side,
    percentile,
    read_deals,
    run_batch,
    summarise,
)
from dummy_spades.solver.cards import parse_hand
from dummy_spades.solver.position import Position
from dummy_spades.solver.run import Inline, ProcessPool

from solver_checks import REF

DATA = Path(__file__).parent / "data"
GOOD = DATA / "batch_small.pbn"

# breaking matters here: leader W holds CQ and SJ... (see test_breaking_flags)
BREAKING_DEAL = "N:J...Q .J.K. 4..A. K.8.."

runner = CliRunner()


def run(*args: str):
    return runner.invoke(app, ["batch", *map(str, args)])


def hands_of(pbn: str):
    return tuple(parse_hand(h) for h in pbn[2:].split())


def expected(pbn: str, leader: int, side: int = 0b0101, spades_broken: bool = False,
             breaking: bool = True) -> int:
    return REF.max_tricks(Position(hands_of(pbn), leader, (), spades_broken, breaking), side)


def good_deals():
    return [line.split("#")[0].strip() for line in GOOD.read_text().splitlines()
            if line.split("#")[0].strip()]


# ---------------------------------------------------------------- parsing


def test_parse_deal_seats_in_order():
    hands = parse_deal("N:A... K... Q... J...")
    assert hands == tuple(parse_hand(h) for h in ("A...", "K...", "Q...", "J..."))


@pytest.mark.parametrize("first, order", [("E", (1, 2, 3, 0)), ("S", (2, 3, 0, 1)), ("W", (3, 0, 1, 2))])
def test_parse_deal_rotates_other_first_seats(first, order):
    texts = ("A...", "K...", "Q...", "J...")
    hands = parse_deal(f"{first}:" + " ".join(texts))
    for text, seat in zip(texts, order):
        assert hands[seat] == parse_hand(text)


def test_parse_deal_lowercase_seat_and_trailing_comment():
    assert parse_deal("n:A... K... Q... J...  # four aces? no") == parse_deal("N:A... K... Q... J...")


def test_parse_deals_skips_blank_and_comment_lines():
    deals = parse_deals(["# header", "", "   ", "N:A... K... Q... J...", "  # indented comment",
                         "N:.A.. .K.. .Q.. .J.."], "x.pbn")
    assert [d.line for d in deals] == [4, 6]
    assert deals[0].pbn == "N:A... K... Q... J..."


def test_deal_pbn_is_n_first():
    (deal,) = parse_deals(["E:A... K... Q... J..."])
    assert deal.pbn == "N:J... A... K... Q..."
    assert deal.cards_per_hand == 1


BAD_LINES = {
    "no seat": ("A... K... Q... J...", r"not a deal; expected 'N:<declarer> <left defender> <dummy> <right defender>'"),
    "bad seat letter": ("X:A... K... Q... J...", r"first seat letter N, E, S or W"),
    "three hands": ("N:A... K... Q...", r"found 3 hands; expected four hands"),
    "five hands": ("N:A... K... Q... J... T...", r"found 5 hands; expected four hands"),
    "three suits": ("N:A.. K... Q... J...", r"hand 1 \(N, declarer\).*not in PBN dot notation"),
    "bad rank": ("N:A... K... Q... X...", r"hand 4 \(W, right defender\).*unknown rank 'X'"),
    "rank twice in a suit": ("N:AA... KQ... JT... 98...", r"hand 1 \(N, declarer\).*appears twice"),
    "unequal lengths": ("N:AK... Q... J... T...", r"unequal lengths \(N 2, E 1, S 1, W 1\); expected all four hands of the same length"),
    "empty hands": ("N:... ... ... ...", r"hands are empty; expected 1 to 13 cards"),
    "duplicate card": ("N:A... K... A... J...", r"card\(s\) SA of S also appear in an earlier hand"),
}


@pytest.mark.parametrize("kind", sorted(BAD_LINES))
def test_parse_deal_rejects(kind):
    text, pattern = BAD_LINES[kind]
    with pytest.raises(DealLineError, match=pattern):
        parse_deal(text)


def test_parse_deals_reports_every_bad_line():
    lines = ["N:A... K... Q... J...", "N:A... K... Q...", "# ok", "N:AK... Q... J... T..."]
    with pytest.raises(DealsFileError) as info:
        parse_deals(lines, "d.pbn")
    assert len(info.value.messages) == 2
    assert info.value.messages[0].startswith("d.pbn:2: ")
    assert info.value.messages[1].startswith("d.pbn:4: ")
    assert isinstance(info.value, ValueError)


def test_read_deals_missing_and_empty(tmp_path):
    with pytest.raises(DealsFileError, match="no such file"):
        read_deals(tmp_path / "nope.pbn")
    with pytest.raises(DealsFileError, match="is a directory"):
        read_deals(tmp_path)
    empty = tmp_path / "empty.pbn"
    empty.write_text("# nothing\n\n")
    with pytest.raises(DealsFileError, match="no deals found"):
        read_deals(empty)


@pytest.mark.parametrize("text, seats", [("N", [0]), ("e", [1]), ("S", [2]), ("W", [3]), ("all", [0, 1, 2, 3]),
                                         ("ALL", [0, 1, 2, 3])])
def test_parse_leaders(text, seats):
    assert parse_leaders(text) == seats


@pytest.mark.parametrize("text", ["", "X", "NS", "north", "1"])
def test_parse_leaders_rejects(text):
    with pytest.raises(BatchError, match="expected one of N, E, S, W or all"):
        parse_leaders(text)


@pytest.mark.parametrize("text, mask", [("NS", 0b0101), ("EW", 0b1010), ("NES", 0b0111), ("w", 0b1000),
                                        ("SN", 0b0101)])
def test_parse_side(text, mask):
    assert parse_side(text) == mask


@pytest.mark.parametrize("text, pattern", [("", "between one and three"), ("NESW", "between one and three"),
                                           ("NX", "unknown seat 'X'"), ("NN", "seat N given twice")])
def test_parse_side_rejects(text, pattern):
    with pytest.raises(BatchError, match=pattern):
        parse_side(text)


# ---------------------------------------------------------------- stats


def test_percentile_and_median():
    values = list(range(1, 101))
    assert percentile(values, 95) == 95
    assert percentile(values, 100) == 100
    assert percentile([7.0], 95) == 7.0
    assert median([3, 1, 2]) == 2
    assert median([4, 1, 2, 3]) == 2.5


def test_summarise_counts_deals_and_solves():
    deals = parse_deals(good_deals())
    results = list(run_batch(deals, BatchOptions(leaders=(0, 1, 2, 3)), Inline()))
    s = summarise(results, 2.0)
    assert s.deals == len(deals) and s.solves == 4 * len(deals)
    assert s.deals_per_second == len(deals) / 2.0
    assert s.median_ms <= s.p95_ms <= s.max_ms
    assert "deals/s" in str(s)


def test_each_deal_starts_with_an_empty_table():
    """A deal's nodes do not depend on the deals solved before it in the
    same worker (its leaders share one table, emptied for the next deal)."""
    from dummy_spades.solver.dealer import random_seat_deals
    from dummy_spades.solver.pbn import format_pbn_deal

    lines = [format_pbn_deal(h) for h in random_seat_deals(3, 4, cards=9)]
    options = BatchOptions(leaders=(0, 3), tt_mb=0.02)   # a full table: old entries would crowd

    def nodes(order):
        return {(r.deal, r.leader): r.nodes for r in run_batch(parse_deals(order), options, Inline())}

    forward = nodes(lines)
    assert all(forward.values())
    assert nodes(lines[::-1]) == forward


# ---------------------------------------------------------------- the command


def test_table_output_on_good_file():
    result = run(GOOD, "--jobs", "1")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["line", "leader", "side", "tricks", "ms", "nodes", "deal"]
    rows = [ln.split() for ln in lines[1:]]
    deals = good_deals()
    assert len(rows) == len(deals)
    for row, pbn in zip(rows, deals):
        assert row[1] == "W" and row[2] == "NS"
        assert " ".join(row[6:]) == pbn
        assert int(row[3]) == expected(pbn, 3)
    assert "deals/s" in result.stderr and "median" in result.stderr and "p95" in result.stderr


def test_table_line_numbers_skip_comments():
    result = run(GOOD, "--jobs", "1")
    numbers = [int(ln.split()[0]) for ln in result.stdout.splitlines()[1:]]
    text_lines = GOOD.read_text().splitlines()
    for n in numbers:
        assert text_lines[n - 1].strip().startswith("N:")


def test_json_shape_and_order():
    result = run(GOOD, "--json", "--leader", "all", "--side", "EW", "--jobs", "1")
    assert result.exit_code == 0, result.output
    objs = [json.loads(line) for line in result.stdout.splitlines()]
    deals = good_deals()
    assert len(objs) == 4 * len(deals)
    for i, obj in enumerate(objs):
        assert list(obj) == ["deal", "leader", "side", "tricks", "ms", "nodes"]
        pbn = deals[i // 4]
        assert obj["deal"] == pbn
        assert obj["leader"] == "NESW"[i % 4]
        assert obj["side"] == "EW"
        assert obj["tricks"] == expected(pbn, i % 4, 0b1010)
        assert isinstance(obj["ms"], float) and obj["ms"] >= 0
        assert isinstance(obj["nodes"], int) and obj["nodes"] >= 0
    assert "deals/s" in result.stderr


def test_side_of_three_seats():
    result = run(GOOD, "--json", "--leader", "N", "--side", "NES", "--jobs", "1")
    assert result.exit_code == 0, result.output
    for obj, pbn in zip(map(json.loads, result.stdout.splitlines()), good_deals()):
        assert obj["side"] == "NES"
        assert obj["tricks"] == expected(pbn, 0, 0b0111)


def test_rotated_line_solves_the_same_deal(tmp_path):
    f = tmp_path / "r.pbn"
    f.write_text("W:K.8.. J...Q .J.K. 4..A.\n" + BREAKING_DEAL + "\n")
    result = run(f, "--json", "--jobs", "1")
    a, b = map(json.loads, result.stdout.splitlines())
    assert a["deal"] == b["deal"] == BREAKING_DEAL
    assert a["tricks"] == b["tricks"]


def test_breaking_flags(tmp_path):
    f = tmp_path / "b.pbn"
    f.write_text(BREAKING_DEAL + "\n")
    on = expected(BREAKING_DEAL, 3)
    off = expected(BREAKING_DEAL, 3, breaking=False)
    broken = expected(BREAKING_DEAL, 3, spades_broken=True)
    assert on != off and on != broken  # the deal makes the flags matter

    def tricks(*flags):
        result = run(f, "--json", "--jobs", "1", *flags)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["tricks"]

    assert tricks() == on
    assert tricks("--no-spade-breaking") == off
    assert tricks("--spades-broken") == broken


def test_jobs_one_and_two_agree():
    one = run(GOOD, "--json", "--leader", "all", "--jobs", "1")
    two = run(GOOD, "--json", "--leader", "all", "--jobs", "2")
    assert one.exit_code == 0 and two.exit_code == 0, two.output

    def strip(out):
        return [{k: v for k, v in json.loads(line).items() if k not in ("ms", "nodes")}
                for line in out.splitlines()]

    assert strip(one.stdout) == strip(two.stdout)


def test_small_table_gives_the_same_answers():
    """--tt-mb bounds each worker's table; a tiny one still gives exact answers."""
    small = run(GOOD, "--json", "--leader", "all", "--jobs", "1", "--tt-mb", "0.05")
    default = run(GOOD, "--json", "--leader", "all", "--jobs", "1")
    assert small.exit_code == 0 and default.exit_code == 0, small.output
    tricks = [[json.loads(line)["tricks"] for line in r.stdout.splitlines()] for r in (small, default)]
    assert tricks[0] == tricks[1]


def test_run_batch_pool_keeps_input_order():
    deals = parse_deals(good_deals() * 3)
    with ProcessPool(2) as pool:
        results = list(run_batch(deals, BatchOptions(leaders=(3, 0)), pool))
    assert [(r.index, r.leader) for r in results] == [(i, s) for i in range(len(deals)) for s in (3, 0)]


@pytest.mark.parametrize("kind", sorted(BAD_LINES))
def test_command_rejects_each_bad_line_kind(tmp_path, kind):
    text, pattern = BAD_LINES[kind]
    f = tmp_path / "bad.pbn"
    f.write_text("# first line is a comment\nN:A... K... Q... J...\n" + text + "\n")
    result = run(f, "--jobs", "1")
    assert result.exit_code == 1
    assert result.stdout == ""  # nothing solved, no table
    assert re.search(re.escape(f"{f}:3: ") + ".*" + pattern, " ".join(result.stderr.split()))


def test_command_reports_all_bad_lines_before_solving(tmp_path):
    f = tmp_path / "bad.pbn"
    f.write_text("N:A... K... Q...\nN:A... K... Q... J...\nN:AK... Q... J... T...\nbad\n")
    result = run(f, "--json", "--jobs", "1")
    assert result.exit_code == 1
    assert result.stdout == ""
    errors = [ln for ln in result.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 3
    for err, no in zip(errors, (1, 3, 4)):
        assert f"{f}:{no}: " in err
    assert "Traceback" not in result.output


def test_command_missing_file(tmp_path):
    result = run(tmp_path / "nope.pbn")
    assert result.exit_code == 1
    assert "nope.pbn: no such file" in result.stderr


def test_command_unreadable_file(tmp_path):
    f = tmp_path / "bin.pbn"
    f.write_bytes(b"\xff\xfe\x00N:A")
    result = run(f)
    assert result.exit_code == 1
    assert "not UTF-8 text" in result.stderr


# ---------------------------------------------------------------- standard input


def stdin_run(text, *args: str):
    return runner.invoke(app, ["batch", "-", *args], input=text)


def test_dash_reads_standard_input_like_the_file():
    from_file = run(GOOD, "--json", "--leader", "all", "--jobs", "1")
    from_stdin = stdin_run(GOOD.read_bytes(), "--json", "--leader", "all", "--jobs", "2")
    assert from_stdin.exit_code == 0, from_stdin.output

    def strip(out):
        return [{k: v for k, v in json.loads(line).items() if k not in ("ms", "nodes")}
                for line in out.splitlines()]

    assert strip(from_stdin.stdout) == strip(from_file.stdout)


def test_bad_lines_on_standard_input_are_named_by_line(monkeypatch, tmp_path):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = stdin_run(f"{BREAKING_DEAL}\nN:A... K...\n\nN:A... A... Q... J...\n")
    assert result.exit_code == 1 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("error: <stdin>:2: found 2 hands")
    assert lines[1].startswith("error: <stdin>:4: card(s) SA of E also appear")
    assert list(tmp_path.iterdir()) == []   # the copy of standard input is gone


@pytest.mark.parametrize("text, message", [
    ("", "<stdin>: no deals found"),
    ("# a comment\n\n", "<stdin>: no deals found"),
    (b"N:A... K... Q... \xff\n", "<stdin>:1: not UTF-8 text"),
    ("N:" + "A" * 5000 + "\n", "<stdin>:1: the line is longer than 4,096 characters"),
])
def test_standard_input_obeys_the_file_rules(text, message):
    result = stdin_run(text)
    assert result.exit_code == 1 and result.stdout == ""
    assert message in result.stderr and "Traceback" not in result.output


def test_standard_input_above_its_cap_is_refused_unsolved(monkeypatch, tmp_path):
    import tempfile

    import dummy_spades.cli.batch as batch_cli

    monkeypatch.setattr(batch_cli, "BATCH_STDIN_MAX_BYTES", 104)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = stdin_run((BREAKING_DEAL + "\n") * 5)   # 130 bytes
    assert result.exit_code == 1 and result.stdout == ""
    assert result.stderr.strip() == ("error: <stdin>: is more than the limit of 104 bytes; "
                                     "expected at most that much on standard input (a larger "
                                     "set: a deals file)")
    assert list(tmp_path.iterdir()) == []
    assert stdin_run((BREAKING_DEAL + "\n") * 4).exit_code == 0   # 104 bytes


@pytest.mark.parametrize("args, message", [
    (("--leader", "X"), "--leader 'X': expected one of N, E, S, W or all"),
    (("--leader", "NS"), "expected one of N, E, S, W or all"),
    (("--side", "NESW"), "expected between one and three of the seats"),
    (("--side", "NQ"), "unknown seat 'Q'"),
    (("--side", ""), "expected between one and three of the seats"),
])
def test_command_bad_options(args, message):
    result = run(GOOD, *args)
    assert result.exit_code == 1
    assert message in " ".join(result.stderr.split())
    assert result.stdout == ""


@pytest.mark.parametrize("args", [("--jobs", "0"), ("--jobs", "100000"), ("--tt-mb", "0"),
                                  ("--tt-mb", "-4"), ("--tt-mb", "inf"), ("--tt-mb", "nan")])
def test_command_out_of_range_options_are_usage_errors(args):
    result = run(GOOD, *args)
    assert result.exit_code == 2
    assert args[0] in result.stderr
    assert result.stdout == ""


def test_no_progress_bar_when_not_a_terminal():
    result = run(GOOD, "--json", "--jobs", "1")
    assert "solving" not in result.stderr  # the bar's label
    assert len(result.stderr.strip().splitlines()) == 1  # the summary only


def test_deal_dataclass_is_hashable():
    d = BatchDeal(hands_of(BREAKING_DEAL), 1)
    assert {d: 1}[d] == 1


def test_long_runs_summarise_from_the_histogram_within_a_tenth_of_a_percent():
    import random

    from dummy_spades.solver.batch import BatchResult, Tally
    from dummy_spades.solver.limits import SUMMARY_EXACT_SOLVES

    rng = random.Random(1)
    times = [rng.lognormvariate(0, 2) for _ in range(SUMMARY_EXACT_SOLVES + 5000)]
    tally = Tally()
    for i, ms in enumerate(times):
        tally.add(BatchResult(i // 2, i // 2, "", 0, 5, 1, ms, 1))
    s = tally.summary(1.0)
    assert (s.deals, s.solves, s.max_ms) == ((len(times) + 1) // 2, len(times), max(times))
    assert abs(s.median_ms / median(times) - 1) < 0.001
    assert abs(s.p95_ms / percentile(times, 95) - 1) < 0.001
    assert len(tally.ms) == SUMMARY_EXACT_SOLVES
