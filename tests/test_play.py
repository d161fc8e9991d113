"""RULES.md "Seating for the play" and "Play": the play state, seat by seat."""
import pytest

from solver import reference
from solver.cards import parse_card, parse_hand
from solver.deal import Deal
from solver.errors import IllegalPlayError
from solver.play import PlayState, Position
from solver.seating import (DECLARER_SIDE, DEFENDER_SIDE, Seating, bidding_order, controller,
                            play_seating)

PLAYERS = ("Alice", "Bob", "Carol")


def C(text):
    return parse_card(text)


def state(*hands, leader=0, breaking=True, broken=False):
    return PlayState([parse_hand(h) for h in hands], leader, breaking, broken)


class TestSeating:
    """Play order: declarer, next real player clockwise, dummy, remaining real player."""

    @pytest.mark.parametrize("declarer, seats", [
        ("Alice", ("Alice", "Bob", "dummy", "Carol")),
        ("Bob", ("Bob", "Carol", "dummy", "Alice")),
        ("Carol", ("Carol", "Alice", "dummy", "Bob")),
    ])
    def test_play_seating(self, declarer, seats):
        assert play_seating(PLAYERS, declarer) == seats

    @pytest.mark.parametrize("dealer, declarer", [(d, x) for d in PLAYERS for x in PLAYERS])
    def test_first_bidder_leads_whatever_their_role(self, dealer, declarer):
        s = Seating.for_deal(PLAYERS, dealer, declarer)
        assert s.opening_leader == bidding_order(PLAYERS, dealer)[0]
        assert s.names[2] == "dummy"
        assert s.declarer == declarer

    def test_declarer_plays_the_dummy(self):
        assert [controller(s) for s in range(4)] == [0, 1, 0, 3]
        assert DECLARER_SIDE == 0b0101 and DEFENDER_SIDE == 0b1010


class TestFollowSuit:
    """Players must follow the suit led if they can; otherwise any card."""

    def test_must_follow(self):
        s = state("A.K..", "2.Q..", "3.J..", "4.T..", leader=1)
        s.play(C("HQ"))
        assert s.legal_moves() == [C("HJ")] and s.to_move == 2
        with pytest.raises(IllegalPlayError) as e:
            s.play(C("S3"))
        assert e.value.reason == "revoke"

    def test_void_may_play_anything(self):
        s = state("AK...", "2.Q..", "3.J..", "4.T..", leader=1)
        s.play(C("HQ")); s.play(C("HJ")); s.play(C("HT"))
        assert set(s.legal_moves()) == {C("SA"), C("SK")}


class TestTrickWinner:
    """Highest spade wins; with none, the highest card of the suit led."""

    def test_highest_of_suit_led(self):
        s = state("..A.", "..K.", "...A", "..2.", leader=1)
        for c in ("DK", "CA", "D2", "DA"):
            s.play(C(c))
        assert s.tricks[0].winner == 0 and s.tricks_won == (1, 0, 0, 0)
        assert s.leader == 0

    def test_spade_trumps(self):
        s = state("..AQ.", "..KJ.", "2...2", "..3.3", leader=1)
        for c in ("DK", "S2", "D3", "DA"):
            s.play(C(c))
        assert s.tricks[0].winner == 2
        assert s.to_move == 2 and s.controller == 0  # the dummy leads; the declarer chooses


class TestSpadeBreaking:
    """No spade lead until spades are broken, unless the leader holds only spades;
    also on the opening lead; the rule can be switched off."""

    def test_no_spade_lead_before_broken(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        assert s.legal_moves() == [C("H2")]
        with pytest.raises(IllegalPlayError) as e:
            s.play(C("SA"))
        assert e.value.reason == "spade-lead"

    def test_only_spades_may_lead_them(self):
        s = state("AK...", "QJ...", "T9...", "87...")
        assert s.legal_moves() == [C("SK"), C("SA")]

    def test_broken_by_a_spade_played_earlier(self):
        s = state("A.2.2.", "Q.3.3.", "T.4.4.", "87..A.", leader=0)
        for c in ("H2", "H3", "H4"):
            s.play(C(c))
        assert not s.spades_broken
        s.play(C("S8"))  # seat 3 is void in hearts and trumps
        assert s.spades_broken and s.tricks[0].winner == 3
        assert set(s.legal_moves()) == {C("S7"), C("DA")}
        s.unplay()
        assert not s.spades_broken

    def test_breaking_not_by_the_trick_in_progress(self):
        s = state("A.2..", "Q.3..", "T..2.", "8.4..", leader=1)
        s.play(C("H3")); s.play(C("ST"))
        assert not s.spades_broken  # broken only once a trick holding a spade is complete

    def test_rule_switched_off(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..", breaking=False)
        assert C("SA") in s.legal_moves()


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
        assert reference.max_tricks(**pos._asdict(), side=DECLARER_SIDE) >= 0

    def test_copy_and_repr(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        s.play(C("H2"))
        assert eval(repr(s)).engine_position() == s.engine_position()
        assert s.copy().moves == s.moves

    def test_deal_play_state(self):
        d = Deal(PLAYERS, "Carol", {"Alice": "A.AQT94.82.KT932", "Bob": "T986.K52.Q764.J4",
                                    "Carol": "KJ74.J8.AKJ5.AQ6", "dummy": "Q532.763.T93.875"})
        for declarer in PLAYERS:
            s = d.initial_state(declarer)
            assert s.names[s.leader] == "Alice"
            assert s.names[0] == declarer
