"""The bid command (cli/bid.py and its report, cli/bid_report.py) through typer's CliRunner.

The engine is replaced by the fake solver of tests/test_bid.py (a cheap
deterministic function of the hands), so these tests check the command's
options, output and errors, not double-dummy values.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver.bid import simulate
from dummy_spades.solver.limits import LAYOUT_TT_MB

from test_bid import FakeSolver

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()

DEAL = """\
players: [Alice, Bob, Carol]
dealer: Carol
hands:
  Alice: AKQJ.A32.A32.A32
  Bob: T98.KQJ.KQJ.KQJ4
  Carol: 765.T987.T987.T9
  dummy: 432.654.654.8765
"""
AUCTION = """\
auction:
  - {player: Alice, bid: 8}
  - {player: Bob, bid: 4}
  - {player: Carol, bid: 0, nil: [self]}
"""


@pytest.fixture(autouse=True)
def fake_engine(monkeypatch):
    monkeypatch.setattr(simulate, "make_solver", lambda tt_mb=LAYOUT_TT_MB: FakeSolver())


@pytest.fixture
def deal_file(tmp_path):
    def write(text: str = DEAL, name: str = "deal.yaml") -> Path:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        return path
    return write


def run(*args):
    return runner.invoke(app, ["bid", *map(str, args)])


def run_json(*args):
    r = run(*args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def test_report_of_the_next_bidder(deal_file):
    r = run(deal_file(), "--samples", 20, "--jobs", 1)
    assert r.exit_code == 0, r.output
    out = r.stdout
    assert "Bid analysis for Alice" in out and "1st to bid (dealer Carol)" in out
    assert "Your side's tricks by role" in out and "n=20" in out
    assert "you declare" in out and "Bob declares" in out and "Carol declares" in out
    assert "Nil safety" in out and "Recommended bid:" in out
    assert "perfect information" in out and "No such data exists for Spades" in out
    assert "±" in out


def test_json_fields(deal_file):
    data = run_json(deal_file(), "--samples", 15, "--jobs", 1, "--seed", 4)
    assert data["player"] == "Alice" and data["samples"] == 15 and data["seed"] == 4
    assert data["bidding_order"] == ["Alice", "Bob", "Carol"] and data["position"] == 1
    assert data["hand"][:4] == ["SA", "SK", "SQ", "SJ"] and data["dummy_known"] == []
    assert data["variant"] == "no-peeky" and data["spade_breaking"] is True
    assert "perfect information" in data["honesty"]
    assert [r["declarer"] for r in data["roles"]] == ["Alice", "Bob", "Carol"]
    role = data["roles"][0]
    assert role["role"] == "declarer" and role["partner"] == "dummy"
    assert sum(role["histogram"]) == 15 and len(role["make"]) == 14
    assert set(role["make"][3]) - {"interval"} == {"value", "se", "n", "n_eff"}
    assert role["make"][3]["n"] == 15
    assert role["make"][3]["n_eff"] == 15.0                # a first bidder: nothing to weight
    assert [n["hand"] for n in role["nils"]] == ["self", "dummy"]
    assert [b["bid"] for b in data["bids"]] == list(range(14))
    best = data["recommended"]
    assert best == data["candidates"][0]
    assert best["expected_score"]["value"] == max(c["expected_score"]["value"]
                                                  for c in data["candidates"])
    assert set(best["expected_score_by_declarer"]) == {"Alice", "Bob", "Carol"}
    assert data["judged"] is None


def test_judge_one_bid_with_nils(deal_file):
    r = run(deal_file(), "--samples", 12, "--jobs", 1, "--bid", 3, "--nil", "self")
    assert r.exit_code == 0, r.output
    assert "Your bid 3 nil self" in r.stdout and "Best alternative:" in r.stdout
    data = run_json(deal_file(), "--samples", 12, "--jobs", 1, "--bid", 0, "--nil", "self,dummy")
    j = data["judged"]
    assert j["bid"]["call"] == "0 nil self dummy" and j["bid"]["nil"] == ["self", "dummy"]
    assert j["rank"] >= 1 and j["best_alternative"]["call"] != j["bid"]["call"]
    diff = j["bid"]["expected_score"]["value"] - j["best_alternative"]["expected_score"]["value"]
    assert j["difference"]["value"] == pytest.approx(diff, abs=1e-3)


def test_player_who_has_bid_is_judged_on_the_earlier_bids(deal_file):
    data = run_json(deal_file(DEAL + AUCTION), "--player", "Carol", "--samples", 10, "--jobs", 1)
    assert data["player"] == "Carol"
    assert [b["call"] for b in data["bids_before"]] == ["8", "4"]
    assert data["later_bidders"] == []
    assert data["judged"]["bid"]["call"] == "0 nil self"


def test_same_output_for_one_and_two_jobs(deal_file):
    path = deal_file()
    one = run_json(path, "--samples", 16, "--jobs", 1)
    two = run_json(path, "--samples", 16, "--jobs", 2)
    for data in (one, two):
        del data["sampling"]["model_seconds"]              # a timing field
    assert one == two


def test_variant_knowledge_reaches_the_report(deal_file):
    text = DEAL + "variant:\n  name: three-peeky\n  seen:\n    Alice: [S4, H6, C8]\n"
    data = run_json(deal_file(text), "--samples", 5, "--jobs", 1)
    assert data["variant"] == "three-peeky" and data["dummy_known"] == ["S4", "H6", "C8"]


def test_all_players_beside_the_actual_result(deal_file):
    data = run_json(deal_file(DEAL + AUCTION), "--all", "--samples", 6, "--jobs", 1)
    assert [p["player"] for p in data["players"]] == ["Alice", "Bob", "Carol"]
    assert [p["bid"] for p in data["players"]] == ["8", "4", "0 nil self"]
    for p in data["players"]:
        assert p["actual"]["declarer"] == "Alice" and p["actual"]["outcome"] is not None
        assert p["analysis"]["judged"]["bid"]["call"] == p["bid"]
    r = run(deal_file(DEAL + AUCTION), "--all", "--samples", 6, "--jobs", 1)
    assert r.exit_code == 0, r.output
    assert "Bid check for every player" in r.stdout and "Alice" in r.stdout


def test_no_spade_breaking_flag(deal_file):
    data = run_json(deal_file(), "--samples", 3, "--jobs", 1, "--no-spade-breaking")
    assert data["spade_breaking"] is False


def test_help_states_the_double_dummy_bias():
    r = runner.invoke(app, ["bid", "--help"])
    assert r.exit_code == 0
    text = " ".join(r.stdout.split())
    assert "perfect information" in text and "No such data exists for Spades" in text
    assert "standard error" in text


@pytest.mark.parametrize("args,message", [
    (["--player", "Zed"], "unknown player 'Zed'"),
    (["--nil", "self"], "--nil needs --bid"),
    (["--bid", "3", "--nil", "Zed"], "nil on unknown hand 'Zed'"),
    (["--all", "--player", "Bob"], "cannot be combined"),
    (["--player", "Carol"], "has not bid yet"),
])
def test_bad_options(deal_file, args, message):
    r = run(deal_file(), *args)
    assert r.exit_code == 1, r.output
    assert message in " ".join(r.output.split())
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args", [["--samples", "0"], ["--jobs", "0"], ["--bid", "14"],
                                  ["--time-limit", "-3"], ["--time-limit", "inf"],
                                  ["--time-limit", "nan"], ["--seed", "-1"], ["--tt-mb", "0"]])
def test_out_of_range_options_are_usage_errors(deal_file, args):
    r = run(deal_file(), *args)
    assert r.exit_code == 2, r.output
    assert args[0] in r.output and "Traceback" not in r.output


def test_bad_files(deal_file, tmp_path):
    bad_peek = DEAL + "variant:\n  name: three-peeky\n  seen:\n    Alice: [S4, H6, HA]\n"
    r = run(deal_file(bad_peek), "--samples", 2)
    assert r.exit_code == 1 and "not in the dummy" in " ".join(r.output.split())
    r = run(tmp_path / "missing.yaml")
    assert r.exit_code == 1 and "cannot read" in r.output
    r = run(deal_file(DEAL + AUCTION), "--samples", 2)
    assert r.exit_code == 1 and "auction is complete" in " ".join(r.output.split())


def test_all_players_with_an_incomplete_auction(deal_file):
    text = DEAL + "auction:\n  - {player: Alice, bid: 5}\n"
    data = run_json(deal_file(text), "--all", "--samples", 4, "--jobs", 1)
    assert [p["player"] for p in data["players"]] == ["Alice", "Bob"]
    assert [p["bid"] for p in data["players"]] == ["5", None]
    assert all(p["actual"]["outcome"] is None for p in data["players"])
    r = run(deal_file(text), "--all", "--samples", 4, "--jobs", 1)
    assert r.exit_code == 0 and "auction is incomplete" in " ".join(r.stdout.split())


def test_time_limit_reports_the_samples_solved(deal_file):
    data = run_json(deal_file(), "--samples", 40, "--jobs", 1, "--time-limit", "0.000001")
    assert data["samples"] == 1 and data["samples_requested"] == 40 and data["stopped_early"] is True
    assert sum(data["roles"][0]["histogram"]) == 1
    r = run(deal_file(), "--samples", 40, "--jobs", 2, "--time-limit", "0.000001")
    assert r.exit_code == 0, r.output
    assert "1 sample, n_eff 1.0 (time limit reached; 40 asked for)" in " ".join(r.stdout.split())
    full = run_json(deal_file(), "--samples", 5, "--jobs", 1)
    assert full["samples"] == full["samples_requested"] == 5 and full["stopped_early"] is False


# ------------------------------------------------------------------ sampling
GOLDEN = ROOT / "tests" / "golden" / "bid"


def golden(name):
    return json.loads((GOLDEN / name).read_text(encoding="utf-8"))


def test_uniform_sampling_answers_as_before(deal_file):
    """--sampling uniform --no-control-variates: every field as the
    double-dummy later-bid model gave it (a snapshot), plus the sampling
    block."""
    data = run_json(deal_file(DEAL + AUCTION), "--player", "Bob", "--samples", 30, "--jobs", 1,
                    "--seed", 3, "--sampling", "uniform", "--no-control-variates")
    sampling = data.pop("sampling")
    assert sampling == {"method": "uniform", "drawn": 30, "accepted": 30,
                        "effective_samples": 30.0, "stopped_by": "samples", "control_draws": 0}
    assert data == golden("uniform-second-bidder-fake-30.json")


def test_conditioned_json(deal_file):
    data = run_json(deal_file(DEAL + AUCTION), "--player", "Carol", "--samples", 20, "--jobs", 1)
    s = data["sampling"]
    assert s["method"] == "conditioned" and s["accepted"] == 20 and s["drawn"] >= 20
    assert s["stopped_by"] == "samples" and 0 < s["effective_samples"] <= 20
    assert s["model_evaluations"] > 0 and s["acceptance_rate"] == round(20 / s["drawn"], 4)
    assert [w["player"] for w in s["hand_worth"]] == ["Alice", "Bob"]
    worth = {w["player"]: w for w in s["hand_worth"]}
    assert worth["Alice"]["sampled"] > worth["Alice"]["uniform"]       # Alice bid 8
    assert s["unconditioned_bids"] == []
    assert "bidding model" in data["honesty"] and "perfect information" in data["honesty"]
    assert "bidding model" in data["later_bid_model"]
    role = data["roles"][0]
    assert sum(role["histogram"]) == pytest.approx(20, abs=0.01)
    assert set(role["make"][5]) == {"value", "se", "n", "n_eff"} and role["make"][5]["n"] == 20
    assert data["recommended"]["expected_score"]["n_eff"] == round(s["effective_samples"], 1)


def test_conditioned_report_shows_n_eff_and_the_hands(deal_file):
    r = run(deal_file(DEAL + AUCTION), "--player", "Carol", "--samples", 20, "--jobs", 1)
    assert r.exit_code == 0, r.output
    out = " ".join(r.stdout.split())
    assert "Sampling: conditioned on the earlier bids" in out and "model evaluations" in out
    assert "n=20, n_eff=" in out and "Alice" in out and "(uniform " in out
    assert "bidding model" in out
    r = run(deal_file(DEAL + AUCTION), "--player", "Carol", "--samples", 20, "--jobs", 1,
            "--sampling", "uniform")
    assert "Sampling: uniform" in " ".join(r.stdout.split()) and "n_eff" not in r.stdout


def test_precision_stops_the_run_and_says_so(deal_file):
    data = run_json(deal_file(), "--samples", 400, "--jobs", 1, "--precision", 15)
    assert data["sampling"]["stopped_by"] == "precision" and data["stopped_early"] is True
    assert data["samples"] < 400 and data["samples_requested"] == 400
    r = run(deal_file(), "--samples", 400, "--jobs", 1, "--precision", 15)
    assert r.exit_code == 0 and "precision reached; 400 asked for" in " ".join(r.stdout.split())
    data = run_json(deal_file(), "--samples", 40, "--jobs", 1, "--time-limit", "0.000001",
                    "--precision", 1)
    assert data["sampling"]["stopped_by"] == "time" and data["samples"] == 1


@pytest.mark.parametrize("args", [["--precision", "0"], ["--precision", "-2"],
                                  ["--precision", "inf"], ["--precision", "nan"],
                                  ["--sampling", "rejection"]])
def test_bad_sampling_options_are_usage_errors(deal_file, args):
    r = run(deal_file(), *args)
    assert r.exit_code == 2, r.output
    assert args[0] in r.output and "Traceback" not in r.output
