"""αμ search (solver/alphamu.py) against brute-force references written
apart from it (tests/alphamu_reference.py): the strategies of the
declarer's side enumerated, the defenders answering each world on their
own; M = 1 against the plain double-dummy average; monotone in M; the
two-way finesse; the deadline and the node budget."""
from __future__ import annotations

import random
import time
from itertools import combinations
from typing import List, Sequence, Tuple

import pytest

from alphamu_reference import best_chance, composed_best_chance, splits
from solver_checks import REF
from dummy_spades.solver import alphamu
from dummy_spades.solver.backend import make_solver
from dummy_spades.solver.cards import iter_cards, parse_card, parse_hand
from dummy_spades.solver.dealer import random_seat_deals
from dummy_spades.solver.position import Position
from dummy_spades.solver.seating import DECLARER_SIDE

SOLVER = make_solver(16)


def position(declarer: str, left: str, dummy: str, right: str, leader: int = 0) -> Position:
    return Position((parse_hand(declarer), parse_hand(left), parse_hand(dummy),
                     parse_hand(right)), leader)


def values(result: alphamu.Search) -> List[float]:
    return [c.value for c in result.cards]


def two_suit_endings(count: int, cards: int, seed: int) -> List[Position]:
    """Random endings of ``cards`` cards a hand from hearts and diamonds,
    the declarer or the dummy to lead (no trumps: guesses are common)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = [s * 13 + r for s in (1, 2) for r in range(13)]
        chosen = rng.sample(deck, 4 * cards)
        hands = [sum(1 << c for c in chosen[k * cards:(k + 1) * cards]) for k in range(4)]
        out.append(Position((hands[0], hands[1], hands[2], hands[3]), rng.choice([0, 2])))
    return out


def pimc(worlds: Sequence[Position], need: int, first: int) -> float:
    """The share of worlds where the side reaches ``need`` double dummy after ``first``."""
    made = sum(1 for p in worlds if REF.max_tricks(p.play(first), DECLARER_SIDE) >= need)
    return made / len(worlds)


# ------------------------------------------------------------ the finesse
FINESSE = position(".AJ3..", ".Q98..", ".KT2..", ".765..")


def test_two_way_finesse_is_a_guess() -> None:
    worlds = splits(FINESSE, (1, 3))
    assert len(worlds) == 20
    hindsight = alphamu.search(worlds, DECLARER_SIDE, 3, 1, SOLVER)
    full = alphamu.search(worlds, DECLARER_SIDE, 3, alphamu.LOOKAHEAD_MAX, SOLVER)
    low = {c.cards: c.value for c in hindsight.cards}[(parse_card("H3"),)]
    assert low == 1.0                           # double dummy always finds the queen
    assert full.exact_depth and full.completed == 6
    assert values(full) == [0.5, 0.5, 0.5]      # whatever is led, half the time
    assert max(values(full)) == 0.5


@pytest.mark.slow
def test_two_way_finesse_against_the_strategies() -> None:
    worlds = splits(FINESSE, (1, 3))
    full = alphamu.search(worlds, DECLARER_SIDE, 3, alphamu.LOOKAHEAD_MAX, SOLVER)
    for card in full.cards:
        assert card.value == composed_best_chance(worlds, DECLARER_SIDE, 3, card.cards[0])


# ------------------------------------------------------------ references
def test_literal_strategies_on_two_card_endings() -> None:
    """Every strategy enumerated one by one: αμ's figure is the best of them."""
    fusion = 0
    for pos in two_suit_endings(60, 2, 3):
        worlds = splits(pos, (1, 3))
        full = alphamu.search(worlds, DECLARER_SIDE, 2, alphamu.LOOKAHEAD_MAX, SOLVER)
        one = alphamu.search(worlds, DECLARER_SIDE, 2, 1, SOLVER)
        fusion += values(full) != values(one)
        for card in full.cards:
            assert card.value == pytest.approx(best_chance(worlds, DECLARER_SIDE, 2,
                                                           card.cards[0]))
    assert fusion >= 1      # some of them need a guess that double dummy never misses


#: three-card endings from hearts and diamonds where some card's figure
#: without hindsight is below its double-dummy figure
FUSION_ENDINGS = [
    (position(".AQ6..", ".43.9.", ".K5.6.", ".82.T."), 3),
    (position(".A8.J.", ".7.42.", ".Q4.A.", ".K.63."), 3),
    (position(".AT8..", ".4.Q7.", ".6.T5.", ".K.A8.", 2), 3),
    (position(".AJ.Q.", ".K6.2.", ".Q5.A.", ".72.7.", 2), 3),
    (position(".4.J8.", ".7.K9.", ".A98..", ".J.T4."), 3),
]


@pytest.mark.parametrize("index", range(len(FUSION_ENDINGS)))
def test_three_card_endings_with_a_guess(index: int) -> None:
    pos, need = FUSION_ENDINGS[index]
    worlds = splits(pos, (1, 3))
    full = alphamu.search(worlds, DECLARER_SIDE, need, alphamu.LOOKAHEAD_MAX, SOLVER)
    one = alphamu.search(worlds, DECLARER_SIDE, need, 1, SOLVER)
    assert values(full) != values(one)
    for card in full.cards:
        assert card.value == pytest.approx(composed_best_chance(worlds, DECLARER_SIDE, need,
                                                                card.cards[0]))
        # the vector is one strategy's outcomes: its share is the value
        assert card.vector.bit_count() / len(worlds) == card.value


def test_weighted_worlds() -> None:
    rng = random.Random(11)
    for pos, need in FUSION_ENDINGS[:3]:
        worlds = splits(pos, (1, 3))
        weights = [rng.choice([0.5, 1.0, 3.0, 7.0]) for _ in worlds]
        full = alphamu.search(worlds, DECLARER_SIDE, need, alphamu.LOOKAHEAD_MAX, SOLVER,
                              weights=weights)
        for card in full.cards:
            assert card.value == pytest.approx(composed_best_chance(
                worlds, DECLARER_SIDE, need, card.cards[0], weights))


def test_hidden_dummy_cards_are_told_apart_once_faced() -> None:
    """The declarer on lead before the dummy is faced: the worlds differ in
    the dummy's cards, which the declarer sees from the dummy's first card."""
    rng = random.Random(5)
    checked = 0
    for pos in two_suit_endings(40, 2, 8):
        if pos.leader != 0:
            continue
        pool = list(iter_cards(pos.hands[1] | pos.hands[2] | pos.hands[3]))
        worlds = []
        for left in combinations(pool, 2):
            rest = [c for c in pool if c not in left]
            for dummy in combinations(rest, 2):
                right = [c for c in rest if c not in dummy]
                worlds.append(Position((pos.hands[0], sum(1 << c for c in left),
                                        sum(1 << c for c in dummy), sum(1 << c for c in right)),
                                       0))
        worlds = rng.sample(worlds, 12)
        full = alphamu.search(worlds, DECLARER_SIDE, 1, alphamu.LOOKAHEAD_MAX, SOLVER)
        for card in full.cards:
            assert card.value == pytest.approx(composed_best_chance(worlds, DECLARER_SIDE, 1,
                                                                    card.cards[0]))
        checked += 1
    assert checked >= 5


@pytest.mark.slow
def test_seeded_three_card_endings_every_world() -> None:
    """The seeded endings of `dummy-spades deal --cards 3 --seed 5`, every
    layout of the defenders' cards, each goal from 1 to 3."""
    for i, hands in enumerate(random_seat_deals(12, 5, 3)):
        pos = Position((hands[0], hands[1], hands[2], hands[3]), 0)
        worlds = splits(pos, (1, 3))
        need = 1 + i % 3
        full = alphamu.search(worlds, DECLARER_SIDE, need, alphamu.LOOKAHEAD_MAX, SOLVER)
        for card in full.cards:
            assert card.value == pytest.approx(composed_best_chance(worlds, DECLARER_SIDE, need,
                                                                    card.cards[0]))


# ------------------------------------------------------------ properties
@pytest.mark.parametrize("index", range(3))
def test_lookahead_one_is_the_double_dummy_average(index: int) -> None:
    pos, need = FUSION_ENDINGS[index]
    worlds = splits(pos, (1, 3))
    one = alphamu.search(worlds, DECLARER_SIDE, need, 1, REF)
    for card in one.cards:
        assert card.value == pytest.approx(pimc(worlds, need, card.cards[0]))


def test_monotone_in_lookahead() -> None:
    for pos in two_suit_endings(8, 3, 21):
        worlds = splits(pos, (1, 3))
        for need in (2, 3):
            rows = [values(alphamu.search(worlds, DECLARER_SIDE, need, m, SOLVER))
                    for m in range(1, 7)]
            for before, after in zip(rows, rows[1:]):
                assert all(b <= a + 1e-12 for a, b in zip(before, after))


def test_the_covering_lookahead_is_the_largest() -> None:
    pos, need = FUSION_ENDINGS[0]
    worlds = splits(pos, (1, 3))
    covering = alphamu.side_moves_left(pos, DECLARER_SIDE)
    assert covering == 6
    a = alphamu.search(worlds, DECLARER_SIDE, need, covering, SOLVER)
    b = alphamu.search(worlds, DECLARER_SIDE, need, alphamu.LOOKAHEAD_MAX, SOLVER)
    assert b.lookahead == covering and values(a) == values(b)


def test_the_reference_twin_gives_the_same_leaves() -> None:
    pos, need = FUSION_ENDINGS[1]
    worlds = splits(pos, (1, 3))
    for m in (1, 2, 3):
        assert values(alphamu.search(worlds, DECLARER_SIDE, need, m, REF)) == \
            values(alphamu.search(worlds, DECLARER_SIDE, need, m, SOLVER))


def test_goal_reached_or_out_of_reach() -> None:
    worlds = splits(FINESSE, (1, 3))
    assert values(alphamu.search(worlds, DECLARER_SIDE, 0, 3, SOLVER)) == [1.0, 1.0, 1.0]
    assert values(alphamu.search(worlds, DECLARER_SIDE, 4, 3, SOLVER)) == [0.0, 0.0, 0.0]


# ------------------------------------------------------------ stopping
def test_a_node_budget_stops_at_a_completed_lookahead() -> None:
    worlds = splits(FINESSE, (1, 3))
    whole = alphamu.search(worlds, DECLARER_SIDE, 3, 6, SOLVER)
    for budget in (200, 2_000, 20_000):
        SOLVER.clear()
        cut = alphamu.search(worlds, DECLARER_SIDE, 3, 6, SOLVER, node_budget=budget)
        if cut.stopped_by is None:
            assert values(cut) == values(whole)
            continue
        assert cut.stopped_by == alphamu.NODES and cut.completed < 6
        if cut.completed:
            assert values(cut) == values(alphamu.search(worlds, DECLARER_SIDE, 3,
                                                        cut.completed, SOLVER))
        else:
            assert cut.cards == ()


def test_a_deadline_passed_stops_at_once() -> None:
    worlds = splits(FINESSE, (1, 3))
    cut = alphamu.search(worlds, DECLARER_SIDE, 3, 6, SOLVER, deadline=time.monotonic())
    assert cut.stopped_by == alphamu.TIME and cut.completed < 6


# ------------------------------------------------------------ bad input
@pytest.mark.parametrize("m", [0, -1, 27, True, 1.5])
def test_bad_lookahead(m: object) -> None:
    with pytest.raises(alphamu.AlphaMuError, match="lookahead"):
        alphamu.check_lookahead(m)  # type: ignore[arg-type]


def test_worlds_the_side_could_tell_apart_are_refused() -> None:
    a = position(".AJ3..", ".Q98..", ".KT2..", ".765..")
    b = position(".AJ2..", ".Q98..", ".KT3..", ".765..")
    with pytest.raises(alphamu.AlphaMuError, match="worlds"):
        alphamu.search([a, b], DECLARER_SIDE, 3, 2, SOLVER)
    with pytest.raises(alphamu.AlphaMuError, match="side"):
        alphamu.search([a], 0b1010, 3, 2, SOLVER)
    with pytest.raises(alphamu.AlphaMuError, match="weight"):
        alphamu.search([a], DECLARER_SIDE, 3, 2, SOLVER, weights=[1.0, 2.0])


def test_fronts() -> None:
    assert alphamu.prune([0b011, 0b001, 0b110, 0b011, 0]) == [0b011, 0b110]
    assert alphamu.dominated([0b001, 0b100], [0b011, 0b110])
    assert not alphamu.dominated([0b101], [0b011, 0b110])
    assert alphamu.bits(0b10110) == [1, 2, 4]
    assert alphamu.weighted_value(0b101, [1.0, 2.0, 3.0], 3) == pytest.approx(4 / 6)
