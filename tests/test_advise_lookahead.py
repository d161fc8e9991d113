"""`advise --lookahead` (solver/advise/lookahead.py, docs/ADVISE.md
"Without hindsight: αμ"): the figures without hindsight over advise's own
layouts, M = 1 against the hindsight figures, the recommended card a best
one without hindsight with its gain reported, the two-way finesse through
the command, and the usage errors."""
from __future__ import annotations

import json
import random
from pathlib import Path
from typing import List, Optional

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver import advise as sd
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.limits import LOOKAHEAD_MAX
from dummy_spades.solver.seating import DECLARER_SIDE, side_of
from dummy_spades.solver.simulation import Settings

ROOT = Path(__file__).resolve().parent.parent
FINESSE = ROOT / "tests" / "data" / "two-way-finesse.yaml"
MISJUDGED = ROOT / "tests" / "data" / "lead-without-hindsight.yaml"
runner = CliRunner()


def ending(stem: str, seed: int, tricks_left: int) -> Optional[Deal]:
    """The bundled deal ``stem`` played on at random (seeded) to the first
    card the declarer's side chooses with ``tricks_left`` tricks left or
    fewer; None when the hand ends first."""
    deal = load_deal(ROOT / "hands" / f"{stem}.yaml")
    board = deal.board()
    rng = random.Random(seed)
    played: List[int] = []
    while not board.is_over:
        seat = board.to_move
        assert seat is not None
        if board.tricks_left <= tricks_left and side_of(seat) == DECLARER_SIDE:
            return deal.with_played(list(deal.played) + played)
        card = rng.choice(board.legal_moves())
        board.push(card)
        played.append(card)
    return None


def endings(count: int, tricks_left: int) -> List[Deal]:
    out = []
    for seed in range(count):
        for stem in ("worked-example", "spade-breaking", "nil-bets"):
            deal = ending(stem, seed, tricks_left)
            if deal is not None:
                out.append(deal)
    return out


def test_lookahead_one_is_the_hindsight_chance_of_the_contract() -> None:
    for deal in endings(4, 4):
        a = sd.advise(deal, settings=Settings(sampling="uniform"), lookahead=1)
        la = a.lookahead
        assert la is not None and la.completed == 1 and la.lookahead == 1
        contract = [g.kind for g in a.question.goals].index("contract")
        for c in a.cards:
            assert la.fusion_free_of(c.cards) == la.hindsight_of(c.cards)
            if not a.question.nils:      # a nil that counts changes how the contract scores
                assert la.hindsight_of(c.cards).value == pytest.approx(c.makes[contract].value)


def test_the_pick_is_a_best_card_without_hindsight() -> None:
    """Seeded endings, every goal the side can still reach or miss."""
    differs = moved = 0
    for deal in endings(12, 3):
        won = deal.board().side_won(DECLARER_SIDE)
        for goal in range(won + 1, won + 4):
            a = sd.advise(deal, settings=Settings(sampling="uniform"), lookahead=LOOKAHEAD_MAX,
                          goal=goal)
            la = a.lookahead
            assert la is not None and la.exact and la.completed == la.covering
            values = {c.cards: la.fusion_free_of(c.cards).value for c in a.cards}
            assert values[a.recommended.cards] == max(values.values())
            for c in a.cards:
                assert la.fusion_free_of(c.cards).value <= la.hindsight_of(c.cards).value
                assert la.fusion_free_of(c.cards).se == 0
            differs += any(la.fusion_free_of(c.cards) != la.hindsight_of(c.cards)
                           for c in a.cards)
            moved += a.recommended is not a.hindsight_pick
    print(differs, moved)
    assert differs >= 1


def test_monotone_in_the_lookahead() -> None:
    for deal in endings(3, 4)[:6]:
        rows = []
        for m in range(1, 6):
            la = sd.advise(deal, settings=Settings(sampling="uniform"), lookahead=m).lookahead
            assert la is not None
            rows.append([f.value for f in la.fusion_free])
        for before, after in zip(rows, rows[1:]):
            assert all(b <= a + 1e-12 for a, b in zip(before, after))


# ------------------------------------------------------------ the command
def run(*args: object) -> object:
    return runner.invoke(app, ["advise", *map(str, args)])


def test_two_way_finesse_through_the_command() -> None:
    r = run(FINESSE, "--sampling", "uniform", "--lookahead", 6, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    search = data["search"]
    assert (search["method"], search["lookahead"], search["goal"]) == ("alphamu", 6, 12)
    assert search["exact"] and search["completed"] == 6 and search["stopped_by"] is None
    assert data["method"] == "exact" and data["consistent_layouts"] == 20
    by_card = {tuple(c["cards"]): c for c in data["cards"]}
    low = by_card[("H3",)]
    assert low["hindsight"]["value"] == 1.0 and low["makes"]["Alice"]["value"] == 1.0
    for c in data["cards"]:
        assert c["fusion_free"] == {"value": 0.5, "se": 0.0, "n": 20}
    assert "defenders to see every card" in data["honesty"]


def test_the_gain_over_the_hindsight_pick_is_reported() -> None:
    r = run(MISJUDGED, "--sampling", "uniform", "--lookahead", 6, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    by_card = {tuple(c["cards"]): c for c in data["cards"]}
    assert data["search"]["hindsight_pick"] == ["H9"] and data["recommended"] == ["D4"]
    assert by_card[("H9",)]["hindsight"]["value"] == 0.55
    assert by_card[("H9",)]["fusion_free"]["value"] == 0.45
    assert by_card[("D4",)]["fusion_free"]["value"] == 0.5 and by_card[("D4",)]["recommended"]
    assert data["search"]["gain"] == pytest.approx(0.05)
    text = run(MISJUDGED, "--sampling", "uniform", "--lookahead", 6)
    assert text.exit_code == 0, text.output
    words = " ".join(text.stdout.split())
    assert "The hindsight pick ♥9 makes 45% without hindsight; ♦4 makes 5 percentage points " \
        "more" in words and "Recommended: ♦4" in words
    # M = 1 is the hindsight figure: the pick stays ♥9
    one = json.loads(run(MISJUDGED, "--sampling", "uniform", "--lookahead", 1, "--json").stdout)
    assert one["recommended"] == ["H9"] and one["search"]["gain"] == 0


def test_usage_errors() -> None:
    worked = ROOT / "hands" / "worked-example.yaml"      # a defender's opening lead
    r = run(worked, "--lookahead", 2)
    assert r.exit_code == 2 and "--lookahead" in r.stderr and "defender" in r.stderr
    for args in (("--lookahead", 0), ("--lookahead", LOOKAHEAD_MAX + 1),
                 ("--lookahead", 2, "--goal", 14), ("--lookahead", 2, "--goal", -1)):
        r = run(FINESSE, *args)
        assert r.exit_code == 2, r.output
        assert str(args[-2]) in r.output
    r = run(FINESSE, "--goal", 3)
    assert r.exit_code == 2 and "--goal applies with --lookahead only" in " ".join(r.stderr.split())


# ------------------------------------------------------------ stopping, workers
def test_a_node_budget_keeps_the_last_lookahead_completed() -> None:
    deal = load_deal(ROOT / "hands" / "mid-play.yaml")
    a = sd.advise(deal, settings=Settings(node_budget=400_000), lookahead=8)
    la = a.lookahead
    assert la is not None and la.stopped_by == "nodes" and 1 <= la.completed < 8
    again = sd.advise(deal, lookahead=la.completed).lookahead
    assert again is not None and again.stopped_by is None
    assert la.fusion_free == again.fusion_free


def test_a_time_limit_says_which_lookahead_completed() -> None:
    mid = ROOT / "hands" / "mid-play.yaml"
    r = run(mid, "--lookahead", 10, "--time-limit", 3, "--jobs", 1, "--json")
    assert r.exit_code == 0, r.output
    search = json.loads(r.stdout)["search"]
    assert search["stopped_by"] == "time" and 1 <= search["completed"] < 10
    text = run(mid, "--lookahead", 10, "--time-limit", 3, "--jobs", 1)
    assert "The search stopped (time limit reached) with M =" in " ".join(text.stdout.split())


def test_the_same_figures_on_worker_processes() -> None:
    one = json.loads(run(MISJUDGED, "--lookahead", 6, "--jobs", 1, "--json").stdout)
    two = json.loads(run(MISJUDGED, "--lookahead", 6, "--jobs", 2, "--json").stdout)
    assert [c["fusion_free"] for c in one["cards"]] == [c["fusion_free"] for c in two["cards"]]
    assert one["recommended"] == two["recommended"]


def test_the_lookahead_runs_by_itself_late_in_the_hand() -> None:
    data = json.loads(run(FINESSE, "--sampling", "uniform", "--json").stdout)
    assert data["search"]["method"] == "alphamu" and data["search"]["exact"]
    assert data["search"]["lookahead"] == 6
    one = json.loads(run(FINESSE, "--sampling", "uniform", "--lookahead", 1, "--json").stdout)
    assert [c["fusion_free"] for c in one["cards"]] == [c["hindsight"] for c in one["cards"]]
    mid = json.loads(run(ROOT / "hands" / "mid-play.yaml", "--json").stdout)
    assert mid["search"] == {"method": "pimc"} and "fusion_free" not in mid["cards"][0]


# ------------------------------------------------------------ review --single-dummy
@pytest.mark.parametrize("card, verdict, played", [("♦4", "unlucky", 0.5), ("♥9", "lucky", 0.45),
                                                   ("♦J", "mistake", 0.45)])
def test_review_judges_an_ending_without_hindsight(tmp_path: Path, card: str, verdict: str,
                                                   played: float) -> None:
    """The declarer's lead to trick 11 of the misjudged ending, judged
    against the best chance without hindsight (♦4, 50%): ♥9 is the best
    double dummy but not without hindsight, and it makes on the real layout."""
    text = MISJUDGED.read_text(encoding="utf-8").replace(
        "  - ♠Q ♠9 ♠10 ♠J", f"  - ♠Q ♠9 ♠10 ♠J\n  - {card}")
    path = tmp_path / "ending.yaml"
    path.write_text(text, encoding="utf-8")
    args = ["review", str(path), "--single-dummy", "--sampling", "uniform", "--node-budget", "1"]
    r = runner.invoke(app, [*args, "--json"])
    assert r.exit_code == 0, r.output
    last = json.loads(r.stdout)["cards"][-1]["single_dummy"]
    assert last["verdict"] == verdict and last["best"] == ["D4"]
    assert last["without_hindsight"]["played"]["value"] == played
    assert last["without_hindsight"]["best"]["value"] == 0.5
    if verdict == "unlucky":
        words = " ".join(runner.invoke(app, args).stdout.split())
        assert "without hindsight" in words and "in an ending" in words
