"""docs/RULES.md "Play" - one class per rule: follow suit, the trick winner, spade
breaking (the only-spades exception, the opening lead, the switch). Each is
tested on the rule functions of solver/rules.py and through the board."""
import pytest

from model_helpers import C, cards, state, worked_deal
from dummy_spades.solver.cards import parse_hand
from dummy_spades.solver.deal import Deal
from dummy_spades.solver.errors import IllegalPlayError
from dummy_spades.solver.rules import beats, breaks_spades, legal_cards, spade_lead_allowed, trick_winner


class TestFollowSuit:
    """Players must follow the suit led if they can; otherwise any card."""

    def test_must_follow(self):
        s = state("A.K..", "2.Q..", "3.J..", "4.T..", leader=1)
        s.push(C("HQ"))
        assert s.legal_moves() == [C("HJ")] and s.to_move == 2
        with pytest.raises(IllegalPlayError) as e:
            s.push(C("S3"))
        assert e.value.reason == "revoke"

    def test_void_may_play_anything(self):
        s = state("AK...", "2.Q..", "3.J..", "4.T..", leader=1)
        s.push(C("HQ")); s.push(C("HJ")); s.push(C("HT"))
        assert set(s.legal_moves()) == {C("SA"), C("SK")}


class TestTrickWinner:
    """Highest spade wins; with none, the highest card of the suit led."""

    def test_highest_of_suit_led(self):
        s = state("..A.", "..K.", "...A", "..2.", leader=1)
        for c in ("DK", "CA", "D2", "DA"):
            s.push(C(c))
        assert s.tricks[0].winner == 0 and s.tricks_won == (1, 0, 0, 0)
        assert s.leader == 0

    def test_spade_trumps(self):
        s = state("..AQ.", "..KJ.", "2...2", "..3.3", leader=1)
        for c in ("DK", "S2", "D3", "DA"):
            s.push(C(c))
        assert s.tricks[0].winner == 2
        assert s.to_move == 2 and s.chooser == 0  # the dummy leads; the declarer chooses


class TestSpadeBreaking:
    """No spade lead until spades are broken, unless the leader holds only spades;
    also on the opening lead; the rule can be switched off."""

    def test_no_spade_lead_before_broken(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..")
        assert s.legal_moves() == [C("H2")]
        with pytest.raises(IllegalPlayError) as e:
            s.push(C("SA"))
        assert e.value.reason == "spade-lead"

    def test_only_spades_may_lead_them(self):
        s = state("AK...", "QJ...", "T9...", "87...")
        assert s.legal_moves() == [C("SK"), C("SA")]

    def test_broken_by_a_spade_played_earlier(self):
        s = state("A.2.2.", "Q.3.3.", "T.4.4.", "87..A.", leader=0)
        for c in ("H2", "H3", "H4"):
            s.push(C(c))
        assert not s.spades_broken
        s.push(C("S8"))  # seat 3 is void in hearts and trumps
        assert s.spades_broken and s.tricks[0].winner == 3
        assert set(s.legal_moves()) == {C("S7"), C("DA")}
        s.pop()
        assert not s.spades_broken

    def test_breaking_not_by_the_trick_in_progress(self):
        s = state("A.2..", "Q.3..", "T..2.", "8.4..", leader=1)
        s.push(C("H3")); s.push(C("ST"))
        assert not s.spades_broken  # broken only once a trick holding a spade is complete

    def test_rule_switched_off(self):
        s = state("AK.2..", "QJ.3..", "T9.4..", "87.5..", breaking=False)
        assert C("SA") in s.legal_moves()



class TestRuleFunctions:
    def test_legal_cards_follow_suit(self):
        hand = parse_hand("AK.2.3.")
        assert legal_cards(hand, cards("H9"), False) == parse_hand(".2..")
        assert legal_cards(hand, cards("C9"), False) == hand

    def test_legal_cards_on_lead(self):
        hand = parse_hand("AK.2.3.")
        assert legal_cards(hand, [], False) == parse_hand(".2.3.")
        assert legal_cards(hand, [], True) == hand
        assert legal_cards(hand, [], False, breaking=False) == hand
        assert legal_cards(parse_hand("AK..."), [], False) == parse_hand("AK...")

    def test_spade_lead_allowed(self):
        assert spade_lead_allowed(parse_hand("AK..."), False)
        assert not spade_lead_allowed(parse_hand("AK.2.."), False)
        assert spade_lead_allowed(parse_hand("AK.2.."), True)
        assert spade_lead_allowed(parse_hand("AK.2.."), False, breaking=False)

    @pytest.mark.parametrize("trick, winner", [
        ("H2 HA H3 H4", 1),            # highest of the suit led
        ("H2 DA CA H3", 3),            # off-suit aces do not win
        ("H2 S2 HA H3", 1),            # the lowest spade trumps
        ("H2 S2 S3 HA", 2),            # the highest spade wins
        ("SK SA S2 H3", 1),            # spades led
        ("D5", 0),                     # a partial trick: the leader so far
    ])
    def test_trick_winner(self, trick, winner):
        assert trick_winner(cards(trick)) == winner

    def test_beats(self):
        assert beats(C("S2"), C("HA")) and not beats(C("HA"), C("S2"))
        assert not beats(C("DA"), C("H2"))  # a discard never wins

    def test_breaks_spades(self):
        assert breaks_spades(cards("H2 S2 H3 H4")) and not breaks_spades(cards("H2 D2 H3 H4"))


class TestOpeningLead:
    """The first bidder leads; the spade-breaking rule applies to the opening lead too."""

    def test_opening_leader_may_not_lead_spades(self):
        s = worked_deal("5", "6", "7").board()
        assert s.names[s.to_move] == "Alice"
        assert C("SA") not in s.legal_moves()

    def test_opening_leader_with_only_spades(self):
        hands = {"Alice": "AKQJT98765432...", "Bob": ".AKQJT98765432..",
                 "Carol": "..AKQJT98765432.", "dummy": "...AKQJT98765432"}
        s = Deal(("Alice", "Bob", "Carol"), "Carol", hands).opening_board("Bob")
        assert s.names[s.to_move] == "Alice" and len(s.legal_moves()) == 13
