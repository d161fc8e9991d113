"""The bid simulation's measuring scripts: benches/calibrate_bid.py (the
calibration of bid's chances on random deals) and benches/conditioning_cost.py.

The calibration's earlier bids must come from the same bidding model the
conditioned sampling weights by, its scores must be the Brier score and a
reliability table, and one deal must run end to end through the simulation.
"""
from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest

from dummy_spades.solver.simulation import model
from dummy_spades.solver.cards import parse_hand

ROOT = Path(__file__).resolve().parent.parent

try:
    import dummy_spades.solver.engine  # noqa: F401
    HAVE_ENGINE = True
except ImportError:  # pragma: no cover - depends on the build
    HAVE_ENGINE = False


def load_script(name):
    if str(ROOT / "benches") not in sys.path:
        sys.path.append(str(ROOT / "benches"))       # the scripts import benches/_util
    spec = importlib.util.spec_from_file_location(name, ROOT / "benches" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


calibrate = load_script("calibrate_bid")
conditioning_cost = load_script("conditioning_cost")


def test_earlier_bids_follow_the_bidding_model():
    """The calls the script makes for a bidder are distributed as
    model.bid_chances says (the distribution the sampling conditions on)."""
    hand = parse_hand("K4.AQ82.KJ6.T963")
    view = model.View(hand, 0, 1, (5,))
    want = model.bid_chances(view)
    rng = random.Random(3)
    n = 20000
    counts = [0] * 14
    nils = 0
    for _ in range(n):
        bid = calibrate.model_call(rng, "B", hand, 1, (5,))
        counts[bid.tricks] += 1
        nils += bool(bid.nils)
    for got, p in zip(counts, want):
        assert abs(got / n - p) < 4 * (p * (1 - p) / n) ** 0.5 + 1e-3
    assert abs(nils / n - model.nil_chance(hand)) < 0.01


def test_brier_and_reliability_table():
    assert calibrate.brier([1.0, 0.0, 0.5], [True, False, True]) == pytest.approx(0.25 / 3)
    m, se = calibrate.mean_se([0.1, 0.3])
    assert m == pytest.approx(0.2) and se == pytest.approx(0.1)
    chances = [0.05, 0.15, 0.95] + [1.0] * 11
    outcomes = [False, True, True] + [True] * 11
    deal = {"methods": {"uniform": {"chances": chances, "n_eff": 4.0, "drawn": 4,
                                    "evaluations": 0, "model_seconds": 0.0}},
            "outcomes": outcomes}
    text = calibrate.report([{"B": deal, "C": deal}], 4)
    assert "| uniform | 0.0520 ± nan | — | 4.0 | 1.0 | 0 | 0.0 |" in text
    assert "| 0.1-0.2 | 1, 0.150, 1.000 ± 0.000 |" in text
    assert "| 0.9-1.0 | 12, 0.996, 1.000 ± 0.000 |" in text


@pytest.mark.skipif(not HAVE_ENGINE, reason="the compiled engine is not built")
def test_one_deal_end_to_end(tmp_path, capsys):
    d = calibrate.calibrate_deal((1, 0, 4))
    assert d["index"] == 0 and len(d["bids"]) == 2
    for player, methods in (("B", {"uniform", "uniform+model", "conditioned",
                                   "conditioned+controls"}),
                            ("C", {"uniform", "conditioned", "conditioned+controls"})):
        assert set(d[player]["methods"]) == methods
        assert d[player]["outcomes"][0] is True                # a side takes at least 0
        for row in d[player]["methods"].values():
            assert len(row["chances"]) == 14 and all(0 <= p <= 1 for p in row["chances"])
            assert row["chances"][0] == 1.0
    saved = tmp_path / "deals.jsonl"
    saved.write_text(json.dumps(d) + "\n")
    assert calibrate.main(["--deals", "1", "--samples", "4", "--jobs", "1",
                           "--save", str(saved)]) == 0           # taken from the file
    out = capsys.readouterr().out
    assert "second bidder (B), 1 deals" in out and "| conditioned |" in out
    assert "| conditioned+controls |" in out and "minus conditioned (paired)" in out


def test_conditioning_cost_runs_every_case(capsys):
    assert conditioning_cost.main(["--samples", "5"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| ")]
    assert len(rows) == 1 + len(conditioning_cost.CASES)
    for row in rows[1:]:
        cells = row.strip("|").split("|")
        drawn, n_eff = float(cells[1]), float(cells[2])
        assert drawn >= 1.0 and 0 < n_eff <= 5
