"""The engine contract (solver.contract.Solver), one suite for both backends.

Every test runs on the compiled engine and on the reference twin, made by
the one ``make_solver``: hand-checked small positions, the entry points
against each other on random small positions (the value is the best card's,
the card values are the groups', the line achieves the value, the null-window
search brackets it), the documented order of the card groups, position
errors and the statistics. The engine against the twin on thousands of
positions: test_engine_reference.py and test_engine_split.py.
"""
from __future__ import annotations

import random

import pytest

from dummy_spades.solver import contract
from dummy_spades.solver.backend import BACKENDS, make_solver
from dummy_spades.solver.cards import parse_card, parse_hand
from dummy_spades.solver.position import NIL_LOST, Position, PositionError

from solver_checks import check_groups, check_null_window, query, random_position, replay

try:
    import dummy_spades.solver.engine  # noqa: F401
    HAVE_ENGINE = True
except ImportError:  # pragma: no cover - depends on the build
    HAVE_ENGINE = False


@pytest.fixture(params=BACKENDS)
def solver(request) -> contract.Solver:
    if request.param == "engine" and not HAVE_ENGINE:
        pytest.skip("compiled engine not built (pip install -e .)")
    return make_solver(2, request.param)


# a small ending: 3 cards each, N to lead
ENDING = (parse_hand("A2.K.."), parse_hand("K3..A."), parse_hand("Q.Q..2"), parse_hand("4..K.3"))


def test_both_backends_implement_the_contract(solver):
    assert isinstance(solver, contract.Solver)
    for name in ("max_tricks", "bound", "at_least", "card_values", "card_groups", "optimal_line",
                 "clear", "reset_stats"):
        assert callable(getattr(solver, name)), name
    assert solver.nodes == 0 and solver.trick_nodes == 0


def test_zero_sum(solver):
    # a side and the other seats share the tricks; everyone together takes all
    pos = Position(ENDING, 0, breaking=False)
    assert solver.max_tricks(pos, 0b0101) + solver.max_tricks(pos, 0b1010) == 3
    assert solver.max_tricks(pos, 0b1111) == 3 and solver.max_tricks(pos, 0) == 0


def test_card_groups_partition_and_order(solver):
    hands = (parse_hand("AKQ.2.."), parse_hand("J.3.AK."), parse_hand("T.4.QJ."), parse_hand("9.5.2.3"))
    pos = Position(hands, 0, breaking=False)
    groups = solver.card_groups(pos, 0b0101)
    cards = sorted(c for g, _ in groups for c in g)
    assert cards == sorted(solver.card_values(pos, 0b0101))
    # AKQ of spades are one group (touching), the heart 2 another
    spade_group = [g for g, _ in groups if parse_card("SA") in g][0]
    assert set(spade_group) == {parse_card("SA"), parse_card("SK"), parse_card("SQ")}
    values = [v for _, v in groups]
    assert values == sorted(values, reverse=True)  # best first for the maximiser


def test_cards_played_make_cards_touch(solver):
    # with SK gone, N's SA and SQ are equivalent; with SK in the trick they are not
    hands = (parse_hand("AQ..."), parse_hand("2.2.."), parse_hand("3.3.."), parse_hand("4.4.."))
    g = solver.card_groups(Position(hands, 0, breaking=False), 0b0101)
    assert [set(cards) for cards, _ in g] == [{parse_card("SA"), parse_card("SQ")}]
    hands = (parse_hand("AQ..."), parse_hand("2.2.."), parse_hand("3.3.."), parse_hand(".4.."))
    trick = (parse_card("SK"),)
    g = solver.card_groups(Position(hands, 3, trick, breaking=False), 0b0101)
    assert len(g) == 2


def test_optimal_line_plays_out_the_hand(solver):
    line = solver.optimal_line(Position(ENDING, 0, breaking=False), 0b0101)
    assert len(line) == 12 and len(set(line)) == 12
    empty = Position((0, 0, 0, 0), 0)
    assert solver.optimal_line(empty, 5) == []
    assert solver.max_tricks(empty, 5) == 0
    assert solver.card_values(empty, 5) == {} and solver.card_groups(empty, 5) == []


def test_trick_in_progress_and_last_card(solver):
    # S (seat 2) led the S2, W played the S3; N and E still hold one card each
    trick = tuple(parse_card(c) for c in ("S2", "S3"))
    hands = (parse_hand("4..."), parse_hand("A..."), 0, 0)
    assert solver.max_tricks(Position(hands, 2, trick), 0b0010) == 1
    assert solver.card_values(Position(hands, 2, trick), 0b0001) == {parse_card("S4"): 0}


def test_nil(solver):
    # E must play under N's card: nil kept (1 trick for the side counting N)
    pos = Position((parse_hand("A..."), parse_hand("2..."), parse_hand("3..."), parse_hand("4...")), 0)
    assert solver.max_tricks(pos, 0b0011, nil_seat=1) == 1
    # N on nil holding the top spade cannot keep it
    assert solver.max_tricks(pos, 0b0011, nil_seat=0) == NIL_LOST == -1
    assert solver.card_values(pos, 0b0011, nil_seat=0) == {parse_card("SA"): -1}
    assert solver.at_least(pos, 0b0011, 0, nil_seat=1) and not solver.at_least(pos, 0b0011, 0, nil_seat=0)


def test_count_differs_from_side(solver):
    # N plays with E but only W's tricks count: E and N keep W (one trump) from a trick
    pos = Position((parse_hand("A..."), parse_hand("K..."), parse_hand("Q..."), parse_hand("2...")), 0)
    assert solver.max_tricks(pos, 0b0011, count=0b1000) == 0
    assert solver.max_tricks(pos, 0b0011, count=0b0001) == 1


@pytest.mark.parametrize("bad", [
    dict(hands=(1, 2, 4)),
    dict(hands=(1, 1, 4, 8)),
    dict(hands=(1, 2, 4, 8 | 16)),
    dict(leader=4),
    dict(side=16),
    dict(trick=(50, 51, 49, 48)),
    dict(nil_seat=1, side=0b0101),
    dict(nil_seat=4),
    dict(count=16),
    dict(count=-1),
    dict(hands=("x", 2, 4, 8)),
])
def test_position_errors(solver, bad):
    case = dict(hands=(1, 2, 4, 8), leader=0, side=5)
    case.update(bad)
    for name in ("max_tricks", "card_values", "card_groups", "optimal_line"):
        with pytest.raises(PositionError):
            getattr(solver, name)(**query(case))
    with pytest.raises(PositionError):
        solver.bound(**query(case), target=1)
    assert issubclass(PositionError, ValueError)


def test_not_a_position(solver):
    with pytest.raises(PositionError, match="not a position"):
        solver.max_tricks((1, 2, 4, 8), 5)


@pytest.mark.parametrize("seed", range(2))
def test_entry_points_agree(solver, seed):
    """On random small positions: the value is the best group's (the mover's
    side maximising or not), the card values are the groups', the groups
    partition the legal cards in the documented order, the line achieves the
    value and the null-window search brackets it at every target."""
    rng = random.Random(9100 + seed)
    for i in range(25):
        case = random_position(rng, rng.choice((1, 2, 2, 3)))
        q = query(case)
        label = f"seed {seed} position {i}: {case}"
        value = solver.max_tricks(**q)
        groups = solver.card_groups(**q)
        values = solver.card_values(**q)
        maximise = bool(case["side"] >> q["pos"].to_move & 1)
        assert value == (max if maximise else min)(v for _, v in groups), label
        assert values == {c: v for cards, v in groups for c in cards}, label
        assert list(values) == sorted(values), label
        check_groups(case, groups, values)
        sign = -1 if maximise else 1
        assert groups == sorted(groups, key=lambda g: (sign * g[1], g[0][0])), label
        assert replay(case, solver.optimal_line(**q)) == value, label
        check_null_window(case, solver, label, value)


def test_statistics(solver):
    pos = Position(ENDING, 0, breaking=False)
    solver.max_tricks(pos, 0b0101)
    nodes, trick_nodes = solver.nodes, solver.trick_nodes
    assert nodes > 0 and 0 < trick_nodes <= nodes
    solver.reset_stats()
    assert solver.nodes == 0 and solver.trick_nodes == 0
    v = solver.max_tricks(pos, 0b1010)
    solver.clear()
    assert solver.nodes == 0 and solver.trick_nodes == 0
    assert solver.max_tricks(pos, 0b1010) == v
    with pytest.raises(AttributeError):
        solver.nodes = 5  # read-only


def test_make_solver_chooses_the_backend():
    with pytest.raises(ValueError, match="unknown backend"):
        make_solver(backend="dds")
    assert type(make_solver(backend="reference")).__module__ == "dummy_spades.solver.reference"
    if HAVE_ENGINE:
        assert type(make_solver()).__module__ == "dummy_spades.solver.engine"
        assert make_solver(3).tt_mb == 3
