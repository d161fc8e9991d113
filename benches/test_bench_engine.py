"""Engine benchmarks (pytest-benchmark): one round = the whole deal set.

* full deals, cold table per deal, one max_tricks (leader W, side NS),
  breaking rule off and on;
* endings by cards left (4, 6, 8, 10 cards per hand), cold table;
* all-cards analysis (card_values) at the opening lead of full deals.

Timings are per round (all ``--bench-deals`` deals); divide by the deal count
for the time per deal.
"""
from __future__ import annotations

import pytest

from _util import NS, side_of

W = 3


def _solve_all(fresh_solver, deals, breaking, leader=W, side=NS):
    total = 0
    for hands in deals:
        total += fresh_solver().max_tricks(hands, leader, side, breaking=breaking)
    return total


@pytest.mark.parametrize("breaking", [False, True], ids=["breaking-off", "breaking-on"])
def test_full_deals_cold(benchmark, fresh_solver, deal_source, breaking):
    deals = deal_source(13)
    benchmark.group = "full deals, cold table"
    benchmark.extra_info["deals"] = len(deals)
    benchmark.pedantic(_solve_all, args=(fresh_solver, deals, breaking), rounds=3, iterations=1,
                       warmup_rounds=0)


@pytest.mark.parametrize("cards", [4, 6, 8, 10])
@pytest.mark.parametrize("breaking", [False, True], ids=["breaking-off", "breaking-on"])
def test_endings_by_cards_left(benchmark, fresh_solver, deal_source, cards, breaking):
    deals = deal_source(cards)
    benchmark.group = f"endings, {cards} cards left"
    benchmark.extra_info["deals"] = len(deals)
    benchmark.pedantic(_solve_all, args=(fresh_solver, deals, breaking), rounds=5, iterations=1,
                       warmup_rounds=1)


def _all_cards(fresh_solver, deals, breaking, leader=W):
    n = 0
    for hands in deals:
        n += len(fresh_solver().card_values(hands, leader, side_of(leader), breaking=breaking))
    return n


@pytest.mark.parametrize("breaking", [False, True], ids=["breaking-off", "breaking-on"])
def test_all_cards_at_opening_lead(benchmark, fresh_solver, deal_source, breaking):
    deals = deal_source(13)
    benchmark.group = "all-cards analysis, opening lead"
    benchmark.extra_info["deals"] = len(deals)
    benchmark.pedantic(_all_cards, args=(fresh_solver, deals, breaking), rounds=3, iterations=1,
                       warmup_rounds=0)
