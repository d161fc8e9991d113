"""The board (solver/board.py): push/pop, turns, trick counts, copies, the
engine's position, boards of deals and of positions, the rules switched,
scoring. The play rules themselves are tested in test_rules.py."""
import pytest

from model_helpers import PLAYERS, C, state, worked_deal
from dummy_spades.solver.board import Board
from dummy_spades.solver.cards import HandsError, parse_hand
from dummy_spades.solver.errors import DealError, IllegalPlayError
from dummy_spades.solver.position import Position
from dummy_spades.solver.rules import Rules
from dummy_spades.solver.seating import DECLARER_SIDE, DEFENDER_SIDE
from solver_checks import REF

class TestBoard:
    def test_push_pop_round_trip(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..", leader=3)
        before = s.position
        played = []
        while not s.is_over:
            card = s.legal_moves()[-1]
            s.push(card)
            played.append(card)
        assert sum(s.tricks_won) == 3 and s.declarer_tricks + s.defender_tricks == 3
        assert s.to_move is None and s.legal_moves() == [] and s.chooser is None
        with pytest.raises(IllegalPlayError) as e:
            s.check(C("S2"))
        assert e.value.reason == "hand-over"
        for card in reversed(played):
            assert s.pop() == card
        assert s.position == before and s.tricks == () and s.tricks_won == (0, 0, 0, 0)
        with pytest.raises(IndexError):
            s.pop()

    def test_not_your_turn_and_not_held(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        with pytest.raises(IllegalPlayError) as e:
            s.push(C("H3"))
        assert e.value.reason == "not-your-turn"
        s.push(C("H2"))
        with pytest.raises(IllegalPlayError) as e:
            s.push(C("H2"))
        assert e.value.reason == "not-held"

    def test_position_is_the_engines(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        s.push(C("H2"))
        pos = s.position
        assert isinstance(pos, Position) and pos.trick == (C("H2"),)
        assert REF.max_tricks(pos, DECLARER_SIDE) >= 0

    def test_copy_copies_the_stacks_without_replaying(self, monkeypatch):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        for card in ("H2", "H3", "H4", "H5"):
            s.push(C(card))
        monkeypatch.setattr(Board, "push", lambda self, card: pytest.fail("copy replayed"))
        monkeypatch.setattr(Position, "play", lambda self, card: pytest.fail("copy replayed"))
        c = s.copy()
        monkeypatch.undo()
        assert (c.moves, c.tricks, c.tricks_won, c.position) == \
            (s.moves, s.tricks, s.tricks_won, s.position)
        c.pop()
        c.push(C("H5"))
        c.push(C("S8"))
        assert len(s.moves) == 4 and len(c.moves) == 5 and s.tricks_won == (0, 0, 0, 1)
        assert c.transposition_key() != s.transposition_key()
        c.pop()
        assert c.transposition_key() == s.transposition_key()

    def test_deal_boards_for_any_declarer(self):
        d = worked_deal()
        for declarer in PLAYERS:
            s = d.opening_board(declarer)
            assert s.names[s.leader] == "Alice" and s.seating.opening_leader == "Alice"
            assert s.names[0] == declarer and s.deal is d and s.rules == d.rules

    def test_deal_board_needs_the_real_declarer_for_played_cards(self):
        d = worked_deal("5", "6", "7", played=("HA",))
        assert d.board().moves == (C("HA"),)
        with pytest.raises(ValueError):
            d.board("Alice")
        assert d.opening_board("Alice").moves == ()

    def test_deal_hands_out_copies_of_its_board(self):
        d = worked_deal("5", "6", "7", played=("HA", "H3"))
        b = d.board()
        b.push(C("H2"))
        assert d.board().moves == (C("HA"), C("H3"))

    def test_a_frozen_play_resumes_without_replaying(self, monkeypatch):
        b = worked_deal("5", "6", "7", played=("HA", "H3", "H2", "H8")).board()
        b.push(b.legal_moves()[0])
        play = b.frozen()
        monkeypatch.setattr(Board, "push", lambda *a: pytest.fail("replayed"))
        again = Board.resume(play, b.names, b.rules, b.deal)
        assert again.frozen() == play and again.moves == b.moves and again.deal is b.deal
        assert again.tricks == b.tricks and again.tricks_won == b.tricks_won

    def test_the_open_play_is_read_from_the_stacks(self):
        b = worked_deal("5", "6", "7").board()
        for _ in range(14):                        # the highest legal card: some show out
            b.push(b.legal_moves()[-1])
        seen = b.open_play()
        tricks = b.tricks + (b.current_trick,)
        assert seen.plays == tuple((s, c) for t in tricks for s, c in zip(t.seats, t.cards))
        assert seen.won == b.tricks_won and (seen.leader, seen.trick) == (b.leader, b.trick)
        shown = [set(), set(), set(), set()]
        for t in tricks:
            for seat, card in zip(t.seats[1:], t.cards[1:]):
                if card // 13 != t.cards[0] // 13:
                    shown[seat].add(t.cards[0] // 13)
        assert any(shown) and [set(v) for v in seen.voids] == shown

    def test_illegal_play_errors_are_value_errors_with_reason(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        with pytest.raises(ValueError):
            s.push(C("SA"))
        with pytest.raises(IllegalPlayError) as e:
            s.push(60)
        assert e.value.reason == "not-held"

    def test_tricks_and_chooser(self):
        s = state("A.2..", "Q.3..", "T.4..", "8..A.", leader=1)
        assert s.chooser == 1 and s.tricks_left == 2
        s.push(C("H3"))
        assert s.to_move == 2 and s.chooser == 0
        assert s.current_trick.cards == (C("H3"),) and s.current_trick.winner == 1

    def test_a_board_at_a_position_with_a_trick_in_progress_and_tricks_won(self):
        hands = tuple(parse_hand(h) for h in ("A.2..", "Q...", "T.4..", "8..A."))
        b = Board.at(Position(hands, 1, (C("H3"),)), won=(3, 4, 2, 2))
        assert b.to_move == 2 and b.side_won(DECLARER_SIDE) == 5 and b.side_won(DEFENDER_SIDE) == 6
        b.push(C("H4"))
        assert b.tricks == () and b.to_move == 3
        b.push(C("S8"))                           # a ruff wins it: the right defender
        b.push(C("H2"))
        assert b.tricks_won == (3, 4, 2, 3) and b.tricks[0].cards == (C("H3"), C("H4"), C("S8"),
                                                                      C("H2"))
        assert b.rules == Rules() and b.leader == 3

    def test_one_check_of_the_hands(self):
        hands = tuple(parse_hand(h) for h in ("A.2..", "A.3..", "T.4..", "8..A."))
        with pytest.raises(HandsError, match="SA is also in declarer's hand") as e:
            Board.at(Position(hands, 0))
        assert e.value.hand == 1 and e.value.owner == 0 and e.value.field == "hands.left defender"
        uneven = tuple(parse_hand(h) for h in ("AK.2..", "Q.3..", "T.4..", "8..A."))
        with pytest.raises(HandsError, match="hands of one size"):
            Board.at(Position(uneven, 0))
        with pytest.raises(ValueError):
            Board.at(Position(hands[:1] + (0, 0, 0), 0, (C("SA"),)))

    def test_rules_switched_without_replaying(self):
        d = worked_deal("5", "6", "7", rules=Rules(breaking=False))
        b = d.board()
        b.push(C("SA"))                       # a spade lead: legal with the rule off
        with pytest.raises(IllegalPlayError) as e:
            b.with_rules(Rules(breaking=True))
        assert e.value.reason == "spade-lead" and not b.rules.breaking
        b.pop()
        b.push(C("HA"))
        on = b.with_rules(Rules(breaking=True))
        assert on.rules.breaking and on.deal is d and on.position.breaking
        assert on.moves == b.moves and not b.position.breaking

    def test_a_deal_under_other_rules_keeps_its_played_cards(self):
        d = worked_deal("5", "6", "7", played=("HA", "H3", "H2", "H8"))
        off = d.with_rules(Rules(breaking=False))
        assert off.rules.breaking is False and off.board().moves == d.board().moves
        assert off.board().deal is off and not off.board().position.breaking
        assert off.board().frozen() == off.board().frozen() and off.board() is not off.board()
        assert d.with_rules(d.rules) is d

    def test_the_board_scores_itself(self):
        b = worked_deal("5", "6", "7").opening_board()
        while not b.is_over:
            b.push(b.legal_moves()[0])
        d = worked_deal("5", "6", "7", played=b.moves)
        assert b.is_over and b.score() == d.score()
        assert b.score().declarer_tricks == b.declarer_tricks
        start = d.opening_board()
        assert start.score(declarer_tricks=8) == worked_deal("5", "6", "7").score(8)
        with pytest.raises(DealError, match="declarer side's trick total"):
            start.score()
        with pytest.raises(DealError, match="no auction"):
            Board.at(start.position).score(8)

    def test_a_deal_takes_a_boards_play(self):
        d = worked_deal("5", "6", "7")
        b = d.opening_board()
        b.push(C("HA"))
        assert d.with_play(b) == worked_deal("5", "6", "7", played=("HA",))
        with pytest.raises(DealError):
            d.with_play(Board.at(b.position, b.names, deal=d))
        with pytest.raises(DealError):
            d.with_play(Board.at(d.opening_board().position, deal=d))
