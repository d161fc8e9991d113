"""The engine facade (solver.engine): signatures, validation, Solver objects."""
from __future__ import annotations

import inspect
import subprocess
import sys
import textwrap

import pytest

from dummy_spades.solver import reference as REF
from dummy_spades.solver.cards import parse_card, parse_hand

engine = pytest.importorskip("dummy_spades.solver.engine", reason="compiled engine not built (pip install -e .)")

# N holds every spade; E every heart; S every diamond; W every club.
SUITED = [parse_hand("AKQJT98765432..."), parse_hand(".AKQJT98765432.."),
          parse_hand("..AKQJT98765432."), parse_hand("...AKQJT98765432")]

# a small ending: 3 cards each, N to lead
ENDING = [parse_hand("A2.K.."), parse_hand("K3..A."), parse_hand("Q.Q..2"), parse_hand("4..K.3")]


def test_signatures_match_the_reference():
    for name in ("max_tricks", "card_values", "optimal_line"):
        assert inspect.signature(getattr(engine, name)) == inspect.signature(getattr(REF, name)), name
        method = getattr(engine.Solver, name)
        params = list(inspect.signature(method).parameters.values())[1:]
        assert [p.name for p in params] == list(inspect.signature(getattr(REF, name)).parameters)
    assert list(inspect.signature(engine.card_groups).parameters) == \
        list(inspect.signature(REF.max_tricks).parameters)


def test_one_suit_each():
    # spades are trump: N wins every trick whoever leads
    for leader in range(4):
        assert engine.max_tricks(SUITED, leader, 0b0101, breaking=False) == 13
        assert engine.max_tricks(SUITED, leader, 0b1010, breaking=False) == 0
        assert engine.max_tricks(SUITED, leader, 0b0001, count=0b0100, breaking=False) == 0


def test_ending_against_reference_all_queries():
    for leader in range(4):
        hands = list(ENDING)
        for side in (5, 10, 7, 8):
            for breaking in (False, True):
                kw = dict(breaking=breaking)
                assert engine.max_tricks(hands, leader, side, **kw) == REF.max_tricks(hands, leader, side, **kw)
                assert engine.card_values(hands, leader, side, **kw) == REF.card_values(hands, leader, side, **kw)


def test_card_groups_partition_and_order():
    hands = [parse_hand("AKQ.2.."), parse_hand("J.3.AK."), parse_hand("T.4.QJ."), parse_hand("9.5.2.3")]
    groups = engine.card_groups(hands, 0, 0b0101, breaking=False)
    cards = sorted(c for g, _ in groups for c in g)
    assert cards == sorted(engine.card_values(hands, 0, 0b0101, breaking=False))
    # AKQ of spades are one group (touching), the heart 2 another
    spade_group = [g for g, _ in groups if parse_card("SA") in g][0]
    assert set(spade_group) == {parse_card("SA"), parse_card("SK"), parse_card("SQ")}
    values = [v for _, v in groups]
    assert values == sorted(values, reverse=True)  # best first for the maximiser


def test_cards_played_make_cards_touch():
    # with SK gone, N's SA and SQ are equivalent; with SK in the trick they are not
    hands = [parse_hand("AQ..."), parse_hand("2.2.."), parse_hand("3.3.."), parse_hand("4.4..")]
    g = engine.card_groups(hands, 0, 0b0101, breaking=False)
    assert [set(cards) for cards, _ in g] == [{parse_card("SA"), parse_card("SQ")}]
    hands = [parse_hand("AQ..."), parse_hand("2.2.."), parse_hand("3.3.."), parse_hand(".4..")]
    trick = (parse_card("SK"),)
    g = engine.card_groups(hands, 3, 0b0101, trick=trick, breaking=False)
    assert len(g) == 2


def test_optimal_line_plays_out_the_hand():
    line = engine.optimal_line(ENDING, 0, 0b0101, breaking=False)
    assert len(line) == 12 and len(set(line)) == 12
    empty = [0, 0, 0, 0]
    assert engine.optimal_line(empty, 0, 5) == []
    assert engine.max_tricks(empty, 0, 5) == 0
    assert engine.card_values(empty, 0, 5) == {}


def test_trick_in_progress_and_last_card():
    # S (seat 2) led the S2, W played the S3; N and E still hold one card each
    trick = tuple(parse_card(c) for c in ("S2", "S3"))
    hands = [parse_hand("4..."), parse_hand("A..."), 0, 0]
    assert engine.max_tricks(hands, 2, 0b0010, trick=trick) == 1
    assert engine.card_values(hands, 2, 0b0001, trick=trick) == {parse_card("S4"): 0}


def test_nil():
    # E must play under N's card: nil kept (1 trick for the side counting N)
    hands = [parse_hand("A..."), parse_hand("2..."), parse_hand("3..."), parse_hand("4...")]
    assert engine.max_tricks(hands, 0, 0b0011, nil_seat=1) == 1
    # N on nil holding the top spade cannot keep it
    assert engine.max_tricks(hands, 0, 0b0011, nil_seat=0) == REF.NIL_LOST == -1
    assert engine.card_values(hands, 0, 0b0011, nil_seat=0) == {parse_card("SA"): -1}


@pytest.mark.parametrize("bad", [
    dict(hands=[1, 2, 4]),
    dict(hands=[1, 1, 4, 8]),
    dict(hands=[1, 2, 4, 8 | 16]),
    dict(leader=4),
    dict(side=16),
    dict(trick=(50, 51, 49, 48)),
    dict(nil_seat=1, side=0b0101),
    dict(count=16),
    dict(count=-1),
])
def test_position_errors(bad):
    pos = dict(hands=[1, 2, 4, 8], leader=0, side=5)
    pos.update(bad)
    with pytest.raises(engine.PositionError):
        engine.max_tricks(**pos)
    assert issubclass(engine.PositionError, ValueError)


def test_solver_options_and_stats():
    with pytest.raises(ValueError):
        engine.Solver(tt_mb=0)
    with pytest.raises(ValueError):
        engine.Solver(tt_mb="lots")
    s = engine.Solver(tt_mb=2)
    assert s.tt_mb == 2 and s.nodes == 0
    hands = [parse_hand("AKQJ.T98.765.432"), parse_hand("T98.765.432.AKQJ"),
             parse_hand("765.432.AKQJ.T98"), parse_hand("432.AKQJ.T98.765")]
    v = s.max_tricks(hands, 3, 5, breaking=False)
    assert 0 <= v <= 13
    assert s.nodes > 0 and s.tt_entries > 0
    assert s.tt_bytes <= 2 * 1048576
    s.clear()
    assert s.nodes == 0 and s.tt_entries == 0
    assert s.max_tricks(hands, 3, 5, breaking=False) == v


def test_missing_extension_gives_a_clear_import_error():
    code = textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name == "dummy_spades.solver._engine":
                    raise ImportError("blocked")
        sys.meta_path.insert(0, Block())
        try:
            import dummy_spades.solver.engine
        except ImportError as exc:
            print(type(exc).__name__, exc)
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=str(__import__("pathlib").Path(__file__).resolve().parents[1]))
    assert "EngineNotBuiltError" in out.stdout
    assert "pip install -e ." in out.stdout
