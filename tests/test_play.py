"""The play state (solver/play.py): play/unplay, turns, trick counts, engine positions.
The play rules themselves are tested in test_rules.py."""
import pytest

from model_helpers import PLAYERS, C, state, worked_deal
from dummy_spades.solver.errors import IllegalPlayError
from dummy_spades.solver.play import PlayState
from dummy_spades.solver.position import Position
from dummy_spades.solver.seating import DECLARER_SIDE
from solver_checks import REF


class TestPlayState:
    def test_play_unplay_round_trip(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..", leader=3)
        before = s.engine_position()
        played = []
        while not s.is_over:
            card = s.legal_moves()[-1]
            s.play(card)
            played.append(card)
        assert sum(s.tricks_won) == 3 and s.declarer_tricks + s.defender_tricks == 3
        assert s.to_move is None and s.legal_moves() == []
        with pytest.raises(IllegalPlayError) as e:
            s.check(C("S2"))
        assert e.value.reason == "hand-over"
        for card in reversed(played):
            assert s.unplay() == card
        assert s.engine_position() == before
        with pytest.raises(IndexError):
            s.unplay()

    def test_not_your_turn_and_not_held(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        with pytest.raises(IllegalPlayError) as e:
            s.play(C("H3"))
        assert e.value.reason == "not-your-turn"
        s.play(C("H2"))
        with pytest.raises(IllegalPlayError) as e:
            s.play(C("H2"))
        assert e.value.reason == "not-held"

    def test_engine_position_matches_reference(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        s.play(C("H2"))
        pos = s.engine_position()
        assert isinstance(pos, Position) and pos.trick == (C("H2"),)
        assert REF.max_tricks(pos, DECLARER_SIDE) >= 0

    def test_copy_and_repr(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        s.play(C("H2"))
        assert eval(repr(s), {"PlayState": PlayState}).engine_position() == s.engine_position()
        assert s.copy().moves == s.moves

    def test_deal_play_state(self):
        d = worked_deal()
        for declarer in PLAYERS:
            s = d.initial_state(declarer)
            assert s.names[s.leader] == "Alice"
            assert s.names[0] == declarer

    def test_deal_play_state_needs_the_real_declarer_for_played_cards(self):
        d = worked_deal("5", "6", "7", played=("HA",))
        assert d.play_state().moves == (C("HA"),)
        with pytest.raises(ValueError):
            d.play_state("Alice")
        assert d.initial_state("Alice").moves == ()

    def test_illegal_play_errors_are_value_errors_with_reason(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        with pytest.raises(ValueError):
            s.play(C("SA"))
        with pytest.raises(IllegalPlayError) as e:
            s.play(60)
        assert e.value.reason == "not-held"

    def test_tricks_and_controller(self):
        s = state("A.2..", "Q.3..", "T.4..", "8..A.", leader=1)
        assert s.controller == 1 and s.tricks_left == 2
        s.play(C("H3"))
        assert s.to_move == 2 and s.controller == 0
        assert s.current_trick.cards == (C("H3"),) and s.current_trick.winner == 1
