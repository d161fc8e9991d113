"""``dummy-spades advise`` through typer's CliRunner: every bundled deal
with and without ``--json``, the JSON fields of docs/ADVISE.md, the
options, and every kind of bad input (one message, exit 1; options out of
range, exit 2)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver import advise as sd
from dummy_spades.solver.cards import format_card
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.simulation import EXACT_LIMIT_MAX

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"
runner = CliRunner()

#: bundled deals advise cannot answer, and why
NOT_ADVISABLE = {"bag-penalty": "the hand is over", "earlier-bid-high": "auction is not complete",
                 "earlier-bid-low": "auction is not complete",
                 "freak-distribution": "auction is not complete",
                 "nil-candidate": "auction is not complete"}
STEMS = sorted(p.stem for p in HANDS.glob("*.yaml"))


def run(*args):
    return runner.invoke(app, ["advise", *map(str, args)])


def run_json(*args):
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def one_error(result, code: int = 1) -> str:
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert lines and (lines[0].startswith("error:") or code == 2)
    return " ".join(result.stderr.split())


@pytest.mark.parametrize("stem", STEMS)
def test_every_bundled_deal(stem):
    path = HANDS / f"{stem}.yaml"
    text = run(path, "--samples", 2, "--jobs", 1, "--seed", 2)
    data = run(path, "--samples", 2, "--jobs", 1, "--seed", 2, "--json")
    if stem in NOT_ADVISABLE:
        for r in (text, data):
            message = one_error(r)
            assert NOT_ADVISABLE[stem] in message and f"{stem}.yaml" in message
        return
    assert text.exit_code == 0, text.output
    assert "Single-dummy advice for" in text.stdout and "Recommended:" in text.stdout
    assert "No such data exists for Spades" in " ".join(text.stdout.split())
    assert data.exit_code == 0, data.output
    out = json.loads(data.stdout)
    deal = load_deal(path)
    assert out["player"] in deal.players and out["method"] in ("exact", "sampled")
    listed = [c for group in out["cards"] for c in group["cards"]]
    legal = deal.board().legal_moves()
    assert sorted(listed) == sorted(format_card(c) for c in legal)   # each legal card once
    assert out["recommended"] == out["cards"][0]["cards"]
    for group in out["cards"]:
        assert isinstance(group["double_dummy"], int)   # deal files hold every hand


def test_json_fields_sampled():
    out = run_json(HANDS / "worked-example.yaml", "-n", 6, "--jobs", 1, "--seed", 3)
    assert out["method"] == "sampled" and out["samples"] == 6 and out["samples_requested"] == 6
    assert out["layouts"] <= 6 and out["consistent_layouts"] == 84478098072866400
    assert out["player"] == "Alice" and out["to_move"] == "Alice" and out["seed"] == 3
    assert out["position"]["opening_lead"] is True and out["known"]["dummy_complete"] is False
    assert out["effective_samples"] == 6.0 and out["sampling"]["method"] == "conditioned"
    assert [g["key"] for g in out["goals"]] == ["Carol", "Alice", "Bob"]
    for group in out["cards"]:
        assert set(group) >= {"cards", "tricks", "makes", "scores", "diff_to_best",
                              "double_dummy"}
        assert set(group["tricks"]) >= {"value", "se"}
        assert set(group["makes"]) == {"Carol", "Alice", "Bob"}
        assert set(group["scores"]) == {"Alice", "Bob", "Carol"}
        assert set(group["diff_to_best"]) >= {"value", "se"}
    assert out["cards"][0]["diff_to_best"]["value"] == 0
    assert "strategy fusion" in out["honesty"]


def test_json_fields_exact():
    out = run_json(HANDS / "mid-play.yaml", "--jobs", 1)
    assert out["method"] == "exact" and out["layouts"] == out["consistent_layouts"] == 924
    assert out["samples"] == 924 and out["stopped_by"] == "layouts"
    assert out["player"] == "Carol" and out["to_move"] == "dummy"
    assert out["known"]["voids"] == {"Alice": ["D"]}
    assert all(g["tricks"]["se"] == 0 for g in out["cards"])
    assert out["close"] == [["C8", "C7"]]


def test_exact_limit_zero_samples_instead():
    out = run_json(HANDS / "mid-play.yaml", "--jobs", 1, "--exact-limit", 0, "-n", 5)
    assert out["method"] == "sampled" and out["samples"] == 5


@pytest.mark.parametrize("args,message", [
    (("--player", "Alice"), "Alice is not to play: Carol chooses the dummy's card"),
    (("--player", "Zed"), "unknown player 'Zed'"),
])
def test_bad_player(args, message):
    assert message in one_error(run(HANDS / "mid-play.yaml", *args))


@pytest.mark.parametrize("args", [("--exact-limit", -1), ("--exact-limit", EXACT_LIMIT_MAX + 1),
                                  ("--samples", 0), ("--precision", 0), ("--precision", "nan"),
                                  ("--sampling", "magic"), ("--jobs", 2, "--cluster", "local")])
def test_options_out_of_range_are_usage_errors(args):
    r = run(HANDS / "mid-play.yaml", *args)
    assert r.exit_code == 2, r.output
    assert "Traceback" not in r.output


def test_player_to_play_and_no_breaking():
    out = run_json(HANDS / "spade-breaking.yaml", "--player", "Carol", "--no-spade-breaking",
                   "--jobs", 1)
    assert out["spade_breaking"] is False and out["method"] == "exact"
    on = run_json(HANDS / "spade-breaking.yaml", "--jobs", 1)
    assert on["spade_breaking"] is True
    assert [g["cards"] for g in on["cards"]] != [g["cards"] for g in out["cards"]]


def test_precision_and_time_limit():
    out = run_json(HANDS / "worked-example.yaml", "-n", 300, "--precision", 1000, "--jobs", 1)
    assert out["samples"] == 20 and out["stopped_by"] == "precision"
    assert out["precision"]["target"] == 1000
    out = run_json(HANDS / "worked-example.yaml", "-n", 300, "--time-limit", 0, "--jobs", 1)
    assert out["samples"] == 1 and out["stopped_by"] == "time" and out["stopped_early"]


def test_uniform_sampling_option():
    out = run_json(HANDS / "worked-example.yaml", "-n", 3, "--sampling", "uniform", "--jobs", 1)
    assert out["sampling"]["method"] == "uniform" and out["sampling"]["conditioned"] is False


def test_the_text_report():
    r = run(HANDS / "mid-play.yaml", "--jobs", 1)
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    assert "Exact: every one of the 924 consistent layouts" in out
    assert "Voids shown: Alice ♦" in out and "Exactly as good: ♣8 ♣7" in out
    assert "hindsight" in out and "strategy fusion" in out


def test_the_cost_bench_runs(capsys):
    """benches/advise_cost.py (docs/BENCHMARKS.md "Single-dummy advice"), tiny."""
    import importlib.util
    path = ROOT / "benches" / "advise_cost.py"
    spec = importlib.util.spec_from_file_location("advise_cost", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.main(["sample", "--layouts", "2", "hands/worked-example.yaml"])
    bench.main(["exact", "hands/mid-play.yaml"])
    out = capsys.readouterr().out
    assert "| worked-example.yaml | Alice | 0 |" in out
    assert "| mid-play.yaml | 25 | 6+7 | 924 |" in out
