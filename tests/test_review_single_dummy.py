"""``review --single-dummy``: every card that had a choice judged also from
what its chooser could see.

* each card's single-dummy figures are ``advise``'s at the position where
  it was played (the deal cut there, the same seed): the review runs many
  advices through one executor and changes none of them;
* the verdicts follow from the single-dummy figures and the double-dummy
  loss (clearly worse: more than two standard errors and at least a
  point); the per-player sums add the cards up;
* the allotment: every card's first samples, then doubling while its
  verdict is unsettled, within the cap and the node budget; the same
  review whatever runs the solves; a time limit leaves each card its
  first layouts;
* the command: the JSON fields, Bob's opening heart ace in
  hands/bag-penalty.yaml judged by what he could see.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dummy_spades.cli.app import app
from dummy_spades.solver import advise as sd
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.cards import format_card, parse_card
from dummy_spades.solver.dealfile import load_deal
from dummy_spades.solver.review import CardJudgement, review
from dummy_spades.solver.review import single_dummy as sdr
from dummy_spades.solver.run import ProcessPool
from dummy_spades.solver.simulation import Estimate, Settings, SimulationError

ROOT = Path(__file__).resolve().parent.parent
HANDS = ROOT / "hands"
runner = CliRunner()
SOLVER = make_solver(16)


def allot(deal, cards, first=sdr.FIRST_SAMPLES, node_budget=sdr.DEFAULT_NODE_BUDGET, **settings):
    """The review's allotment under these settings (the review's default budget)."""
    return sdr.allot(deal, cards, Settings(node_budget=node_budget, **settings), first)


def bag_penalty():
    deal = load_deal(HANDS / "bag-penalty.yaml")
    return deal, review(deal, SOLVER)


def test_each_card_is_advises_judgement_at_its_position():
    deal, r = bag_penalty()
    plan = allot(deal, r.cards, samples=6, seed=4, exact_limit=300)
    assert [c.number for c in plan.cards] == [c.number for c in r.cards if c.choices > 1]
    with ProcessPool(2) as pool:
        single = sdr.single_dummy_review(plan, executor=pool)
    assert len(single.judgements) == len(plan.cards)
    for j in single.judgements[::5] + single.judgements[-2:]:
        cut = deal.with_played(deal.played[:j.card.number - 1])
        alone = sd.advise(cut, solver=SOLVER, hindsight=False,
                          settings=Settings(samples=6, seed=4, exact_limit=300))
        assert alone.question.player == j.card.player
        assert [(c.cards, c.tricks, c.score, c.diff) for c in alone.cards] == \
            [(c.cards, c.tricks, c.score, c.diff) for c in j.advice.cards]
        assert j.card.card in j.played.cards
        assert j.score_loss.value == pytest.approx(-j.played.diff.value)


def judgement(lost: int, diff: float, se: float, best: bool = False) -> sdr.SingleDummyJudgement:
    """A judgement with a played card ``diff`` points (± ``se``) from the best."""
    card = CardJudgement(1, 1, "Bob", "Bob", 0b0101, 0, 10, 10 - lost, ((1,),), 2)
    zero = Estimate(0.0, 0.0, 10)
    best_fig = sd.CardFigures((1,), zero, (), (), zero, zero, zero)
    played = best_fig if best else sd.CardFigures((0,), zero, (), (), Estimate(diff, se, 10),
                                                   Estimate(diff, se, 10), zero)
    advice = sd.Advice(question=None, players=("Alice", "Bob", "Carol"), method=sd.SAMPLED,
                       consistent=10, layouts=10, samples=10, requested=10,
                       effective_samples=10.0, seed=1, stopped_by="samples", sampling=None,
                       cards=(best_fig,) + (() if best else (played,)), queries=0, nodes=0)
    return sdr.SingleDummyJudgement(card, advice, played)


@pytest.mark.parametrize("lost,diff,se,best,verdict", [
    (1, 0.0, 0.0, True, sdr.UNLUCKY),       # the single-dummy best card lost double dummy
    (1, -3.0, 2.0, False, sdr.UNLUCKY),     # within two standard errors of the best
    (0, -10.0, 2.0, False, sdr.LUCKY),      # clearly worse, no double-dummy loss
    (1, -10.0, 2.0, False, sdr.MISTAKE),    # bad both ways
    (0, -1.0, 2.0, False, sdr.FINE),
    (0, 0.0, 0.0, True, sdr.FINE),
    (0, -1.0, 0.0, False, sdr.LUCKY),       # exact: a point is clear
    (0, -0.5, 0.0, False, sdr.FINE),        # exact, but less than a point: tiny
    (1, -0.8, 0.1, False, sdr.UNLUCKY),     # certain, but less than a point
    (0, -1.5, 0.5, False, sdr.LUCKY),       # a point and a half, three standard errors
    (0, -1.5, 0.8, False, sdr.FINE),        # less than two standard errors
])
def test_verdicts(lost, diff, se, best, verdict):
    j = judgement(lost, diff, se, best)
    assert j.verdict == verdict
    assert j.score_loss.value == -diff
    assert j.single_dummy_best == (verdict in (sdr.UNLUCKY, sdr.FINE))


def est(value: float, se: float, n: int = 200) -> Estimate:
    return Estimate(value, se, n)


@pytest.mark.parametrize("loss,gains,exact,want", [
    (est(0.5, 0.0), [], True, True),                        # exact: settled
    (est(5.0, 1.0), [est(5.0, 1.0)], False, True),          # clearly worse beyond doubt
    (est(2.5, 1.0), [est(2.5, 1.0)], False, False),         # 2.5 - 2 < 1: two SE could change it
    (est(0.0, 0.0), [est(-2.0, 0.4), est(0.1, 0.3)], False, True),   # no card a point better
    (est(0.0, 0.0), [est(-2.0, 0.4), est(0.1, 0.5)], False, False),  # 0.1 + 1.0 >= 1
    (est(0.0, 0.0, 99), [est(-5.0, 0.1, 99)], False, False),        # too few layouts yet
    (est(0.3, math.nan, 1), [est(0.3, math.nan, 1)], False, False),
])
def test_settled(loss, gains, exact, want):
    assert sdr.settled(loss, gains, exact) is want
    assert sdr.MIN_SETTLED == 100


def mid_play():
    deal = load_deal(HANDS / "mid-play.yaml")
    return deal, review(deal, SOLVER)


def test_samples_double_while_a_verdict_is_unsettled():
    """Every sampled card gets the first samples, then doubles them while its
    verdict is unsettled, up to the cap; a card that stopped below the cap
    is settled or out of budget; the same review whatever runs the solves."""
    deal, r = mid_play()
    plan = allot(deal, r.cards, samples=200, first=25, exact_limit=500)
    single = sdr.single_dummy_review(plan, solver=SOLVER)
    assert single.rounds >= 3 and not single.timed_out and not single.unjudged
    stops = set()
    for j in single.judgements:
        a = j.advice
        if a.consistent <= 500:
            assert a.method == sd.EXACT and j.settled and a.stopped_by == "layouts"
            continue
        assert a.samples in (25, 50, 100, 200)
        stops.add(a.stopped_by)
        if a.samples < 200:
            assert a.stopped_by == sdr.SETTLED and j.settled and a.samples >= sdr.MIN_SETTLED
        else:
            assert a.stopped_by == "samples"
    assert stops == {sdr.SETTLED, "samples"}
    assert single.nodes == sum(j.advice.nodes for j in single.judgements)
    assert single.unsettled == sum(1 for j in single.judgements if not j.settled) > 0
    plan = allot(deal, r.cards, samples=200, first=25, exact_limit=500)
    with ProcessPool(2) as pool:
        again = sdr.single_dummy_review(plan, executor=pool)
    assert [(j.advice.samples, j.score_loss, j.gains, j.verdict) for j in again.judgements] == \
        [(j.advice.samples, j.score_loss, j.gains, j.verdict) for j in single.judgements]


def test_the_node_budget_and_the_time_limit():
    deal, r = mid_play()
    plan = allot(deal, r.cards, samples=200, first=25, exact_limit=500, node_budget=0)
    single = sdr.single_dummy_review(plan, solver=SOLVER)
    sampled = [j for j in single.judgements if j.advice.method != sd.EXACT]
    assert single.rounds == 1 and all(j.advice.samples == 25 for j in sampled)
    assert {j.advice.stopped_by for j in sampled} == {sdr.BUDGET}
    # a budget for some more: the cheapest cards first, never more than the budget allows
    budget = single.nodes + 2 * max(j.advice.nodes for j in sampled)
    plan = allot(deal, r.cards, samples=200, first=25, exact_limit=500, node_budget=budget)
    more = sdr.single_dummy_review(plan, solver=SOLVER)
    assert sum(j.advice.samples for j in more.judgements) > \
        sum(j.advice.samples for j in single.judgements)
    # a time limit of 0: the review stops after the first layout; the others not reached
    plan = allot(deal, r.cards, samples=200, first=25, exact_limit=500, time_limit=0)
    cut = sdr.single_dummy_review(plan, solver=SOLVER)
    assert cut.timed_out and len(cut.judgements) == 1 and cut.judgements[0].advice.samples == 1
    assert len(cut.unjudged) == len(plan.cards) - 1
    with pytest.raises(SimulationError, match="seconds"):
        allot(deal, r.cards, time_limit=-1)
    with pytest.raises(SimulationError, match="node budget"):
        allot(deal, r.cards, node_budget=-1)


def test_player_sums_add_the_cards_up():
    js = [judgement(1, -10.0, 2.0), judgement(0, -4.0, 1.5), judgement(1, 0.0, 0.0, True)]
    (alice, bob, carol) = sdr.player_losses(("Alice", "Bob", "Carol"), js)
    assert alice.cards == carol.cards == 0 and bob.cards == 3
    assert bob.score_loss.value == 14.0 and bob.score_loss.se == pytest.approx(math.sqrt(4 + 2.25))
    assert bob.count(sdr.MISTAKE) == 1 and bob.count(sdr.LUCKY) == 1 and bob.count(sdr.UNLUCKY) == 1


def test_the_command_judges_bobs_heart_ace_by_what_he_could_see():
    r = runner.invoke(app, ["review", str(HANDS / "bag-penalty.yaml"), "--single-dummy",
                            "-n", "8", "--jobs", "1", "--exact-limit", "200", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    first = out["cards"][0]
    assert first["card"] == "HA" and first["player"] == "Bob" and first["lost"] == 1
    sd_first = first["single_dummy"]
    assert sd_first["verdict"] in sdr.VERDICTS and sd_first["samples"] == 8
    assert set(sd_first["score_loss"]) >= {"value", "se"} and sd_first["best"]
    assert sd_first["method"] == "sampled" and sd_first["consistent_layouts"] > 10 ** 15
    for card in out["cards"]:
        assert (card["single_dummy"] is None) == (card["choices"] == 1)
    summary = out["single_dummy"]
    assert summary["samples"] == 8 and summary["exact_limit"] == 200
    assert [p["player"] for p in summary["players"]] == ["Alice", "Bob", "Carol"]
    assert sum(p["cards"] for p in summary["players"]) == summary["cards_judged"]
    assert "strategy fusion" in summary["honesty"]
    text = runner.invoke(app, ["review", str(HANDS / "bag-penalty.yaml"), "--single-dummy",
                               "-n", "8", "--jobs", "1", "--exact-limit", "200"])
    assert text.exit_code == 0, text.output
    flat = " ".join(text.stdout.split())
    assert "Single dummy, each player's cards that had a choice" in flat
    assert "points lost" in flat and "unlucky" in flat


def test_the_command_reports_a_review_cut_short():
    """--time-limit 0: the first layout only; the JSON says which cards it
    did not reach and how many samples each judged card rests on; the
    table marks the cards not reached. --node-budget out of range: usage."""
    path = str(HANDS / "mid-play.yaml")
    r = runner.invoke(app, ["review", path, "--single-dummy", "--time-limit", "0",
                            "--jobs", "1", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    summary = out["single_dummy"]
    assert summary["timed_out"] is True and summary["time_limit"] == 0
    assert summary["node_budget"] == sdr.DEFAULT_NODE_BUDGET and summary["min_loss"] == 1.0
    judged = [c for c in out["cards"] if c["single_dummy"] is not None]
    assert len(judged) == summary["cards_judged"] == 1 and judged[0]["single_dummy"]["samples"] == 1
    assert judged[0]["single_dummy"]["stopped_by"] == "time"
    assert summary["nodes"] == judged[0]["single_dummy"]["nodes"] > 0
    with_choice = [c["number"] for c in out["cards"] if c["choices"] > 1]
    assert sorted(summary["unjudged"] + [judged[0]["number"]]) == with_choice
    text = runner.invoke(app, ["review", path, "--single-dummy", "--time-limit", "0",
                               "--jobs", "1"])
    assert text.exit_code == 0, text.output
    flat = " ".join(text.stdout.split())
    assert text.stdout.count("not reached") == len(summary["unjudged"]) + 1
    assert f"the time limit stopped the review ({len(summary['unjudged'])} cards not reached)" \
        in flat
    bad = runner.invoke(app, ["review", path, "--single-dummy", "--node-budget", "-1"])
    assert bad.exit_code == 2


def test_without_the_option_nothing_changes():
    r = runner.invoke(app, ["review", str(HANDS / "mid-play.yaml"), "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert "single_dummy" not in out and all("single_dummy" not in c for c in out["cards"])


@pytest.mark.parametrize("args", [["--samples", "10"], ["--jobs", "2"], ["--node-budget", "5"],
                                  ["--time-limit", "3"], ["--sampling", "uniform"]])
def test_single_dummy_options_without_the_option_are_usage_errors(args):
    r = runner.invoke(app, ["review", str(HANDS / "mid-play.yaml"), *args])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.strip() == (f"error: {args[0]} applies with --single-dummy only; expected "
                                f"--single-dummy, or no {args[0]}")
