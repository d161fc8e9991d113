"""Engine benchmarks (pytest-benchmark). One round = one deal, solved with a
cold table (the table is cleared in the round's setup, outside the timing),
so min / median / max are over deals.

* full deals: one ``max_tricks`` (leader W, side NS), breaking rule off / on;
* endings by cards left (4, 6, 8, 10 cards per hand), the same query;
* all-cards analysis: ``card_values`` at the opening lead of full deals.

``--bench-deals N`` sets the deals per suite (default 10), ``--bench-seed``
their seed; endings are repeated 3 times over their deals.
"""
from __future__ import annotations

import itertools

import pytest

from _util import NS

from dummy_spades.solver.position import Position

W = 3
BREAKING = pytest.mark.parametrize("breaking", [False, True], ids=["breaking-off", "breaking-on"])


def per_deal(benchmark, solver, deals, call, repeat=1):
    """Benchmark ``call(hands)`` once per deal, each on a cold table."""
    cycle = itertools.cycle(deals)

    def setup():
        solver.clear()
        return (next(cycle),), {}

    benchmark.extra_info["deals"] = len(deals)
    benchmark.pedantic(call, setup=setup, rounds=len(deals) * repeat, iterations=1, warmup_rounds=0)


@BREAKING
def test_full_deals_cold(benchmark, solver, deal_source, breaking):
    benchmark.group = "full deals, cold table: max_tricks"
    per_deal(benchmark, solver, deal_source(13),
             lambda hands: solver.max_tricks(Position(hands, W, breaking=breaking), NS))


@pytest.mark.parametrize("cards", [4, 6, 8, 10])
@BREAKING
def test_endings_by_cards_left(benchmark, solver, deal_source, cards, breaking):
    benchmark.group = f"endings, {cards} cards left, cold table: max_tricks"
    per_deal(benchmark, solver, deal_source(cards),
             lambda hands: solver.max_tricks(Position(hands, W, breaking=breaking), NS), repeat=3)


@BREAKING
def test_all_cards_at_opening_lead(benchmark, solver, deal_source, breaking):
    benchmark.group = "all-cards analysis at the opening lead, cold table: card_values"
    per_deal(benchmark, solver, deal_source(13),
             lambda hands: solver.card_values(Position(hands, W, breaking=breaking), 0b1010))
